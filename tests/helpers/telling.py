"""Facts as the referee reads them, for tests that check what an event says: `what(e)` is the sentence alone (as
an event's `what` was), `told(e)` the whole telling (who, what and the dice lines), for a fact or a row of the log."""

from __future__ import annotations

from typing import Any

from furnace.render import story


def _fact(e: Any) -> Any:
    return e.fact if hasattr(e, "seq") and e.fact is not None else e


def what(e: Any) -> str:
    """The fact's sentence for the referee, without its subject and dice ('' when she is told nothing)."""
    if hasattr(e, "seq") and e.fact is None:
        return str(e.what)
    told = story.tell(_fact(e))
    return told.text if told is not None else ""


def told(e: Any) -> str:
    """The fact's whole telling for the referee: 'Brakka: hits …' and its dice lines."""
    if hasattr(e, "seq"):
        return "\n".join(story.stored(e))
    return story.tell_referee(e)
