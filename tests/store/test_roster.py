"""The roster's commands on the store (SQLite and PostgreSQL) and the choices of promotion and levelling with
scripted dice: what the dice pick, which rule options change the lists, and that the log replays it all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from furnace import dice
from furnace.campaign import commands, roster
from furnace.campaign.roster import ChoiceError, Choices, Funnel, level_up_character, promote_character
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store
from furnace.characters.character import Character, CharacterError
from furnace.dice import ScriptedDice
from furnace.rules.ruleset import load_ruleset
from tests.helpers.telling import what

RULES = load_ruleset()
FIGHTER_KIT = ("shield", "martial ranged", "leather")     # the first alternative of each pick (F-TAB-40)
ROGUE_KIT = ("martial one-handed", "simple ranged")
Chars = dict[str, Character]


def refused(error: type[Exception], call: Callable[[], Any], *words: str) -> Any:
    with pytest.raises(error) as caught:
        call()
    assert all(w in str(caught.value) for w in words), str(caught.value)
    return caught.value


@pytest.mark.rule("F-CHAR-01")
def test_F_CHAR_01_a_funnel_joins_the_roster_and_replays(store: Store) -> None:
    store.create("keep")
    first = Funnel(["Ann", "Bo"], 2, dice.seeded(1))
    applied = store.apply("keep", "funnel", first)
    assert first.party is not None and [c.name for c in first.party.characters] == ["Ann-1", "Ann-2", "Bo-1", "Bo-2"]
    assert {m.id: (m.character.name, m.player, m.character.player) for m in applied.state.roster.values()} == {
        "ann1": ("Ann-1", "Ann", "Ann"), "ann2": ("Ann-2", "Ann", "Ann"), "bo1": ("Bo-1", "Bo", "Bo"),
        "bo2": ("Bo-2", "Bo", "Bo")}
    kinds = [e.kind for e in applied.events]
    assert kinds.count("ability_scores") == 4 and kinds.count("join") == 4
    store.apply("keep", "funnel", Funnel(["bo"], 1, dice.seeded(2)))
    state = store.open("keep")
    assert [m.character.name for m in roster.members(state)] == ["Ann-1", "Ann-2", "Bo-1", "Bo-2", "bo-3"]
    assert store.replay("keep") == state
    refused(CampaignError, lambda: Funnel(["Ann", "ann"], 4, dice.seeded(1)), "named twice")
    refused(CampaignError, lambda: roster.members(state, ["asleep"]), "not a status", "alive, dying, dead, retired")


@pytest.mark.rule("F-CHAR-03")
def test_F_CHAR_03_the_dice_pick_what_is_missing_and_the_log_keeps_it(store: Store, characters: Chars) -> None:
    store.create("keep")
    store.apply("keep", "join", commands.join(characters["hob"], "Ann"))
    # skill d16 → Athletics, save d5 → DEX, style d6 → Defense, the kit's three d2s, HP d10
    script = ScriptedDice([4, 1, 2, 2, 1, 2, 7])
    wanted = Choices(char_class="Fighter", random=True)
    applied = store.apply("keep", "character promote", roster.promote("Hob", wanted, script, name="Hob Ironfist"))
    assert script.used == [(4, 16), (1, 5), (2, 6), (2, 2), (1, 2), (2, 2), (7, 10)]   # Barbarian: the only one open
    picked = [e for e in applied.events if e.kind == "choice"]
    assert [what(e) for e in picked] == [                                     # one fact per pick (swap: no die)
        "picked at random: swap none", "picked at random: skills Athletics", "picked at random: save DEX",
        "picked at random: style Defense", "picked at random: kit martial two-handed weapon",
        "picked at random: kit martial ranged weapon", "picked at random: kit scalemail"]
    assert [[r["total"] for r in e.rolls] for e in picked] == [[], [4], [1], [2], [2], [1], [2]]
    c = applied.state.member("hob1").character
    assert (c.name, c.archetype, c.saves, c.fighting_style) == ("Hob Ironfist", "Barbarian", ["STR", "DEX"], "Defense")
    assert c.hp_max == characters["hob"].hp_max + 7
    assert store.replay("keep") == store.open("keep")
    store.undo("keep")
    assert store.open("keep").member("hob1").character.level == 0


def test_F_ARCH_03_a_prerequisite_limits_the_archetypes(characters: Chars) -> None:
    hob, corra = characters["hob"], characters["corra"]                           # a Human, a Half-orc
    assert roster.open_archetypes(hob, RULES) == [("Barbarian", "Fighter"), ("Arcane Trickster", "Rogue"),
                                                  ("Wizard", "Magic-user")]
    assert ("Bloodshaman", "Cleric") in roster.open_archetypes(corra, RULES)
    error = refused(ChoiceError, lambda: promote_character(hob, Choices(archetype="Bloodshaman"), dice.seeded(1),
                                                           RULES), "Bloodshaman needs a Half-orc")
    assert error.allowed == ["Barbarian", "Arcane Trickster", "Wizard"]
    error = refused(ChoiceError, lambda: promote_character(hob, Choices(char_class="Rogue", archetype="Wizard"),
                                                           dice.seeded(1), RULES), "archetype of the Magic-user")
    assert error.allowed == ["Arcane Trickster"]


@pytest.mark.parametrize(("option", "count"), [("class_section", 3), ("general_table", 1)])
def test_CF_08_a_rogues_skill_count_follows_the_option(characters: Chars, option: str, count: int) -> None:
    rules = load_ruleset("furnace", {"rogue_skills": option}) if option == "general_table" else \
        load_ruleset("furnace", {"rogue_skills": "class_section"})
    bertil = characters["bertil"]                                                 # an Elf, INT 11 (+0)
    wanted = Choices(char_class="Rogue", archetype="Arcane Trickster", save="INT", expertise=("Acrobatics", "Stealth"),
                     kit=ROGUE_KIT)
    error = refused(ChoiceError, lambda: promote_character(bertil, wanted, dice.seeded(1), rules),
                    f"chooses {count} skill(s) ({count} + INT")
    assert "Arcana" not in error.allowed and "Insight" not in error.allowed       # the archetype gives those
    picked = ("Athletics", "Perception", "Nature")[:count]
    after, _ = promote_character(bertil, dataclasses.replace(wanted, skills=picked), dice.seeded(1), rules)
    assert len(after.skills) == count + 2 and after.expertise == ["Acrobatics", "Stealth"]


@pytest.mark.parametrize("option", ["extra_proficiencies", "double_prof"])
def test_F_ROG_03_AMB_43_expertise_is_new_skills_or_doubled_ones(characters: Chars, option: str) -> None:
    rules = load_ruleset("furnace", {"expertise": "double_prof"}) if option == "double_prof" else \
        load_ruleset("furnace", {"expertise": "extra_proficiencies"})
    bertil = characters["bertil"]

    def rogue(*expertise: str) -> Choices:
        return Choices(char_class="Rogue", archetype="Arcane Trickster", save="INT",
                       skills=("Athletics", "Perception", "Nature"), expertise=expertise, kit=ROGUE_KIT)

    held = ["Arcana", "Athletics", "Insight", "Nature", "Perception"]
    new, doubled = ("Acrobatics", "Stealth"), ("Arcana", "Perception")
    good, bad = (doubled, new) if option == "double_prof" else (new, doubled)
    after, _ = promote_character(bertil, rogue(*good), dice.seeded(1), rules)
    assert after.expertise == list(good)
    assert len(set(after.skills) | set(after.expertise)) == (5 if option == "double_prof" else 7)
    error = refused(ChoiceError, lambda: promote_character(bertil, rogue(*bad), dice.seeded(1), rules),
                    f"{bad[0]} cannot be chosen here", "Expertise is 2 more skills")
    assert bad[0] not in error.allowed
    assert error.allowed == (held if option == "double_prof" else [s for s in error.allowed if s not in held])


def test_F_CLR_03_a_cleric_level_opens_prayers_and_F_ADV_03_asks_for_the_score(characters: Chars) -> None:
    ilse = characters["ilse"]                                                     # Cleric 3, 2 prayers of 4
    forced, _ = level_up_character(ilse, Choices(ability="STR"), ScriptedDice([5]), RULES)
    assert len(forced.spells) == 5                     # the three prayers left are the three she learns: no choice
    refused(ChoiceError, lambda: level_up_character(ilse, Choices(), dice.seeded(1), RULES),
            "level 4 gives +1 to an ability score", "STR, DEX")
    prayers = ("Fireball", "Ember Swarm", "Flame Shield")
    after, events = level_up_character(ilse, Choices(ability="WIS", spells=prayers), ScriptedDice([5]), RULES)
    assert (after.level, after.scores["WIS"], after.spells) == (4, 7, ["Chill Touch", "Animate Dead", *prayers])
    assert what(events[-1]) == "learns spells Fireball, Ember Swarm, Flame Shield (5 known)"
    refused(CharacterError, lambda: level_up_character(characters["hob"], Choices(), dice.seeded(1), RULES),
            "0-level")


def test_F_ARCH_04_the_trickster_feature_brings_a_cantrip(characters: Chars) -> None:
    wren = characters["wren"]                                                     # Arcane Trickster 3
    at_5 = wren.model_copy(update={"level": 4})
    refused(ChoiceError, lambda: level_up_character(at_5, Choices(feature="trickster"), dice.seeded(1), RULES),
            "knows 1 cantrip(s) and knows 0", "--cantrip")
    after, _ = level_up_character(at_5, Choices(feature="trickster", cantrips=("whisper",)), dice.seeded(1), RULES)
    assert after.cantrips == ["Whisper"] and after.archetype_features[-1] == "trickster"


def test_retire_and_rename_on_the_store(store: Store, characters: Chars) -> None:
    store.create("keep")
    for stem in ("hob", "corra"):
        store.apply("keep", "join", commands.join(characters[stem], "Bo"))
    store.apply("keep", "character retire", roster.retire("Hob", "a farm"))
    state = store.open("keep")
    assert state.member("hob1").status == "retired"
    refused(CampaignError, lambda: store.apply("keep", "x", roster.retire("hob1")), "is retired")
    refused(CampaignError, lambda: store.apply("keep", "x", roster.rename("Corra", "HOB")), "called 'Hob' already")
    refused(CampaignError, lambda: store.apply("keep", "x", roster.rename("Corra", "hob1")), "called 'hob1'")
    refused(CampaignError, lambda: store.apply("keep", "x", roster.rename("Corra", " \t")), "not a character's name")
    applied = store.apply("keep", "character rename", roster.rename("Corra", "Corra Redhand"))
    assert what(applied.events[0]) == "Corra is now called Corra Redhand"
    assert store.open("keep").member("Corra Redhand").id == "corr1"
    assert store.replay("keep") == store.open("keep")


@pytest.mark.parametrize("at_level_1", [False, True])
def test_F_ARCH_01_a_feature_at_level_1_is_asked_under_the_referees_rule(characters: Chars, at_level_1: bool) -> None:
    rules = load_ruleset("furnace", {"archetype_feature_at_level_1": True}) if at_level_1 else \
        load_ruleset("furnace", {"archetype_feature_at_level_1": False})
    wanted = Choices(char_class="Fighter", archetype="Barbarian", skills=("Athletics",), save="DEX", style="Defense",
                     kit=FIGHTER_KIT, swap=())
    with_feature = dataclasses.replace(wanted, feature="d12-hit-die")
    if not at_level_1:
        refused(ChoiceError, lambda: promote_character(characters["hob"], with_feature, dice.seeded(1), rules),
                "only under the referee's optional rule")
        after, _ = promote_character(characters["hob"], wanted, ScriptedDice([9]), rules)
        assert after.archetype_features == [] and after.hp_history[-1].die == "d10"
        return
    error = refused(ChoiceError, lambda: promote_character(characters["hob"], wanted, dice.seeded(1), rules),
                    "feature at level 1", "--feature")
    assert error.allowed == ["rage", "melee-crit-19", "d12-hit-die", "fearless", "intimidating"]
    after, _ = promote_character(characters["hob"], with_feature, ScriptedDice([11]), rules)
    assert after.archetype_features == ["d12-hit-die"] and after.hp_history[-1].die == "d12"   # the Barbarian's d12
    assert after.hp_max == characters["hob"].hp_max + 11
