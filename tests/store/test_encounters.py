"""Fights on the campaign (`furnace.campaign.encounters`), on SQLite and PostgreSQL: the automatic fight settled
onto the roster in one command (HP, deaths with cause and round, XP shared, REF-24), the fight in progress kept
in the campaign turn by turn (F-INIT-01, F-CMBT-01), the campaign's monster overrides in its bestiary
(F-BASE-01), and what is refused (the dead do not fight; one fight at a time; an action out of turn).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from furnace import dice
from furnace.campaign import commands, encounters
from furnace.campaign.overrides import add_override
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store, StoredEvent
from furnace.characters import xp
from furnace.characters.character import Character
from furnace.errors import IllegalActionError
from furnace.play import turns
from furnace.render import story
from furnace.render.story.campaign import death_words
from furnace.rules.bestiary import Bestiary
from tests.helpers.factories import stored_campaign

Chars = dict[str, Character]


def told(e: StoredEvent) -> str:
    """A row of the log as the referee reads it."""
    return "\n".join(story.stored(e))


@pytest.mark.rule("F-DEATH-02")
def test_a_campaign_fight_writes_back_hp_deaths_with_cause_and_round_and_xp(
        store: Store, db_url: str, characters: Chars, tough: Callable[[str, int], Character]) -> None:
    """Dunstan (0-level, 1 HP, CON 12: dead at −3, F-DEATH-02) and a Brakka of 200 HP against two ogres, seeded:
    the first ogre blow (2d6+2 ≥ 4) kills Dunstan. Reopened, the roster says so — dead, the cause with the last
    blow, the round the log gives, the fight — Brakka's HP is the HP the log left her with, and she alone shares
    the XP of the ogres beaten (170 each, REF-24)."""
    stored_campaign(store, characters["dunstan"], tough("brakka", 200))
    applied = store.apply("keep", "fight", encounters.fight(["all"], dice.seeded(7), monsters="ogre x2",
                                                            room_dc=12))
    log = applied.events
    assert len({e.command_id for e in log}) == 1                      # one command
    again = Store(db_url)
    try:
        state = again.open("keep")
    finally:
        again.close()
    dunstan, brakka = state.member("Dunstan"), state.member("Brakka")
    died = [e for e in log if e.kind == "death" and e.who == "duns1" and "round" in e.data]   # a fact: by id
    assert dunstan.status == "dead" and dunstan.death is not None and died
    assert dunstan.death.round == died[-1].data["round"] and dunstan.death.encounter == "a fight with Ogre x2"
    cause = death_words(dunstan.death.cause, dunstan.death.facts)
    assert "Ogre" in cause and "the last blow" in cause
    assert not dunstan.character.alive and dunstan.character.hp <= -3
    assert any(e.kind == "roster" and e.who == "Dunstan" and f"in round {dunstan.death.round}" in told(e) for e in log)
    blows = [e for e in log if e.kind == "damage" and e.who == "brak1"]
    assert brakka.status == "alive" and brakka.character.hp == (blows[-1].data["hp_after"] if blows else 200)
    beaten = {e.who for e in log if e.kind == "death" and e.who.startswith("ogre")}
    assert xp.total(brakka.character) == 170 * len(beaten) and xp.total(dunstan.character) == 0
    assert state.encounter is None


@pytest.mark.rule("F-INIT-01", "F-CMBT-01")
def test_turn_by_turn_lives_in_the_campaign(store: Store, db_url: str, characters: Chars,
                                            tough: Callable[[str, int], Character]) -> None:
    """F-INIT-01, F-CMBT-01: the fight in progress survives reopening the store; out of turn is refused and
    changes nothing; each step is one logged command; `end` settles it and clears it."""
    stored_campaign(store, tough("brakka", 200))
    store.apply("keep", "encounter start", encounters.begin(["brak1"], dice.seeded(3), monsters="goblin x2"))
    store.apply("keep", "encounter next", encounters.next_turns(dice.seeded(4)))   # the goblins, if they lead
    again = Store(db_url)
    try:
        now = encounters.current(again.open("keep"))
        assert now.members == {"brak1": "brak1"} and set(now.xp) == {"goblin-1", "goblin-2"}
        assert now.turns.encounter.room_dc == 10                      # the goblin's typical ROOM DC (REF-02)
        assert turns.due(now.turns) == now.turns.encounter.get("brak1")
        version = again.version("keep")
        with pytest.raises(IllegalActionError, match="it is not Goblin 1's turn: Brakka is due"):
            again.apply("keep", "encounter act", encounters.act("goblin-1", "attack", "brak1", dice.seeded(5)))
        assert again.version("keep") == version
        acted = again.apply("keep", "encounter act", encounters.act("Brakka", "attack", "goblin-1", dice.seeded(5)))
        assert again.version("keep") == version + 1 and acted.events[-1].kind == "due"
        assert acted.events[0].who == "brak1" and any(e.rolls for e in acted.events)
        after = encounters.current(again.open("keep"))
        assert after.turns.encounter != now.turns.encounter and turns.due(after.turns) != after.turns.encounter.get(
            "brak1")
        again.apply("keep", "encounter end", encounters.end())
        state = again.open("keep")
        assert state.encounter is None and state.member("brak1").status == "alive"
        logged = [e.command for e in again.events("keep")]
        assert logged.count("encounter act") >= 1 and {"encounter start", "encounter next", "encounter end"} <= set(
            logged)
    finally:
        again.close()


@pytest.mark.rule("F-BASE-01")
def test_F_BASE_01_the_campaigns_monster_overrides_are_in_its_bestiary(store: Store, characters: Chars,
                                                                        tmp_path: Path) -> None:
    """A monster override (docs/monsters.md format) joins the campaign's bestiary by id; its XP and typical
    ROOM DC are what the fight uses."""
    stored_campaign(store, characters["brakka"])
    path = tmp_path / "cave-bear.yaml"
    path.write_text("name: Cave Bear\nhd: 5\nhp: 40\ndamage: 2d8\nxp: 300\nroom_dc: 15\n", encoding="utf-8")
    add_override(store, "keep", path)
    state = store.open("keep")
    book = encounters.bestiary(state)
    assert book.get("cave bear").xp == 300 and "cave-bear" not in Bestiary.packaged()
    lineup = encounters.line_up(state, encounters.party(state, ["all"]), dice.seeded(1), commands.rules_of(state),
                                monsters="cave bear")
    bear = lineup.encounter.get("cave-bear")
    assert bear.hp == 40 and bear.ac == 15 and lineup.xp == {"cave-bear": 300}


def test_the_dead_do_not_fight_and_one_fight_at_a_time(store: Store, characters: Chars) -> None:
    stored_campaign(store, characters["brakka"], characters["dunstan"])
    store.apply("keep", "damage", commands.damage("Dunstan", 20))
    state = store.open("keep")
    with pytest.raises(CampaignError, match=r"Dunstan \(duns1\) is dead"):
        encounters.party(state, ["duns1"])
    assert [m.id for m in encounters.party(state, ["all"])] == ["brak1"]
    store.apply("keep", "encounter start", encounters.begin(["all"], dice.seeded(1), monsters="goblin"))
    with pytest.raises(CampaignError, match="is in progress"):
        store.apply("keep", "fight", encounters.fight(["all"], dice.seeded(1), monsters="goblin"))
    with pytest.raises(CampaignError, match="name the monsters"):
        encounters.line_up(state, encounters.party(state, ["all"]), dice.seeded(1), commands.rules_of(state))
