"""`furnace serve`: the table console (`furnace.web`) on uvicorn, with the referee's sign-in link printed."""

from __future__ import annotations

import click

from furnace.cli.app import cli
from furnace.cli.context import settings

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

    s = settings()
    web = WebSettings(db=s.db)
    store = s.store()
    made = ensure_demo(store, web.rng())
    if made:
        click.echo(f"made the demo campaign “{made}” in {store.where()}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(PLAIN_HTTP, err=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"Furnace table console on http://{shown}:{port}/ — the referee signs in with:\n"
               f"    http://{shown}:{port}/signin?token={web.referee_token}", nl=True)
    if check:
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
        uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True, server_header=False)
    finally:
        stop_syncing()


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
