"""The plain reading of the built-in profiles (furnace.rules.plain): the options and tables the ruleset answers, as
plain objects kept with marshal (furnace.rules.cache.cached_plain), for the commands that build no model."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from furnace.errors import FurnaceError, UnknownNameError
from furnace.play.odds import attack_odds, typed_attacker
from furnace.rules import cache, plain
from furnace.rules.ruleset import builtin_profiles, load_ruleset


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FURNACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(plain, "_KEPT", {})


@pytest.mark.parametrize("profile", sorted(builtin_profiles()))
def test_a_built_in_profile_reads_as_its_ruleset(profile: str) -> None:
    """Every option's value, and every table's rows by every total or key and by every name the set answers to."""
    rules, light = load_ruleset(profile), plain.plain_rules(profile)
    assert light is not None
    assert {v.spec.name: light[v.spec.name] for v in rules} == {v.spec.name: v.value for v in rules}
    for t in rules.tables:
        for name in (t.id, t.id.lower(), t.name, *t.aliases):
            assert light.tables.get(name).id == rules.tables.get(name).id
        mine = light.tables.get(t.id)
        keys = [r.key for r in t.rows] if t.kind == "keyed" else range(-2, 40)
        for k in keys:
            try:
                want = t.lookup(k)
            except FurnaceError as exc:
                with pytest.raises(type(exc)) as refused:
                    mine.lookup(k)
                assert str(refused.value) == str(exc)
                continue
            got = mine.lookup(k)
            assert (got.span, got.text, got.die) == (want.span, want.text, want.die)
            assert [e.kind for e in got.effect_list()] == [e.kind for e in want.effect_list()]


def test_the_crit_odds_are_the_same_from_either() -> None:
    """F-CRIT-02's rows read through the plain tables and through the models give the same odds, for every class."""
    for cls, level in (("fighter", 3), ("cleric", 7), ("rogue", 12), ("magic-user", 2), (None, 0)):
        a = typed_attacker(2, "1d8+1", level=level, char_class=cls)
        light = plain.plain_rules("furnace")
        assert attack_odds(a, 13, light) == attack_odds(a, 13, load_ruleset("furnace"))


def test_another_name_is_none_and_an_unknown_table_is_refused() -> None:
    assert plain.plain_rules("my-table.yaml") is None and plain.plain_rules("nope") is None
    light = plain.plain_rules("furnace")
    assert light is not None
    with pytest.raises(UnknownNameError) as refused:
        light.tables.get("crit-fightr")
    with pytest.raises(UnknownNameError) as by_models:
        load_ruleset("furnace").tables.get("crit-fightr")
    assert str(refused.value) == str(by_models.value)            # the same words
    with pytest.raises(FurnaceError, match="unknown rule option"):
        light["no_such_option"]


def test_kept_with_marshal_and_built_again_when_a_file_changes(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "a.yaml").write_text("one", encoding="utf-8")
    built: list[int] = []
    assert cache.cached_plain("t", str(folder), lambda: built.append(1) or {"x": [1]}) == {"x": [1]}
    assert cache.cached_plain("t", str(folder), lambda: {"x": [2]}) == {"x": [1]}
    (folder / "a.yaml").write_text("three", encoding="utf-8")        # another size: another stamp
    assert cache.cached_plain("t", str(folder), lambda: {"x": [3]}) == {"x": [3]}
    (folder / "b.yaml").write_text("", encoding="utf-8")
    assert cache.cached_plain("t", str(folder), lambda: {"x": [4]}) == {"x": [4]}
    (tmp_path / "cache" / "t.marshal").write_bytes(b"junk")
    assert cache.cached_plain("t", str(folder), lambda: {"x": [5]}) == {"x": [5]}
    assert built == [1] and [p.name for p in (tmp_path / "cache").iterdir()] == ["t.marshal"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the shortcut is Linux's")
@pytest.mark.parametrize(("xdg", "home"), [(None, "/home/ann"), ("/var/xdg", "/home/ann"), ("relative", "/home/bo"),
                                          ("", "/root")])
@pytest.mark.parametrize("kind", ["cache", "config", "data"])
def test_the_user_s_folders_are_where_platformdirs_puts_them(monkeypatch: pytest.MonkeyPatch, xdg: str | None,
                                                            home: str, kind: str) -> None:
    """furnace.files.user_folder reads the XDG variable or HOME itself (no platformdirs to import): the same folder."""
    import platformdirs

    from furnace.files import user_folder

    variable = f"XDG_{kind.upper()}_HOME"
    monkeypatch.delenv("FURNACE_CACHE_DIR")
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv(variable, raising=False)
    else:
        monkeypatch.setenv(variable, xdg)
    assert user_folder(kind) == getattr(platformdirs, f"user_{kind}_dir")("furnace", appauthor=False)
    assert os.path.isabs(user_folder(kind))
    if kind == "cache":
        assert cache.folder() == user_folder(kind)
