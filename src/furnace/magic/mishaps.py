"""Spells let loose by a mishap, and the lockouts a mishap or disapproval row leaves behind.

F-SPELL-10/11, AMB-21: the mishap rows that cast a spell (F-TAB-18 1 "a random known spell at SL 1d6", 16–17
"a random target", 20 "backfires on the caster"; F-TAB-19 5–6; F-TAB-20 4–5) carry a `spell` effect; each
is resolved with the dice source: which spell (uniformly among the caster's known spells for `random_known`),
on whom (uniformly among the creatures in the spell's range, the caster and her allies included), at the SL
the option `mishap_random_sl` rolls (1d6; a 6 is a WONDER for the referee, REF-03), and that SL's row of the
spell gives the effects. The same rules serve the fight (`furnace.magic.fight`) and the character out of a
fight (`furnace.magic.casting`).

WEAK, FRIGHTENED and STUNNED from F-TAB-18 (and FRIGHTENED, BLINDED from F-TAB-19) have no duration in the
source: the rows write MISHAP_ROUNDS, the rounds of the option `mishap_condition_duration` (AMB-20, default 1).

F-TAB-18 8–9 / X-TAB-02 6 "can't try this spell again until rest" and F-TAB-18 10–11 "can't target that
creature until rest" name the spell and the creature they bar: in a fight the marker is held with the
spell's name or the creature's id as its source; on a character it is an `until_rest` line (D-7).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from furnace import dice
from furnace.characters.character import Character
from furnace.dice import DiceSource, RollResult
from furnace.magic.spells import WONDER_SL, Spell
from furnace.rules.effects import Condition, Effect, RefereePrompt, Save, SpellEffect
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row

T = TypeVar("T")
THIS_SPELL = "CANT_CAST_THIS_SPELL"     # F-TAB-18 8–9, X-TAB-02 6
SAME_TARGET = "CANT_TARGET_SAME"        # F-TAB-18 10–11
DEFAULT_SL = "1d6"                      # what the tables write; the option mishap_random_sl may change it
CASTING = ("CANT_CAST", "DEPLETED")     # no spell at all until rest (F-TAB-18 14–15, F-MU-04)
MISHAP_ROUNDS = "MISHAP_ROUNDS"         # a mishap condition's rounds when the source gives none (AMB-20)
_TARGET = re.compile(r" \(target: (?P<who>[^()]+)\)$")


def with_mishap_rounds(effects: Sequence[Effect], rules: Ruleset) -> list[Effect]:
    """AMB-20: the effects with MISHAP_ROUNDS read as the rounds of the option mishap_condition_duration."""
    rounds = str(int(rules["mishap_condition_duration"]))
    return [_rounds(e, rounds) for e in effects]


def _rounds(e: Effect, rounds: str) -> Effect:
    if isinstance(e, Condition) and e.duration is not None and e.duration.amount == MISHAP_ROUNDS:
        return e.model_copy(update={"duration": e.duration.model_copy(update={"amount": rounds})})
    if isinstance(e, Save):
        return e.model_copy(update={"on_fail": [_rounds(x, rounds) for x in e.on_fail],
                                    "on_success": [_rounds(x, rounds) for x in e.on_success]})
    return e


def lockouts(character: Character) -> list[tuple[str, str | None, str]]:
    """The casting lockouts in a character's until_rest lines (D-7), as (name, what, line): what is the spell
    for CANT_CAST_THIS_SPELL ("CANT_CAST_THIS_SPELL: Fireball: row"), the creature for CANT_TARGET_SAME
    ("CANT_TARGET_SAME: row (target: Goblin)"; None when no target was named) and None otherwise."""
    found: list[tuple[str, str | None, str]] = []
    for line in character.until_rest:
        name, _, rest = line.partition(":")
        if name in CASTING:
            found.append((name, None, line))
        elif name == THIS_SPELL:
            found.append((name, rest.strip().split(": ")[0] or None, line))
        elif name == SAME_TARGET:
            m = _TARGET.search(line)
            found.append((name, m["who"] if m else None, line))
    return found


def until_rest_line(name: str, text: str, *, spell: str | None = None, target: str | None = None) -> str:
    """The until_rest line a lockout leaves on a character (the form `lockouts` reads back)."""
    if name == THIS_SPELL and spell:
        return f"{name}: {spell}: {text}"
    if name == SAME_TARGET and target:
        return f"{name}: {text} (target: {target})"
    return f"{name}: {text}"


@dataclass(frozen=True)
class Loosed:
    """A spell a mishap let loose: which, on whom (None: the referee picks), at what SL, and what it does."""

    spell: Spell
    target: str | None
    sl: int
    effects: tuple[Effect, ...]
    row: Row | None
    rolls: tuple[RollResult, ...]      # the picks and the SL roll, in the order rolled


def spell_effects(effects: Sequence[Effect]) -> list[SpellEffect]:
    return [e for e in effects if isinstance(e, SpellEffect)]


def pick(options: Sequence[T], rng: DiceSource, label: str) -> tuple[T, RollResult | None]:
    """One of the options, uniformly, with a d{n} from the dice source (no roll when there is one)."""
    if not options:
        raise ValueError("nothing to pick from")
    if len(options) == 1:
        return options[0], None
    r = dice.roll(f"d{len(options)}", rng, label=label)
    return options[r.total - 1], r


def roll_sl(effect: SpellEffect, rng: DiceSource, rules: Ruleset, name: str) -> tuple[int, RollResult]:
    """AMB-21: the SL of a loosed spell, 1d6 (option mishap_random_sl) unless the row names other dice."""
    expression = str(rules["mishap_random_sl"]) if effect.sl == DEFAULT_SL else effect.sl
    r = dice.roll(expression, rng, label="SL")
    return max(1, min(WONDER_SL, r.total)), r


def row_effects(spell: Spell, sl: int) -> tuple[Row | None, list[Effect]]:
    """The effects of the spell's row for this SL; SL6 is a WONDER the referee rules (REF-03)."""
    row = spell.row(sl)
    if row is None:
        return None, [RefereePrompt(kind="referee_prompt", prompt=f"{spell.name} has no SL{sl} row: the referee "
                                    "decides what the loosed spell does")]
    effects = list(row.effect_list())
    if sl == WONDER_SL and not any(e.kind == "referee_prompt" for e in effects):
        effects.insert(0, RefereePrompt(kind="referee_prompt", prompt=f"WONDER: {row.text}"))
    return row, effects


def loose(effect: SpellEffect, spell: Spell, known: Sequence[Spell], rng: DiceSource, rules: Ruleset,
          targets: Callable[[Spell], Sequence[str] | None], *, caster: str, aimed: str | None) -> Loosed:
    """Resolve one `spell` effect: the spell (this one, or a random known one), the target (`targets(spell)`
    gives the candidates for a random target in that spell's range; None when no one knows them), the SL,
    and that row's effects."""
    rolls: list[RollResult] = []
    chosen = spell
    if effect.spell == "random_known" and known:
        chosen, r = pick(list(known), rng, "which spell")
        rolls += [r] if r else []
    target: str | None
    if effect.target == "self":
        target = caster
    elif effect.target == "target":
        target = aimed
    else:
        candidates = targets(chosen)
        target = None
        if candidates:
            target, r = pick(list(candidates), rng, "random target")
            rolls += [r] if r else []
    sl, r = roll_sl(effect, rng, rules, chosen.name)
    row, effects = row_effects(chosen, sl)
    return Loosed(chosen, target, sl, tuple(effects), row, (*rolls, r))
