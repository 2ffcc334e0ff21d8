"""Standing answers in simulation: `--policy` per side, printed with the results, and what a policy changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import Run

EXAMPLES = Path(__file__).parents[2] / "examples" / "characters"
FIGHT = """name: A long bleed
room_dc: 12
initiative: group
party:
  - {file: brakka.json, zone: NEAR}
  - {file: wren.json, zone: NEAR}
  - {file: ilse.json, zone: NEAR}
  - {file: maelis.json, zone: NEAR}
monsters:
  - {name: Gnoll, count: 3, hp: 2d8+4, damage: 1d6+3, weapon: flail, zone: NEAR}
"""


def _fight(folder: Path) -> str:
    """The 3rd-level party, each holding 3 Luck Dice, against three gnolls that drop them often (and lose)."""
    for name in ("brakka", "wren", "ilse", "maelis"):
        data = {**json.loads((EXAMPLES / f"{name}.json").read_text()), "luck_dice": 3}
        (folder / f"{name}.json").write_text(json.dumps(data))
    (folder / "fight.yaml").write_text(FIGHT)
    return str(folder / "fight.yaml")


def _deaths(furnace: Run, fight: str, policy: str) -> dict[str, object]:
    code, out, err = furnace("simulate", fight, "--fights", "400", "--seed", "1", "--option",
                             "luck_die_effect=reroll", "--policy", f"party={policy}", "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.slow  # a large simulation: the whole run only
@pytest.mark.rule("F-LUCK-03", "F-DEATH-01")
def test_F_LUCK_03_luck_spent_on_failed_dying_rolls_lowers_the_chance_of_death(furnace: Run, tmp_path: Path) -> None:
    """On the same 400 seeds, a party that rerolls its failed dying d20s with Luck Dice (luck_die_effect reroll:
    a new d20 may be the natural 20 that gets her up, F-DEATH-01) dies less often than one that never spends."""
    fight = _fight(tmp_path)
    never, dying = _deaths(furnace, fight, "never"), _deaths(furnace, fight, "dying")
    assert never["luck_dice_spent_per_fight"] == 0 and dying["luck_dice_spent_per_fight"] > 1   # type: ignore[operator]
    assert never["fight_seeds"] == dying["fight_seeds"] and dying["policies"] == {"party": "dying"}
    p_never = sum(never["p_dies"].values()) / 4  # type: ignore[attr-defined]
    p_dying = sum(dying["p_dies"].values()) / 4  # type: ignore[attr-defined]
    assert p_dying < p_never                     # measured: 0.299 against 0.310


def test_the_policies_are_printed_with_the_results(furnace: Run, tmp_path: Path) -> None:
    fight = _fight(tmp_path)
    code, out, _ = furnace("simulate", fight, "--fights", "5", "--seed", "1", "--policy", "party=never")
    assert code == 0 and ("Standing answers: party: never (never spends Luck, never sunders, never rages, never "
                          "cleaves, uses no once-a-fight power); "
                          "anyone else: keen") in out
    code, out, _ = furnace("fight", fight, "--seed", "1", "--policy", "sunder")
    assert code == 0 and "Standing answers: everyone: sunder" in out
    code, _, err = furnace("simulate", fight, "--fights", "5", "--policy", "party=reckless")
    assert code == 2 and err.startswith("error: unknown policy 'reckless'")
