"""`furnace odds`: exact odds of a dice expression, of one attack and of a dying character (furnace.play.odds).

`furnace odds EXPR` is the first form and stays the default: a first word that is not `attack` or `dying` is
the expression (`furnace odds "d20+3" --dc 15`). The DC's probability is read off the distribution already
worked out, never a second computation. The expression form imports no rules, so it starts fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from furnace.cli.app import (
    ExpressionCommand,
    _emit,
    _parse_vars,
    cli,
    json_option,
    load_rules,
    option_option,
    profile_option,
    var_option,
)
from furnace.cli.numbers import WHOLE


class OddsGroup(click.Group):
    """A group whose first argument, when it names no subcommand, is an expression for `odds dice`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["dice", *args]
        return super().parse_args(ctx, args)


@cli.group(cls=OddsGroup)
def odds() -> None:
    """Exact odds: a dice expression (the default), one attack, a dying character's chance to get up.

    Example: furnace odds "d20+3" --dc 15
    """


@odds.command("dice", cls=ExpressionCommand)
@click.argument("expression")
@click.option("--dc", type=WHOLE, default=None, help="Also show P(total ≥ DC) (meet or beat).")
@var_option
@json_option
def odds_dice(expression: str, dc: int | None, variables: Sequence[str], as_json: bool) -> None:
    """Exact odds of an expression, as a bar chart, and P(total ≥ DC) from the same distribution.

    Example: furnace odds dice "4d6kh3" --dc 12
    """
    from furnace import dice
    from furnace.dice.odds import at_least
    from furnace.dice.values import check_dc
    from furnace.render.odds import dist_json
    from furnace.render.plots import odds_chart

    expr = dice.parse(expression)
    dist = expr.distribution(_parse_vars(variables))
    chance = at_least(dist, check_dc(dc)) if dc is not None else None
    if as_json:
        _emit({"expression": expr.text, "distribution": dist_json(dist), "dc": dc,
               "p_at_least_dc": None if chance is None else str(chance),
               "p_at_least_dc_float": None if chance is None else float(chance)})
        return
    click.echo(odds_chart(expr.text, dist, dc, chance))


@odds.command("attack")
@click.option("--atk", default=None, metavar="d20+N", help="The attack roll, d20 plus the ATK bonus.")
@click.option("--ac", type=click.IntRange(1, 40), required=True, help="The target's AC.")
@click.option("--damage", default=None, metavar="DICE", help="The damage dice of a hit, e.g. 1d8+2.")
@click.option("--class", "char_class", default=None, help="fighter, cleric, rogue or magic-user (with --level).")
@click.option("--level", type=click.IntRange(0, 20), default=0, show_default=True, help="The attacker's level.")
@click.option("--crit-on", type=click.IntRange(2, 20), default=20, show_default=True,
              help="The natural that crits (19: a Barbarian's melee-crit-19).")
@click.option("--ranged", is_flag=True, help="A ranged ATK (crits only on a natural 20).")
@click.option("--monster", is_flag=True, help="A monster attacks (it crits only with the monster_crits option).")
@click.option("--character", "character_file", default=None, metavar="FILE",
              help="Take ATK, damage, class, level and crit range from a character file.")
@click.option("--easy", multiple=True, metavar="WHY", help="A reason the ATK is EASY (repeatable).")
@click.option("--hard", multiple=True, metavar="WHY", help="A reason the ATK is HARD (repeatable).")
@click.option("--unarmed-foe", is_flag=True, help="The foe holds no weapon (a sunder row's other damage).")
@profile_option
@option_option
@json_option
def odds_attack(atk: str | None, ac: int, damage: str | None, char_class: str | None, level: int, crit_on: int,
                ranged: bool, monster: bool, character_file: str | None, easy: tuple[str, ...], hard: tuple[str, ...],
                unarmed_foe: bool, profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """Exact odds of one ATK: the chance to hit (a natural 1 misses, a natural 20 hits and crits), the crit table's
    rows for the attacker's level, and the damage per attack with its distribution (F-CRIT-01/02, F-FUMB-01).

    Example: furnace odds attack --atk d20+3 --ac 14 --damage 1d8+2 --class fighter --level 3
    """
    from furnace.play import odds as play_odds
    from furnace.render.odds import attack_json, attack_text

    rules = _odds_rules(profile, options, character_file)
    attacker = _attacker(rules, atk, damage, char_class, level, crit_on, ranged, monster, character_file)
    found = play_odds.attack_odds(attacker, ac, rules, easy=easy, hard=hard, foe_armed=not unarmed_foe)
    if as_json:
        _emit(attack_json(found))
        return
    click.echo(attack_text(found, attacker))


def _odds_rules(profile: str, options: tuple[str, ...], character_file: str | None) -> Any:
    """A built-in profile's options and tables as plain objects (`furnace.rules.plain`: no model is built, so the
    command starts fast); the ruleset itself with `--option`, a referee's profile file or a character file."""
    if not options and character_file is None:
        from furnace.rules.plain import plain_rules

        found = plain_rules(profile)
        if found is not None:
            return found
    return load_rules(profile, options)


def _attacker(rules: Any, atk: str | None, damage: str | None, char_class: str | None, level: int, crit_on: int,
              ranged: bool, monster: bool, character_file: str | None) -> Any:
    from furnace.errors import FurnaceError
    from furnace.play import odds as play_odds

    if character_file is not None:
        from furnace.characters.character import Character
        from furnace.play.combatant import from_character

        return from_character(Character.from_file(character_file), "party", rules, zone="RANGED" if ranged else "NEAR")
    if atk is None or damage is None:
        raise FurnaceError("give --atk d20+N and --damage DICE, or --character FILE")
    return play_odds.typed_attacker(play_odds.attack_bonus_of(atk), damage, level=level, char_class=char_class,
                                    crit_on=crit_on, ranged=ranged, monster=monster)


@odds.command("dying")
@profile_option
@option_option
@json_option
def odds_dying(profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """A dying character's chance to get up before her timer ends: 1d4 turns, a d20 each turn, up with 1 HP
    on a natural 20 (F-DEATH-01).

    Example: furnace odds dying
    """
    from furnace.play import odds as play_odds
    from furnace.render.odds import dying_json, dying_text

    found = play_odds.dying_odds(load_rules(profile, options))
    if as_json:
        _emit(dying_json(found))
        return
    click.echo(dying_text(found, play_odds.DYING_TIMER))
