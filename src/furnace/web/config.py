"""What the console is started with: the database, the referee's sign-in token, the dice, the live log's pace, the
address the table reaches it at, and the limits that keep one player (or one phone) from wearing it down."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from furnace import dice
from furnace.campaign.access import new_token

DEMO = "Demo"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
TEST_HOST = "testserver"          # what Starlette's TestClient sends as Host

# what every answer carries (a refusal at the door too): a Content-Security-Policy that allows no inline script and
# nothing from another site
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Cache-Control": "no-store"}


@dataclass
class WebSettings:
    """`db`: a SQLite path or a database URL (None: the default file); `referee_token`: a sign-in link's token made
    at start (printed by `furnace serve`: it works once, within `signin_minutes`); `rng`: a dice source per command
    (system randomness on a server, seeded in tests); `poll`: how often the live log's watcher looks at the
    database for events written by another process, the CLI (seconds; it asks SQLite a counter, not the log).

    `public_url`: the address the table reaches the console at (invite links are made from it, never from a
    request's Host); `hosts`: the other names a request's Host may carry (a request naming any other host is
    refused: a DNS rebinding attack names the attacker's); `origins`: the other origins its pages may be served
    from (the Origin of a change must be the public URL's or one of these). `trusted_proxy`: the one address whose
    X-Forwarded-For is believed (a reverse proxy's); anyone else is known by the socket's peer address.

    The limits: `body_limit` bytes of a request's body (413, before the sign-in check); live streams per session
    and per address (429); writes and log reads per session, each a bucket of `*_burst` refilled at `*_rate` a
    second (429 with Retry-After).

    `worker`: this process's name among several serving one PostgreSQL database (`furnace serve --workers`), sent
    in each answer's X-Furnace-Worker header (empty: one process, no header); `workers`: how many processes serve
    it (each keeps its share of the rate limits: `app._limits`)."""

    db: str | None = None
    referee_token: str = field(default_factory=new_token)
    rng: Callable[[], dice.DiceSource] = dice.system
    poll: float = 0.25
    demo: bool = True
    keepalive: float = 15.0
    public_url: str = "http://127.0.0.1:8000"
    hosts: tuple[str, ...] = (*LOOPBACK, TEST_HOST)
    origins: tuple[str, ...] = ()
    trusted_proxy: str | None = None
    signin_minutes: float = 15.0
    body_limit: int = 256 * 1024
    streams_per_session: int = 4
    streams_per_address: int = 32
    write_rate: float = 5.0
    write_burst: int = 30
    log_rate: float = 2.0
    log_burst: int = 20
    worker: str = ""
    workers: int = 1

    @property
    def public_origin(self) -> str:
        """The public URL's origin (scheme://host[:port]), as a browser sends it in Origin."""
        return origin_of(self.public_url)

    def allowed_host(self, host_header: str) -> bool:
        """Whether a request's Host names this console: the public URL's host or one of `hosts` (any port)."""
        name = host_name(host_header)
        return bool(name) and (name == host_name(urlsplit(self.public_url).netloc)
                               or name in {h.lower().strip("[]") for h in self.hosts})

    def allowed_origin(self, origin: str) -> bool:
        wanted = origin.rstrip("/").lower()
        return wanted == self.public_origin or wanted in {origin_of(o) for o in self.origins}


def origin_of(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower()


def host_name(netloc: str) -> str:
    """The host of a Host header or a URL's netloc, lower case, without its port or an IPv6 address's brackets."""
    text = netloc.strip().lower()
    if text.startswith("["):
        return text[1:text.find("]")] if "]" in text else ""
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text
