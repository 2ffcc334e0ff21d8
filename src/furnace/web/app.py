"""The app factory: the store, the security headers, the error pages, the routers and the static files.

A user's error (`FurnaceError`) is a 4xx with one sentence (`{"error": …}`): the referee's message for the
referee; for a player or an observer the wording meant for everyone (`FurnaceError.public`) or the plain words of
its code, so an error never names a concealed monster nor repeats what was sent. Anything else is a
500 saying only that it is a bug. A request that is not valid (FastAPI's 422) is told which field and why, never
what was sent (a 10 MB token is not sent back). Every answer carries a Content-Security-Policy that allows no
inline script and nothing from another site. Before all of it, `limits.Gate` refuses a foreign Host, a body over
the limit and numbers or strings no command could take.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import StatementError
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from furnace.campaign.store import Store, resolve_url
from furnace.errors import FurnaceError
from furnace.public import entered
from furnace.web import api, fights, live, pages, panels, questions, rules, session_more, session_routes, sessions, undo
from furnace.web.auth import guard, mint_start_link
from furnace.web.config import HEADERS, WebSettings
from furnace.web.limits import Buckets, Gate, Streams


class PublicPath:
    """Each request is the console's public path (`furnace.public`), named by its method and route."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with entered("console", f"{scope.get('method', '')} {scope.get('path', '')}"):
            await self.app(scope, receive, send)


class SecurityHeaders:
    """The security headers on every answer (and which worker gave it), set as its start goes out: a plain ASGI
    layer, which costs a request no task, stream or copy of its own (Starlette's BaseHTTPMiddleware did)."""

    def __init__(self, app: ASGIApp, settings: WebSettings) -> None:
        self.app = app
        self.added = [(k, v) for k, v in HEADERS.items()]
        self.static = [(k, v) for k, v in HEADERS.items() if k != "Cache-Control"]
        self.worker = settings.worker        # which of several workers answered (`furnace serve --workers`)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = self.static if str(scope.get("path", "")).startswith("/static/") else self.added

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if self.worker:
                    headers["X-Furnace-Worker"] = self.worker
                for key, value in added:
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, sending)


def create_app(settings: WebSettings | None = None, *, store: Store | None = None) -> FastAPI:
    """The console for `settings` (the database, the referee's token, the dice)."""
    settings = settings or WebSettings()
    app = FastAPI(title="Furnace table console", version="1", openapi_url=None, docs_url=None, redoc_url=None,
                  dependencies=[Depends(guard)])
    app.state.settings = settings
    app.state.store = store or Store(resolve_url(settings.db))
    mint_start_link(app.state.store, settings)
    _limits(app, settings)
    app.add_middleware(SecurityHeaders, settings=settings)
    app.add_middleware(PublicPath)
    app.add_middleware(Gate, settings=settings)      # the outermost: refusals before any work
    app.mount("/static", StaticFiles(directory=str(files("furnace.web") / "static")), name="static")
    for router in (pages.router, api.router, sessions.router, undo.router, fights.router, questions.router,
                   panels.router, rules.router, session_more.router, session_routes.router, live.router):
        for route in router.routes:   # flat on the app: one APIRoute per path, each guarded by the app's guard
            assert isinstance(route, APIRoute)
            app.add_api_route(route.path, route.endpoint, methods=sorted(route.methods or ()), name=route.name,
                              include_in_schema=route.include_in_schema)
    app.add_exception_handler(FurnaceError, _furnace_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(OverflowError, _too_large)
    app.add_exception_handler(StatementError, _too_large)
    app.add_exception_handler(Exception, _bug)
    return app


def _limits(app: FastAPI, settings: WebSettings) -> None:
    """The rate buckets and the stream counts. The buckets are each process's own, at its share of the rate:
    `settings.workers` processes serve the console (on PostgreSQL; one on SQLite), each refilling a session's
    bucket at 1/N of the rate with 1/N of the burst, so that together they never allow more than the rate and the
    burst, whichever workers a session's requests reach — with no round trip to the database per request (a
    bucket kept in the database cost a transaction per write and per log read). The price: a session whose
    requests all reach one worker gets its share only (the limits stand far above a player's pace). The stream
    counts, taken once per stream, not per request, stay in the database on PostgreSQL (`shared`)."""
    engine = app.state.store.engine
    app.state.shared = engine.dialect.name == "postgresql"
    workers = max(1, settings.workers) if app.state.shared else 1
    app.state.writes = Buckets(settings.write_rate / workers, max(1, settings.write_burst // workers))
    app.state.reads = Buckets(settings.log_rate / workers, max(1, settings.log_burst // workers))
    if app.state.shared:
        from furnace.web.shared import SharedStreams

        app.state.streams = SharedStreams(engine)
        return
    app.state.streams = Streams()


# what a player or an observer is told of a mistake, by its code, when it has no wording for everyone: the same
# answer whatever the campaign holds (a name that hides in it and one that does not read alike), and no echo
PLAIN = {"unknown_name": "there is no such thing here that you may use", "illegal_action": "that cannot be done now",
         "campaign": "that cannot be done in this campaign now", "dice_syntax": "those are not dice the table rolls",
         "dice_limit": "too many dice", "dice_value": "those dice cannot be rolled",
         "unbound_variable": "those dice name a number that is not given",
         "conflict": "the campaign changed: try again"}


def told_to(caller: Any, exc: FurnaceError) -> str:
    """The error as the caller may read it: the referee's whole message; anyone else the wording meant for all,
    or the plain words of its code."""
    if caller is not None and caller.referee:
        return " ".join(str(exc).splitlines())
    return exc.public or PLAIN.get(exc.code, "that cannot be done")


async def _furnace_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, FurnaceError)
    message = " ".join(str(exc).splitlines())
    caller = getattr(request.state, "caller", None)
    answer = _answer(request, getattr(exc, "http_status", 400), told_to(caller, exc))
    if isinstance(answer, JSONResponse) and caller is not None and caller.referee and hasattr(exc, "allowed"):
        # a choice missing or off its list (a promotion, a level): what is open, for the page to offer
        return JSONResponse({"error": message, "choice": getattr(exc, "choice", ""),
                             "allowed": list(getattr(exc, "allowed", []))}, status_code=answer.status_code)
    return answer


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    answer = _answer(request, exc.status_code, str(exc.detail))
    for key, value in (exc.headers or {}).items():        # Retry-After on a 429
        answer.headers[key] = value
    return answer


async def _invalid(request: Request, exc: Exception) -> Response:
    """A request that is not what the route takes: each field's place and what is wrong with it, in FastAPI's
    words, but never the value sent (nor a field name longer than a name: an unknown key is the sender's)."""
    assert isinstance(exc, RequestValidationError)
    said = []
    for error in list(exc.errors())[:5]:
        where = ".".join(str(part)[:40] for part in error.get("loc", ()) if part != "body")
        said.append(f"{where}: {str(error.get('msg', 'not valid'))[:120]}" if where else
                    str(error.get("msg", "not valid"))[:120])
    return _answer(request, 422, "the request is not valid: " + "; ".join(said))


async def _bug(request: Request, exc: Exception) -> Response:
    return _answer(request, 500, "an internal error: please report it (the server's log has the details)")


async def _too_large(request: Request, exc: Exception) -> Response:
    """A number past what the database holds, from a route that did not bound it (the Gate refuses the longest
    ones first): the asker's mistake, not a bug; anything else the database's driver raised is one."""
    if isinstance(exc, OverflowError) or isinstance(getattr(exc, "orig", None), OverflowError):
        return _answer(request, 422, "a number in the request is too large")
    raise exc


def _answer(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/") or request.url.path == "/api":
        return JSONResponse({"error": message}, status_code=status)
    return HTMLResponse(pages.error_page(status, message), status_code=status)


def app_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) the app answers, pages, API, SSE and static files included (for the roles test)."""
    out: list[tuple[str, str]] = []
    for route in app.routes:
        path: Any = getattr(route, "path", "")
        methods = getattr(route, "methods", None) or {"GET"}
        out += [(m, path) for m in sorted(methods) if m != "HEAD"]
    return out
