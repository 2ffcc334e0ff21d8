"""The campaign's roster as text: one line per member, grouped by player, with status and how the dead died."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from furnace.campaign.state import Member
from furnace.render.story.campaign import death_words

COLUMNS = ("id", "name", "player", "status", "level", "HP", "notes")


def _level(m: Member) -> str:
    c = m.character
    if c.char_class is None:
        return f"0-level {c.race}"
    return f"{c.level} {c.race} {c.char_class}" + (f" ({c.archetype})" if c.archetype else "")


def _notes(m: Member) -> str:
    c = m.character
    if m.death is not None:
        return f"died: {death_words(m.death.cause, m.death.facts)}"
    if c.occupation is not None and c.char_class is None:
        return c.occupation.name
    return ", ".join(c.conditions + c.injuries)


def sheet_note(m: Member, death: str | None = None) -> str:
    """The line under a member's sheet's title: her id, her player, her status and how she died (`death`: in the
    words the reader may be told, for a player who may not know what dealt the last blow; default the referee's)."""
    told = death if death is not None else death_words(m.death.cause, m.death.facts) if m.death else ""
    return f"{m.id} · player {m.player or '—'} · {m.status}" + (f": {told}" if m.death and told else "")


def roster_rows(members: Sequence[Member]) -> list[tuple[str, ...]]:
    return [(m.id, m.character.name, m.player or "—", m.status, _level(m), f"{m.character.hp}/{m.character.hp_max}",
             _notes(m)) for m in members]


def roster_table(members: Sequence[Member], title: str = "") -> str:
    """The roster as aligned columns (id, name, player, status, level, HP, notes), with a count per status."""
    rows = roster_rows(members)
    if not rows:
        return (f"{title}\n" if title else "") + "no characters match"
    widths = [max(len(r[i]) for r in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
    lines = [title] if title else []
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
              for row in [COLUMNS, *rows]]
    counts: dict[str, int] = {}
    for m in members:
        counts[m.status] = counts.get(m.status, 0) + 1
    lines.append(f"{len(members)} character(s): " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return "\n".join(lines)


def roster_json(members: Sequence[Member]) -> list[dict[str, Any]]:
    """One object per member: id, name, player, status, class, level, HP and death (what `list --json` prints)."""
    return [{"id": m.id, "name": m.character.name, "player": m.player, "status": m.status, "race": m.character.race,
             "class": m.character.char_class, "archetype": m.character.archetype, "level": m.character.level,
             "hp": m.character.hp, "hp_max": m.character.hp_max,
             "death": {**m.death.model_dump(mode="json"), "words": death_words(m.death.cause, m.death.facts)}
             if m.death else None} for m in members]


__all__ = ["roster_json", "roster_rows", "roster_table", "sheet_note"]
