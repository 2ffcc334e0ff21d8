"""`furnace clock …`: the campaign clock, on the campaign chosen (`--campaign`, FURNACE_CAMPAIGN, `campaign use`).

Advancing the clock runs what falls due on the roster's characters (`furnace.campaign.timekeeping`): a torch
burns out (`clock light`), a disease makes its saves (`clock infect`), rations are eaten and hunger counted
(`furnace rations`), the party travels a day at a time with its lost checks (`clock travel`). Each command is
logged on the campaign, and the ones that roll take `--seed` or `--faces`.

`--state FILE` still works on an old campaign state file instead (status, advance, timer, edit, cancel, join):
the file is read through `furnace.files` (a regular file, at most `STATE_LIMIT` bytes, UTF-8 JSON) and checked
before the clock runs (at most `MAX_ENTRIES` entries, each due no earlier than now, a repeat of at least a
second, an owner for anything but a referee's timer); it is written whole, never half. An advance that would
fire too often is refused by the clock itself (`play.clock.check_advance`): advance in smaller steps.
`furnace campaign import-files` brings such a file into a campaign.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from furnace.cli.app import _emit, _load_character, _write_back, cli, json_option, load_rules, seed_option
from furnace.cli.context import settings
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import WHOLE, Finite
from furnace.cli.output import apply, tell
from furnace.errors import DataFileError, FurnaceError, from_validation

if TYPE_CHECKING:   # the clock (and pydantic) stay off the start-up path of `furnace roll`
    from furnace.campaign.timekeeping import ClockFn
    from furnace.dice import DiceSource
    from furnace.events import Event
    from furnace.play.clock import Campaign

STATE_LIMIT = 8 * 1024 * 1024     # a character is about 3 kB: room for two thousand, and the timers
MAX_ENTRIES = 1_000


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


def save_state(path: str, campaign: Campaign, *, inputs: tuple[str, ...] = ()) -> None:
    """Write the campaign state whole (a temporary file renamed over the old one)."""
    _write_back(path, campaign.model_dump_json(indent=2), inputs=inputs)



def state_option(fn: Any) -> Any:
    fn = click.option("--profile", default=None, help="With --state: the profile (default furnace); a campaign "
                      "has its own.")(fn)
    return click.option("--state", "state_file", default=None, metavar="FILE",
                        help="Work on an old campaign state file (created on first use) instead of the campaign.")(fn)


def _on_clock(command: str, fn: ClockFn, state_file: str | None, profile: str | None, as_json: bool,
              rng: DiceSource | None = None) -> None:
    """A rule of the clock on the campaign chosen (logged), or on a state file (saved whole)."""
    if state_file is None:
        if profile is not None:
            raise FurnaceError("--profile goes with --state: the campaign's profile is its own "
                               "(`furnace campaign show`)")
        from furnace.campaign.timekeeping import on_clock

        apply(command, on_clock(fn), as_json, rng)
        return
    campaign, events = fn(load_state(state_file), load_rules(profile or "furnace"))
    if rng is not None:
        finish(rng)
    save_state(state_file, campaign)
    _print(events, as_json)


def _print(events: Sequence[Event], as_json: bool) -> None:
    if as_json:
        _emit({"events": [e.to_dict() for e in events]})
        return
    tell(events, stamp=True)


def _campaign_only(state_file: str | None, what: str) -> None:
    if state_file is not None:
        raise FurnaceError(f"{what} works on a campaign, not a --state file: `furnace campaign import-files FILE` "
                           "brings the file into one")


@cli.group()
def clock() -> None:
    """The campaign clock: torches, diseases, food, travel, timers — advance it and see what falls due.

    Example: furnace clock advance 3 turns --seed 1
    """


@clock.command("status")
@state_option
@json_option
def clock_status(state_file: str | None, profile: str | None, as_json: bool) -> None:
    """The time, and everything scheduled with the time it has left.

    Example: furnace clock status
    """
    if state_file is not None:
        campaign = load_state(state_file)
        names = sorted(campaign.characters)
    else:
        s = settings()
        store, name = s.in_use()
        state = store.open(name)
        campaign = state.clock_campaign()
        names = sorted(f"{m.character.name} ({m.id})" for m in state.roster.values() if m.status != "dead")
    c = campaign.clock
    rows = [{"id": e.id, "kind": e.kind, "owner": e.owner, "label": e.label, "due": c.describe(e.at),
             "in_minutes": (e.at - c.now) // 60, "every_minutes": e.every // 60 if e.every else None,
             "times_left": e.remaining} for e in sorted(c.entries, key=lambda e: (e.at, e.id))]
    if as_json:
        _emit({"now": c.describe(), "seconds": c.now, "entries": rows, "characters": sorted(campaign.characters),
               "flags": campaign.flags})
        return
    click.echo(f"{c.describe()} · characters: {', '.join(names) or 'none'}")
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
@faces_option
@json_option
def clock_advance(amount: int, unit: str, state_file: str | None, profile: str | None, seed: int | None,
                  faces: str | None, as_json: bool) -> None:
    """Move time forward (round, turn, minute, hour, watch, day, week, month, year) and fire what falls due.

    Example: furnace clock advance 1 day --seed 7
    """
    from furnace.campaign.timekeeping import advancing

    rng = rng_from(seed, faces)
    _on_clock(f"clock advance {amount} {unit}", advancing(amount, unit, rng), state_file, profile, as_json, rng)


@clock.command("timer")
@click.argument("label")
@click.option("--in", "after", nargs=2, required=True, metavar="AMOUNT UNIT",
              help="e.g. --in 1d4 turns or --in 3 turns.")
@click.option("--prompt", default="", help="What the referee is told when it runs out.")
@state_option
@seed_option
@faces_option
@json_option
def clock_timer(label: str, after: tuple[str, str], prompt: str, state_file: str | None, profile: str | None,
                seed: int | None, faces: str | None, as_json: bool) -> None:
    """Start a timer (F-OPT-07: 1d4 turns by default); the referee is told when it runs out.

    Example: furnace clock timer "the ceiling gives way" --in 1d4 turns --prompt "rocks fall: DEX SAVE"
    """
    from furnace.campaign.timekeeping import timer

    rng = rng_from(seed, faces)
    _on_clock("clock timer", timer(label, after[0], after[1], rng, prompt), state_file, profile, as_json, rng)


@clock.command("edit")
@click.argument("entry_id", type=WHOLE)
@click.option("--in", "after", nargs=2, required=True, metavar="AMOUNT UNIT",
              help="When it now falls due, from now: e.g. --in 2 turns.")
@state_option
@json_option
def clock_edit(entry_id: int, after: tuple[str, str], state_file: str | None, profile: str | None,
               as_json: bool) -> None:
    """Change what remains of a scheduled entry (a torch's turns, a disease's next save).

    Example: furnace clock edit 3 --in 2 turns
    """
    from furnace.campaign.timekeeping import editing
    from furnace.play.clock import unit_seconds

    if not after[0].isascii() or not after[0].isdigit() or len(after[0]) > 12:
        raise FurnaceError(f"--in takes a whole number and a unit, not {' '.join(after)!r}")

    def fn(view: Campaign, rules: Any) -> tuple[Campaign, list[Event]]:
        return editing(entry_id, int(after[0]) * unit_seconds(after[1], rules))(view, rules)

    _on_clock("clock edit", fn, state_file, profile, as_json)


@clock.command("cancel")
@click.argument("entry_id", type=WHOLE)
@state_option
@json_option
def clock_cancel(entry_id: int, state_file: str | None, profile: str | None, as_json: bool) -> None:
    """Take an entry off the clock (the torch is snuffed for good, the disease cured).

    Example: furnace clock cancel 3
    """
    from furnace.campaign.timekeeping import cancelling

    _on_clock("clock cancel", cancelling(entry_id), state_file, profile, as_json)


@clock.command("join")
@click.argument("character_file")
@state_option
@json_option
def clock_join(character_file: str, state_file: str | None, profile: str | None, as_json: bool) -> None:
    """Bring a character into the campaign, so the clock can act on her (healing, disease, food …).

    Example: furnace clock join examples/characters/brakka.json
    """
    character = _load_character(character_file)
    if state_file is None:
        from furnace.campaign.commands import join

        apply("clock join", join(character), as_json)
        return
    campaign = load_state(state_file)
    chars = {**campaign.characters, character.name: character}
    save_state(state_file, campaign.model_copy(update={"characters": chars}), inputs=(character_file,))
    click.echo(f"{character.name} joins the campaign ({len(chars)} {'character' if len(chars) == 1 else 'characters'})")


# -- the Hazards chapter on the campaign's clock ------------------------------------------------------------------
@clock.command("light")
@click.argument("who")
@click.argument("source")
@click.option("--turns", type=Finite(0, 10_000, min_open=True), default=None,
              help="Exploration turns it has left (a torch lit again, AMB-81); default: a fresh one.")
@json_option
def clock_light(who: str, source: str, turns: float | None, as_json: bool) -> None:
    """A character lights a torch, candle or lantern: it burns out on the clock (H-LIGHT-02, H-TAB-02).

    Example: furnace clock light Agna torch
    """
    from furnace.campaign.timekeeping import for_member, lighting

    apply("clock light", for_member(who, lighting(source, turns)), as_json)


@clock.command("snuff")
@click.argument("entry_id", type=WHOLE)
@json_option
def clock_snuff(entry_id: int, as_json: bool) -> None:
    """Put a light out: it keeps the turns it has left (AMB-81); `clock status` lists the lights by number.

    Example: furnace clock snuff 2
    """
    from furnace.campaign.timekeeping import on_clock, snuffing

    apply("clock snuff", on_clock(snuffing(entry_id)), as_json)


@clock.command("infect")
@click.argument("who")
@click.argument("disease")
@click.option("--exposed", is_flag=True, help="Only exposed: a save vs. poison decides (H-DIS-03).")
@seed_option
@faces_option
@json_option
def clock_infect(who: str, disease: str, exposed: bool, seed: int | None, faces: str | None, as_json: bool) -> None:
    """A character catches a disease (H-TAB-04 by name, or a referee's YAML file): its saves go on the clock.

    Example: furnace clock infect Agna "Green River Fever"
    """
    from furnace.campaign.timekeeping import for_member, infecting

    rng = rng_from(seed, faces)
    apply("clock infect", for_member(who, infecting(disease, rng, exposed=exposed)), as_json, rng)


@clock.command("cure")
@click.argument("who")
@click.argument("disease")
@json_option
def clock_cure(who: str, disease: str, as_json: bool) -> None:
    """A character is cured of a disease: its saves still to come are off the clock.

    Example: furnace clock cure Agna "Green River Fever"
    """
    from furnace.campaign.timekeeping import curing, for_member

    apply("clock cure", for_member(who, curing(disease)), as_json)


@clock.command("travel")
@click.option("--days", type=click.IntRange(0, 365), default=1, show_default=True, help="Days of travel.")
@click.option("--trail", is_flag=True, help="Along a trail, road or known landmark: no lost roll (H-TRAV-01).")
@click.option("--heading", default=None, help="Set the heading first: N, NE, E, SE, S, SW, W, NW.")
@seed_option
@faces_option
@json_option
def clock_travel(days: int, trail: bool, heading: str | None, seed: int | None, faces: str | None,
                 as_json: bool) -> None:
    """The party travels: each morning the referee's secret lost roll, then a day on the clock (H-TRAV-01..03).

    Example: furnace clock travel --days 3 --heading S --seed 2
    """
    from furnace.campaign.timekeeping import on_clock, travelling

    rng = rng_from(seed, faces)
    apply("clock travel", on_clock(travelling(days, rng, trail=trail, heading=heading)), as_json, rng)
