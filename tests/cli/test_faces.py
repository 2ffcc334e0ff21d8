"""`--faces` on every command that rolls (issue 12, "Real dice"): the faces rolled at the table are checked against
the dice the command rolls — too few is refused naming the next die, too many is refused with the count the
command needed, a face its die cannot show is refused naming the die — and the rules apply to them as to rolled
ones. On a campaign, refused faces change nothing and accepted ones are logged as entered.

Each command below took only `--seed` before; the test finds how many dice it rolls (all 1s: a face every die
can show, so the count is the command's), then runs it with exactly that many, one fewer, and a face too big.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from furnace.campaign.store import Store
from furnace.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
MAELIS = "examples/characters/maelis.json"

ROLLING = [
    ["roll", "2d6+1"], ["table", "roll", "fumble", "--armor", "light"], ["crit", "--class", "Rogue", "--level", "3"],
    ["fumble", "--armor", "none"], ["check", "STR=2", "--dc", "12"], ["reaction", "--cha", "1"],
    ["morale", "--room-dc", "12"], ["spellcheck", "--mod", "3", "--prof", "2", "--spell", "Fireball"],
    ["spell", "cast", "Fireball", "--caster", MAELIS], ["spell", "new"],
    ["fight", "examples/party-vs-ogre.yaml", "--rounds", "1"], ["grievous", "--excess", "2"],
    ["weapon-mishap", "--class", "sharp"], ["armor-hit", "--attack", "melee", "--piece", "armor"],
    ["travel", "--days", "2"],
    ["fall", "30"], ["disease", "Green River Fever", "--days", "20"],
    ["language", "--int", "1", "--kind", "local"], ["age", "--race", "Human", "--from", "38", "--to", "45"],
    ["funnel", "--players", "1", "--per-player", "1"], ["character", "new", "--class", "Fighter", "--random"],
    ["character", "promote", "examples/characters/hob.json", "--class", "Fighter", "--archetype", "Barbarian",
     "--skill", "Athletics", "--save", "DEX", "--style", "Defense", "--kit", "shield", "--kit", "martial ranged",
     "--kit", "leather", "--swap", "none", "--no-write"],
    ["character", "level-up", "examples/characters/brakka.json", "--ability", "STR", "--no-write"],
    ["demo", "--count", "1"],
]


def furnace(*args: str) -> tuple[int, str, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATABASE_URL", f"sqlite:///{tmp_path / 'campaigns.db'}")
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    yield tmp_path


def dice_needed(args: list[str]) -> int:
    """How many dice the command rolls when every face is a 1 (from its refusal of 500 ones)."""
    code, _, err = furnace(*args, "--faces", ",".join(["1"] * 500))
    m = re.search(r"the command needed (\d+) face\(s\)", err)
    assert code == 2 and m, (args, err)
    return int(m[1])


@pytest.mark.parametrize("args", ROLLING, ids=lambda a: " ".join(a[:2]))
def test_every_rolling_command_takes_faces_checked_by_count_and_range(here: Path, args: list[str]) -> None:
    needed = dice_needed(args)
    assert needed >= 1
    code, _, err = furnace(*args, "--faces", ",".join(["1"] * needed))
    assert code == 0 and err == "", err
    if needed > 1:
        code, _, err = furnace(*args, "--faces", ",".join(["1"] * (needed - 1)))
        assert code == 2 and f"needs more than the {needed - 1} face(s) entered" in err, err
    code, _, err = furnace(*args, "--faces", ",".join(["10001"] + ["1"] * (needed - 1)))
    assert code == 2 and err.startswith("error: the 1st face entered, 10001,"), err
    code, _, err = furnace(*args, "--faces", "1", "--seed", "3")
    assert code == 2 and "give one" in err


def test_F_CHECK_the_rules_apply_to_entered_faces(here: Path) -> None:
    """A CHECK with the face 9 entered: 9 + STR 2 = 11 against DC 12 fails (meet or beat); 10 + 2 succeeds."""
    assert furnace("check", "STR=2", "--dc", "12", "--faces", "9", "--json")[1].count('"success": false') == 1
    assert json.loads(furnace("check", "STR=2", "--dc", "12", "--faces", "10", "--json")[1])["success"] is True
    code, out, _ = furnace("roll", "2d6+1", "--faces", "6,5")
    assert code == 0 and out.strip() == "2d6+1 → [6, 5] + 1 = 12"
    code, _, err = furnace("roll", "2d6+1", "--faces", "6,7")
    assert code == 2 and err == "error: the 2nd face entered, 7, cannot come up on the d6 the command rolls there " \
                                "(1 to 6)\n"


def _count(db: Path) -> int:
    store = Store(f"sqlite:///{db}")
    try:
        return store.count("keep")
    finally:
        store.close()


CAMPAIGN = [
    ["fight", "--party", "all", "--monsters", "goblin", "--rounds", "1"],
    ["encounter", "start", "--monsters", "goblin"],
    ["encounter", "next"],
]


def test_campaign_commands_take_faces_refused_ones_change_nothing(here: Path) -> None:
    """The funnel, a fight of the campaign and an encounter's steps: refused faces leave the log as it was;
    accepted ones are logged as entered (the `--json` log marks their events `entered: true`)."""
    db = here / "campaigns.db"
    assert furnace("campaign", "new", "keep")[0] == 0
    base = ["--campaign", "keep"]
    for args in (["funnel", "--players", "2", "--per-player", "2"], *CAMPAIGN):
        before = _count(db)
        code, _, err = furnace(*base, *args, "--faces", ",".join(["1"] * 999))
        assert code == 2 and "left over; nothing was changed" in err, (args, err)
        assert _count(db) == before
        needed = int(re.search(r"needed (\d+) face", err)[1])            # type: ignore[index]
        if needed == 0:                 # `encounter next` with a player character due: nothing to roll
            continue
        code, out, err = furnace(*base, *args, "--faces", ",".join(["1"] * needed))
        assert code == 0, (args, err)
        logged = json.loads(furnace(*base, "campaign", "log", "--json", "--since", str(before))[1])
        assert logged and any(e["data"].get("entered") for e in logged), args
        assert "(faces entered)" in furnace(*base, "campaign", "log", "--since", str(before))[1]
    code, out, err = furnace(*base, "encounter", "status", "--json")
    due = json.loads(out)["encounter"]["due"]
    act = ["encounter", "act", due, "attack", "goblin"]
    before = _count(db)
    code, _, err = furnace(*base, *act, "--faces", ",".join(["1"] * 999))
    assert code == 2 and _count(db) == before and "left over" in err, err
    needed = int(re.search(r"needed (\d+) face", err)[1])                 # type: ignore[index]
    code, out, err = furnace(*base, *act, "--faces", ",".join(["1"] * needed))
    assert code == 0 and "(faces entered)" in out and _count(db) > before, err
