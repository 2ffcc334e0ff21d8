"""The dice grammar, parsed by hand (recursive descent) into `furnace.dice.ast` nodes.

    expr    := term (("+" | "-") term)*
    term    := factor (("*" | "/") factor)*
    factor  := ("-" | "+") factor | atom
    atom    := NUMBER [dice | IDENT]          4d6, 0d6, 5HD (five of the die bound to HD), 3
             | dice                           d20, d%
             | FUNC "(" expr ("," expr)* ")"  ceil, floor, max, min, abs
             | IDENT                          STR, PROF, ROOM_DC (bound by the caller)
             | "(" expr ")" [dice | IDENT]    (LVL)d6: a count worked out from numbers and variables
    dice    := "d" (NUMBER | "%") ["ro" NUMBER] ["mi" NUMBER] [keep]
    keep    := ("kh" | "kl" | "dh" | "dl") NUMBER? | "k" NUMBER | "adv" | "dis"

No whitespace inside a token: `(LVL) d6` and `2d6 ro1` are errors. The suffixes come in that order, each
at most once: `4d6ro1mi2kh3`.
"""

from __future__ import annotations

import re
from typing import Literal, cast

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var, operands
from furnace.dice.roller import count_value, variables_of
from furnace.dice.values import MAX_DICE, MAX_SIDES
from furnace.errors import DiceError, DiceLimitError, DiceSyntaxError

__all__ = ["FUNCTIONS", "MAX_DEPTH", "MAX_DICE", "MAX_EXPRESSION_LENGTH", "MAX_SIDES", "parse_tree"]

MAX_EXPRESSION_LENGTH = 256
MAX_DEPTH = 40
FUNCTIONS = {"ceil": 1, "floor": 1, "abs": 1, "max": 2, "min": 2}

_WS = re.compile(r"\s*")
_NUMBER = re.compile(r"\d+")
_DIE = re.compile(r"[dD](\d+|%)")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SUFFIX = re.compile(r"(ro|mi|kh|kl|dh|dl|k|adv|dis)(\d*)", re.IGNORECASE)
_STAGE = {"ro": 1, "mi": 2}   # the order of the suffixes; keep/drop and adv/dis are stage 3
Keep = Literal["kh", "kl", "dh", "dl"]


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

    # -- grammar ------------------------------------------------------------------
    def parse(self) -> AnyNode:
        if not self.text.strip():
            raise self.error("empty expression", "a number, a die or a variable")
        node = self.expr()
        if self.peek():
            raise self.error(f"unexpected {self.text[self.pos]!r}", "an operator (+ - * /) or the end")
        return node

    def expr(self) -> AnyNode:
        node = self.term()
        while (op := self.peek()) in ("+", "-") and op:
            self.pos += 1
            node = BinOp(cast(Literal["+", "-"], op), node, self.term())
        return node

    def term(self) -> AnyNode:
        node = self.factor()
        while (op := self.peek()) in ("*", "/") and op:
            self.pos += 1
            node = BinOp(cast(Literal["*", "/"], op), node, self.factor())
        return node

    def factor(self) -> AnyNode:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceLimitError(f"expression nested deeper than {MAX_DEPTH}", self.text, self.pos)
        try:
            sign = self.peek()
            if sign in ("-", "+") and sign:
                self.pos += 1
                operand = self.factor()
                return Neg(operand) if sign == "-" else operand
            return self.atom()
        finally:
            self.depth -= 1

    def atom(self) -> AnyNode:
        char = self.peek()
        start = self.pos
        if char == "(":
            self.pos += 1
            node = self.expr()
            if self.peek() != ")":
                raise self.error("unclosed parenthesis", "')'")
            self.pos += 1
            if _DIE.match(self.text, self.pos) or _IDENT.match(self.text, self.pos):
                return self.count_by(node, start)
            return node
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
        raise self.error(f"unexpected {char!r}", "a number, a die, a variable or '('")

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
        reroll, minimum, keep, keep_n, adv = self.suffix(None if count_expr is not None else count, sides)
        node = Dice(count=count, sides=sides, keep=keep, keep_n=keep_n, advantage=adv,
                    text=self.text[start:self.pos], count_expr=count_expr, reroll=reroll, minimum=minimum)
        self.add_dice(node.rolled, start)
        return node

    def suffix(self, count: int | None, sides: int) -> tuple[int | None, int | None, Keep | None, int,
                                                             Literal["adv", "dis"] | None]:
        """`ro1`, `mi2` and then keep/drop or adv/dis, in that order; `count` is None for `(LVL)d6`."""
        reroll: int | None = None
        minimum: int | None = None
        keep: tuple[Keep | None, int, Literal["adv", "dis"] | None] = (None, 0, None)
        stage = 0
        while True:
            at = self.pos
            m = self.match(_SUFFIX)
            if not m:
                return reroll, minimum, *keep
            word, digits = m.group(1).lower(), m.group(2)
            mine = _STAGE.get(word, 3)
            if mine <= stage:
                raise DiceSyntaxError(f"'{word}' cannot come here", self.text, at,
                                      "each of ro, mi and keep/drop (or adv/dis) at most once, in that order")
            stage = mine
            if word in ("ro", "mi"):
                if not digits:
                    raise DiceSyntaxError(f"'{word}' needs a face", self.text, self.pos, f"a number, e.g. {word}1")
                face = int(digits)
                if not 1 <= face <= sides:
                    raise DiceSyntaxError(f"a d{sides} has no face {face}", self.text, at,
                                          f"a face from 1 to {sides}")
                if word == "ro":
                    reroll = face
                else:
                    minimum = face
                continue
            keep = self.keep(word, digits, count, at)

    def keep(self, word: str, digits: str, count: int | None, at: int) -> tuple[Keep | None, int,
                                                                                Literal["adv", "dis"] | None]:
        if word == "k" and not digits:
            raise DiceSyntaxError("'k' needs the number of dice to keep", self.text, self.pos, "a number, e.g. k3")
        if word in ("adv", "dis"):
            if count != 1:
                shown = "a count worked out when rolled" if count is None else count
                raise DiceSyntaxError(f"'{word}' applies to one die (d20{word}), not {shown}", self.text, at)
            if digits:
                raise DiceSyntaxError(f"'{word}' takes no number", self.text, at)
            return None, 0, cast(Literal["adv", "dis"], word)
        if word == "k":
            word = "kh"
        if count == 0:
            raise DiceSyntaxError(f"cannot {word} any of 0 dice", self.text, at, "no keep or drop on 0 dice")
        n = int(digits) if digits else 1
        low = 1 if word in ("kh", "kl") else 0
        limit = MAX_DICE if count is None else count if word in ("kh", "kl") else count - 1
        if not low <= n <= limit:
            raise DiceSyntaxError(f"cannot {word} {n} of {count if count is not None else 'the'} dice", self.text,
                                  at, f"a number from {low} to {limit}")
        return cast(Keep, word), n, None

    def call(self, name: str) -> Call:
        if self.peek() != "(":
            raise self.error(f"function {name} needs arguments", "'('")
        self.pos += 1
        args = [self.expr()]
        while self.peek() == ",":
            self.pos += 1
            args.append(self.expr())
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
