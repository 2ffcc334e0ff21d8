"""What the magic chapter keeps on a combatant for the length of a fight: her casting ability's modifier and the
spells she knows (F-SPELL-02, F-MU-05, F-CLR-03), the spells cast toward Spell Depletion (F-MU-04), a Cleric's
disapproval range (F-CLR-04) and her magic items' uses left today (AMB-59).

It lives in the combatant's `chapters` under "magic" (the engine copies it with her and reads none of it), read
through `magic_state` and changed through `with_magic`; it comes from the character by the chapter's
COMBATANT_HOOKS and goes back by its AFTERMATH_HOOKS (`furnace.magic.fight`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import ConfigDict

from furnace.play.combatant import Combatant
from furnace.play.frozen import ChapterState
from furnace.play.registry import CHAPTER_STATES

KEY = "magic"


@dataclass(frozen=True, kw_only=True)
class MagicState(ChapterState):
    """A combatant's magic in the fight. `FLAT`: where a combatant held these among her own fields before."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")
    KEY: ClassVar[str] = KEY
    FLAT: ClassVar[dict[str, str]] = {"spell_mod": "scores", "spells": "spell_mod", "spells_cast": "spells",
                                      "disapproval": "spells_cast", "item_uses": "powers"}
    spell_mod: int | None = None            # the casting ability's modifier (INT or WIS), for casters
    spells: tuple[str, ...] = ()            # the spells she knows and has not forgotten (AMB-47)
    spells_cast: int = 0                    # toward the Spell Depletion SAVE (F-MU-04)
    disapproval: int = 1                    # a Cleric's disapproval range (F-CLR-04)
    item_uses: dict[str, int | None] = field(default_factory=dict)    # magic items: uses left today (None: not yet)


NO_MAGIC = MagicState()


def magic_state(c: Combatant) -> MagicState:
    """Her magic in the fight (the defaults while the chapter keeps none on her): `ChapterState.on`, inlined
    (the tactic asks it of every caster at every turn)."""
    found: MagicState = c.chapters.get(KEY, NO_MAGIC)
    return found


def with_magic(c: Combatant, **changes: Any) -> dict[str, Any]:
    """The change of her fields that sets these of her magic: for `Step.update(cid, **…)` or `model_copy`."""
    return MagicState.changed_on(c, **changes)


CHAPTER_STATES.add(MagicState.KEY, MagicState)
