"""`furnace odds`: exact odds of a dice expression, of one attack and of a dying character (furnace.play.odds).

`furnace odds EXPR` is the first form and stays the default: a first word that is not `attack` or `dying` is
the expression (`furnace odds "d20+3" --dc 15`). The DC's probability is read off the distribution already
worked out, never a second computation. The expression form imports no rules, so it starts fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
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


def _p(p: Fraction) -> str:
    return f"{float(p):.2%} ({p})"


def _dist_json(dist: dict[int, Fraction]) -> dict[str, str]:
    return {str(k): str(v) for k, v in sorted(dist.items())}


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
    from furnace.render.plots import odds_chart

    expr = dice.parse(expression)
    dist = expr.distribution(_parse_vars(variables))
    chance = at_least(dist, check_dc(dc)) if dc is not None else None
    if as_json:
        _emit({"expression": expr.text, "distribution": _dist_json(dist), "dc": dc,
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

    rules = load_rules(profile, options)
    attacker = _attacker(rules, atk, damage, char_class, level, crit_on, ranged, monster, character_file)
    found = play_odds.attack_odds(attacker, ac, rules, easy=easy, hard=hard, foe_armed=not unarmed_foe)
    if as_json:
        _emit(_attack_json(found))
        return
    click.echo(_attack_text(found, attacker))


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
    return play_odds.attacker(play_odds.attack_bonus_of(atk), damage, level=level, char_class=char_class,
                              crit_on=crit_on, ranged=ranged, monster=monster)


def _who(a: Any) -> str:
    if a.kind == "monster":
        return "a monster"
    if a.name != "the attacker":
        return f"{a.name}, level {a.level} {a.char_class or '0-level'}"
    return f"a level-{a.level} {a.char_class}" if a.level and a.char_class else "a 0-level character"


def _attack_text(o: Any, a: Any) -> str:
    from furnace.dice.odds import mean
    from furnace.render.plots import odds_chart

    lines = [f"{o.attack} against {o.why} ({_who(a)}, {a.damage} damage, crits on a natural {o.crit_on}"
             f"{'' if o.crit_on == 20 else ' or more'}):",
             f"  hits {_p(o.p_hit)}, of which crits {_p(o.p_crit)}; fumbles {_p(o.p_fumble)}.",
             f"  An ordinary hit deals {float(mean(o.hit_damage)):.2f} on average (at least 1)."]
    if o.crit_table:
        lines.append(f"  A crit deals {float(mean(o.crit_damage)):.2f} on average: the maximum plus a row of "
                     f"{o.crit_table} rolled with {o.crit_die}.")
        if o.p_kill_row:
            lines.append(f"  A crit row that can kill outright comes up on {_p(o.p_kill_row)} of attacks.")
    else:
        lines.append("  No crit table: a natural 20 only hits.")
    lines.append(f"  Damage per attack: {float(o.expected):.3f} on average ({o.expected}).")
    lines.append(odds_chart("damage per attack", o.damage, None, None))
    if o.crit_rows:
        lines.append(f"Crit rows ({o.crit_table}, {o.crit_die}), given a crit:")
        lines += [f"  {r.span:>5} {float(r.chance):6.2%}  +{float(mean(r.extra)):.2f} DAM  {r.text}"
                  for r in o.crit_rows]
    return "\n".join(lines)


def _attack_json(o: Any) -> dict[str, Any]:
    from furnace.dice.odds import mean

    return {"attack": o.attack, "ac": o.ac, "crit_on": o.crit_on, "p_hit": str(o.p_hit), "p_crit": str(o.p_crit),
            "p_fumble": str(o.p_fumble), "p_hit_float": float(o.p_hit), "expected_damage": str(o.expected),
            "expected_damage_float": float(o.expected), "crit_table": o.crit_table, "crit_die": o.crit_die,
            "p_crit_row_kills": str(o.p_kill_row), "damage": _dist_json(o.damage),
            "hit_damage": _dist_json(o.hit_damage), "crit_damage": _dist_json(o.crit_damage),
            "crit_rows": [{"row": r.span, "text": r.text, "p": str(r.chance), "extra_damage_mean": str(mean(r.extra)),
                           "kills": r.kills} for r in o.crit_rows]}


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

    found = play_odds.dying_odds(load_rules(profile, options))
    if as_json:
        _emit({"timer": _dist_json(found.timer), "p_gets_up": str(found.gets_up),
               "p_gets_up_float": float(found.gets_up),
               "p_gets_up_by_turns": {str(t): str(p) for t, p in found.by_turns.items()}})
        return
    click.echo(f"A dying character gets up before her timer ends in {_p(found.gets_up)} of cases "
               f"(timer {play_odds.DYING_TIMER} turns, a natural 20 on each turn's d20).")
    for t, p in found.by_turns.items():
        click.echo(f"  with {t} turn(s) ({_p(found.timer[t])} of timers): gets up {_p(p)}")
