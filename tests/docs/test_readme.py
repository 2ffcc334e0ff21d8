"""Every command the README shows runs as written (the two set-up commands at its top excepted: they are
what CI itself runs). The blocks run in order, in a temporary folder holding a copy of `examples/`, on a
temporary campaign database, so a later line can use what an earlier one made (`> hero.json`)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from furnace.cli import main

ROOT = Path(__file__).resolve().parents[2]
SETUP = ("make run", "make test")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith(SETUP):
                lines.append(command)
    return lines


def run(command: str) -> tuple[int, str]:
    words = shlex.split(command)
    assert words[0] == "furnace", f"the README shows a command that is not furnace: {command}"
    out_file = None
    if ">" in words:
        at = words.index(">")
        words, out_file = words[:at], words[at + 1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(words[1:])
    if out_file:
        Path(out_file).write_text(out.getvalue(), encoding="utf-8")
    return code, out.getvalue()


def test_every_readme_command_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FURNACE_DATABASE_URL", f"sqlite:///{tmp_path / 'readme.db'}")
    failed = []
    for command in readme_commands():
        code, _ = run(command)
        if code != 0:
            failed.append(f"exit {code}: {command}")
    assert not failed, "\n".join(failed)


def test_the_seeded_roll_prints_what_the_readme_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("furnace roll 4d6kh3 --seed 7")[1].strip() == "4d6kh3 → [2, 1, 4, ~~1~~] = 7"
