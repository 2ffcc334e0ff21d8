"""The dice grammar, parsed by hand (recursive descent) into `furnace.dice.ast` nodes.

    expr    := term (("+" | "-") term)*
    term    := factor (("*" | "/") factor)*
    factor  := ("-" | "+") factor | atom
    atom    := NUMBER [dice | IDENT]          4d6, 5HD (five of the die bound to HD), 3
             | dice                           d20, d%
             | FUNC "(" expr ("," expr)* ")"  ceil, floor, max, min, abs
             | IDENT                          STR, PROF, ROOM_DC (bound by the caller)
             | "(" expr ")"
    dice    := "d" (NUMBER | "%") suffix?
    suffix  := ("kh" | "kl" | "dh" | "dl") NUMBER? | "k" NUMBER | "adv" | "dis"
"""

from __future__ import annotations

import re
from typing import Literal, cast

from furnace.dice.ast import AnyNode, BinOp, Call, Dice, Neg, Num, Var
from furnace.errors import DiceLimitError, DiceSyntaxError

MAX_EXPRESSION_LENGTH = 256
MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_DEPTH = 40
FUNCTIONS = {"ceil": 1, "floor": 1, "abs": 1, "max": 2, "min": 2}

_WS = re.compile(r"\s*")
_NUMBER = re.compile(r"\d+")
_DIE = re.compile(r"[dD](\d+|%)")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SUFFIX = re.compile(r"(kh|kl|dh|dl|k|adv|dis)(\d*)", re.IGNORECASE)


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

    def counted(self, count: int, name: str, start: int) -> AnyNode:
        """`5HD`: count dice of the die bound to a variable."""
        if name.lower() == "d":
            raise DiceSyntaxError("a die needs its number of sides", self.text, self.pos, "a number or '%'")
        self.add_dice(count, start)
        return Dice(count=count, sides_var=name.upper(), text=self.text[start:self.pos])

    def dice(self, count: int, start: int) -> Dice:
        m = self.match(_DIE)
        assert m is not None
        sides = 100 if m.group(1) == "%" else int(m.group(1))
        if count < 1:
            raise DiceSyntaxError("a roll needs at least one die", self.text, start, "a count of 1 or more")
        if not 1 <= sides <= MAX_SIDES:
            raise DiceLimitError(f"a die has 1 to {MAX_SIDES} sides, not {sides}", self.text, start)
        keep, keep_n, adv = self.suffix(count)
        node = Dice(count=count, sides=sides, keep=keep, keep_n=keep_n, advantage=adv,
                    text=self.text[start:self.pos])
        self.add_dice(node.rolled, start)
        return node

    def suffix(self, count: int) -> tuple[Literal["kh", "kl", "dh", "dl"] | None, int,
                                           Literal["adv", "dis"] | None]:
        at = self.pos
        m = self.match(_SUFFIX)
        if not m:
            return None, 0, None
        word, digits = m.group(1).lower(), m.group(2)
        if word == "k" and not digits:
            raise DiceSyntaxError("'k' needs the number of dice to keep", self.text, self.pos, "a number, e.g. k3")
        if word in ("adv", "dis"):
            if count != 1:
                raise DiceSyntaxError(f"'{word}' applies to one die (d20{word}), not {count}", self.text, at)
            if digits:
                raise DiceSyntaxError(f"'{word}' takes no number", self.text, at)
            return None, 0, cast(Literal["adv", "dis"], word)
        if word == "k":
            word = "kh"
        n = int(digits) if digits else 1
        limit = count if word in ("kh", "kl") else count - 1
        if not (1 if word in ("kh", "kl") else 0) <= n <= limit:
            raise DiceSyntaxError(f"cannot {word} {n} of {count} dice", self.text, at,
                                  f"a number from 1 to {count}" if word in ("kh", "kl") else
                                  f"a number from 0 to {count - 1}")
        return cast(Literal["kh", "kl", "dh", "dl"], word), n, None

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


def parse_tree(text: str) -> AnyNode:
    """Parse `text` into an AST, or raise `DiceSyntaxError` / `DiceLimitError` naming the position."""
    if not isinstance(text, str):
        raise DiceSyntaxError(f"a dice expression is text, not {type(text).__name__}")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(f"expression longer than {MAX_EXPRESSION_LENGTH} characters", text[:40] + "…",
                             MAX_EXPRESSION_LENGTH)
    return _Parser(text).parse()
