"""The dice grammar, parsed by hand (recursive descent) into `furnace.dice.ast` nodes.

    comparison := expr (("==" | "!=" | "<=" | ">=" | "<" | ">") expr)*     0 or 1, as d20
    expr    := term (("+" | "-") term)*
    term    := factor (("*" | "/" | "//" | "%") factor)*
    factor  := ("-" | "+") factor | atom NOTE*          NOTE: "[fire]", shown with the part, changing nothing
    atom    := NUMBER [dice | IDENT]          4d6, 0d6, 5HD (five of the die bound to HD), 3
             | dice                           d20, d%
             | FUNC "(" comparison ("," comparison)* ")"   ceil, floor, max, min, abs
             | IDENT                          STR, PROF, ROOM_DC (bound by the caller)
             | "(" comparison ")" [dice | IDENT]   (LVL)d6: a count worked out from numbers and variables
             | "(" comparison ")" setop+      (4d6)kh3 keeps among the dice; (1d6+1)kh1 is a set of one
             | "(" [comparison ("," comparison)* [","]] ")" setop*    a set: (1d4, 2+2, 3d6kl1)kh1, (1,), ()
    dice    := "d" (NUMBER | "%") (op selector | "kh"|"kl"|"dh"|"dl" NUMBER? | "adv" | "dis")*
    op      := "k" | "p" | "rr" | "ro" | "ra" | "e" | "mi" | "ma"            d20's operators, applied in order
    setop   := ("k" | "p") selector
    selector:= ["h" | "l" | "<" | ">" | "="] NUMBER

Digits are ASCII only (`٣d6` is refused). No whitespace inside a token: `(LVL) d6` and `2d6 ro1` are errors.
A selector is d20's, but for a bare number after `k` or `p`, which counts dice as Roll20 and Foundry do and
as Furnace always has: `4d6k3` keeps the 3 highest (`kh3`), `4d6p1` drops the lowest (`pl1`); `k=3` keeps the
dice showing 3. Consecutive uses of one operator join their selectors, as in d20 (`k1k2` is one keep), but
for `mi` and `ma`, which act one after the other.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal, cast

from furnace.dice.ast import (
    AnyNode,
    BinaryOp,
    BinOp,
    Call,
    Dice,
    Neg,
    Note,
    Num,
    Operator,
    OperatorWord,
    Selector,
    SelectorKind,
    Set,
    Var,
    operands,
)
from furnace.dice.plan import count_value, variables_of
from furnace.dice.values import MAX_DICE, MAX_SIDES
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError

__all__ = ["FUNCTIONS", "MAX_DEPTH", "MAX_DICE", "MAX_EXPRESSION_LENGTH", "MAX_SIDES", "parse_tree"]

MAX_EXPRESSION_LENGTH = 256
MAX_DEPTH = 40
FUNCTIONS = {"ceil": 1, "floor": 1, "abs": 1, "max": 2, "min": 2}

_WS = re.compile(r"\s*")
_NUMBER = re.compile(r"[0-9]+")
_DIE = re.compile(r"[dD]([0-9]+|%)")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OP = re.compile(r"(adv|dis|rr|ro|ra|mi|ma|dh|dl|k|p|e)([hl<>=]?)([0-9]*)", re.IGNORECASE)
_COMPARE = ("==", "!=", "<=", ">=", "<", ">")      # tried in this order: "<=" before "<"
_TERM = ("//", "*", "/", "%")
OPERATOR = "an operator (+ - * / // % == != < > <= >=) or the end"


@cache
def _pattern(name: str) -> re.Pattern[str]:
    """The patterns of the rarer forms, compiled when first needed (not by every `import furnace.dice`)."""
    return re.compile({
        "note": r"\[[^\]]*\]",
        "set op": r"([kp])([hl<>=]?)([0-9]+)",
        "set ops": r"(?:[kp][hl<>=]?[0-9]+)+(?![A-Za-z0-9_])",   # not (N)K1, a die bound to a variable named K1
    }[name], re.IGNORECASE)


def _joined(ops: list[Operator], op: Operator) -> list[Operator]:
    """d20 joins an operator's selectors with the one before when it is the same operator (not mi/ma)."""
    if ops and ops[-1].word == op.word and op.word not in ("mi", "ma"):
        return [*ops[:-1], Operator(op.word, ops[-1].selectors + op.selectors)]
    return [*ops, op]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.dice_count = 0

    # -- scanning -----------------------------------------------------------------
    def error(self, message: str, expected: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, self.text, self.pos, expected)

    def skip(self) -> None:
        m = _WS.match(self.text, self.pos)
        self.pos = m.end() if m else self.pos

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        m = pattern.match(self.text, self.pos)
        if m:
            self.pos = m.end()
        return m

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceLimitError(f"expression nested deeper than {MAX_DEPTH}", self.text, self.pos)

    # -- grammar ------------------------------------------------------------------
    def parse(self) -> AnyNode:
        if not self.text.strip():
            raise self.error("empty expression", "a number, a die or a variable")
        node = self.comparison()
        if self.peek():
            raise self.error(f"unexpected {self.text[self.pos]!r}", OPERATOR)
        return node

    def operator(self, ops: tuple[str, ...]) -> str | None:
        """The operator at the position (skipping whitespace), taken; None if there is none of these."""
        self.skip()
        op = next((op for op in ops if self.text.startswith(op, self.pos)), None)
        self.pos += len(op) if op else 0
        return op

    def comparison(self) -> AnyNode:
        node = self.expr()
        while op := self.operator(_COMPARE):
            node = BinOp(cast(BinaryOp, op), node, self.expr())
        return node

    def expr(self) -> AnyNode:
        node = self.term()
        while (op := self.peek()) in ("+", "-") and op:
            self.pos += 1
            node = BinOp(cast(BinaryOp, op), node, self.term())
        return node

    def term(self) -> AnyNode:
        node = self.factor()
        while op := self.operator(_TERM):
            node = BinOp(cast(BinaryOp, op), node, self.factor())
        return node

    def factor(self) -> AnyNode:
        self.deeper()
        try:
            sign = self.peek()
            if sign in ("-", "+") and sign:
                self.pos += 1
                operand = self.factor()
                return Neg(operand) if sign == "-" else operand
            return self.noted(self.atom())
        finally:
            self.depth -= 1

    def noted(self, node: AnyNode) -> AnyNode:
        notes = []
        while self.peek() == "[":
            m = self.match(_pattern("note"))
            if m is None:
                raise self.error("unclosed annotation", "']'")
            notes.append(m.group())
        return Note(node, " ".join(notes)) if notes else node

    def atom(self) -> AnyNode:
        char = self.peek()
        start = self.pos
        if char == "(":
            return self.parenthesis(start)
        if m := self.match(_NUMBER):
            count = int(m.group())
            if _DIE.match(self.text, self.pos):
                return self.dice(count, start)
            if ident := self.match(_IDENT):
                return self.counted(count, ident.group(), start)
            return Num(count)
        if _DIE.match(self.text, self.pos):
            return self.dice(1, start)
        if m := self.match(_IDENT):
            name = m.group()
            if name.lower() == "d":
                raise DiceSyntaxError("a die needs its number of sides", self.text, self.pos, "a number or '%'")
            if name.lower() in FUNCTIONS:
                return self.call(name.lower())
            return Var(name.upper())
        if not char:
            raise self.error("unexpected end", "a number, a die, a variable or '('")
        if char.isdigit():
            raise self.error(f"{char!r} is not an ASCII digit", "the digits 0-9")
        raise self.error(f"unexpected {char!r}", "a number, a die, a variable or '('")

    def parenthesis(self, start: int) -> AnyNode:
        """`(2+3)`, `(LVL)d6`, `(4d6)kh3`, or a set: `(1, 2)`, `(1,)`, `()`."""
        self.pos += 1
        items: list[AnyNode] = []
        comma = False
        while self.peek() != ")":
            if not self.peek():
                raise self.error("unclosed parenthesis", "')'")
            if items and not comma:
                raise self.error(f"unexpected {self.text[self.pos]!r}", "',' or ')'")
            items.append(self.comparison())
            comma = self.peek() == ","
            self.pos += comma
        self.pos += 1
        if len(items) == 1 and not comma:
            if _DIE.match(self.text, self.pos) or (_IDENT.match(self.text, self.pos) and
                                                   not _pattern("set ops").match(self.text, self.pos)):
                return self.count_by(items[0], start)
            ops = self.set_ops()
            if not ops:
                return items[0]
            if isinstance(items[0], Dice):   # (10d6kh5)kl2: the operators go on acting on the dice
                dice = items[0]
                return Dice(dice.count, dice.sides, dice.sides_var, self.text[start:self.pos], dice.count_expr,
                            dice.ops + tuple(ops), dice.advantage)
            return Set(tuple(items), tuple(ops))
        return Set(tuple(items), tuple(self.set_ops()))

    def set_ops(self) -> list[Operator]:
        ops: list[Operator] = []
        chain = _pattern("set ops").match(self.text, self.pos)
        while chain and self.pos < chain.end() and (m := self.match(_pattern("set op"))):
            word = cast(OperatorWord, m.group(1).lower())
            ops = _joined(ops, Operator(word, (self.selector(word, m.group(2).lower(), m.group(3)),)))
        return ops

    def counted(self, count: int, name: str, start: int, count_expr: AnyNode | None = None) -> AnyNode:
        """`5HD`: count dice of the die bound to a variable (which must hold a die, not a number)."""
        if name.lower() == "d":
            raise DiceSyntaxError("a die needs its number of sides", self.text, self.pos, "a number or '%'")
        if name.lower() in FUNCTIONS:
            raise DiceSyntaxError(f"a count before {name}(…) multiplies nothing", self.text, start,
                                  f"'*' between the number and {name}(…)")
        self.add_dice(count, start)
        return Dice(count=count, sides_var=name.upper(), text=self.text[start:self.pos], count_expr=count_expr)

    def count_by(self, node: AnyNode, start: int) -> AnyNode:
        """`(LVL)d6`, `(2*X)HD`: a count worked out from numbers and variables before any die is rolled."""
        if _has_dice(node):
            raise DiceSyntaxError("a dice count cannot itself roll dice", self.text, start,
                                  "numbers and variables in the parentheses, e.g. (LVL)d6")
        count: int = 0
        count_expr: AnyNode | None = node
        if not variables_of(node):   # (2*3)d6 is 6d6: work the count out now
            try:
                count = count_value(node, {}, "")
            except DiceError as exc:
                want = f" (expected {exc.expected})" if exc.expected else ""
                message = str(exc).removesuffix(want)
                kind = DiceLimitError if isinstance(exc, DiceLimitError) else DiceSyntaxError
                raise kind(message, self.text, start, exc.expected or f"a whole number from 0 to {MAX_DICE}") from None
            count_expr = None
        if _DIE.match(self.text, self.pos):
            return self.dice(count, start, count_expr)
        ident = self.match(_IDENT)
        assert ident is not None
        return self.counted(count, ident.group(), start, count_expr)

    def dice(self, count: int, start: int, count_expr: AnyNode | None = None) -> Dice:
        m = self.match(_DIE)
        assert m is not None
        sides = 100 if m.group(1) == "%" else int(m.group(1))
        if not 1 <= sides <= MAX_SIDES:
            raise DiceLimitError(f"a die has 1 to {MAX_SIDES} sides, not {sides}", self.text, start)
        ops, advantage = self.operators(None if count_expr is not None else count)
        node = Dice(count=count, sides=sides, text=self.text[start:self.pos], count_expr=count_expr,
                    ops=tuple(ops), advantage=advantage)
        if ops and (why := _endless(sides, None if count_expr is not None else node.rolled, node.ops)):
            raise DiceLimitError(f"{node.text}: {why}", self.text, start,
                                 "a selector that leaves some face alone, e.g. rr1 or e6")
        self.add_dice(node.rolled, start)
        return node

    def operators(self, count: int | None) -> tuple[list[Operator], Literal["adv", "dis"] | None]:
        """The operators after a die, in order; `count` is None for `(LVL)d6`."""
        ops: list[Operator] = []
        advantage: Literal["adv", "dis"] | None = None
        while True:
            at = self.pos
            m = self.match(_OP)
            if not m:
                return ops, advantage
            word, kind, digits = m.group(1).lower(), m.group(2).lower(), m.group(3)
            if word in ("adv", "dis"):
                advantage = self.advantage(word, kind + digits, count, advantage, at)
                ops = _joined(ops, Operator("k", (Selector("h" if word == "adv" else "l", 1),)))
            elif word in ("dh", "dl"):   # Furnace's drop highest/lowest: d20's ph/pl
                if kind:
                    raise DiceSyntaxError(f"'{word}' takes a number", self.text, at, f"e.g. {word}1")
                side = cast(SelectorKind, word[1])
                ops = _joined(ops, Operator("p", (Selector(side, int(digits) if digits else 1),)))
            elif word == "k" and kind in ("h", "l") and not digits:   # kh, kl: the highest or lowest one
                ops = _joined(ops, Operator("k", (Selector(cast(SelectorKind, kind), 1),)))
            else:
                ops = _joined(ops, Operator(cast(OperatorWord, word), (self.selector(word, kind, digits, at),)))

    def selector(self, word: str, kind: str, digits: str, at: int | None = None) -> Selector:
        at = self.pos if at is None else at
        if not digits:
            raise DiceSyntaxError(f"'{word}{kind}' needs a number", self.text, self.pos,
                                  f"a selector such as {word}3, {word}<3, {word}>4, {word}h1 or {word}l1"
                                  if word not in ("mi", "ma") else f"a number, e.g. {word}2")
        n = int(digits)
        if word in ("mi", "ma"):
            if kind:
                raise DiceSyntaxError(f"'{word}' takes a number, not the selector {kind}{n}", self.text, at,
                                      f"a number, e.g. {word}{n}")
            return Selector("=", n)
        if not kind:   # a bare number: a face, but a count after k and p (4d6k3 keeps the 3 highest)
            kind = {"k": "h", "p": "l"}.get(word, "=")
        return Selector(cast(SelectorKind, kind), n)

    def advantage(self, word: str, rest: str, count: int | None, already: str | None, at: int) -> Literal["adv", "dis"]:
        if already:
            raise DiceSyntaxError(f"'{word}' after '{already}'", self.text, at, "adv or dis at most once")
        if count != 1:
            shown = "a count worked out when rolled" if count is None else count
            raise DiceSyntaxError(f"'{word}' applies to one die (d20{word}), not {shown}", self.text, at)
        if rest:
            raise DiceSyntaxError(f"'{word}' takes no number", self.text, at)
        return cast(Literal["adv", "dis"], word)

    def call(self, name: str) -> Call:
        if self.peek() != "(":
            raise self.error(f"function {name} needs arguments", "'('")
        self.pos += 1
        args = [self.comparison()]
        while self.peek() == ",":
            self.pos += 1
            args.append(self.comparison())
        if self.peek() != ")":
            raise self.error(f"unclosed call to {name}", "')' or ','")
        self.pos += 1
        if len(args) != FUNCTIONS[name]:
            raise self.error(f"{name} takes {FUNCTIONS[name]} argument(s), got {len(args)}")
        return Call(cast(Literal["ceil", "floor", "max", "min", "abs"], name), tuple(args))

    def add_dice(self, n: int, at: int) -> None:
        self.dice_count += n
        if n > MAX_DICE or self.dice_count > MAX_DICE:
            raise DiceLimitError(f"more than {MAX_DICE} dice in one roll", self.text, at)


def _endless(sides: int, count: int | None, ops: tuple[Operator, ...]) -> str | None:
    from furnace.dice.operators import endless  # loaded with the first die that has an operator

    return endless(sides, count, ops)


def _has_dice(node: AnyNode) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Dice):
            return True
        stack += operands(item)
    return False


def parse_tree(text: str) -> AnyNode:
    """Parse `text` into an AST, or raise `DiceSyntaxError` / `DiceLimitError` naming the position."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression is text, not {type(text).__name__}")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(f"expression longer than {MAX_EXPRESSION_LENGTH} characters", text[:40] + "…",
                             MAX_EXPRESSION_LENGTH)
    return _Parser(text).parse()
