"""The Middle Sea commands of the `furnace` CLI: grievous injuries, weapon mishaps, armor hits, coin weight.

Each is a thin layer over `furnace.houserules.middle_sea`; the rule options come from the `middle-sea`
profile unless `--profile` names another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from furnace.cli.app import _emit, cli, json_option, load_rules, option_option, seed_option
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import WHOLE
from furnace.cli.output import explain_option, tell

F = TypeVar("F", bound=Callable[..., Any])


def ms_profile_option(fn: F) -> F:
    return click.option("--profile", default="middle-sea", show_default=True,
                        help="furnace, hazards, middle-sea, or a referee's profile file.")(fn)


TIMERS = {"fatal_wound": "a fatal wound", "bleeding": "bleeding"}
UNITS = {"exploration_turn": "exploration turn", "round": "round"}


def _count(amount: int, unit: str) -> str:
    word = UNITS.get(unit, unit.replace("_", " "))
    return f"{amount} {word if amount == 1 else word + 's'}"


@cli.command()
@click.option("--excess", type=WHOLE, required=True, help="Damage beyond the HP the character had (1 or more).")
@click.option("--helmet", is_flag=True, help="The character wears a helmet (M-GRIEV-04/05, skull and head saves).")
@click.option("--level", type=click.IntRange(0, 10), default=1, show_default=True, help="For Second Wind.")
@click.option("--hit-die", default="d8", show_default=True, help="The class hit die, for Second Wind.")
@click.option("--hp-max", type=click.IntRange(1, 999), default=20, show_default=True, help="Caps Second Wind.")
@click.option("--damage-type", default=None, help="fire, arrow … checked against the referee's vetoes (M-GRIEV-10).")
@seed_option
@faces_option
@ms_profile_option
@option_option
@explain_option
@json_option
def grievous(excess: int, helmet: bool, level: int, hit_die: str, hp_max: int, damage_type: str | None,
             seed: int | None, faces: str | None, profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """A grievous injury (M-GRIEV-01): 3d6 + excess on the table, the location of a bone or limb, healing weeks.

    Example: furnace grievous --excess 4 --helmet --seed 3
    """
    from furnace.characters.character import Character
    from furnace.houserules.middle_sea import grievous as roll_grievous

    rules = load_rules(profile, options)
    who = Character(name="the character", level=level, scores=dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS",
                    "CHA"), 10), hp_max=hp_max, hp=0, helmet=helmet)
    rng = rng_from(seed, faces)
    result = roll_grievous(who, excess, rng, rules, helmet, hit_die=hit_die, damage_type=damage_type)
    finish(rng)
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(f"grievous injury {result.total} → {result.band.replace('_', ' ')}: {result.text}")
    if result.location:
        click.echo(f"location {result.location_roll}: {result.location}")
    if result.heal_weeks is not None:
        click.echo(f"heals in {result.heal_weeks} weeks")
    for timer in result.timers:
        click.echo(f"dies in {_count(timer.amount, timer.unit)} unless treated ({TIMERS.get(timer.kind, timer.kind)})")
    if result.character.dead:
        click.echo(f"dead: {result.character.dead}")
    tell(result.events)


@cli.command("weapon-mishap")
@click.option("--class", "weapon_class", required=True,
              type=click.Choice(["sharp", "blunt", "strung", "pole", "hurled", "unarmed"]))
@click.option("--dex", type=click.IntRange(0, 20), default=10, show_default=True, help="The Dexterity SCORE.")
@click.option("--magic", type=WHOLE, default=0, show_default=True, help="The weapon's magic bonus (M-WPN-07).")
@click.option("--wet", is_flag=True, help="A wet string: a natural 2 harms it too (M-WPN-04).")
@click.option("--natural", type=click.IntRange(1, 20), default=1, show_default=True, help="The natural die.")
@click.option("--neglect", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Years (or tropical months) untended: −1 each to item saves (M-WPN-08).")
@click.option("--notches", type=click.IntRange(0, 100), default=0, help="Notches the blade already has.")
@click.option("--cracked", is_flag=True, help="The haft is already cracked (M-WPN-05).")
@seed_option
@faces_option
@ms_profile_option
@option_option
@explain_option
@json_option
def weapon_mishap(weapon_class: str, dex: int, magic: int, wet: bool, natural: int, neglect: int, notches: int,
                  cracked: bool, seed: int | None, faces: str | None, profile: str, options: tuple[str, ...],
                  as_json: bool) -> None:
    """A natural 1 to hit damages the weapon by its class (M-WPN-01..08).

    Example: furnace weapon-mishap --class blunt --dex 14 --seed 2
    """
    from furnace.characters.character import Weapon
    from furnace.houserules.middle_sea import weapon_mishap as run_mishap
    from furnace.houserules.middle_sea import weapon_penalty

    weapon = Weapon(name=f"{weapon_class} weapon", weapon_class=weapon_class,
                    magic_bonus=magic, notches=notches, cracked=cracked)
    rng = rng_from(seed, faces)
    result = run_mishap(weapon, dex, rng, load_rules(profile, options), wet, neglect, natural=natural)
    finish(rng)
    if as_json:
        _emit(result.to_dict())
        return
    w = result.weapon
    state = ", ".join(word for word, on in (("cracked", w.cracked), ("broken", w.broken)) if on) or "whole"
    click.echo(f"{weapon_class}: {result.outcome.replace('_', ' ')} · notches {w.notches} "
               f"({weapon_penalty(w):+d} to hit and damage) · {state}")
    tell(result.events)


@cli.command("armor-hit")
@click.option("--piece", required=True, type=click.Choice(["armor", "shield", "helmet"]))
@click.option("--attack", required=True, type=click.Choice(["melee", "hurled", "missile", "firearm"]))
@click.option("--magic", type=WHOLE, default=0, show_default=True,
              help="The armor's or shield's magic plus (M-ARM-04).")
@click.option("--armor", "armor_key", default="boiled-leather", show_default=True,
              help="The body armor (an armor-table key) when --piece armor.")
@click.option("--damage", type=click.IntRange(0, 20), default=0, help="Protection the armor has already lost.")
@click.option("--neglect", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Years (or tropical months) untended: −1 each to the save (M-ARM-05).")
@seed_option
@faces_option
@ms_profile_option
@option_option
@explain_option
@json_option
def armor_hit(piece: str, attack: str, magic: int, armor_key: str, damage: int, neglect: int, seed: int | None,
              faces: str | None,
              profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """A natural 20 against armor: the piece's item save, and what a failure costs (M-ARM-01..05).

    Example: furnace armor-hit --piece shield --attack melee --magic 1 --seed 4
    """
    from furnace.characters.character import Character
    from furnace.houserules.middle_sea import MiddleSeaError
    from furnace.houserules.middle_sea import armor_hit as run_hit

    if piece == "helmet" and magic:
        # M-ARM-04 names magic armor; a character's helmet carries no plus, so a --magic here would go unused
        raise MiddleSeaError("a helmet has no magic plus here: --magic is for --piece armor or shield (M-ARM-04)")
    rules = load_rules(profile, options)
    rules.tables.get("armor").lookup(armor_key)
    who = Character(name="the target", scores=dict.fromkeys(("STR", "DEX", "CON", "INT", "WIS", "CHA"), 10),
                    hp_max=10, hp=10, armor=armor_key if piece == "armor" else None, armor_damage=damage,
                    armor_magic=magic if piece == "armor" else 0, shield=piece == "shield",
                    shield_magic=magic if piece == "shield" else 0, helmet=piece == "helmet")
    rng = rng_from(seed, faces)
    result = run_hit(who, attack, rng, rules, piece=piece, neglect=neglect)
    finish(rng)
    if as_json:
        _emit(result.to_dict())
        return
    left = "" if result.protection_left is None else f" · protection left {result.protection_left}"
    click.echo(f"{piece} vs {attack}: {result.result.replace('_', ' ')}{left}")
    tell(result.events)


@cli.command()
@click.argument("coins", type=click.IntRange(0, 10**9))
@click.option("--gems", type=click.IntRange(0, 10**9), default=0, show_default=True, help="Gems weigh as coins.")
@ms_profile_option
@json_option
def coins(coins: int, gems: int, profile: str, as_json: bool) -> None:
    """Coin weight: 100 coins (or gems) to the pound, gold-piece equivalents of 1/10 lb, and Furnace load.

    Example: furnace coins 1500 --gems 20
    """
    from furnace.houserules.middle_sea import coin_weight

    result = coin_weight(coins, gems, load_rules(profile))
    if as_json:
        _emit(result.to_dict())
        return
    click.echo(result.explain())
