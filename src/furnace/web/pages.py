"""The console's pages: shells rendered by Jinja2 (every value escaped) that the page's script fills from the API.

`/signin?token=…` is a referee's sign-in link (printed by `furnace serve`, or made by `furnace signin-link`): it
works once and for minutes (`access.use_signin`), makes a referee session, sets its cookie and a new CSRF
cookie. `/join/{token}` shows what an invite is for and asks before using it (a link previewer fetching the page
does not spend it). Pages set the CSRF cookie their script sends back.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from furnace.campaign import access
from furnace.errors import FurnaceError
from furnace.web.auth import Asker, ensure_csrf, rotate_csrf, set_session

router = APIRouter(include_in_schema=False)
_env = Environment(loader=FileSystemLoader(str(files("furnace.web") / "templates")),
                   autoescape=select_autoescape(default=True, default_for_string=True))


def render(request: Request, template: str, **values: Any) -> HTMLResponse:
    caller = getattr(request.state, "caller", None)
    signed_in = caller is not None and caller.role != "anonymous"        # the sign-out button is on every page
    response = HTMLResponse(_env.get_template(template).render(signed_in=signed_in, **values))
    ensure_csrf(response, request)
    return response


def error_page(status: int, message: str) -> str:
    return _env.get_template("error.html").render(status=status, message=message, title="Furnace")


def _to(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


def campaign_url(name: str, page: str = "") -> str:
    return f"/c/{quote(name, safe='')}" + (f"/{page}" if page else "")


@router.get("/")
def home(request: Request, caller: Asker) -> Response:
    if caller.role in ("player", "observer") and caller.campaign:
        return _to(campaign_url(caller.campaign))
    if caller.referee:
        return render(request, "campaigns.html", title="Campaigns", page="campaigns", campaign="", host=caller.host)
    return render(request, "signin.html", title="Sign in", page="signin", campaign="")


@router.get("/signin")
def signin(request: Request, token: str = "") -> Response:
    if not token or len(token) > 200:
        raise FurnaceError("this sign-in link is not this console's: run `furnace signin-link` for a new one")
    cookie, _ = access.use_signin(request.app.state.store, token)
    response = _to("/")
    set_session(response, request, cookie)
    rotate_csrf(response, request)
    return response


@router.get("/join/{token}")
def join_page(token: str, request: Request) -> Response:
    role, campaign, player = access.invite_for(request.app.state.store, token)
    return render(request, "join.html", title="Join", page="join", campaign=campaign, role=role, player=player,
                  token=token)


@router.get("/c/{campaign}")
def campaign_page(campaign: str, caller: Asker) -> Response:
    page = {"referee": "referee", "player": "player"}.get(caller.role, "table")
    return _to(campaign_url(campaign, page))


@router.get("/c/{campaign}/referee")
def referee_page(campaign: str, request: Request) -> Response:
    request.app.state.store.open(campaign)      # it must exist
    return render(request, "referee.html", title=campaign, page="referee", campaign=campaign, **_sheet_words())


def _sheet_words() -> dict[str, Any]:
    """The words the forms of a character offer: the abilities and skills a roll may name (as `furnace check --who
    NAME --skill` takes them), the races and the Fighter's styles (F-TAB-39) a new character may be made with."""
    from furnace.characters.funnel import RACES
    from furnace.play.skills import SKILL_ABILITY
    from furnace.rules.effects import ABILITIES
    from furnace.rules.ruleset import load_ruleset

    styles = [str(row.data["name"]) for row in load_ruleset().tables.get("fighting-styles").rows]
    return {"abilities": ABILITIES, "skills": sorted(SKILL_ABILITY), "styles": styles, "races": RACES}


@router.get("/c/{campaign}/player")
def player_page(campaign: str, request: Request, caller: Asker) -> Response:
    return render(request, "player.html", title=campaign, page="player", campaign=campaign, player=caller.player,
                  **_sheet_words())


@router.get("/c/{campaign}/table")
def table_page(campaign: str, request: Request) -> Response:
    request.app.state.store.open(campaign)
    return render(request, "table.html", title=campaign, page="table", campaign=campaign)
