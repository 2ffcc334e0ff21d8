"""furnace.play.odds: exact odds of one ATK and of a dying character, checked two ways: against the engine itself
(every way its dice can fall, enumerated: `enumerate_engine`) and against icepool, an independent implementation
of dice odds given the rows by hand.

F-CMBT-01 (the ATK meets the AC), F-CRIT-01/02 (a natural 20 hits and crits: maximum DAM, AMB-23, and the class
table's row with the level's crit die, F-TAB-30/31/34), F-ARCH-02 (a Barbarian's melee crit on 19), F-CRIT-03
(monsters crit only with the option), F-FUMB-01 (a natural 1 misses), F-DEATH-01 (1d4 turns, a natural 20 each
turn gets up).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest

from furnace.errors import FurnaceError
from furnace.play.attacks import attack
from furnace.play.combatant import Combatant
from furnace.play.death import dying_turn, take_damage
from furnace.play.odds import attack_bonus_of, attack_odds, attacker, class_name, dying_odds
from furnace.play.state import Encounter, Step
from furnace.rules.ruleset import Ruleset, load_ruleset
from tests.helpers.factories import monster

RULES = load_ruleset()
FOE: dict[str, Any] = dict(name="Foe", hp=1000, hp_max=1000, attack_bonus=0, weapon="club",
                          saves={a: 0 for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA")})   # a club, 1,000 HP


class Branch(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class Prefix:
    """Dice that show the given faces, then stop and say which die comes next (for `enumerate_engine`)."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.used = faces, 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if self.used == len(self.faces):
            raise Branch(high - low)
        self.used += 1
        return low + self.faces[self.used - 1] - 1

    def random(self) -> float:
        return 0.0


def enumerate_engine(run: Callable[[Prefix], int]) -> dict[int, Fraction]:
    """The exact distribution of what `run` returns, found by running the engine with every sequence of faces
    its dice can show (each die branching into all its faces, weighted 1/sides)."""
    found: defaultdict[int, Fraction] = defaultdict(Fraction)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, weight = stack.pop()
        try:
            value = run(Prefix(faces))
        except Branch as b:
            stack += [([*faces, f], weight / b.sides) for f in range(1, b.sides + 1)]
            continue
        found[value] += weight
    return dict(sorted(found.items()))


def engine_damage(a: Combatant, ac: int, rules: Ruleset = RULES) -> dict[int, Fraction]:
    """The damage one engine ATK deals the foe (its extra attacks, queued for later, not made)."""
    a = a.model_copy(update={"zone": "CLOSE", "hp": 10, "hp_max": 10})

    def run(dice: Prefix) -> int:
        s = Step(Encounter(room_dc=12, combatants=(a, monster("foe", FOE, ac=ac))), dice, rules)
        attack(s, a.id, "foe")
        return 1000 - s.c("foe").hp

    return enumerate_engine(run)


@pytest.mark.parametrize(("bonus", "damage", "level", "char_class", "ac", "crit_on"), [
    (3, "1d8+2", 3, "fighter", 14, 20),        # the example: a level-3 Fighter, crit die d10
    (0, "1d6", 0, None, 12, 20),               # a 0-level peasant: F-TAB-34 with a d4 (AMB-24)
    (5, "1d4-2", 1, "rogue", 25, 20),          # AC out of reach: only the natural 20; at least 1 DAM a hit
    (2, "1d10", 2, "fighter", 10, 19),         # a Barbarian's melee-crit-19 (F-ARCH-02), crit die d8
])
def test_F_CRIT_01_02_attack_odds_are_the_engine_s_every_way(bonus: int, damage: str, level: int,
                                                             char_class: str | None, ac: int, crit_on: int) -> None:
    a = attacker(bonus, damage, level=level, char_class=char_class, crit_on=crit_on)
    odds = attack_odds(a, ac, RULES)
    assert odds.damage == engine_damage(a, ac)
    assert sum(odds.damage.values()) == 1


def test_F_CRIT_01_level_3_fighter_against_icepool() -> None:
    """d20+3 vs AC 14, 1d8+2: hits on naturals 11–20 (1/2), crits on 20 (1/20): 10 + the F-TAB-31 row rolled on
    a d10 (F-TAB-30 level 3): rows 1–10 add 1d10, 1d8 ×4, nothing (one more ATK), 1d10 ×3, 2d10."""
    a = attacker(3, "1d8+2", level=3, char_class="Fighter")
    odds = attack_odds(a, 14, RULES)
    assert (odds.p_hit, odds.p_crit, odds.p_fumble) == (Fraction(1, 2), Fraction(1, 20), Fraction(1, 20))
    assert (odds.crit_table, odds.crit_die) == ("crit-fighter", "d10")
    extra = [icepool.d10, icepool.d8, icepool.d8, icepool.d8, icepool.d8, icepool.Die([0]), icepool.d10,
             icepool.d10, icepool.d10, 2 @ icepool.d10]
    crit = 10 + icepool.d10.map(lambda row: extra[row - 1])
    hit = (icepool.d8 + 2).map(lambda d: max(1, d))
    per_attack = icepool.d20.map(lambda n: crit if n == 20 else hit if n + 3 >= 14 and n != 1 else 0)
    peer = {int(k): Fraction(n, per_attack.denominator()) for k, n in per_attack.items()}
    assert odds.damage == peer
    assert odds.expected == Fraction(92, 25)


def test_F_CRIT_03_a_monster_crits_only_with_the_option() -> None:
    """Without monster_crits a natural 20 hits for ordinary DAM; with it, the monster crit table."""
    m = attacker(0, "1d6", level=1, monster=True)
    plain = attack_odds(m, 12, RULES)
    assert plain.p_crit == 0 and plain.crit_table is None and plain.p_hit == Fraction(9, 20)
    assert plain.damage == engine_damage(m, 12)
    rules = RULES.with_options({"monster_crits": True}, "test")
    crits = attack_odds(m, 12, rules)
    assert crits.p_crit == Fraction(1, 20) and crits.crit_table is not None


def test_F_CMBT_01_easy_and_hard_move_the_ac() -> None:
    """F-BASE-04: each HARD +3 (AC 14 → 17): d20+3 then hits on 14–20."""
    a = attacker(3, "1d8", level=1, char_class="Fighter")
    assert attack_odds(a, 14, RULES, hard=("dark",)).p_hit == Fraction(7, 20)
    assert attack_odds(a, 14, RULES, easy=("prone",)).p_hit == Fraction(13, 20)


def test_AMB_23_crit_damage_max_dice_only() -> None:
    """crit_damage max_dice_only: the crit's base is the dice's maximum, 8 for 1d8+2 (not 10)."""
    rules = RULES.with_options({"crit_damage": "max_dice_only"}, "test")
    a = attacker(3, "1d8+2", level=0)
    assert min(attack_odds(a, 14, rules).crit_damage) == 9          # 8 + the d4 row's least (F-TAB-34)
    assert attack_odds(a, 14, rules).damage == engine_damage(a, 14, rules)


@pytest.mark.parametrize(("damage", "most"), [("1d8+1d6", 14), ("-1+1d8", 8), ("(1d8+2)", 8)])
def test_AMB_23_max_dice_only_of_any_damage_expression(damage: str, most: int) -> None:
    """crit_damage max_dice_only: the dice's maximum whatever the expression's shape, as the engine deals it."""
    rules = RULES.with_options({"crit_damage": "max_dice_only"}, "test")
    a = attacker(3, damage, level=0)
    assert min(attack_odds(a, 14, rules).crit_damage) == most + 1     # + the d4 row's least (F-TAB-34)
    assert attack_odds(a, 14, rules).damage == engine_damage(a, 14, rules)


def test_crit_rows_that_kill_are_counted() -> None:
    """A level-10 Fighter's d20+10 reaches F-TAB-31 row 28+ ('Beheaded: the foe dies') and row 24's death."""
    odds = attack_odds(attacker(8, "1d8+4", level=10, char_class="fighter"), 15, RULES)
    killing = {r.span for r in odds.crit_rows if r.kills}
    assert "28+" in killing and "20" in killing
    assert odds.p_kill_row > 0 and sum(r.chance for r in odds.crit_rows) == 1


def test_inputs_are_refused_in_sentences() -> None:
    assert attack_bonus_of("d20+3") == 3 and attack_bonus_of("1d20-1") == -1 and attack_bonus_of("+2") == 2
    with pytest.raises(FurnaceError, match="d20 plus a number"):
        attack_bonus_of("2d20+3")
    with pytest.raises(FurnaceError, match="the classes are"):
        class_name("bard")
    with pytest.raises(FurnaceError, match="crit_model"):
        attack_odds(attacker(3, "1d8"), 12, RULES.with_options({"crit_model": "middle-sea"}, "test"))


@pytest.mark.slow  # thousands of engine dyings: the whole run only
def test_F_DEATH_01_dying_odds_are_the_engine_s_every_way() -> None:
    """1d4 turns; each of her turns a d20, up with 1 HP on a natural 20: Σ_t ¼ (1 − (19/20)^t)."""
    odds = dying_odds(RULES)
    assert odds.gets_up == sum(Fraction(1, 4) * (1 - Fraction(19, 20) ** t) for t in range(1, 5))
    pc = Combatant(id="pc", name="Pc", side="a", kind="pc", level=1, hp=1, hp_max=5, ac=10, attack_bonus=0)

    def run(dice: Prefix) -> int:
        s = Step(Encounter(room_dc=12, combatants=(pc,)), dice, RULES)
        take_damage(s, "pc", 1, "a blow")                    # HP 0: dying, the 1d4 timer rolled
        while s.c("pc").status == "dying":
            dying_turn(s, "pc")
        return int(s.c("pc").status == "up")

    assert enumerate_engine(run)[1] == odds.gets_up


def test_F_DEATH_01_other_death_models_have_no_timer() -> None:
    with pytest.raises(FurnaceError, match="death_model"):
        dying_odds(load_ruleset("middle-sea"))
