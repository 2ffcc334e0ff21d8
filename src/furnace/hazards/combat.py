"""What the Hazards chapter changes in the engine's fights and rolls, registered with the engine.

- the `hazards` death model (H-DMG-02/03): unconscious at 0 HP with no timer, wakes after 1d6 hours, dead
  at −3 (the `death_model` option chooses it);
- state modifiers: short of sleep −N to every roll (H-SLEEP-01, AMB-76), drunk −2 to SAVEs (H-DRUG-02; the
  −2 DEX is already in the character's scores).
"""

from __future__ import annotations

from furnace.characters.character import Character
from furnace.hazards.common import DRUNK, SHORT_OF_SLEEP, sleep_penalty
from furnace.hazards.scores import HAZARDS_DEATH, HAZARDS_FLOOR, UNCONSCIOUS
from furnace.play.combatant import Combatant
from furnace.play.death import kill
from furnace.play.registry import DEATH_MODELS, MODIFIERS, StateModifier
from furnace.play.state import Step


@DEATH_MODELS.register("hazards")
def die_at_minus_three(step: Step, c: Combatant, amount: int) -> None:
    if c.hp <= HAZARDS_FLOOR:
        kill(step, c, HAZARDS_DEATH, ("H-DMG-03",), hp=c.hp, threshold=HAZARDS_FLOOR)
    elif c.hp <= 0 and c.status == "up":
        step.update(c.id, status="unconscious")
        step.fact(UNCONSCIOUS, c.id, (), (), ("H-DMG-02",), hp=c.hp, wake_dice="d6")


@MODIFIERS.register("hazards:short-of-sleep")
def short_of_sleep(c: Character) -> StateModifier:
    n = sleep_penalty(c)
    return StateModifier(SHORT_OF_SLEEP, to_hit=n, saves=n, checks=n, spellcheck=n)


@MODIFIERS.register("hazards:drunk")
def drunk(c: Character) -> StateModifier:
    return StateModifier(DRUNK, saves=-2) if "DRUNK" in c.conditions else StateModifier()
