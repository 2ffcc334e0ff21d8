"""Magic wired into fights and out: spells a mishap lets loose (F-SPELL-10/11, AMB-21), the "not this spell" and
"not this creature" markers (F-TAB-18 8–9, 10–11; X-TAB-02 6), a character's lockouts carried into a fight
(F-MU-04, D-7), cantrips with no SPELLCHECK (F-MU-06, AMB-42), spells in the first phase of simultaneous
initiative (F-INIT-02), and the player's Luck Dice shared in a fight (F-LUCK-01, AMB-02).

Dice are scripted: `remaining == 0` proves the rule rolled exactly the dice the docstring counts.
"""

from __future__ import annotations

from typing import Any

import pytest

from furnace.characters.character import CharacterError
from furnace.dice import ScriptedDice
from furnace.errors import DataFileError, IllegalActionError, UnknownNameError
from furnace.events import Event
from furnace.magic import fight as magic_fight
from furnace.magic.cantrips import Cantrips, cast_cantrip, learn, load_cantrips, parse_cantrips
from furnace.magic.casting import cast_spell, learn_cantrip
from furnace.magic.state import magic_state
from furnace.play.apply import apply_all
from furnace.play.conditions import Held
from furnace.play.encounter import Action, act, run_round, tactic_attack_nearest, take_turn
from furnace.play.state import Encounter, Step
from furnace.rules.effects import Damage, parse_effect
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.actions import cast_in
from tests.helpers.factories import CASTER, FOE, encounter, mage, monster, pc

RULES = load_ruleset()
FLAT = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
EMBER: dict[str, Any] = dict(spells=["Fireball", "Ember Swarm", "Chill Touch"])   # a mage who knows Ember Swarm too


def loosing(enc: Encounter, spell: str, target: str, faces: list[int], who: str = "m",
            ) -> tuple[Encounter, list[Event], ScriptedDice]:
    """A cast with the mishap's loosed spells resolved (AMB-21)."""
    dice = ScriptedDice(faces)
    step = Step(enc, dice, RULES)
    magic_fight.cast_in_fight(step, who, spell, target)
    return step.enc, step.events, dice


def only(events: list[Event] | tuple[Event, ...], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


# -- 1. mishap rows that cast a spell (F-SPELL-10, AMB-21) ---------------------------------------------------
def test_F_SPELL_10_AMB_21_a_backfire_in_a_fight_hits_the_caster_at_sl_1d6() -> None:
    """F-TAB-18 20 'backfires on the caster at SL 1d6': Chill Touch, natural 1; d20 20; SL d6 3 → Chill Touch SL3
    on the caster: 2d8 cold (4 + 5 = 9, HP 12 → 3) and can't be healed for 1d4 (2) rounds: until round 3."""
    enc = encounter(pc("m", CASTER), monster("g1", FOE))
    after, events, dice = loosing(enc, "Chill Touch", "g1", [1, 20, 3, 4, 5, 2])
    assert dice.remaining == 0
    me = after.get("m")
    assert me.hp == 3 and [(h.name, h.until_round) for h in me.held] == [("CANT_BE_HEALED", 3)]
    assert after.get("g1").hp == 40
    loosed = only(events, "mishap_spell")
    assert (loosed.data["spell"], loosed.data["target"], loosed.data["sl"]) == ("Chill Touch", "m", 3)
    assert "referee" not in [e.kind for e in events]


def test_F_SPELL_10_AMB_21_a_random_known_spell_at_a_random_target() -> None:
    """F-TAB-18 1 'a random known spell goes off at SL 1d6': d2 face 2 picks Fireball of (Chill Touch,
    Fireball); it is ranged, so any creature may be hit: d3 face 3 picks G2 of (M, G1, G2); SL d6 1 → 1d6 fire
    (6): G2 40 → 34, nobody else touched."""
    enc = encounter(pc("m", CASTER), monster("g1", FOE), monster("g2", FOE))
    after, events, dice = loosing(enc, "Chill Touch", "g1", [1, 1, 2, 3, 1, 6])
    assert dice.remaining == 0
    assert [after.get(x).hp for x in ("m", "g1", "g2")] == [12, 40, 34]
    loosed = only(events, "mishap_spell")
    assert (loosed.data["spell"], loosed.data["target"], loosed.data["sl"]) == ("Fireball", "g2", 1)


def test_F_SPELL_11_AMB_21_fireball_mishap_5_can_strike_an_ally() -> None:
    """F-TAB-19 5 'the Fireball flies at a random target at SL 1d6': d3 face 2 picks the ally K of (M, K, G1)
    (allies included, AMB-21); SL d6 2 → Fireball SL2: 1d6 (5) to K and its side CLOSE to it: K 12 → 7."""
    ally = pc("k", CASTER, spells=(), spell_mod=None, char_class="Fighter", zone="CLOSE")
    enc = encounter(pc("m", CASTER), ally, monster("g1", FOE))
    after, _, dice = loosing(enc, "Fireball", "g1", [1, 5, 2, 2, 5])
    assert dice.remaining == 0
    assert [after.get(x).hp for x in ("m", "k", "g1")] == [12, 7, 40]


def test_F_SPELL_10_AMB_21_out_of_a_fight_the_backfire_wounds_the_caster() -> None:
    """Out of a fight: Chill Touch natural 1; F-TAB-18 20; SL d6 3 → 2d8 (4 + 5 = 9) to Mira: HP 12 → 3."""
    dice = ScriptedDice([1, 20, 3, 4, 5])
    done = cast_spell(mage(EMBER), "Chill Touch", dice, 12, RULES)
    assert dice.remaining == 0
    assert done.character.hp == 3
    assert [(x.spell.name, x.target, x.sl) for x in done.loosed] == [("Chill Touch", "Mira", 3)]
    assert "mishap_spell" in [e.kind for e in done.events]


def test_F_SPELL_10_AMB_21_out_of_a_fight_a_random_target_among_the_creatures_named() -> None:
    """F-TAB-18 16 'hits a random target instead (SL 1d6)': d3 face 3 picks the Ogre of (Mira, Goblin, Ogre); SL d6
    2: Ember Swarm SL2's effects are returned for the referee to apply; Mira is unhurt."""
    dice = ScriptedDice([1, 16, 3, 2])
    done = cast_spell(mage(EMBER), "Ember Swarm", dice, 12, RULES, target="Goblin", creatures=["Goblin", "Ogre"])
    assert dice.remaining == 0
    (loosed,) = done.loosed
    assert (loosed.spell.name, loosed.target, loosed.sl) == ("Ember Swarm", "Ogre", 2)
    assert loosed.row is not None and loosed.row.key == 2 and done.character.hp == 12


def test_AMB_21_option_mishap_random_sl() -> None:
    """AMB-21, option mishap_random_sl = 1d2: the backfired Chill Touch's SL is 1d2 (face 2 → SL2: 1d8 cold, 7):
    Mira's HP 12 → 5."""
    rules = load_ruleset(overrides={"mishap_random_sl": "1d2"})
    dice = ScriptedDice([1, 20, 2, 7])
    done = cast_spell(mage(EMBER), "Chill Touch", dice, 12, rules)
    assert dice.remaining == 0 and done.loosed[0].sl == 2 and done.character.hp == 5


# -- 2. "not this spell" and "not this creature" markers are enforced in fights ------------------------------
def test_F_TAB_18_8_cant_try_this_spell_again_is_refused_and_the_tactic_skips_it() -> None:
    """F-TAB-18 8–9: Chill Touch natural 1, d20 8, INT SAVE d20 1 + 4 = 5 < 12 fails: the marker names Chill
    Touch. Casting it again is refused; the tactic now casts Fireball (face 8 → SL1, d6 3: G1 40 → 37)."""
    enc = encounter(pc("m", CASTER), monster("g1", FOE))
    after, _, dice = cast_in(enc, "Chill Touch", "g1", [1, 8, 1])
    assert dice.remaining == 0
    assert [(h.name, h.source, h.ending) for h in after.get("m").held] == [("CANT_CAST_THIS_SPELL", "Chill Touch",
                                                                             "rest")]
    with pytest.raises(IllegalActionError, match="can't try Chill Touch again until a rest"):
        act(Step(after, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Chill Touch"))
    action = tactic_attack_nearest(after, after.get("m"))
    assert (action.kind, action.detail) == ("cast", "Fireball")
    later, _, dice = cast_in(after, "Fireball", "g1", [8, 3])
    assert later.get("g1").hp == 37 and dice.remaining == 0


def test_F_TAB_18_10_cant_target_the_same_creature_is_refused_and_the_tactic_attacks() -> None:
    """F-TAB-18 10–11 (no save): the marker names G1, the creature the failed spell was aimed at. A spell at G1 is
    refused; G2 may be targeted (face 8 → SL1, d6 3: 40 → 37); the tactic, whose nearest foe is G1, attacks."""
    enc = encounter(pc("m", CASTER), monster("g1", FOE), monster("g2", FOE, zone="NEAR"))
    after, _, dice = cast_in(enc, "Chill Touch", "g1", [1, 10])
    assert dice.remaining == 0
    assert [(h.name, h.source) for h in after.get("m").held] == [("CANT_TARGET_SAME", "g1")]
    with pytest.raises(IllegalActionError, match="can't target G1 with a spell until a rest"):
        act(Step(after, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Fireball"))
    assert tactic_attack_nearest(after, after.get("m")).kind in ("attack", "move_attack")
    later, _, dice = cast_in(after, "Fireball", "g2", [8, 3])
    assert later.get("g2").hp == 37 and dice.remaining == 0


def test_F_CLR_04_X_TAB_02_6_an_unheard_prayer_is_refused_in_the_fight() -> None:
    """X-TAB-02 6 'this prayer goes unheard: it can't be tried again until rest': a cleric with range 2 rolls a
    natural 1: 1d4 (4) + 2 = 6. Chill Touch is then refused and the tactic prays Animate Dead instead."""
    cleric = pc("c", CASTER, char_class="Cleric", spells=("Chill Touch", "Animate Dead"), disapproval=2)
    enc = encounter(cleric, monster("g1", FOE))
    after, events, dice = cast_in(enc, "Chill Touch", "g1", [1, 4], who="c")
    assert dice.remaining == 0 and "mishap" not in [e.kind for e in events]
    with pytest.raises(IllegalActionError, match="can't try Chill Touch again"):
        act(Step(after, ScriptedDice([15]), RULES), "c", Action("cast", "g1", detail="Chill Touch"))
    assert tactic_attack_nearest(after, after.get("c")).detail == "Animate Dead"


# -- 3. a character's lockouts carry into the fight ----------------------------------------------------------------
def test_F_MU_04_D_7_a_depleted_character_cannot_cast_in_a_fight() -> None:
    """F-MU-04, D-7: Mira failed her depletion SAVE (until_rest 'DEPLETED'); as a combatant she holds DEPLETED until
    rest: a cast is refused and the tactic attacks."""
    m = magic_fight.combatant(mage(EMBER, until_rest=["DEPLETED: Spell Depletion"]), "a", RULES, id="m")
    assert [(h.name, h.ending) for h in m.held] == [("DEPLETED", "rest")]
    enc = encounter(m, monster("g1", FOE))
    with pytest.raises(IllegalActionError, match=r"cannot cast until a rest \(Spell Depletion"):
        act(Step(enc, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Fireball"))
    assert tactic_attack_nearest(enc, enc.get("m")).kind in ("attack", "move_attack")


def test_F_SPELL_10_D_7_a_mishap_before_the_fight_still_bars_its_spell() -> None:
    """F-TAB-18 8–9 out of a fight (natural 1, d20 8, INT SAVE 1 + 4 = 5 fails) bars Ember Swarm until rest; in the
    fight that follows Ember Swarm is refused and the tactic chooses Fireball."""
    locked = cast_spell(mage(EMBER, spells=["Ember Swarm", "Fireball"]), "Ember Swarm", ScriptedDice([1, 8, 1]), 12,
                        RULES).character
    enc = encounter(magic_fight.combatant(locked, "a", RULES, id="m"), monster("g1", FOE))
    with pytest.raises(IllegalActionError, match="can't try Ember Swarm again"):
        act(Step(enc, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Ember Swarm"))
    assert tactic_attack_nearest(enc, enc.get("m")).detail == "Fireball"


def test_F_SPELL_10_D_7_no_casting_until_rest_carries_into_the_fight() -> None:
    """F-TAB-18 14–15 (CHA SAVE d20 2 + 0 fails): no spell until rest; in the fight every cast is refused."""
    locked = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 14, 2]), 12, RULES).character
    enc = encounter(magic_fight.combatant(locked, "a", RULES, id="m"), monster("g1", FOE))
    with pytest.raises(IllegalActionError, match="cannot cast until a rest"):
        act(Step(enc, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Fireball"))
    assert tactic_attack_nearest(enc, enc.get("m")).kind in ("attack", "move_attack")


def test_F_TAB_18_10_the_barred_creature_is_named_in_and_out_of_a_fight() -> None:
    """F-TAB-18 10–11 with the target named: out of a fight a spell at G1 is refused, at G2 it is cast (face 15);
    carried into a fight, a spell at the creature named G1 is refused."""
    locked = cast_spell(mage(EMBER), "Ember Swarm", ScriptedDice([1, 10]), 12, RULES, target="G1").character
    assert locked.until_rest[0].endswith("(target: G1)")
    with pytest.raises(IllegalActionError, match="can't target G1"):
        cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES, target="G1")
    assert cast_spell(locked, "Fireball", ScriptedDice([15]), 12, RULES, target="G2").cast.check.success
    enc = encounter(magic_fight.combatant(locked, "a", RULES, id="m"), monster("g1", FOE))
    with pytest.raises(IllegalActionError, match="can't target G1"):
        act(Step(enc, ScriptedDice([15]), RULES), "m", Action("cast", "g1", detail="Fireball"))


# -- 4. cantrips (F-MU-06, AMB-42) -------------------------------------------------------------------------------
def test_F_MU_06_the_cantrip_list_is_furnaces_own() -> None:
    """F-MU-06 names five cantrips and describes none: the list is ours (origin furnace), 6 to 8 of them; Spark
    deals 1 fire DAM and is approved (REF-04)."""
    book = load_cantrips()
    assert 6 <= len(book.names()) <= 8
    assert all(c.origin == "furnace" for c in book.by_name.values())
    spark = book.get("spark")
    assert spark.damage and spark.approved and spark.effects == [Damage(kind="damage", dice="1", type="fire")]
    assert {"Torchlight", "Mending", "Whisper", "Telekinesis", "Illusion"} <= set(book.names())


@pytest.mark.parametrize(("change", "message"), [
    ({"origin": "seeds"}, "origin"),
    ({"damage": False}, "AMB-42"),
    ({"approved": None}, "approved"),
    ({"effects": [{"kind": "damage", "dice": "2d6"}]}, "at most one d6"),
    ({"effects": [{"kind": "summon", "creature": "imp"}]}, "a cantrip's effects are"),
    ({"colour": "red"}, "colour"),
])
def test_F_MU_06_AMB_42_a_bad_cantrip_is_refused_on_load(change: dict[str, Any], message: str) -> None:
    """F-MU-06, AMB-42, REF-04: each entry is validated: our own (origin furnace), damage declared and approved or
    not, no more than one Spell Die of damage, only simple effects, no unknown field."""
    entry = {"name": "Zap", "origin": "furnace", "kind": "ranged", "text": "zap", "damage": True, "approved": True,
             "effects": [{"kind": "damage", "dice": "1"}], **change}
    with pytest.raises(DataFileError, match=message):
        parse_cantrips({"id": "house:cantrips", "cantrips": [entry]}, "house.yaml")


def test_F_MU_06_a_cantrip_listed_twice_is_refused() -> None:
    entry = {"name": "Zap", "origin": "furnace", "text": "zap"}
    with pytest.raises(DataFileError, match="row 2: the cantrip 'Zap' is listed twice"):
        parse_cantrips({"id": "house:cantrips", "cantrips": [entry, entry]}, "house.yaml")


def test_F_MU_06_out_of_a_fight_no_spellcheck_and_no_depletion_cost() -> None:
    """F-MU-06, F-MU-04: a depleted caster with 3 spells counted still casts Spark: no roll at all, 1 fire DAM for
    the referee to apply, and the character is unchanged (spells_cast stays 3)."""
    mira = mage(EMBER, cantrips=["Spark"], spells_cast=3, until_rest=["DEPLETED: Spell Depletion"])
    done = cast_cantrip(mira, "Spark", RULES, target="Goblin")
    assert done.character == mira and done.effects == (Damage(kind="damage", dice="1", type="fire"),)
    assert [e.kind for e in done.events] == ["cantrip"]
    with pytest.raises(IllegalActionError, match="does not know the cantrip Spark"):
        cast_cantrip(mage(EMBER), "Spark", RULES)


def test_F_MU_06_in_a_fight_a_cantrip_needs_no_spellcheck() -> None:
    """F-MU-06 in a fight: a DEPLETED caster with 3 spells counted casts Spark at G1: no die rolled, G1 40 → 39,
    spells_cast stays 3 (no depletion count), and no SPELLCHECK in the log."""
    m = pc("m", CASTER, features=("cantrip:Spark",), spells_cast=3,
           held=(Held(name="DEPLETED", source="Spell Depletion", ending="rest"),))
    after, events, dice = cast_in(encounter(m, monster("g1", FOE)), "Spark", "g1", [])
    assert dice.remaining == 0 and after.get("g1").hp == 39 and magic_state(after.get("m")).spells_cast == 3
    assert "spellcheck" not in [e.kind for e in events] and "cantrip" in [e.kind for e in events]


def test_F_MU_06_a_characters_cantrips_come_into_the_fight() -> None:
    """A character's cantrips are carried into the fight: Mira knows Frost Nip: G1's next ATK is HARD."""
    m = magic_fight.combatant(mage(EMBER, cantrips=["Frost Nip"]), "a", RULES, id="m")
    after, _, dice = cast_in(encounter(m, monster("g1", FOE)), "Frost Nip", "g1", [])
    assert dice.remaining == 0
    assert [h.name for h in after.get("g1").held] == ["MOD:next_atk:HARD"]
    with pytest.raises(IllegalActionError, match="does not know the cantrip Spark"):
        cast_in(encounter(m, monster("g1", FOE)), "Spark", "g1", [])


def test_AMB_42_damage_cantrips_one_spell_die_option() -> None:
    """AMB-42, option damage_cantrips = one_spell_die: Spark deals one ranged Spell Die, 1d6 (face 5): 40 → 35."""
    rules = load_ruleset(overrides={"damage_cantrips": "one_spell_die"})
    after, _, dice = cast_in(encounter(pc("m", CASTER, features=("cantrip:Spark",)), monster("g1", FOE)), "Spark", "g1",
                             [5], rules)
    assert dice.remaining == 0 and after.get("g1").hp == 35


def test_AMB_42_REF_04_an_unapproved_damage_cantrip_is_forbidden_by_default() -> None:
    """AMB-42 (damage_cantrips = forbidden): a referee's list marks Zap unapproved: learning it is refused; under
    one_spell_die it may be learnt. An unknown cantrip is refused with the list."""
    zap = {"name": "Zap", "origin": "furnace", "kind": "ranged", "text": "zap", "damage": True, "approved": False,
           "effects": [{"kind": "damage", "dice": "1"}]}
    book = Cantrips({"zap": parse_cantrips({"id": "house:cantrips", "cantrips": [zap]}, "house.yaml")[0]})
    with pytest.raises(CharacterError, match="AMB-42"):
        learn(mage(EMBER), "Zap", RULES, book)
    assert learn(mage(EMBER), "Zap", load_ruleset(overrides={"damage_cantrips": "one_spell_die"}),
                 book).cantrips == ["Zap"]
    with pytest.raises(UnknownNameError):
        learn_cantrip(mage(EMBER), "Fireworks")


# -- 5. simultaneous initiative: spells go with missiles (F-INIT-02) -------------------------------------------
def test_F_INIT_02_a_spell_goes_in_the_first_phase_and_kills_before_melee() -> None:
    """F-INIT-02: the caster stands CLOSE with no ranged weapon, listed after the brute; she casts Fireball in the
    first phase (face 12 + 4 = 16, SL2, d6 4) and kills the 3-HP brute before it can swing. Two dice in all."""
    brute = monster("g1", FOE, hp=3, hp_max=3)
    enc = Encounter(room_dc=12, initiative="simultaneous", combatants=(brute, pc("m", CASTER, zone="CLOSE")))
    dice = ScriptedDice([12, 4])
    after, events = run_round(enc, dice, RULES)
    assert dice.remaining == 0
    assert after.get("g1").status == "dead" and after.get("m").hp == 12
    assert "hit" not in [e.kind for e in events]


def test_F_INIT_02_the_caster_acts_once_in_the_first_phase_not_again_in_melee() -> None:
    """F-INIT-02: Fireball first (face 12 → SL2, d6 4: 40 → 36); in the melee phase only the brute strikes
    (15 + 2 = 17 vs AC 12, 1d6 3: M 12 → 9); the caster does not act a second time. Four dice in all."""
    enc = Encounter(room_dc=12, initiative="simultaneous",
                    combatants=(monster("g1", FOE), pc("m", CASTER, zone="CLOSE")))
    dice = ScriptedDice([12, 4, 15, 3])
    after, events = run_round(enc, dice, RULES)
    assert dice.remaining == 0
    assert after.get("g1").hp == 36 and after.get("m").hp == 9
    order = [(e.kind, e.who) for e in events if e.kind in ("spellcheck", "hit")]
    assert order == [("spellcheck", "M"), ("hit", "G1")]


# -- 6. Luck Dice belong to the player in a fight (F-LUCK-01, AMB-02) -----------------------------------------------
PLAYER: dict[str, Any] = dict(char_class=None, damage="1d6")   # a level-1 PC of a player: 10 HP, AC 12, ATK +3
OGRE: dict[str, Any] = dict(ac=15, hp=50, hp_max=50)   # a FOE of AC 15 and 50 HP


def swing(enc: Encounter, who: str, faces: list[int], rules: Ruleset = RULES) -> tuple[Encounter, ScriptedDice]:
    dice = ScriptedDice(faces)
    after, _ = take_turn(enc, who, Action("attack", "o"), dice, rules)
    return after, dice


def test_F_LUCK_01_two_characters_of_one_player_share_the_streak_and_the_die() -> None:
    """F-LUCK-01 (luck_owner player): Ann's P1 misses (2 + 3 = 5 vs 15), then her P2 misses (2 + 3): the second
    failure in a row is the player's, so a Luck Die is earned, and both characters hold it."""
    enc = encounter(pc("p1", PLAYER, player="Ann"), pc("p2", PLAYER, player="Ann"), monster("o", FOE, OGRE))
    enc, _ = swing(enc, "p1", [2])
    assert (enc.get("p2").luck_streak, enc.get("p2").luck_dice) == (1, 0)
    enc, dice = swing(enc, "p2", [2])
    assert dice.remaining == 0
    assert [(enc.get(p).luck_dice, enc.get(p).luck_streak) for p in ("p1", "p2")] == [(1, 2), (1, 2)]


def test_F_LUCK_03_the_shared_die_is_spent_once() -> None:
    """F-LUCK-03: P1 holds Ann's one die; her ATK 9 + 3 = 12 misses AC 15 by 3, so she spends it (d6 4: 16 hits,
    1d6 2 DAM). The pool is the player's: P2 has no die left either."""
    enc = encounter(pc("p1", PLAYER, player="Ann", luck_dice=1), pc("p2", PLAYER, player="Ann", luck_dice=1),
                    monster("o", FOE, OGRE))
    enc, dice = swing(enc, "p1", [9, 4, 2])
    assert dice.remaining == 0 and enc.get("o").hp == 48
    assert [enc.get(p).luck_dice for p in ("p1", "p2")] == [0, 0]


def test_F_LUCK_01_other_players_and_the_character_option_do_not_share() -> None:
    """F-LUCK-01: Ann's and Bob's characters each miss once: no die. With luck_owner = character, two of Ann's
    characters missing once each earn none either (each has a streak of 1)."""
    enc = encounter(pc("p1", PLAYER, player="Ann"), pc("p2", PLAYER, player="Bob"), monster("o", FOE, OGRE))
    enc, _ = swing(enc, "p1", [2])
    enc, _ = swing(enc, "p2", [2])
    assert [(enc.get(p).luck_dice, enc.get(p).luck_streak) for p in ("p1", "p2")] == [(0, 1), (0, 1)]
    rules = load_ruleset(overrides={"luck_owner": "character"})
    enc = encounter(pc("p1", PLAYER, player="Ann"), pc("p2", PLAYER, player="Ann"), monster("o", FOE, OGRE))
    enc, _ = swing(enc, "p1", [2], rules)
    enc, _ = swing(enc, "p2", [2], rules)
    assert [(enc.get(p).luck_dice, enc.get(p).luck_streak) for p in ("p1", "p2")] == [(0, 1), (0, 1)]


def test_F_LUCK_01_a_characters_player_and_dice_come_into_the_fight() -> None:
    """A character brings her player and her Luck Dice into the fight."""
    c = magic_fight.combatant(mage(EMBER, player="Ann", luck_dice=2), "a", RULES)
    assert c.player == "Ann" and c.luck_dice == 2


def test_F_LUCK_01_a_failed_save_feeds_the_players_streak() -> None:
    """F-LUCK-01: P1 fails a CON SAVE (3 vs 12), then P2 fails one (4): Ann's second failure earns a die."""
    enc = encounter(pc("p1", PLAYER, player="Ann", saves={"CON": 0}), pc("p2", PLAYER, player="Ann", saves={"CON": 0}),
                    monster("o", FOE, OGRE))
    step = Step(enc, ScriptedDice([3, 4]), RULES)
    save = parse_effect({"kind": "save", "ability": "CON", "dc": "12", "target": "self"})
    apply_all(step, [save], actor="p1", target="p1")
    apply_all(step, [save], actor="p2", target="p2")
    assert step.enc.get("p1").luck_dice == step.enc.get("p2").luck_dice == 1
