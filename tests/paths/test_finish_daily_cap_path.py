"""The day's cap on magical healing (F-CLR-07) holds across a fight's boundary: the Hit Dice a recipient received
earlier in the day count in `encounter act CLERIC lay ALLY`, and what she receives there counts afterwards.

Brakka (Fighter 3: cap 3 HD a day, a d10 Hit Die, 22 HP) and Sister Ilse (SPELLCHECK d20 − 1 WIS + 2 PROF: 17 → 18,
2 HD on F-TAB-06). Out of the fight: 22 − 15 = 7; Lay on Hands 2 HD, faces 1, 1: 9, today 2/3; a long rest spends
her last Hit Die (1: 10) and refills the pool to 3, the day's count stays 2 (AMB-14); 10 − 5 = 5.
"""

from __future__ import annotations

import pytest

from tests.paths.keep_cli import EXAMPLES, Keep, keep

__all__ = ["keep"]


@pytest.mark.rule("F-CLR-07", "F-CLR-05")
def test_F_CLR_07_what_she_received_today_counts_in_the_fight(keep: Keep) -> None:
    """In the fight the same 2 HD leave her 3 − 2 = 1 (not 2, with 3 in her pool): she spends it (d10 4: 5 + 4 =
    9), and after the fight her day's count is 3 with 2 Hit Dice left."""
    keep.new()
    keep.ok("campaign", "join", *(str(EXAMPLES / "characters" / f"{h}.json") for h in ("ilse", "brakka")))
    keep.ok("damage", "Brakka", "15")
    assert "may spend 2 (pool 3, today 0/3)" in keep.ok("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17,1,1")
    keep.ok("rest", "long", "Brakka", "--faces", "1")
    keep.ok("damage", "Brakka", "5")
    keep.ok("encounter", "start", "--party", "all", "--monsters", "goblin", "--faces", "5,6,1")   # Ilse is due
    out = keep.ok("encounter", "act", "sist1", "lay", "brak1", "--faces", "17")
    assert "may spend 1 (pool 3, today 2/3)" in out and "(up to 1)" in out
    assert "HP 5 → 9" in keep.ok("encounter", "answer", "q1", "--hit-dice", "1", "--faces", "4")
    keep.ok("encounter", "end")
    brakka = keep.character("Brakka")
    assert (brakka["hp"], brakka["hit_dice"], brakka["healed_today"]) == (9, 2, 3)
