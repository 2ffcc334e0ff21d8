"""Cleave at the fight table through `furnace encounter …` (F-FTR-03, AMB-01): a Fighter's lethal blow carries its
excess DAM to a second foe CLOSE to the one killed, if her player chooses (`--cleave FOE`, given with the
action); when that kills the last foe the fight ends there, and when it does not the fight goes on with the foe
hurt.

Both fights are Brakka (Fighter 3: arming sword d20+3, 1d8+1; Rage +2 DAM; Cleave) against two goblins (the
bestiary's: 1d8−1 HP, AC 10, d20+0). The start's faces 5, 8, 1, 6: Goblin 1 HP 5 − 1 = 4, Goblin 2 HP 8 − 1 = 7;
group initiative party 1 against the goblins' 6, so the goblins act first, each going NEAR Brakka and missing
(d20 2 + 0 = 2 < AC 14): both are CLOSE when her turn comes. Monsters die at 0 (CF-50).
"""

from __future__ import annotations

import pytest

from furnace.campaign.encounters import current
from tests.helpers.factories import reopened
from tests.paths.keep_cli import EXAMPLES, Keep, keep

__all__ = ["keep"]


def two_goblins_close(keep: Keep) -> None:
    keep.new()
    keep.ok("campaign", "join", str(EXAMPLES / "characters" / "brakka.json"))
    keep.ok("encounter", "start", "--party", "all", "--monsters", "goblin x2", "--faces", "5,8,1,6")
    keep.ok("encounter", "act", "goblin-1", "attack", "brak1", "--faces", "2")
    keep.ok("encounter", "act", "goblin-2", "attack", "brak1", "--faces", "2")


def goblins(keep: Keep) -> tuple[bool, str | None, dict[str, tuple[int, str]]]:
    """The fight's state: over, the winning side, each goblin's HP and status."""
    enc = current(reopened(keep.db)).turns.encounter
    return enc.over, enc.winner, {c.id: (c.hp, c.status) for c in enc.combatants if c.id.startswith("goblin")}


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_cleave_that_kills_the_last_foe_ends_the_fight(keep: Keep) -> None:
    """Brakka rages and hits: d20 15 + 3 = 18 ≥ AC 10; DAM 1d8 8 + 1 + 2 = 11 on Goblin 1's 4 HP: −7, dead. The
    remaining DAM 11 − 4 = 7 (AMB-01: not rolled again, no AC) goes to Goblin 2, CLOSE: 7 − 7 = 0, dead. No foe
    is left: the fight ends on that blow, the party standing, and `encounter end` settles it."""
    two_goblins_close(keep)
    out = keep.ok("encounter", "act", "brak1", "attack", "goblin-1", "--rage", "--cleave", "goblin-2",
                  "--faces", "15,8")
    assert "Goblin 1: takes 11 from Brakka's arming sword: HP 4 → -7" in out
    assert "Brakka: cleaves: 7 remaining damage to Goblin 2" in out and "HP 7 → 0" in out
    assert "the fight ends" in out
    assert goblins(keep) == (True, "party", {"goblin-1": (-7, "dead"), "goblin-2": (0, "dead")})
    keep.ok("encounter", "end")
    assert reopened(keep.db).encounter is None


@pytest.mark.rule("F-FTR-03")
def test_F_FTR_03_a_cleave_that_leaves_a_foe_carries_the_excess_and_the_fight_goes_on(keep: Keep) -> None:
    """The same blow with DAM 1d8 3 + 1 + 2 = 6 on Goblin 1's 4 HP: −2, dead; the remaining 6 − 4 = 2 goes to
    Goblin 2: 7 − 2 = 5, standing. One extra target, no chaining; the round ends and Goblin 2 is due in round 2."""
    two_goblins_close(keep)
    out = keep.ok("encounter", "act", "brak1", "attack", "goblin-1", "--rage", "--cleave", "goblin-2",
                  "--faces", "15,3")
    assert "Brakka: cleaves: 2 remaining damage to Goblin 2" in out and "HP 7 → 5" in out
    assert "the fight ends" not in out and "Goblin 2: is due (round 2, monsters)" in out
    assert goblins(keep) == (False, None, {"goblin-1": (-2, "dead"), "goblin-2": (5, "up")})
