"""Who is at the table: invites (their links and QR codes), joining by one, signing out, referee invites, and the
sessions a referee sees and ends.

An invite's link is made from the console's public URL (`WebSettings.public_url`: `furnace serve --public-url`,
or the machine's address on the local network), never from the request's Host, which the asker chooses. Its QR
code is an SVG with its namespace, so that a browser parsing it as SVG draws it. Joining makes a session and a
new CSRF cookie. A referee invite (`POST /api/referee-invites`) is a sign-in link naming the campaigns its
referee will run (`access.mint_signin`): the host names any, a scoped referee only her own. Every live session a
referee oversees (`access.Session.oversees`: the host every one, her own too; a scoped referee her campaigns'
players, observers and referees) is listed (`GET /api/sessions`) and can be ended
(`POST /api/sessions/{sid}/revoke`); a campaign's own list keeps to its players and observers.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import Field

from furnace.campaign import access
from furnace.errors import FurnaceError
from furnace.web import bell, known
from furnace.web.api import Body, store_of
from furnace.web.auth import SESSION_COOKIE, Asker, Caller, rotate_csrf, set_session
from furnace.web.pages import campaign_url

router = APIRouter(prefix="/api")
C = "/campaigns/{campaign}"
SessionId = Path(ge=1, le=2**62)


class InviteBody(Body):
    role: Literal["player", "observer"]
    player: str = Field("", max_length=60)
    hours: float = Field(24, gt=0, le=720, allow_inf_nan=False)


CampaignName = Annotated[str, Field(min_length=1, max_length=200)]


class RefereeInviteBody(Body):
    campaigns: list[CampaignName] = Field(min_length=1, max_length=access.MAX_SCOPE)
    minutes: float = Field(60, gt=0, le=1440, allow_inf_nan=False)


class JoinBody(Body):
    token: str = Field(min_length=10, max_length=200)


def qr_svg(url: str, title: str) -> str:
    """The link as a QR code: an inline SVG with its namespace (a browser parsing it as image/svg+xml without one
    makes plain XML of it, drawn at 0×0), sized in pixels, on white."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=4, dark="#111",
                                     light="#fff", title=title)
    return out.getvalue().decode("utf-8")


@router.post("/join")
def join(body: JoinBody, request: Request, response: Response) -> dict[str, Any]:
    """Use an invite: a player's or observer's session for its campaign (its cookie set, and a new CSRF one)."""
    token, session = access.redeem_invite(store_of(request), body.token)
    set_session(response, request, token)
    rotate_csrf(response, request)
    page = "player" if session.role == "player" else "table"
    return {"role": session.role, "campaign": session.campaign, "player": session.player,
            "page": campaign_url(session.campaign or "", page)}


@router.post("/signout")
def signout(request: Request, caller: Asker, response: Response) -> dict[str, Any]:
    """End this browser's session (on the server, not only its cookie)."""
    if caller.session is not None:
        session = caller.session.id
        _ended(request, lambda: access.revoke(store_of(request), session))
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"signed_out": True}


@router.post(C + "/invites")
def invite(campaign: str, body: InviteBody, request: Request) -> dict[str, Any]:
    """A single-use invite link for a player or an observer, on the console's public URL, and its QR code."""
    token = access.create_invite(store_of(request), campaign, body.role, body.player, hours=body.hours)
    url = f"{request.app.state.settings.public_url.rstrip('/')}/join/{token}"
    title = f"Invite for {body.player or body.role} to {campaign}"
    return {"url": url, "svg": qr_svg(url, title), "role": body.role, "player": body.player, "hours": body.hours}


@router.post("/referee-invites")
def referee_invite(body: RefereeInviteBody, request: Request, caller: Asker) -> dict[str, Any]:
    """A referee's sign-in link that works once, within `minutes`, for a referee who will run the campaigns named
    (and no other): the host names any, a scoped referee only those she runs herself."""
    names = list(dict.fromkeys(body.campaigns))
    token = access.mint_signin(store_of(request), minutes=body.minutes, campaigns=names, by=caller.session)
    url = f"{request.app.state.settings.public_url.rstrip('/')}/signin?token={token}"
    title = "Referee's invite to " + ", ".join(names)
    return {"url": url, "svg": qr_svg(url, title[:300]), "campaigns": names,
            "minutes": body.minutes}


def _view(s: access.Session, caller: Caller) -> dict[str, Any]:
    return {"id": s.id, "role": s.role, "campaign": s.campaign, "player": s.player, "since": s.created_at,
            "until": s.expires_at, "host": s.host, "campaigns": list(s.runs),
            "yours": caller.session is not None and caller.session.id == s.id}


@router.get("/sessions")
def every_session(request: Request, caller: Asker) -> dict[str, Any]:
    """The live sessions this referee oversees: the host every one (the referees', hers marked `yours`, the
    players' and the observers'); a scoped referee her own and her campaigns'."""
    return {"sessions": [_view(s, caller) for s in access.sessions_seen_by(store_of(request), caller.session)]}


@router.post("/sessions/{sid}/revoke")
def end_session(request: Request, caller: Asker, response: Response, sid: int = SessionId) -> dict[str, Any]:
    """End a session this referee oversees at once (its live streams end too, on every worker); ending one's own
    signs this browser out."""
    _ended(request, lambda: access.revoke(store_of(request), sid, by=caller.session))
    if caller.session is not None and caller.session.id == sid:
        response.delete_cookie(SESSION_COOKIE, path="/")
    return {"revoked": sid}


@router.get(C + "/sessions")
def session_list(campaign: str, request: Request, caller: Asker) -> dict[str, Any]:
    """The live sessions of the campaign's players and observers."""
    return {"sessions": [_view(s, caller) for s in access.sessions(store_of(request), campaign)]}


@router.post(C + "/sessions/{sid}/revoke")
def session_revoke(campaign: str, request: Request, sid: int = SessionId) -> dict[str, Any]:
    store = store_of(request)
    if sid not in {s.id for s in access.sessions(store, campaign)}:
        raise FurnaceError(f"there is no live session {sid} in this campaign")
    _ended(request, lambda: access.revoke(store, sid))
    return {"revoked": sid}


def _ended(request: Request, end: Callable[[], None]) -> None:
    """End a session: this process's streams and kept sessions forget it at once (the bell), and, on PostgreSQL,
    the answer waits until every worker forgot its kept sessions (`known.everywhere`), so the caller's next
    request, on whichever worker, finds it ended."""
    store = store_of(request)
    end()
    bell.session_ended(store)
    if request.app.state.shared:
        known.everywhere(store, max(1, request.app.state.settings.workers))
