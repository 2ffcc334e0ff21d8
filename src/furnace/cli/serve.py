"""`furnace serve`: the table console (`furnace.web`) on uvicorn, with the referee's sign-in link printed; and
`furnace signin-link`, another sign-in link for a console already running on the same database.

Everything that can stop the server starting is found before it starts, each one `error:` line (exit 2): the
socket is bound here and handed to uvicorn, so a port taken, a host that is no address (256.1.1.1) or not
one of this machine's is said in words; the database must open and be writable (the console writes every
roll). `--check` binds the host on a free port, which proves the address without taking the port.

The console's public URL — what invite links and the sign-in link are made of, and the only origin its pages'
changes may come from — is `--public-url` (or FURNACE_PUBLIC_URL: behind a reverse proxy, its address), else
the bound address; for `--host 0.0.0.0` (every interface) the machine's address on the local network, the one
players' phones reach. A request naming any other host is refused (DNS rebinding). Uvicorn's own reading of
X-Forwarded-For is off: only `--trusted-proxy ADDR`'s is believed (`furnace.web.limits.client_address`).

`--workers N` serves the console from N processes (uvicorn's, sharing the one bound socket), each made by
`worker_app` from the settings this process worked out (handed over in the environment, FURNACE_WORKER_SETTINGS).
Only on PostgreSQL: its live feed is carried by LISTEN/NOTIFY (`furnace.web.watch`) and its limits are counted in
the database (`furnace.web.shared`); on SQLite the console stays one process (one writer at a time, and its
live feed rung inside that process), and more than one worker is refused before it starts.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import os
import re
import secrets
import socket
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit

import click

from furnace.cli.app import _emit, cli, json_option
from furnace.cli.context import settings
from furnace.cli.numbers import Finite
from furnace.errors import FurnaceError

PLAIN_HTTP = ("warning: the console listens on every network interface over plain HTTP: anyone on the network "
              "can read its traffic (sign-in links included). Use it on a network you trust, or put it behind "
              "a reverse proxy with HTTPS.")


def _checked_url(ctx: Any, param: Any, value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment or (
            parts.path not in ("", "/")):
        raise click.BadParameter(f"{value!r} is not the console's address: give scheme and host (and port), as "
                                 "http://192.168.1.20:8000 or https://table.example", ctx=ctx, param=param)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _checked_address(ctx: Any, param: Any, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an IP address (the proxy's, as the console sees it)",
                                 ctx=ctx, param=param) from None


def public_url_option(fn: Any) -> Any:
    return click.option("--public-url", envvar="FURNACE_PUBLIC_URL", metavar="URL", callback=_checked_url,
                        help="The address players reach the console at (env FURNACE_PUBLIC_URL), e.g. "
                             "https://table.example behind a proxy; invite links are made of it.")(fn)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface, for players' phones on the local network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port.")
@public_url_option
@click.option("--trusted-proxy", metavar="ADDR", callback=_checked_address,
              help="A reverse proxy's address: its X-Forwarded-For names the players (for their stream limits).")
@click.option("--streams-per-address", type=click.IntRange(1, 100_000), default=32, show_default=True,
              help="Live streams one address may hold open (raise it behind a NAT that hides many phones).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes serving the console (more than one on PostgreSQL only: on SQLite it is one process).")
@click.option("--check", is_flag=True, help="Prepare everything and print the sign-in link, but do not serve.")
def serve(host: str, port: int, public_url: str | None, trusted_proxy: str | None, streams_per_address: int,
          workers: int, check: bool) -> None:
    """Serve the table console: the referee's screen, the players' phones and the table display.

    On a first start with no campaign it makes a demo one. It prints the address phones reach and the referee's
    sign-in link, which works once, for 15 minutes (`furnace signin-link` makes another); players join with the
    invite links the referee makes on her screen.

    Example: furnace serve --port 8765 --check
    """
    from furnace.campaign.access import mint_signin
    from furnace.rules.cache import keep_latest
    from furnace.web import WebSettings, create_app
    from furnace.web.demo import ensure_demo

    listening = listen(host, port, check=check)
    try:
        s = settings()
        where = addresses(host, port, public_url)
        web = WebSettings(db=s.db, public_url=where.public_url, hosts=where.hosts, origins=where.origins,
                          trusted_proxy=trusted_proxy, streams_per_address=streams_per_address, referee_token="",
                          workers=workers)
        store = s.store()
        keep_latest(False)       # a server keeps the states it read in memory (`Store._latest`), not on disk
        one_process_on_sqlite(store, workers)
        store.require_writable()
        made = ensure_demo(store, web.rng())
        token = mint_signin(store, minutes=web.signin_minutes)
    except BaseException:
        if listening is not None:
            listening.close()
        raise
    if made:
        click.echo(f"made the demo campaign “{made}” in {store.where()}")
    if host not in ("127.0.0.1", "localhost", "::1") and not where.public_url.startswith("https:"):
        click.echo(PLAIN_HTTP, err=True)
    if where.lan is None and host in WILDCARD:
        click.echo("warning: this machine has no address on a local network that phones could reach; it answers "
                   "on its own loopback only until it joins one", err=True)
    click.echo(f"Furnace table console on {where.public_url}/ — players' phones open the invites made there; "
               f"the referee signs in with (once, within {web.signin_minutes:g} minutes):\n"
               f"    {where.public_url}/signin?token={token}", nl=True)
    if listening is None:
        return
    if workers > 1:
        store.close()
        _serve_workers(web, host, port, listening, workers)
        return
    import uvicorn

    app = create_app(web, store=store)
    _frozen()
    stop_syncing = store.sync_every(1.0)          # FURNACE_SQLITE_SYNC=normal: the disk synced each second
    try:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", proxy_headers=False,
                                server_header=False)
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        listening.close()
        stop_syncing()


def one_process_on_sqlite(store: Any, workers: int) -> None:
    if workers > 1 and store.engine.dialect.name != "postgresql":
        raise FurnaceError(f"--workers {workers} needs PostgreSQL (--db postgresql://…): on SQLite the console stays "
                           "one process, because SQLite takes one writer at a time and its live feed is rung inside "
                           "that one process")


WORKER_SETTINGS = "FURNACE_WORKER_SETTINGS"


def _serve_workers(web: Any, host: str, port: int, listening: socket.socket, workers: int) -> None:
    """uvicorn's `workers` processes on the bound socket, each running `worker_app` (by import string)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    handed = {f.name: getattr(web, f.name) for f in fields(web) if f.name not in ("rng", "referee_token", "worker")}
    os.environ[WORKER_SETTINGS] = json.dumps(handed)
    config = uvicorn.Config("furnace.cli.serve:worker_app", factory=True, workers=workers, host=host, port=port,
                            log_level="warning", proxy_headers=False, server_header=False)
    try:
        Multiprocess(config, sockets=[listening]).run()
    finally:
        listening.close()


def worker_app() -> Any:
    """One worker's console (uvicorn's app factory, in each worker process), from the settings `serve` handed
    over; each worker names itself in the answers' X-Furnace-Worker header."""
    from furnace.web import WebSettings, create_app

    handed = json.loads(os.environ[WORKER_SETTINGS])
    for name in ("hosts", "origins"):
        handed[name] = tuple(handed[name])
    app = create_app(WebSettings(**handed, referee_token="", worker=secrets.token_hex(4)))
    _frozen()
    return app


def _frozen() -> None:
    """What start-up made (modules, rules data) lives as long as the server: moved out of the collector's sight,
    a full collection no longer walks it, which stalled the requests of that moment for 40-70 ms."""
    import gc

    _warm()
    gc.collect()
    gc.freeze()


@cli.command("signin-link")
@public_url_option
@click.option("--minutes", type=Finite(1, 1440), default=15, show_default=True,
              help="How long the link works (it works once).")
@click.option("--campaign", "campaigns", multiple=True, metavar="NAME",
              help="A campaign the referee will run (repeatable): a referee's invite, scoped to those named; "
                   "without, the host's link (every campaign).")
def signin_link(public_url: str | None, minutes: float, campaigns: tuple[str, ...]) -> None:
    """A new sign-in link for a console running on the same database (the one `furnace serve` printed is used,
    or has run out): it works once, within --minutes. Without --campaign it signs the host in (every campaign);
    with, it is a referee's invite: her session runs the campaigns named and no other.

    Example: furnace signin-link --campaign keep --public-url http://192.168.1.20:8000 --minutes 5
    """
    from furnace.campaign.access import mint_signin

    store = settings().store()
    store.require_writable()
    token = mint_signin(store, minutes=minutes, campaigns=campaigns or None)
    base = public_url or "http://127.0.0.1:8000"
    click.echo(f"{base}/signin?token={token}")
    who = f"a referee of {', '.join(dict.fromkeys(campaigns))} alone" if campaigns else "the host (every campaign)"
    click.echo(f"(signs in {who}, once, within {minutes:g} minutes)", err=True)
    if public_url is None:
        click.echo("(on the console's own address if it is not this one: --public-url or FURNACE_PUBLIC_URL)",
                   err=True)


@cli.command("sessions")
@json_option
def sessions_list(as_json: bool) -> None:
    """The console's live sessions, beside a running server on the same database: the host's, the referees'
    (with the campaigns each runs), the players' and the observers'. `furnace signout ID` ends one.

    Example: furnace sessions --json
    """
    from furnace.campaign.access import all_sessions

    found = all_sessions(settings().store())
    if as_json:
        _emit({"sessions": [_session_json(s) for s in found]})
        return
    for s in found:
        click.echo(f"{s.id}\t{_who(s)}\tuntil {s.expires_at[:16].replace('T', ' ')}")
    if not found:
        click.echo("no one is signed in")


def _session_json(s: Any) -> dict[str, Any]:
    return {"id": s.id, "role": s.role, "host": s.host, "campaigns": list(s.runs), "campaign": s.campaign,
            "player": s.player, "since": s.created_at, "until": s.expires_at}


def _who(s: Any) -> str:
    if s.role == "referee":
        return "host" if s.host else f"referee of {', '.join(s.runs) or 'no campaign left'}"
    return f"{s.role} {s.player} ({s.campaign})".replace("  ", " ")


@cli.command("signout")
@click.argument("session_id", metavar="ID", type=click.IntRange(1, 2**62))
def signout(session_id: int) -> None:
    """End a console session at once (`furnace sessions` lists them), beside a running server: its cookie opens
    nothing after this, and its live streams end on every worker at once (PostgreSQL is told in the same
    transaction; a SQLite console sees it at its next check).

    Example: furnace signout 1
    """
    from furnace.campaign.access import revoke

    store = settings().store()
    store.require_writable()
    revoke(store, session_id)
    click.echo(f"session {session_id} ended")


# -- where the console is reached ----------------------------------------------------------------------------
WILDCARD = ("0.0.0.0", "::")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Where:
    """The console's public URL, the host names a request may carry, the origins its pages may be served from,
    and the machine's address on the local network (None: none found)."""

    public_url: str
    hosts: tuple[str, ...]
    origins: tuple[str, ...]
    lan: str | None


def addresses(host: str, port: int, public_url: str | None) -> Where:
    wildcard = host in WILDCARD
    lan = lan_address() if wildcard else None
    own = local_addresses() if wildcard else [host]
    shown = (lan or "127.0.0.1") if wildcard else host
    public = public_url or f"http://{_bracketed(shown)}:{port}"
    names = [*LOOPBACK, *own, *(_machine_names() if wildcard else [])]
    hosts = tuple(dict.fromkeys(n.lower() for n in names if n))
    origins = tuple(f"http://{_bracketed(n)}:{port}" for n in hosts)
    return Where(public.rstrip("/"), hosts, origins, lan)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def lan_address() -> str | None:
    """The address this machine reaches the local network from (the one its default route leaves by); a UDP
    socket is only pointed at a documentation address, no packet is sent. None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            found = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


def local_addresses() -> list[str]:
    """This machine's own addresses (its name's, and the one the network is reached from)."""
    found = {a for a in (lan_address(),) if a}
    for name in _machine_names():
        try:
            found |= {str(info[4][0]).split("%")[0] for info in socket.getaddrinfo(name, None)}
        except (OSError, UnicodeError):
            continue
    return sorted(found)


def _machine_names() -> list[str]:
    name = socket.gethostname()
    return [name, f"{name}.local"] if name else []


_DOTTED = re.compile(r"^[0-9]+(\.[0-9]+){3}$")


def listen(host: str, port: int, *, check: bool = False) -> socket.socket | None:
    """The server's socket, bound to `host` and `port` (with `check`, to a free port, then closed: None)."""
    if _DOTTED.match(host):
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise FurnaceError(f"--host {host} is not an IP address (each of its four numbers is 0 to 255)") from None
    try:
        found = socket.getaddrinfo(host, 0 if check else port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError, ValueError):
        raise FurnaceError(f"--host {host} is not an address, nor a name this machine can look up: give one of "
                           "its addresses (127.0.0.1 for this machine alone, 0.0.0.0 for every interface)") from None
    family, kind, proto, _name, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)    # as uvicorn binds: a restart reuses the port
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise FurnaceError(_bind_failure(exc, host, port)) from None
    if check:
        sock.close()
        return None
    return sock


def _bind_failure(exc: OSError, host: str, port: int) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is taken (another program listens there): choose another with --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host} is not an address of this machine: give one of its own (127.0.0.1 for this machine "
                "alone, 0.0.0.0 for every interface)")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"port {port} is reserved for the system on {host}: choose one above 1023 with --port"
    return f"cannot serve on {host} port {port}: {(exc.strerror or type(exc).__name__).lower()}"


def _warm() -> None:
    """Load now what the first requests would load (the modules the API imports on use, the built-in
    profiles' rules and tables), so that it is made before the server freezes its start-up objects."""
    import importlib

    from furnace.rules.ruleset import builtin_profiles, load_ruleset

    for module in ("furnace.campaign.encounters", "furnace.campaign.rest", "furnace.campaign.roster",
                   "furnace.campaign.session", "furnace.campaign.timekeeping", "furnace.play.turns",
                   "furnace.magic.spells"):
        importlib.import_module(module)
    for name in builtin_profiles():
        load_ruleset(name)
