"""Lay on Hands as a Cleric's action in a fight, registered with the engine as "lay_on_hands" (F-CLR-05/06,
F-TAB-06, AMB-15).

The Cleric picks the recipient (an ally within reach, CLOSE or NEAR as for stabilising, AMB-28; herself under
`loh_self`) and what the prayer does: heal (no detail) or cure a condition (detail `cure:NAME`, F-CLR-06: a
condition she holds is removed, no HP healed). The SPELLCHECK is d20 + WIS + PROF against max(12, ROOM DC), read on
F-TAB-06 for the Hit Dice it buys (+loh_nat20_extra_hd on a natural 20); the recipient's player is asked how many of
her own Hit Dice she spends (`furnace.play.questions`, kind hit_dice: up to what the prayer buys, her pool and her
level's daily cap, F-CLR-07), and heals what they roll — a dying recipient healed above 0 gets up.

The daily cap counts only this prayer: the Hit Dice she was healed earlier in the day are the campaign's
(`furnace.magic.casting.lay_on_hands` outside a fight).
"""

from __future__ import annotations

from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.magic.casting import CURE, LAY_ON_HANDS, SPELLCHECK
from furnace.magic.spell_luck import with_luck
from furnace.magic.spellcheck import Spellcheck, spellcheck
from furnace.magic.state import magic_state
from furnace.play.apply import HEAL
from furnace.play.combatant import Combatant
from furnace.play.conditions import CARRIED
from furnace.play.questions import ask
from furnace.play.state import Encounter, Step
from furnace.rules.ruleset import Ruleset

FEATURE = "Lay on Hands"
CURE_PREFIX = "cure:"
CURED = "_cured:"          # a combatant's feature: a condition carried into the fight that Lay on Hands cured
REACH = ("CLOSE", "NEAR")


def refusal(enc: Encounter, c: Combatant, target: str, allow_self: bool) -> str | None:
    """Why she may not lay hands on this recipient now, or None."""
    if FEATURE not in c.features or magic_state(c).spell_mod is None:
        return f"{c.name} has no Lay on Hands (a Cleric's, F-CLR-05)"
    t = enc.get(target)
    if t.id == c.id and not allow_self:
        return "Lay on Hands on oneself is off (option loh_self)"
    if t.side != c.side:
        return f"{t.name} is not {c.name}'s ally"
    if t.status == "dead":
        return f"{t.name} is dead"
    if t.id != c.id and (c.zone not in REACH or t.zone not in REACH):
        return f"{t.name} is out of reach: {c.name} is {c.zone} and {t.name} {t.zone} (F-CLR-05, AMB-28)"
    return None


class LayOnHands:
    """The action: a SPELLCHECK, then the recipient heals with her Hit Dice or is cured of a condition."""

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None:
        c = step.c(cid)
        why = refusal(step.enc, c, target, bool(step.rules["loh_self"]))
        if why is not None:
            raise IllegalActionError(why)
        def roll(rng: DiceSource, luck_dice: int = 0) -> Spellcheck:
            return spellcheck(rng, magic_state(c).spell_mod or 0, c.prof, step.enc.room_dc, step.rules, ability="WIS",
                              label="SPELLCHECK", luck_dice=luck_dice)

        check = with_luck(step, cid, roll(step.rng), roll)      # she may spend Luck Dice on it (F-SPELL-09)
        condition = detail[len(CURE_PREFIX):] if detail and detail.startswith(CURE_PREFIX) else ""
        values: dict[str, Any] = {"prayer": "lay_on_hands", **({"condition": condition} if condition else {}),
                                  **check.values}
        step.fact(SPELLCHECK, cid, (target,), (check.roll,), check.rules, **values)
        if not check.success:
            return
        if condition:
            _cure(step, cid, target, condition)
        else:
            _heal(step, cid, target, check.total, check.crit)

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        return None          # the tactic never prays for healing: the Cleric's player chooses it

    def details(self, c: Combatant) -> tuple[str, ...]:
        return ("heal",) if FEATURE in c.features and magic_state(c).spell_mod is not None else ()


def _cure(step: Step, cid: str, target: str, condition: str) -> None:
    t = step.c(target)
    wanted = condition.upper()
    kept = tuple(h for h in t.held if wanted not in h.name.upper() and wanted not in (h.source or "").upper())
    gone = [h for h in t.held if h not in kept]
    cured = bool(gone)
    if cured:    # a condition she brought into the fight leaves her character too, when the fight is settled
        step.update(target, held=kept, features=(*t.features, *(CURED + h.name for h in gone if h.source == CARRIED)))
    step.fact(CURE, cid, (target,), (), ("F-CLR-06",), condition=condition, cured=cured)


def _heal(step: Step, cid: str, target: str, total: int, crit: bool) -> None:
    t = step.c(target)
    hd = int(step.rules.tables.get("lay-on-hands").lookup(total).data.get("hd", 0))
    extra = int(step.rules["loh_nat20_extra_hd"]) if crit else 0
    cap = t.level if t.level > 0 else int(step.rules["zero_level_heal_cap"])
    allowed = max(0, min(hd + extra, t.hit_dice, cap - t.healed_today))    # what she received today counts
    step.fact(LAY_ON_HANDS, cid, (target,), (), ("F-CLR-05", "F-CLR-07"), total=total, hd=hd + extra,
              allowed=allowed, pool=t.hit_dice, today=t.healed_today, cap=cap, crit_hd=extra)
    if allowed < 1:
        return
    spent = int(ask(step, t, "hit_dice", tuple(str(n) for n in range(allowed + 1)), {},
                    {"allowed": allowed, "pool": t.hit_dice, "die": t.hit_die}))
    step.update(target, healed_today=t.healed_today + spent)
    for _ in range(spent):
        _hit_die(step, target)


def _hit_die(step: Step, target: str) -> None:
    """One Hit Die of her pool rolled and healed (F-HP-06); healed above 0, the dying get up."""
    t = step.c(target)
    roll = dice.parse(t.hit_die).roll(step.rng, label="Hit Die")
    hp = min(t.hp_max, max(t.hp, 0) + roll.total)
    up = {"status": "up", "dying_turns": None} if t.status in ("dying", "stable", "unconscious") and hp > 0 else {}
    step.update(target, hp=hp, hit_dice=t.hit_dice - 1, **up)
    step.fact(HEAL, target, (), (roll,), ("F-CLR-05",), amount=hp - t.hp, hp_before=t.hp, hp_after=hp,
              hp_max=t.hp_max, source="Lay on Hands")


def settle_laying_on(character: Character, combatant: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """After the fight: the Hit Dice she spent on a Lay on Hands leave her pool and count toward the day's magical
    healing (F-CLR-05, F-CLR-07); the conditions it cured leave her (F-CLR-06). The fight's facts told them."""
    cured = {f[len(CURED):] for f in combatant.features if f.startswith(CURED)}
    if cured:
        character = character.model_copy(update={"conditions": [x for x in character.conditions if x not in cured]})
    spent = character.hit_dice - combatant.hit_dice
    if spent <= 0:
        return character
    return character.model_copy(update={"hit_dice": combatant.hit_dice,
                                        "healed_today": character.healed_today + spent})
