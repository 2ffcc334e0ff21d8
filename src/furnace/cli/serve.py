"""`furnace serve`: the table console (`furnace.web`) on uvicorn, with the referee's sign-in link printed.

Everything that can stop the server starting is found before it starts, each one `error:` line (exit 2): the
socket is bound here and handed to uvicorn, so a port taken, a host that is no address (256.1.1.1) or not
one of this machine's is said in words; the database must open and be writable (the console writes every
roll). `--check` binds the host on a free port, which proves the address without taking the port.
"""

from __future__ import annotations

import errno
import ipaddress
import re
import socket

import click

from furnace.cli.app import cli
from furnace.cli.context import settings
from furnace.errors import FurnaceError

PLAIN_HTTP = ("warning: the console listens on every network interface over plain HTTP: anyone on the network "
              "can read its traffic (sign-in links included). Use it on a network you trust, or put it behind "
              "a reverse proxy with HTTPS.")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface, for players' phones on the local network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port.")
@click.option("--check", is_flag=True, help="Prepare everything and print the sign-in link, but do not serve.")
def serve(host: str, port: int, check: bool) -> None:
    """Serve the table console: the referee's screen, the players' phones and the table display.

    On a first start with no campaign it makes a demo one. It prints the referee's sign-in link (with a token,
    new at each start); players join with the invite links the referee makes on her screen.

    Example: furnace serve --port 8765 --check
    """
    from furnace.web import WebSettings, create_app
    from furnace.web.demo import ensure_demo

    listening = listen(host, port, check=check)
    try:
        s = settings()
        web = WebSettings(db=s.db)
        store = s.store()
        store.require_writable()
        made = ensure_demo(store, web.rng())
    except BaseException:
        if listening is not None:
            listening.close()
        raise
    if made:
        click.echo(f"made the demo campaign “{made}” in {store.where()}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(PLAIN_HTTP, err=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Furnace table console on http://{shown}:{port}/ — the referee signs in with:\n"
               f"    http://{shown}:{port}/signin?token={web.referee_token}", nl=True)
    if listening is None:
        return
    import gc

    import uvicorn

    app = create_app(web, store=store)
    _warm()
    # What start-up made (modules, rules data) lives as long as the server: moved out of the collector's
    # sight, a full collection no longer walks it, which stalled the requests of that moment for 40-70 ms.
    gc.collect()
    gc.freeze()
    stop_syncing = store.sync_every(1.0)          # FURNACE_SQLITE_SYNC=normal: the disk synced each second
    try:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", proxy_headers=True,
                                server_header=False)
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        listening.close()
        stop_syncing()


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
