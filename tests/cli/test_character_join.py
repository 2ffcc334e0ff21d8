"""`furnace character new … --join PLAYER`: the new character joins the campaign in use with her player, made by
the campaign's rules and logged as one command (the console's "Make and join" runs the same campaign command,
`campaign.roster.new_member`; tests/web/test_session_routes.py compares the two)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Run

NEW = ("character", "new", "--class", "Fighter", "--level", "2", "--random", "--seed", "4")


def test_a_new_character_joins_the_campaign_with_her_player(furnace: Run, tmp_path: Path) -> None:
    assert furnace("campaign", "new", "keep")[0] == 0 and furnace("campaign", "use", "keep")[0] == 0
    code, out, err = furnace(*NEW, "--name", "Hrolf", "--join", "Cy", "--json")
    assert code == 0, err
    told = json.loads(out)["events"]
    assert told[-1]["kind"] == "join" and told[-1]["data"]["player"] == "Cy"
    assert "picked at random" in err                    # what the dice chose, said beside the JSON
    code, out, _ = furnace("character", "list", "--json")
    listed = json.loads(out)
    members = listed if isinstance(listed, list) else listed.get("members", listed.get("roster", []))
    hrolf = next(m for m in members if m["name"] == "Hrolf")
    assert (hrolf["player"], hrolf["level"], hrolf["class"]) == ("Cy", 2, "Fighter")


def test_a_joining_character_is_made_by_the_campaigns_rules_not_a_profile(furnace: Run) -> None:
    assert furnace("campaign", "new", "keep")[0] == 0 and furnace("campaign", "use", "keep")[0] == 0
    code, _, err = furnace(*NEW, "--join", "Cy", "--profile", "hazards")
    assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1
    code, _, _ = furnace(*NEW, "--join", "Cy", "--name", "x" * 200)
    assert code == 2
