"""After a fight: everything the fight did to a player character, written back to her Character.

    character, events = settle(character, enc.get("Brakka"), rules)

`settle` carries over her HP (a dying character stays at her HP, DYING; a stabilised one UNCONSCIOUS; the dead
are dead with the cause, F-DEATH-01/02), her ability scores (an injury's temporary loss remembered for the
Hazards week of rest, AMB-32, H-HEAL-06), her injuries (those healed in the fight gone, AMB-34), her markers —
"until rest" ones as `until_rest` lines (D-7: injury rows 14–19, mishap lockouts), lasting conditions as
conditions (a maimed foot's MOVE_NEAR_ONLY), lasting modifiers and wounds in `extensions["fight"]["held"]`
(one eye's HARD ranged ATK, an open wound's drain) so that `combatant.carry_in` and the character's markers
read them again — her Luck Dice (F-LUCK-01), the protection her armor lost (AMB-35, M-ARM-03; broken at 0), a
destroyed shield or helmet (F-EQ-03, M-ARM-03), her weapon's notches, crack or break (CF-34, M-WPN, F-TAB-36/38)
and the Rages she used (AMB-46, counted until her next long rest); then what the chapters' AFTERMATH_HOOKS write
back of their own state (magic: her Spell Depletion count, a Cleric's disapproval range, the magic items' uses).
Each change is an Event with a sentence.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.events import Event, declare
from furnace.play import luck, registry
from furnace.play.combatant import Combatant, armor_points
from furnace.play.conditions import CARRIED, FIGHT_KEY, OUTLASTING, Held, until_rest_line, written
from furnace.play.marks import marks
from furnace.play.wear import wear
from furnace.rules.effects import CONDITIONS
from furnace.rules.ruleset import Ruleset

HAZARDS_KEY = "hazards"   # the Hazards chapter's state: its week of rest gives back its "temporary_loss" (H-HEAL-06)
DOWN = ("DYING", "UNCONSCIOUS")
# what a fight left on a character, by the change's code (the values are hers: her table knows them)
AFTER_FIGHT = declare("after_fight", change="public", hp_before="actor", hp_after="actor", cause="public", hp="actor",
                      conditions="public", ability="public", before="actor", after="actor", loss="public",
                      injury="public", condition="public", source="public", armor="actor", total="actor",
                      lost="actor", left="actor", weapon="actor", notches="actor", used="actor", cap="public",
                      example={"change": "hp"})


def settle(character: Character, combatant: Combatant, rules: Ruleset) -> tuple[Character, list[Event]]:
    """The character after the fight the combatant fought, and the events that say what changed."""
    events: list[Event] = []
    out = character
    for part in (_life, _scores, _injuries, _markers, _luck, _armor, _shield_and_helmet, _weapon, _rages):
        out = part(out, combatant, rules, events)
    for _, hook in registry.AFTERMATH_HOOKS.items():   # the chapters' own (magic: spells cast, items' uses)
        out = hook(out, combatant, rules, events)
    return out, events


def _say(events: list[Event], who: Character, change: str, rules: tuple[str, ...] = (), **values: Any) -> None:
    """What the fight left on her: one `after_fight` fact with the change's code and its values."""
    events.append(fact(AFTER_FIGHT, who, (), rules, change=change, **values))


def _life(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """HP, and dead, dying, stabilised or up (F-DEATH-01/02, AMB-28)."""
    if c.hp != ch.hp:
        _say(events, ch, "hp", hp_before=ch.hp, hp_after=c.hp)
    if c.status == "dead":
        cause = c.cause_of_death or "died in the fight"
        _say(events, ch, "dead", ("F-DEATH-01", "F-DEATH-02"), cause=cause)
        return ch.model_copy(update={"hp": c.hp, "dead": ch.dead or cause})
    down = {"dying": "DYING", "stable": "UNCONSCIOUS", "unconscious": "UNCONSCIOUS"}.get(c.status)
    conditions = [x for x in ch.conditions if x not in DOWN or x == down]
    if down and down not in conditions:
        conditions.append(down)
        _say(events, ch, "dying" if down == "DYING" else "stable", ("F-DEATH-01",), hp=c.hp)
    elif not down and len(conditions) < len(ch.conditions):
        _say(events, ch, "up_again", conditions=[x for x in ch.conditions if x in DOWN])
    return ch.model_copy(update={"hp": c.hp, "conditions": conditions})


def _scores(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """Ability scores an injury took (F-INJ-01); a temporary loss is remembered for rest (AMB-32, H-HEAL-06)."""
    if not c.scores or c.scores == ch.scores:
        return ch
    temporary = marks(c).temporary_loss
    for ability, after in c.scores.items():
        before = ch.scores[ability]
        if after != before:
            loss = "temporary" if temporary.get(ability) else "permanent"
            _say(events, ch, "ability", ("AMB-32",), ability=ability, before=before, after=after, loss=loss)
    out = ch.model_copy(update={"scores": dict(c.scores)})
    if not temporary:
        return out
    state = dict(out.extensions.get(HAZARDS_KEY, {}))
    losses = dict(state.get("temporary_loss", {}))
    for ability, lost in temporary.items():
        losses[ability] = int(losses.get(ability, 0)) + lost
    return out.model_copy(update={"extensions": {**out.extensions,
                                                 HAZARDS_KEY: {**state, "temporary_loss": losses}}})


def _healed(entry: str, names: tuple[str, ...]) -> bool:
    return any(entry.lower().startswith(n.lower()) for n in names)


def _injuries(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """The injuries she gained (the row's text and its lasting mark), without those healed (AMB-34)."""
    kept = [i for i in ch.injuries if not _healed(i, marks(c).healed_injuries)]
    for gone in (i for i in ch.injuries if i not in kept):
        _say(events, ch, "injury_healed", ("AMB-34",), injury=gone)
    new = list((Counter(c.injuries) - Counter(ch.injuries)).elements())
    for injury in new:
        _say(events, ch, "injury", injury=injury)
    return ch.model_copy(update={"injuries": [*kept, *new]})


def _markers(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """Markers that outlast the fight: until rest → `until_rest` lines (D-7); a lasting condition → conditions;
    a lasting modifier or wound → extensions["fight"]["held"]. Wounds healed in the fight leave."""
    until_rest, conditions = list(ch.until_rest), list(ch.conditions)
    state = dict(ch.extensions.get(FIGHT_KEY, {}))
    held = [h for h in state.get("held", []) if not _closed(h, marks(c).healed_injuries)]
    for h in c.held:
        if h.ending == "rest" and not written(h, until_rest):
            until_rest.append(until_rest_line(h))
            _say(events, ch, "until_rest", ("D-7",), condition=h.name, source=h.source)
        elif h.ending in OUTLASTING and h.name in CONDITIONS and h.name not in conditions and h.source != CARRIED:
            conditions.append(h.name)
            _say(events, ch, "keeps_condition", condition=h.name, source=h.source)
        elif h.ending in OUTLASTING and h.name not in CONDITIONS and _dump(h) not in held:
            held.append(_dump(h))
            _say(events, ch, "keeps_marker", condition=h.name, source=h.source)
    state = {**state, "held": held} if held else {k: v for k, v in state.items() if k != "held"}
    return ch.model_copy(update={"until_rest": until_rest, "conditions": conditions,
                                 "extensions": _with_fight_state(ch, state)})


def _dump(h: Held) -> dict[str, Any]:
    return h.model_dump(mode="json")


def _closed(h: dict[str, Any], healed: tuple[str, ...]) -> bool:
    return str(h.get("name", "")).startswith("EVERY:") and str(h.get("source", "")) in healed


def _with_fight_state(ch: Character, state: dict[str, Any]) -> dict[str, Any]:
    others = {k: v for k, v in ch.extensions.items() if k != FIGHT_KEY}
    return {**others, FIGHT_KEY: state} if state else others


def _luck(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """F-LUCK-01/02: the Luck Dice she holds at the end of the fight and the run of failures she is on (her
    player's, shared in it): a streak begun in the fight goes on after it."""
    before = luck.held_by(ch)
    if c.luck_dice != ch.luck_dice:
        _say(events, ch, "luck_dice", ("F-LUCK-01",), before=ch.luck_dice, after=c.luck_dice)
    if c.luck_streak != before.streak:
        _say(events, ch, "luck_streak", ("F-LUCK-01",), before=before.streak, after=c.luck_streak)
    return luck.kept(ch, luck.LuckState(c.luck_dice, c.luck_streak))


def _armor(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """AMB-35, M-ARM-03: the protection her armor lost in the fight; at 0 it is broken (armor_damage_scale)."""
    armor_lost = wear(c).armor_lost
    if not armor_lost or ch.armor is None:
        return ch
    total, lost = armor_points(ch.armor, rules), ch.armor_damage + armor_lost
    if lost >= total:
        _say(events, ch, "armor_broken", ("AMB-35",), armor=ch.armor, total=total)
        return ch.model_copy(update={"armor": None, "armor_damage": 0, "armor_magic": 0})
    _say(events, ch, "armor_damaged", ("AMB-35",), armor=ch.armor, lost=armor_lost, left=total - lost, total=total)
    return ch.model_copy(update={"armor_damage": lost})


def _shield_and_helmet(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """F-EQ-03 (a sundered shield), M-ARM-03 (a shield or helmet that failed its save): destroyed."""
    update: dict[str, Any] = {}
    if ch.shield and not c.shield:
        update.update(shield=False, shield_magic=0)
        _say(events, ch, "shield_destroyed", ("F-EQ-03",))
    if ch.helmet and not c.helmet:
        update["helmet"] = False
        _say(events, ch, "helmet_destroyed", ("M-ARM-03",))
    return ch.model_copy(update=update) if update else ch


def _weapon(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """The weapon she fought with: notches (M-WPN-02; F-TAB-36 row 4 under fumble_damage_notches, CF-34), a
    cracked haft (M-WPN-05), broken (F-TAB-36 row 8, F-TAB-38 row 15, M-WPN)."""
    lost = marks(c).weapon_lost
    name = lost or c.weapon
    index = next((i for i, w in enumerate(ch.weapons) if w.name == name), None)
    worn = wear(c)
    if index is None or not (lost or worn.weapon_notches or worn.weapon_cracked):
        return ch
    weapon = ch.weapons[index]
    update: dict[str, Any] = {}
    if worn.weapon_notches:
        update["notches"] = weapon.notches + worn.weapon_notches
        _say(events, ch, "weapon_notched", ("M-WPN-02",), weapon=name, notches=update["notches"])
    if worn.weapon_cracked and not weapon.cracked:
        update["cracked"] = True
        _say(events, ch, "weapon_cracked", ("M-WPN-05",), weapon=name)
    if lost and not weapon.broken:
        update["broken"] = True
        _say(events, ch, "weapon_broken", ("REF-22",), weapon=name)
    weapons = [*ch.weapons[:index], weapon.model_copy(update=update), *ch.weapons[index + 1:]]
    return ch.model_copy(update={"weapons": weapons})


def _rages(ch: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """AMB-46: the Rages she used count until her next long rest (rage_uses_per_long_rest)."""
    spent = marks(c).rages_spent
    if not spent:
        return ch
    state = dict(ch.extensions.get(FIGHT_KEY, {}))
    used = int(state.get("rages_used", 0)) + spent
    cap = int(rules["rage_uses_per_long_rest"])
    _say(events, ch, "rages_used", ("AMB-46",), used=used, cap=cap)
    return ch.model_copy(update={"extensions": _with_fight_state(ch, {**state, "rages_used": used})})
