"""The packaged data's cache (furnace.rules.cache): read when the files are unchanged, never when they changed,
and any trouble with it is no trouble to the user (the data is built again)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.rules import cache
from furnace.rules.tables import TableSet, _read_packaged


def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.yaml").write_text("one", encoding="utf-8")
    return folder


def test_built_once_then_read_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    source = data(tmp_path)
    built: list[int] = []
    assert cache.cached("t", source, lambda: built.append(1) or {"x": 1}) == {"x": 1}
    assert cache.cached("t", source, lambda: built.append(1) or {"x": 2}) == {"x": 1}
    assert built == [1] and len(list((tmp_path / "cache").glob("t-*.pickle"))) == 1


def test_a_changed_added_or_removed_file_is_a_new_key_and_the_old_entry_goes(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    source = data(tmp_path)
    first = cache.key(source)
    cache.cached("t", source, lambda: 1)
    (source / "a.yaml").write_text("two", encoding="utf-8")
    assert cache.key(source) != first and cache.cached("t", source, lambda: 2) == 2
    (source / "b.yaml").write_text("", encoding="utf-8")
    assert cache.cached("t", source, lambda: 3) == 3
    (source / "b.yaml").unlink()
    assert cache.cached("t", source, lambda: 4) == 4       # the "two" entry went when the newer one was written
    assert len(list((tmp_path / "cache").glob("t-*.pickle"))) == 1


@pytest.mark.parametrize("junk", [b"", b"not a pickle", pickle.dumps(object)[:-3]])
def test_a_broken_cache_file_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junk: bytes) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    source = data(tmp_path)
    cache.cached("t", source, lambda: 1)
    (entry,) = (tmp_path / "cache").glob("t-*.pickle")
    entry.write_bytes(junk)
    assert cache.cached("t", source, lambda: 5) == 5
    assert cache.cached("t", source, lambda: 6) == 5            # and written again whole


def test_a_cache_folder_that_cannot_be_made_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert cache.cached("t", data(tmp_path), lambda: 7) == 7


def test_off_builds_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", "off")
    source = data(tmp_path)
    assert cache.cached("t", source, lambda: 1) == 1 and cache.cached("t", source, lambda: 2) == 2


def test_the_cached_tables_are_the_tables_read_from_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The packaged tables through the cache equal a fresh read, table by table (rows, dice, effects)."""
    from importlib import resources

    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    folder = resources.files("furnace") / "data" / "tables"
    cache.cached("tables", folder, lambda: _read_packaged(folder))
    again: TableSet = cache.cached("tables", folder, lambda: pytest.fail("read the files again"))
    fresh = _read_packaged(folder)
    assert [t.model_dump() for t in again] == [t.model_dump() for t in fresh]


def test_the_cache_key_version_is_the_one_pyproject_declares() -> None:
    # The key reads furnace.__version__ (no importlib.metadata on the start path); it must not drift from the
    # version the package is installed as, or a new release would read an old release's cache.
    import tomllib
    from pathlib import Path

    import furnace

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert furnace.__version__ == pyproject["project"]["version"]


def test_a_single_file_is_a_source_too_keyed_by_its_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # options.yaml is cached on its own (64 KB of YAML, ~10 ms a command): editing it is a new key
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    source = data(tmp_path) / "a.yaml"
    assert cache.cached("one", source, lambda: 1) == 1
    assert cache.cached("one", source, lambda: 2) == 1
    source.write_text("changed", encoding="utf-8")
    assert cache.cached("one", source, lambda: 3) == 3


def test_the_option_catalogue_comes_from_the_cache_once_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from furnace.rules import ruleset

    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(ruleset, "_CACHE", {})
    first = ruleset.option_specs()
    assert len(list((tmp_path / "cache").glob("options-*.pickle"))) == 1
    monkeypatch.setattr(ruleset, "_CACHE", {})
    monkeypatch.setattr(ruleset, "read_yaml", lambda *a, **k: pytest.fail("options.yaml parsed again"))
    assert ruleset.option_specs() == first


def noting(made: list[str], value: Callable[[str], object]) -> Callable[[str], object]:
    """What a cache is given to make a value of a text: it notes each text it is asked, and refuses "bad"."""
    def make(text: str) -> object:
        made.append(text)
        if text == "bad":
            raise ValueError("refused")
        return value(text)
    return make


def test_a_parse_is_kept_for_the_same_text_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`parsed_text` (a fight file's YAML): the same text again is not parsed again; another text, or the same text
    after a module of the parse changed, is; a refused parse and a value that is not plain data are never kept."""
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    module = tmp_path / "parser.py"
    module.write_text("one", encoding="utf-8")
    parses: list[str] = []
    parse = noting(parses, lambda text: {"text": text, "rows": [1, 2]} if text != "dated"
                   else __import__("datetime").date(2026, 1, 1))

    assert cache.parsed_text("t", "a", parse, str(module)) == {"text": "a", "rows": [1, 2]}
    assert cache.parsed_text("t", "a", parse, str(module)) == {"text": "a", "rows": [1, 2]}
    assert parses == ["a"]
    assert cache.parsed_text("t", "b", parse, str(module)) == {"text": "b", "rows": [1, 2]}
    assert parses == ["a", "b"]
    module.write_text("changed", encoding="utf-8")
    cache.parsed_text("t", "b", parse, str(module))
    assert parses == ["a", "b", "b"]
    for _ in range(2):
        with pytest.raises(ValueError, match="refused"):
            cache.parsed_text("t", "bad", parse, str(module))
        cache.parsed_text("t", "dated", parse, str(module))
    assert parses == ["a", "b", "b", "bad", "dated", "bad", "dated"]
    monkeypatch.setenv("FURNACE_CACHE_DIR", "off")
    cache.parsed_text("t", "b", parse, str(module))
    assert parses[-1] == "b" and len(parses) == 8


def test_a_validation_is_kept_for_the_same_text_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`validated_text` (a character file): the same text again is not validated again, in this process or the next
    (the file read afresh); another text, another version of the validating library, or the same text after a module
    of the validation changed, is; a refusal is never kept; at most MAX_KEPT texts are."""
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_VALIDATED", {})
    module = tmp_path / "models.py"
    module.write_text("one", encoding="utf-8")
    made: list[str] = []
    validate = noting(made, lambda text: {"made of": text})

    for _ in range(2):
        assert cache.validated_text("t", "a", validate, str(module)) == {"made of": "a"}
    assert made == ["a"]
    monkeypatch.setattr(cache, "_VALIDATED", {})            # a new process: read from the file
    assert cache.validated_text("t", "a", validate, str(module)) == {"made of": "a"} and made == ["a"]
    assert cache.validated_text("t", "a", validate, str(module), version="2") == {"made of": "a"}
    assert made == ["a", "a"]
    for _ in range(2):
        with pytest.raises(ValueError, match="refused"):
            cache.validated_text("t", "bad", validate, str(module))
    assert made == ["a", "a", "bad", "bad"]
    other = tmp_path / "other.py"                       # (a module changed: another stamp, taken once a process)
    other.write_text("another", encoding="utf-8")
    cache.validated_text("t", "a", validate, str(other))
    assert made[-1] == "a" and len(made) == 5
    monkeypatch.setattr(cache, "MAX_KEPT", 3)
    for text in ("b", "c", "d", "b", "a"):
        cache.validated_text("t", text, validate, str(other))
    assert made[5:] == ["b", "c", "d", "a"]                # "a" went first, with three kept
    monkeypatch.setenv("FURNACE_CACHE_DIR", "off")
    cache.validated_text("t", "b", validate, str(other))
    assert made[-1] == "b"


def test_a_character_file_read_again_is_the_same_character_and_a_changed_one_is_validated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Character.from_file` keeps what it validated (`validated_text`): the same file again gives an equal
    character without validating, a file changed to a wrong value is refused as ever."""
    from furnace.characters.character import Character
    from furnace.errors import DataFileError

    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_VALIDATED", {})
    source = Path(__file__).resolve().parents[2] / "examples" / "characters" / "brakka.json"
    path = tmp_path / "brakka.json"
    path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    first = Character.from_file(path)
    monkeypatch.setattr(Character, "model_validate", lambda *a, **k: pytest.fail("validated again"))
    again = Character.from_file(path)
    assert again == first and again is not first and again.model_fields_set == first.model_fields_set
    monkeypatch.undo()
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    path.write_text(source.read_text(encoding="utf-8").replace('"level": ', '"level": 99, "x": ', 1), encoding="utf-8")
    with pytest.raises(DataFileError):
        Character.from_file(path)


def test_compiled_code_is_kept_for_the_same_source_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`kept_code` (the dice expressions' compiled functions): the code of a source compiled before is read from the
    file, in this process or the next, and it is what `compile` makes of the source; another source or file name is
    compiled; at most MAX_CODES are kept; a file of another Python's version is not read."""
    import marshal
    import sys

    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_CODES", {})
    source = "def f(x):\n    return x + 1\n"
    code = cache.kept_code(source, "<test>")
    assert code == compile(source, "<test>", "exec")
    path = tmp_path / "cache" / "code.marshal"
    version, kept = marshal.loads(path.read_bytes())
    assert version == sys.version and list(kept) == [f"<test>\n{source}"]
    # the kept code is what is read: a marked one stands for the source in the next process
    marked = compile("MARK = 1\n", "<test>", "exec")
    path.write_bytes(marshal.dumps((version, {f"<test>\n{source}": marshal.dumps(marked)})))
    monkeypatch.setattr(cache, "_CODES", {})
    assert cache.kept_code(source, "<test>") == marked
    assert cache.kept_code(source, "<other>") == compile(source, "<other>", "exec")
    path.write_bytes(marshal.dumps(("another Python", {f"<test>\n{source}": marshal.dumps(marked)})))
    monkeypatch.setattr(cache, "_CODES", {})
    assert cache.kept_code(source, "<test>") == code
    monkeypatch.setattr(cache, "MAX_CODES", 2)
    for n in range(3):
        cache.kept_code(f"x = {n}\n", "<test>")
    assert list(marshal.loads(path.read_bytes())[1]) == ["<test>\nx = 1\n", "<test>\nx = 2\n"]


def test_a_dice_expression_compiled_through_the_kept_code_rolls_the_same(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line has the dice compiled through `kept_code` (`furnace.cli.startup.keep_dice_code`): an
    expression compiled by an earlier process is not compiled again, and its roll equals the general roller's."""
    import builtins
    import random

    import furnace.cli  # noqa: F401   (puts kept_code in place)
    from furnace import dice
    from furnace.dice.compiled import FILENAME

    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_CODES", {})
    assert dice.compile_source is not dice._compiled
    dice.DiceExpression("2d6+3").roll(random.Random(1))
    monkeypatch.setattr(cache, "_CODES", {})                # a new process: read from the file
    real = builtins.compile

    def compile_no_dice(source: str, filename: str, *args: object, **kwargs: object) -> object:
        assert filename != FILENAME, "compiled again"
        return real(source, filename, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "compile", compile_no_dice)
    again = dice.DiceExpression("2d6+3")
    assert again.roll(random.Random(7)) == again.roll_any(random.Random(7))
    assert again.roll != again.roll_any


def test_only_the_latest_made_are_kept_for_each_owner_and_only_on_the_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`latest_made` (a campaign's state, its fight): the texts last seen for an owner are not made again, in this
    process or the next; another text is, and the oldest of LATEST_KEPT goes; owners keep theirs apart; a failure is
    never kept; another version of the validating library or a changed module of the validation makes it again;
    nothing is kept until the command line turns it on (`keep_latest`), nor once it is turned off (a server), nor
    with the cache off."""
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_LATEST_ON", False)
    module = tmp_path / "models.py"
    module.write_text("one", encoding="utf-8")
    made: list[str] = []

    made_of = noting(made, lambda text: {"made of": text})

    def latest(text: str, owner: str = "keep", version: str = "", where: Path = module) -> object:
        return cache.latest_made("state", owner, lambda: text, lambda: made_of(text), str(where), version=version)

    latest("a"), latest("a")
    assert made == ["a", "a"] and not (tmp_path / "cache").exists()      # off: made at each call, nothing written
    cache.keep_latest()
    monkeypatch.setattr(cache, "LATEST_KEPT", 2)
    for text in ("a", "a", "b", "b", "a", "c", "a", "b"):
        assert latest(text) == {"made of": text}
    assert made[2:] == ["a", "b", "c", "a", "b"]          # two kept: "c" took "a"'s place, the first made
    assert latest("c", owner="tomb") == {"made of": "c"} and latest("a") == {"made of": "a"} and made[-1] == "c"
    assert len(list((tmp_path / "cache" / "latest").glob("state-*.pickle"))) == 2
    for _ in range(2):
        with pytest.raises(ValueError, match="refused"):
            latest("bad", owner="bad")
    assert made[-2:] == ["bad", "bad"]
    latest("a", version="2")
    other = tmp_path / "other.py"
    other.write_text("another", encoding="utf-8")
    latest("a", version="2", where=other)
    assert made[-2:] == ["a", "a"]
    for path in (tmp_path / "cache" / "latest").glob("*.pickle"):
        path.write_bytes(b"\x80\x05junk")
    latest("a", version="2", where=other)
    assert made[-3:] == ["a", "a", "a"]                   # a broken entry: made again
    cache.keep_latest(False)
    latest("c", owner="tomb")
    assert made[-1] == "c"
