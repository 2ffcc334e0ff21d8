"""Running a session on the campaign chosen: rest, XP, spells, gear, loot, repairs, rations, the place, SAVEs,
Liquid Courage, orisons.

Each command is a few lines over `furnace.campaign` (session, rest, gear, timekeeping, recap) and logs what it did;
every command that rolls takes `--seed` or `--faces` (the faces rolled at the table, checked die by die). `campaign
recap` and `campaign session start` are `furnace.cli.sessions`'s.
"""

from __future__ import annotations

from typing import Any

import click

from furnace.cli.app import cli, json_option, seed_option
from furnace.cli.context import ask, confirm
from furnace.cli.dice_options import faces_option, rng_from
from furnace.cli.numbers import WHOLE
from furnace.cli.output import apply
from furnace.cli.standing import luck_ahead, seen_first
from furnace.errors import FurnaceError

NUMBERS = {"ignore_unknown_options": True}   # so that -50 is a number, not an option


def who_option(fn: Any) -> Any:
    return click.option("--party", is_flag=True, help="Everyone living in the campaign.")(
        click.argument("who", nargs=-1)(fn))


# -- rest ---------------------------------------------------------------------------------------------------------
@cli.command()
@click.argument("kind")
@who_option
@click.option("--for", "length", nargs=2, default=None, metavar="AMOUNT UNIT",
              help="How long the rest lasts, when not the usual (REF-08): e.g. --for 2 hours.")
@click.option("--times", type=click.IntRange(1, 365), default=1, show_default=True, help="Rests in a row.")
@seed_option
@faces_option
@json_option
def rest(kind: str, who: tuple[str, ...], party: bool, length: tuple[str, str] | None, times: int,
         seed: int | None, faces: str | None, as_json: bool) -> None:
    """Rest by the campaign's healing model; the clock moves on by the rest's length and what falls due fires.

    KIND is the model's: furnace short (1 hour) / long (8 hours); hazards night (8 hours) / full_day / week;
    middle-sea post_combat / hour / day.

    Example: furnace rest long --party --seed 4
    """
    from furnace.campaign.rest import rest as run

    amount, unit = _span(length) if length else (None, "second")
    rng = rng_from(seed, faces)
    apply(f"rest {kind}", run(kind, who, rng, party=party, length=amount, unit=unit, times=times), as_json, rng)


def _span(length: tuple[str, str]) -> tuple[int, str]:
    amount, unit = length
    if not amount.isascii() or not amount.isdigit() or len(amount) > 9:
        raise FurnaceError(f"--for takes a whole number and a unit, not {' '.join(length)!r}")
    return int(amount), unit


# -- experience and spells --------------------------------------------------------------------------------------------
@cli.group()
def xp() -> None:
    """Experience: the referee's awards, kept in each character's ledger (F-BASE-08, REF-24).

    Example: furnace xp award 300 --party --reason "the goblin cave"
    """


@xp.command("award", context_settings=NUMBERS)
@click.argument("amount", type=WHOLE)
@who_option
@click.option("--reason", default="the referee's award", help="What it is for, kept in the ledger.")
@click.option("--each", is_flag=True, help="Every one gets the whole amount (default: shared out evenly).")
@json_option
def xp_award(amount: int, who: tuple[str, ...], party: bool, reason: str, each: bool, as_json: bool) -> None:
    """Award XP, shared out evenly among those named (or the party); the remainder is stated.

    Example: furnace xp award 250 Agna Brakka --reason "the ogre"
    """
    from furnace.campaign.session import award_xp

    apply("xp award", award_xp(amount, who, party=party, reason=reason, each=each), as_json)


# -- gear ---------------------------------------------------------------------------------------------------------
@cli.command()
@click.argument("who")
@click.argument("items", nargs=-1, required=True)
@json_option
def give(who: str, items: tuple[str, ...], as_json: bool) -> None:
    """Put items in a character's pack (and say the load she carries).

    Example: furnace give Agna rope "iron spikes" torch
    """
    from furnace.campaign.gear import give as run

    apply("give", run(who, items), as_json)


@cli.command()
@click.argument("who")
@click.argument("items", nargs=-1, required=True)
@json_option
def take(who: str, items: tuple[str, ...], as_json: bool) -> None:
    """Take items out of a character's pack (each must be there).

    Example: furnace take Agna torch
    """
    from furnace.campaign.gear import take as run

    apply("take", run(who, items), as_json)


@cli.command(context_settings=NUMBERS)
@click.argument("who")
@click.argument("change", metavar="+N|-N")
@json_option
def purse(who: str, change: str, as_json: bool) -> None:
    """Coins into or out of a character's purse: the load (furnace) or the coins' weight (coin_weight middle-sea).

    Example: furnace purse Agna +120
    """
    from furnace.campaign.gear import purse as run

    text = change.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 10:
        raise FurnaceError(f"coins change by +N or -N, not {change!r}")
    apply("purse", run(who, -int(digits) if text.startswith("-") else int(digits)), as_json)


@cli.group()
def loot() -> None:
    """Treasure found: shared out among the party.

    Example: furnace loot share "silver chalice" --coins 250
    """


@loot.command("share")
@click.argument("items", nargs=-1)
@click.option("--coins", type=click.IntRange(0, 10**9), default=0, show_default=True, help="Coins to share out.")
@click.option("--among", multiple=True, help="Who shares (repeatable; default: the living party).")
@json_option
def loot_share(items: tuple[str, ...], coins: int, among: tuple[str, ...], as_json: bool) -> None:
    """Share coins out evenly (the remainder stated) and deal the items in turn.

    Example: furnace loot share "silver chalice" "a ruby" --coins 250 --among Agna --among Brakka
    """
    from furnace.campaign.gear import share_loot

    apply("loot share", share_loot(items, coins, among), as_json)


@cli.command()
@click.argument("who")
@click.argument("item")
@click.option("--days", type=click.IntRange(0, 3650), default=None, help="The days the repair takes (REF-22).")
@click.option("--cost", type=click.IntRange(0, 10**9), default=None, help="Its cost in coins, from her purse.")
@click.option("--wait", is_flag=True, help="The party waits: the clock moves on by the days.")
@click.option("--yes", is_flag=True, help="Do not ask: the referee confirms the days and the cost given.")
@seed_option
@faces_option
@json_option
def repair(who: str, item: str, days: int | None, cost: int | None, wait: bool, yes: bool, seed: int | None,
           faces: str | None, as_json: bool) -> None:
    """Repair a weapon, armor or shield: the referee confirms the time and cost (REF-22).

    Example: furnace repair Brakka armor --days 2 --cost 15 --yes
    """
    from furnace.campaign import gear
    from furnace.campaign.session import chain
    from furnace.campaign.timekeeping import advancing, on_clock

    if yes and (days is None or cost is None):
        raise FurnaceError("with --yes give both --days and --cost (REF-22: the referee confirms them)")
    days = ask("days the repair takes", click.IntRange(0, 3650), "--days") if days is None else days
    cost = ask("its cost in coins", click.IntRange(0, 10**9), "--cost") if cost is None else cost
    if not yes and not confirm(f"repair {who}'s {item}: {days} day(s), {cost} coins?", "--yes"):
        raise FurnaceError("nothing repaired")
    rng = rng_from(seed, faces)
    fn = gear.repair(who, item, days=days, cost=cost)
    apply("repair", chain(fn, on_clock(advancing(days, "day", rng))) if wait else fn, as_json, rng)


# -- food -----------------------------------------------------------------------------------------------------------
@cli.command()
@click.argument("who")
@click.argument("days", type=click.IntRange(0, 10_000))
@click.option("--water/--no-water", default=None, help="Whether she has water (default: as before).")
@json_option
def rations(who: str, days: int, water: bool | None, as_json: bool) -> None:
    """Days of food a character carries: one is eaten as each day closes; without, hunger saves (H-STARV-01..05).

    Example: furnace rations Agna 7
    """
    from furnace.campaign.timekeeping import feeding, for_member

    apply("rations", for_member(who, feeding(days, water)), as_json)


# -- the place, SAVEs, Liquid Courage, orisons ------------------------------------------------------------------------
@cli.command()
@click.argument("kind", type=click.Choice(["hostile", "safe"], case_sensitive=False))
@json_option
def place(kind: str, as_json: bool) -> None:
    """Where the party is: a hostile place (a dungeon: a rest there recovers nothing when the option
    hazards_no_rest_in_dungeon is on, H-HEAL-07, under every healing model) or a safe one.

    Example: furnace place hostile
    """
    from furnace.campaign.rest import place as run

    apply("place", run(kind.lower() == "hostile"), as_json)


@cli.command()
@click.argument("who")
@click.argument("what", metavar="ABILITY|poison|paralysis|death|fear|morale")
@click.option("--dc", type=click.IntRange(1, 60), default=12, show_default=True,
              help="The DC: the ROOM DC, or the hazard's (hazard_save_dc).")
@luck_ahead
@seed_option
@faces_option
@json_option
def save(who: str, what: str, dc: int, luck: int | None, seed: int | None, faces: str | None, as_json: bool) -> None:
    """A SAVE the referee calls out of a fight: by ability (CON), against poison, paralysis, death or fear (the
    ability the campaign's rules read it as, D-5), or a PC's morale (a WIS SAVE, F-OPT-05, option pc_morale);
    what her state adds is added (Liquid Courage: +1 to morale and to SAVEs vs fear, M-DRINK-01). She may spend
    her player's Luck Dice on it once seen (F-LUCK-03).

    Example: furnace save Brakka fear --dc 14 --luck 1 --seed 3
    """
    from furnace.campaign.saving import save as run

    command, rng = seen_first(lambda dice, n: run(who, what, dice, dc=dc, luck=n), rng_from(seed, faces), luck,
                              as_json)
    apply(f"save {what}", command, as_json, rng)


@cli.command()
@click.argument("who")
@seed_option
@faces_option
@json_option
def drink(who: str, seed: int | None, faces: str | None, as_json: bool) -> None:
    """A character drinks, as each chapter on in the campaign counts it: Liquid Courage (M-DRINK-01, option
    liquid_courage: 1d4 HP, +1 to morale and to SAVEs vs fear, −1 to hit, for 4 hours on the clock; not again while
    it lasts) and DRUNK (H-DRUG-02, option hazards_poison_drugs: −2 DEX and −2 to saves until she sobers up).

    Example: furnace drink Brakka --seed 2
    """
    from furnace.campaign.saving import drinking
    from furnace.campaign.timekeeping import for_member

    rng = rng_from(seed, faces)
    apply("drink", for_member(who, drinking(rng)), as_json, rng)


@cli.command()
@click.argument("who")
@click.argument("orison_name", metavar="ORISON")
@click.option("--priest", is_flag=True, help="The referee says this character without a class is a priest.")
@click.option("--polytheist", is_flag=True, help="A priest without a class of a polytheist faith (druidic orisons).")
@click.option("--slots-traded", type=click.IntRange(0, 9), default=0, show_default=True,
              help="1st-level spell slots she traded today for two orisons each (M-ORIS-03, middle_sea_magic).")
@json_option
def orison(who: str, orison_name: str, priest: bool, polytheist: bool, slots_traded: int, as_json: bool) -> None:
    """An orison (the Middle Sea's, M-ORIS-01..04): counted against her number for the day — one for a priest
    without a class, a classed priest's free one — and refused past it until a new day starts on the clock.

    Example: furnace orison "Sister Ilse" Bless
    """
    from furnace.campaign.days import orison as run
    from furnace.campaign.timekeeping import for_member

    made = run(orison_name, polytheist=polytheist, slots_traded=slots_traded, priest=priest)
    apply("orison", for_member(who, made), as_json)
