"""The CLI, run in-process: output, --json shapes, exit codes, help examples."""

from __future__ import annotations

import json
import re

import click
import pytest

from furnace.cli.app import cli, main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_roll_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "roll", "4d6kh3", "--seed", "7")
    again = run(capsys, "roll", "4d6kh3", "--seed", "7")
    assert first == again
    assert first[0] == 0 and first[1].startswith("4d6kh3 → [") and "~~" in first[1]


@pytest.mark.rule("F-BASE-02")
def test_roll_json_shape_and_variables(capsys: pytest.CaptureFixture[str]) -> None:
    """F-BASE-02: a CHECK is d20 + modifiers; the JSON keeps every part."""
    code, out, _ = run(capsys, "roll", "d20+STR+PROF", "--var", "STR=2", "--var", "prof=1", "--seed", "3",
                       "--json", "--label", "ATK")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"expression", "label", "total", "natural", "faces", "explanation", "tree"}
    assert data["total"] == data["natural"] + 3 and data["label"] == "ATK"


def test_roll_times(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "d6", "--times", "5", "--seed", "1")
    assert code == 0 and len(out.strip().splitlines()) == 5


@pytest.mark.parametrize("args", [
    ["roll", "3d"], ["roll", "d20+STR"], ["roll", "1001d6"], ["roll", "d6", "--var", "STR"],
    ["table", "show", "no-such-table"], ["table", "roll", "crit-fighter"], ["rules", "show", "no_option"],
    ["table", "roll", "crit-fighter", "--level", "11"], ["odds", "d20+"],
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_usage_error_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "roll")
    assert code == 2 and "Missing argument" in err


@pytest.mark.parametrize(("args", "words"), [
    (["roll"], "Missing argument 'EXPRESSION' (see furnace roll --help)"),
    (["roll", "d6", "--times", "0"], "0 is not in the range 1<=x<=1000"),
    (["roll", "d6", "--times", "1001"], "1001 is not in the range"),
    (["roll", "d6", "--seed", "abc"], "'abc' is not a valid integer"),
    (["roll", "d6", "--bogus"], "No such option '--bogus'"),
    (["roll", "d6", "d8"], "unexpected extra argument"),
    (["roll", "-d6", "-d8"], "No such option '-d'"),
    (["bogus"], "No such command 'bogus' (see furnace --help)"),
    (["table"], "furnace table needs a command: list, roll, show"),
    ([], "furnace needs a command: "),
    (["odds", "d6", "--dc", "x"], "'x' is not a valid integer"),
    (["table", "roll", "fumble", "--level"], "Option '--level' requires an argument"),
])
def test_clicks_own_usage_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                                         words: str) -> None:
    """Every mistake on the command line, click's own included, is one line `error: …` on stderr and exit code 2."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize(("args", "shown"), [
    (["roll", "-d6", "--seed", "3"], "-d6 → -[2] = -2"),
    (["roll", "--seed", "3", "-d6"], "-d6 → -[2] = -2"),
    (["roll", "--seed", "3", "--", "-d6"], "-d6 → -[2] = -2"),
    (["roll", "-1+d20", "--seed", "2", "--label", "-x"], "-x: -1+d20 → -1 + [20] = 19"),
    (["roll", "--1", "--seed", "2"], "--1 → --1 = 1"),
])
def test_an_expression_may_start_with_a_dash(capsys: pytest.CaptureFixture[str], args: list[str], shown: str) -> None:
    """`furnace roll "-d6"` needs no `--` (a word after an option that takes a value stays that option's value)."""
    code, out, err = run(capsys, *args)
    assert (code, out.strip(), err) == (0, shown, "")


def test_odds_of_an_expression_starting_with_a_dash(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "-d6", "--dc", "-3")
    assert code == 0 and "P(-d6 ≥ -3) = 1/2" in out


@pytest.mark.parametrize(("var", "words"), [
    ("STR=٣", "neither a whole number nor a die"), ("STR=１", "neither a whole number nor a die"),
    ("STR=1_000", "neither a whole number nor a die"), ("STR= 3 4", "neither a whole number nor a die"),
    ("STR=2000000000", "beyond ±1,000,000,000"), ("S.TR=1", "a variable's name is a word"),
    ("٣=1", "a variable's name is a word"), ("1STR=1", "a variable's name is a word"), ("STR", "NAME=VALUE"),
])
def test_var_follows_the_librarys_rules(capsys: pytest.CaptureFixture[str], var: str, words: str) -> None:
    """`--var` reads a value as the library does (ASCII digits only, or a die) and a name by its rule for names."""
    code, _out, err = run(capsys, "roll", "d20+STR", "--var", var)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and words in err, err


def test_var_refuses_a_name_bound_twice(capsys: pytest.CaptureFixture[str]) -> None:
    """As the library refuses a name bound twice (names ignore case): STR=1 and str=2 is a mistake, not 2."""
    code, _out, err = run(capsys, "roll", "d20+STR", "--var", "STR=1", "--var", "str=2")
    assert code == 2 and "STR twice" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "roll", "d20+STR", "--var", "STR=+2", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["variables"] == {"STR": 2}


@pytest.mark.rule("F-BASE-03")
def test_odds_d20_plus_3_dc_15(capsys: pytest.CaptureFixture[str]) -> None:
    """F-BASE-03 / AMB-06: meet or beat the DC; P(d20+3 ≥ 15) is exactly 9/20."""
    code, out, _ = run(capsys, "odds", "d20+3", "--dc", "15")
    assert code == 0 and "P(d20+3 ≥ 15) = 9/20" in out and "█" in out
    code, out, _ = run(capsys, "odds", "d20+3", "--dc", "15", "--json")
    assert json.loads(out)["p_at_least_dc"] == "9/20"


@pytest.mark.rule("F-CRIT-02", "F-TAB-30", "F-TAB-31")
def test_table_roll_crit_fighter_level_7(capsys: pytest.CaptureFixture[str]) -> None:
    """F-CRIT-02, F-TAB-30, F-TAB-31: a level-7 fighter's crit rolls d20+4 and shows die and row."""
    code, out, _ = run(capsys, "table", "roll", "crit-fighter", "--level", "7", "--seed", "1")
    assert code == 0 and "d20+4" in out and "level 7" in out and "→" in out
    code, out, _ = run(capsys, "table", "roll", "crit-fighter", "--level", "7", "--seed", "1", "--json")
    data = json.loads(out)
    assert data["table"] == "F-TAB-31" and data["roll"]["expression"] == "d20+4"
    assert 5 <= data["roll"]["total"] <= 24


@pytest.mark.rule("F-FUMB-02", "F-TAB-35")
def test_table_roll_fumble_by_armor(capsys: pytest.CaptureFixture[str]) -> None:
    """F-FUMB-02, F-TAB-35: heavy armour fumbles on d12."""
    code, out, _ = run(capsys, "table", "roll", "fumble", "--armor", "heavy", "--seed", "2", "--json")
    assert code == 0 and json.loads(out)["roll"]["expression"] == "d12"


@pytest.mark.rule("M-GRIEV-01")
def test_table_roll_with_die_and_variables(capsys: pytest.CaptureFixture[str]) -> None:
    """M-GRIEV-01: grievous injury is 3d6 + the excess damage."""
    code, out, _ = run(capsys, "table", "roll", "grievous-injury", "--var", "EXCESS=30", "--seed", "1")
    assert code == 0 and "3d6+EXCESS" in out
    code, out, _ = run(capsys, "table", "roll", "injuries", "--die", "20", "--json")
    assert json.loads(out)["row"]["min"] == 20


@pytest.mark.rule("F-TAB-36")
def test_table_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "list", "--json")
    assert code == 0 and len([t for t in json.loads(out) if not t["id"].startswith("X-")]) == 58
    code, out, _ = run(capsys, "table", "show", "F-TAB-36")
    assert code == 0 and "Fumble" in out
    code, out, _ = run(capsys, "table", "show", "fumble", "--json")
    assert json.loads(out)["id"] == "F-TAB-36"


@pytest.mark.rule("F-TAB-36", "F-TAB-35", "F-FUMB-01", "F-FUMB-02")
def test_table_and_spell_show_name_rule_ids_only_under_explain(capsys: pytest.CaptureFixture[str]) -> None:
    # F-TAB-36: the fumble table, its die from the fumble-die table (F-TAB-35), a REF-22 note among its notes
    from furnace.rules.ids import RULE_ID

    code, out, _ = run(capsys, "table", "show", "fumble")
    assert code == 0 and "Fumble table (fumble; die by armor from fumble-die)" in out
    assert "what a damaged weapon (row 4) does" in out and not re.search(RULE_ID, out)
    code, out, _ = run(capsys, "table", "show", "fumble", "--explain")
    assert "F-TAB-36 · Fumble table" in out and "REF-22: what a damaged weapon" in out
    assert "rules: F-FUMB-01, F-FUMB-02" in out
    code, out, _ = run(capsys, "spell", "show", "Chill Touch")
    assert code == 0 and "1d8 cold DAM" in out and not re.search(RULE_ID, out)


@pytest.mark.rule("F-DEATH-02")
def test_rules_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    """F-DEATH-02 / CF-30: the death model is an option the profiles set."""
    code, out, _ = run(capsys, "rules", "show", "death_model", "--profile", "middle-sea", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "middle-sea" and data["source"] == "profile middle-sea"
    code, out, _ = run(capsys, "rules", "list", "--json")
    assert json.loads(out)["options"]["death_model"]["value"] == "furnace"
    code, out, _ = run(capsys, "rules", "list", "--profile", "hazards")
    assert code == 0 and "death_model" in out


@pytest.mark.rule("F-ABIL-01")
def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """F-ABIL-01: the demo rolls 0-level characters with 3d6 in order and 1d4 HP."""
    code, out, _ = run(capsys, "demo", "--seed", "1")
    assert code == 0 and "STR" in out and "sample ATK" in out


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        found.append((prefix + name, command))
        if isinstance(command, click.Group):
            found += _commands(command, prefix + name + " ")
    return found


@pytest.mark.parametrize(("name", "command"), _commands(cli))
def test_every_command_help_has_an_example(name: str, command: click.Command) -> None:
    assert "Example: furnace" in (command.help or ""), name
