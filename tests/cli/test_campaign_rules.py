"""The campaign's rules, visible and settable, through the `furnace` command in-process: `rules list` and `rules
show` in a campaign show its effective options and where each value comes from (the default, the profile, an
override file, `campaign override set`); `campaign show` names the profile in force and each override;
`campaign override set NAME=VALUE` sets one option without a file, checked like every option, logged and
undoable, taken back by `override remove set:NAME`. The rules it switches are applied: the death model (CF-30)
and the Hazards light (H-LIGHT-02), by the numbers.

Each test has its own SQLite file (--db) and its own config and data folders.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import Run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "characters"


@pytest.fixture
def keep(furnace: Run) -> Run:
    """The campaign 'keep' under the furnace profile, in use."""
    ok(furnace, "campaign", "new", "keep")
    ok(furnace, "campaign", "use", "keep")
    return furnace


def ok(cli: Run, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


def refused(cli: Run, *args: str) -> str:
    """The command is refused in one `error:` line with exit 2, and the campaign's log and state are unchanged."""
    before = ok(cli, "campaign", "show", "--json"), ok(cli, "campaign", "log", "--json")
    code, out, err = cli(*args)
    assert code == 2, out
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert (ok(cli, "campaign", "show", "--json"), ok(cli, "campaign", "log", "--json")) == before
    return err


def option(cli: Run, name: str, *args: str) -> dict[str, Any]:
    shown: dict[str, Any] = json.loads(ok(cli, *args, "rules", "show", name, "--json"))
    return shown


def listed(cli: Run, *args: str) -> dict[str, dict[str, Any]]:
    options: dict[str, dict[str, Any]] = json.loads(ok(cli, *args, "rules", "list", "--json"))["options"]
    return options


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def member(cli: Run, who: str) -> dict[str, Any]:
    members: list[dict[str, Any]] = json.loads(ok(cli, "character", "list", "--json"))
    return next(m for m in members if who in (m["id"], m["name"]))


def log(cli: Run) -> list[dict[str, Any]]:
    logged: list[dict[str, Any]] = json.loads(ok(cli, "campaign", "log", "--json"))
    return logged


# -- where each value comes from --------------------------------------------------------------------------------
@pytest.mark.rule("F-BASE-01")
def test_rules_in_a_campaign_say_where_each_value_comes_from(furnace: Run, tmp_path: Path) -> None:
    """Under the hazards profile, with an option file and an option set: each value from its own place."""
    ok(furnace, "campaign", "new", "keep", "--profile", "hazards")
    ok(furnace, "campaign", "use", "keep")
    ok(furnace, "campaign", "override", "add", write(tmp_path, "house.yaml", "enemy_morale: true\n"))
    ok(furnace, "campaign", "override", "set", "monster_crits=true")

    options = listed(furnace)
    assert options["death_model"] == {"value": "hazards", "source": "profile hazards"}
    assert options["enemy_morale"] == {"value": True, "source": "campaign override option:house (house.yaml)"}
    assert options["monster_crits"] == {"value": True, "source": "campaign override set"}
    assert options["pc_morale"] == {"value": False, "source": "default"}
    assert json.loads(ok(furnace, "rules", "list", "--json"))["campaign"] == "keep"
    assert listed(furnace, "--campaign", "keep") == options        # the campaign named, or the one in use

    shown = option(furnace, "monster_crits")
    assert (shown["value"], shown["source"], shown["default"], shown["campaign"], shown["profile"]) == (
        True, "campaign override set", False, "keep", "hazards")
    text = ok(furnace, "rules", "show", "enemy_morale")
    assert text.splitlines()[:2] == ["enemy_morale = true   (campaign override option:house (house.yaml); "
                                     "default false)", "  in the campaign keep (profile hazards)"]
    table = ok(furnace, "rules", "list")
    assert "campaign keep · profile hazards" in table and "campaign override set" in table
    assert "True" not in table and "False" not in table          # values as the referee writes them


def test_a_profile_named_shows_the_profile_and_without_a_campaign_rules_are_as_before(
        furnace: Run, tmp_path: Path) -> None:
    assert option(furnace, "death_model")["source"] == "default"      # no campaign: the furnace profile
    assert "campaign" not in json.loads(ok(furnace, "rules", "list", "--json"))
    ok(furnace, "campaign", "new", "keep")
    ok(furnace, "campaign", "use", "keep")
    ok(furnace, "campaign", "override", "set", "death_model=middle-sea")
    assert option(furnace, "death_model")["source"] == "campaign override set"
    assert option(furnace, "death_model")["value"] == "middle-sea"
    profile = json.loads(ok(furnace, "rules", "show", "death_model", "--profile", "hazards", "--json"))
    assert (profile["value"], profile["source"]) == ("hazards", "profile hazards") and "campaign" not in profile
    code, _, err = furnace("--campaign", "keep", "rules", "list", "--profile", "hazards")
    assert code == 2 and err.startswith("error: name --campaign or --profile, not both")


# -- campaign show ------------------------------------------------------------------------------------------------
def test_campaign_show_names_the_profile_in_force_and_each_override(keep: Run, tmp_path: Path) -> None:
    assert ok(keep, "campaign", "show").splitlines()[0].startswith("keep (profile furnace) — ")
    grim = write(tmp_path, "grim.yaml", "name: grim\nextends: hazards\noptions:\n  enemy_morale: true\n")
    ok(keep, "campaign", "override", "add", grim)
    ok(keep, "campaign", "override", "add", write(tmp_path, "house.yaml", "pc_morale: true\n"))
    ok(keep, "campaign", "override", "set", "hazards_light=false")

    lines = ok(keep, "campaign", "show").splitlines()
    assert lines[0].startswith("keep (profile grim, from grim.yaml (profile:grim), extending hazards; begun under "
                               "furnace) — ")
    assert lines[1:4] == ["  override option:house  (house.yaml)", "  override profile:grim  (grim.yaml)",
                          "  override set:hazards_light = false"]
    rules = json.loads(ok(keep, "campaign", "show", "--json"))["rules"]
    assert (rules["profile"], rules["began"], rules["profile_override"]) == ("grim", "furnace", "profile:grim")
    assert rules["overrides"] == [
        {"key": "option:house", "kind": "option", "id": "house", "source": "house.yaml"},
        {"key": "profile:grim", "kind": "profile", "id": "grim", "source": "grim.yaml"},
        {"key": "set:hazards_light", "kind": "set", "id": "hazards_light", "source": "", "value": False}]
    assert ok(keep, "campaign", "override", "list").splitlines() == [
        "option:house  (house.yaml)", "profile:grim  (grim.yaml)", "set:hazards_light = false"]
    # the rules follow: the referee's profile, its option, the file's and the one set
    options = listed(keep)
    assert options["death_model"] == {"value": "hazards", "source": "profile hazards"}
    assert options["enemy_morale"] == {"value": True, "source": "profile grim"}
    assert options["hazards_light"] == {"value": False, "source": "campaign override set"}
    assert json.loads(ok(keep, "rules", "list", "--json"))["profile"] == "grim"


def undo(run: Run) -> None:
    """`campaign undo --yes N` for the command it would take back (it asks first, and names it)."""
    shown = json.loads(ok(run, "campaign", "undo", "--show", "--json"))
    ok(run, "campaign", "undo", "--yes", str(shown["undo"]["command"]))


# -- set, remove, undo ---------------------------------------------------------------------------------------------
@pytest.mark.rule("F-BASE-01")
def test_set_then_remove_and_undo(keep: Run) -> None:
    """A set is a logged command (its fact names the option, the value, what it was and from where); `remove
    set:NAME` brings the profile's value back; `undo` takes either back."""
    out = ok(keep, "campaign", "override", "set", "hazards_disease=yes")
    assert "the referee turns on the rule option “Hazards: diseases” (it was off, from the default)" in out
    assert option(keep, "hazards_disease")["value"] is True
    fact = log(keep)[-1]
    told = fact["data"]["fact"]
    assert fact["kind"] == "rule_option" and told["rules"] == ["F-BASE-01"] and told["audience"] == "referee"
    assert {k: fact["data"][k] for k in ("action", "option", "value", "source", "was", "was_from")} == {
        "action": "set", "option": "hazards_disease", "value": True, "source": "campaign override set",
        "was": False, "was_from": "default"}

    ok(keep, "campaign", "override", "set", "disease_loss_per_failure=2")     # a whole number, in its range
    ok(keep, "campaign", "override", "set", "disease_loss_per_failure=3")     # a second set replaces the first
    assert option(keep, "disease_loss_per_failure")["value"] == 3
    assert ok(keep, "campaign", "override", "list").splitlines() == ["set:disease_loss_per_failure = 3",
                                                                      "set:hazards_disease = true"]
    undo(keep)
    assert option(keep, "disease_loss_per_failure")["value"] == 2

    out = ok(keep, "campaign", "override", "remove", "set:hazards_disease")
    assert "takes back the rule option “Hazards: diseases” set in the campaign: off again" in out
    shown = option(keep, "hazards_disease")
    assert (shown["value"], shown["source"]) == (False, "default")
    assert ok(keep, "campaign", "override", "list").splitlines() == ["set:disease_loss_per_failure = 2"]
    undo(keep)                                                                # the removal taken back
    assert option(keep, "hazards_disease")["source"] == "campaign override set"
    assert [e["command"] for e in log(keep)[-7:] if e["kind"] == "rule_option"] == [
        "override set", "override set", "override set", "override remove"]


def test_a_campaigns_own_options_from_its_start_are_sets_too(furnace: Run) -> None:
    ok(furnace, "campaign", "new", "keep", "--option", "hazards_travel=true")
    ok(furnace, "campaign", "use", "keep")
    assert option(furnace, "hazards_travel")["source"] == "campaign override set"
    assert ok(furnace, "campaign", "override", "list").splitlines() == ["set:hazards_travel = true"]
    ok(furnace, "campaign", "override", "remove", "set:hazards_travel")
    assert option(furnace, "hazards_travel")["value"] is False


# -- refusals ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("setting", "says"), [
    ("hazards_light=maybe", "option hazards_light (override): 'maybe' is not true or false"),
    ("hazard_light=true", "unknown rule option 'hazard_light'; did you mean hazards_light"),
    ("hazards_light", "an option override is NAME=VALUE"),
    ("death_model=sudden", "'sudden' is not one of"),
    ("disease_loss_per_failure=-4", "disease_loss_per_failure"),
    ("injury_table=F-TAB-99", "'F-TAB-99' is not a table in force"),
])
def test_a_bad_set_is_one_error_line_and_changes_nothing(keep: Run, setting: str, says: str) -> None:
    assert says in refused(keep, "campaign", "override", "set", setting)


def test_an_option_is_set_in_one_place(keep: Run, tmp_path: Path) -> None:
    """A set and an option file of the same option refuse each other, naming the other."""
    ok(keep, "campaign", "override", "add", write(tmp_path, "house.yaml", "enemy_morale: true\n"))
    err = refused(keep, "campaign", "override", "set", "enemy_morale=false")
    assert "option enemy_morale is set by option:house (house.yaml) already" in err
    ok(keep, "campaign", "override", "set", "pc_morale=true")
    err = refused(keep, "campaign", "override", "add", write(tmp_path, "more.yaml", "pc_morale: false\n"))
    assert "option pc_morale is set by set:pc_morale already" in err
    err = refused(keep, "campaign", "override", "remove", "set:hazards_light")
    assert "unknown override 'set:hazards_light'" in err and "set:pc_morale" in err


def test_set_needs_a_campaign(furnace: Run) -> None:
    code, _, err = furnace("campaign", "override", "set", "hazards_light=true")
    assert code == 2 and err.startswith("error: this command needs a campaign")


# -- the rules it switches, applied --------------------------------------------------------------------------------
@pytest.mark.rule("F-BASE-01", "H-DMG-02", "H-DMG-03", "F-DEATH-02")
def test_the_death_model_set_in_a_campaign_decides_who_dies(keep: Run) -> None:
    """Furnace: dead at −(3 + LVL + CON); Hazards: unconscious at 0 or below, dead at −3 (CF-30). Brakka and
    Sister Ilse (level 3, CON +0: dead at −6 under Furnace), Maelis (level 3, CON −2: dead at −4)."""
    ok(keep, "campaign", "join", *(str(EXAMPLES / f"{s}.json") for s in ("brakka", "ilse", "maelis")))
    ok(keep, "damage", "Brakka", "25")                                      # 22 → −3: above −6, alive
    assert (member(keep, "Brakka")["hp"], member(keep, "Brakka")["status"]) == (-3, "dying")

    ok(keep, "campaign", "override", "set", "death_model=hazards")
    ok(keep, "damage", "Sister Ilse", "13")                                 # 11 → −2: unconscious (H-DMG-02)
    assert member(keep, "Sister Ilse")["hp"] == -2 and member(keep, "Sister Ilse")["status"] != "dead"
    ok(keep, "damage", "Maelis", "16")                                      # 13 → −3: dead (H-DMG-03)
    assert (member(keep, "Maelis")["hp"], member(keep, "Maelis")["status"]) == (-3, "dead")

    ok(keep, "campaign", "override", "remove", "set:death_model")          # Furnace's threshold again
    ok(keep, "damage", "Sister Ilse", "1")                                  # −3: above her −6
    assert member(keep, "Sister Ilse")["hp"] == -3 and member(keep, "Sister Ilse")["status"] != "dead"
    ok(keep, "damage", "Sister Ilse", "3")                                  # −6: dead under Furnace
    assert member(keep, "Sister Ilse")["status"] == "dead"


@pytest.mark.rule("F-BASE-01", "H-DMG-03")
def test_a_referees_profile_mixes_the_rules(keep: Run, tmp_path: Path) -> None:
    """A referee's profile file: the Furnace rules with the Hazards death at −3, named by `campaign show`."""
    ok(keep, "campaign", "join", str(EXAMPLES / "maelis.json"), str(EXAMPLES / "brakka.json"))
    grim = write(tmp_path, "grim.yaml", "name: grim\nextends: furnace\noptions:\n  death_model: hazards\n")
    ok(keep, "campaign", "override", "add", grim)
    assert option(keep, "death_model")["source"] == "profile grim"
    assert option(keep, "healing_model")["source"] == "default"       # the rest is Furnace's
    assert "(profile grim, from grim.yaml" in ok(keep, "campaign", "show").splitlines()[0]
    ok(keep, "damage", "Brakka", "24")                                # 22 → −2: alive
    ok(keep, "damage", "Maelis", "16")                                # 13 → −3: dead at −3, not Furnace's −4
    assert member(keep, "Brakka")["status"] != "dead"
    assert (member(keep, "Maelis")["hp"], member(keep, "Maelis")["status"]) == (-3, "dead")


def _light_entries(cli: Run) -> list[dict[str, Any]]:
    status = json.loads(ok(cli, "clock", "status", "--json"))
    return [e for e in status["entries"] if e["owner"] == "Brakka"]


@pytest.mark.rule("F-BASE-01", "H-LIGHT-02")
def test_light_turned_on_without_a_file_burns_a_torch_for_six_turns(keep: Run) -> None:
    ok(keep, "campaign", "join", str(EXAMPLES / "brakka.json"))
    err = refused(keep, "clock", "light", "Brakka", "torch")
    assert "hazards_light is off" in err and "campaign override set hazards_light=true" in err
    ok(keep, "campaign", "override", "set", "hazards_light=true")
    ok(keep, "clock", "light", "Brakka", "torch")
    assert [e["in_minutes"] for e in _light_entries(keep)] == [60]    # 6 exploration turns of 10 minutes
    ok(keep, "clock", "advance", "5", "turns")
    assert [e["in_minutes"] for e in _light_entries(keep)] == [10]
    ok(keep, "clock", "advance", "1", "turns")
    assert _light_entries(keep) == []                                 # burnt out at the sixth turn
