"""Every command's help has an `Example: furnace …` line, and every example works as written.

The click tree of `furnace.cli.app.cli` is walked (the lazy groups load their modules) and each example runs
in-process in a prepared world: a tmp folder holding a copy of examples/ (the working folder), a tmp SQLite
database through FURNACE_DATABASE_URL, the campaign `keep` made and chosen (with the hazards chapter's light,
disease, travel, poison, sleep, mapping and starvation options on, the surprise roll and Liquid Courage), every
example character joined
and a funnel of two players (Ann and Bo) run,
so that examples naming Brakka, Agna, keep, ann1, goblin-2 … have something to work on. An example that needs
a state first (a fight in progress, a file to read) runs after the steps of PRECONDITIONS. A shell example
`a && b` runs both commands; `… > FILE` writes the command's output to FILE, `… < FILE` feeds FILE
on its input. Each command must exit 0.
No command starts a server or runs forever today; such an example would be listed in SKIPPED with the reason.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import click
import pytest

from furnace.characters.character import Character
from furnace.cli import cli, main

ROOT = Path(__file__).resolve().parents[2]
Step = str | Callable[[Path], None]
EXAMPLE = re.compile(r"^Example: (furnace .*(?:\n(?!Example:)\S.*)*)", re.M)


def walk(group: click.Group, ctx: click.Context, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    """Every command and group under `group`, by its full name (`campaign override add`)."""
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, f"{' '.join((*path, name))} is listed but cannot be loaded"
        yield " ".join((*path, name)), cmd
        if isinstance(cmd, click.Group):
            yield from walk(cmd, click.Context(cmd, info_name=name, parent=ctx), (*path, name))


def examples_of(cmd: click.Command) -> list[str]:
    """The help's `Example:` lines, a line continued on the next (indented) lines joined to it."""
    return [" ".join(found.split()) for found in EXAMPLE.findall(inspect.cleandoc(cmd.help or ""))]


COMMANDS = dict(walk(cli, click.Context(cli, info_name="furnace")))
EXAMPLES = [(name, example) for name, cmd in COMMANDS.items() for example in examples_of(cmd)]


def _packaged_fumbles(folder: Path) -> None:
    """A referee's own fumble table: a copy of the packaged F-TAB-36 (the way the help says to start one)."""
    (folder / "my-fumbles.yaml").write_text((files("furnace") / "data/tables/F-TAB-36.yaml").read_text("utf-8"),
                                            encoding="utf-8")


def _worn_brakka(folder: Path) -> None:
    """Brakka with 2 points of her armor's protection lost and 40 coins, for a repair (REF-22)."""
    brakka = Character.from_file(folder / "examples" / "characters" / "brakka.json")
    worn = brakka.model_copy(update={"armor_damage": 2, "extensions": {"gear": {"coins": 40}}})
    (folder / "worn-brakka.json").write_text(worn.to_json(), encoding="utf-8")


def _a_phone_signed_in(folder: Path) -> None:
    """Ann's phone signed in to the console of the world's database: session 1, for `furnace signout 1`."""
    from furnace.campaign.access import new_session
    from furnace.campaign.store import Store

    store = Store(f"sqlite:///{folder / 'campaigns.db'}")
    try:
        assert new_session(store, "player", "keep", "Ann")[1].id == 1
    finally:
        store.close()


WORLD: tuple[str, ...] = (
    "furnace campaign new keep --option hazards_light=true --option hazards_disease=true "
    "--option hazards_travel=true --option hazards_poison_drugs=true --option hazards_sleep=true "
    "--option hazards_mapping=true --option surprise_roll=true --option hazards_starvation=true "
    "--option liquid_courage=true",
    "furnace campaign use keep",
    # `campaign join examples/characters/*.json`, the shell's glob spelled out (sorted, as a shell would)
    "furnace campaign join " + " ".join(f"examples/characters/{p.name}"
                                        for p in sorted((ROOT / "examples" / "characters").glob("*.json"))),
    "furnace funnel --player Ann --player Bo --seed 1",
)
FIGHT: tuple[Step, ...] = ('furnace encounter start --party brak1 --monsters "goblin x4" --seed 3',)   # Brakka is due
CLOCK: tuple[Step, ...] = ("furnace clock light Agna torch", "furnace clock light Brakka torch",      # entries #1, #2
                           'furnace clock timer "the ceiling gives way" --in 1d4 turns')              # entry #3
HERO: tuple[Step, ...] = ("furnace character new --class Fighter --level 3 --random --seed 2 --json > hero.json",)
PRECONDITIONS: dict[str, tuple[Step, ...]] = {
    "furnace campaign delete old-test --yes": ("furnace campaign new old-test",),
    "furnace campaign import keep.json --as keep-copy": ("furnace campaign export keep --out keep.json",),
    "furnace campaign new keep --profile middle-sea --option enemy_morale=true": (
        "furnace campaign delete keep --yes",),
    "furnace campaign override add my-fumbles.yaml --kind table": (_packaged_fumbles,),
    "furnace campaign override remove table:F-TAB-36": (
        _packaged_fumbles, "furnace campaign override add my-fumbles.yaml --kind table"),
    "furnace --db new.db campaign restore furnace-backup.db": ("furnace campaign backup furnace-backup.db",),
    "furnace character level-up hero.json --ability STR --seed 5": HERO,
    "furnace character show hero.json --markdown --html hero.html": HERO,
    "furnace clock cancel 3": CLOCK,
    "furnace clock edit 3 --in 2 turns": CLOCK,
    "furnace clock snuff 2": CLOCK,
    'furnace clock cure Agna "Green River Fever"': ('furnace clock infect Agna "Green River Fever"',),
    "furnace encounter act brak1 attack goblin-2 --seed 5": FIGHT,
    "furnace encounter actions brak1": FIGHT,
    "furnace encounter end --seed 2": FIGHT,
    "furnace encounter edit hp goblin-1 2": FIGHT,
    'furnace encounter edit add --monsters "goblin x2" --seed 4': FIGHT,
    "furnace encounter edit condition goblin-1 PRONE --rounds 1": FIGHT,
    "furnace encounter edit delay brak1": (     # Brakka is due, Wren after her
        'furnace encounter start --party brak1,wren1 --monsters "goblin x4" --seed 3',),
    "furnace encounter edit hp brak1 5": FIGHT,
    "furnace encounter edit remove goblin-2": FIGHT,
    'furnace stabilise Brakka --by "Sister Ilse" --seed 7': ("furnace damage Brakka 24 --seed 1",),   # dying at -2
    "furnace encounter answer q1 --rage": (*FIGHT, "furnace encounter act brak1 attack goblin-2 --seed 5"),
    "furnace encounter standing --policy Ann=dying --quiet sunder": FIGHT,
    "furnace encounter next --seed 4": FIGHT,
    "furnace encounter status": FIGHT,
    "furnace repair Brakka armor --days 2 --cost 15 --yes": (
        _worn_brakka, "furnace campaign new forge", "furnace campaign use forge",
        "furnace campaign join worn-brakka.json"),
    "furnace signout 1": (_a_phone_signed_in,),
    "furnace take Agna torch": ("furnace give Agna torch",),
    "furnace equip Brakka helmet": ("furnace give Brakka helmet",),
}
SKIPPED: dict[str, str] = {}   # example → why it cannot run in a test (a server, a command that never ends)


@contextlib.contextmanager
def _stdin(stream: Any) -> Iterator[None]:
    saved, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = saved


def run_line(line: str) -> None:
    """Run a shell line of `furnace` commands in-process: `a && b` runs both, `… > FILE` writes the output,
    `… < FILE` feeds the file on standard input."""
    words = shlex.split(line)
    commands: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            commands.append([])
        else:
            commands[-1].append(word)
    for command in commands:
        target = source = None
        if ">" in command:
            at = command.index(">")
            command, target = command[:at], command[at + 1]
        if "<" in command:
            at = command.index("<")
            command, source = command[:at], command[at + 1]
        assert command[0] == "furnace", f"{line!r}: not a furnace command"
        out, err = io.StringIO(), io.StringIO()
        fed = io.StringIO(Path(source).read_text(encoding="utf-8")) if source else sys.stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _stdin(fed):
            code = main(command[1:])
        assert code == 0, f"{shlex.join(command)!r} exits {code}: {err.getvalue()}{out.getvalue()[-2000:]}"
        if target is not None:
            Path(target).write_text(out.getvalue(), encoding="utf-8")


def enter(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in `folder`: its database, its user folders (the campaign chosen), its files."""
    monkeypatch.setenv("FURNACE_DATABASE_URL", f"sqlite:///{folder / 'campaigns.db'}")
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(folder / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(folder / "data"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))   # a prompt fails at once instead of waiting
    monkeypatch.chdir(folder)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The prepared world, made once: each example runs in a copy of it."""
    folder = tmp_path_factory.mktemp("help-examples") / "world"
    folder.mkdir()
    shutil.copytree(ROOT / "examples", folder / "examples")
    with pytest.MonkeyPatch.context() as monkeypatch:
        enter(folder, monkeypatch)
        for line in WORLD:
            run_line(line)
    return folder


def test_every_command_has_an_example_in_its_help() -> None:
    missing = [name for name, cmd in COMMANDS.items() if not examples_of(cmd)]
    assert not missing, f"commands whose help has no `Example: furnace …` line: {', '.join(missing)}"
    assert len(COMMANDS) > 90 and {"roll", "campaign override add", "encounter act", "xp award"} <= set(COMMANDS)


def test_every_precondition_belongs_to_an_example() -> None:
    """A precondition for an example that changed would silently stop being used."""
    stale = set(PRECONDITIONS) - {example for _, example in EXAMPLES}
    assert not stale, f"preconditions of examples no help gives any more: {sorted(stale)}"


LONG_EXAMPLES = ("--fights 2000",)      # thousands of fights: the whole run only (FURNACE_SUITE=full, CI)


def _example(name: str, example: str) -> Any:
    long = any(mark in example for mark in LONG_EXAMPLES)
    return pytest.param(name, example, id=f"{name}: {example}", marks=[pytest.mark.slow] if long else [])


@pytest.mark.parametrize(("name", "example"), [_example(n, e) for n, e in EXAMPLES])
def test_the_example_works(name: str, example: str, world: Path, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    if example in SKIPPED:
        pytest.skip(SKIPPED[example])
    folder = tmp_path / "world"
    shutil.copytree(world, folder)
    enter(folder, monkeypatch)
    for step in PRECONDITIONS.get(example, ()):
        if isinstance(step, str):
            run_line(step)
        else:
            step(folder)
    run_line(example)
