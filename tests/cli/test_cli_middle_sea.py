"""The Middle Sea commands of the CLI (`furnace.cli.middle_sea`), run in-process.

RULES.md M-GRIEV-01..09 (`grievous`), M-WPN-01..08 (`weapon-mishap`), M-ARM-01..05 (`armor-hit`), M-COIN-01
(`coins`). Importing the module registers its commands on the `furnace` group.
"""

from __future__ import annotations

import json

import pytest

import furnace.cli.middle_sea  # noqa: F401  (registers the commands)
from furnace.cli.app import cli, main

COMMANDS = ("grievous", "weapon-mishap", "armor-hit", "coins")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", COMMANDS)
def test_middle_sea_commands_have_an_example(name: str) -> None:
    """Every command's help has an `Example:` line, and --json and --seed where it rolls."""
    command = cli.commands[name]
    assert "Example: furnace " + name in (command.help or "")
    params = {p.name for p in command.params}
    assert "as_json" in params and (name == "coins" or "seed" in params)


@pytest.mark.rule("M-GRIEV-01")
def test_M_GRIEV_01_grievous_command_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """M-GRIEV-01: `grievous --excess 1 --seed 0` prints the band and its dice; the same seed prints the same."""
    first = run(capsys, "grievous", "--excess", "1", "--seed", "0")
    assert first == run(capsys, "grievous", "--excess", "1", "--seed", "0")
    code, out, err = first
    assert code == 0 and err == "" and out.startswith("grievous injury ") and "3d6+EXCESS" in out


@pytest.mark.rule("M-GRIEV-09")
def test_M_GRIEV_09_grievous_json_instant_death(capsys: pytest.CaptureFixture[str]) -> None:
    """M-GRIEV-09: an excess of 18 always reaches 21+: the JSON says instant_death and the character is dead."""
    code, out, _ = run(capsys, "grievous", "--excess", "18", "--seed", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["band"] == "instant_death" and data["dead"] and data["total"] >= 21
    assert {"location", "location_roll", "heal_weeks", "timers", "events", "effects"} <= set(data)


@pytest.mark.rule("M-GRIEV-06")
def test_M_GRIEV_06_grievous_json_reports_location_and_weeks(capsys: pytest.CaptureFixture[str]) -> None:
    """M-GRIEV-06/08: whenever a bone or limb comes up, the JSON has its location roll (and a bone its weeks)."""
    for seed in range(40):
        data = json.loads(run(capsys, "grievous", "--excess", "12", "--seed", str(seed), "--json")[1])
        if data["band"] == "broken_bone" and data["location"] != "Skull":
            assert 1 <= data["location_roll"] <= 10 and 11 <= data["heal_weeks"] <= 17
        if data["band"] == "severed_limb":
            assert 1 <= data["location_roll"] <= 12


@pytest.mark.rule("M-GRIEV-01")
def test_M_GRIEV_01_grievous_refuses_no_excess(capsys: pytest.CaptureFixture[str]) -> None:
    """M-GRIEV-01, D-4: an excess of 0 is not a grievous roll: one error line, exit code 2."""
    code, out, err = run(capsys, "grievous", "--excess", "0")
    assert code == 2 and out == "" and err.startswith("error: ") and "D-4" in err


@pytest.mark.rule("M-WPN-07", "M-WPN-02")
def test_M_WPN_07_weapon_mishap_magic_holds(capsys: pytest.CaptureFixture[str]) -> None:
    """M-WPN-02/07: a +20 blade always saves; the JSON gives the outcome and the weapon."""
    code, out, _ = run(capsys, "weapon-mishap", "--class", "sharp", "--magic", "20", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] == "held" and data["save"]["saved"] and data["weapon"]["notches"] == 0


@pytest.mark.rule("M-WPN-04")
def test_M_WPN_04_weapon_mishap_dry_string_natural_2(capsys: pytest.CaptureFixture[str]) -> None:
    """M-WPN-04: a natural 2 harms only a wet string."""
    code, out, _ = run(capsys, "weapon-mishap", "--class", "strung", "--natural", "2", "--seed", "1")
    assert code == 0 and out.startswith("strung: none")
    code, out, _ = run(capsys, "weapon-mishap", "--class", "strung", "--natural", "2", "--wet", "--seed", "1")
    assert code == 0 and "thin rope saves vs crushing blow" in out


@pytest.mark.rule("M-ARM-03", "M-ARM-02")
def test_M_ARM_03_armor_hit_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    """M-ARM-02/03/04: a +30 armor always saves; a helmet either holds or is destroyed."""
    code, out, _ = run(capsys, "armor-hit", "--piece", "armor", "--attack", "melee", "--magic", "30", "--seed", "2")
    assert code == 0 and out.startswith("armor vs melee: saved")
    code, out, _ = run(capsys, "armor-hit", "--piece", "helmet", "--attack", "missile", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["result"] in ("saved", "destroyed") and data["save"]["form"] == "normal_blow"
    code, _, err = run(capsys, "armor-hit", "--piece", "armor", "--attack", "melee", "--armor", "mithril")
    assert code == 2 and "unknown armor" in err


@pytest.mark.rule("M-COIN-01")
def test_M_COIN_01_coins_command(capsys: pytest.CaptureFixture[str]) -> None:
    """M-COIN-01, CF-44: 1000 coins weigh 10 lb = 100 gpe = 1 load."""
    code, out, _ = run(capsys, "coins", "1000", "--json")
    assert code == 0 and json.loads(out) == {"coins": 1000, "gems": 0, "pounds": 10.0, "gpe": 100.0, "load": 1.0}
    code, out, _ = run(capsys, "coins", "150", "--gems", "50")
    assert code == 0 and out.startswith("150 coins and 50 gems weigh 2 lb = 20 gpe")
