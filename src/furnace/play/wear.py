"""What a fight does to a combatant's gear that outlasts it: the protection her armor lost (F-TAB-38 row 16,
AMB-35, M-ARM-03), the notches on the weapon she wields (M-WPN-02; CF-34 fumble_damage_notches) and its cracked
haft (M-WPN-05).

The engine's own rules write it (the weapon and armor effects of the fumble and injury tables, `play.apply`) and a
chapter's may (the Middle Sea's item saves and weapon mishaps); `aftermath.settle` writes it back to her
character. Most combatants end a fight with none, so it is kept as a chapter keeps its state, in her `chapters`
under "wear" (`wear`, `with_wear`), not as three fields of every combatant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ConfigDict

from furnace.play.frozen import ChapterState
from furnace.play.registry import CHAPTER_STATES

if TYPE_CHECKING:
    from furnace.play.combatant import Combatant

KEY = "wear"


@dataclass(frozen=True, kw_only=True)
class Wear(ChapterState):
    """The wear on her gear in the fight. `FLAT`: where a combatant held these among her own fields before."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")
    KEY: ClassVar[str] = KEY
    FLAT: ClassVar[dict[str, str]] = {"armor_lost": "rages_spent", "weapon_notches": "armor_lost",
                                      "weapon_cracked": "weapon_notches"}
    armor_lost: int = 0                     # armor protection lost (F-TAB-38 row 16, AMB-35, M-ARM-03)
    weapon_notches: int = 0                 # notches on the weapon wielded (M-WPN-02; CF-34 fumble_damage_notches)
    weapon_cracked: bool = False            # its haft cracked (M-WPN-05)


CRACKED = Wear(weapon_cracked=True)         # a weapon that came into the fight cracked


def wear(c: Combatant) -> Wear:
    """The wear on her gear in this fight (none while nothing has worn it)."""
    return Wear.on(c)


def with_wear(c: Combatant, **changes: Any) -> dict[str, Any]:
    """The change of her fields that sets these of her wear: for `Step.update(cid, **…)` or `model_copy`."""
    return Wear.changed_on(c, **changes)


CHAPTER_STATES.add(Wear.KEY, Wear)
