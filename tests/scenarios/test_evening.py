"""A second whole evening through the CLI, under each profile (furnace, hazards, middle-sea), on one campaign in a
temporary SQLite file: four heroes (Brakka, Sister Ilse, Wren, Maelis: examples/characters) against an ogre, turn
by turn. The referee tells the ogre's blows with `furnace damage` while the encounter runs (the encounter, not the
roster, takes them: one place for HP), heals one of them there, edits the fight (the ogre's HP set), is refused
`clock advance` and `rest` while it runs, ends it (its rounds move the clock: AMB-03, `round_seconds` each), and
moves time past every timer the fight left: what lasts is
on the campaign clock and the rules end it — F-DEATH-01's dying d20 each round, H-HEAL-04's waking, M-GRIEV-07's
fatal wound, M-GRIEV-05's rounds unconscious, M-GRIEV-06's broken bone. Every die is entered (`--faces`), and
every number below is worked by hand from those faces by the rule named beside it.

The heroes: Brakka, Fighter 3, 22 HP, CON 12 (+0), a d10 Hit Die, Rage; Sister Ilse, Cleric 3, 11 HP, WIS 6 (−1),
proficient in Medicine (PROF +2), a mace (d20+4, 1d6+2); Wren, Rogue 3, 17 HP, CON 5 (−2), a d8 Hit Die; Maelis,
Magic-user 3, 13 HP, CON 7 (−1), a d6 Hit Die. F-DEATH-02: dead at −(3 + LVL + CON) = Brakka −6, Wren −4, Maelis
−5. The ogre (the bestiary's): 4d8+8 HP, AC 14, d20+4 to hit (D-2 at ROOM DC 14), 170 XP.

What each profile has: furnace, dying (F-DEATH-01) and stabilising (F-INJ-01, AMB-28); hazards, unconscious at 0
(H-DMG-02) waking in 1d6 hours (H-HEAL-04) and dead at −3 (H-DMG-03), nothing to stabilise; middle-sea, HP stop
at 0 and a grievous roll instead (M-GRIEV-01): a fatal wound, a broken rib, 2d6 rounds unconscious, nothing to
stabilise. The long rest gives back what it gives (Rage, F-ARCH-02; the Hit Dice, F-REST-02; "until the next
rest", D-7) and no daily count (AMB-14): a new in-game day on the clock does (campaign/days.py). Under furnace the
day's cap on magical Hit Dice (F-CLR-07) refuses a Lay on Hands, a long rest leaves it, midnight resets it (and
under hazards the same count, reset at midnight); under middle-sea a Cleric's one free orison a day (M-ORIS-02..04)
is refused a second time until midnight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace.campaign.encounters import current
from furnace.campaign.state import CampaignState
from furnace.characters import xp
from furnace.cli.app import main
from furnace.play.clock import DAY, HOUR, MINUTE
from tests.helpers.factories import reopened
from tests.scenarios.session import Run, runner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
HEROES = ("brakka", "ilse", "wren", "maelis")
OGRE_XP = 170


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "campaigns.db"


@pytest.fixture
def run(db: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(db, capsys)


@pytest.fixture
def refused(db: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    """`refused(*args)`: the command must be refused (one `error:` line, exit 2); its message."""

    def run(*args: str) -> str:
        code = main(["--db", str(db), "--campaign", "keep", *args])
        out = capsys.readouterr()
        assert code == 2 and out.err.startswith("error: ") and out.err.count("\n") == 1, (args, code, out.err)
        return out.err

    return run


def the_ogre_attacks(run: Run, profile: str) -> None:
    """The campaign, its four heroes, and the fight begun: the ogre's HP 8+8+8+8+8 = 40; group initiative party 5
    against the ogre's 2: the party acts first, Brakka due (F-INIT-01)."""
    run("campaign", "new", "keep", "--profile", profile)
    run("campaign", "join", *(str(EXAMPLES / f"{h}.json") for h in HEROES))
    run("encounter", "start", "--party", "all", "--monsters", "ogre", "--faces", "8,8,8,8,5,2")


def fighting(db: Path, cid: str) -> tuple[int, str]:
    c = current(reopened(db)).turns.encounter.get(cid)
    return c.hp, c.status


def hp(state: CampaignState, mid: str) -> int:
    return state.roster[mid].character.hp


def no_time_in_a_fight(refused: Run) -> None:
    """Time in a fight moves by its rounds: the clock and a rest are refused while it runs, with the reason."""
    for args in (("clock", "advance", "1", "hour"), ("rest", "short", "--party")):
        assert "in progress: time in a fight moves by its rounds" in refused(*args)


def party_wins_and_shares(state: CampaignState, survivors: int) -> None:
    """REF-24: 170 XP shared by the survivors at the fight's end, the remainder kept for the next share."""
    share, left = divmod(OGRE_XP, survivors)
    earned = [xp.total(m.character) for m in state.roster.values() if xp.total(m.character)]
    assert state.xp_pool == left and earned == [share] * survivors


@pytest.mark.rule("F-DEATH-01", "F-INJ-01", "F-REST-02", "F-INIT-01", "F-CLR-07")
def test_an_evening_under_furnace_F_DEATH_01_F_INJ_01(run: Run, refused: Run, db: Path) -> None:
    the_ogre_attacks(run, "furnace")
    # the ogre's blows, told by the referee while the encounter runs: the encounter takes them, the roster waits
    run("damage", "Wren", "19", "--faces", "3")       # 17 − 19 = −2 > −4: dying, the timer's 1d4 shows 3
    run("damage", "Maelis", "15", "--faces", "2")     # 13 − 15 = −2 > −5: dying, 2 turns
    run("damage", "Brakka", "24", "--faces", "1")     # 22 − 24 = −2 > −6: dying, 1 turn; her turn is lost
    assert fighting(db, "wren1") == (-2, "dying") and hp(reopened(db), "wren1") == 17
    run("heal", "Brakka", "4")                        # −2 + 4 = 2: up again, no longer dying
    assert fighting(db, "brak1") == (2, "up")
    no_time_in_a_fight(refused)
    # Sister Ilse is due: her Medicine CHECK d20 14 − 1 (WIS) + 2 (PROF) = 15 ≥ ROOM DC 14 stabilises Wren (not
    # the WIS SAVE's bonus); the Injuries table's d20 14: every CHECK HARD until the next rest (F-INJ-01). Wren's
    # turn passes (stable); Maelis's begins with her d20: 7, not a 20 — 1 turn left.
    run("stabilise", "Wren", "--by", "Sister Ilse", "--faces", "14,14,7")
    assert fighting(db, "wren1") == (-2, "stable") and fighting(db, "mael1") == (-2, "dying")
    run("encounter", "edit", "hp", "ogre", "3")                        # the referee: the ogre is nearly done
    run("encounter", "act", "ogre", "attack", "brak1", "--faces", "2")  # 2 + 4 = 6 < AC 14; round 2, Brakka due
    # Brakka rages (+2 DAM) and hits: d20 15 + 3 = 18 ≥ 14, 1d8 6 + 1 + 2 = 9: the ogre (3 HP) dies, and the
    # fight ends there — nobody else's turn comes, so Maelis rolls no d20 in round 2
    run("encounter", "act", "brak1", "attack", "ogre", "--rage", "--faces", "15,6")
    run("encounter", "end")
    state = reopened(db)
    assert state.encounter is None and {m: hp(state, m) for m in state.roster} == {
        "brak1": 2, "sist1": 11, "wren1": -2, "mael1": -2}
    # the fight's 2 rounds moved the clock 2 × 6 seconds (AMB-03); Maelis's last turn falls a round later
    (timer,) = [e for e in state.clock.entries if e.kind == "dying"]
    assert (timer.owner, timer.remaining, timer.every, timer.at, state.clock.now) == ("Maelis", 1, 6, 18, 12)
    assert state.roster["wren1"].character.conditions == ["UNCONSCIOUS"]       # stable: unconscious, no timer
    party_wins_and_shares(state, 4)                                            # 42 each, 2 kept
    run("clock", "advance", "1", "minute", "--faces", "9")    # Maelis's last d20: 9 — she bleeds out
    state = reopened(db)
    assert state.roster["mael1"].status == "dead" and state.roster["mael1"].death.cause == "bled_out"
    assert not state.clock.entries
    run("heal", "Wren", "3")                                  # −2 + 3 = 1: up again, no longer UNCONSCIOUS
    assert reopened(db).roster["wren1"].character.conditions == []
    # the long rest (F-REST-02): every Hit Die spent, each its face, capped at the maximum: Brakka 2 + 5 + 5 + 5 =
    # 17; Wren 1 + 4 + 4 + 4 = 13; Ilse is full and spends none; Wren's "until the next rest" HARD CHECKs end
    run("rest", "long", "--party", "--faces", "5,5,5,4,4,4")
    state = reopened(db)
    assert (hp(state, "brak1"), hp(state, "wren1"), hp(state, "sist1")) == (17, 13, 11)
    assert state.roster["wren1"].character.until_rest == [] and state.clock.now == 12 + MINUTE + 8 * HOUR
    a_new_day_under_furnace(run, db)


def a_new_day_under_furnace(run: Run, db: Path) -> None:
    """F-CLR-07: a recipient receives no more magical Hit Dice a day than her level (Brakka 3), counted until a new
    in-game day starts on the clock, not at a long rest (AMB-14). At 08:01:12 Brakka is 17/22 with her 3 Hit Dice.
    Sister Ilse's SPELLCHECK d20 17 − 1 (WIS) + 2 (PROF) = 18 reads 2 HD on F-TAB-06 (16-20) each time."""

    def brakka() -> tuple[int, int, int]:        # her HP, her Hit Dice in the pool, the magical HD received today
        c = reopened(db).roster["brak1"].character
        return c.hp, c.hit_dice, c.healed_today

    run("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17,1,1")   # 2 HD: 17 + 1 + 1 = 19, pool 1, today 2/3
    assert brakka() == (19, 1, 2)
    # a long rest (F-REST-02) until 16:01:12: her last Hit Die 1 (19 + 1 = 20), and the pool comes back; the
    # day's count does not (AMB-14)
    run("rest", "long", "Brakka", "--faces", "1")
    assert brakka() == (20, 3, 2)
    out = run("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17,1")  # 2 HD, 3 − 2 = 1 left today: 20 + 1 = 21
    assert "may spend 1 (pool 3, today 2/3)" in out and brakka() == (21, 2, 3)
    out = run("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17")     # 3/3 today: none, with Hit Dice left
    assert "may spend 0 (pool 2, today 3/3)" in out and brakka() == (21, 2, 3)
    (day,) = reopened(db).clock.entries                                      # her count ends at midnight
    assert (day.kind, day.owner, day.at) == ("day_ends", "Brakka", DAY)
    out = run("clock", "advance", "8", "hours")               # 16:01:12 + 8 hours = day 2, 00:01:12
    assert "a new day" in out and brakka() == (21, 2, 0) and not reopened(db).clock.entries
    # today 0/3 again: 2 HD from her pool of 2, 21 + 1 = 22 and the second stops at her maximum
    out = run("lay-on-hands", "Sister Ilse", "Brakka", "--faces", "17,1,1")
    assert "may spend 2 (pool 2, today 0/3)" in out and brakka() == (22, 0, 2)


@pytest.mark.rule("H-DMG-02", "H-DMG-03", "H-HEAL-04", "F-CLR-07")
def test_an_evening_under_hazards_H_DMG_02_H_HEAL_04(run: Run, refused: Run, db: Path) -> None:
    the_ogre_attacks(run, "hazards")
    run("damage", "Wren", "17")                        # 17 − 17 = 0: unconscious (H-DMG-02), no roll in the fight
    run("damage", "Maelis", "16")                      # 13 − 16 = −3: dead at −3 (H-DMG-03)
    run("damage", "Brakka", "10")                      # 22 − 10 = 12
    run("heal", "Brakka", "4")                         # 12 + 4 = 16
    assert (fighting(db, "wren1"), fighting(db, "mael1"), fighting(db, "brak1")) == (
        (0, "unconscious"), (-3, "dead"), (16, "up"))
    no_time_in_a_fight(refused)
    run("encounter", "edit", "hp", "ogre", "3")
    run("encounter", "act", "brak1", "attack", "ogre", "--rage", "--faces", "15,6")      # 18 hits, 9 damage: it dies
    run("encounter", "end", "--faces", "2")             # H-HEAL-04: Wren wakes in 1d6 = 2 hours
    state = reopened(db)
    assert state.roster["mael1"].status == "dead" and {m: hp(state, m) for m in ("brak1", "sist1", "wren1")} == {
        "brak1": 16, "sist1": 11, "wren1": 0}
    (wake,) = state.clock.entries                     # the fight's 1 round was 6 seconds
    assert (wake.kind, wake.owner, wake.at) == ("wake_up", "Wren", 6 + 2 * HOUR)
    party_wins_and_shares(state, 3)                     # 56 each, 2 kept
    assert "is not dying" in refused("stabilise", "Wren", "--by", "Sister Ilse")   # nothing to stabilise here
    run("clock", "advance", "1", "hour")
    assert "UNCONSCIOUS" in reopened(db).roster["wren1"].character.conditions
    run("clock", "advance", "1", "hour")                # she wakes at 0 HP: helpless until healed above 0
    assert reopened(db).roster["wren1"].character.conditions == ["KNOCKED_DOWN", "CANT_USE_OBJECTS"]
    run("heal", "Wren", "2")
    state = reopened(db)
    assert (hp(state, "wren1"), state.roster["wren1"].character.conditions) == (2, [])
    assert not state.clock.entries and state.clock.now == 6 + 2 * HOUR
    a_new_day_under_hazards(run, db)


def a_new_day_under_hazards(run: Run, db: Path) -> None:
    """F-CLR-07 under hazards: Wren (level 3, 2/17 HP, her 3 Hit Dice) receives no more than 3 magical Hit Dice
    today; at 02:00:06 Sister Ilse's SPELLCHECK d20 17 − 1 + 2 = 18 reads 2 HD (F-TAB-06) each time."""

    def wren() -> tuple[int, int, int]:          # her HP, her Hit Dice in the pool, the magical HD received today
        c = reopened(db).roster["wren1"].character
        return c.hp, c.hit_dice, c.healed_today

    run("lay-on-hands", "Sister Ilse", "Wren", "--faces", "17,1,1")              # 2 + 1 + 1 = 4, today 2/3
    assert wren() == (4, 1, 2)
    assert "may spend 1 (pool 1, today 2/3)" in run("lay-on-hands", "Sister Ilse", "Wren", "--faces", "17,1")
    assert "may spend 0 (pool 0, today 3/3)" in run("lay-on-hands", "Sister Ilse", "Wren", "--faces", "17")
    assert wren() == (5, 0, 3)      # her count's end goes on the clock at the next midnight as soon as time moves
    out = run("clock", "advance", "22", "hours")                                # day 2, 00:00:06: the count is 0
    assert "[day 2, 00:00] Wren: a new day" in out
    assert wren() == (5, 0, 0) and not reopened(db).clock.entries
    # the cap is free again; what stops a Lay on Hands now is her spent pool
    assert "may spend 0 (pool 0, today 0/3)" in run("lay-on-hands", "Sister Ilse", "Wren", "--faces", "17")


@pytest.mark.rule("M-GRIEV-01", "M-GRIEV-05", "M-GRIEV-06", "M-GRIEV-07", "M-BONE-01", "M-HEAL-01",
                  "M-ORIS-02", "M-ORIS-04")
def test_an_evening_under_middle_sea_M_GRIEV_06_M_GRIEV_07(run: Run, refused: Run, db: Path) -> None:
    the_ogre_attacks(run, "middle-sea")
    # M-GRIEV-01: HP stop at 0, EXCESS = damage − HP; 3d6 + EXCESS on the grievous injury table (M-TAB-01)
    run("damage", "Brakka", "30", "--faces", "2,3,4,5")   # 2+3+4 + 8 = 17: a fatal wound, 1d6 = 5 exploration turns
    run("damage", "Wren", "25", "--faces", "2,2,3,5,1,2")  # 2+2+3 + 8 = 15: broken bone d10 5 = rib; 2d4+9 = 12 weeks
    run("damage", "Maelis", "16", "--faces", "3,3,3,2,3")  # 3+3+3 + 3 = 12: UNCONSCIOUS 2d6 = 5 rounds
    run("damage", "Sister Ilse", "5")                      # 11 − 5 = 6
    run("heal", "Sister Ilse", "3")                        # 6 + 3 = 9
    assert fighting(db, "sist1") == (9, "up") and hp(reopened(db), "sist1") == 11
    no_time_in_a_fight(refused)
    run("encounter", "edit", "hp", "ogre", "3")
    run("encounter", "act", "sist1", "attack", "ogre", "--faces", "15,6")   # 15 + 4 = 19, 6 + 2 = 8: the ogre is out
    run("encounter", "end")
    state = reopened(db)
    # a round is 60 seconds (the profile's round_seconds), an exploration turn 10 rounds (AMB-92): the fight's one
    # round moved the clock a minute; the fatal wound falls in round 1 + 5 × 10 = 51, 50 rounds after it; Maelis's
    # 5 rounds run on; the rib knits in 12 weeks
    due = {e.kind: (e.owner, e.at - MINUTE) for e in state.clock.entries}
    assert state.clock.now == MINUTE and due == {"fatal_wound": ("Brakka", 50 * MINUTE),
                                                 "condition_ends": ("Maelis", 5 * MINUTE),
                                                 "bone_heals": ("Wren", 12 * 7 * DAY)}
    assert state.roster["wren1"].character.injuries == ["broken rib"]
    party_wins_and_shares(state, 4)
    assert "is not dying" in refused("stabilise", "Brakka", "--by", "Sister Ilse")   # a wound, not F-DEATH-01
    # M-HEAL-01: a Hit Die each, up to the HP each entered with: Brakka 0 + 4, Ilse 9 + 2 = 11, Wren 0 + 3,
    # Maelis 0 + 1; the post-combat rest takes no time and forgets no wound
    run("rest", "post_combat", "--party", "--faces", "4,2,3,1")
    state = reopened(db)
    assert {m: hp(state, m) for m in state.roster} == {"brak1": 4, "sist1": 11, "wren1": 3, "mael1": 1}
    assert {e.kind for e in state.clock.entries} == {"fatal_wound", "condition_ends", "bone_heals"}
    assert state.roster["mael1"].character.conditions == ["UNCONSCIOUS"]     # her 2d6 rounds are not over
    run("clock", "advance", "10", "minutes")                 # Maelis's 5 rounds are over at 00:05
    assert reopened(db).roster["mael1"].character.conditions == []
    run("clock", "advance", "1", "hour")                     # 00:50: nobody cast Cure Serious Wounds
    state = reopened(db)
    assert state.roster["brak1"].status == "dead" and "fatal wound" in state.roster["brak1"].death.cause
    run("clock", "advance", "12", "weeks")                   # the rib has knit: the injury and its −3 end
    wren = reopened(db).roster["wren1"].character
    assert wren.injuries == [] and "fight" not in wren.extensions and not reopened(db).clock.entries
    a_new_day_under_middle_sea(run, refused, db)


def a_new_day_under_middle_sea(run: Run, refused: Run, db: Path) -> None:
    """M-ORIS-02..04: a Cleric's free orison is one a day, counted until a new in-game day starts on the clock. The
    clock stands at 84 days + 1 minute + 10 minutes + 1 hour (day 85, 01:11)."""
    now = MINUTE + 10 * MINUTE + HOUR + 12 * 7 * DAY
    out = run("orison", "Sister Ilse", "Bless")                     # her free one: 1 of 1 today
    (day,) = reopened(db).clock.entries                              # her count ends at the next midnight
    assert "(1 of 1 today)" in out and reopened(db).clock.now == now and (day.kind, day.owner, day.at) == (
        "day_ends", "Sister Ilse", 85 * DAY)
    assert "M-ORIS" in refused("orison", "Sister Ilse", "Bless")    # a second today is refused
    out = run("clock", "advance", "23", "hours")                    # day 86, 00:11: the count starts again
    assert "a new day" in out and not reopened(db).clock.entries
    assert "(1 of 1 today)" in run("orison", "Sister Ilse", "Bless")
