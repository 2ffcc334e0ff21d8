"""Exact odds in words and as JSON: one attack (`furnace.play.odds.attack_odds`) and a dying character's chance to
get up (`dying_odds`), as `furnace odds attack` and `furnace odds dying` print them and the console shows them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from furnace.dice.odds import mean
from furnace.render.plots import odds_chart


def percent(p: Fraction) -> str:
    """'12.50% (1/8)'."""
    return f"{float(p):.2%} ({p})"


def dist_json(dist: dict[int, Fraction]) -> dict[str, str]:
    return {str(k): str(v) for k, v in sorted(dist.items())}


def attacker_words(a: Any) -> str:
    if a.kind == "monster":
        return "a monster"
    if a.name != "the attacker":
        return f"{a.name}, level {a.level} {a.char_class or '0-level'}"
    return f"a level-{a.level} {a.char_class}" if a.level and a.char_class else "a 0-level character"


def attack_text(o: Any, a: Any) -> str:
    """One ATK's odds (`o`) for the attacker `a`, in words, with the damage chart and the crit rows."""
    lines = [f"{o.attack} against {o.why} ({attacker_words(a)}, {a.damage} damage, crits on a natural {o.crit_on}"
             f"{'' if o.crit_on == 20 else ' or more'}):",
             f"  hits {percent(o.p_hit)}, of which crits {percent(o.p_crit)}; fumbles {percent(o.p_fumble)}.",
             f"  An ordinary hit deals {float(mean(o.hit_damage)):.2f} on average (at least 1)."]
    if o.crit_table:
        lines.append(f"  A crit deals {float(mean(o.crit_damage)):.2f} on average: the maximum plus a row of "
                     f"{o.crit_table} rolled with {o.crit_die}.")
        if o.p_kill_row:
            lines.append(f"  A crit row that can kill outright comes up on {percent(o.p_kill_row)} of attacks.")
    else:
        lines.append("  No crit table: a natural 20 only hits.")
    lines.append(f"  Damage per attack: {float(o.expected):.3f} on average ({o.expected}).")
    lines.append(odds_chart("damage per attack", o.damage, None, None))
    if o.crit_rows:
        lines.append(f"Crit rows ({o.crit_table}, {o.crit_die}), given a crit:")
        lines += [f"  {r.span:>5} {float(r.chance):6.2%}  +{float(mean(r.extra)):.2f} DAM  {r.text}"
                  for r in o.crit_rows]
    return "\n".join(lines)


def attack_json(o: Any) -> dict[str, Any]:
    return {"attack": o.attack, "ac": o.ac, "crit_on": o.crit_on, "p_hit": str(o.p_hit), "p_crit": str(o.p_crit),
            "p_fumble": str(o.p_fumble), "p_hit_float": float(o.p_hit), "expected_damage": str(o.expected),
            "expected_damage_float": float(o.expected), "crit_table": o.crit_table, "crit_die": o.crit_die,
            "p_crit_row_kills": str(o.p_kill_row), "damage": dist_json(o.damage),
            "hit_damage": dist_json(o.hit_damage), "crit_damage": dist_json(o.crit_damage),
            "crit_rows": [{"row": r.span, "text": r.text, "p": str(r.chance), "extra_damage_mean": str(mean(r.extra)),
                           "kills": r.kills} for r in o.crit_rows]}


def dying_text(found: Any, timer: str) -> str:
    """A dying character's chance to get up (F-DEATH-01), overall and by the turns her timer gives her."""
    lines = [f"A dying character gets up before her timer ends in {percent(found.gets_up)} of cases "
             f"(timer {timer} turns, a natural 20 on each turn's d20)."]
    lines += [f"  with {t} turn(s) ({percent(found.timer[t])} of timers): gets up {percent(p)}"
              for t, p in found.by_turns.items()]
    return "\n".join(lines)


def dying_json(found: Any) -> dict[str, Any]:
    return {"timer": dist_json(found.timer), "p_gets_up": str(found.gets_up), "p_gets_up_float": float(found.gets_up),
            "p_gets_up_by_turns": {str(t): str(p) for t, p in found.by_turns.items()}}


__all__ = ["attack_json", "attack_text", "attacker_words", "dist_json", "dying_json", "dying_text", "percent"]
