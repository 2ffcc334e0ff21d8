"""After a fight (`furnace.play.aftermath.settle`): what the fight did to a player character, written back to her
Character — HP, dying and death (F-DEATH-01/02), injuries and their markers (F-INJ-01, AMB-34, D-7), ability loss
(AMB-32), Luck Dice (F-LUCK-01), Spell Depletion (F-MU-04), armor protection (AMB-35), a sundered shield (F-EQ-03),
a notched or broken weapon (CF-34, F-TAB-36) and the Rages used (AMB-46). Each test fights with scripted dice,
then settles and asserts the character's numbers.
"""

from __future__ import annotations

from typing import Any

from furnace.characters.character import Character, Weapon
from furnace.dice import ScriptedDice
from furnace.hazards.scores import recover
from furnace.magic.state import with_magic
from furnace.play.aftermath import settle
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant, from_character
from furnace.play.conditions import Held
from furnace.play.encounter import Action, act, take_turn
from furnace.play.state import Encounter, Step
from furnace.play.wear import wear
from furnace.render.story import tell_referee
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import encounter, fighter, fighting, monster, step

RULES = load_ruleset()
SCORES = {"STR": 12, "DEX": 12, "CON": 12, "INT": 12, "WIS": 12, "CHA": 12}
# a level-1 Fighter: scores 12 (+0), PROF +1: ATK +1 with her 1d8 arming sword; boiled leather (AC 11) and a shield:
# AC 13; 10 HP
BRAKKA: dict[str, Any] = dict(name="Brakka", scores=SCORES, hit_dice=1,
                             weapons=[Weapon(name="arming sword", damage="1d8")], armor="boiled-leather", shield=True,
                             player="Ann")
OGRE: dict[str, Any] = dict(name="Ogre", level=3, damage="1d8", saves={})   # 50 HP, AC 12, ATK +2


def kinds(events: list[Any]) -> list[str]:
    """What the fight left on her, by each fact's change (its code)."""
    return [str(e.data.get("change", e.kind)) for e in events]


def test_a_fight_notches_her_sword_sunders_her_shield_spends_her_rage_and_earns_luck() -> None:
    """At HP 6 she rages (AC 13 → 12) and fumbles (d20 1; light armor d8 face 4: under fumble_damage_notches a
    notch, ATK +1 → +0); the ogre's blow (d20+2 face 15, 1d8 face 8) would drop her: the shield sunders, she takes
    4 (HP 2); she misses (face 2: her second failure in a row, after the fumble, earns a Luck Die). Settled: HP 2,
    no shield, 1 notch, 1 Rage used of 1, 1 Luck Die; in her next fight no Rage left and AC 11."""
    rules = RULES.with_options({"fumble_damage_notches": True})
    barbarian = fighter(BRAKKA, features=["rage"], hp=6)
    enc = encounter(fighting(barbarian, "h"), monster("o", OGRE))
    dice = ScriptedDice([1, 4, 15, 8, 2])
    enc, _ = take_turn(enc, "h", Action("attack", "o"), dice, rules)
    enc, _ = take_turn(enc, "o", Action("attack", "h"), dice, rules)
    enc, _ = take_turn(enc, "h", Action("attack", "o"), dice, rules)
    assert dice.remaining == 0
    after, events = settle(barbarian, enc.get("h"), rules)
    assert (after.hp, after.shield, after.luck_dice) == (2, False, 1)
    assert after.weapons[0].notches == 1 and not after.weapons[0].broken
    assert after.extensions["fight"]["rages_used"] == 1
    assert {"hp", "shield_destroyed", "weapon_notched", "luck_dice", "rages_used"} <= set(kinds(events))
    assert all(e.who == "Brakka" and tell_referee(e) for e in events)
    again = from_character(after, "a", rules)
    assert (again.rages_left, again.ac) == (0, 11)


def test_dying_at_the_end_of_the_fight_she_stays_at_her_hp_with_dying() -> None:
    """F-DEATH-01: at HP 2 the ogre's 1d8 (face 5) drops her to −3 (bleeds out in 1d4 = 3 turns). Settled: HP −3
    and DYING; then an ally's Medicine CHECK (face 15) and the injury roll (face 17, every CHECK HARD until rest)
    make her UNCONSCIOUS with the until-rest line."""
    down = fighter(BRAKKA, hp=2, shield=False)
    ally = from_character(fighter(BRAKKA, name="Ilse", shield=False), "a", RULES, zone="CLOSE", id="i")
    enc = encounter(fighting(down, "h"), monster("o", OGRE), ally)
    dice = ScriptedDice([15, 5, 3])
    enc, _ = take_turn(enc, "o", Action("attack", "h"), dice, RULES)
    after, events = settle(down, enc.get("h"), RULES)
    assert (after.hp, after.conditions, after.dead) == (-3, ["DYING"], None) and "dying" in kinds(events)
    dice = ScriptedDice([15, 17])
    enc, _ = take_turn(enc, "i", Action("stabilise", "h"), dice, RULES)
    after, _ = settle(down, enc.get("h"), RULES)
    assert (after.hp, after.conditions) == (-3, ["UNCONSCIOUS"])
    assert after.until_rest == ["MOD:checks:HARD: checks HARD"]
    assert after.injuries == ["Every CHECK is HARD until the next rest."]


def test_death_in_the_fight_is_written_with_its_cause() -> None:
    """F-DEATH-02: a level-1 PC with CON +0 dies at −(3 + 1 + 0) = −4: at HP 2 a 1d8 blow of 8 leaves −6."""
    doomed = fighter(BRAKKA, hp=2, shield=False)
    enc = encounter(fighting(doomed, "h"), monster("o", OGRE))
    enc, fought = take_turn(enc, "o", Action("attack", "h"), ScriptedDice([15, 8]), RULES)
    after, events = settle(doomed, enc.get("h"), RULES)
    assert after.hp == -6 and after.dead == "threshold"       # the cause's code; its numbers are the fact's
    death = next(e for e in fought if e.kind == "death")
    assert (death.data["hp"], death.data["level"], death.data["con"], death.data["threshold"]) == (-6, 1, 0, -4)
    assert "−(3 + LVL 1 + CON 0) = -4" in tell_referee(death)
    dead = next(e for e in events if e.data.get("change") == "dead")
    assert "is dead: past her death threshold" in tell_referee(dead)


def stabilised(character: Character, injury_faces: list[int], rules: Ruleset = RULES) -> Combatant:
    """She is dying (HP −1, 3 turns); an ally's Medicine CHECK (face 15) stabilises her and she rolls her injury."""
    c = fighting(character, "h", rules=rules, hp=-1, status="dying", dying_turns=3)
    ally = fighting(fighter(BRAKKA, name="Ilse"), "i", rules=rules)
    s, _ = step(c, ally, faces=[15, *injury_faces], rules=rules)
    act(s, "i", Action("stabilise", "h"))
    return s.c("h")


def test_damaged_armor_breaks_boiled_leather_and_the_injury_is_kept() -> None:
    """AMB-35, F-TAB-37b row 8–13 (face 9) → F-TAB-38 row 16 'Damaged armor': boiled leather holds 1 point of
    protection, so the −2 takes that 1 (AC 13 → 12) and breaks it. Settled: no armor, armor_damage 0, the two
    injury texts kept."""
    c = stabilised(fighter(BRAKKA), [9, 16])
    assert (c.ac, wear(c).armor_lost) == (12, 1)
    after, events = settle(fighter(BRAKKA), c, RULES)
    assert (after.armor, after.armor_damage) == (None, 0)
    assert after.injuries == ["Roll on the Lingering Injuries table.",
                              "Damaged armor: -2 AC until repaired; armor brought to 0 breaks."]
    assert {"armor_broken", "injury"} & set(kinds(events))


def test_damaged_chain_mail_keeps_the_lost_protection() -> None:
    """AMB-35: chain mail holds 5 points; a Damaged Armor result takes 2 (AC 15 + shield 2 = 17 → 15): settled,
    armor_damage 2 and the character's AC 15 until repaired."""
    knight = fighter(BRAKKA, armor="chain-mail")
    c = stabilised(knight, [9, 16])
    after, _ = settle(knight, c, RULES)
    assert (after.armor, after.armor_damage, after.ac(RULES)) == ("chain-mail", 2, 15)


def test_AMB_32_a_temporary_injury_loss_comes_back_with_a_week_of_rest() -> None:
    """AMB-32 (injury_ability_loss temporary): injury row 2, STR −1d6 (face 3): 12 → 9, remembered; a week of
    Hazards rest gives 1 back (10). Permanent (default): 9, and a week gives nothing."""
    temporary = RULES.with_options({"injury_ability_loss": "temporary"})
    after, _ = settle(fighter(BRAKKA), stabilised(fighter(BRAKKA), [2, 3], temporary), temporary)
    assert after.scores["STR"] == 9 and after.extensions["hazards"]["temporary_loss"] == {"STR": 3}
    assert recover(after, 1, temporary)[0].scores["STR"] == 10
    after, _ = settle(fighter(BRAKKA), stabilised(fighter(BRAKKA), [2, 3]), RULES)
    assert after.scores["STR"] == 9 and recover(after, 1, RULES)[0].scores["STR"] == 9


def test_AMB_34_a_lasting_injury_keeps_working_out_of_the_fight() -> None:
    """F-TAB-38 rows 3 (one eye: ranged ATK HARD) and 4–5 (foot: MOVE_NEAR_ONLY), rolled through injury rows 8–13:
    settled, the foot is a condition and the eye a lasting marker, and both come back into her next fight."""
    c = stabilised(fighter(BRAKKA), [8, 4])
    after, _ = settle(fighter(BRAKKA), c, RULES)
    assert "MOVE_NEAR_ONLY" in after.conditions and "foot" in after.injuries
    c = stabilised(after, [8, 3])
    after, _ = settle(after, c, RULES)
    kept = after.extensions["fight"]["held"]
    assert {(h["name"], h["source"], h["ending"]) for h in kept} >= {("MOD:ranged_atk:HARD", "one eye", "permanent")}
    again = from_character(after, "a", RULES)
    assert {"MOVE_NEAR_ONLY", "MOD:ranged_atk:HARD"} <= {h.name for h in again.held}


def test_AMB_34_an_open_wound_healed_in_the_fight_leaves_no_trace() -> None:
    """F-TAB-38 rows 12–13 (face 12) open wound, then healing 2 in the fight: settled, neither the wound nor its
    drain is kept. A wound not healed is kept as a drain that comes back into the next fight."""
    c = stabilised(fighter(BRAKKA), [8, 12])
    after, _ = settle(fighter(BRAKKA), c, RULES)
    assert "open wound" in after.injuries and after.extensions["fight"]["held"][0]["name"] == "EVERY:damage"
    s = Step(Encounter(room_dc=12, round=1, combatants=(from_character(after, "a", RULES, id="h"),)),
             ScriptedDice([]), RULES)
    apply_all(s, [parse_effect({"kind": "heal", "dice": "2", "target": "self"})], actor="h", target="h")
    healed, events = settle(after, s.c("h"), RULES)
    assert not any(i.lower().startswith("open wound") for i in healed.injuries)
    assert "fight" not in healed.extensions or not healed.extensions["fight"].get("held")
    assert "injury_healed" in kinds(events)


def test_F_TAB_36_a_broken_sword_is_broken_on_her_sheet() -> None:
    """F-TAB-36 row 8 (heavy armor d12, face 8): she breaks her own weapon and fights on with a fist. Settled: her
    arming sword is broken."""
    knight = fighter(BRAKKA, armor="chain-mail")
    enc = encounter(fighting(knight, "h"), monster("o", OGRE))
    enc, _ = take_turn(enc, "h", Action("attack", "o"), ScriptedDice([1, 8]), RULES)
    assert enc.get("h").weapon == "fist"
    after, _ = settle(knight, enc.get("h"), RULES)
    assert after.weapons[0].broken and after.weapons[0].name == "arming sword"


def test_F_MU_04_spells_cast_and_lockouts_until_rest_are_written_back() -> None:
    """F-MU-04, D-7: two spells cast in the fight and a Spell Depletion held to rest: settled, spells_cast 2 and
    the DEPLETED line that magic reads back."""
    mage = fighter(BRAKKA, name="Mira", char_class="Magic-user", shield=False, armor=None)
    fought = from_character(mage, "a", RULES)
    c = fought.model_copy(update={**with_magic(fought, spells_cast=2),
                                  "held": (Held(name="DEPLETED", source="Spell Depletion", ending="rest"),)})
    after, _ = settle(mage, c, RULES)
    assert after.spells_cast == 2 and after.until_rest == ["DEPLETED: Spell Depletion"]
    again, _ = settle(after, from_character(after, "a", RULES).model_copy(update={"held": c.held}), RULES)
    assert again.until_rest == ["DEPLETED: Spell Depletion"]
