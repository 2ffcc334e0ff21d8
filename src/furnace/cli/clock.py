"""The `furnace clock` commands: a campaign state file whose clock the referee advances.

The state file is read through `furnace.files` (a regular file, at most `STATE_LIMIT` bytes, UTF-8 JSON)
and checked before the clock runs: at most `MAX_ENTRIES` entries, each due no earlier than now, a repeat
of at least a second, an owner for anything but a referee's timer. It is written whole (a temporary file
renamed over it), never half. An advance that would fire more than `MAX_FIRINGS` times (or `MAX_WORK`
firings × entries) is refused: advance in smaller steps.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from furnace.cli.app import (
    _emit,
    _load_character,
    _rng,
    _write_back,
    cli,
    json_option,
    profile_option,
    seed_option,
)
from furnace.errors import DataFileError, from_validation

if TYPE_CHECKING:   # the clock (and pydantic) stay off the start-up path of `furnace roll`
    from furnace.play.clock import Campaign

DEFAULT_STATE = "furnace-campaign.json"
STATE_LIMIT = 8 * 1024 * 1024     # a character is about 3 kB: room for two thousand, and the timers
MAX_ENTRIES = 1_000
MAX_FIRINGS = 20_000              # under a second of firing; a year of daily needs for a party of 50
MAX_WORK = 2_000_000              # firings × entries: each firing looks through every entry


def state_option(fn: click.decorators.FC) -> click.decorators.FC:
    return click.option("--state", "state_file", default=DEFAULT_STATE, show_default=True,
                        help="The campaign state file (created on first use).")(fn)


def load_state(path: str) -> Campaign:
    """The campaign in the state file (a new one when there is no file), refused when it cannot run."""
    from pydantic import ValidationError

    from furnace import files
    from furnace.play.clock import Campaign

    if not os.path.lexists(path):
        return Campaign()
    text = files.read_text(path, limit=STATE_LIMIT, what="the campaign state file")
    try:
        campaign = Campaign.model_validate_json(text)
    except ValidationError as exc:
        raise from_validation(path, exc) from None
    except (ValueError, RecursionError) as exc:   # JSON past the parser's limits
        raise DataFileError(path, f"not valid JSON: {str(exc).split(';')[0]}") from None
    _check(path, campaign)
    return campaign


def _check(path: str, campaign: Campaign) -> None:
    """What validation by type cannot see: the clock must be able to run forward from this state."""
    clock = campaign.clock
    if clock.now < 0:
        raise DataFileError(path, f"field clock.now: {clock.now} is before the campaign began")
    if len(clock.entries) > MAX_ENTRIES:
        raise DataFileError(path, f"field clock.entries: at most {MAX_ENTRIES:,} entries, not {len(clock.entries):,}")
    seen: set[int] = set()
    for i, e in enumerate(clock.entries):
        where = f"field clock.entries.{i}"
        if e.id in seen:
            raise DataFileError(path, f"{where}.id: #{e.id} is used twice")
        seen.add(e.id)
        if e.at < clock.now:
            raise DataFileError(path, f"{where}.at: #{e.id} falls due before the clock's time ({e.at} < {clock.now})")
        if not e.owner and e.kind != "timer":
            raise DataFileError(path, f"{where}.owner: #{e.id} ({e.kind}) names no character")
        if e.every is not None and e.every < 1:
            raise DataFileError(path, f"{where}.every: #{e.id} repeats every {e.every} seconds; at least 1")
        if e.remaining is not None and e.remaining < 0:
            raise DataFileError(path, f"{where}.remaining: #{e.id} has {e.remaining} times left; at least 0")
    if seen and clock.next_id <= max(seen):
        raise DataFileError(path, f"field clock.next_id: {clock.next_id} is not above the entries' ids")


def _firings(campaign: Campaign, seconds: int) -> int:
    """How many times the entries now on the clock fall due within `seconds` (repeats included)."""
    target = campaign.clock.now + seconds
    count = 0
    for e in campaign.clock.entries:
        if e.at <= target:
            times = 1 + (target - e.at) // e.every if e.every else 1
            count += times if e.remaining is None or not e.every else min(times, max(e.remaining, 1))
    return count


def save_state(path: str, campaign: Campaign, *, inputs: tuple[str, ...] = ()) -> None:
    """Write the campaign state whole (a temporary file renamed over the old one)."""
    _write_back(path, campaign.model_dump_json(indent=2), inputs=inputs)


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
    campaign = load_state(state_file)
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
    from furnace.errors import FurnaceError
    from furnace.play.clock import MAX_ADVANCE, advance, unit_seconds
    from furnace.rules.ruleset import load_ruleset

    rules, campaign = load_ruleset(profile), load_state(state_file)
    span = amount * unit_seconds(unit, rules)
    firings = _firings(campaign, span) if span <= MAX_ADVANCE else 0     # advance refuses a longer span
    if firings > MAX_FIRINGS or firings * len(campaign.clock.entries) > MAX_WORK:
        raise FurnaceError(f"advancing {amount} {unit} would fire {firings:,} times among "
                           f"{len(campaign.clock.entries):,} scheduled entries (too many at once); "
                           "advance in smaller steps")
    campaign, events = advance(campaign, amount, unit, _rng(seed), rules)
    save_state(state_file, campaign)
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
    campaign, entry = schedule(load_state(state_file), "timer", after=amount * unit_seconds(after[1], rules),
                               label=label, data={"prompt": prompt})
    save_state(state_file, campaign)
    click.echo(f"timer #{entry} '{label}' runs out in {amount} {after[1]}")


@clock.command("join")
@click.argument("character_file")
@state_option
def clock_join(character_file: str, state_file: str) -> None:
    """Bring a character into the campaign, so the clock can act on her (healing, disease, food …).

    Example: furnace clock join examples/characters/brakka.json
    """
    campaign = load_state(state_file)
    character = _load_character(character_file)
    chars = {**campaign.characters, character.name: character}
    save_state(state_file, campaign.model_copy(update={"characters": chars}), inputs=(character_file,))
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
    campaign = reschedule(load_state(state_file), entry_id, after=seconds)
    save_state(state_file, campaign)
    click.echo(f"#{entry_id} now falls due {campaign.clock.describe(campaign.clock.find(entry_id).at)}")


@clock.command("cancel")
@click.argument("entry_id", type=int)
@state_option
def clock_cancel(entry_id: int, state_file: str) -> None:
    """Take an entry off the clock (the torch is snuffed, the disease cured).

    Example: furnace clock cancel 3
    """
    from furnace.play.clock import cancel

    campaign = load_state(state_file)
    label = campaign.clock.find(entry_id).label
    save_state(state_file, cancel(campaign, entry_id))
    click.echo(f"#{entry_id} '{label}' is off the clock")
