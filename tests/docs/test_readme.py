"""Every command the README shows runs as written (the two set-up commands at its top excepted: CI itself runs
`make test`, and `test_make_run_starts_the_console` starts and stops `make run`). The blocks run in order, in a
temporary folder holding a copy of `examples/`, on a temporary campaign database, so a later line can use what
an earlier one made (`> hero.json`). A ```text block right after a ```sh block is the output of that block's
last command, compared line by line; `furnace serve` (which does not end) is started, asked for its page, and
stopped."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from furnace.cli import main

ROOT = Path(__file__).resolve().parents[2]
SETUP = ("make run", "make test")
BLOCK = re.compile(r"```(sh|text)\n(.*?)```", re.S)


@dataclass(frozen=True)
class Command:
    line: str
    expected: str | None = None     # the output the README shows for it, if any


def readme_commands() -> list[Command]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands: list[Command] = []
    for kind, body in BLOCK.findall(text):
        if kind == "text":
            if commands and commands[-1].expected is None:
                commands[-1] = Command(commands[-1].line, body)
            continue
        for line in body.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith(SETUP):
                commands.append(Command(command))
    return commands


def run(command: str) -> tuple[int, str]:
    words = shlex.split(command)
    settings = {}
    while words and "=" in words[0] and words[0].split("=")[0].isupper():     # `FURNACE_PURE=1 furnace …`
        name, _, value = words.pop(0).partition("=")
        settings[name] = value
    assert words[0] == "furnace", f"the README shows a command that is not furnace: {command}"
    if settings:        # what the environment changes as the process starts (its imports): a process of its own
        furnace = str(Path(sys.executable).with_name("furnace"))
        done = subprocess.run([furnace, *words[1:]], capture_output=True, text=True, env={**os.environ, **settings})
        return done.returncode, done.stdout
    out_file = in_file = None
    if ">" in words:
        at = words.index(">")
        words, out_file = words[:at], words[at + 1]
    if "<" in words:                   # `furnace shell < FILE`: the file on standard input
        at = words.index("<")
        words, in_file = words[:at], words[at + 1]
    out = io.StringIO()
    fed = io.StringIO(Path(in_file).read_text(encoding="utf-8")) if in_file else io.StringIO("")
    saved, sys.stdin = sys.stdin, fed
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(words[1:])
    finally:
        sys.stdin = saved
    if out_file:
        Path(out_file).write_text(out.getvalue(), encoding="utf-8")
    return code, out.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_and_stop(argv: list[str], port: int, env: dict[str, str] | None = None, timeout: float = 180) -> str:
    """Start a server command, wait for its sign-in link and its first page, stop it; what it printed."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)
    printed = ""
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        while "signin?token=" not in printed and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            printed += line
        assert "signin?token=" in printed, printed
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
                    assert page.status == 200
                    return printed
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"nothing answered on port {port}:\n{printed}")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)


def run_server(command: str, tmp_path: Path) -> int:
    words = shlex.split(command)
    port = free_port()
    if "--port" in words:
        words[words.index("--port") + 1] = str(port)
    else:
        words += ["--port", str(port)]
    words = [w if w != "0.0.0.0" else "127.0.0.1" for w in words]  # the test listens on loopback only
    furnace = str(Path(sys.executable).with_name("furnace"))
    serve_and_stop([furnace, "--db", str(tmp_path / "serve.db"), *words[1:]], port)
    return 0


@pytest.mark.slow  # every README command in order, a console started: the whole run only
def test_every_readme_command_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FURNACE_DATABASE_URL", f"sqlite:///{tmp_path / 'readme.db'}")
    failed = []
    for command in readme_commands():
        if command.line.startswith("furnace serve") and "--check" not in command.line:
            run_server(command.line, tmp_path)
            continue
        code, out = run(command.line)
        if code != 0:
            failed.append(f"exit {code}: {command.line}")
        elif command.expected is not None and _lines(out) != _lines(command.expected):
            failed.append(f"{command.line} printed:\n{out}\nthe README shows:\n{command.expected}")
    assert not failed, "\n".join(failed)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_readme_shows_outputs_and_a_server() -> None:
    """The convention is in use: some outputs are compared, and the console's command is there."""
    commands = readme_commands()
    assert sum(c.expected is not None for c in commands) >= 4
    assert any(c.line.startswith("furnace serve") and "--check" not in c.line for c in commands)


def test_make_run_starts_the_console(tmp_path: Path) -> None:
    """The README's first set-up command: `make run` serves the table console on the embedded SQLite default
    (a demo campaign made on the first start) until it is stopped."""
    if shutil.which("make") is None or not (ROOT / ".venv" / ".installed").exists():
        pytest.skip("make run needs make and the project's .venv (make test made both)")
    port = free_port()
    env = {**os.environ, "FURNACE_DATA_DIR": str(tmp_path / "data"), "FURNACE_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("FURNACE_DATABASE_URL", None)
    printed = serve_and_stop(["make", "-s", "-C", str(ROOT), "run", f"PORT={port}"], port, env)
    assert "made the demo campaign" in printed
    assert (tmp_path / "data").exists()
