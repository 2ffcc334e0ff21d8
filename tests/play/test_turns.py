"""Turn by turn (`furnace.play.turns`): whose turn, what she may do and why not, one action at a time.

F-INIT-01 (group initiative: the order of the turns), F-SURP-01 (the surprised lose round 1), F-CMBT-01 (one
action on one's own turn), F-CMBT-02/03 (dodge, disengage), F-BASE-05 (reach by zone), F-DEATH-01 (the dying
roll at their turn), AMB-20 (standing up takes the movement), AMB-28 (stabilising a dying ally), F-MU-04
(a depleted caster is refused), AMB-47 (a spell she does not know). Dice are scripted: `remaining == 0`
proves the engine asked for exactly the dice the test gave.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.errors import IllegalActionError
from furnace.play import turns
from furnace.play.combatant import Combatant
from furnace.play.conditions import Held
from furnace.play.encounter import Action, run_fight
from furnace.play.fightfile import build, load_fight
from furnace.render.story import tell_referee
from furnace.render.story.status import encounter_lines
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import encounter, monster, pc
from tests.helpers.story import said

RULES = load_ruleset()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SAVES = {"STR": 0, "DEX": 0, "CON": 0, "INT": 0, "WIS": 0, "CHA": 0}
PC: dict[str, Any] = dict(char_class=None, saves=SAVES)   # a level-1 PC of no class, 10 HP, every SAVE +0
MON: dict[str, Any] = dict(saves=SAVES)   # every SAVE +0


def begin(*combatants: Combatant, faces: list[int], **enc: Any) -> tuple[turns.Turns, ScriptedDice]:
    rng = ScriptedDice(faces)
    t, _ = turns.start(encounter(*combatants, round=0, **enc), rng, RULES)
    return t, rng


def due_id(t: turns.Turns) -> str | None:
    c = turns.due(t)
    return c.id if c else None


def test_F_INIT_01_F_CMBT_01_the_order_of_turns_one_action_each() -> None:
    """Side a rolls 5, side b 2: a acts first (F-INIT-01). B acting out of turn is refused naming who is due.
    A's ATK d20 15 + 3 = 18 hits AC 12 for 1d8 = 4; then B is due; the tactic plays B (d20 10 + 2 = 12 hits
    AC 12 for 3) and round 2 opens with no new initiative roll: A is due again."""
    t, rng = begin(pc(PC), monster(MON), faces=[5, 2])
    assert t.encounter.phases == (("a",), ("b",)) and due_id(t) == "a"
    assert turns.refusal(t, "b", Action("attack", "a"), RULES) == "it is not B's turn: A is due (round 1)"
    with pytest.raises(IllegalActionError, match="not B's turn"):
        turns.take(t, "b", Action("attack", "a"), rng, RULES)
    rng = ScriptedDice([15, 4])
    t, events = turns.take(t, "a", Action("attack", "b"), rng, RULES)
    assert t.encounter.get("b").hp == 46 and due_id(t) == "b"
    assert [e.kind for e in events] == ["hit", "damage_roll", "damage"]
    rng = ScriptedDice([10, 3])
    t, events = turns.run_tactic(t, rng, RULES)
    assert t.encounter.get("a").hp == 7 and t.encounter.round == 2 and due_id(t) == "a"
    assert "initiative" not in [e.kind for e in events] and rng.remaining == 0


def test_the_turns_survive_json() -> None:
    """What a campaign stores: the turns as JSON read back the same."""
    t, _ = begin(pc(PC), monster(MON), faces=[5, 2])
    assert turns.Turns.model_validate(t.model_dump(mode="json")) == t


def test_F_SURP_01_the_surprised_side_loses_round_1() -> None:
    """B wins initiative (5 against 2) but is surprised: A is due first, and B's turn of round 1 is skipped."""
    t, rng = begin(pc(PC), monster(MON), faces=[2, 5], surprised=("b",))
    assert t.encounter.phases == (("b",), ("a",)) and due_id(t) == "a"
    t, _ = turns.take(t, "a", Action("wait"), rng, RULES)
    assert t.encounter.round == 2 and due_id(t) == "b" and rng.remaining == 0


@pytest.mark.parametrize("initiative", ["group", "simultaneous"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_tactic_turn_by_turn_is_the_automatic_fight(initiative: str, seed: int) -> None:
    """F-INIT-01/02: played turn by turn with the tactic, a fight is `run_fight`'s, event for event."""
    path = EXAMPLES / "funnel-vs-goblins.yaml"
    spec = load_fight(path).model_copy(update={"initiative": initiative})
    enc = build(spec, path.parent, dice.seeded(seed), RULES)
    expected, logged = run_fight(enc, dice.seeded(seed + 50), RULES, 100)
    rng = dice.seeded(seed + 50)
    t, events = turns.start(enc, rng, RULES)
    t, more = turns.run_tactic(t, rng, RULES, until=lambda c: False)
    assert t.encounter == expected and expected.over
    assert [tell_referee(e) for e in events + more] == [tell_referee(e) for e in logged]
    assert turns.due(t) is None
    assert turns.refusal(t, "agna", Action("wait"), RULES) == f"the fight is over: {expected.winner} stands"


def test_run_tactic_stops_when_a_player_character_is_due() -> None:
    """The monsters go first (6 against 1); the tactic plays B's turn (d20 1: a miss … a natural 1 fumbles, so
    face 2: 2 + 2 = 4 misses AC 12) and stops at A."""
    t, rng = begin(pc(PC), monster(MON), faces=[1, 6])
    assert due_id(t) == "b"
    rng = ScriptedDice([2])
    t, events = turns.run_tactic(t, rng, RULES)
    assert due_id(t) == "a" and [e.kind for e in events] == ["miss"] and rng.remaining == 0


def test_F_BASE_05_reach_by_zone() -> None:
    """A melee blow needs both CLOSE; from NEAR she goes NEAR and attacks (move_attack) a foe CLOSE or NEAR,
    never one RANGED; a missile reaches anyone not FAR."""
    t, _ = begin(pc(PC, zone="NEAR"), monster(MON, zone="NEAR"), monster("c", MON, zone="RANGED"),
                 monster("d", MON, zone="FAR"), faces=[6, 1])
    why = turns.refusal(t, "a", Action("attack", "b"), RULES)
    assert why is not None and why.startswith("B is out of reach: A is NEAR and B NEAR; a melee blow needs both CLOSE")
    assert turns.refusal(t, "a", Action("move_attack", "b"), RULES) is None
    assert turns.action_for(t, "a", "attack", "b", RULES).kind == "move_attack"
    assert turns.refusal(t, "a", Action("move_attack", "c"), RULES) == (
        "C is RANGED: out of reach this turn (a foe CLOSE or NEAR can be reached and attacked in one turn, F-BASE-05)")
    archer, _ = begin(pc(PC, zone="NEAR", ranged=True), monster(MON, zone="RANGED"), monster("d", MON, zone="FAR"),
                      faces=[6, 1])
    assert turns.refusal(archer, "a", Action("attack", "b"), RULES) is None
    assert turns.refusal(archer, "a", Action("attack", "d"), RULES) == (
        "D is out of reach: D is FAR, beyond a missile's range (F-BASE-05)")
    menu = {c.kind: c for c in turns.legal_actions(t, "a", RULES)}
    assert menu["move_attack"].targets == ("b",) and not menu["attack"].legal
    assert menu["disengage"].reason == "A is NEAR, not CLOSE: there is nothing to disengage from (F-CMBT-03)"


def test_F_ARCH_03_F_MAGIC_02_the_table_verbs_for_bloodmagic_and_an_item() -> None:
    """`attack FOE --bloodmagic` carries the Bloodshaman's choice onto the blow (CLOSE or closing in); `use` a
    magic item aims at herself unless a target is named."""
    t, _ = begin(pc(PC, zone="CLOSE"), monster(MON, zone="CLOSE"), monster("c", MON, zone="NEAR"), faces=[6, 1])
    assert turns.action_for(t, "a", "attack", "b", RULES, bloodmagic=True) == Action("attack", "b",
                                                                                      detail="bloodmagic")
    assert turns.action_for(t, "a", "attack", "c", RULES, bloodmagic=True).detail == "bloodmagic"
    assert turns.action_for(t, "a", "attack", "b", RULES).detail is None
    assert turns.action_for(t, "a", "use", None, RULES, item="Shield of Shielding") == Action(
        "use", "a", detail="Shield of Shielding")


def test_own_side_and_the_fallen_are_no_targets() -> None:
    t, _ = begin(pc(PC), pc("e", PC), monster(MON), monster("c", MON, status="dead", hp=0), faces=[6, 1])
    assert turns.refusal(t, "a", Action("attack", "e"), RULES) == "E is on A's side"
    assert turns.refusal(t, "a", Action("attack", "c"), RULES) == "C is dead: out of the fight"
    assert turns.refusal(t, "a", Action("attack"), RULES) == "attack needs a target"
    assert str(turns.refusal(t, "a", Action("jump"), RULES)).startswith("unknown action 'jump'; the actions are attack")


def test_AMB_20_standing_up_takes_the_movement_and_conditions_bar_attacks() -> None:
    """A PRONE character stands at her turn's start (AMB-20): she may still strike where she is, but not move;
    one who CANT_ATTACK is refused the blow with the condition named."""
    prone = Held(name="PRONE", source="a trip", ending="stands")
    t, _ = begin(pc(PC, zone="NEAR", held=(prone,)), monster(MON, zone="NEAR"), faces=[6, 1])
    assert turns.refusal(t, "a", Action("move_attack", "b"), RULES) == (
        "A stood up this turn: that was her movement (AMB-20)")
    assert turns.refusal(t, "a", Action("go_ranged"), RULES) == "A stood up this turn: that was her movement (AMB-20)"
    barred = Held(name="CANT_ATTACK", source="a crit", ending="round", until_round=3)
    t, _ = begin(pc(PC, held=(barred,)), monster(MON), faces=[6, 1])
    assert turns.refusal(t, "a", Action("attack", "b"), RULES) == "A cannot attack this turn (CANT_ATTACK)"
    assert turns.refusal(t, "a", Action("dodge"), RULES) is None


def test_F_DEATH_01_AMB_28_the_dying_roll_at_their_turn_and_a_stabilise() -> None:
    """Side a first (6 against 1). Dying D's turn comes first: its d20 (5) is no natural 20, one turn left, and
    the pointer moves on to E. E may stabilise D (AMB-28), not the foe nor herself; her Medicine CHECK d20 2 +
    WIS 0 fails against ROOM DC 12, and B is due."""
    dying = pc("d", PC, status="dying", hp=-1, dying_turns=2)
    t, rng = begin(dying, pc("e", PC), monster(MON), faces=[6, 1, 5])
    assert due_id(t) == "e" and t.encounter.get("d").dying_turns == 1
    assert "dies in 1 turn unless stabilised or a natural 20" in "\n".join(encounter_lines(t))
    assert turns.refusal(t, "e", Action("stabilise", "b"), RULES) == "E stabilises an ally, and B is not one"
    menu = {c.kind: c for c in turns.legal_actions(t, "e", RULES)}
    assert menu["stabilise"].targets == ("d",)
    rng = ScriptedDice([2])
    t, events = turns.take(t, "e", Action("stabilise", "d"), rng, RULES)
    assert said(events[0]).startswith("fails to stabilise D (2") and t.encounter.get("d").status == "dying"
    assert due_id(t) == "b" and rng.remaining == 0
    well, _ = begin(pc("d", PC), pc("e", PC), monster(MON), faces=[6, 1])
    assert turns.refusal(well, "d", Action("stabilise", "e"), RULES) == "E is not dying (up, HP 10)"


def test_F_CMBT_02_a_dodge_shows_its_time_left() -> None:
    """DODGE: ATK against her are HARD until her next turn (round 2): the status says one round is left."""
    t, rng = begin(pc(PC), monster(MON), faces=[6, 1])
    t, _ = turns.take(t, "a", Action("dodge"), rng, RULES)
    text = "\n".join(encounter_lines(t))
    assert "attacks against it are HARD (1 round left: ends at its turn in round 2, DODGE)" in text
    assert "due: B (b, b)" in text and "round 1; initiative: a → b" in text


def test_F_MU_04_AMB_47_what_the_cast_action_refuses() -> None:
    """The "cast" action (magic's) is refused with its own reason: an unknown spell, one she does not know,
    a depleted caster (F-MU-04); none of these rolls a die of the fight."""
    caster = pc(PC, spell_mod=2, spells=("Fireball",), char_class="Magic-user")
    t, rng = begin(caster, monster(MON), faces=[6, 1])
    assert "Nope" in str(turns.refusal(t, "a", Action("cast", "b", detail="Nope"), RULES))
    assert turns.refusal(t, "a", Action("cast", "b", detail="Ember Swarm"), RULES) == (
        "A does not know Ember Swarm (AMB-47)")
    assert turns.refusal(t, "a", Action("cast", "b", detail="Fireball"), RULES) is None
    menu = {c.kind: c for c in turns.legal_actions(t, "a", RULES)}
    assert menu["cast"].details == ("Fireball",) and "b" in menu["cast"].targets
    depleted = Held(name="DEPLETED", source="Spell Depletion", ending="rest")
    spent, _ = begin(caster.model_copy(update={"held": (depleted,)}), monster(MON), faces=[6, 1])
    assert turns.refusal(spent, "a", Action("cast", "b", detail="Fireball"), RULES) == (
        "A cannot cast until a rest (Spell Depletion, F-MU-04)")
    fighter, _ = begin(pc(PC), monster(MON), faces=[6, 1])
    assert {c.kind: c for c in turns.legal_actions(fighter, "a", RULES)}["cast"].reason == (
        "A has nothing to cast")
    assert rng.remaining == 0


def test_action_for_reads_a_tables_verbs() -> None:
    t, _ = begin(pc(PC, zone="CLOSE"), monster(MON, zone="CLOSE"), faces=[6, 1])
    assert turns.action_for(t, "a", "attack", "b", RULES) == Action("attack", "b")
    assert turns.action_for(t, "a", "move", "RANGED", RULES) == Action("go_ranged")
    assert turns.action_for(t, "a", "Stabilize", "b", RULES) == Action("stabilise", "b")
    assert turns.action_for(t, "a", "cast", "b", RULES, spell="Fireball") == Action("cast", "b", detail="Fireball")
    with pytest.raises(IllegalActionError, match="unknown action 'jump'"):
        turns.action_for(t, "a", "jump", None, RULES)
