"""Sessions of play in the campaign's log: `campaign session start` begins one, `campaign recap` tells what happened.

They are the `campaign` group's (its `lazy` names send them here): a module of their own, so `campaign recap` loads
not the session's other commands, nor `campaign show` these.
"""

from __future__ import annotations

import click

from furnace.cli.app import _emit, json_option
from furnace.cli.campaign import campaign
from furnace.cli.context import settings
from furnace.cli.numbers import whole
from furnace.cli.output import show


# -- sessions -------------------------------------------------------------------------------------------------------
@campaign.command("recap")
@click.option("--session", "number", type=whole(1), default=None, help="That session (default: the last).")
@json_option
def campaign_recap(number: int | None, as_json: bool) -> None:
    """What happened in the last session (since `campaign session start`): time, deaths, injuries, XP, levels.

    Example: furnace campaign recap
    """
    from furnace.campaign.recap import recap
    from furnace.render.recap import recap_json, recap_text

    s = settings()
    result = recap(*s.in_use(), number)
    if as_json:
        _emit(recap_json(result))
        return
    click.echo(recap_text(result))


@campaign.group("session")
def campaign_session() -> None:
    """Sessions of play: each begins with `campaign session start`, and `campaign recap` tells what happened.

    Example: furnace campaign session start "Into the barrow"
    """


@campaign_session.command("start")
@click.argument("title", required=False, default="")
@json_option
def campaign_session_start(title: str, as_json: bool) -> None:
    """Begin the next session (numbered from 1).

    Example: furnace campaign session start "Into the barrow"
    """
    from furnace.campaign.session import start_session

    s = settings()
    show(start_session(*s.in_use(), title).events, as_json, stamp=False)
