"""Hardening: every bad file or path is exit code 2 and one line `error: …` naming the path, refused before the
work it would cost (no file read past the reader's limit, nothing read at all from a device, a FIFO or a file
too large, no die rolled before a file is refused: counted by `tests.helpers.work`); anything else is a bug
(exit 1, a request to report it, the traceback only with --debug); output files are never overwritten without
--force, never over an input, and written whole or not at all.

One test (or parametrized case) per example of the hardening issue: non-UTF-8 fight/character/clock files,
a folder, a dangling and a looping symlink, a missing parent folder, a read-only file, /dev/zero and a FIFO
as input, a 50 MB file, 20,000 combatants, `character show hero.json --html hero.json`, `funnel --html`,
`spell new --out` and `item new --out` over an existing file, a party file outside the fight's folder, a
party zone outside the zones, a wrong field.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace import files
from furnace.cli.app import cli, main
from furnace.errors import FurnaceError
from tests.helpers.work import Work, counted

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIGHT = "room_dc: 10\nparty:\n  - {file: characters/agna.json, zone: NEAR}\nmonsters:\n  - {name: Goblin, count: 2}\n"
BUG_LINE = "furnace: internal error (RuntimeError); please report it — run with --debug for the traceback\n"
posix_only = pytest.mark.skipif(os.name != "posix", reason="symlinks, FIFOs and devices as on POSIX")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, Work]:
    """The command's exit code, its output and error, and the work it did."""
    with counted() as work:
        code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err, work


def refused(capsys: pytest.CaptureFixture[str], *args: str, names: str | Path | None = None,
            reads: int | None = None, rolls: bool = False) -> str:
    """Exit 2, exactly one line on stderr starting `error:` (naming `names`); the line. Refused before the work:
    no file read past the reader's limit (`reads`: exactly so many bytes read in all, 0 for none) and no die
    rolled (unless the command `rolls` before it finds what to refuse: an output it cannot write)."""
    code, _out, err, work = run(capsys, *args)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    if names is not None:
        assert str(names) in err, err
    assert work.bytes <= files.MAX_BYTES + 1 and work.firings == 0, str(work)
    if reads is not None:
        assert work.bytes == reads, str(work)
    if not rolls:
        assert work.dice == 0, str(work)
    return err.strip()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A fight folder: the example characters under characters/, a valid fight file, a hero and a state file."""
    shutil.copytree(EXAMPLES / "characters", tmp_path / "characters")
    (tmp_path / "fight.yaml").write_text(FIGHT, encoding="utf-8")
    shutil.copy(EXAMPLES / "characters" / "brakka.json", tmp_path / "hero.json")
    return tmp_path


def _state(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    state = folder / "state.json"
    assert main(["clock", "timer", "torch", "--in", "6", "turns", "--state", str(state)]) == 0
    capsys.readouterr()
    return state


# -- reading: the examples of the issue -------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["fight", "character", "clock"])
def test_non_utf8_file_is_refused_naming_it(folder: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    """A fight, character or clock file with bytes that are not UTF-8 (was: UnicodeDecodeError)."""
    bad = folder / f"bad-{kind}"
    bad.write_bytes(b'{"name": "caf\xe9 \xff\xfe"}\n')
    args = {"fight": ["fight", str(bad)], "character": ["character", "show", str(bad)],
            "clock": ["clock", "status", "--state", str(bad)]}[kind]
    err = refused(capsys, *args, names=bad, reads=bad.stat().st_size)
    assert "not UTF-8" in err and "line 1" in err


@pytest.mark.parametrize("args", [["fight", "{}"], ["character", "show", "{}"], ["clock", "status", "--state", "{}"],
                                  ["rules", "list", "--profile", "{}"]])
def test_a_folder_as_input_is_refused(folder: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """A folder given as a fight, character, state or profile file (was: IsADirectoryError)."""
    target = folder / "characters"
    err = refused(capsys, *[a.replace("{}", str(target)) for a in args], names=target, reads=0)
    assert "folder" in err


@posix_only
def test_a_dangling_symlink_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A character file that is a symlink to nothing (was: FileNotFoundError)."""
    link = folder / "gone.json"
    link.symlink_to(folder / "deleted.json")
    err = refused(capsys, "character", "show", str(link), names=link, reads=0)
    assert "symlink" in err and "does not exist" in err


@posix_only
def test_a_looping_symlink_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fight file that is a symlink loop (was: OSError ELOOP)."""
    (folder / "a.yaml").symlink_to(folder / "b.yaml")
    (folder / "b.yaml").symlink_to(folder / "a.yaml")
    err = refused(capsys, "fight", str(folder / "a.yaml"), names=folder / "a.yaml", reads=0)
    assert "symlink loop" in err


@pytest.mark.parametrize("args", [["character", "show", "{}/hero.json"], ["fight", "{}/fight.yaml"],
                                  ["funnel", "--seed", "1", "--html", "{}/sheet.html"],
                                  ["clock", "timer", "t", "--in", "1", "turn", "--state", "{}/state.json"]])
def test_a_missing_parent_folder_is_refused(folder: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """Reading from or writing into a folder that does not exist (was: FileNotFoundError)."""
    missing = folder / "no" / "such"
    err = refused(capsys, *[a.replace("{}", str(missing)) for a in args], names=missing,
                  rolls=args[0] == "funnel")    # the funnel rolls its characters, then finds it cannot write
    assert "does not exist" in err


def test_a_read_only_file_is_not_written(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`character level-up` on a read-only character file (was: PermissionError); the file is unchanged."""
    hero = folder / "hero.json"
    before = hero.read_bytes()
    hero.chmod(0o444)
    try:
        err = refused(capsys, "character", "level-up", str(hero), "--ability", "STR", "--seed", "1", names=hero,
                      rolls=True)
        assert "read-only" in err and hero.read_bytes() == before
        assert refused(capsys, "--force", "character", "level-up", str(hero), "--ability", "STR", names=hero,
                       rolls=True)
    finally:
        hero.chmod(0o644)


def test_a_file_without_read_permission_is_refused(folder: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission denied on open (as root a chmod would not stop us, so the OS is made to refuse)."""
    hero = folder / "hero.json"
    real_open = os.open

    def deny(path: object, flags: int, *args: int) -> int:
        if str(path) == str(hero):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args)   # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", deny)
    assert "permission denied" in refused(capsys, "character", "show", str(hero), names=hero)


@posix_only
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("args", [["fight", "/dev/zero"], ["character", "show", "/dev/zero"],
                                  ["clock", "status", "--state", "/dev/zero"], ["disease", "/dev/zero"],
                                  ["rules", "list", "--profile", "/dev/zero"]])
def test_dev_zero_as_input_is_refused_at_once(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """/dev/zero as an input file (was: reading forever into gigabytes): not one byte is read."""
    err = refused(capsys, *args, reads=0)
    assert "/dev/zero" in err or "unknown disease" in err


@posix_only
@pytest.mark.parametrize("command", [["fight"], ["character", "show"], ["clock", "status", "--state"]])
def test_a_fifo_as_input_is_refused_without_blocking(folder: Path, capsys: pytest.CaptureFixture[str],
                                                     command: list[str]) -> None:
    """A FIFO nobody writes to (was: blocking forever on open)."""
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    assert "FIFO" in refused(capsys, *command, str(fifo), names=fifo, reads=0)


@pytest.mark.parametrize("command", [["fight"], ["character", "show"], ["clock", "status", "--state"]])
def test_a_50_mb_file_is_refused_before_reading(folder: Path, capsys: pytest.CaptureFixture[str],
                                                command: list[str]) -> None:
    """A 50 MB input (a sparse file: nothing is written to disk) is refused by its size, not read."""
    big = folder / "big"
    with big.open("wb") as stream:
        stream.truncate(50 * 1024 * 1024)
    assert "too large (50.0 MB" in refused(capsys, *command, str(big), names=big, reads=0)


@pytest.mark.parametrize("monsters", [
    "".join("  - {name: Goblin, count: 100}\n" for _ in range(200)),          # 200 entries of 100
    "".join("  - {name: Goblin}\n" for _ in range(20_000)),                   # 20,000 entries
])
def test_20000_combatants_are_refused_before_building(folder: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, monsters: str) -> None:
    """20,000 combatants (was: no end, gigabytes): refused by count before one is built, the entries read
    from the parser's events no further than the first entry too many (a few events an entry)."""
    from furnace.play import combatant, fightfile
    from furnace.play.fightfile import MAX_COMBATANTS

    counts = {"events": 0, "built": 0}
    parse = yaml.parse

    def counted_parse(*args: Any, **kwargs: Any) -> Iterator[yaml.Event]:
        for event in parse(*args, **kwargs):
            counts["events"] += 1
            yield event

    def building(make: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any, **kwargs: Any) -> Any:
            counts["built"] += 1
            return make(*args, **kwargs)
        return counting

    monkeypatch.setattr(yaml, "parse", counted_parse)
    for module in (combatant, fightfile):
        monkeypatch.setattr(module, "monster", building(combatant.monster))
        monkeypatch.setattr(module, "from_character", building(combatant.from_character))
    fight = folder / "horde.yaml"
    fight.write_text("room_dc: 10\nparty:\n  - {file: characters/agna.json}\nmonsters:\n" + monsters, encoding="utf-8")
    assert "at most 500 combatants" in refused(capsys, "fight", str(fight), names=fight)
    assert counts["built"] == 0
    assert 0 < counts["events"] <= 6 * (MAX_COMBATANTS + 1) + 20, counts    # 20,000 entries: 80,000 events


def test_500_combatants_are_still_a_fight(folder: Path) -> None:
    from furnace.play.fightfile import MAX_COMBATANTS, load_fight

    fight = folder / "big.yaml"
    fight.write_text("room_dc: 10\nparty:\n  - {file: characters/agna.json}\nmonsters:\n"
                     + "  - {name: Goblin, count: 100}\n" * 4 + "  - {name: Orc, count: 99}\n", encoding="utf-8")
    spec = load_fight(fight)
    assert len(spec.party) + sum(m.count for m in spec.monsters) == MAX_COMBATANTS


# -- writing ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["hero.json", "./hero.json", "link.json"])
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_html_onto_the_character_file_is_refused_even_with_force(
        folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spelling: str,
        force: list[str]) -> None:
    """`character show hero.json --html hero.json` (was: the character replaced by its HTML sheet), also
    through another spelling or a symlink, and with --force."""
    monkeypatch.chdir(folder)
    if spelling == "link.json":
        if os.name != "posix":
            pytest.skip("symlinks as on POSIX")
        Path("link.json").symlink_to("hero.json")
    before = Path("hero.json").read_bytes()
    err = refused(capsys, *force, "character", "show", "hero.json", "--html", spelling, names=spelling)
    assert "input of this command" in err and Path("hero.json").read_bytes() == before


def test_output_onto_the_profile_file_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = folder / "house.yaml"
    profile.write_text("name: house\nextends: furnace\noptions: {}\n", encoding="utf-8")
    err = refused(capsys, "--force", "funnel", "--seed", "1", "--profile", str(profile), "--html", str(profile),
                  names=profile, rolls=True)
    assert "input of this command" in err and profile.read_text(encoding="utf-8").startswith("name: house")


@pytest.mark.parametrize("args", [["funnel", "--seed", "1", "--html"], ["spell", "new", "--seed", "4", "--out"],
                                  ["item", "new", "Frost Brand", "--tier", "rare", "--out"],
                                  ["character", "show", "{hero}", "--html"]])
def test_an_existing_output_needs_force(folder: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """`funnel --html`, `spell new --out`, `item new --out`, `character show --html` over an existing file
    (was: overwritten without asking); `furnace --force …` or the command's `--force` overwrites it."""
    out = folder / "existing.out"
    out.write_text("keep me", encoding="utf-8")
    args = [a.replace("{hero}", str(folder / "hero.json")) for a in args]
    err = refused(capsys, *args, str(out), names=out, rolls=args[0] in ("funnel", "spell"))
    assert "already exists" in err and "--force" in err and out.read_text(encoding="utf-8") == "keep me"
    assert main(["--force", *args, str(out)]) == 0
    assert out.read_text(encoding="utf-8") != "keep me"
    out.write_text("keep me", encoding="utf-8")
    assert main([*args, str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8") != "keep me"
    capsys.readouterr()


def test_a_folder_as_output_is_refused_and_left_alone(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rename target is a folder: refused even with --force, nothing written, no temporary file left."""
    target = folder / "out.html"
    target.mkdir()
    err = refused(capsys, "--force", "funnel", "--seed", "1", "--html", str(target), names=target, rolls=True)
    assert "folder" in err and target.is_dir() and list(target.iterdir()) == []
    assert not list(folder.glob(".furnace-*"))


@pytest.mark.parametrize("fail", ["replace", "fsync"])
def test_a_failed_write_leaves_the_old_file_whole(folder: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, fail: str) -> None:
    """A write that fails half-way (the disk full while writing, the rename refused) leaves the old file as it
    was and no temporary file behind; the user sees one line."""
    out = folder / "sheet.html"
    out.write_text("the old sheet", encoding="utf-8")

    def broken(*_args: object) -> None:
        raise OSError(errno.ENOSPC if fail == "fsync" else errno.EXDEV, "refused")

    monkeypatch.setattr(os, fail, broken)
    err = refused(capsys, "--force", "funnel", "--seed", "1", "--html", str(out), names=out, rolls=True)
    assert ("no space" if fail == "fsync" else "across devices") in err
    assert out.read_text(encoding="utf-8") == "the old sheet"
    assert sorted(p.name for p in folder.iterdir()) == ["characters", "fight.yaml", "hero.json", "sheet.html"]


def test_the_clock_state_is_written_whole(folder: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The campaign state is replaced by a rename: when it fails, the old state is intact and loads."""
    state = _state(folder, capsys)
    before = state.read_bytes()
    monkeypatch.setattr(os, "replace", lambda *_a: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error")))
    refused(capsys, "clock", "advance", "1", "turn", "--state", str(state), names=state)
    assert state.read_bytes() == before and not list(folder.glob(".furnace-*"))
    monkeypatch.undo()
    code, out, _, _ = run(capsys, "clock", "advance", "1", "turn", "--state", str(state))
    assert code == 0 and "00:10" in out and json.loads(state.read_text(encoding="utf-8"))["clock"]["now"] == 600


def test_clock_join_never_writes_the_state_over_the_character(folder: Path, capsys: pytest.CaptureFixture[str],
                                                              ) -> None:
    """The state file named as the character joining: refused (it is not a campaign), the character unchanged."""
    hero = folder / "hero.json"
    before = hero.read_bytes()
    refused(capsys, "clock", "join", str(hero), "--state", str(hero), names=hero)
    assert hero.read_bytes() == before


def test_write_back_through_a_symlink_keeps_the_link(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.name != "posix":
        pytest.skip("symlinks as on POSIX")
    link = folder / "link.json"
    link.symlink_to(folder / "hero.json")
    assert run(capsys, "character", "level-up", str(link), "--ability", "STR", "--seed", "1")[0] == 0
    assert link.is_symlink() and json.loads((folder / "hero.json").read_text(encoding="utf-8"))["level"] == 4


# -- fight files: what a fight file may name --------------------------------------------------------------------
@pytest.mark.parametrize("ref", ["../../../../../../../../etc/passwd", "/etc/passwd", "../outside.json"])
def test_a_party_file_outside_the_fight_folder_is_refused(folder: Path, capsys: pytest.CaptureFixture[str],
                                                          ref: str) -> None:
    """A fight file's `party: file:` leading out of its folder (was: /etc/passwd read)."""
    fights = folder / "fights"
    fights.mkdir()
    fight = fights / "f.yaml"
    fight.write_text(FIGHT.replace("characters/agna.json", ref), encoding="utf-8")
    err = refused(capsys, "fight", str(fight), names=ref)
    assert "outside the folder" in err and "--allow-outside" in err and "root:" not in err


@posix_only
def test_a_symlink_leading_out_of_the_fight_folder_is_refused(folder: Path, capsys: pytest.CaptureFixture[str],
                                                              ) -> None:
    fights = folder / "fights"
    fights.mkdir()
    (fights / "agna.json").symlink_to(folder / "characters" / "agna.json")
    fight = fights / "f.yaml"
    fight.write_text(FIGHT.replace("characters/agna.json", "agna.json"), encoding="utf-8")
    assert "outside the folder" in refused(capsys, "fight", str(fight), names="agna.json")
    code, out, _, _ = run(capsys, "fight", str(fight), "--seed", "1", "--allow-outside")
    assert code == 0 and "Agna" in out


def test_allow_outside_reads_a_party_file_elsewhere(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fights = folder / "fights"
    fights.mkdir()
    fight = fights / "f.yaml"
    fight.write_text(FIGHT.replace("characters/agna.json", "../characters/agna.json"), encoding="utf-8")
    refused(capsys, "fight", str(fight), names="../characters/agna.json")
    code, out, err, _ = run(capsys, "fight", str(fight), "--seed", "1", "--allow-outside")
    assert code == 0 and err == "" and "Agna" in out


@pytest.mark.parametrize(("entry", "zone"), [("party", "BEHIND"), ("party", "[NEAR]"), ("monsters", "UNDER")])
def test_a_zone_outside_the_zones_is_refused_with_the_zones(folder: Path, capsys: pytest.CaptureFixture[str],
                                                            entry: str, zone: str) -> None:
    """A party (or monster) zone that is not one of CLOSE, NEAR, RANGED, FAR (was: accepted)."""
    text = FIGHT.replace("zone: NEAR", f"zone: {zone}") if entry == "party" else FIGHT.replace(
        "count: 2}", f"count: 2, zone: {zone}}}")
    fight = folder / "zones.yaml"
    fight.write_text(text, encoding="utf-8")
    err = refused(capsys, "fight", str(fight), names=fight)
    assert f"field {entry}.0.zone: unknown zone" in err and "CLOSE, NEAR, RANGED, FAR" in err


def test_a_zone_in_lower_case_is_a_zone(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fight = folder / "zones.yaml"
    fight.write_text(FIGHT.replace("zone: NEAR", "zone: near"), encoding="utf-8")
    assert run(capsys, "fight", str(fight), "--seed", "1")[0] == 0


@pytest.mark.parametrize(("text", "where", "fields"), [
    (FIGHT.replace("zone: NEAR", "zone: NEAR, zon: FAR"), "party.0.zon", "file, zone, side"),
    (FIGHT.replace("count: 2", "count: 2, armour: heavy"), "monsters.0.armour", "name, count, hp"),
    ("roomdc: 3\n" + FIGHT, "roomdc", "name, room_dc, initiative, surprised, party, monsters"),
])
def test_a_wrong_field_is_refused_with_the_allowed_fields(folder: Path, capsys: pytest.CaptureFixture[str],
                                                          text: str, where: str, fields: str) -> None:
    fight = folder / "fields.yaml"
    fight.write_text(text, encoding="utf-8")
    err = refused(capsys, "fight", str(fight), names=fight)
    assert f"field {where}:" in err and f"has no field {where.split('.')[-1]!r}" in err and fields in err


@pytest.mark.parametrize("text", [
    "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{b}: &{b} [{', '.join(['*' + a] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi", strict=True)),
    "room_dc: " + "[" * 100 + "]" * 100 + "\n",
    "room_dc: " + "9" * 5000 + "\n",
    "room_dc: &x [*x]\n",
])
def test_yaml_bombs_are_refused_before_they_are_built(folder: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """A billion laughs, deep nesting, an alias to itself: refused from the parsed nodes, no value built; an
    over-long integer: refused by the one value that cannot be built."""
    from furnace.cli.app import load_rules
    from furnace.rules.datafile import loader

    load_rules("furnace", [])        # the packaged tables, built once a process, are built before counting
    built = []
    construct = loader().construct_document

    def counting(self: Any, node: yaml.Node) -> Any:
        built.append(node)
        return construct(self, node)

    monkeypatch.setattr(loader(), "construct_document", counting)
    fight = folder / "bomb.yaml"
    fight.write_text(text, encoding="utf-8")
    refused(capsys, "fight", str(fight), names=fight, reads=len(text))
    assert len(built) == ("9" * 5000 in text)


# -- the clock state ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("change", "message"), [
    (lambda e: e.update(every=-5), "every"), (lambda e: e.update(every=0), "every"),
    (lambda e: e.update(at=-10**18), "before the clock's time"), (lambda e: e.update(remaining=-1), "remaining"),
])
def test_a_clock_state_that_cannot_run_is_refused(folder: Path, capsys: pytest.CaptureFixture[str],
                                                  change: object, message: str) -> None:
    """A state whose entry repeats every −5 s (the clock would never get past it) or fell due long ago."""
    state = _state(folder, capsys)
    data = json.loads(state.read_text(encoding="utf-8"))
    change(data["clock"]["entries"][0])  # type: ignore[operator]
    state.write_text(json.dumps(data), encoding="utf-8")
    assert message in refused(capsys, "clock", "advance", "1", "day", "--state", str(state), names=state)


def test_an_advance_that_would_fire_without_end_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = _state(folder, capsys)
    data = json.loads(state.read_text(encoding="utf-8"))
    data["clock"]["entries"][0].update(every=1)
    state.write_text(json.dumps(data), encoding="utf-8")
    assert "advance in smaller steps" in refused(capsys, "clock", "advance", "1", "year", "--state", str(state))
    assert run(capsys, "clock", "advance", "1", "turn", "--state", str(state))[0] == 0


# -- the edge: bugs, --debug --------------------------------------------------------------------------------------
def test_a_bug_is_exit_1_and_a_request_to_report_it(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(**_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli.commands["demo"], "callback", boom)
    code, out, err, _ = run(capsys, "demo")
    assert code == 1 and out == "" and err == BUG_LINE


def test_debug_lets_the_traceback_through(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(**_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli.commands["demo"], "callback", boom)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["--debug", "demo"])
    assert capsys.readouterr().err == BUG_LINE


def test_debug_prints_the_traceback_and_exits_1() -> None:
    """As a program: `furnace --debug …` on a bug prints the line, then the traceback; exit status 1."""
    code = ("import sys; from furnace.cli import app\n"
            "def boom(**kw): raise RuntimeError('a bug')\n"
            "app.cli.commands['demo'].callback = boom\n"
            "sys.exit(app.main(sys.argv[1:]))\n")
    debug = subprocess.run([sys.executable, "-c", code, "--debug", "demo"], capture_output=True, text=True,
                           timeout=60, check=False)
    assert debug.returncode == 1 and debug.stderr.startswith(BUG_LINE)
    assert "Traceback (most recent call last)" in debug.stderr and "RuntimeError: a bug" in debug.stderr
    quiet = subprocess.run([sys.executable, "-c", code, "demo"], capture_output=True, text=True, timeout=60,
                           check=False)
    assert quiet.returncode == 1 and quiet.stderr == BUG_LINE


def test_a_users_error_stays_one_line_with_debug(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    refused(capsys, "--debug", "fight", str(tmp_path / "nope.yaml"), names="nope.yaml")


def test_a_message_with_a_newline_is_still_one_line(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def two_lines(**_kwargs: object) -> None:
        raise FurnaceError("first\nsecond")

    monkeypatch.setattr(cli.commands["demo"], "callback", two_lines)
    assert refused(capsys, "demo") == "error: first second"


# -- furnace.files ------------------------------------------------------------------------------------------------
def test_read_text_drops_a_byte_order_mark_and_keeps_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xef\xbb\xbf{}")
    assert files.read_text(path) == "{}"
    with pytest.raises(files.FileAccessError, match="too large"):
        files.read_text(path, limit=2)


def test_write_text_refuses_an_input_and_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    files.write_text(path, "one")
    with pytest.raises(files.FileAccessError, match="already exists"):
        files.write_text(path, "two")
    files.write_text(path, "two", force=True)
    with pytest.raises(files.FileAccessError, match="input of this command"):
        files.write_text(path, "three", force=True, inputs=[str(tmp_path / "." / "x.txt")])
    assert path.read_text(encoding="utf-8") == "two" and sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


@pytest.mark.parametrize("ref", ["../x.json", "/etc/passwd", "a/../../x.json", "a\0b"])
def test_resolve_inside_keeps_references_in_their_folder(tmp_path: Path, ref: str) -> None:
    with pytest.raises(files.FileAccessError):
        files.resolve_inside(tmp_path, ref)
    assert files.resolve_inside(tmp_path, "a/../x.json") == tmp_path / "a/../x.json"
    assert files.resolve_inside(tmp_path, "../x.json", allow_outside=True) == tmp_path / "../x.json"
