"""What the referee reads at the table: a row's effects with their dice rolled, and rule ids kept for `--explain`.

- `rolling(rng)`: a way of showing an effect's dice that rolls each one (`+2d6` → `2d6 → [3, 5] = 8`) and keeps
  the rolls; an expression with a variable (`10+PC_LVL`) or without a die (`15`) is shown as written.
- `effect_lines(effects, rng)`: the sentences of a row's effects, their dice rolled (`rng=None`: as written).
- `without_rule_ids(text)`: the text with its RULES.md ids taken out (`(F-DEATH-01)`, `, M-GRIEV-06`): the
  referee's plain output; `--explain` shows the text whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError
from furnace.rules.effects import DiceShown, Effect, effect_summary, words

RULE_ID = r"(?:[FHMX]-[A-Z]{2,6}-\d{1,3}[a-z]?|AMB-\d{1,3}[a-z]?|CF-\d{1,3}|REF-\d{1,3}|EXT-\d{1,3}|D-\d{1,2})"
_IDS_ONLY = re.compile(rf"\s*\(\s*{RULE_ID}(?:\s*(?:,|/|;|and|&)?\s*{RULE_ID}|/\d{{1,3}}[a-z]?)*\s*\)")
_ID_IN_PARENS = re.compile(rf"(?:[,;]\s*{RULE_ID}(?:/\d{{1,3}})?(?=[,;)])|(?<=\(){RULE_ID}(?:/\d{{1,3}})?[,;]?\s+)")
_LEADING_ID = re.compile(rf"^(\s*){RULE_ID}(?:/\d{{1,3}})?(?:\s*/\s*{RULE_ID})*:\s+", re.M)   # "AMB-03 / CF-14: …"


def without_rule_ids(text: str, keep: Iterable[str] = ()) -> str:
    """The text without rule ids: a parenthesis of ids goes, an id beside words in one loses the id. The names in
    `keep` stay even when they look like an id (the funnel names player D's peasants D-1, D-2 …)."""
    kept = {f"\x00{i}\x00": name for i, name in enumerate(n for n in set(keep) if re.fullmatch(RULE_ID, n))}
    for mark, name in kept.items():
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", mark, text)
    text = _IDS_ONLY.sub("", text)
    text = _ID_IN_PARENS.sub("", text)
    text = _LEADING_ID.sub(r"\1", text)
    for mark, name in kept.items():
        text = text.replace(mark, name)
    return text


class Rolling:
    """Shows an effect's dice rolled (and keeps the rolls, in the order rolled, for JSON and the log)."""

    def __init__(self, rng: DiceSource) -> None:
        self.rng = rng
        self.rolls: list[RollResult] = []

    def __call__(self, text: str) -> str:
        try:
            expr = dice.parse(text)
        except FurnaceError:
            return words(text)
        if expr.variables() or len(set(expr.bounds())) == 1:
            return words(text)
        result = expr.roll(self.rng)
        self.rolls.append(result)
        return result.explain()


def rolling(rng: DiceSource | None) -> DiceShown:
    """How dice are shown: rolled on `rng`, or as written when there is none (`--no-roll`)."""
    return words if rng is None else Rolling(rng)


def effect_lines(effects: Iterable[Effect], rng: DiceSource | None = None) -> tuple[list[str], list[RollResult]]:
    """Each effect as a sentence, its dice rolled on `rng` (as written without one), and the rolls made."""
    shown = rolling(rng)
    lines = [effect_summary(e, shown) for e in effects]
    return lines, list(shown.rolls) if isinstance(shown, Rolling) else []
