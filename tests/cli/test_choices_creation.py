"""The players decide at creation, promotion and levelling: every choice is taken as an option or, with
`--random`, picked by the dice and said one line per pick; without either, one `error:` line names every open
choice with its options and nothing changes. Through `furnace character new|promote` (a campaign's roster and
character files).

Hob (examples/characters/hob.json) is a Human peasant: STR 11, DEX 11, CON 8, INT 7 (−1), WIS 10, CHA 6, 2 HP.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from furnace.characters.character import Character
from furnace.cli.app import main
from furnace.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
HOB = str(ROOT / "examples" / "characters" / "hob.json")
CORRA = str(ROOT / "examples" / "characters" / "corra.json")
FIGHTER = ("--class", "Fighter", "--archetype", "Barbarian", "--save", "DEX")
FIRST_KIT = ("--kit", "shield", "--kit", "martial ranged", "--kit", "leather")
Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """`cli(...)` runs `furnace --db <tmp>/furnace.db ...` with the campaign 'keep' in use."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    for name in ("FURNACE_CAMPAIGN", "FURNACE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    db = str(tmp_path / "furnace.db")

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", db, *args])
        out, err = capsys.readouterr()
        return code, out, err

    assert run("campaign", "new", "keep")[0] == 0 and run("campaign", "use", "keep")[0] == 0
    return run


def ok(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


def refused(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, (code, out, err)
    return err


def joined(cli: Run, *files: str) -> None:
    ok(cli, "campaign", "join", *files, "--player", "Ann")


def character(cli: Run, who: str) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(ok(cli, "character", "show", who, "--json"))["character"]
    return shown


def picks(out: str) -> list[str]:
    return [line.split("picked at random: ", 1)[1] for line in out.splitlines() if "picked at random: " in line]


# -- a Human's swap (F-RACE-02, AMB-10) -----------------------------------------------------------------------
@pytest.mark.rule("F-RACE-02", "F-CHAR-04")
def test_F_RACE_02_a_human_is_asked_for_her_swap_and_it_counts_before_her_skills(cli: Run) -> None:
    """Unasked, Hob's promotion is refused naming the swap with the other open choices; INT 7 (−1) gives her
    1 + (−1) + 1 (Human) = 1 skill; swapping STR 11 and INT 7 first gives INT 11 (+0): 2 skills, and STR 7."""
    joined(cli, HOB)
    err = refused(cli, "character", "promote", "Hob", *FIGHTER, "--style", "Defense", "--seed", "1")
    assert "--swap none, two of STR/DEX/CON/INT/WIS/CHA" in err and "(F-RACE-02)" in err
    assert "--skill Acrobatics" in err and "--kit martial one-handed weapon and shield, martial two-handed" in err
    assert character(cli, "Hob")["level"] == 0                                      # nothing changed
    assert "chooses 1 skill(s)" in refused(cli, "character", "promote", "Hob", *FIGHTER, "--style", "Defense",
                                           "--swap", "none", *FIRST_KIT, "--skill", "Athletics", "--skill", "Nature")
    out = ok(cli, "character", "promote", "Hob", *FIGHTER, "--style", "Defense", "--swap", "STR,INT", *FIRST_KIT,
             "--skill", "Athletics", "--skill", "Nature", "--faces", "4")
    assert "Hob: Human swap: STR ↔ INT" in out
    c = character(cli, "Hob")
    assert (c["scores"]["STR"], c["scores"]["INT"], c["swapped"]) == (7, 11, ["STR", "INT"])
    assert {"Athletics", "Nature"} <= set(c["skills"]) and c["hp_max"] == 2 + 4


@pytest.mark.rule("F-RACE-02")
def test_F_RACE_02_only_a_human_swaps_and_random_takes_the_best_score_into_the_class_save(cli: Run) -> None:
    """Corra is a Half-orc: a swap is refused. A Magic-user's own save is INT: Hob's --random swap takes her best
    score (STR 11) into INT 7, and says so; a Fighter's STR 11 is her best already: no swap, said too."""
    joined(cli, HOB, CORRA)
    err = refused(cli, "character", "promote", "Corra", "--random", "--swap", "STR,CHA", "--seed", "1")
    assert "only a Human swaps two scores" in err and "a Half-orc" in err
    assert "--swap takes two different scores" in refused(cli, "character", "promote", "Hob", "--swap", "STR,STR")
    dry = ok(cli, "character", "promote", "Hob", *FIGHTER, "--random", "--seed", "2", "--no-write")
    assert "swap none" in picks(dry)
    out = ok(cli, "character", "promote", "Hob", "--archetype", "Wizard", "--random", "--seed", "2")
    assert "swap INT, STR" in picks(out)
    assert character(cli, "Hob")["scores"]["INT"] == 11 and character(cli, "Hob")["scores"]["STR"] == 7


@pytest.mark.rule("F-RACE-02")
def test_F_RACE_02_character_new_swaps_the_rolled_scores(cli: Run) -> None:
    """The same seed with --swap none and with --swap STR,CHA: the same 3d6, STR and CHA exchanged."""
    common = ("character", "new", "--race", "Human", "--class", "Fighter", "--random", "--seed", "9", "--json")
    kept = json.loads(ok(cli, *common, "--swap", "none"))
    swapped = json.loads(ok(cli, *common, "--swap", "STR,CHA"))
    assert (swapped["scores"]["STR"], swapped["scores"]["CHA"]) == (kept["scores"]["CHA"], kept["scores"]["STR"])
    assert swapped["swapped"] == ["STR", "CHA"] and kept["swapped"] is None


# -- the starting kit (F-TAB-40, F-FTR-04, F-FTR-05) -----------------------------------------------------------------
@pytest.mark.rule("F-TAB-40", "F-FTR-04", "F-FTR-05")
def test_F_TAB_40_a_two_handed_weapon_master_gets_no_shield(cli: Run) -> None:
    """A 2H weapon master is not offered the one-handed weapon and shield: --kit shield is refused, --random
    takes the two-handed weapon without a die (the only alternative left), and her AC is Scale mail's 14 with
    DEX +0 and no shield; a Defense Fighter with the shield: 14 + 2 (shield) + 1 (Defense) = 17."""
    joined(cli, HOB)
    master = (*FIGHTER, "--skill", "Athletics", "--swap", "none", "--style", "2H weapon master")
    err = refused(cli, "character", "promote", "Hob", *master, "--kit", "shield", "--seed", "1")
    assert "her kit has no 'martial one-handed weapon and shield'" in err and "take martial two-handed weapon" in err
    out = ok(cli, "character", "promote", "Hob", *master, "--kit", "scalemail", "--kit", "any simple", "--random",
             "--faces", "5")
    assert picks(out) == []                                        # the weapon pick had one alternative left
    c = character(cli, "Hob")
    assert not c["shield"] and [w["name"] for w in c["weapons"]][:2] == ["longsword", "spear"]
    rules = load_ruleset()
    assert Character.model_validate(c).ac(rules) == 14
    defense = json.loads(ok(cli, "character", "promote", HOB, *FIGHTER, "--skill", "Athletics", "--swap", "none",
                            "--style", "Defense", "--kit", "shield", "--kit", "warbow", "--kit", "scalemail",
                            "--faces", "5", "--no-write", "--json"))["character"]
    assert defense["shield"] and Character.model_validate(defense).ac(rules) == 17


@pytest.mark.rule("F-TAB-40", "F-FTR-05")
def test_F_TAB_40_every_kit_pick_is_asked_named_in_part_or_picked_and_said(cli: Run) -> None:
    joined(cli, HOB)
    given = (*FIGHTER, "--skill", "Athletics", "--swap", "none", "--style", "Defense")
    err = refused(cli, "character", "promote", "Hob", *given, "--seed", "1")
    assert err.count("--kit") == 3 and "[the Fighter kit, pick 3 (F-TAB-40)]" in err
    assert "--kit leather armor, scalemail" in err
    assert "names more than one" in refused(cli, "character", "promote", "Hob", *given, "--kit", "martial")
    assert "is not in the Fighter kit" in refused(cli, "character", "promote", "Hob", *given, "--kit", "halberd")
    out = ok(cli, "character", "promote", "Hob", *given, "--kit", "leather", "--random", "--seed", "3")
    kit = [p for p in picks(out) if p.startswith("kit ")]
    assert len(kit) == 2 and all(line.count("picked at random") <= 1 for line in out.splitlines())   # one a line
    c = character(cli, "Hob")
    assert c["armor"] == "boiled-leather" and c["level"] == 1


# -- character new: every level's choices ----------------------------------------------------------------------
@pytest.mark.rule("F-CHAR-03", "F-CHAR-04", "F-FTR-04", "F-ADV-03")
def test_F_CHAR_03_character_new_asks_every_level_and_random_says_each_pick(cli: Run) -> None:
    """A level-4 Fighter: unasked, one line names the open choices of levels 1, 2 (a Barbarian feature, F-TAB-05a)
    and 4 (the +1 to a score); --random picks each and says it, one line each, on stderr under --json (stdout
    stays the character)."""
    err = refused(cli, "character", "new", "--class", "Fighter", "--race", "Dwarf", "--level", "4", "--seed", "5")
    for part in ("level 1: --save", "level 1: --style", "level 1: --kit", "level 2: --feature rage",
                 "level 4: --ability STR"):
        assert part in err, part
    code, out, said = cli("character", "new", "--class", "Fighter", "--race", "Dwarf", "--level", "4", "--seed",
                          "5", "--random", "--ability", "CON", "--json")
    assert code == 0
    hero = json.loads(out)
    lines = said.splitlines()
    assert lines and all("picked at random: " in line for line in lines)
    kinds = [p.split(" ")[0] for p in picks(said)]
    assert len(kinds) == len(lines) and {"save", "style", "kit", "feature"} <= set(kinds)
    assert not any(p.startswith("ability") for p in picks(said))              # given, not picked
    assert hero["level"] == 4 and len(hero["archetype_features"]) == 1 and hero["fighting_style"]
    assert "no level up to 4 asks for --ability DEX" in refused(
        cli, "character", "new", "--class", "Fighter", "--race", "Dwarf", "--level", "4", "--seed", "5", "--random",
        "--ability", "CON", "--ability", "DEX")
