"""Checks: a d20 plus modifiers against a DC, and the optional rules built on it.

F-BASE-02 (CHECK), F-BASE-03 (ROOM DC), F-BASE-04 (EASY/HARD; stacking AMB-04), AMB-06 (meet or beat,
natural rolls), F-OPT-01 (advantage, AMB-56), F-OPT-02 (contested roll-under, AMB-53), F-OPT-03 (effort,
F-TAB-41, AMB-54), F-OPT-04/05 (morale, AMB-52), F-OPT-06 (skill challenges, AMB-55), F-OPT-07 (timers),
F-NPC-01 (reaction, F-TAB-29, AMB-51) and F-SURP-01 (surprise, D-3, CF-51).

Every function takes its dice source and the ruleset, and returns a frozen result that explains itself
(`.explain()`, `.to_dict()`): the roll, each modifier with its source, the DC and how it was made.
An optional rule whose option is off raises `OptionOffError` rather than quietly doing something else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError
from furnace.events import Event
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import TableRoll

Kind = Literal["CHECK", "SAVE", "ATK"]
Advantage = Literal["adv", "dis"] | None
KINDS: tuple[Kind, ...] = ("CHECK", "SAVE", "ATK")
STEP = 3                       # EASY is -3 and HARD +3 to the DC (F-BASE-04)
_D20 = {None: "d20", "adv": "d20adv", "dis": "d20dis"}


class CheckError(FurnaceError):
    """A check asked for with values the rules cannot resolve (no source for a HARD, an unknown kind …)."""


class OptionOffError(CheckError):
    """An optional rule was used while its rule option is off."""

    def __init__(self, option: str, rule: str, what: str) -> None:
        self.option = option
        self.rule = rule
        super().__init__(f"{what} is an optional rule ({rule}) and the rule option {option} is off; "
                         f"turn it on in the profile to use it")

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "option": self.option, "rule": self.rule}


@cache
def default_rules() -> Ruleset:
    """The `furnace` profile, loaded once: a caller that passes no ruleset gets every default."""
    return load_ruleset()


def _rules(rules: Ruleset | None) -> Ruleset:
    return default_rules() if rules is None else rules


def _require(rules: Ruleset, option: str, rule: str, what: str) -> None:
    if not rules[option]:
        raise OptionOffError(option, rule, what)


def _whole(value: object, what: str) -> int:
    # bool is an int to Python, but True is never a meant modifier or DC
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckError(f"{what} must be a whole number, not {value!r}")
    return value


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


# -- modifiers and the DC (F-BASE-03, F-BASE-04, AMB-04) ---------------------------------------------------
@dataclass(frozen=True)
class Modifier:
    """A number added to the d20, with where it comes from: `Modifier(2, "DEX")`, `Modifier(1, "PROF")`."""

    value: int
    source: str

    def __post_init__(self) -> None:
        _whole(self.value, f"modifier {self.source!r}")

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


@dataclass(frozen=True)
class DC:
    """The number to meet: ROOM DC moved by the EASY and HARD that counted, and why."""

    value: int
    room_dc: int
    easy: tuple[str, ...] = ()          # the sources that counted, after removing repeats
    hard: tuple[str, ...] = ()
    steps: int = 0                      # net steps of 3 applied: +1 is one HARD, -1 one EASY
    notes: tuple[str, ...] = ()         # repeats dropped, caps applied, conversions

    def explain(self) -> str:
        parts = [f"EASY −3 ({s})" for s in self.easy] + [f"HARD +3 ({s})" for s in self.hard]
        parts += list(self.notes)
        if not parts:
            return f"DC {self.value}"
        return f"DC {self.value} (ROOM DC {self.room_dc}; " + "; ".join(parts) + ")"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "room_dc": self.room_dc, "easy": list(self.easy), "hard": list(self.hard),
                "steps": self.steps, "notes": list(self.notes), "explanation": self.explain()}


def plain_dc(value: int) -> DC:
    """A DC given as a bare number: no EASY or HARD to explain."""
    value = _whole(value, "a DC")
    return DC(value, value)


def _distinct(sources: Iterable[str] | str, what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sources counted once each (AMB-04), and the repeats that were dropped."""
    if isinstance(sources, str):  # one source given bare, not a string to split into letters
        sources = (sources,)
    kept: list[str] = []
    repeats: list[str] = []
    seen: set[str] = set()
    for source in sources:
        if not isinstance(source, str) or not source.strip():
            raise CheckError(f"every {what} needs a named source, so that one source counts once (AMB-04)")
        key = source.strip().casefold()
        (repeats if key in seen else kept).append(source.strip())
        seen.add(key)
    return tuple(kept), tuple(repeats)


def make_dc(room_dc: int, easy: Iterable[str] | str = (), hard: Iterable[str] | str = (),
            rules: Ruleset | None = None) -> DC:
    """ROOM DC with each EASY −3 and each HARD +3, combined per the option easy_hard_stacking."""
    room_dc = _whole(room_dc, "ROOM DC")
    easy_kept, easy_repeats = _distinct(easy, "EASY")
    hard_kept, hard_repeats = _distinct(hard, "HARD")
    notes = [f"{s} counted once (AMB-04)" for s in dict.fromkeys(easy_repeats + hard_repeats)]
    steps = len(hard_kept) - len(easy_kept)
    if _rules(rules)["easy_hard_stacking"] == "cancel_single" and abs(steps) > 1:
        notes.append(f"net capped at {'+' if steps > 0 else '−'}3 (easy_hard_stacking: cancel_single)")
        steps = 1 if steps > 0 else -1
    return DC(room_dc + STEP * steps, room_dc, easy_kept, hard_kept, steps, tuple(notes))


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


def _check_args(kind: str, advantage: object, crit_on: int) -> None:
    if kind not in KINDS:
        raise CheckError(f"a check is one of {', '.join(KINDS)}, not {kind!r}")
    if advantage not in _D20:
        raise CheckError(f"advantage is 'adv', 'dis' or nothing, not {advantage!r}")
    if not 2 <= _whole(crit_on, "crit_on") <= 20:
        raise CheckError(f"crit_on is a d20 face from 2 to 20, not {crit_on}")


def check(rng: DiceSource, dc: DC | int, modifiers: Sequence[Modifier] = (), *, kind: Kind = "CHECK",
          label: str = "", advantage: Advantage = None, rules: Ruleset | None = None,
          crit_on: int = 20) -> CheckResult:
    """d20 + modifiers vs DC (F-BASE-02): meet or beat by default; the natural d20 is always recorded.

    `crit_on` lowers an ATK's critical face (a Barbarian's melee ATK crits on 19, F-CRIT-01).
    """
    rules = _rules(rules)
    _check_args(kind, advantage, crit_on)
    target = dc if isinstance(dc, DC) else plain_dc(dc)
    advantage, target = _apply_advantage(advantage, target, rules)
    roll = dice.roll(_D20[advantage], rng, label=label or kind)
    mods = tuple(modifiers)
    total = roll.total + sum(_whole(m.value, f"modifier {m.source!r}") for m in mods)
    natural = roll.natural or 0  # a d20 roll always has its natural face; 0 keeps mypy's int
    success, reason = _verdict(kind, total, target.value, natural, rules, crit_on)
    atk = kind == "ATK"
    return CheckResult(kind, label, roll, mods, target, total, success, reason, natural, advantage,
                       critical=atk and natural >= crit_on, fumble=atk and natural == 1)


# -- contested roll-under CHECKs (F-OPT-02, AMB-53) --------------------------------------------------------
@dataclass(frozen=True)
class ContestSide:
    label: str
    score: int
    roll: RollResult
    success: bool            # rolled at or under its own ability score

    def explain(self) -> str:
        word = "under" if self.success else "over"
        return f"{self.label}: d20 → {self.roll.total} vs score {self.score} ({word})"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "score": self.score, "roll": self.roll.to_dict(), "success": self.success}


@dataclass(frozen=True)
class ContestResult:
    a: ContestSide
    b: ContestSide
    winner: str | None       # the winning side's label; None when the contest is rolled again
    reroll: str              # "" | "now" | "next turn"
    reason: str

    def explain(self) -> str:
        outcome = f"{self.winner} wins" if self.winner else f"roll again {self.reroll}"
        return f"contest: {self.a.explain()}; {self.b.explain()} → {outcome}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a.to_dict(), "b": self.b.to_dict(), "winner": self.winner, "reroll": self.reroll,
                "reason": self.reason, "explanation": self.explain()}


def _contest_side(rng: DiceSource, label: str, score: int) -> ContestSide:
    score = _whole(score, f"{label}'s ability score")
    roll = dice.roll("d20", rng, label=f"{label} rolls under {score}")
    return ContestSide(label, score, roll, roll.total <= score)


def _higher(a: ContestSide, b: ContestSide, a_key: int, b_key: int, why: str) -> tuple[str | None, str, str]:
    """The side with the higher key; on a tie the higher score (AMB-53); on a tie of both, roll again."""
    if a_key != b_key:
        return (a.label if a_key > b_key else b.label), "", why
    if a.score != b.score:
        return (a.label if a.score > b.score else b.label), "", f"{why}; a tie, so the higher score wins"
    return None, "now", f"{why}; a tie, and the scores are equal too"


def _contest_winner(a: ContestSide, b: ContestSide, both_fail: str) -> tuple[str | None, str, str]:
    if a.success != b.success:
        winner = a if a.success else b
        return winner.label, "", "only one side rolled under its score"
    if a.success:
        return _higher(a, b, a.roll.total, b.roll.total, "both under: the higher roll wins")
    if both_fail == "reroll":
        return None, "next turn", "both over: both roll again one turn later (contested_both_fail: reroll)"
    # closest: the smaller overshoot wins, so compare the negated overshoots
    return _higher(a, b, a.score - a.roll.total, b.score - b.roll.total,
                   "both over: the roll closest to its score wins (contested_both_fail: closest)")


def contested(rng: DiceSource, a_score: int, b_score: int, *, a_label: str = "A", b_label: str = "B",
              rules: Ruleset | None = None) -> ContestResult:
    """Both sides roll d20 under their ability score (F-OPT-02); A rolls first."""
    rules = _rules(rules)
    _require(rules, "contested_checks", "F-OPT-02", "a contested roll-under CHECK")
    if a_label == b_label:
        raise CheckError("the two sides of a contest need different labels")
    a = _contest_side(rng, a_label, a_score)
    b = _contest_side(rng, b_label, b_score)
    return ContestResult(a, b, *_contest_winner(a, b, str(rules["contested_both_fail"])))


# -- effort (F-OPT-03, F-TAB-41, AMB-54) -------------------------------------------------------------------
@dataclass(frozen=True)
class EffortRoll:
    roll: RollResult
    value: int               # the roll's total, at least the table's minimum
    proficient: bool

    def explain(self) -> str:
        raised = f" (raised to the minimum {self.value})" if self.value != self.roll.total else ""
        return f"{self.roll.explain()}{raised}"

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "value": self.value, "proficient": self.proficient}


def effort(rng: DiceSource, proficient: bool, ability_mod: int, *, rules: Ruleset | None = None,
           label: str = "") -> EffortRoll:
    """One effort roll from F-TAB-41: 1d8 + mod with PROF, 1d4 + mod without, at least 1."""
    rules = _rules(rules)
    _require(rules, "effort", "F-OPT-03", "effort")
    row = rules.tables.get("effort").lookup("proficient" if proficient else "unproficient")
    minimum = int(row.data.get("minimum", 1))
    label = label or f"effort ({'with' if proficient else 'without'} PROF)"
    roll = dice.roll(str(row.data["expression"]), rng, {"MOD": _whole(ability_mod, "ability modifier")}, label)
    return EffortRoll(roll, max(minimum, roll.total), proficient)


@dataclass(frozen=True)
class EffortAttempt:
    check: CheckResult | None     # the attempt's CHECK, when the caller gives it
    effort: EffortRoll | None     # None: the CHECK failed and adds nothing

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check.to_dict() if self.check else None,
                "effort": self.effort.to_dict() if self.effort else None}


@dataclass(frozen=True)
class Effort:
    """An extended task: effort accumulates toward `needed` (default ROOM DC); done when it is reached."""

    needed: int
    room_dc: int
    attempts: tuple[EffortAttempt, ...] = ()

    @classmethod
    def start(cls, room_dc: int, needed: int | None = None, rules: Ruleset | None = None) -> Effort:
        _require(_rules(rules), "effort", "F-OPT-03", "effort")
        needed = _whole(room_dc if needed is None else needed, "effort needed")
        if needed < 1:
            raise CheckError(f"effort needed must be at least 1, not {needed}")
        return cls(needed, _whole(room_dc, "ROOM DC"))

    @property
    def progress(self) -> int:
        return sum(a.effort.value for a in self.attempts if a.effort is not None)

    @property
    def remaining(self) -> int:
        return max(0, self.needed - self.progress)

    @property
    def done(self) -> bool:
        return self.progress >= self.needed

    def add(self, rng: DiceSource, proficient: bool, ability_mod: int, *, check: CheckResult | None = None,
            rules: Ruleset | None = None, label: str = "") -> Effort:
        """One attempt: a failed `check` adds nothing; otherwise roll effort and add it."""
        if self.done:
            raise CheckError(f"the task is already done ({self.progress}/{self.needed} effort)")
        if check is not None and not check.success:
            return replace(self, attempts=(*self.attempts, EffortAttempt(check, None)))
        rolled = effort(rng, proficient, ability_mod, rules=rules, label=label)
        return replace(self, attempts=(*self.attempts, EffortAttempt(check, rolled)))

    def explain(self) -> str:
        lines = [f"effort {self.progress}/{self.needed} vs ROOM DC {self.room_dc}"
                 + (" — done" if self.done else f" — {self.remaining} to go")]
        for i, a in enumerate(self.attempts, 1):
            lines.append(f"    {i}. " + (a.effort.explain() if a.effort else "CHECK failed: no effort"))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"needed": self.needed, "room_dc": self.room_dc, "progress": self.progress, "done": self.done,
                "attempts": [a.to_dict() for a in self.attempts], "explanation": self.explain()}


# -- skill challenges (F-OPT-06, AMB-55) -------------------------------------------------------------------
ChallengeStatus = Literal["running", "succeeded", "failed"]


@dataclass(frozen=True)
class SkillChallenge:
    """A DC, a success threshold set by the referee, and a failure threshold (skill_challenge_failures)."""

    dc: DC
    success_threshold: int
    failure_threshold: int
    checks: tuple[CheckResult, ...] = ()

    @classmethod
    def start(cls, dc: DC | int, success_threshold: int, rules: Ruleset | None = None) -> SkillChallenge:
        rules = _rules(rules)
        _require(rules, "skill_challenges", "F-OPT-06", "a skill challenge")
        failures = int(rules["skill_challenge_failures"])
        if _whole(success_threshold, "success threshold") < 1 or failures < 1:
            raise CheckError("a skill challenge needs at least 1 success and allows at least 1 failure")
        return cls(dc if isinstance(dc, DC) else plain_dc(dc), success_threshold, failures)

    @property
    def successes(self) -> int:
        return sum(1 for c in self.checks if c.success)

    @property
    def failures(self) -> int:
        return len(self.checks) - self.successes

    @property
    def status(self) -> ChallengeStatus:
        if self.successes >= self.success_threshold:
            return "succeeded"
        return "failed" if self.failures >= self.failure_threshold else "running"

    def record(self, result: CheckResult) -> tuple[SkillChallenge, Event | None]:
        """Count one CHECK; the event says when the challenge ends, either way."""
        if self.status != "running":
            raise CheckError(f"the skill challenge has already {self.status}")
        after = replace(self, checks=(*self.checks, result))
        if after.status == "running":
            return after, None
        what = (f"the skill challenge {after.status}: {after.successes} successes, {after.failures} failures "
                f"(needs {self.success_threshold}, fails at {self.failure_threshold})")
        return after, Event("skill_challenge", "party", what, rolls=tuple(c.roll for c in after.checks),
                            before="running", after=after.status)

    def attempt(self, rng: DiceSource, modifiers: Sequence[Modifier] = (), *, label: str = "",
                advantage: Advantage = None, rules: Ruleset | None = None) -> tuple[SkillChallenge, Event | None]:
        """Roll one creative CHECK against the challenge's DC and count it."""
        if self.status != "running":
            raise CheckError(f"the skill challenge has already {self.status}")
        return self.record(check(rng, self.dc, modifiers, label=label, advantage=advantage, rules=rules))

    def explain(self) -> str:
        head = (f"skill challenge vs {self.dc.explain()}: {self.successes}/{self.success_threshold} successes, "
                f"{self.failures}/{self.failure_threshold} failures — {self.status}")
        return "\n".join([head, *(f"    {c.explain()}" for c in self.checks)])

    def to_dict(self) -> dict[str, Any]:
        return {"dc": self.dc.to_dict(), "success_threshold": self.success_threshold,
                "failure_threshold": self.failure_threshold, "successes": self.successes,
                "failures": self.failures, "status": self.status, "checks": [c.to_dict() for c in self.checks]}


# -- timers (F-OPT-07) -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Timer:
    """A named countdown of turns; at 0 it fires the referee's event."""

    name: str
    prompt: str
    turns_left: int
    roll: RollResult | None = None

    @classmethod
    def start(cls, rng: DiceSource, name: str, prompt: str, *, die: str = "1d4",
              rules: Ruleset | None = None) -> Timer:
        _require(_rules(rules), "timers", "F-OPT-07", "a timer")
        roll = dice.roll(die, rng, label=f"timer {name}")
        if roll.total < 1:
            raise CheckError(f"timer {name}: {die} rolled {roll.total}; a timer needs at least 1 turn")
        return cls(name, prompt, roll.total, roll)

    @property
    def expired(self) -> bool:
        return self.turns_left <= 0

    def tick(self, turns: int = 1) -> tuple[Timer, Event | None]:
        """Count down; the event (with the referee prompt) comes on the tick that reaches 0."""
        if _whole(turns, "turns") < 1:
            raise CheckError(f"a timer counts down at least 1 turn, not {turns}")
        if self.expired:
            raise CheckError(f"timer {self.name} has already run out")
        after = replace(self, turns_left=max(0, self.turns_left - turns))
        if not after.expired:
            return after, None
        rolls = (self.roll,) if self.roll else ()
        return after, Event("timer", self.name, f"time is up: {self.prompt}", rolls=rolls,
                            before=self.turns_left, after=0, data={"referee_prompt": self.prompt})

    def explain(self) -> str:
        state = "time is up" if self.expired else f"{self.turns_left} turns left"
        rolled = f" ({self.roll.explain()})" if self.roll else ""
        return f"timer {self.name}: {state}{rolled}; then: {self.prompt}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "prompt": self.prompt, "turns_left": self.turns_left,
                "roll": self.roll.to_dict() if self.roll else None, "expired": self.expired}


# -- reaction (F-NPC-01, F-TAB-29, AMB-51) -----------------------------------------------------------------
@dataclass(frozen=True)
class Reaction:
    table_roll: TableRoll
    speaker: str

    @property
    def attitude(self) -> str:
        # a referee's replacement table may not tag rows with an attitude; its wording then stands
        return str(self.table_roll.row.data.get("attitude", self.table_roll.row.text))

    def explain(self) -> str:
        return f"{self.table_roll.explain()} → the NPCs are {self.attitude}"

    def to_dict(self) -> dict[str, Any]:
        return {"speaker": self.speaker, "attitude": self.attitude, "table_roll": self.table_roll.to_dict(),
                "explanation": self.explain()}


def reaction_roller(cha_mods: Mapping[str, int], spokesperson: str | None = None,
                    rules: Ruleset | None = None) -> tuple[str, int]:
    """Whose CHA modifies the reaction roll (reaction_roller option, AMB-51): name and CHA modifier."""
    if not cha_mods:
        raise CheckError("a reaction roll needs at least one character's CHA modifier")
    if spokesperson is not None and _rules(rules)["reaction_roller"] == "spokesperson":
        if spokesperson not in cha_mods:
            raise CheckError(f"spokesperson {spokesperson!r} is not among {', '.join(cha_mods)}")
        return spokesperson, cha_mods[spokesperson]
    name = max(cha_mods, key=lambda n: cha_mods[n])  # the first of equals, in the order given
    return name, cha_mods[name]


def reaction(rng: DiceSource, cha_mod: int, rules: Ruleset | None = None, *, speaker: str = "") -> Reaction:
    """2d6 + CHA on F-TAB-29: ≤2 hostile … 12+ helpful."""
    rules = _rules(rules)
    label = f"reaction ({speaker} speaks)" if speaker else "reaction"
    roll = rules.tables.roll("reaction", rng, variables={"CHA": _whole(cha_mod, "CHA modifier")}, label=label)
    return Reaction(roll, speaker)


# -- morale (F-OPT-04, F-OPT-05, AMB-52) -------------------------------------------------------------------
@dataclass(frozen=True)
class MoraleResult:
    roll: RollResult
    morale: int
    morale_reason: str
    breaks: bool
    outcome: str             # "surrender" | "flee" (morale_failure_result) or "hold"
    comparison: str          # how the roll was compared, for the log

    def explain(self) -> str:
        return (f"{self.roll.explain()} vs morale {self.morale} ({self.morale_reason}): {self.comparison} → "
                f"the enemies {self.outcome if self.breaks else 'hold'}")

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "morale": self.morale, "morale_reason": self.morale_reason,
                "breaks": self.breaks, "outcome": self.outcome, "explanation": self.explain()}


def enemy_morale(rng: DiceSource, room_dc: int, rules: Ruleset | None = None, *, morale: int | None = None,
                 label: str = "enemy morale") -> MoraleResult:
    """2d6 against morale = floor(ROOM DC / 2) (or the referee's value); rolling over it breaks them."""
    rules = _rules(rules)
    _require(rules, "enemy_morale", "F-OPT-04", "enemy morale")
    room_dc = _whole(room_dc, "ROOM DC")
    value = room_dc // 2 if morale is None else _whole(morale, "morale")
    why = f"ROOM DC {room_dc} / 2, rounded down" if morale is None else "set by the referee"
    roll = dice.roll("2d6", rng, label=label)
    strict = rules["morale_roll_over"] == "strictly_over"
    breaks = roll.total > value if strict else roll.total >= value
    sign = (">" if breaks else "≤") if strict else ("≥" if breaks else "<")
    outcome = str(rules["morale_failure_result"]) if breaks else "hold"
    return MoraleResult(roll, value, why, breaks, outcome, f"{roll.total} {sign} {value}")


def pc_morale(rng: DiceSource, wis_mod: int, prof: int, proficient: bool, room_dc: DC | int,
              rules: Ruleset | None = None, *, label: str = "PC morale") -> CheckResult:
    """A WIS SAVE vs ROOM DC (F-OPT-05); what a failure does is the referee's call (REF-20)."""
    rules = _rules(rules)
    _require(rules, "pc_morale", "F-OPT-05", "PC morale")
    mods = [Modifier(wis_mod, "WIS")] + ([Modifier(prof, "PROF")] if proficient else [])
    return check(rng, room_dc, mods, kind="SAVE", label=label, rules=rules)


# -- surprise (F-SURP-01, D-3, CF-51) ----------------------------------------------------------------------
@dataclass(frozen=True)
class SideSurprise:
    side: str
    roll: RollResult | None  # None: the side could not be surprised, so nothing was rolled
    surprised: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "roll": self.roll.to_dict() if self.roll else None,
                "surprised": self.surprised, "reason": self.reason}


@dataclass(frozen=True)
class SurpriseResult:
    party: SideSurprise
    enemies: SideSurprise
    chance: int

    @property
    def free_turn(self) -> str | None:
        """The side that acts alone first: the one not surprised when the other is (F-SURP-01)."""
        if self.party.surprised == self.enemies.surprised:
            return None
        return self.enemies.side if self.party.surprised else self.party.side

    def explain(self) -> str:
        sides = "; ".join(f"{s.side}: {s.reason}" for s in (self.party, self.enemies))
        turn = f"{self.free_turn} get a free turn" if self.free_turn else "no free turn"
        return f"surprise ({self.chance}-in-6): {sides} → {turn}, then initiative"

    def to_dict(self) -> dict[str, Any]:
        return {"party": self.party.to_dict(), "enemies": self.enemies.to_dict(), "chance": self.chance,
                "free_turn": self.free_turn, "explanation": self.explain()}


def _side_surprise(rng: DiceSource, side: str, chance: int, other: str, other_lit: bool) -> SideSurprise:
    if other_lit:
        return SideSurprise(side, None, False, f"cannot be surprised: light gives {other} away "
                                               f"(light_prevents_surprise, H-LIGHT-03)")
    roll = dice.roll("1d6", rng, label=f"surprise: {side}")
    surprised = roll.total <= chance
    return SideSurprise(side, roll, surprised,
                        f"d6 {roll.total} {'≤' if surprised else '>'} {chance}: "
                        f"{'surprised' if surprised else 'not surprised'}")


def surprise(rng: DiceSource, rules: Ruleset | None = None, lit: bool = False, *,
             enemies_lit: bool = False) -> SurpriseResult:
    """Each side rolls 1d6, surprised on surprise_chance or less (D-3); the party rolls first.

    `lit`: the party carries a lit light source, so with light_prevents_surprise on it cannot surprise
    the enemies (CF-51) and their die is not rolled. The referee may always declare surprise instead.
    """
    rules = _rules(rules)
    _require(rules, "surprise_roll", "F-SURP-01", "the surprise roll (D-3)")
    chance = int(rules["surprise_chance"])
    if not 0 <= chance <= 6:
        raise CheckError(f"surprise_chance is a chance in 6, from 0 to 6, not {chance}")
    light = bool(rules["light_prevents_surprise"])
    party = _side_surprise(rng, "the party", chance, "the enemies", light and enemies_lit)
    enemies = _side_surprise(rng, "the enemies", chance, "the party", light and lit)
    return SurpriseResult(party, enemies, chance)
