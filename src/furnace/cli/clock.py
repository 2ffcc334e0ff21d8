"""The `furnace clock` commands: a campaign state file whose clock the referee advances."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from furnace.cli.app import _emit, _load_character, _rng, cli, json_option, profile_option, seed_option
from furnace.errors import from_validation

if TYPE_CHECKING:   # the clock (and pydantic) stay off the start-up path of `furnace roll`
    from furnace.play.clock import Campaign

DEFAULT_STATE = "furnace-campaign.json"


def state_option(fn: click.decorators.FC) -> click.decorators.FC:
    return click.option("--state", "state_file", default=DEFAULT_STATE, show_default=True,
                        help="The campaign state file (created on first use).")(fn)


def _load(path: str) -> Campaign:
    from pydantic import ValidationError

    from furnace.play.clock import Campaign

    file = Path(path)
    if not file.exists():
        return Campaign()
    try:
        return Campaign.model_validate_json(file.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise from_validation(file, exc) from None


def _save(path: str, campaign: Campaign) -> None:
    Path(path).write_text(campaign.model_dump_json(indent=2), encoding="utf-8")


@cli.group()
def clock() -> None:
    """The campaign clock: torches, diseases, bones knitting, timers — advance it and see what falls due.

    Example: furnace clock advance 3 turns --seed 1
    """


@clock.command("status")
@state_option
@json_option
def clock_status(state_file: str, as_json: bool) -> None:
    """The time, and everything scheduled with the time it has left.

    Example: furnace clock status
    """
    campaign = _load(state_file)
    c = campaign.clock
    rows = [{"id": e.id, "kind": e.kind, "owner": e.owner, "label": e.label, "due": c.describe(e.at),
             "in_minutes": (e.at - c.now) // 60, "every_minutes": e.every // 60 if e.every else None,
             "times_left": e.remaining} for e in sorted(c.entries, key=lambda e: (e.at, e.id))]
    if as_json:
        _emit({"now": c.describe(), "seconds": c.now, "entries": rows,
               "characters": sorted(campaign.characters)})
        return
    click.echo(f"{c.describe()} · characters: {', '.join(sorted(campaign.characters)) or 'none'}")
    for r in rows:
        repeat = f", every {r['every_minutes']} min" if r["every_minutes"] else ""
        owner = f", {r['owner']}" if r["owner"] else ""
        click.echo(f"  #{r['id']} {r['label']} ({r['kind']}{owner}): "
                   f"due {r['due']}, in {r['in_minutes']} min{repeat}")


@clock.command("advance")
@click.argument("amount", type=click.IntRange(0, 100_000))
@click.argument("unit")
@state_option
@seed_option
@profile_option
@json_option
def clock_advance(amount: int, unit: str, state_file: str, seed: int | None, profile: str, as_json: bool) -> None:
    """Move time forward (round, turn, minute, hour, watch, day, week, month, year) and fire what falls due.

    Example: furnace clock advance 1 day --seed 7
    """
    from furnace.play.clock import advance
    from furnace.rules.ruleset import load_ruleset

    campaign, events = advance(_load(state_file), amount, unit, _rng(seed), load_ruleset(profile))
    _save(state_file, campaign)
    if as_json:
        _emit({"now": campaign.clock.describe(), "events": [e.to_dict() for e in events]})
        return
    for e in events:
        click.echo(e.explain())
    click.echo(f"now {campaign.clock.describe()}")


@clock.command("timer")
@click.argument("label")
@click.option("--in", "after", nargs=2, required=True, metavar="AMOUNT UNIT",
              help="e.g. --in 1d4 turns or --in 3 turns.")
@click.option("--prompt", default="", help="What the referee is told when it runs out.")
@state_option
@seed_option
@profile_option
def clock_timer(label: str, after: tuple[str, str], prompt: str, state_file: str, seed: int | None,
                profile: str) -> None:
    """Start a timer (F-OPT-07: 1d4 turns by default); the referee is told when it runs out.

    Example: furnace clock timer "the ceiling gives way" --in 1d4 turns --prompt "rocks fall: DEX SAVE"
    """
    from furnace import dice
    from furnace.play.clock import schedule, unit_seconds
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset(profile)
    amount = dice.roll(after[0], _rng(seed), label=f"timer {label}").total
    campaign, entry = schedule(_load(state_file), "timer", after=amount * unit_seconds(after[1], rules),
                               label=label, data={"prompt": prompt})
    _save(state_file, campaign)
    click.echo(f"timer #{entry} '{label}' runs out in {amount} {after[1]}")


@clock.command("join")
@click.argument("character_file")
@state_option
def clock_join(character_file: str, state_file: str) -> None:
    """Bring a character into the campaign, so the clock can act on her (healing, disease, food …).

    Example: furnace clock join examples/characters/brakka.json
    """
    campaign = _load(state_file)
    character = _load_character(character_file)
    chars = {**campaign.characters, character.name: character}
    _save(state_file, campaign.model_copy(update={"characters": chars}))
    click.echo(f"{character.name} joins the campaign ({len(chars)} character(s))")


@clock.command("edit")
@click.argument("entry_id", type=int)
@click.option("--in", "after", nargs=2, required=True, metavar="AMOUNT UNIT",
              help="When it now falls due, from now: e.g. --in 2 turns.")
@state_option
@profile_option
def clock_edit(entry_id: int, after: tuple[str, str], state_file: str, profile: str) -> None:
    """Change what remains of a scheduled entry (a torch's turns, a disease's next save).

    Example: furnace clock edit 3 --in 2 turns
    """
    from furnace.errors import FurnaceError
    from furnace.play.clock import reschedule, unit_seconds
    from furnace.rules.ruleset import load_ruleset

    if not after[0].isdigit():
        raise FurnaceError(f"--in takes a whole number and a unit, not {' '.join(after)!r}")
    seconds = int(after[0]) * unit_seconds(after[1], load_ruleset(profile))
    campaign = reschedule(_load(state_file), entry_id, after=seconds)
    _save(state_file, campaign)
    click.echo(f"#{entry_id} now falls due {campaign.clock.describe(campaign.clock.find(entry_id).at)}")


@clock.command("cancel")
@click.argument("entry_id", type=int)
@state_option
def clock_cancel(entry_id: int, state_file: str) -> None:
    """Take an entry off the clock (the torch is snuffed, the disease cured).

    Example: furnace clock cancel 3
    """
    from furnace.play.clock import cancel

    campaign = _load(state_file)
    label = campaign.clock.find(entry_id).label
    _save(state_file, cancel(campaign, entry_id))
    click.echo(f"#{entry_id} '{label}' is off the clock")
