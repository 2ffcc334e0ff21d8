"""Lingering Injuries (F-INJ-02, F-TAB-38) on the user's path: a dying character stabilised out of a fight rolls
the Injuries table (F-INJ-01); its rows 8-13 roll on the Lingering Injuries table (CF-13), whose row stays with her
and moves her rolls from then on — in a CHECK from her sheet (the console's roll, `Store.apply`) and in the next
fight.

Wren (Rogue 3, 17 HP, dead at −4) and Sister Ilse (Cleric 3, WIS 6: −1, Medicine PROF +2). `furnace damage Wren 19
--faces 3`: 17 − 19 = −2, dying, the timer's 1d4 3 (F-DEATH-01). Sister Ilse's Medicine CHECK d20 14 − 1 + 2 = 15
≥ DC 12 stabilises her; the Injuries d20 10 (8-13) sends her to F-TAB-38.
"""

from __future__ import annotations

import pytest

from tests.paths.keep_cli import EXAMPLES, Keep, keep

__all__ = ["keep"]


def wren_stabilised(keep: Keep, lingering: int) -> str:
    keep.new()
    keep.ok("campaign", "join", *(str(EXAMPLES / "characters" / f"{h}.json") for h in ("ilse", "wren")))
    keep.ok("damage", "Wren", "19", "--faces", "3")
    out = keep.ok("stabilise", "Wren", "--by", "Sister Ilse", "--faces", f"14,10,{lingering}")
    keep.ok("heal", "Wren", "5")                         # −2 + 5 = 3: awake, the injury's effects in force (D-11)
    return out


@pytest.mark.rule("F-INJ-02", "F-INJ-01")
def test_F_INJ_02_a_horrible_scar_moves_her_checks_for_good(keep: Keep) -> None:
    """The Lingering d20 14: Horrible scar — Persuasion CHECKs HARD (the DC 12 + 3 = 15), Intimidation EASY
    (12 − 3 = 9), for good."""
    out = wren_stabilised(keep, 14)
    assert "injury 14: Horrible scar" in out
    assert any(i.startswith("Horrible scar") for i in keep.character("Wren")["injuries"])
    persuasion = keep.sheet_roll("Wren", "check", [10], skill="Persuasion", dc=12)
    intimidation = keep.sheet_roll("Wren", "check", [10], skill="Intimidation", dc=12)
    assert (persuasion.data["dc"], intimidation.data["dc"]) == (15, 9)


@pytest.mark.rule("F-INJ-02", "F-INJ-01")
def test_F_INJ_02_a_lost_eye_makes_her_ranged_attacks_hard_in_the_next_fight(keep: Keep) -> None:
    """The Lingering d20 3: Lose an eye — sight-based perception and ranged ATK HARD, for good (AMB-34), carried into
    the next fight (start faces: the goblin's HP 5 − 1 = 4, initiative 6 against 1)."""
    out = wren_stabilised(keep, 3)
    assert "injury 3: Lose an eye" in out and "one eye" in keep.character("Wren")["injuries"]
    keep.ok("encounter", "start", "--party", "wren1", "--monsters", "goblin", "--faces", "5,6,1")
    status = keep.ok("encounter", "status")
    assert "ranged attacks are HARD (for good, one eye)" in status and "Perception by sight is HARD" in status
