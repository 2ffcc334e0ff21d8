"""Limits before work: what the console refuses before it reads a body, checks a session or opens the database.

`Gate` is the outermost layer of the app (pure ASGI): a request whose Host names another server is refused (DNS
rebinding); a body longer than `WebSettings.body_limit` is refused with 413 — a declared Content-Length at once,
a chunked body as soon as it passes the limit, so at most the limit is ever held — before the sign-in check runs;
a JSON body with a number that is no number (NaN, Infinity), an integer past 64 bits or a lone surrogate is
refused with 422, and so is a query or path with an integer past 64 bits: none of them reaches a command or the
database. `Buckets` rate-limits by key (a session's writes, its log reads) and `Streams` counts the live streams
of each session and each address; both are this process's.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from furnace.web.config import HEADERS, WebSettings

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LONGEST_INTEGER = 2**63 - 1          # what SQLite (and PostgreSQL's bigint) can hold
_LONG_DIGITS = re.compile(r"[0-9]{19,}")


class Refused(Exception):
    """A request refused before any work, with its status and sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class Gate:
    """The outermost middleware: the Host, the body's size, odd numbers and strings (see the module)."""

    def __init__(self, app: ASGIApp, settings: WebSettings) -> None:
        self.app, self.settings = app, settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_head(scope)
            if scope.get("method", "GET") in BODY_METHODS:
                body = await self._body(scope, receive)
                _check_json(scope, body)
                receive = _replay(body, receive)
        except Refused as refused:
            await _refuse(scope, send, refused)
            return
        await self.app(scope, receive, send)

    def _check_head(self, scope: Scope) -> None:
        host = _header(scope, b"host")
        if host is not None and not self.settings.allowed_host(host):
            raise Refused(421, "this console does not answer to that host name: use the address it printed")
        query = unquote(scope.get("query_string", b"").decode("latin-1"))
        if _LONG_DIGITS.search(query) or _LONG_DIGITS.search(str(scope.get("path", ""))):
            raise Refused(422, "a number in the request is too large")

    async def _body(self, scope: Scope, receive: Receive) -> bytes:
        """The whole body, read only while it stays within the limit."""
        limit = self.settings.body_limit
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.strip().isascii() or not declared.strip().isdigit()
                                     or int(declared) > limit):
            raise Refused(413, f"the request's body is over {limit // 1024} KB")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise Refused(413, f"the request's body is over {limit // 1024} KB")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _replay(body: bytes, server: Receive) -> Receive:
    """A `receive` that gives the app the body already read, once, then the server's (a disconnect, when it comes)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await server()

    return receive


def _check_json(scope: Scope, body: bytes) -> None:
    kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if not body or not (kind == "application/json" or kind.endswith("+json")):
        return
    try:
        value = json.loads(body, parse_constant=_no_constant, parse_int=_whole, parse_float=_finite)
    except Refused:
        raise
    except (ValueError, RecursionError):
        return                              # not JSON: FastAPI says so (422), without repeating it
    for text in _strings(value):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused(422, "a text in the request is not valid Unicode (a lone surrogate)") from None


def _no_constant(name: str) -> Any:
    raise Refused(422, "a number in the request is not a finite number (NaN or Infinity)")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > 19 or abs(int(text)) > LONGEST_INTEGER:
        raise Refused(422, "a number in the request is too large")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(422, "a number in the request is too large")
    return value


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, its keys too (iteratively: no recursion limit to reach)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


async def _refuse(scope: Scope, send: Send, refused: Refused) -> None:
    path = str(scope.get("path", ""))
    if path.startswith("/api/") or path == "/api":
        body, kind = json.dumps({"error": refused.message}).encode(), b"application/json"
    else:
        from furnace.web.pages import error_page

        body, kind = error_page(refused.status, refused.message).encode("utf-8"), b"text/html; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# -- rates and counts ----------------------------------------------------------------------------------------
@dataclass
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """Token buckets by key: `burst` at most, refilled at `rate` a second. `take` answers how many seconds to
    wait (0: go ahead, a token taken)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        now = self.clock()
        with self._lock:
            if len(self._buckets) > 10_000:        # forget the full ones: a full bucket is a fresh one
                self._buckets = {k: b for k, b in self._buckets.items()
                                 if b.tokens + (now - b.at) * self.rate < self.burst}
            bucket = self._buckets.setdefault(key, _Bucket(float(self.burst), now))
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return 0.0
            return (1 - bucket.tokens) / self.rate if self.rate > 0 else 60.0


class Streams:
    """The live streams open now, counted by session and by address."""

    def __init__(self) -> None:
        self.by_session: dict[int, int] = {}
        self.by_address: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, session: int, address: str, settings: WebSettings) -> Callable[[], None]:
        """Count one stream; Refused (429) when the session or the address has its share open. Returns its
        release, which counts it out once however often it is called."""
        with self._lock:
            if self.by_session.get(session, 0) >= settings.streams_per_session:
                raise Refused(429, f"this session has {settings.streams_per_session} live streams open already: "
                                   "close a tab")
            if self.by_address.get(address, 0) >= settings.streams_per_address:
                raise Refused(429, f"{settings.streams_per_address} live streams are open from this address")
            self.by_session[session] = self.by_session.get(session, 0) + 1
            self.by_address[address] = self.by_address.get(address, 0) + 1
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if released.is_set():
                    return
                released.set()
                _drop(self.by_session, session)
                _drop(self.by_address, address)

        return release

    def open(self) -> int:
        with self._lock:
            return sum(self.by_session.values())


def _drop(counts: dict[Any, int], key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def client_address(scope: Scope, settings: WebSettings) -> str:
    """Who is asking, by address: the socket's peer, or — when the peer is the trusted proxy — the address the
    proxy says it forwards for (the last one of X-Forwarded-For, the one the proxy itself added)."""
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    if settings.trusted_proxy and peer == settings.trusted_proxy:
        forwarded = _header(scope, b"x-forwarded-for") or ""
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return hops[-1][:64]
    return peer
