"""Magic's facts told at the edge (`furnace.render.story.magic`): every kind the chapter declares has a teller
that speaks words, not tokens, to the referee, the table and a player; a monster's spell keeps its numbers
with the referee; the referee's telling keeps every number the old sentence had.

RULES.md F-SPELL-02..10 (the SPELLCHECK's steps), F-MU-04 (Spell Depletion), F-CLR-04 (disapproval),
F-CLR-05 (Lay on Hands), AMB-59 (a magic item's daily uses).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import furnace.magic.fight  # noqa: F401  (declares the chapter's kinds)
from furnace.dice import ScriptedDice
from furnace.events import FACTS, Event, Part
from furnace.magic.casting import cast_spell, lay_on_hands
from furnace.play.encounter import Action, take_turn
from furnace.render import story
from furnace.render.story.view import Sight, View
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import character, encounter, monster, pc

RULES = load_ruleset()
FLAT = {"STR": 10, "DEX": 10, "CON": 10, "INT": 10, "WIS": 10, "CHA": 10}
MAGIC = ("spellcheck", "spell", "mishap", "disapproval", "disapproval_range", "depletion", "mishap_spell",
         "lay_on_hands", "cure_asked", "cure", "extra_hit_die", "effect", "summon", "cantrip", "item_charges",
         "item_use", "items_renewed", "item_power", "items_after_fight")
TOKENS = re.compile(r"[A-Z]+:[a-z_]+|_turns?\b|\(s\)|\b(True|False|None)\b|\b1 (turns|rounds|uses|spells)\b")
VIEWS = (View(), View(explain=True), View("table"), View("player", "Ann"),
         View("player", "Ann", Sight(revealed=frozenset({"a", "t"}))))


def example(kind: str, actor: str) -> Event:
    declared = FACTS[kind]
    cast = {"a": Part("Ann", actor, "Ann" if actor == "pc" else ""), "t": Part("Ogre", "monster")}
    return Event(kind, "a", ("t",) if len(declared.roles) > 1 else (), (), dict(declared.example), ("F-SPELL-02",),
                 cast)


@pytest.mark.parametrize("kind", MAGIC)
def test_every_magic_kind_is_told_in_words(kind: str) -> None:
    """Each kind, with its example values, by a PC and by a monster, to each viewer: no token, no bare
    True/False/None, no '(s)'."""
    assert kind in FACTS and kind in story.tellers()
    for actor in ("pc", "monster"):
        for view in VIEWS:
            told = "\n".join(story.lines([example(kind, actor)], view))
            assert not TOKENS.search(told), (kind, actor, view.role, told)
    assert story.tell_referee(example(kind, "pc"))


MIRA: dict[str, Any] = dict(name="Mira", side="a", level=3, prof=2, char_class="Magic-user", hp=12, hp_max=12, ac=12,
                            attack_bonus=3, spell_mod=2, spells=("Fireball",), zone="NEAR", player="Ann",
                            saves={"INT": 4})
OGRE: dict[str, Any] = dict(name="Ogre", side="b", hp=40, hp_max=40, ac=14, attack_bonus=4, zone="CLOSE", spell_mod=3,
                            prof=2, char_class="Magic-user", spells=("Fireball",))


def test_F_SPELL_02_the_referee_reads_every_number_of_the_spellcheck() -> None:
    """F-SPELL-02/03: Mira's Fireball, face 12 + INT 2 + PROF 2 = 16 ≥ 12: SL2, 2 Spell Dice; 1d6 = 5 fire."""
    enc = encounter(pc("m", MIRA), monster("o", OGRE))
    _, events = take_turn(enc, "m", Action("cast", "o", detail="Fireball"), ScriptedDice([12, 5]), RULES)
    told = story.lines(events)
    assert "Mira: casts Fireball at Ogre: total 16 ≥ 12: SL2, 2 Spell Dice" in told
    assert "    SPELLCHECK: d20+INT+PROF → [12] + 2 (INT) + 2 (PROF) = 16" in told
    assert "Mira: Fireball deals 5 fire DAM" in told


def test_a_concealed_monsters_spell_keeps_its_numbers_with_the_referee() -> None:
    """The Ogre (unseen) casts Fireball at Mira (face 15 + 3 + 2 = 20, SL2, 1d6 = 4): her player reads that
    something unseen casts a spell at Mira and that she takes 4, never the spell, the total or the dice."""
    enc = encounter(pc("m", MIRA), monster("o", OGRE))
    _, events = take_turn(enc, "o", Action("cast", "m", detail="Fireball"), ScriptedDice([15, 4]), RULES)
    ann = "\n".join(story.lines(events, View("player", "Ann")))
    assert "something unseen: casts a spell at Mira: the spell works" in ann
    assert "Mira: takes 4" in ann
    for secret in ("Ogre", "Fireball", "20", "d20", "SL2"):
        assert secret not in ann, (secret, ann)
    assert "Ogre: casts Fireball at Mira: total 20 ≥ 12: SL2, 2 Spell Dice" in story.lines(events)


MAGE: dict[str, Any] = dict(name="Mira", char_class="Magic-user", level=3, scores={**FLAT, "INT": 16}, hp_max=12,
                            hp=12, hit_dice=3, saves=["INT"], spells=["Fireball", "Chill Touch"])


def test_F_MU_04_F_SPELL_11_out_of_a_fight_the_mishap_and_depletion_are_told() -> None:
    """F-SPELL-11: a natural 1 on Fireball rolls F-TAB-19 (d6 3); F-MU-04: the 4th spell's INT SAVE 5 + 4 = 9 <
    14 fails. The table's id and the rule ids only under --explain."""
    done = cast_spell(character(MAGE, spells_cast=3), "Fireball", ScriptedDice([1, 3, 1, 5]), 14, RULES)
    plain = "\n".join(story.lines(done.events))
    assert "Mira: casts Fireball: natural 1: a mishap" in plain
    assert "Mira: a magical mishap (Fireball mishap table): 3 → " in plain
    assert "Mira: Spell Depletion after 4 spells: INT SAVE 9 vs DC 14 fails: no casting until a rest" in plain
    assert "F-TAB-19" not in plain and "F-MU-04" not in plain
    explained = "\n".join(story.lines(done.events, View(explain=True)))
    assert "(F-SPELL-10, F-TAB-19)" in explained and "(F-MU-04)" in explained


def test_F_CLR_05_lay_on_hands_is_told_with_its_limits() -> None:
    """F-CLR-05, F-CLR-07: Oda (WIS +2, PROF +2) rolls 12: 16 → 2 HD; Brun (level 2, pool 5) may spend 2."""
    oda = character(name="Oda", char_class="Cleric", level=3, scores={**FLAT, "WIS": 16}, hp_max=18, hp=18,
                    hit_dice=3, saves=["WIS"])
    brun = character(name="Brun", char_class="Fighter", level=2, scores=dict(FLAT), hp_max=30, hp=5, hit_dice=5)
    _, _, events = lay_on_hands(oda, brun, ScriptedDice([12, 3, 4]), 12, RULES)
    told = story.lines(events)
    assert "Oda: Lay on Hands on Brun: total 16 ≥ 12: SL2, 2 Spell Dice" in told
    assert "Oda: Lay on Hands: 16 → 2 HD; Brun may spend 2 (pool 5, today 0/2)" in told
