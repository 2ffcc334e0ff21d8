"""The referee's telling of a fact, for tests that check what a fact says (its numbers in words)."""

from __future__ import annotations

from furnace.events import Event
from furnace.render import story


def said(e: Event) -> str:
    """The fact's sentence as the referee reads it, without its subject and dice ('' when nothing is told)."""
    told = story.tell(e)
    return told.text if told is not None else ""


def told(e: Event) -> str:
    """The fact's whole telling for the referee: 'Subject: sentence' and its dice lines."""
    return story.tell_referee(e)
