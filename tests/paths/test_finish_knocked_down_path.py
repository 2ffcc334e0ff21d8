"""The optional "knocked down twice" (F-DEATH-03, AMB-61) through `furnace damage` and `furnace heal` while an
encounter runs: the campaign's option knocked_down_twice turns it on (`campaign new --option`); the 2nd drop to 0 HP
or below in one encounter, and by default each later one (knocked_down_every_later_drop), asks a CON SAVE vs the
ROOM DC, failure is death.

Brakka (Fighter 3, 22 HP, CON 12: +0, no CON SAVE proficiency; dead at −6, F-DEATH-02) and Wren against a goblin
(ROOM DC 10). The start's faces 5, 6, 1: the goblin's HP 5 − 1 = 4; the party's initiative 6 against its 1, Brakka
first, so Wren is due while the referee tells the blows (no dying turn of Brakka's comes).
"""

from __future__ import annotations

import pytest

from furnace.campaign.encounters import current
from tests.helpers.factories import reopened
from tests.paths.keep_cli import EXAMPLES, Keep, keep

__all__ = ["keep"]


def a_goblin(keep: Keep, *options: str) -> None:
    keep.new(*(a for o in options for a in ("--option", o)))
    keep.ok("campaign", "join", *(str(EXAMPLES / "characters" / f"{h}.json") for h in ("brakka", "wren")))
    keep.ok("encounter", "start", "--party", "all", "--monsters", "goblin", "--faces", "5,6,1")
    keep.ok("encounter", "act", "brak1", "wait")


def first_drop(keep: Keep) -> None:
    """22 − 24 = −2 > −6: dying, the timer's 1d4 2 (F-DEATH-01); healed 4: −2 + 4 = 2, up again."""
    assert "drops at -2 HP" in keep.ok("damage", "Brakka", "24", "--faces", "2")
    keep.ok("heal", "Brakka", "4")


def brakka(keep: Keep) -> tuple[int, str, int]:
    c = current(reopened(keep.db)).turns.encounter.get("brak1")
    return c.hp, c.status, c.knocked_down


@pytest.mark.rule("F-DEATH-03")
def test_F_DEATH_03_the_second_drop_fails_its_CON_SAVE_and_kills(keep: Keep) -> None:
    """The 2nd drop: 2 − 6 = −4 > −6, dying (timer 3), then the CON SAVE d20 5 + 0 = 5 < ROOM DC 10: she dies, the
    SAVE shown with her death; the campaign keeps her dead of it when the fight is settled."""
    a_goblin(keep, "knocked_down_twice=true")
    first_drop(keep)
    out = keep.ok("damage", "Brakka", "6", "--faces", "3,5")
    assert "dies: knocked down 2 times and failed the CON SAVE (5)" in out and "CON SAVE: d20+CON → [5]" in out
    assert brakka(keep) == (-4, "dead", 2)
    keep.ok("encounter", "end")
    member = reopened(keep.db).roster["brak1"]
    assert member.status == "dead" and member.death is not None and member.death.cause == "knocked_down_twice"


@pytest.mark.rule("F-DEATH-03")
def test_F_DEATH_03_each_later_drop_saves_again_and_the_option_off_asks_nothing(keep: Keep) -> None:
    """The 2nd drop's SAVE d20 10 + 0 = 10 ≥ 10: she lives, dying (timer 3). Healed 6: −4 + 6 = 2; the 3rd drop,
    2 − 5 = −3, asks it again (AMB-61: each later drop): d20 12 ≥ 10, dying (timer 1)."""
    a_goblin(keep, "knocked_down_twice=true")
    first_drop(keep)
    assert "survives being knocked down twice (CON SAVE 10)" in keep.ok("damage", "Brakka", "6", "--faces", "3,10")
    assert brakka(keep) == (-4, "dying", 2)
    keep.ok("heal", "Brakka", "6")
    assert "(CON SAVE 12)" in keep.ok("damage", "Brakka", "5", "--faces", "1,12")
    assert brakka(keep) == (-3, "dying", 3)


@pytest.mark.rule("F-DEATH-03")
def test_F_DEATH_03_off_by_default_the_second_drop_rolls_only_its_timer(keep: Keep) -> None:
    """Off (the default): the 2nd drop, 2 − 6 = −4, rolls only its timer — a SAVE's face entered is refused as
    left over, nothing changed."""
    a_goblin(keep)
    first_drop(keep)
    assert "left over" in keep.refused("damage", "Brakka", "6", "--faces", "3,5")
    keep.ok("damage", "Brakka", "6", "--faces", "3")
    assert brakka(keep) == (-4, "dying", 2)


@pytest.mark.rule("F-DEATH-03")
def test_F_DEATH_03_only_the_second_drop_when_later_drops_are_off(keep: Keep) -> None:
    """knocked_down_every_later_drop false: the 2nd drop saves (d20 15 ≥ 10), the 3rd (2 − 5 = −3) rolls only its
    timer."""
    a_goblin(keep, "knocked_down_twice=true", "knocked_down_every_later_drop=false")
    first_drop(keep)
    assert "(CON SAVE 15)" in keep.ok("damage", "Brakka", "6", "--faces", "3,15")
    keep.ok("heal", "Brakka", "6")
    keep.ok("damage", "Brakka", "5", "--faces", "1")
    assert brakka(keep) == (-3, "dying", 3)
