"""Scripted 3d6 faces for the character tests."""

from __future__ import annotations

from furnace.rules.effects import ABILITIES


def three(total: int) -> list[int]:
    """Three d6 faces that add up to `total` (3..18)."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def score_faces(scores: dict[str, int]) -> list[int]:
    """The 18 faces that roll these scores 3d6 in order STR..CHA."""
    return [f for a in ABILITIES for f in three(scores[a])]
