"""The faster engine keeps the same rules (#13, #27): a combatant's fast copy is `model_copy`, and pydantic
validates a combatant and an encounter where they come in; an Encounter finds and replaces combatants by id; a
Step's working state freezes into the same Encounter the old copies gave; a change that changes nothing is not
made; the nearest foe is the one a scan of every combatant finds (F-CMBT-01's simple tactic); a fight replays from
its seed, whatever its size."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.events import Event
from furnace.play.apply import apply_all
from furnace.play.combatant import ZONES, Combatant
from furnace.play.conditions import Held
from furnace.play.frozen import updated
from furnace.play.luck import LuckState
from furnace.play.state import Encounter, Step, zone_index
from furnace.rules.effects import parse_effect
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import band, encounter, from_spec

RULES = load_ruleset()
GOBLIN = {"hp": 5}   # a fight file's goblin: 5 HP, the rest from ROOM DC 12


def test_fast_copy_is_model_copy() -> None:
    """`updated` gives what `model_copy(update=…)` gives: her own fields, changed, and nothing else (a combatant is
    our own frozen dataclass: no library's fields to carry over), with no validation."""
    g = from_spec(GOBLIN, "g1", side="monsters", held=(Held(name="PRONE", ending="stands"),))
    assert not isinstance(g, BaseModel) and dataclasses.is_dataclass(g)
    for changes in ({"hp": 2}, {"hp": 2, "zone": "CLOSE"}, {"held": ()}, {"status": "dead", "cause_of_death": "x"},
                    {}):
        fast, slow = updated(g, changes), g.model_copy(update=changes)
        assert fast == slow and fast.model_dump() == slow.model_dump()
        assert vars(fast) == {**vars(g), **changes}
        assert list(vars(fast)) == [f.name for f in dataclasses.fields(fast)]
    unchecked: object = updated(g, {"hp": "not checked"}).hp
    assert unchecked == "not checked"                                # as model_copy: no validation
    assert g.hp == 5                                                 # the original is untouched
    enc = encounter(*band(GOBLIN, "a", 2), *band(GOBLIN, "b", 2), round=0)
    assert updated(enc, {"round": 3}) == enc.model_copy(update={"round": 3})


def test_pydantic_validates_a_combatant_and_an_encounter_where_they_come_in() -> None:
    """A combatant or an encounter from outside (the campaign's stored encounter, JSON) is validated by pydantic:
    coerced to her fields' types, an unknown field or a zone that is none refused; and dumped as a model dumps."""
    g = from_spec(GOBLIN, "g1", side="monsters")
    dumped = g.model_dump(mode="json")
    assert dumped["features"] == [] and dumped["saves"]["DEX"] == 2
    assert Combatant.model_validate(dumped) == g
    with pytest.raises(ValidationError):
        Combatant.model_validate({**dumped, "zone": "MIDDLE"})
    with pytest.raises(ValidationError):
        Combatant.model_validate({**dumped, "wings": 2})
    enc = encounter(g, round=0)
    again = Encounter.model_validate(enc.model_dump(mode="json"))
    assert again == enc and type(again.combatants) is tuple and type(again.combatants[0]) is Combatant


def test_encounter_get_and_put_by_id() -> None:
    enc = encounter(*band(GOBLIN, "a", 3), *band(GOBLIN, "b", 3), round=0)
    hurt = enc.get("b1").model_copy(update={"hp": 1})
    after = enc.put(hurt)
    assert after.get("b1").hp == 1 and enc.get("b1").hp == 5
    assert [c.id for c in after.combatants] == [c.id for c in enc.combatants]
    assert after == enc.model_copy(update={"combatants": tuple(hurt if c.id == "b1" else c for c in enc.combatants)})
    assert enc.put(from_spec(GOBLIN, "nobody", side="monsters")) == enc      # an unknown id changes nothing
    with pytest.raises(IllegalActionError, match="no combatant 'zz'; known: a0"):
        enc.get("zz")
    copied = after.model_copy(update={"combatants": tuple(reversed(after.combatants))})   # the index follows
    assert copied.get("a0").id == "a0" and copied.get("b1").hp == 1


def test_encounter_with_a_repeated_id_replaces_each() -> None:
    twice = encounter(from_spec(GOBLIN, "g", side="monsters"), from_spec(GOBLIN, "g", side="monsters", hp=3), round=0)
    assert twice.get("g").hp == 5
    assert [c.hp for c in twice.put(from_spec(GOBLIN, "g", side="monsters", hp=1)).combatants] == [1, 1]


def test_step_freezes_into_the_same_encounter() -> None:
    """Changes inside a Step give the Encounter that copying at every change gave, frozen when read."""
    enc = encounter(*band(GOBLIN, "a", 3), *band(GOBLIN, "b", 3), round=0)
    step = Step(enc, ScriptedDice([]), RULES)
    slow = enc
    steps: list[tuple[str, dict[str, object]]] = [
        ("a0", {"hp": 3}), ("b2", {"zone": "CLOSE"}), ("a0", {"hp": 1, "status": "dead"}),
        ("b0", {"held": (Held(name="UNCONSCIOUS"),)})]
    for cid, changes in steps:
        step.update(cid, **changes)
        slow = slow.put(slow.get(cid).model_copy(update=changes))
        assert step.c(cid) == slow.get(cid)
    assert step.enc == slow and step.enc.model_dump() == slow.model_dump()
    assert step.enc is step.enc                      # frozen once, until the next change
    step.enc = enc                                   # setting it starts again from that encounter
    assert step.c("a0").hp == 5 and step.enc is enc


def test_an_update_that_changes_nothing_is_not_made() -> None:
    enc = encounter(*band(GOBLIN, "a", 1), *band(GOBLIN, "b", 1), round=0)
    step = Step(enc, ScriptedDice([]), RULES)
    same = step.update("a0", hp=5, zone="NEAR")
    assert same is enc.get("a0") and step.enc is enc
    assert step.update("a0", hp=5.0).hp == 5.0        # a value of another type is a change, as model_copy made it


def test_a_players_luck_pool_stays_in_the_step_until_the_freeze() -> None:
    """Ann's two PCs fail a CON SAVE each (3 and 4 vs 12): her second failure in a row earns a Luck Die.
    The step holds the pool (`luck`, as the rules read it) and copies neither PC for the rolls; the frozen encounter
    gives both of them her 1 die and streak 2."""
    ann: dict[str, Any] = {"side": "a", "kind": "pc", "player": "Ann", "saves": {"CON": 0}}
    enc = encounter(from_spec(GOBLIN, "p1", **ann), from_spec(GOBLIN, "p2", **ann), *band(GOBLIN, "b", 1), round=1)
    step = Step(enc, ScriptedDice([3, 4]), RULES)
    save = parse_effect({"kind": "save", "ability": "CON", "dc": "12", "target": "self"})
    apply_all(step, [save], actor="p1", target="p1")
    apply_all(step, [save], actor="p2", target="p2")
    assert step.luck(step.c("p1")) == LuckState(dice=1, streak=2)
    assert step.c("p1") is enc.get("p1") and step.c("p2") is enc.get("p2")      # no copy for a roll
    assert [(c.luck_dice, c.luck_streak) for c in step.enc.combatants[:2]] == [(1, 2), (1, 2)]


def test_log_reads_the_round_without_freezing() -> None:
    step = Step(encounter(*band(GOBLIN, "a", 1), *band(GOBLIN, "b", 1), round=4), ScriptedDice([]), RULES)
    step.update("a0", hp=2)
    step.fact("round", "")
    assert step.events[-1].data == {"round": 4}


def test_a_fact_is_the_event_its_init_would_make() -> None:
    """`Step.fact` makes its Event field by field: every field of `Event` set, the same value `Event(...)` gives."""
    step = Step(encounter(*band(GOBLIN, "a", 1), *band(GOBLIN, "b", 1), round=2), ScriptedDice([]), RULES)
    step.fact("hit", "a0", ("b0",), (), ("F-CMBT-01",), audience="referee", total=14)
    made = step.events[-1]
    assert {f.name: getattr(made, f.name) for f in dataclasses.fields(Event)} == {
        "kind": "hit", "actor": "a0", "targets": ("b0",), "rolls": (), "data": {"round": 2, "total": 14},
        "rules": ("F-CMBT-01",), "cast": {"a0": made.cast["a0"], "b0": made.cast["b0"]}, "audience": "referee"}
    assert made == Event("hit", "a0", ("b0",), (), {"round": 2, "total": 14}, ("F-CMBT-01",), made.cast, "referee")


def test_steps_of_the_same_combatants_share_their_casts_and_a_summons_keeps_its_own() -> None:
    """The casts of facts are kept for every step of the same combatants (ids, names, kinds, players): a second
    fight of them reuses the first's; other names make other casts; a creature joining a step (a summons) makes its
    casts its own, the shared ones untouched."""
    enc = encounter(*band(GOBLIN, "a", 1), *band(GOBLIN, "b", 1), round=1)
    first, again = Step(enc, ScriptedDice([]), RULES), Step(enc, ScriptedDice([]), RULES)
    first.fact("hit", "a0", ("b0",))
    again.fact("hit", "a0", ("b0",))
    assert again.events[-1].cast is first.events[-1].cast
    renamed = encounter(from_spec(GOBLIN, "a0", side="a", name="Other"), *band(GOBLIN, "b", 1), round=1)
    other = Step(renamed, ScriptedDice([]), RULES)
    other.fact("hit", "a0", ("b0",))
    assert other.events[-1].cast["a0"].name == "Other" and first.events[-1].cast["a0"].name != "Other"
    summoner = Step(enc, ScriptedDice([]), RULES)
    summoner.enc = summoner.enc.model_copy(update={"combatants": (*enc.combatants, from_spec(GOBLIN, "s0",
                                                                                             side="a"))})
    summoner.fact("hit", "s0", ("b0",))
    assert summoner.events[-1].cast["s0"].name == summoner.c("s0").name
    shared = Step(enc, ScriptedDice([]), RULES)
    assert ("s0", ("b0",)) not in shared._casts and "s0" not in shared._parts


def _scanned(enc: Encounter, c: Combatant, near: bool = False) -> str | None:
    """The nearest foe as the engine found it before: a scan of every combatant."""
    foes = [o for o in enc.enemies_of(c) if not near or o.zone in ("CLOSE", "NEAR")]
    return min(foes, key=lambda o: (zone_index(o), o.hp, o.id)).id if foes else None


def test_F_CMBT_01_nearest_foe_is_the_scan_s_through_many_changes() -> None:
    """F-CMBT-01 simple tactic (nearest zone, fewest HP, then id): the kept order answers as a scan would, after
    any changes of HP, zone, status and conditions made inside a Step and across frozen encounters."""
    r = random.Random(13)
    enc = Encounter(combatants=tuple(from_spec(GOBLIN, f"{s}{i}", side=s, hp=r.randint(1, 9), zone=r.choice(ZONES))
                                     for s in "abc" for i in range(12)))
    step = Step(enc, ScriptedDice([]), RULES)
    ids = [c.id for c in enc.combatants]
    for _ in range(600):
        cid = r.choice(ids)
        field = r.choice(["hp", "zone", "status", "held", "luck_dice"])
        value = {"hp": r.randint(-2, 9), "zone": r.choice(ZONES), "status": r.choice(["up", "up", "dead", "fled"]),
                 "held": r.choice([(), (Held(name="UNCONSCIOUS"),), (Held(name="PRONE"),)]),
                 "luck_dice": r.randint(0, 3)}[field]
        step.update(cid, **{field: value})
        if r.random() < 0.3:
            frozen = step.enc
            me = frozen.get(r.choice(ids))
            for near in (False, True):
                assert frozen.nearest_foe(me, near) == _scanned(frozen, me, near)
                assert Encounter.model_validate(frozen.model_dump()).nearest_foe(me, near) == _scanned(frozen, me,
                                                                                                     near)


@pytest.mark.parametrize("size", [4, 32])
def test_a_fight_of_any_size_is_the_same_from_its_seed(size: int) -> None:
    """A fight on the indexed encounter replays exactly from its seed (the log and the end), and after each round
    every combatant's nearest foe is the scan's. (The example fights' logs before and after this engine were
    compared event by event under the three profiles; tests/golden keeps them.)"""
    from furnace.play.encounter import run_round

    def play(enc: Encounter) -> tuple[Encounter, list[object]]:
        rng, log = dice.seeded(size), list[object]()
        while not enc.over and enc.round < 6:
            enc, events = run_round(enc, rng, RULES)
            log += [(e.kind, e.who, e.data, [r.faces for r in e.rolls]) for e in events]
            for c in enc.combatants:
                assert enc.nearest_foe(c) == _scanned(enc, c)
        return enc, log

    first = play(encounter(*band(GOBLIN, "a", size), *band(GOBLIN, "b", size), round=0))
    second = play(encounter(*band(GOBLIN, "a", size), *band(GOBLIN, "b", size), round=0))
    assert first[1] == second[1] and first[0].model_dump() == second[0].model_dump()


def test_a_monster_of_a_spec_already_in_its_kinds_is_the_one_pydantic_would_make() -> None:
    """`combatant.monster` makes a spec's monster at once when its armor, zone, morale and kinds are already of
    their types (no validator built), and hands any other spec to pydantic: coerced when it can be, else refused."""
    spec = {"hp": 5, "armor": "light", "zone": "CLOSE", "morale": 7, "armor_key": "leather", "features": ["Cleave"]}
    made = from_spec(spec, "g1", side="monsters")
    assert made == Combatant.model_validate(made.model_dump())
    assert made.features == ("Cleave",) and made.morale == 7 and made.zone == "CLOSE"
    assert from_spec({**spec, "morale": "7"}, "g1", side="monsters") == made       # coerced by pydantic
    with pytest.raises(ValidationError):
        from_spec({**spec, "zone": "MIDDLE"}, "g1", side="monsters")
    with pytest.raises(ValidationError):
        from_spec({**spec, "armor": ["light"]}, "g1", side="monsters")
