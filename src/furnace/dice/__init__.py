"""The dice language of Furnace.

    >>> import random
    >>> from furnace import dice
    >>> result = dice.roll("4d6kh3", dice.ScriptedDice([6, 5, 3, 1]), label="STR for a new character")
    >>> result.explain()
    'STR for a new character: 4d6kh3 → [6, 5, 3, ~~1~~] = 14'

Parse once, roll many: `dice.parse(text)` returns a `DiceExpression` whose `roll` is cheap.
Division is exact while the expression is evaluated; the total is rounded down at the end, so
`ceil(3*STR/2)` rounds up (the two-handed STR bonus) and `d6/2` rounds down.

    >>> dice.roll("2d6ro1", dice.ScriptedDice([1, 5, 4])).explain()      # reroll a 1 once (after both dice)
    '2d6ro1 → [~~1~~→4, 5] = 9'
    >>> dice.roll("2d6mi2", dice.ScriptedDice([1, 5])).explain()         # each die counts as at least 2
    '2d6mi2 → [1 as 2, 5] = 7'
    >>> dice.roll("3d6e6", dice.ScriptedDice([6, 2, 4, 6, 1])).explain()  # d20's operators: explode on 6
    '3d6e6 → [6!, 2, 4, 6!, 1] = 19'
    >>> dice.roll("(LVL)d6", dice.ScriptedDice([3, 6]), {"LVL": 2}).total  # a count from a variable
    9

Every bad input — a malformed expression, a variable bound to junk, a wrong type at any public function —
raises a `DiceError` (a `FurnaceError`); every piece of work has a bound known before it starts (1,000
dice a roll, counted before the first falls; the exact odds estimate their work first, see `odds`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from types import CodeType, MappingProxyType
from typing import TYPE_CHECKING

from furnace.dice.ast import AnyNode
from furnace.dice.grammar import MAX_DICE, MAX_EXPRESSION_LENGTH, parse_tree
from furnace.dice.natural import ASK_TREE, NaturalReader, compile_natural
from furnace.dice.plan import DiceSource, check_dice_total, dice_plan, variables_of
from furnace.dice.result import Node, RollResult, floor_value, natural_of, render
from furnace.dice.roller import FLOAT_SOURCES, FastRoller, Roller, compile_fast, compile_node
from furnace.dice.source import ScriptedDice, seeded, system
from furnace.dice.values import NO_BINDINGS, Bindings, DiceValueError, bindings, check_dc, check_label, check_source
from furnace.errors import DiceSyntaxError

if TYPE_CHECKING:   # the compiler is imported at an expression's first roll (`roll`'s general roller needs none)
    from fractions import Fraction

    from furnace.dice.compiled import RollFunction, TreeFunction

__all__ = [
    "MAX_DICE", "MAX_EXPRESSION_LENGTH", "DiceExpression", "DiceSource", "DiceValueError", "RollResult",
    "ScriptedDice", "parse", "probability_at_least", "render", "roll", "seeded", "system",
]

_NO_VARIABLES: Mapping[str, int | str] = MappingProxyType({})


def _compiled(source: str, filename: str) -> CodeType:
    return compile(source, filename, "exec")


compile_source: Callable[[str, str], CodeType] = _compiled
"""How the source `furnace.dice.compiled` writes of an expression becomes code: `compile`, or what an application
puts here that gives the same code for the same source, as the code kept by an earlier process
(`furnace.rules.cache.kept_code`, which the command line puts here): compiling is a few hundred microseconds an
expression, a fight's ten expressions a hundredth of its start."""


class DiceExpression:
    """A parsed, compiled dice expression. Immutable; share it freely.

    Every public method checks what it is given (variables, source, label, DC) and raises a `DiceError`
    for a wrong type or an out-of-range value before any die is rolled.

    `roll(rng, variables=None, label="")` rolls it: for the common expression (sums of plain dice groups and
    whole numbers) a function compiled once for this expression (`furnace.dice.compiled`), otherwise
    `roll_any`; both give the same faces, total and natural for the same source.
    """

    __slots__ = ("_counted", "_explain", "_explainer", "_fast", "_fixed", "_natural", "roll", "text", "tree")
    roll: RollFunction            # set once, at the first roll (compiling then costs nothing to a mere parse)
    _explainer: TreeFunction

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise DiceSyntaxError(f"a dice expression is text, not {type(text).__name__}")
        self.tree: AnyNode = parse_tree(text)
        self.text = text.strip()
        self._explain: Roller = compile_node(self.tree, self.text)
        self._fast: FastRoller = compile_fast(self.tree, self.text)
        self._fixed, self._counted = dice_plan(self.tree)
        self._natural: NaturalReader = compile_natural(self.tree)
        self._explainer = self.explain_faces   # bound once: every roll's result keeps it
        self.roll = self._first_roll           # compiles; parsing alone (checking a data file) stays cheap

    def _bind(self, variables: object) -> Bindings:
        """The variables checked, and the number of dice they give checked against the limit."""
        bound = NO_BINDINGS if variables is None else bindings(variables, self.text)
        if self._counted:
            check_dice_total(self._fixed, self._counted, bound, self.text)
        return bound

    def _first_roll(self, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
                    label: str = "") -> RollResult:
        """Compile the expression (`furnace.dice.compiled`), then roll it."""
        from furnace.dice.compiled import compile_expression

        roll, tree = compile_expression(self.tree, self.text, self.roll_any, self.explain_faces, _NO_VARIABLES,
                                        compile_source)
        self._explainer = tree or self._explainer
        self.roll = roll or self.roll_any
        return self.roll(rng, variables, label)

    def roll_any(self, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
                 label: str = "") -> RollResult:
        """Roll any expression with any source: the closures of `roller`, each value checked."""
        if type(rng) not in FLOAT_SOURCES:
            check_source(rng)
        if type(label) is not str:
            check_label(label)
        bound = self._bind(variables)
        faces: list[int] = []
        value = self._fast(rng, bound, faces)
        total = value if type(value) is int else floor_value(value)
        kept = dict(variables) if variables else _NO_VARIABLES
        natural = self._natural(faces, bound)
        if natural == ASK_TREE:
            natural = natural_of(self.explain_faces(tuple(faces), kept))
        return RollResult(self.text, total, tuple(faces), label, kept, self._explainer, natural)

    def explain_faces(self, faces: tuple[int, ...], variables: Mapping[str, int | str]) -> Node:
        """The explanation tree of a roll that showed these faces (replayed in order)."""
        if variables is _NO_VARIABLES and not self._counted:
            return self._explain(ScriptedDice.replay(faces), NO_BINDINGS)
        return self._explain(ScriptedDice(faces), self._bind(variables))

    def bounds(self, variables: Mapping[str, int | str] | None = None) -> tuple[int, int]:
        """The lowest and highest total any roll can give, rounded down like a roll's total (an explosion as far as
        the roll's limit lets it go: `furnace.dice.bounds`)."""
        from furnace.dice.bounds import interval  # not on the roll path

        lo, hi = interval(self.tree, self._bind(variables), self.text)
        return floor_value(lo), floor_value(hi)

    def dice_maximum(self, variables: Mapping[str, int | str] | None = None) -> int:
        """The highest total of the dice alone, read from the parsed expression whatever its shape: every dice
        group at its highest (an exploding die at its highest face, once), added up, numbers left out (`1d8+1d6`
        → 14, `-1+1d8` → 8, `(1d8+2)` → 8)."""
        from furnace.dice.bounds import dice_maximum

        return dice_maximum(self.tree, self._bind(variables), self.text)

    def distribution(self, variables: Mapping[str, int | str] | None = None) -> dict[int, Fraction]:
        """Each total and its exact probability; a `DiceLimitError` before any work if that would take long. An
        explosion is followed to `furnace.dice.odds.EXPLOSION_DEPTH` (9) new dice a die; then the last die
        stands, as icepool's `explode` does."""
        from furnace.dice.odds import distribution  # the odds are not on the roll path

        return distribution(self.tree, self._bind(variables), self.text)

    def probability_at_least(self, dc: int, variables: Mapping[str, int | str] | None = None) -> Fraction:
        """P(total ≥ dc): meet or beat, as every Furnace check is resolved."""
        check_dc(dc)
        from fractions import Fraction

        return sum((p for total, p in self.distribution(variables).items() if total >= dc), Fraction(0))

    def variables(self) -> set[str]:
        return variables_of(self.tree)

    def __repr__(self) -> str:
        return f"DiceExpression({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceExpression) and other.tree == self.tree

    def __hash__(self) -> int:
        return hash(self.tree)


def parse(text: str) -> DiceExpression:
    """Parse (and cache) a dice expression; raises `DiceError` subclasses naming the position."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression is text, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=1024)
def _parse(text: str) -> DiceExpression:
    return DiceExpression(text)


def roll(text: str, rng: DiceSource, variables: Mapping[str, int | str] | None = None,
         label: str = "") -> RollResult:
    """Parse (cached) and roll in one call."""
    return parse(text).roll(rng, variables, label)


def probability_at_least(text: str, dc: int, variables: Mapping[str, int | str] | None = None) -> Fraction:
    check_dc(dc)
    return parse(text).probability_at_least(dc, variables)
