"""Who is asking, and may they: the session cookie, the CSRF check, and the one matrix of what each role may do.

Every route is a key of `ALLOW` ("METHOD /path"), with the roles that may use it; a route missing from the
matrix is refused to everyone (deny by default; tests/web/test_roles.py walks every route × role). A player's
or an observer's session belongs to one campaign: any other campaign in the path is refused; so is, for a
referee, a campaign outside her scope (the host runs every one; a referee signed in by a referee invite, only
those it named: `access.Session.runs_campaign`), checked here once for every campaign's route. A few routes are
the host's alone (`HOST_ONLY`: a new campaign). The session
token lives in an HttpOnly, SameSite=Lax cookie (Secure when the request came over HTTPS, directly or through a
proxy saying X-Forwarded-Proto: https). A state-changing request must carry the CSRF cookie's value in the
X-CSRF-Token header (double submit), and an Origin header, when sent, must be the console's public URL's (or
another origin it was told it is served from: `WebSettings.origins`), never whatever the request's Host says. The
CSRF cookie is a new one at each sign-in. Each session's writes and log reads are rate-limited (429 with
Retry-After: `limits.Buckets`).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Depends, HTTPException, Request, Response
from starlette.routing import Match

from furnace.campaign import access
from furnace.campaign.store import Store
from furnace.web import known
from furnace.web.config import WebSettings

if TYPE_CHECKING:           # limits answers a refusal with an error page, whose module imports this one
    from furnace.web.limits import Buckets

SESSION_COOKIE = "furnace_session"
CSRF_COOKIE = "furnace_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
Who = Literal["referee", "player", "observer", "anonymous"]
WHO: tuple[Who, ...] = ("referee", "player", "observer", "anonymous")

REF, PLAY, OBS, ANON = "referee", "player", "observer", "anonymous"
SIGNED_IN = frozenset({REF, PLAY, OBS})
EVERYONE = frozenset({REF, PLAY, OBS, ANON})
C = "/api/campaigns/{campaign}"

# The permission matrix: each route, and who may use it. Nothing else is allowed.
ALLOW: dict[str, frozenset[str]] = {
    # pages
    "GET /": EVERYONE,
    "GET /signin": EVERYONE,
    "GET /join/{token}": EVERYONE,
    "GET /c/{campaign}": SIGNED_IN,
    "GET /c/{campaign}/referee": frozenset({REF}),
    "GET /c/{campaign}/player": frozenset({PLAY}),
    "GET /c/{campaign}/table": frozenset({REF, PLAY, OBS}),
    "GET /static": EVERYONE,
    # the API
    "GET /api/openapi.json": SIGNED_IN,
    "GET /api/me": EVERYONE,
    "POST /api/join": EVERYONE,
    "POST /api/signout": SIGNED_IN,
    "POST /api/referee-invites": frozenset({REF}),
    "GET /api/sessions": frozenset({REF}),
    "POST /api/sessions/{sid}/revoke": frozenset({REF}),
    "GET /api/campaigns": frozenset({REF}),
    "POST /api/campaigns": frozenset({REF}),
    "GET /api/bestiary": frozenset({REF}),
    f"GET {C}": SIGNED_IN,
    f"GET {C}/log": SIGNED_IN,
    f"GET {C}/live": SIGNED_IN,
    f"POST {C}/funnel": frozenset({REF}),
    f"POST {C}/promote": frozenset({REF}),
    f"POST {C}/encounter": frozenset({REF}),
    f"POST {C}/encounter/next": frozenset({REF}),
    f"GET {C}/encounter/actions": frozenset({REF, PLAY}),
    f"POST {C}/encounter/act": frozenset({REF, PLAY}),
    f"POST {C}/encounter/end": frozenset({REF}),
    f"GET {C}/encounter/questions": frozenset({REF, PLAY}),
    f"POST {C}/encounter/questions/{{qid}}": frozenset({REF, PLAY}),
    f"POST {C}/encounter/standing": frozenset({REF}),
    f"GET {C}/standing": frozenset({REF}),
    f"POST {C}/standing": frozenset({REF}),
    f"POST {C}/encounter/edit/{{change}}": frozenset({REF}),
    f"POST {C}/monsters/{{cid}}": frozenset({REF}),
    f"POST {C}/table": frozenset({REF}),
    f"POST {C}/rest": frozenset({REF}),
    f"POST {C}/clock": frozenset({REF}),
    f"POST {C}/roll": frozenset({REF}),
    f"POST {C}/rolls/{{seq}}/show": frozenset({REF}),
    f"POST {C}/characters/{{who}}/roll": frozenset({REF, PLAY}),
    f"POST {C}/characters/{{who}}/luck": frozenset({REF, PLAY}),
    f"GET {C}/undo": frozenset({REF}),
    f"POST {C}/undo": frozenset({REF}),
    f"POST {C}/redo": frozenset({REF}),
    f"POST {C}/invites": frozenset({REF}),
    f"GET {C}/sessions": frozenset({REF}),
    f"POST {C}/sessions/{{sid}}/revoke": frozenset({REF}),
    f"GET {C}/odds": frozenset({REF}),
    # the rest of a session (web.session_more): sheets (a player's own whole, others' as the roster shows them),
    # export and backup, recap, verify, the referee's files, the bestiary, the quick fight, the odds
    f"GET {C}/characters/{{who}}/sheet": frozenset({REF, PLAY}),
    f"GET {C}/export": frozenset({REF}),
    "GET /api/backup": frozenset({REF}),
    f"GET {C}/recap": frozenset({REF}),
    f"GET {C}/verify": frozenset({REF}),
    f"POST {C}/overrides": frozenset({REF}),
    f"POST {C}/overrides/{{key}}/remove": frozenset({REF}),
    f"GET {C}/bestiary": frozenset({REF}),
    f"POST {C}/fight": frozenset({REF}),
    f"GET {C}/odds/attack": frozenset({REF}),
    f"GET {C}/odds/dying": frozenset({REF}),
    # the session's commands (web.session_routes)
    **{f"POST {C}{path}": frozenset({REF}) for path in (
        "/characters", "/xp", "/loot", "/travel", "/reaction", "/clock/entries/{entry}/snuff",
        *(f"/characters/{{who}}/{verb}" for verb in ("damage", "heal", "give", "take", "purse", "repair", "equip",
                                                      "unequip", "rename", "retire")))},
    # the referee's panels (web.panels)
    f"GET {C}/clock": frozenset({REF}),
    f"POST {C}/clock/timer": frozenset({REF}),
    f"POST {C}/clock/entries/{{entry}}/cancel": frozenset({REF}),
    f"POST {C}/clock/light": frozenset({REF}),
    f"POST {C}/clock/rations": frozenset({REF}),
    f"POST {C}/clock/disease": frozenset({REF}),
    f"POST {C}/characters/{{who}}/level-up": frozenset({REF}),
    "GET /api/spells": frozenset({REF, PLAY}),
    f"POST {C}/characters/{{who}}/cast": frozenset({REF, PLAY}),
    f"POST {C}/morale": frozenset({REF}),
    "GET /api/tables": frozenset({REF}),
    f"POST {C}/tables/{{name}}/roll": frozenset({REF}),
    f"POST {C}/simulate": frozenset({REF}),
    # the campaign's rules (web.rules)
    f"GET {C}/rules": frozenset({REF}),
    f"POST {C}/rules": frozenset({REF}),
    f"POST {C}/rules/{{option}}/unset": frozenset({REF}),
}

# what only the host's session may do, whatever the matrix lets a referee do: a scoped referee starts no campaign
# (the host decides what tables the console serves; her scope stays what her invite named)
HOST_ONLY = frozenset({"POST /api/campaigns"})


@dataclass(frozen=True)
class Caller:
    """The one asking: a role, and for a player or an observer the session (its campaign and player)."""

    role: Who
    session: access.Session | None = None
    token: str = ""

    @property
    def referee(self) -> bool:
        return self.role == "referee"

    @property
    def host(self) -> bool:
        """The host's session: a referee's that runs every campaign of the console."""
        return self.referee and self.session is not None and self.session.host

    def may_see(self, campaign: str) -> bool:
        """Whether a route of `campaign` is this caller's: a referee's if she runs it, a player's or an
        observer's if it is her session's."""
        if self.session is None:
            return False
        return self.session.runs_campaign(campaign) if self.referee else campaign == self.session.campaign

    def runs(self, names: list[str]) -> list[str]:
        """The campaigns of `names` this referee runs (the host: all)."""
        return [n for n in names if self.session is not None and self.session.runs_campaign(n)]

    @property
    def campaign(self) -> str | None:
        return self.session.campaign if self.session else None

    @property
    def player(self) -> str:
        return self.session.player if self.session else ""


def route_key(request: Request) -> str:
    """The matrix key of the route that matched: "METHOD /path/{param}"."""
    route = request.scope.get("route")
    path = getattr(route, "path", None) or request.url.path
    return f"{request.method} {path}"


async def caller_of(store: Store, request: Request) -> Caller:
    """The session of the request's cookie: on PostgreSQL kept in this worker's memory while no session was
    ended (`known`: no round trip per request), else read in a thread."""
    token = request.cookies.get(SESSION_COOKIE, "")
    state = request.app.state
    session = await known.session_of(store, token, state.settings.poll, state.shared) if token else None
    return Caller(session.role, session, token) if session is not None else Caller("anonymous")


async def guard(request: Request) -> Caller:
    """The dependency every route runs first: who asks, may they here, and does a change carry its CSRF token.
    It runs on the event loop (no thread of its own): all it reads is in memory but a session not known yet."""
    cached = getattr(request.state, "caller", None)
    if isinstance(cached, Caller):
        return cached
    store: Store = request.app.state.store
    who = await caller_of(store, request)
    allowed = ALLOW.get(route_key(request))
    if allowed is None or who.role not in allowed:
        if who.role == "anonymous":
            raise HTTPException(401, "sign in first: open the link `furnace serve` printed, or a player's invite")
        raise HTTPException(403, f"a {who.role} may not do this")
    campaign = request.path_params.get("campaign")
    if campaign is not None and not who.may_see(campaign):
        raise HTTPException(403, "a referee may only run the campaigns of her invite" if who.referee else
                            f"a {who.role} may only see their own campaign")
    if route_key(request) in HOST_ONLY and not who.host:
        raise HTTPException(403, "only the host may do this (the referee who signed in with the start link)")
    if request.method not in SAFE:
        check_csrf(request)
    _within_rate(request, who)
    request.state.caller = who
    return who


def _within_rate(request: Request, who: Caller) -> None:
    """A write, or a read of the log, takes a token from the caller's bucket; an empty bucket is a 429."""
    if who.session is None or (request.method in SAFE and not route_key(request).endswith("/log")):
        return              # an anonymous caller writes nothing but a join, with a token no one guesses
    buckets: Buckets = request.app.state.writes if request.method not in SAFE else request.app.state.reads
    wait = buckets.take(str(who.session.id))
    if wait > 0:
        raise HTTPException(429, "too many requests at once: wait a moment", headers={"Retry-After": str(
            max(1, round(wait + 0.5)))})


Asker = Annotated[Caller, Depends(guard)]   # a route's parameter: who asks, already checked


def check_csrf(request: Request) -> None:
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not header or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise HTTPException(403, "the request lacks its CSRF token: reload the page")
    origin = request.headers.get("origin")
    settings: WebSettings = request.app.state.settings
    if origin and not settings.allowed_origin(origin):
        raise HTTPException(403, "a request from another site is refused")


def secure(request: Request) -> bool:
    """Served over HTTPS: directly, or behind a reverse proxy that says so."""
    return request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").lower() == "https"


def set_session(response: Response, request: Request, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=access.SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=secure(request), path="/")


def ensure_csrf(response: Response, request: Request) -> None:
    """The CSRF cookie, readable by the page's script (it must copy it into a header), set once."""
    if not request.cookies.get(CSRF_COOKIE):
        rotate_csrf(response, request)


def rotate_csrf(response: Response, request: Request) -> None:
    """A new CSRF cookie (at each sign-in: a value someone saw before it is worth nothing after)."""
    response.set_cookie(CSRF_COOKIE, access.new_token(), httponly=False, samesite="lax", secure=secure(request),
                        path="/")


def mint_start_link(store: Store, settings: WebSettings) -> None:
    """The referee's start link (`settings.referee_token`): kept hashed in the database, once, for
    `settings.signin_minutes` (a database opened for reading gets none: the console cannot be used there)."""
    if settings.referee_token and not store.read_only:
        access.mint_signin(store, minutes=settings.signin_minutes, token=settings.referee_token)


def matched_key(app: Any, method: str, path: str) -> str | None:
    """The matrix key for a concrete request path (tests: which route a URL reaches)."""
    scope = {"type": "http", "method": method, "path": path, "root_path": ""}
    for route in app.routes:
        match, _ = route.matches(scope)
        if match == Match.FULL:
            return f"{method} {getattr(route, 'path', path)}"
    return None
