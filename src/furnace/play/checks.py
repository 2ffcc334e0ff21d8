"""Checks and DCs: a d20 plus modifiers against a DC, and the pieces every other check-based rule shares.

Implements F-BASE-02 (CHECK), F-BASE-03 (ROOM DC), F-BASE-04 (EASY/HARD; stacking AMB-04), AMB-06 (meet or
beat, natural rolls) and F-OPT-01 (advantage, AMB-56). Here live `check`, `CheckResult`, `Modifier`, `DC`,
`Difficulty`, `make_dc`, `plain_dc`, `net_advantage`, the errors `CheckError` and `OptionOffError`, and the
helpers the optional rules built on checks use (`resolve_rules`, `require_option`, `whole`); the DC and what it
needs (`DC`, `make_dc`, `plain_dc`, `whole`, `resolve_rules`, `CheckError`) are `furnace.play.dc`'s, re-exported
here (`furnace odds attack` reads a DC and builds none of the checks' classes). Those rules live
in the sibling modules: `contests` (F-OPT-02), `effort` (F-OPT-03, F-OPT-06), `timers` (F-OPT-07),
`reaction` (F-NPC-01, F-OPT-04/05) and `surprise` (F-SURP-01).

Every function takes its dice source and the ruleset, and returns a frozen result that explains itself
(`.explain()`, `.to_dict()`): the roll, each modifier with its source, the DC and how it was made.
An optional rule whose option is off raises `OptionOffError` rather than quietly doing something else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.play.dc import DC as DC
from furnace.play.dc import STEP as STEP
from furnace.play.dc import CheckError as CheckError
from furnace.play.dc import default_rules as default_rules
from furnace.play.dc import make_dc as make_dc
from furnace.play.dc import plain_dc as plain_dc
from furnace.play.dc import resolve_rules as resolve_rules
from furnace.play.dc import whole as whole

if TYPE_CHECKING:      # (annotations only; the default ruleset is loaded when asked: `furnace odds attack` loads none)
    from furnace.rules.ruleset import Ruleset

Kind = Literal["CHECK", "SAVE", "ATK"]
Advantage = Literal["adv", "dis"] | None
KINDS: tuple[Kind, ...] = ("CHECK", "SAVE", "ATK")
_D20 = {None: "d20", "adv": "d20adv", "dis": "d20dis"}


class OptionOffError(CheckError):
    """An optional rule was used while its rule option is off."""

    def __init__(self, option: str, rule: str, what: str) -> None:
        self.option = option
        self.rule = rule
        super().__init__(f"{what} is an optional rule ({rule}) and the rule option {option} is off; turn it on "
                         f"to use it (in a campaign: `furnace campaign override set {option}=true`)")

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "option": self.option, "rule": self.rule}


def require_option(rules: Ruleset, option: str, rule: str, what: str) -> None:
    """Raise `OptionOffError` unless the optional rule's option is on."""
    if not rules[option]:
        raise OptionOffError(option, rule, what)


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


# -- modifiers and the DC (F-BASE-03, F-BASE-04, AMB-04) ---------------------------------------------------
@dataclass(frozen=True)
class Modifier:
    """A number added to the d20, with where it comes from: `Modifier(2, "DEX")`, `Modifier(1, "PROF")`."""

    value: int
    source: str

    def __post_init__(self) -> None:
        whole(self.value, f"modifier {self.source!r}")

    def explain(self) -> str:
        return f"{_signed(self.value)} ({self.source})"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "source": self.source}


@dataclass(frozen=True)
class Difficulty:
    """The EASY and HARD that apply to one roll, each named by its source ("fresh snow", "heavy armor")."""

    easy: tuple[str, ...] = ()
    hard: tuple[str, ...] = ()

    def dc(self, room_dc: int, rules: Ruleset | None = None) -> DC:
        return make_dc(room_dc, self.easy, self.hard, rules)


# -- the check itself (F-BASE-02, AMB-06, F-OPT-01) --------------------------------------------------------
@dataclass(frozen=True)
class CheckResult:
    """A resolved CHECK, SAVE or ATK: the d20 roll, the modifiers, the DC, and why it succeeded or not."""

    kind: Kind
    label: str
    roll: RollResult
    modifiers: tuple[Modifier, ...]
    dc: DC
    total: int
    success: bool
    reason: str
    natural: int                # the kept d20 face, whatever advantage was rolled
    advantage: Advantage = None
    critical: bool = False      # an ATK's natural 20 (F-CRIT-01)
    fumble: bool = False        # an ATK's natural 1 (F-FUMB-01)

    def verdict(self) -> str:
        if self.kind == "ATK":
            return "hit" if self.success else "miss"
        return "success" if self.success else "failure"

    def explain(self) -> str:
        mods = "".join(f" {m.explain()}" for m in self.modifiers)
        head = f"{self.label} ({self.kind})" if self.label and self.label != self.kind else self.kind
        line = (f"{head}: {self.roll.expression} → {dice.render(self.roll.tree)}{mods} = {self.total} "
                f"vs {self.dc.explain()} → {self.verdict()}: {self.reason}")
        if self.natural in (1, 20) and f"natural {self.natural}" not in self.reason:
            line += f" [natural {self.natural}]"
        return line

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "roll": self.roll.to_dict(),
                "modifiers": [m.to_dict() for m in self.modifiers], "dc": self.dc.to_dict(),
                "total": self.total, "success": self.success, "reason": self.reason, "natural": self.natural,
                "advantage": self.advantage, "critical": self.critical, "fumble": self.fumble,
                "explanation": self.explain()}


def net_advantage(advantage: bool, disadvantage: bool) -> Advantage:
    """5e: any advantage and any disadvantage cancel to a plain roll (F-OPT-01, AMB-56)."""
    if advantage == disadvantage:
        return None
    return "adv" if advantage else "dis"


def _apply_advantage(asked: Advantage, dc: DC, rules: Ruleset) -> tuple[Advantage, DC]:
    """The advantage the roll gets and the DC it is against, per use_advantage and advantage_mode."""
    if not rules["use_advantage"]:
        if asked is not None:
            raise OptionOffError("use_advantage", "F-OPT-01", "advantage and disadvantage")
        return None, dc
    if rules["advantage_mode"] != "instead" or dc.steps == 0:
        return asked, dc
    # instead: EASY becomes advantage and HARD disadvantage on the roll; the DC stays the ROOM DC
    from_dc: Advantage = "adv" if dc.steps < 0 else "dis"
    note = f"net {'EASY' if dc.steps < 0 else 'HARD'} taken as {from_dc} (advantage_mode: instead)"
    effective = net_advantage(asked == "adv" or from_dc == "adv", asked == "dis" or from_dc == "dis")
    return effective, DC(dc.room_dc, dc.room_dc, notes=(note,))


def _verdict(kind: Kind, total: int, dc: int, natural: int, rules: Ruleset,
             crit_on: int) -> tuple[bool, str]:
    """Success and the reason: an ATK's natural 20/1 hit/miss; a CHECK's only per check_natural_rolls."""
    if kind == "ATK" and natural >= crit_on:
        return True, f"natural {natural} on an ATK hits (F-CRIT-01)"
    if kind == "ATK" and natural == 1:
        return False, "natural 1 on an ATK misses (F-FUMB-01)"
    if kind == "CHECK" and natural in (1, 20) and rules["check_natural_rolls"] == "automatic":
        return natural == 20, f"natural {natural} decides a CHECK (check_natural_rolls: automatic)"
    if rules["check_ties"] == "succeed":
        return total >= dc, f"{total} {'≥' if total >= dc else '<'} {dc} (meet or beat)"
    return total > dc, f"{total} {'>' if total > dc else '≤'} {dc} (must beat: check_ties fail)"


def succeeds(kind: Kind, total: int, dc: int, natural: int, rules: Ruleset | None = None, crit_on: int = 20) -> bool:
    """Whether a total succeeds (`check`'s own verdict): read again when Luck Dice changed the total after the roll
    (F-LUCK-03; the natural face as it stands, AMB-02)."""
    return _verdict(kind, total, dc, natural, resolve_rules(rules), crit_on)[0]


def _check_args(kind: str, advantage: object, crit_on: int) -> None:
    if kind not in KINDS:
        raise CheckError(f"a check is one of {', '.join(KINDS)}, not {kind!r}")
    if advantage not in _D20:
        raise CheckError(f"advantage is 'adv', 'dis' or nothing, not {advantage!r}")
    if not 2 <= whole(crit_on, "crit_on") <= 20:
        raise CheckError(f"crit_on is a d20 face from 2 to 20, not {crit_on}")


def check(rng: DiceSource, dc: DC | int, modifiers: Sequence[Modifier] = (), *, kind: Kind = "CHECK",
          label: str = "", advantage: Advantage = None, rules: Ruleset | None = None,
          crit_on: int = 20) -> CheckResult:
    """d20 + modifiers vs DC (F-BASE-02): meet or beat by default; the natural d20 is always recorded.

    `crit_on` lowers an ATK's critical face (a Barbarian's melee ATK crits on 19, F-CRIT-01).
    """
    rules = resolve_rules(rules)
    _check_args(kind, advantage, crit_on)
    target = dc if isinstance(dc, DC) else plain_dc(dc)
    advantage, target = _apply_advantage(advantage, target, rules)
    roll = dice.roll(_D20[advantage], rng, label=label or kind)
    mods = tuple(modifiers)
    total = roll.total + sum(whole(m.value, f"modifier {m.source!r}") for m in mods)
    natural = roll.natural or 0  # a d20 roll always has its natural face; 0 keeps mypy's int
    success, reason = _verdict(kind, total, target.value, natural, rules, crit_on)
    atk = kind == "ATK"
    return CheckResult(kind, label, roll, mods, target, total, success, reason, natural, advantage,
                       critical=atk and natural >= crit_on, fumble=atk and natural == 1)
