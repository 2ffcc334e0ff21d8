"""What lasts lives on the campaign clock, through the CLI: a dying timer out of a fight and its d20 each round
(F-DEATH-01, AMB-03, CF-12; dying_timer_roll open or referee), a heal that clears DYING, the wrong chapter's rule
no more (H-DMG-02 only under hazards, a grievous injury under middle-sea), H-HEAL-04's waking, stabilising out of
a fight (F-INJ-01, F-DEATH-02, REF-25), the clock and rest refused while an encounter runs, damage and healing
during an encounter acting on it.

Brakka (examples/characters/brakka.json): Fighter 3, 22 HP, CON 12 (+0): dead at −(3 + 3 + 0) = −6 (F-DEATH-02);
24 damage leaves her at −2, dying.
Sister Ilse: Cleric 3, WIS 6 (−1), proficient in Medicine (PROF +2 at level 3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace.campaign.encounters import current
from furnace.campaign.state import CampaignState
from furnace.campaign.store import Store
from furnace.characters import xp
from furnace.events import Event
from furnace.render import story
from furnace.render.story.view import View
from tests.cli.conftest import Run
from tests.helpers.factories import reopened

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _db(tmp_path: Path) -> Path:
    return tmp_path / "campaigns.db"


def keep(furnace: Run, *options: str) -> Run:
    """The campaign `keep` (options: `--profile middle-sea`, `--option x=y`), Brakka and Sister Ilse joined; the
    runner of its commands, each of which must succeed."""
    code, _, err = furnace("campaign", "new", "keep", *options)
    assert code == 0, err

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    code, _, err = run("campaign", "join", str(EXAMPLES / "brakka.json"), str(EXAMPLES / "ilse.json"))
    assert code == 0, err
    return run


def ok(run: Run, *args: str) -> str:
    code, out, err = run(*args)
    assert code == 0 and err == "", (args, err)
    return out


def facts(tmp_path: Path, kind: str) -> list[Event]:
    store = Store(f"sqlite:///{_db(tmp_path)}")
    try:
        return [f for e in store.events("keep") if e.kind == kind and (f := e.fact) is not None]
    finally:
        store.close()


def told(e: Event, view: View) -> str:
    line = story.tell(e, view)
    return "" if line is None else str(line)


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_a_dying_timer_out_of_a_fight_rolls_a_d20_each_round_of_clock_time(furnace: Run,
                                                                                    tmp_path: Path) -> None:
    run = keep(furnace)
    out = ok(run, "damage", "Brakka", "24", "--faces", "2")          # 22 → −2: dying, timer 1d4 = 2
    assert "dies in 2 turns" in out
    brakka = reopened(_db(tmp_path)).roster["brak1"].character
    assert (brakka.hp, brakka.conditions) == (-2, ["DYING"])
    entry = next(e for e in reopened(_db(tmp_path)).clock.entries if e.kind == "dying")
    assert (entry.remaining, entry.every, entry.at) == (2, 6, 6)      # a round is round_seconds (6) of clock time
    ok(run, "clock", "advance", "1", "round", "--faces", "8")         # her 1st d20: 8, still dying, 1 turn left
    assert reopened(_db(tmp_path)).roster["brak1"].status == "dying"
    out = ok(run, "clock", "advance", "1", "round", "--faces", "11")  # her 2nd and last: 11 — bled out
    state = reopened(_db(tmp_path))
    assert state.roster["brak1"].status == "dead" and "[11]" in out   # the last d20 shown with the death
    assert not [e for e in state.clock.entries if e.owner == "Brakka"]


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_a_natural_20_on_the_clock_gets_her_up_with_1_hp(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    ok(run, "damage", "Brakka", "24", "--faces", "4")
    ok(run, "clock", "advance", "1", "minute", "--faces", "20")       # her first d20 is a natural 20
    brakka = reopened(_db(tmp_path)).roster["brak1"]
    assert (brakka.status, brakka.character.hp, brakka.character.conditions) == ("alive", 1, [])
    assert not [e for e in reopened(_db(tmp_path)).clock.entries if e.owner == "Brakka"]


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_dying_timer_roll_referee_hides_the_1d4_from_the_table(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace, "--option", "dying_timer_roll=referee")
    ok(run, "damage", "Brakka", "24", "--faces", "3")
    (drop,) = facts(tmp_path, "dying")
    (timer,) = facts(tmp_path, "dying_timer")
    assert "turns" not in drop.data and not drop.rolls and timer.audience == "referee" and timer.data["turns"] == 3
    assert "3 turns" not in told(drop, View("table")) and "hidden timer" in told(drop, View("table"))
    assert "3 rounds" in told(timer, View())                           # the referee's own view
    ok(run, "clock", "advance", "1", "round", "--faces", "7")
    (still,) = facts(tmp_path, "still_dying")
    assert "turns" not in still.data and "left" not in told(still, View("table"))


@pytest.mark.rule("F-DEATH-01", "H-DMG-02")
def test_a_heal_above_0_hp_clears_dying_and_the_timer(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    ok(run, "damage", "Brakka", "24", "--faces", "3")
    out = ok(run, "heal", "Brakka", "5")                               # −2 + 5 = 3
    state = reopened(_db(tmp_path))
    brakka = state.roster["brak1"]
    assert (brakka.status, brakka.character.hp, brakka.character.conditions) == ("alive", 3, [])
    assert not [e for e in state.clock.entries if e.owner == "Brakka"] and "no longer" in out
    ok(run, "damage", "Brakka", "5", "--faces", "1")                    # 3 → −2: dying again
    second = facts(tmp_path, "dying")[-1]                               # furnace's own rule, not hazards' H-DMG-02
    assert (second.rules, second.data["hp"], second.data["turns"]) == (("F-DEATH-01",), -2, 1)


def test_the_option_dying_timer_roll_is_read_by_the_engine() -> None:
    """F-DEATH-01 "secretly or openly": the engine's reading of the option the CLI test above sets."""
    from furnace.play.death import open_timer
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset("furnace")
    assert open_timer(rules) and not open_timer(rules.with_options({"dying_timer_roll": "referee"}))


# -- stabilising out of a fight (F-DEATH-01, F-INJ-01, AMB-28, REF-25) -------------------------------------------
@pytest.mark.rule("F-INJ-01", "F-DEATH-02")
def test_F_INJ_01_stabilised_out_of_a_fight_a_natural_1_on_the_injuries_table_kills(furnace: Run,
                                                                                    tmp_path: Path) -> None:
    """Sister Ilse's Medicine CHECK: d20 13 − 1 (WIS 6) + 2 (PROF, Medicine) = 14 ≥ 12 (hazard_save_dc, out of a
    fight): Brakka's timer stops; the Injuries table's d20 shows 1: false hope, she dies (F-DEATH-02)."""
    run = keep(furnace)
    ok(run, "damage", "Brakka", "24", "--faces", "3")
    ok(run, "stabilise", "Brakka", "--by", "Sister Ilse", "--faces", "13,1")
    state = reopened(_db(tmp_path))
    assert state.roster["brak1"].status == "dead" and not state.clock.entries
    (check,) = facts(tmp_path, "stabilise")
    assert (check.data["outcome"], check.data["total"], check.data["dc"]) == ("stabilises", 14, 12)


@pytest.mark.rule("F-INJ-01", "F-DEATH-01")
def test_F_INJ_01_the_stabilise_check_adds_wis_and_medicine_not_the_wis_save(furnace: Run, tmp_path: Path) -> None:
    """Maelis (WIS 11: +0; no Medicine; a Magic-user's WIS SAVE is +2): d20 11 + 0 = 11 < 12 fails — the WIS SAVE
    bonus would have made it 13. Brakka stays dying, her timer on the clock with its 2 turns."""
    run = keep(furnace)
    ok(run, "campaign", "join", str(EXAMPLES / "maelis.json"))
    ok(run, "damage", "Brakka", "24", "--faces", "2")
    ok(run, "stabilise", "Brakka", "--by", "Maelis", "--faces", "11")
    (check,) = facts(tmp_path, "stabilise")
    assert (check.data["outcome"], check.data["total"]) == ("fails", 11)
    (entry,) = reopened(_db(tmp_path)).clock.entries
    assert (entry.kind, entry.remaining) == ("dying", 2)


@pytest.mark.rule("F-INJ-01")
def test_F_INJ_01_stabilize_methods_referee_only_refuses_a_healer(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace, "--option", "stabilize_methods=referee_only")
    ok(run, "damage", "Brakka", "24", "--faces", "2")
    assert "only the referee can" in ok(run, "stabilise", "Brakka", "--by", "Sister Ilse")   # no CHECK is rolled
    assert [e.kind for e in reopened(_db(tmp_path)).clock.entries] == ["dying"]
    ok(run, "stabilise", "Brakka", "--referee", "--faces", "17")        # the referee's word, then the injury roll
    state = reopened(_db(tmp_path))
    assert state.roster["brak1"].character.conditions == ["UNCONSCIOUS"] and not state.clock.entries


# -- during an encounter: one place for HP; the referee's edits ----------------------------------------------------
def _fight(run: Run) -> None:
    """Brakka and Sister Ilse against an ogre of 40 HP; the party first (5 against 2), Brakka due."""
    ok(run, "encounter", "start", "--party", "all", "--monsters", "ogre", "--faces", "8,8,8,8,5,2")


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_damage_and_healing_in_an_encounter_act_on_it_and_encounter_end_writes_them(
        furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    _fight(run)
    ok(run, "damage", "Sister Ilse", "3")
    status = ok(run, "encounter", "status")
    assert "HP 8/11" in status and reopened(_db(tmp_path)).roster["sist1"].character.hp == 11
    ok(run, "damage", "Sister Ilse", "10", "--faces", "4")             # 8 − 10 = −2: dying, 4 turns
    ok(run, "heal", "Sister Ilse", "5")                                 # −2 + 5 = 3: up
    ok(run, "encounter", "end")
    ilse = reopened(_db(tmp_path)).roster["sist1"].character
    assert (ilse.hp, ilse.conditions) == (3, []) and not reopened(_db(tmp_path)).clock.entries


def test_the_referee_edits_a_fight_in_progress(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    _fight(run)
    ok(run, "encounter", "edit", "condition", "ogre", "PRONE", "--rounds", "1")
    ogre = current(reopened(_db(tmp_path))).turns.encounter.get("ogre")
    assert [(h.name, h.until_round) for h in ogre.held] == [("PRONE", 2)]
    ok(run, "encounter", "edit", "condition", "ogre", "PRONE", "--remove")
    ok(run, "encounter", "edit", "add", "--monsters", "goblin", "--faces", "5")     # 1d8−1 = 4 HP
    fight = current(reopened(_db(tmp_path)))
    assert fight.turns.encounter.get("goblin").hp == 4 and "goblin" in fight.xp
    ok(run, "encounter", "edit", "delay", "brak1")                      # Brakka waits: Sister Ilse is due
    assert current(reopened(_db(tmp_path))).turns.order[-1] == "brak1"
    ok(run, "encounter", "edit", "remove", "goblin")
    ok(run, "encounter", "edit", "hp", "ogre", "0")                     # the last foe down: the fight is over
    assert current(reopened(_db(tmp_path))).turns.encounter.over


@pytest.mark.rule("F-FUMB-01")
def test_F_FUMB_01_a_fumble_that_damages_the_weapon_never_hits_a_fist(furnace: Run, tmp_path: Path) -> None:
    """Bertil (0-level, a fist) against a goblin (1d8−1: 4 − 1 = 3 HP); the party first (5 against 2): his d20
    shows 1, the fumble d4 (no armor) shows 4 — 'The weapon takes damage' (F-TAB-36): a fist takes none."""
    run = keep(furnace)
    ok(run, "campaign", "join", str(EXAMPLES / "bertil.json"))
    ok(run, "encounter", "start", "--party", "bert1", "--monsters", "goblin", "--faces", "4,5,2")
    ok(run, "encounter", "act", "bert1", "attack", "goblin", "--faces", "1,4")
    fumbles = [f for f in facts(tmp_path, "fumble") if f.rolls]
    assert [f.rolls[-1].total for f in fumbles] == [0, 4] and not facts(tmp_path, "weapon")   # the ATK, the d4


@pytest.mark.rule("F-DEATH-01", "H-HEAL-04")
@pytest.mark.parametrize(("profile", "faces", "kind", "left"), [("furnace", "3,8", "dying", 2),
                                                                ("hazards", "4", "wake_up", None)])
def test_a_campaign_from_before_gets_timers_for_those_already_down(furnace: Run, tmp_path: Path, profile: str,
                                                                    faces: str, kind: str, left: int | None) -> None:
    """A campaign kept before lasting state: Brakka at −2 HP, down, no entry on the clock. The next advance gives
    her what the rules give: furnace, a 1d4 timer (3) and at once her first d20 (8): 2 turns left; hazards, waking
    in 1d6 hours (4)."""
    from furnace.campaign.commands import put

    run = keep(furnace, "--profile", profile)
    store = Store(f"sqlite:///{_db(tmp_path)}")
    try:
        def down(state: CampaignState) -> tuple[CampaignState, list[Event]]:
            m = state.roster["brak1"]
            return put(state, m, m.character.model_copy(update={"hp": -2, "conditions": ["DYING"]})), []

        store.apply("keep", "an old campaign's dying PC", down)
    finally:
        store.close()
    ok(run, "clock", "advance", "1", "round", "--faces", faces)
    (entry,) = reopened(_db(tmp_path)).clock.entries
    assert (entry.kind, entry.owner) == (kind, "Brakka") and (left is None or entry.remaining == left)
    if kind == "wake_up":
        assert entry.at == 4 * 3600 and "UNCONSCIOUS" in reopened(_db(tmp_path)).roster["brak1"].character.conditions


def test_the_party_leaves_home_the_peasants_of_a_player_who_promoted_one(furnace: Run, tmp_path: Path) -> None:
    """A funnel of two peasants each (seed 1); Ann promotes Ann-2: `--party` is Ann-2 and Bo's two
    peasants — Ann-1 stayed home — so 30 XP is 10 each to three."""
    code, _, err = furnace("campaign", "new", "keep")
    assert code == 0, err

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    ok(run, "funnel", "--player", "Ann", "--player", "Bo", "--per-player", "2", "--seed", "1")
    ok(run, "character", "promote", "ann2", "--class", "Fighter", "--archetype", "Barbarian", "--save", "DEX",
       "--style", "Defense", "--random", "--seed", "1")
    ok(run, "xp", "award", "30", "--party", "--reason", "the cave")
    state = reopened(_db(tmp_path))
    assert {m: xp.total(state.roster[m].character) for m in state.roster} == {"ann1": 0, "ann2": 10, "bo1": 10,
                                                                              "bo2": 10}


def test_xp_left_over_from_a_share_is_kept_for_the_next_fight(furnace: Run, tmp_path: Path) -> None:
    """REF-24: a goblin's 5 XP to Brakka and Sister Ilse is 2 each and 1 kept; the next goblin's 5 + 1 = 6 is 3
    each, nothing kept."""
    run = keep(furnace)
    for fight, (each, kept) in enumerate(((2, 1), (5, 0)), start=1):
        ok(run, "fight", "--party", "all", "--monsters", "goblin", "--seed", str(fight))
        state = reopened(_db(tmp_path))
        assert state.xp_pool == kept and {xp.total(m.character) for m in state.roster.values()} == {each}
