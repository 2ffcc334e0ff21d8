"""The referee's telling of a fact, for tests that check what a fact says (its numbers in words)."""

from __future__ import annotations

import re

from furnace.events import Event
from furnace.render import story


def said(e: Event) -> str:
    """The fact's sentence as the referee reads it, without its subject and dice ('' when nothing is told)."""
    told = story.tell(e)
    return told.text if told is not None else ""


def told(e: Event) -> str:
    """The fact's whole telling for the referee: 'Subject: sentence' and its dice lines."""
    return story.tell_referee(e)


# what must never reach a person: a token (`MOD:atk_against`, `EVERY:damage`), a snake_case name, a bare
# True/False/None, a "(s)" plural, "1 turns", a variable left in a dice expression (`d20+B`)
TOKENS = re.compile(r"\b[A-Z]+:[a-z_]+|_turns?\b|\(s\)|\b(True|False|None)\b|\b1 (turns|rounds|days|hours|weeks|"
                    r"uses|spells|points|breaks|notches|Rages)\b|\b[a-z]+_[a-z_]+\b|\{[a-z_]+\}|\bd20\+[A-Z]\b(?! \()")


def tokens_in(text: str) -> list[str]:
    """The tokens left in a text people read."""
    return [m.group(0) for m in TOKENS.finditer(text)]
