"""`furnace shell`: commands one per line in one process, with the global options of the shell for each; a
mistake is its one `error:` line and the evening goes on; completion of commands, sub-commands and names."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from furnace.cli.shell import completions
from furnace.rules.ruleset import load_ruleset  # noqa: F401  (warm: the shell's point is one process)
from tests.cli.conftest import Run

ROOT = Path(__file__).resolve().parents[2]
BRAKKA = str(ROOT / "examples" / "characters" / "brakka.json")


def fed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


@pytest.mark.rule("H-DMG-01")
def test_an_evening_of_commands_on_standard_input(furnace: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Damage, a heal and the clock through the shell: each line echoed after the prompt, then its output;
    Brakka 22 → 19 → 22 (hazards: damage comes off current HP), the clock 10 minutes on."""
    assert furnace("campaign", "new", "keep", "--profile", "hazards")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", BRAKKA)[0] == 0
    fed(monkeypatch, "# the evening", "", "damage Brakka 3 --source 'a falling stone'", "furnace heal Brakka 3",
        "clock advance 1 turn", "exit", "damage Brakka 50")
    code, out, err = furnace("--campaign", "keep", "shell")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "furnace> damage Brakka 3 --source 'a falling stone'"
    assert "takes 3 from a falling stone: HP 22 → 19" in lines[1]
    assert lines[2] == "furnace> furnace heal Brakka 3" and "HP 19 → 22" in lines[3]
    assert "now day 1, 00:10" in lines[5] and len(lines) == 6          # nothing after `exit`


def test_a_mistake_is_one_line_and_the_shell_goes_on(furnace: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    assert furnace("campaign", "new", "keep")[0] == 0
    assert furnace("--campaign", "keep", "campaign", "join", BRAKKA)[0] == 0
    fed(monkeypatch, "damage Nobody 3", "roll 'unclosed", "shell", "heal Brakka 1")
    code, out, err = furnace("--campaign", "keep", "shell")
    assert code == 2                                       # the last failing command's exit code
    assert err.count("error: ") == 1 and "Nobody" in err   # the command's own error line
    assert "error: the line" in out and "error: shell does not run inside the shell" in out
    assert "heals 0 from the referee" in out or "HP 22 → 22" in out


def test_completion_of_commands_sub_commands_and_names() -> None:
    names = ["Brakka", "Wren", "brak1", "wren1"]
    assert completions("", "enc", names) == ["encounter"]
    assert "answer" in completions("encounter ", "", names) and completions("encounter st", "st", names) == [
        "standing", "start", "status"]
    assert completions("damage ", "Br", names) == ["Brakka"]
    assert completions("damage Brakka ", "", names) == names
