"""What the fight left on her that outlasts it, besides the wear on her gear (`play.wear`): the Rages she began
(F-ARCH-02, AMB-46), the weapon broken or destroyed (F-TAB-36/38, M-WPN), an injury's temporary ability loss that
rest may give back (AMB-32, H-HEAL-06) and the lasting injuries healing closed (an open wound, AMB-34).

The engine's rules write them (a Rage begun, `play.attacks`; the weapon, ability and healing effects, `play.apply`)
and a chapter's may (the Middle Sea's snapped haft or string); `aftermath.settle` writes them back to her
character. Most combatants end a fight with none, so they are kept as a chapter keeps its state, in her `chapters`
under "marks" (`marks`, `with_marks`), not as four fields of every combatant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ConfigDict

from furnace.play.frozen import ChapterState
from furnace.play.registry import CHAPTER_STATES
from furnace.rules.effects import Ability

if TYPE_CHECKING:
    from furnace.play.combatant import Combatant

KEY = "marks"


@dataclass(frozen=True, kw_only=True)
class Marks(ChapterState):
    """What the fight left on her. `FLAT`: where a combatant held these among her own fields before (the wear's
    three between `rages_spent` and `weapon_lost`: `wear.Wear.FLAT`)."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")
    KEY: ClassVar[str] = KEY
    FLAT: ClassVar[dict[str, str]] = {"rages_spent": "rages_left", "weapon_lost": "weapon_cracked",
                                      "temporary_loss": "weapon_lost", "healed_injuries": "temporary_loss"}
    rages_spent: int = 0                    # Rages begun in this fight (F-ARCH-02)
    weapon_lost: str | None = None          # the weapon broken or destroyed, by name (F-TAB-36/38, M-WPN)
    temporary_loss: dict[Ability, int] = field(default_factory=dict)   # injury_ability_loss temporary (AMB-32)
    healed_injuries: tuple[str, ...] = ()   # lasting injuries closed in the fight (open wound, AMB-34)




def marks(c: Combatant) -> Marks:
    """What this fight has left on her so far (nothing while it has left nothing)."""
    return Marks.on(c)


def with_marks(c: Combatant, **changes: Any) -> dict[str, Any]:
    """The change of her fields that sets these of her marks: for `Step.update(cid, **…)` or `model_copy`."""
    return Marks.changed_on(c, **changes)


CHAPTER_STATES.add(Marks.KEY, Marks)
