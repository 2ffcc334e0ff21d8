"""A whole session through the CLI, in-process on one campaign in a temporary SQLite file: a funnel for four
players, a fight in which two peasants die, the survivors promoted, a second fight turn by turn, a long rest,
three days of travel with a torch and a disease on the clock — then the campaign reopened by a new Store and
every number checked against the rules worked by hand from the dice that fell.

The seeded commands roll `random.Random(seed)` (`furnace.dice.seeded`); where a whole fight is seeded, the
faces below are the ones its log shows, and every total is worked from them by the rule named beside it.

RULES.md: F-CHAR-01, F-HP-05 (funnel, 1d4 HP), F-ABIL-02, F-INIT-01 (group initiative, a tie acts together),
D-2 (a monster attacks at ROOM DC − 10), F-DEATH-02 (dead at HP ≤ −(3 + LVL + CON)), F-LUCK-01 / AMB-02 (a Luck
Die after the 2nd failed d20 roll in a row, the player's), REF-24 (the XP of the beaten monsters shared by the
survivors, the remainder unawarded), F-CHAR-04, F-HP-02/03, F-FTR-01, D-6 (level-1 HP: a d10 floored at
min(1 + CON, 5), added to the funnel HP), F-CRIT-01 (a crit deals the maximum), F-FTR-03 / AMB-01 (Cleave carries
the excess), F-REST-02 (long rest: spend every Hit Die, capped at the maximum, refill), F-MU-04 (depletion),
H-LIGHT-02 (a torch burns 6 turns of 10 minutes), H-DIS-04/05 (a save each interval after incubation, −2 when
not resting; AMB-73 c: −1 INT a failure), H-TRAV-02 (the daily lost roll), CF-30 (the death models): H-DMG-03
(hazards: dead at −3), M-GRIEV-01 (middle-sea: HP stop at 0, a grievous roll instead), H-HEAL-01/08,
M-HEAL-01/02/03.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace.campaign.state import CampaignState
from furnace.characters import xp
from furnace.render.story.campaign import death_words
from tests.helpers.factories import reopened
from tests.scenarios.session import Run, faces, runner

PLAYERS = ("A", "B", "C", "D")
AGUE = "name: Marsh Ague\nincubation: 1 day\ninterval: 1 day\ninfection: 3 days\neffect: {ability: INT}\n"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
GOBLIN_XP = 5                                     # the bestiary's goblin (humanoids.yaml)
FOUGHT = 5 * 6                                    # the two fights' 5 rounds of 6 seconds moved the clock (AMB-03)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "campaigns.db"


@pytest.fixture
def run(db: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(db, capsys)


def funnel_and_first_fight(run: Run, profile: str, *options: str) -> None:
    """Four players, one peasant each (seed 1), against two goblins (seed 2)."""
    run("campaign", "new", "keep", "--profile", profile, *options)
    run("funnel", *[a for p in PLAYERS for a in ("--player", p)], "--per-player", "1", "--seed", "1")
    run("fight", "--party", "all", "--monsters", "goblin x2", "--seed", "2")


@pytest.mark.rule(
    "F-DEATH-02",
    "F-REST-02",
    "H-LIGHT-02",
    "H-DIS-04",
    "F-HP-05",
    "F-ABIL-02",
    "F-ARCH-02",
    "F-CHAR-01",
    "F-CHAR-04",
    "F-TAB-04",
)
def test_a_whole_session_F_DEATH_02_F_REST_02_H_LIGHT_02_H_DIS_04(run: Run, db: Path, tmp_path: Path) -> None:
    funnel_and_first_fight(run, "furnace", "--option", "hazards_light=true", "--option", "hazards_disease=true",
                           "--option", "hazards_travel=true")
    state = reopened(db)
    peasants = {m.id: m.character for m in state.roster.values()}
    # F-HP-05: 1d4 HP each (seed 1 rolled 1, 3, 2, 3); CON modifiers 0, 0, +1, +1 (F-ABIL-02)
    assert {k: (c.hp_max, c.scores["CON"]) for k, c in peasants.items()} == {
        "a1": (1, 9), "b1": (3, 9), "c1": (2, 13), "d1": (3, 15)}
    first_fight_as_worked(reopened(db))
    promote(run)
    (face,) = faces(1, 10)                              # each promotion is seeded 1: the d10 shows 2
    state = reopened(db)
    hp = {k: state.roster[k].character.hp_max for k in ("b1", "d1")}
    assert hp == {"b1": level_1_hp(3, face, con=0), "d1": level_1_hp(3, face, con=1)} == {"b1": 5, "d1": 5}
    # F-ARCH-02: a Barbarian's basic PROF in Intimidation and Survival, besides the occupation's (F-CHAR-01) and
    # the skills chosen (F-CHAR-04); a Fighter saves with STR plus the one chosen (F-TAB-04)
    assert {k: (set(state.roster[k].character.skills), set(state.roster[k].character.saves)) for k in hp} == {
        "b1": ({"Perception", "Intimidation", "Survival"}, {"STR", "DEX"}),
        "d1": ({"Insight", "Athletics", "Intimidation", "Survival"}, {"STR", "DEX"})}
    b1_hp = second_fight(run)
    state = reopened(db)
    # REF-24: 2 goblins × 5 XP shared by 2 survivors, on top of the first fight's 5
    assert {k: xp.total(state.roster[k].character) for k in ("b1", "d1")} == {"b1": 5 + 5, "d1": 5 + 5}
    assert (state.roster["b1"].character.hp, state.roster["d1"].character.hp) == (b1_hp, 5) == (2, 5)
    # F-REST-02: B-1 spends her one Hit Die (d10, seed 5): 2 + face, capped at her maximum 5; the pool refills.
    run("rest", "long", "--party", "--seed", "5")
    (hd_face,) = faces(5, 10)
    state = reopened(db)
    b1, d1 = state.roster["b1"].character, state.roster["d1"].character
    assert (b1.hp, b1.hit_dice, d1.hp, d1.hit_dice) == (min(5, 2 + hd_face), 1, 5, 1)
    assert state.clock.now == FOUGHT + 8 * 3600         # F-REST-02: a long rest lasts 8 hours
    travel(run, tmp_path)
    the_campaign_reopened(reopened(db))


def the_campaign_reopened(state: CampaignState) -> None:
    """Everything a new session finds, worked by hand."""
    # the clock: the fights, 8 hours of rest + 3 days of travel; the torch burnt out and the disease ran its course
    assert (state.clock.now, state.clock.entries) == (FOUGHT + 8 * 3600 + 3 * 86400, ())
    # H-DIS-04/05 (D-5: a CON save vs. poison at hazard_save_dc 12, D-1's CON +1, −2 travelling, not resting)
    totals = [face + 1 - 2 for face in (SAVE_1, SAVE_2, SAVE_3)]          # 3, 1, 19
    failures = sum(total < 12 for total in totals)                        # 2: INT 11 → 9 (AMB-73 c: −1 each)
    # F-LUCK-01 / AMB-02: the two failed saves in a row (3, 1) give D-1's player a Luck Die; the 19 ends the streak
    expected = {  # id: (status, HP, HP max, Hit Dice, INT, Luck Dice, XP)
        "a1": ("dead", 1 - 4, 1, 1, 11, 0, 0),
        "b1": ("alive", 5, 5, 1, 6, 0, 5 + 5),
        "c1": ("dead", 2 - 6, 2, 1, 11, 1, 0),
        "d1": ("alive", 5, 5, 1, 11 - failures, 1, 5 + 5),
    }
    got = {m.id: (m.status, m.character.hp, m.character.hp_max, m.character.hit_dice, m.character.scores["INT"],
                  m.character.luck_dice, xp.total(m.character)) for m in state.roster.values()}
    assert got == expected
    for member in state.roster.values():     # no condition, injury or spell cast (F-MU-04 depletion) anywhere
        character = member.character
        assert (character.conditions, character.injuries, character.spells_cast) == ([], [], 0), member.id
    assert {m.id: (m.death.round if m.death else None) for m in state.roster.values()} == {
        "a1": 1, "b1": None, "c1": 2, "d1": None}


def first_fight_as_worked(state: CampaignState) -> None:
    """The log of seed 2: both goblins 1d8-1 = 7 HP; the sides tie at initiative (1, 1) and act together.
    Round 1: A-1 shovel 1d6 = 5, B-1 fist 2: Goblin 1 7 → 0, dead, but it acts in the same
    phase (F-INIT-01: a tie acts together); Goblin 1
    hits A-1 for 4. Round 2: Goblin 2 hits C-1 for 6. C-1 missed in rounds 1 and 2."""
    a1, c1 = state.roster["a1"], state.roster["c1"]
    # F-DEATH-02: dead at HP ≤ −(3 + LVL + CON): A-1 1 − 4 = −3 ≤ −(3 + 0 + 0); C-1 2 − 6 = −4 ≤ −(3 + 0 + 1)
    assert (a1.character.hp, a1.status, c1.character.hp, c1.status) == (1 - 4, "dead", 2 - 6, "dead")
    assert a1.death is not None and c1.death is not None
    assert (a1.death.round, c1.death.round) == (1, 2)
    assert death_words(a1.death.cause, a1.death.facts).startswith("HP -3 at or below −(3 + LVL 0 + CON 0) = -3")
    assert death_words(c1.death.cause, c1.death.facts).startswith("HP -4 at or below −(3 + LVL 0 + CON 1) = -4")
    # F-LUCK-01: C-1's 2nd miss in a row (rounds 1 and 2) earns her player a Luck Die; nobody else failed twice
    assert {m.id: m.character.luck_dice for m in state.roster.values()} == {"a1": 0, "b1": 0, "c1": 1, "d1": 0}
    # REF-24: two goblins beaten, 2 × 5 XP shared by the 2 survivors; the dead get none
    assert {m.id: xp.total(m.character) for m in state.roster.values()} == {
        "a1": 0, "b1": 2 * GOBLIN_XP // 2, "c1": 0, "d1": 2 * GOBLIN_XP // 2}
    # the survivors were never hit: full HP
    assert [(state.roster[k].character.hp, state.roster[k].status) for k in ("b1", "d1")] == [(3, "alive")] * 2


def promote(run: Run) -> None:
    """B-1 (INT 6: 1 + INT < 0 skills, F-CHAR-04) and D-1 (INT 11: 1 skill) become Fighters (Barbarian), seed 1."""
    for who, skills in (("b1", ()), ("d1", ("--skill", "Athletics"))):
        run("character", "promote", who, "--class", "Fighter", "--archetype", "Barbarian", *skills,
            "--save", "DEX", "--style", "Defense", "--seed", "1",
            "--kit", "shield", "--kit", "martial ranged", "--kit", "leather")       # the first of each (F-TAB-40)


def level_1_hp(funnel_hp: int, face: int, con: int) -> int:
    """F-HP-02/03, F-FTR-01: d10 floored at min(1 + CON, 10 / 2); D-6 (funnel_hp_carryover add): + the funnel HP."""
    return funnel_hp + max(face, min(1 + con, 10 // 2))


def second_fight(run: Run) -> int:
    """Two goblins turn by turn: start (seed 30), the goblins' turns (seed 301), B-1's attack (seed 302), end."""
    g1_hp, g2_hp, party_init, monster_init = (f - 1 if i < 2 else f for i, f in enumerate(faces(30, 8, 8, 6, 6)))
    start = run("encounter", "start", "--monsters", "goblin x2", "--seed", "30")
    assert f"Goblin 1 (HP {g1_hp}, AC 10), Goblin 2 (HP {g2_hp}, AC 10)" in start      # hd 1-1: 1d8 − 1
    assert monster_init > party_init and "order: monsters; party" in start              # F-INIT-01: group d6
    atk1, atk2, dmg = faces(301, 20, 20, 6)
    run("encounter", "next", "--seed", "301")
    run("encounter", "answer", "q1", "--no-sunder")     # F-EQ-03: B-1 keeps her shield against the blow of 3
    # D-2: a goblin attacks at ROOM DC 10 − 10 = +0 against B-1's AC 13: 8 misses, 16 hits for 1d6 = 3
    assert (atk1 < 13, atk2 >= 13) == (True, True)
    natural, _crit_die = faces(302, 20, 6)
    out = run("encounter", "act", "b1", "attack", "goblin-1", "--seed", "302", "--cleave", "goblin-2")
    # F-CRIT-01: a natural 20 deals the maximum of 1d8 + 1 (STR +1) = 9; her player cleaves (F-FTR-03: her choice,
    # given with the action) and carries 9 − 4 on to Goblin 2
    assert natural == 20 and f"HP {g1_hp} → {g1_hp - 9}" in out and f"HP {g2_hp} → {g2_hp - (9 - g1_hp)}" in out
    run("encounter", "end")
    return 5 - dmg


LOST_1, SAVE_1, LOST_2, SAVE_2, LOST_3, SAVE_3 = 3, 4, 5, 2, 6, 20   # the faces entered, in the order rolled


def travel(run: Run, tmp_path: Path) -> None:
    """B-1 lights a torch, D-1 catches the Marsh Ague (incubation 1 day, a save a day for 3 days, INT −1 each
    failure), then three days of travel: each morning the secret lost roll (d6, 1 = off course), then the day."""
    ague = tmp_path / "ague.yaml"
    ague.write_text(AGUE, encoding="utf-8")
    run("clock", "light", "b1", "torch")
    run("clock", "infect", "d1", str(ague))
    faces_entered = ",".join(map(str, (LOST_1, SAVE_1, LOST_2, SAVE_2, LOST_3, SAVE_3)))
    out = run("clock", "travel", "--days", "3", "--heading", "S", "--faces", faces_entered)
    # H-LIGHT-02: a torch burns 6 exploration turns of 10 minutes: lit at 08:00 (after the rest), out at 09:00
    assert f"[day 1, {8 + 6 * 10 // 60:02d}:00] B-1: the torch burns out" in out
    assert out.count(": on course (") == 3                             # H-TRAV-02: no lost face was a 1


@pytest.mark.rule("F-LUCK-01")
def test_F_LUCK_01_failed_saves_on_the_clock_earn_a_luck_die(run: Run, db: Path, tmp_path: Path) -> None:
    """AMB-02: failed SAVEs count; two in a row (d20 4 and 2, + CON − 2 < 12) earn the player a Luck Die."""
    run("campaign", "new", "keep", "--profile", "hazards")
    run("clock", "join", str(EXAMPLES / "brakka.json"))
    ague = tmp_path / "ague.yaml"
    ague.write_text(AGUE, encoding="utf-8")
    run("clock", "infect", "Brakka", str(ague))
    assert run("clock", "advance", "2", "days", "--faces", "4,2").count("fails the Marsh Ague save") == 2
    assert reopened(db).roster["brak1"].character.luck_dice == 1


@pytest.mark.rule("H-DMG-03", "H-HEAL-01", "F-HP-05", "F-CHAR-01", "F-LUCK-01")
def test_CF_30_the_same_first_part_under_hazards_H_DMG_03_H_HEAL_01(run: Run, db: Path) -> None:
    """Under hazards the same dice fall the same way; only the death line moves to a flat −3 (H-DMG-03)."""
    funnel_and_first_fight(run, "hazards")
    state = reopened(db)
    # F-HP-05 / F-CHAR-01: the funnel is the profile's same 1d4 HP and 3d6 in order
    assert {m.id: m.character.hp_max for m in state.roster.values()} == {"a1": 1, "b1": 3, "c1": 2, "d1": 3}
    # H-DMG-03: dead at −3 whatever the level and CON: A-1 1 − 4 = −3, C-1 2 − 6 = −4
    assert {m.id: (m.status, m.character.hp) for m in state.roster.values()} == {
        "a1": ("dead", -3), "b1": ("alive", 3), "c1": ("dead", -4), "d1": ("alive", 3)}
    assert [death_words(state.roster[k].death.cause,  # type: ignore[union-attr]
                        state.roster[k].death.facts).split(";")[0] for k in ("a1", "c1")] == [  # type: ignore[union-attr]
        "HP -3: dead at −3", "HP -4: dead at −3"]
    # F-LUCK-01: C-1's two misses in a row; REF-24: 2 × 5 XP over the 2 survivors
    assert {m.id: (m.character.luck_dice, xp.total(m.character)) for m in state.roster.values()} == {
        "a1": (0, 0), "b1": (0, 5), "c1": (1, 0), "d1": (0, 5)}
    run("rest", "night", "--party", "--seed", "4")
    state = reopened(db)
    # H-HEAL-01/08: a peaceful night at half HP or more heals 1, capped at the maximum: 3 stays 3; 8 hours pass
    assert (state.roster["b1"].character.hp, state.roster["d1"].character.hp, state.clock.now) == (
        3, 3, 4 * 6 + 8 * 3600)                         # the fight's 4 rounds of 6 seconds, then the night


@pytest.mark.rule("M-GRIEV-01", "M-HEAL-02", "M-TAB-01", "M-HEAL-03")
def test_CF_30_the_same_first_part_under_middle_sea_M_GRIEV_01_M_HEAL_02(run: Run, db: Path) -> None:
    """Under middle-sea HP stop at 0 and a grievous roll replaces death: nobody dies in the same fight."""
    funnel_and_first_fight(run, "middle-sea")
    state = reopened(db)
    assert {m.id: m.character.hp_max for m in state.roster.values()} == {"a1": 1, "b1": 3, "c1": 2, "d1": 3}
    # M-GRIEV-01: A-1 (1 HP) takes 4: HP set to 0, excess 3 + 3d6 on M-TAB-01 (10: stunned a round); no death
    assert {m.id: (m.status != "dead", m.character.hp) for m in state.roster.values()} == {
        "a1": (True, 0), "b1": (True, 3), "c1": (True, 2), "d1": (True, 3)}
    assert all(m.death is None for m in state.roster.values())
    # REF-24: 2 × 5 XP over 4 survivors: 2 each, the 2 left over unawarded
    assert {m.id: xp.total(m.character) for m in state.roster.values()} == dict.fromkeys(
        ("a1", "b1", "c1", "d1"), 2 * GOBLIN_XP // 4)
    run("rest", "hour", "--party", "--seed", "4")
    (face,) = faces(4, 4)
    state = reopened(db)
    # M-HEAL-02: below half HP an hour of rest rolls the hit die (d4 at level 0), capped at the maximum 1;
    # at or above half it heals nothing (M-HEAL-03)
    assert {m.id: m.character.hp for m in state.roster.values()} == {"a1": min(1, 0 + face), "b1": 3, "c1": 2,
                                                                      "d1": 3}
    assert state.roster["a1"].status == "alive" and state.clock.now == 2 * 60 + 3600   # 2 rounds (60 s), an hour


@pytest.mark.rule("M-HEAL-01")
def test_M_HEAL_01_post_combat_recovery_after_a_campaign_fight(run: Run, db: Path) -> None:
    """M-HEAL-01: after the fight A-1 (entered with 1 HP, now 0) rolls her d4 and heals, capped at 1."""
    funnel_and_first_fight(run, "middle-sea")
    run("rest", "post_combat", "--party", "--seed", "4")
    assert reopened(db).roster["a1"].character.hp == 1
