"""The roster at the table, in-process through `furnace.cli.main`: the funnel onto a campaign, promotion and
levelling with every choice asked (or picked at random and said), retiring and renaming, and the campaign
library's commands (join, import-files, export/import, backup/restore, overrides).

Each test has its own SQLite file (--db) and its own config and data folders, so no campaign of the machine's
user is read or written.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "characters"
# the first alternative of each pick of the starting kit (F-TAB-40), and a Human's swap declined (F-RACE-02)
FIGHTER_KIT = ("--swap", "none", "--kit", "shield", "--kit", "martial ranged", "--kit", "leather")
CLERIC_KIT = ("--kit", "shield", "--kit", "simple ranged", "--kit", "leather")
Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    for name in ("FURNACE_CAMPAIGN", "FURNACE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def cli(isolated: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    """`cli("character", "list")` runs `furnace --db <tmp>/furnace.db character list` in the campaign 'keep'."""
    db = isolated / "furnace.db"

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", str(db), *args])
        out, err = capsys.readouterr()
        return code, out, err

    assert run("campaign", "new", "keep")[0] == 0
    assert run("campaign", "use", "keep")[0] == 0
    return run


def ok(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


def refused(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 2, out
    assert err.startswith("error: ") and err.count("\n") == 1
    return err


def roster(cli: Run, *args: str) -> list[dict[str, Any]]:
    members: list[dict[str, Any]] = json.loads(ok(cli, *args, "character", "list", "--json"))
    return members


def member(cli: Run, who: str) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(ok(cli, "character", "show", who, "--json"))
    return shown


def join(cli: Run, *stems: str, player: str = "Ann") -> None:
    ok(cli, "campaign", "join", *(str(EXAMPLES / f"{s}.json") for s in stems), "--player", player)


def events(cli: Run) -> list[dict[str, Any]]:
    logged: list[dict[str, Any]] = json.loads(ok(cli, "campaign", "log", "--json"))
    return logged


# -- the funnel -------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-CHAR-01")
def test_F_CHAR_01_a_funnel_with_named_players_joins_the_roster(cli: Run) -> None:
    out = ok(cli, "funnel", "--player", "Ann", "--player", "Bo", "--player", "Cy", "--seed", "1")
    assert "Funnel party: 12 0-level characters" in out
    assert "joins the campaign as ann1 (player Ann)" in out and "joins the campaign as cy4 (player Cy)" in out
    members = roster(cli)
    assert Counter(m["player"] for m in members) == {"Ann": 4, "Bo": 4, "Cy": 4}
    assert [m["name"] for m in members if m["player"] == "Bo"] == ["Bo-1", "Bo-2", "Bo-3", "Bo-4"]
    assert {(m["level"], m["status"]) for m in members} == {(0, "alive")}
    text = ok(cli, "character", "list")
    assert "12 character(s): 12 alive" in text and all(f"Ann-{n}" in text for n in range(1, 5))
    logged = events(cli)
    scores = [e for e in logged if e["kind"] == "ability_scores"]
    assert len(scores) == 12 and all(len(e["rolls"]) == 6 for e in scores)       # 3d6 in order, kept
    assert {e["who"] for e in scores} == {m["name"] for m in members}
    # a second funnel numbers on past the names the roster has
    ok(cli, "funnel", "--player", "Ann", "--per-player", "2", "--seed", "2")
    assert [m["name"] for m in roster(cli) if m["player"] == "Ann"][4:] == ["Ann-5", "Ann-6"]


@pytest.mark.rule("F-CHAR-01")
def test_F_CHAR_01_a_funnel_by_count_and_its_json(cli: Run) -> None:
    data = json.loads(ok(cli, "funnel", "--players", "2", "--per-player", "3", "--seed", "4", "--json"))
    assert data["campaign"] == "keep" and [r["id"] for r in data["roster"]] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    assert Counter(m["player"] for m in roster(cli)) == {"Player 1": 3, "Player 2": 3}
    assert refused(cli, "funnel", "--players", "3", "--player", "Ann").endswith("give one or the other\n")
    assert "own rules" in refused(cli, "funnel", "--profile", "hazards", "--seed", "1")


@pytest.mark.rule("F-CHAR-01")
def test_F_CHAR_01_without_a_campaign_the_funnel_stores_nothing(isolated: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    db = isolated / "never.db"
    assert main(["--db", str(db), "funnel", "--player", "Ann", "--player", "Bo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Funnel party: 8 0-level characters" in out and "Ann-4" in out and "joins" not in out
    assert not db.exists()


# -- promotion ---------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-CHAR-03", "F-CHAR-04")
def test_F_CHAR_03_F_CHAR_04_promote_with_every_choice_given(cli: Run) -> None:
    join(cli, "hob")
    before = member(cli, "Hob")
    out = ok(cli, "character", "promote", "Hob", "--class", "Fighter", "--archetype", "Barbarian",
             "--skill", "Athletics", "--save", "dex", "--style", "defense", "--name", "Hob the Bold", "--seed", "3",
             *FIGHTER_KIT)
    assert "becomes a level-1 Fighter (Barbarian)" in out and "Hob is now called Hob the Bold" in out
    assert "picked at random" not in out
    after = member(cli, "Hob the Bold")
    c = after["character"]
    assert after["id"] == before["id"] == "hob1"
    assert (c["char_class"], c["archetype"], c["level"], c["fighting_style"]) == ("Fighter", "Barbarian", 1, "Defense")
    assert c["saves"] == ["STR", "DEX"] and set(c["skills"]) == {"Athletics", "Intimidation", "Survival"}
    gained = c["hp_history"][-1]["gained"]
    assert c["hp_max"] == before["character"]["hp_max"] + gained                      # D-6: 0-level HP kept
    assert events(cli)[-1]["command"] == "character promote"


@pytest.mark.rule("F-CHAR-03")
def test_F_CHAR_03_promote_at_random_says_what_it_picked(cli: Run) -> None:
    join(cli, "hob")
    dry = ok(cli, "character", "promote", "hob1", "--random", "--seed", "5", "--no-write")
    assert dry == ok(cli, "character", "promote", "hob1", "--random", "--seed", "5", "--no-write")   # the seed
    assert member(cli, "hob1")["character"]["level"] == 0                                           # not kept
    out = ok(cli, "character", "promote", "hob1", "--class", "Rogue", "--random", "--seed", "5")
    picked = "; ".join(line for line in out.splitlines() if "picked at random:" in line)   # one line per pick
    c = member(cli, "hob1")["character"]
    assert c["char_class"] == "Rogue" and "class" not in picked                      # given, not picked
    assert c["archetype"] == "Arcane Trickster" and "archetype" not in picked        # the one open: no choice
    assert f"save {c['saves'][1]}" in picked
    chosen = [s for s in c["skills"] if s not in ("Arcana", "Insight")]               # the archetype's two
    assert f"skills {', '.join(chosen)}" in picked and len(chosen) == 3                # Rogue 3 + INT -1, +1 Human
    assert f"expertise {', '.join(c['expertise'])}" in picked and len(c["expertise"]) == 2
    assert "d16 →" in out                                                              # the dice that picked


@pytest.mark.rule("F-ARCH-03")
def test_F_ARCH_03_a_half_orc_only_archetype_is_refused_listing_the_open_ones(cli: Run) -> None:
    join(cli, "hob", "corra")
    count = len(events(cli))
    err = refused(cli, "character", "promote", "Hob", "--class", "Cleric", "--archetype", "Bloodshaman",
                  "--skill", "Medicine", "--save", "CON", "--spell", "Fireball", "--spell", "Chill Touch")
    assert "Bloodshaman needs a Half-orc" in err and "not a Human" in err
    assert "Barbarian (Fighter), Arcane Trickster (Rogue), Wizard (Magic-user)" in err
    err = refused(cli, "character", "promote", "Hob", "--class", "Cleric", "--random")
    assert "no Cleric archetype in force is open to a Human" in err
    assert len(events(cli)) == count                                                   # nothing logged
    ok(cli, "character", "promote", "Corra", "--class", "Cleric", "--archetype", "Bloodshaman", "--skill", "Religion",
       "--save", "CON", "--spell", "Fireball", "--spell", "Chill Touch", "--seed", "1", *CLERIC_KIT)
    c = member(cli, "Corra")["character"]
    assert (c["archetype"], c["spells"], c["saves"]) == ("Bloodshaman", ["Fireball", "Chill Touch"], ["WIS", "CON"])


@pytest.mark.rule("F-CHAR-04", "F-FTR-04")
@pytest.mark.parametrize(("args", "words"), [
    (["--save", "DEX", "--style", "Defense"],
     ["chooses 1 skill(s) (1 + INT, never below 0, +1 for a Human; F-CHAR-04)", "--skill", "Acrobatics", "Stealth"]),
    (["--skill", "Athletics", "--save", "DEX"],
     ["one fighting style (F-FTR-04)", "Archery, Defense, Dueling, 2H weapon master, Protection, 2 weapon fighting"]),
    (["--skill", "Athletics", "--style", "Defense"], ["--save", "DEX, CON, INT, WIS, CHA"]),
    (["--skill", "Athletics", "--save", "STR", "--style", "Defense"], ["STR is the Fighter's own save"]),
    (["--skill", "Survival", "--save", "DEX", "--style", "Defense"], ["proficient in Survival already", "AMB-43"]),
    (["--skill", "Juggling"], ["'Juggling' is not a skill", "Acrobatics"]),
    (["--skill", "Nature", "--skill", "nature", "--save", "DEX", "--style", "Defense"], ["Nature is given twice"]),
    (["--skill", "Athletics", "--skill", "Stealth", "--save", "DEX", "--style", "Defense"], ["1 skills, not 2"]),
    (["--skill", "Athletics", "--save", "DEX", "--style", "Defense", "--spell", "Fireball"],
     ["a Fighter learns no spells"]),
])
def test_F_CHAR_04_F_FTR_04_AMB_62_a_missing_or_wrong_choice_is_refused_with_what_is_allowed(
        cli: Run, args: list[str], words: list[str]) -> None:
    join(cli, "hob")
    err = refused(cli, "character", "promote", "Hob", "--class", "Fighter", "--archetype", "Barbarian", *args)
    assert all(w in err for w in words), err
    assert member(cli, "Hob")["character"]["level"] == 0


@pytest.mark.rule("F-MU-05", "F-MU-06")
def test_F_MU_05_F_MU_06_a_magic_user_chooses_spells_and_cantrips(cli: Run) -> None:
    join(cli, "agna")                                                                  # Halfling, INT 14 (+1)
    base = ["character", "promote", "Agna", "--class", "Magic-user", "--archetype", "Wizard",
            "--skill", "Nature", "--skill", "Stealth", "--save", "DEX"]
    err = refused(cli, *base, "--cantrip", "Torchlight", "--cantrip", "Mending")
    assert "knows up to 3 spell(s) (1 + LVL + INT, F-MU-05) and knows 0" in err and "Animate Dead" in err
    err = refused(cli, *base, "--spell", "Fireball", "--spell", "Chill Touch", "--spell", "Flame Shield")
    assert "knows 2 cantrip(s)" in err and "Torchlight" in err
    ok(cli, *base, "--spell", "fireball", "--spell", "Chill Touch", "--spell", "Flame Shield",
       "--cantrip", "Torchlight", "--cantrip", "Mending", "--seed", "2")
    c = member(cli, "Agna")["character"]
    assert c["spells"] == ["Fireball", "Chill Touch", "Flame Shield"] and c["cantrips"] == ["Torchlight", "Mending"]


# -- levels -------------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-ADV-02", "F-ADV-03")
def test_F_ADV_02_F_ADV_03_AMB_46_level_up_asks_for_the_feature_and_the_ability(cli: Run) -> None:
    join(cli, "hob")
    ok(cli, "character", "promote", "Hob", "--class", "Fighter", "--archetype", "Barbarian", "--skill", "Athletics",
       "--save", "DEX", "--style", "Dueling", "--seed", "1", *FIGHTER_KIT)
    err = refused(cli, "character", "level-up", "Hob", "--seed", "1")
    assert "level 2 gives one unused Barbarian feature" in err
    assert "rage, melee-crit-19, d12-hit-die, fearless, intimidating" in err
    assert "gives no +1" in refused(cli, "character", "level-up", "Hob", "--feature", "rage", "--ability", "STR")
    ok(cli, "character", "level-up", "Hob", "--feature", "d12-hit-die", "--seed", "1")
    ok(cli, "character", "level-up", "Hob", "--seed", "1")                                 # level 3 asks nothing
    err = refused(cli, "character", "level-up", "Hob", "--seed", "1")
    assert "level 4 gives +1 to an ability score" in err and "STR, DEX, CON, INT, WIS, CHA" in err
    out = ok(cli, "character", "level-up", "Hob", "--ability", "str", "--seed", "1")
    c = member(cli, "Hob")["character"]
    assert c["level"] == 4 and c["archetype_features"] == ["d12-hit-die"] and c["scores"]["STR"] == 12
    assert "+1 STR: 11 → 12" in out
    out = ok(cli, "character", "level-up", "Hob", "--random", "--seed", "9")                # level 5: a feature
    assert "picked at random: feature" in out and len(member(cli, "Hob")["character"]["archetype_features"]) == 2


@pytest.mark.rule("F-ARCH-03", "F-TAB-22", "F-TAB-05a")
def test_F_ARCH_03_the_bloodshamans_martial_weapon_is_asked_and_gives_prof(cli: Run) -> None:
    """The martial-weapon feature asks which martial melee weapon (F-TAB-22's examples or one she carries); the
    choice is kept and read by the ATK: PROF +1 at level 2 (F-TAB-05a) with a warhammer, a Cleric's martial
    weapon, and not with another martial one."""
    from furnace.characters.character import Character, Weapon
    from furnace.characters.equipment import attack_bonus
    from furnace.rules.ruleset import load_ruleset

    join(cli, "corra")
    ok(cli, "character", "promote", "Corra", "--class", "Cleric", "--archetype", "Bloodshaman", "--skill", "Religion",
       "--save", "CON", "--spell", "Fireball", "--spell", "Chill Touch", "--seed", "1", *CLERIC_KIT)
    level_up = ["character", "level-up", "Corra", "--spell", "Flame Shield", "--seed", "1"]
    err = refused(cli, *level_up, "--feature", "martial-weapon")
    assert "martial-weapon gives PROF with one martial melee weapon" in err and "--weapon" in err
    assert "arming sword, warhammer, longsword" in err and "warbow" not in err
    err = refused(cli, *level_up, "--feature", "martial-weapon", "--weapon", "warbow")
    assert "is not a martial melee weapon" in err
    assert "names a weapon" in refused(cli, *level_up, "--weapon", "warhammer", "--feature", "healer")
    ok(cli, *level_up, "--feature", "martial-weapon", "--weapon", "Warhammer")
    data = member(cli, "Corra")["character"]
    assert data["extensions"]["archetype"] == {"weapon_prof": "warhammer"}
    rules = load_ruleset()
    corra = Character.model_validate(data)
    hammer = Weapon(name="warhammer", category="martial", damage="1d8")
    sword = Weapon(name="arming sword", category="martial", damage="1d8")
    with_both = corra.model_copy(update={"weapons": [sword, hammer]})
    strength = corra.mod("STR")
    assert attack_bonus(with_both, hammer, rules) == strength + 1
    assert attack_bonus(with_both, sword, rules) == strength


@pytest.mark.rule("F-MU-05")
def test_F_MU_05_a_level_opens_a_spell_to_choose(cli: Run) -> None:
    join(cli, "agna")
    ok(cli, "character", "promote", "Agna", "--class", "Magic-user", "--archetype", "Wizard", "--random", "--seed", "3")
    known = member(cli, "Agna")["character"]["spells"]
    assert len(known) == 3
    err = refused(cli, "character", "level-up", "Agna", "--feature", "arcanist", "--seed", "1")
    assert "knows up to 4 spell(s)" in err and "and knows 3]" in err and "--spell" in err
    fresh = next(s for s in ("Fireball", "Chill Touch", "Animate Dead", "Ember Swarm", "Flame Shield")
                 if s not in known)
    out = ok(cli, "character", "level-up", "Agna", "--feature", "bookworm", "--spell", fresh, "--random", "--seed", "1")
    c = member(cli, "Agna")["character"]
    assert c["level"] == 2 and c["archetype_features"] == ["bookworm"]
    assert len(c["spells"]) == 5 and fresh in c["spells"]                         # 1 + 2 + 1, +2 Bookworm: 5 spells
    assert "picked at random" not in out and "learns spells" in out               # the fifth: the one left


# -- the sheets of a member -----------------------------------------------------------------------------------
@pytest.mark.rule("F-MU-05")
def test_F_MU_05_spells_known_on_every_sheet_format(cli: Run, isolated: Path) -> None:
    join(cli, "agna")
    ok(cli, "character", "promote", "Agna", "--class", "Magic-user", "--archetype", "Wizard", "--skill", "Nature",
       "--skill", "Stealth", "--save", "DEX", "--spell", "Fireball", "--spell", "Chill Touch", "--spell",
       "Flame Shield", "--cantrip", "Whisper", "--cantrip", "Mending", "--seed", "2")
    text = ok(cli, "character", "show", "Agna")
    assert "spells known (3 of 3)" in text and "Fireball, Chill Touch, Flame Shield" in text
    assert "cantrips (2 of 2)" in text and "agna1 · player Ann · alive" in text
    markdown = ok(cli, "character", "show", "agna1", "--markdown")
    assert "- **Spells known (3 of 3):** Fireball, Chill Touch, Flame Shield" in markdown
    assert "- **Cantrips (2 of 2):** Whisper, Mending" in markdown
    sheet = isolated / "agna.html"
    ok(cli, "character", "show", "Agna", "--html", str(sheet))
    html = sheet.read_text(encoding="utf-8")
    assert "<dt>Spells known (3 of 3)</dt><dd>Fireball, Chill Touch, Flame Shield</dd>" in html
    assert "<dt>Cantrips (2 of 2)</dt><dd>Whisper, Mending</dd>" in html
    assert "already exists" in refused(cli, "character", "show", "Agna", "--html", str(sheet))
    shown = member(cli, "Agna")
    assert shown["character"]["spells"] == ["Fireball", "Chill Touch", "Flame Shield"]
    assert (shown["id"], shown["player"], shown["status"]) == ("agna1", "Ann", "alive")


def test_a_file_is_still_a_file_with_a_campaign_chosen(cli: Run, isolated: Path) -> None:
    out = ok(cli, "character", "show", str(EXAMPLES / "maelis.json"), "--markdown")
    assert out.startswith("# Maelis") and "**Spells known (2 of 3):** Fireball, Ember Swarm" in out
    hero = isolated / "hob.json"
    hero.write_text((EXAMPLES / "hob.json").read_text(encoding="utf-8"), encoding="utf-8")
    ok(cli, "character", "promote", str(hero), "--class", "Fighter", "--archetype", "Barbarian", "--skill", "Nature",
       "--save", "CON", "--style", "Archery", "--seed", "1", *FIGHTER_KIT)
    assert json.loads(hero.read_text(encoding="utf-8"))["fighting_style"] == "Archery"
    assert roster(cli) == []


# -- retiring, renaming, dying ------------------------------------------------------------------------------------
def test_retire_rename_and_the_dead_in_the_list(cli: Run) -> None:
    ok(cli, "funnel", "--player", "Ann", "--seed", "3")
    out = ok(cli, "character", "retire", "Ann-2", "--reason", "opens an inn")
    assert "Ann-2: retires (ann2): opens an inn" in out
    assert "is retired" in refused(cli, "character", "promote", "ann2", "--random")
    ok(cli, "character", "rename", "Ann-1", "Mirela")
    assert member(cli, "Mirela")["id"] == "ann1"
    assert "called 'Mirela' already" in refused(cli, "character", "rename", "Ann-3", "mirela")
    ok(cli, "damage", "Ann-3", "40", "--source", "a falling portcullis")
    listed = {m["id"]: m for m in roster(cli)}
    assert (listed["ann2"]["status"], listed["ann3"]["status"]) == ("retired", "dead")
    cause = listed["ann3"]["death"]["cause"]
    assert cause == "threshold"                     # the death model's reason, as a code (told in words at the edge)
    alive = json.loads(ok(cli, "character", "list", "--status", "alive", "--json"))
    assert [m["id"] for m in alive] == ["ann1", "ann4"]
    text = ok(cli, "character", "list", "--status", "dead", "--status", "retired")
    assert "died: HP -39 at or below −(3 + LVL 0 + CON 1) = -4" in text and "2 character(s): 1 retired, 1 dead" in text
    assert "is dead" in refused(cli, "character", "level-up", "Ann-3")
    shown = json.loads(ok(cli, "campaign", "undo", "--show", "--json"))["undo"]
    assert ok(cli, "campaign", "undo", "--yes", str(shown["command"])).startswith("[")   # the damage is undone
    assert member(cli, "Ann-3")["status"] == "alive"


# -- the campaign library ----------------------------------------------------------------------------------------
def test_join_and_import_files(cli: Run, isolated: Path) -> None:
    out = ok(cli, "campaign", "join", str(EXAMPLES / "hob.json"), str(EXAMPLES / "corra.json"), "--player", "Bo")
    assert "Hob: joins the campaign as hob1 (player Bo), from hob.json" in out
    assert {m["name"]: m["player"] for m in roster(cli)} == {"Hob": "Bo", "Corra": "Bo"}
    bad = isolated / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert "bad.json" in refused(cli, "campaign", "join", str(EXAMPLES / "agna.json"), str(bad))
    assert len(roster(cli)) == 2                                                  # read all before joining any
    ok(cli, "campaign", "import-files", str(EXAMPLES / "agna.json"))
    assert {m["name"] for m in roster(cli)} == {"Hob", "Corra", "Agna"}


def test_export_then_import_as_a_new_name(cli: Run, isolated: Path) -> None:
    ok(cli, "funnel", "--player", "Ann", "--seed", "6")
    ok(cli, "character", "promote", "Ann-1", "--random", "--seed", "6")
    out_file = isolated / "keep.json"
    assert "written to" in ok(cli, "campaign", "export", "keep", "--out", str(out_file))
    assert "already exists" in refused(cli, "campaign", "export", "keep", "--out", str(out_file))
    ok(cli, "campaign", "export", "keep", "--out", str(out_file), "--force")
    assert "--as" in refused(cli, "campaign", "import", str(out_file))
    assert "'keep-copy' imported" in ok(cli, "campaign", "import", str(out_file), "--as", "keep-copy")
    assert roster(cli, "--campaign", "keep-copy") == roster(cli)
    assert ok(cli, "campaign", "verify", "keep-copy").strip()
    assert ok(cli, "--campaign", "keep-copy", "character", "show", "Ann-1", "--json") == \
        ok(cli, "character", "show", "Ann-1", "--json")


def test_backup_and_restore(cli: Run, isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok(cli, "funnel", "--player", "Ann", "--per-player", "2", "--seed", "8")
    for name in ("keep.db", "keep.json"):
        assert "1 campaign(s) backed up" in ok(cli, "campaign", "backup", str(isolated / name))
    other = isolated / "other.db"
    for name in ("keep.db", "keep.json"):
        assert main(["--db", str(other), "--force", "campaign", "restore", str(isolated / name)]) == 0
        assert "restored 1 campaign(s): keep" in capsys.readouterr().out
    assert main(["--db", str(other), "campaign", "restore", str(isolated / "keep.db")]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["--db", str(other), "--campaign", "keep", "character", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == roster(cli)


def _brute(path: Path) -> Path:
    """A referee's archetype: the Barbarian's rows as 'Brute', for Dwarves only."""
    data = yaml.safe_load((ROOT / "src/furnace/data/tables/F-TAB-07.yaml").read_text(encoding="utf-8"))
    data.update(id="house:archetype-brute", name="archetype-brute", title="Archetype: Brute (Fighter)")
    data["rows"][0]["data"]["prerequisite"] = {"race": "Dwarf"}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.rule("F-ARCH-01")
def test_F_ARCH_01_override_add_list_remove_and_a_referees_archetype_is_offered(cli: Run, isolated: Path) -> None:
    join(cli, "hob", "gisla")                                                     # a Human, a Dwarf
    assert "no overrides" in ok(cli, "campaign", "override", "list")
    out = ok(cli, "campaign", "override", "add", str(_brute(isolated / "brute.yaml")))
    assert "adds archetype:house:archetype-brute from brute.yaml" in out
    assert ok(cli, "campaign", "override", "list").strip() == "archetype:house:archetype-brute  (brute.yaml)"
    listed = json.loads(ok(cli, "campaign", "override", "list", "--json"))
    assert [(o["key"], o["kind"], o["source"]) for o in listed] == [
        ("archetype:house:archetype-brute", "archetype", "brute.yaml")]
    err = refused(cli, "character", "promote", "Hob", "--class", "Fighter", "--archetype", "Brute")
    assert "Brute needs a Dwarf" in err and "Barbarian (Fighter), Arcane Trickster (Rogue)" in err
    err = refused(cli, "character", "promote", "Gisla", "--class", "Fighter", "--save", "DEX")
    assert "--archetype Barbarian, Brute" in err                                        # offered with the packaged one
    ok(cli, "character", "promote", "Gisla", "--archetype", "brute", "--skill", "Athletics", "--save", "DEX",
       "--style", "Defense", "--seed", "4", *FIGHTER_KIT[2:])
    c = member(cli, "Gisla")["character"]
    assert (c["char_class"], c["archetype"]) == ("Fighter", "Brute")              # the class from the archetype
    assert "unknown override" in refused(cli, "campaign", "override", "remove", "table:F-TAB-99")
    assert "removes archetype:house:archetype-brute" in ok(cli, "campaign", "override", "remove",
                                                             "archetype:house:archetype-brute")
    assert "no overrides" in ok(cli, "campaign", "override", "list")
