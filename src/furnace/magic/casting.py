"""Casting rules on the character: spells known, cantrips, SPELLCHECKs with their mishaps and divine
disapproval, Spell Depletion, scrolls, and Lay on Hands with its daily cap.

F-CLR-03…08, F-MU-03…06, F-ARCH-03…05 (spell parts), F-SPELL-10/11, D-7, D-10, CF-16, CF-17, AMB-15, AMB-41.
A spell over the cap of spells known is forgotten until the cap rises, or kept (option spells_over_cap, AMB-47).
The caster's state (short of sleep, drunk …: `furnace.play.registry.state_modifiers`) reaches every SPELLCHECK
and every SAVE made here (mishap SAVEs, Spell Depletion). Magical healing ends the torso wound (D-8).
A mishap row that casts a spell (AMB-21) is resolved here too: the spell and its target are picked with the
dice, its SL rolled, its row's damage rolled and dealt to the caster when she is the one it lands on; what
lands on others is in `Casting.loosed` for the referee. Cantrips: `furnace.magic.cantrips`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.dice import DiceSource, RollResult
from furnace.errors import IllegalActionError
from furnace.events import Audience, Event, Part, declare
from furnace.magic import cantrips as _cantrips
from furnace.magic.cantrips import armor_refusal
from furnace.magic.items import day_renews, renew_uses
from furnace.magic.mishaps import Loosed, lockouts, loose, spell_effects, until_rest_line
from furnace.magic.spellcheck import Spellcheck, spellcheck
from furnace.magic.spells import WONDER_SL, Cast, Spell, cast, get_spell
from furnace.play import registry
from furnace.play.apply import SAVE
from furnace.play.checks import Modifier
from furnace.play.death import DAMAGE
from furnace.play.rest import heal_by_magic, pool_size, spend_hit_die
from furnace.rules.effects import Ability, Condition, Damage, Save, SpellEffect
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import TableRoll

CASTERS: dict[str, Ability] = {"Cleric": "WIS", "Magic-user": "INT"}
DEPLETION_AFTER = 4
CANTRIPS_KNOWN = _cantrips.CANTRIPS_KNOWN
LOCKOUTS = ("CANT_CAST", "DEPLETED")

# The facts of casting, in a fight (`furnace.magic.fight`) and out of one, and who may know each value: the
# caster's numbers are known as she is (a PC's by the table, a monster's by the referee).
SPELLCHECK = declare(
    "spellcheck", targets=1, spell="actor", prayer="public", condition="public", ability="public", natural="actor",
    total="actor", rolled="actor", crit="public", crit_bonus="actor", state="actor", sl_from="actor", shift="actor",
    luck_dice="actor", luck_before="actor", luck_after="actor", sl_before="actor", sl_after="actor",
    low_total="public", sl="actor", band="actor", success="public", mishap="public", needed="public", dc="public",
    room_dc="public", easy="public", hard="public", dc_repeats="public", dc_capped="public", spell_dice="actor",
    wonder="public",
    example={"spell": "Fireball", "prayer": "", "condition": "", "ability": "INT", "natural": 15, "total": 19,
             "rolled": 15, "crit": False, "state": [[-2, "short of sleep"]], "low_total": False, "sl": 2,
             "band": 2, "success": True, "mishap": False, "needed": 12, "dc": 12, "room_dc": 12,
             "easy": ["scroll (Wizard)"], "hard": [], "dc_repeats": [], "dc_capped": False, "spell_dice": 2,
             "wonder": False})
SPELL = declare("spell", spell="actor", sl="actor", text="actor", crit_dice="actor", crit_damage="public",
                example={"spell": "Fireball", "sl": 2, "text": "1d6 fire DAM to the target and all CLOSE to it",
                         "crit_dice": "2d6", "crit_damage": True})
MISHAP = declare("mishap", spell="actor", table="public", title="public", total="actor", row="actor", text="actor",
                 example={"spell": "Fireball", "table": "mishap-fireball", "title": "Fireball mishap table",
                          "total": 3, "row": "3", "text": "The caster takes 1d6 fire DAM"})
DISAPPROVAL = declare("disapproval", spell="actor", range="actor", total="actor", row="actor", text="actor",
                      example={"spell": "Chill Touch", "range": 2, "total": 5, "row": "5",
                               "text": "A sting of holy light: the cleric takes 1d4 radiant DAM"})
DISAPPROVAL_RANGE = declare("disapproval_range", before="actor", after="actor")
DEPLETION = declare("depletion", spells="public", total="actor", dc="public", saved="public",
                    example={"spells": 4, "total": 9, "dc": 14, "saved": False})
LOOSED = declare("mishap_spell", targets=1, spell="actor", sl="actor", text="actor", target="referee",
                 creature="public", no_row="public", wonder="public",
                 example={"spell": "Chill Touch", "sl": 3, "text": "2d8 cold DAM", "target": "m", "creature": "",
                          "no_row": False, "wonder": False})
LAY_ON_HANDS = declare("lay_on_hands", targets=1, total="actor", hd="public", allowed="public", pool="target",
                       today="target", cap="target", crit_hd="public",
                       example={"total": 16, "hd": 2, "allowed": 2, "pool": 3, "today": 0, "cap": 3, "crit_hd": 0})
CURE_ASKED = declare("cure_asked", targets=1, condition="public", example={"condition": "broken bone"})
CURE = declare("cure", targets=1, condition="public", cured="public",
               example={"condition": "broken bone", "cured": True})
EXTRA_HIT_DIE = declare("extra_hit_die", total="actor", dc="public", saved="public", before="actor", after="actor",
                        example={"total": 12, "dc": 12, "saved": True, "before": 1, "after": 2})


def _fact(kind: str, character: Character, rolls: Sequence[RollResult] = (), rules: Sequence[str] = (), *,
          to: Sequence[Character] = (), audience: Audience = "all", **values: Any) -> Event:
    """A fact of casting out of a fight: the character acts (her name is her id), on the characters `to`."""
    cast = {c.name: Part(c.name, "pc", c.player or "") for c in (character, *to)}
    return Event(kind, character.name, tuple(c.name for c in to), tuple(rolls), values, tuple(rules), cast, audience)


def spellcheck_fact(character: Character, check: Spellcheck, spell: str | None = None, *,
                    to: Sequence[Character] = (), **values: Any) -> Event:
    """The SPELLCHECK as a fact: its numbers and outcome (`Spellcheck.values`), the spell or prayer it was for."""
    named: dict[str, Any] = {"spell": spell} if spell else {}
    return _fact(SPELLCHECK, character, (check.roll,), check.rules, to=to, **named, **values, **check.values)


def casting_ability(character: Character, scroll: bool = False) -> Ability:
    if scroll and "scroll-reader" in character.archetype_features:
        return "INT"   # the Arcane Trickster reads arcane scrolls (F-ARCH-04)
    if character.char_class not in CASTERS:
        raise CharacterError(f"a {character.char_class or '0-level character'} casts no spells (F-CLR-03, F-MU-03)")
    return CASTERS[character.char_class]


def spells_known_cap(character: Character, rules: Ruleset | None = None) -> int:
    """Cleric 1 + LVL prayers (F-CLR-03); Magic-user 1 + LVL + INT (F-MU-05), +2 with Bookworm (F-ARCH-05)."""
    rules = rules or load_ruleset()
    if character.char_class == "Cleric":
        return 1 + character.level
    if character.char_class == "Magic-user":
        extra = 2 if "bookworm" in character.archetype_features else 0
        return max(0, 1 + character.level + character.mod("INT")) + extra
    return 0


def forgotten(character: Character, rules: Ruleset | None = None) -> list[str]:
    """AMB-47, option spells_over_cap: the spells past the cap (the last learned) are forgotten until the cap
    rises (`forgotten`, the default); under `kept` none is."""
    rules = rules or load_ruleset()
    if rules["spells_over_cap"] == "kept" or character.char_class not in CASTERS:
        return []
    return list(character.spells[spells_known_cap(character, rules):])


def _check_armor(character: Character, rules: Ruleset) -> None:
    """D-9: no SPELLCHECK (a spell, a prayer, Lay on Hands) in armor she is not proficient in."""
    refused = armor_refusal(character, rules)
    if refused:
        raise IllegalActionError(refused)


def spellcheck_state(character: Character) -> list[Modifier]:
    """What the character's state adds to a SPELLCHECK (short of sleep −N, H-SLEEP-01; the chapters register it)."""
    return [Modifier(p.spellcheck, p.source) for p in registry.state_modifiers(character) if p.spellcheck]


def save_roll(character: Character, ability: Ability, rng: DiceSource, rules: Ruleset, label: str) -> dice.RollResult:
    """d20 + the SAVE bonus (the modifier, PROF if proficient) + what the character's state adds to SAVEs (short
    of sleep −N, drunk −2: H-SLEEP-01, H-DRUG-02)."""
    bonus = character.mod(ability) + (character.prof(rules) if ability in character.saves else 0)
    state = sum(p.saves for p in registry.state_modifiers(character))
    if state:
        return dice.roll("d20+SAVE+STATE", rng, {"SAVE": bonus, "STATE": state}, label)
    return dice.roll("d20+SAVE", rng, {"SAVE": bonus}, label)


def learn_spell(character: Character, name: str, rules: Ruleset | None = None) -> Character:
    """Add a spell to what the character knows, within the cap."""
    rules = rules or load_ruleset()
    casting_ability(character)
    spell = get_spell(rules, name)
    if spell.name in character.spells:
        raise CharacterError(f"{character.name} already knows {spell.name}")
    cap = spells_known_cap(character, rules)
    if len(character.spells) >= cap:
        raise CharacterError(f"{character.name} knows {len(character.spells)} spells, the most a level-"
                             f"{character.level} {character.char_class} can (F-MU-05, F-CLR-03)")
    return character.model_copy(update={"spells": [*character.spells, spell.name]})


def learn_cantrip(character: Character, name: str, rules: Ruleset | None = None,
                  book: _cantrips.Cantrips | None = None) -> Character:
    """F-MU-06: a Magic-user knows 2 cantrips (the Arcane Trickster's Trickster feature: 1, F-ARCH-04), each
    from the cantrip list in force (`furnace.magic.cantrips`)."""
    return _cantrips.learn(character, name, rules, book)


@dataclass(frozen=True)
class Casting:
    """What happened when a character cast: the cast, a mishap or disapproval roll, depletion, events."""

    character: Character
    cast: Cast
    mishap: TableRoll | None = None
    events: tuple[Event, ...] = field(default=())     # facts: told by furnace.render.story
    loosed: tuple[Loosed, ...] = field(default=())    # spells a mishap let loose (AMB-21)


def _scroll_difficulty(character: Character, rules: Ruleset) -> tuple[list[str], list[str]]:
    """Scrolls: EASY for a Wizard (F-ARCH-05), HARD for an Arcane Trickster (F-ARCH-04)."""
    easy = ["scroll (Wizard)"] if "scroll-caster" in character.archetype_features else []
    hard = ["arcane scroll (Arcane Trickster)"] if "scroll-reader" in character.archetype_features else []
    return easy, hard


def cast_spell(character: Character, name: str, rng: DiceSource, room_dc: int, rules: Ruleset | None = None, *,
               scroll: bool = False, easy: Sequence[str] = (), hard: Sequence[str] = (), luck_dice: int = 0,
               target: str | None = None, creatures: Sequence[str] = ()) -> Casting:
    """A SPELLCHECK for a known spell (or from a scroll), with mishap, disapproval and depletion.

    `target` is whom the spell is aimed at (a lockout may bar it, F-TAB-18 10–11); `creatures` are the others
    in the spell's range, among whom a mishap's random target is picked (AMB-21; with none given, the referee
    picks it)."""
    rules = rules or load_ruleset()
    ability = casting_ability(character, scroll)
    spell = get_spell(rules, name)
    blocked = blocked_by(character, spell.name, target) or armor_refusal(character, rules)
    if blocked:
        raise IllegalActionError(blocked)
    _check_known(character, spell.name, scroll, rules)
    scroll_easy, scroll_hard = _scroll_difficulty(character, rules) if scroll else ([], [])
    check = spellcheck(rng, character.mod(ability), character.prof(rules), room_dc, rules,
                       easy=[*easy, *scroll_easy], hard=[*hard, *scroll_hard], luck_dice=luck_dice,
                       ability=ability, label="SPELLCHECK",
                       state=spellcheck_state(character))
    done = cast(spell, check)
    events = [spellcheck_fact(character, check, spell.name)]
    if done.row is not None:
        events.append(spell_fact(character, done))
    aim = _Aim(target, tuple(creatures))
    character, mishap, loosed = _natural_rolls(character, spell, check, rng, rules, events, room_dc, aim)
    character = _depletion(character, check, rng, room_dc, rules, events)
    return Casting(character, done, mishap, tuple(events), loosed)


def spell_values(done: Cast) -> dict[str, Any]:
    """What the spell fact keeps of a cast that bought a row: the spell, the SL, the row's text, and a natural
    20's extra Spell Dice (F-SPELL-08)."""
    values: dict[str, Any] = {"spell": done.spell.name, "sl": done.check.sl,
                              "text": done.row.text if done.row is not None else ""}
    if done.crit_dice:
        values |= {"crit_dice": done.crit_dice, "crit_damage": done.crit_damage}
    return values


def spell_fact(character: Character, done: Cast) -> Event:
    return _fact(SPELL, character, (), ("F-SPELL-08",) if done.crit_dice else (), **spell_values(done))


def _check_known(character: Character, spell: str, scroll: bool, rules: Ruleset) -> None:
    """AMB-47: only a spell known (and not forgotten under spells_over_cap) is cast; a scroll needs none."""
    if scroll:
        return
    if spell not in character.spells:
        raise IllegalActionError(f"{character.name} does not know {spell}")
    if spell in forgotten(character, rules):
        raise IllegalActionError(f"{character.name} has forgotten {spell}: she knows {len(character.spells)} spells, "
                                 f"over her cap of {spells_known_cap(character, rules)}, until the cap rises "
                                 "(spells_over_cap: forgotten, AMB-47)")


@dataclass(frozen=True)
class _Aim:
    target: str | None = None
    creatures: tuple[str, ...] = ()


def _natural_rolls(character: Character, spell: Spell, check: Spellcheck, rng: DiceSource, rules: Ruleset,
                   events: list[Event], room_dc: int, aim: _Aim = _Aim(),
                   ) -> tuple[Character, TableRoll | None, tuple[Loosed, ...]]:
    """A natural 1 is a mishap (the spell's own table, else the general one); a Cleric's natural roll
    within the disapproval range is disapproval instead (D-10, CF-16, option cleric_natural_1)."""
    cleric = character.char_class == "Cleric"
    mode = str(rules["cleric_natural_1"])
    mishap: TableRoll | None = None
    loosed: tuple[Loosed, ...] = ()
    if cleric and check.natural <= character.disapproval and mode in ("disapproval", "also_mishap"):
        character, mishap = disapproval(character, rng, room_dc, rules, events, spell.name)
        if check.natural != 1 or mode == "disapproval":
            return _after_prayer(character, check, events), mishap, loosed
    if check.mishap:
        table = spell.mishap_table or "mishap"
        rolled = rules.tables.roll(table, rng, label="mishap")
        events.append(_fact(MISHAP, character, (rolled.roll,), ("F-SPELL-10", rolled.table.id),
                            **table_values(rolled), spell=spell.name))
        mishap = rolled
        character = _lockouts(character, rolled, rng, room_dc, rules, events, spell.name, aim.target)
        character, loosed = _loose(character, spell, rolled, rng, rules, events, aim)
    return (_after_prayer(character, check, events) if cleric else character), mishap, loosed


def table_values(rolled: TableRoll) -> dict[str, Any]:
    """What a fact keeps of a roll on a mishap or disapproval table: the table, the total and the row."""
    return {"table": rolled.table.name, "title": rolled.table.title, "total": rolled.roll.total,
            "row": rolled.row.span, "text": rolled.row.text}


def loosed_values(done: Loosed) -> dict[str, Any]:
    """What the mishap_spell fact keeps of a spell a mishap let loose (AMB-21)."""
    values: dict[str, Any] = {"spell": done.spell.name, "sl": done.sl,
                              "text": done.row.text if done.row is not None else ""}
    if done.row is None:
        values["no_row"] = True
    if done.sl == WONDER_SL:
        values["wonder"] = True
    return values


def _loose(character: Character, spell: Spell, rolled: TableRoll, rng: DiceSource, rules: Ruleset,
           events: list[Event], aim: _Aim) -> tuple[Character, tuple[Loosed, ...]]:
    """AMB-21 out of a fight: each spell the row lets loose is picked, aimed and given its SL with the dice; its
    damage is rolled once, and dealt to the caster when she is the one it lands on (a backfire)."""
    out: list[Loosed] = []
    for effect in spell_effects(rolled.row.effect_list()):
        known = [get_spell(rules, s) for s in character.spells] or [spell]
        done = loose(effect, spell, known, rng, rules, _candidates(character, effect, aim), caster=character.name,
                     aimed=aim.target)
        out.append(done)
        rolls = list(done.rolls)
        for e in done.effects:
            if isinstance(e, Damage) and e.every is None and e.target == "target" and done.target == character.name:
                r = dice.roll(e.dice, rng, {"LVL": character.level, "PC_LVL": character.level}, "DAM")
                rolls.append(r)
                hurt = character.model_copy(update={"hp": max(-999, character.hp - r.total)})
                events.append(_fact(DAMAGE, character, (r,), ("AMB-21",), amount=r.total, hp_before=character.hp,
                                    hp_after=hurt.hp, hp_max=character.hp_max, means=done.spell.name, own=True))
                character = hurt
        if done.target == character.name:
            aimed: dict[str, Any] = {"to": (character,)}
        else:
            aimed = {"creature": done.target or ""}
        events.append(_fact(LOOSED, character, tuple(rolls), ("AMB-21",), **aimed, **loosed_values(done)))
    return character, tuple(out)


def _candidates(character: Character, effect: SpellEffect, aim: _Aim) -> Callable[[Spell], list[str] | None]:
    """AMB-21 out of a fight: a random target is the caster or one of the creatures the caller named (another
    creature for Polymorph's row 4); with none named, the referee picks."""
    others = list(aim.creatures)
    picks = None if not others else others if effect.target == "random_creature" else [character.name, *others]
    return lambda _spell: picks


def disapproval(character: Character, rng: DiceSource, room_dc: int, rules: Ruleset,
                events: list[Event], prayer: str | None = None) -> tuple[Character, TableRoll]:
    """Roll 1d4 + the disapproval range on the disapproval table (F-CLR-04, D-10); lockouts stay to rest."""
    rolled = rules.tables.roll("disapproval", rng, variables={"DISAPPROVAL": character.disapproval},
                               label="disapproval")
    named: dict[str, Any] = {"spell": prayer} if prayer else {}
    events.append(_fact(DISAPPROVAL, character, (rolled.roll,), ("F-CLR-04", rolled.table.id),
                        range=character.disapproval, **named, **table_values(rolled)))
    return _lockouts(character, rolled, rng, room_dc, rules, events, prayer), rolled


def _after_prayer(character: Character, check: Spellcheck, events: list[Event]) -> Character:
    """DCC-style: each failed prayer widens the disapproval range by one (F-CLR-04, D-10)."""
    if check.success or character.disapproval >= 20:
        return character
    wider = character.disapproval + 1
    events.append(_fact(DISAPPROVAL_RANGE, character, (), ("F-CLR-04",), before=character.disapproval, after=wider))
    return character.model_copy(update={"disapproval": wider})


def _lockouts(character: Character, rolled: TableRoll, rng: DiceSource, room_dc: int, rules: Ruleset,
              events: list[Event], spell_name: str | None, target: str | None = None) -> Character:
    """Rows that last until rest ("can't cast until REST") go on the character (D-7); an "X, Y SAVE" row
    lets the caster make the Y SAVE vs ROOM DC first, and X happens only on a failure (AMB-20)."""
    keep: list[str] = []
    for effect in rolled.row.effect_list():
        if isinstance(effect, Save):
            if _saves(character, effect, rng, room_dc, rules, events):
                continue
            candidates = list(effect.on_fail)
        else:
            candidates = [effect]
        for e in candidates:
            if isinstance(e, Condition) and e.duration is not None and e.duration.unit in ("until_rest", "permanent"):
                keep.append(until_rest_line(e.name, rolled.row.text, spell=spell_name, target=target))
    return character.model_copy(update={"until_rest": [*character.until_rest, *keep]}) if keep else character


def _saves(character: Character, save: Save, rng: DiceSource, room_dc: int, rules: Ruleset,
           events: list[Event]) -> bool:
    ability = save.ability or "CON"
    roll = save_roll(character, ability, rng, rules, f"{ability} SAVE")
    events.append(_fact(SAVE, character, (roll,), ("AMB-20",), ability=ability, total=roll.total, dc=room_dc,
                        saved=roll.total >= room_dc))
    return roll.total >= room_dc


def blocked_by(character: Character, spell_name: str, target: str | None = None) -> str | None:
    """Why this cast is refused, if it is: no casting at all, not this spell, or not at this creature, until rest
    (F-MU-04, F-TAB-18 8–9, 10–11, 14–15; D-7)."""
    for name, what, line in lockouts(character):
        if name in LOCKOUTS:
            return f"{character.name} cannot cast until a rest ({line})"
        if name == "CANT_CAST_THIS_SPELL" and what == spell_name:
            return f"{character.name} can't try {spell_name} again until a rest ({line})"
        if name == "CANT_TARGET_SAME" and target is not None and what == target:
            return f"{character.name} can't target {target} with a spell until a rest ({line})"
    return None


def _depletion(character: Character, check: Spellcheck, rng: DiceSource, room_dc: int, rules: Ruleset,
               events: list[Event]) -> Character:
    """F-MU-04: after 4 spells, an INT SAVE vs ROOM DC; a failure means no casting until rest (AMB-41)."""
    if character.char_class == "Cleric" and not rules["cleric_spell_depletion"]:
        return character
    if rules["spell_depletion_counts"] == "successes" and not check.success:
        return character
    count = character.spells_cast + 1
    if count < DEPLETION_AFTER:
        return character.model_copy(update={"spells_cast": count})
    save = save_roll(character, "INT", rng, rules, "INT SAVE")
    held = save.total >= room_dc
    events.append(_fact(DEPLETION, character, (save,), ("F-MU-04",), spells=count, total=save.total, dc=room_dc,
                        saved=held))
    if held:
        return character.model_copy(update={"spells_cast": 0})
    return character.model_copy(update={"spells_cast": 0,
                                        "until_rest": [*character.until_rest, "DEPLETED: Spell Depletion"]})


# -- Lay on Hands --------------------------------------------------------------------------------------
def heal_cap(character: Character, rules: Ruleset) -> int:
    """F-CLR-07: no more magical healing a day than the level in HD (a level-0 cap per option, CF-17)."""
    return character.level if character.level > 0 else int(rules["zero_level_heal_cap"])


def lay_on_hands(cleric: Character, recipient: Character, rng: DiceSource, room_dc: int,
                 rules: Ruleset | None = None) -> tuple[Character, Character, list[Event]]:
    """F-CLR-05: a SPELLCHECK (d20 + WIS + PROF) read on F-TAB-06 gives up to N HD, which the recipient
    spends from her own pool, within her daily cap; it needs 12 and the ROOM DC (AMB-15)."""
    rules = rules or load_ruleset()
    if cleric.char_class != "Cleric":
        raise CharacterError(f"{cleric.name} is not a Cleric")
    if cleric.name == recipient.name and not rules["loh_self"]:
        raise IllegalActionError("Lay on Hands on oneself is off (option loh_self)")
    _check_armor(cleric, rules)
    check = spellcheck(rng, cleric.mod("WIS"), cleric.prof(rules), room_dc, rules, ability="WIS",
                       label="SPELLCHECK", state=spellcheck_state(cleric))
    to = (recipient,) if recipient.name != cleric.name else ()
    events = [spellcheck_fact(cleric, check, to=to, prayer="lay_on_hands")]
    if check.natural <= cleric.disapproval and rules["cleric_natural_1"] != "mishap":   # AMB-15 (e)
        cleric, _ = disapproval(cleric, rng, room_dc, rules, events)
    if not check.success:
        cleric = _after_prayer(cleric, check, events)
        return cleric, recipient if cleric.name != recipient.name else cleric, events
    hd = int(rules.tables.get("lay-on-hands").lookup(check.total).data.get("hd", 0))
    extra = int(rules["loh_nat20_extra_hd"]) if check.crit else 0
    hd += extra
    allowed = min(hd, recipient.hit_dice, max(0, heal_cap(recipient, rules) - recipient.healed_today))
    events.append(_fact(LAY_ON_HANDS, cleric, (), ("F-CLR-05", "F-CLR-07", *(("AMB-15",) if extra else ())),
                        to=(recipient,), total=check.total, hd=hd, allowed=allowed, pool=recipient.hit_dice,
                        today=recipient.healed_today, cap=heal_cap(recipient, rules), crit_hd=extra))
    for _ in range(allowed):
        recipient, event = spend_hit_die(recipient, rng, rules, "Lay on Hands")
        events.append(event)
    recipient = recipient.model_copy(update={"healed_today": recipient.healed_today + allowed})
    if allowed:
        recipient = heal_by_magic(recipient, events, "Lay on Hands", rules)
    return cleric, recipient, events


def new_day(character: Character, rules: Ruleset | None = None, events: list[Event] | None = None) -> Character:
    """A new in-game day resets the daily healing count (F-CLR-07, AMB-14: not every long rest) and renews the
    magic items' daily uses (AMB-59) when the day governs them (option magic_item_uses_renew)."""
    fresh = character.model_copy(update={"healed_today": 0})
    return renew_uses(fresh, [] if events is None else events) if day_renews(rules or load_ruleset()) else fresh


def lay_on_hands_cure(cleric: Character, recipient: Character, condition: str, rng: DiceSource, room_dc: int,
                      rules: Ruleset | None = None, *, approved: bool = False,
                      ) -> tuple[Character, Character, list[Event]]:
    """F-CLR-06, CF-47: instead of HP, Lay on Hands may cure a condition (a broken bone, a disease, poison,
    paralysis …) when the referee approves it; it counts as one Cure Serious Wounds and heals no HP."""
    rules = rules or load_ruleset()
    to = (recipient,) if recipient.name != cleric.name else ()
    if not approved:
        return cleric, recipient, [_fact(CURE_ASKED, cleric, (), ("F-CLR-06",), to=(recipient,), audience="referee",
                                         condition=condition, referee_prompt=True)]
    _check_armor(cleric, rules)
    check = spellcheck(rng, cleric.mod("WIS"), cleric.prof(rules), room_dc, rules, ability="WIS",
                       label="SPELLCHECK", state=spellcheck_state(cleric))
    events = [spellcheck_fact(cleric, check, to=to, prayer="lay_on_hands", condition=condition)]
    if not check.success:
        return _after_prayer(cleric, check, events), recipient, events
    wanted = condition.lower()
    keep = {field: [x for x in getattr(recipient, field) if wanted not in x.lower()]
            for field in ("conditions", "injuries", "until_rest")}
    cured = any(len(keep[f]) != len(getattr(recipient, f)) for f in keep)
    events.append(_fact(CURE, cleric, (), ("F-CLR-06",), to=(recipient,), condition=condition, cured=cured))
    return cleric, recipient.model_copy(update=keep) if cured else recipient, events


def extra_hit_dice(recipient: Character, rng: DiceSource, room_dc: int, rules: Ruleset | None = None,
                   ) -> tuple[Character, list[Event]]:
    """F-CLR-08 (optional, off by default): after Lay on Hands, a CON SAVE vs ROOM DC regains one Hit Die
    into the pool (how many is the referee's, REF-05; one by default), never above the level's pool."""
    rules = rules or load_ruleset()
    if not rules["loh_extra_hd_recovery"]:
        raise CharacterError("the optional extra Hit Die recovery is off (option loh_extra_hd_recovery, F-CLR-08)")
    save = save_roll(recipient, "CON", rng, rules, "CON SAVE")
    if save.total < room_dc:
        return recipient, [_fact(EXTRA_HIT_DIE, recipient, (save,), ("F-CLR-08",), total=save.total, dc=room_dc,
                                 saved=False)]
    pool = min(pool_size(recipient, rules), recipient.hit_dice + 1)
    return recipient.model_copy(update={"hit_dice": pool}), [
        _fact(EXTRA_HIT_DIE, recipient, (save,), ("F-CLR-08",), total=save.total, dc=room_dc, saved=True,
              before=recipient.hit_dice, after=pool)]
