"""Every rule option has a reader and a test that flips it (ARCHITECTURE: an option nothing reads is a bug).

A reader: some module under src/furnace names the option in quotes (`rules["name"]`, the rule the editor's hook
applies: `re.search("[\"']" + name + "[\"']", code)`), or the option is named by table data that code reads
as an option name (DATA_NAMED). The catalogue's own machinery (rules/ruleset.py: INT_RANGES lists option names
to bound them) does not count.

The tests are read, not run: a test flips an option when it builds a ruleset with the option set to a value
other than its default — `rules.with_options({"name": value})`, `load_ruleset(profile, {"name": value})` —
or loads a profile that sets it. Every value of a choice option other than the default, and the other value
of a bool, must be set by some test; an int, dice, text or table option must be set to something else. The
test that sets it asserts what changes (a total, a DC, HP, a condition, a row), named after the option.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "furnace" / "data"
OPTIONS = yaml.safe_load((DATA / "options.yaml").read_text(encoding="utf-8"))["options"]
PROFILES = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (DATA / "profiles").glob("*.yaml")}
SRC = ROOT / "src" / "furnace"
# the catalogue's own machinery names options to bound them (rules/ruleset.py: INT_RANGES): not a reader
INT_RANGES = re.compile(r"^INT_RANGES: .*?^}\n", re.S | re.M)
CODE = "\n".join(INT_RANGES.sub("", p.read_text(encoding="utf-8")) for p in sorted(SRC.rglob("*.py")))

# Table data that names an option, and the code that reads that data field as an option name.
DATA_NAMED = {
    # X-TAB-06 rows carry data.dc_option (item_save_dc_wood, item_save_dc_metal); middle_sea/item_saves.py
    # item_save_target returns rules[str(option)] while the packaged table is in force.
    "dc_option": "rules[str(option)]",
}


def _profile_options(name: str) -> dict[str, Any]:
    profile = PROFILES.get(name) or {}
    parent = profile.get("extends")
    return {**(_profile_options(parent) if parent else {}), **(profile.get("options") or {})}


def _literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return _UNKNOWN


_UNKNOWN = object()


def _dicts(call: ast.Call) -> list[ast.Dict]:
    args = [*call.args, *(k.value for k in call.keywords)]
    return [a for a in args if isinstance(a, ast.Dict)]


def values_set_by_tests() -> dict[str, set[str]]:
    """Option name → the values (as YAML text) that some test sets."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in ("with_options", "load_ruleset", "load_rules", "ruleset"):
                continue
            if name == "load_ruleset" and node.args and isinstance(node.args[0], ast.Constant):
                for key, value in _profile_options(str(node.args[0].value)).items():
                    found[key].add(_text(value))
            for d in _dicts(node):
                for k, v in zip(d.keys, d.values, strict=True):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str):
                        value = _literal(v)
                        found[k.value].add("<computed>" if value is _UNKNOWN else _text(value))
    return found


def _text(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("...").strip()


def _missing(option: dict[str, Any], seen: set[str]) -> list[str]:
    default = _text(option.get("default"))
    if option["type"] == "choice":
        return [c for c in (_text(c) for c in option["choices"]) if c != default and c not in seen]
    if option["type"] == "bool":
        other = _text(not option.get("default"))
        return [] if other in seen else [other]
    return [] if seen - {default} else ["a value other than the default"]


def _data_named() -> set[str]:
    """Option names that table rows give under a DATA_NAMED field whose reader is in the code."""
    names: set[str] = set()
    for path in (DATA / "tables").glob("*.yaml"):
        for row in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("rows") or []:
            data = row.get("data") or {}
            names |= {str(data[field]) for field, reader in DATA_NAMED.items() if field in data and reader in CODE}
    return names


def named_in_code(name: str) -> bool:
    """Whether some module under src/furnace reads the option: quoted, or via data."""
    if re.search("[\"']" + re.escape(name) + "[\"']", CODE):
        return True
    return name in _data_named()


@pytest.mark.parametrize("option", OPTIONS, ids=[o["name"] for o in OPTIONS])
def test_every_option_is_named_by_code(option: dict[str, Any]) -> None:
    assert named_in_code(option["name"]), (
        f"option {option['name']} is in options.yaml but no module under src/furnace names it "
        f"(read_by says {option.get('read_by')}): wire it or remove it")


def test_the_data_fields_are_still_read() -> None:
    """An allow-list entry whose reader is gone must go too."""
    for field, reader in DATA_NAMED.items():
        assert reader in CODE and _data_named(), f"no code reads table data.{field} as an option name"


@pytest.mark.parametrize("option", OPTIONS, ids=[o["name"] for o in OPTIONS])
def test_every_option_is_flipped_by_a_test(option: dict[str, Any]) -> None:
    missing = _missing(option, values_set_by_tests_cached().get(option["name"], set()))
    assert not missing, f"no test sets option {option['name']} to {', '.join(missing)}"


_CACHE: dict[str, set[str]] | None = None


def values_set_by_tests_cached() -> dict[str, set[str]]:
    global _CACHE
    if _CACHE is None:
        _CACHE = values_set_by_tests()
    return _CACHE
