"""What the referee tells the players about a scene: the terrain on the road (H-TRAV-04, REF-31), how far
they see (H-LIGHT-04, REF-37), and room dimensions while mapping (H-MAP-02, REF-38). The rules leave these
to the referee; these helpers give the referee's call a consistent shape."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from furnace.play.clock import Campaign

EXPLORATION = "exploration"


@dataclass(frozen=True)
class Report:
    text: str
    referee_only: str = ""


def terrain_report(entered: str, around: Sequence[str], blocks_vision: bool = False) -> Report:
    """H-TRAV-04: the terrain entered and what lies around it, unless the terrain hides the view."""
    if blocks_vision:
        return Report(f"You enter {entered}; it hides what lies beyond.", f"around: {', '.join(around)}")
    return Report(f"You enter {entered}. Around you: {', '.join(around) or 'nothing of note'}.")


def sight_feet(campaign: Campaign, lit_radius: int | None) -> int | None:
    """H-LIGHT-01/04: no light and no scene value set by the referee → no sight; else the larger of the
    light's radius and the scene's visibility (campaign flag `visibility_ft`)."""
    scene = campaign.flags.get("visibility_ft")
    seen = [v for v in (lit_radius, scene) if v]
    return max(seen) if seen else None


def describe_dimensions(width_ft: int, length_ft: int, speed: str, irregular: bool = False) -> str:
    """H-MAP-02: exact dimensions at exploration speed; to the nearest 10 feet otherwise; rough if irregular."""
    if irregular:
        return f"roughly {round(width_ft, -1)} by {round(length_ft, -1)} feet, an irregular shape"
    if speed == EXPLORATION:
        return f"{width_ft} by {length_ft} feet"
    return f"about {round(width_ft, -1)} by {round(length_ft, -1)} feet"
