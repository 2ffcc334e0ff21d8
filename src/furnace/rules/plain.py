"""Plain reads of the packaged rules: a built-in profile's option values and tables as plain objects, no Pydantic.

Importing Pydantic and building the rules' models costs a command more than computing what it asks (`furnace odds
attack` reads three options and one crit table). `plain_rules(profile)` answers a built-in profile with its
options' values and its tables as plain objects (`PlainRules`, `PlainTable`, `PlainRow`, each effect a
`PlainEffect` with the effect's fields as attributes): what the ruleset answers, with the same names, so a rule
that reads a `Ruleset` reads these alike. They are made from the validated ruleset (`load_ruleset`: every file
checked as ever) and kept in the rules' cache (`furnace.rules.cache`), keyed by the data files and the rules'
classes like the caches they are made from; a hit imports neither Pydantic nor PyYAML. A referee's profile
file, `--option` overrides or a campaign's overrides are never read here: those go through `load_ruleset`.

The look-ups a table answers (a row's span, the row of a total or key, the die chosen for a level) are
`furnace.rules.lookups`', called by these plain objects and by the models of `furnace.rules.tables` alike.
"""

import os
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

from furnace.errors import UnknownNameError
from furnace.rules.lookups import die_for, lookup_row, row_span

if TYPE_CHECKING:
    from furnace.rules.tables import TableSet


# -- the plain objects -----------------------------------------------------------------------------------------
class PlainEffect(SimpleNamespace):
    """An effect as plain attributes: `kind` and the effect's fields, an effect list's (then, otherwise) as tuples.
    (The row and the table are NamedTuples: cheaper to make at import than dataclasses.)"""


class PlainRow(NamedTuple):
    min: int | None
    max: int | None
    key: str | int | None
    die: str | None
    text: str
    effects: tuple[PlainEffect, ...]

    @property
    def span(self) -> str:
        return row_span(self)

    def effect_list(self) -> list[PlainEffect]:
        return list(self.effects)


class PlainTable(NamedTuple):
    id: str
    name: str
    kind: str
    roll: str | None
    die_table: str | None
    die_key: str | None
    key_name: str | None
    rows: tuple[PlainRow, ...]

    def lookup(self, value: int | str) -> PlainRow:
        return lookup_row(self, value)  # type: ignore[no-any-return]


class PlainTables:
    """The tables in force by every name `TableSet.get` answers to (id in any case, short name, alias), each kept as
    plain data (dicts and lists, marshalled each on its own: a command reads from the cache the one or two it asks
    for, not all sixty) and made a `PlainTable` when first asked for."""

    def __init__(self, raw: Mapping[str, bytes], by_name: Mapping[str, str], names: Sequence[str]) -> None:
        self._raw = raw                  # id → the table's fields, its rows' and effects' as dicts, marshalled
        self._by_name = by_name          # every name it answers to → id
        self._names = names              # the tables' short names
        self._made: dict[str, PlainTable] = {}

    def get(self, name: str) -> PlainTable:
        found = self._by_name.get(name.strip().lower()) if isinstance(name, str) else None
        if found is None:
            raise UnknownNameError("table", name if isinstance(name, str) else repr(name), sorted(self._names))
        if found not in self._made:
            import marshal

            t = marshal.loads(self._raw[found])
            rows = tuple(PlainRow(r["min"], r["max"], r["key"], r["die"], r["text"],
                                  tuple(_effect(e) for e in r["effects"])) for r in t["rows"])
            self._made[found] = PlainTable(t["id"], t["name"], t["kind"], t["roll"], t["die_table"], t["die_key"],
                                           t["key_name"], rows)
        return self._made[found]

    def source_of(self, table_id: str) -> str:
        return "packaged"

    def die_for(self, table: PlainTable, key: int | str) -> tuple[str, str]:
        return die_for(self, table, key)


class PlainRules:
    """A built-in profile's option values (`rules["crit_model"]`) and tables (`rules.tables.get(…)`)."""

    def __init__(self, profile: str, values: Mapping[str, Any], tables: PlainTables) -> None:
        self.profile = profile
        self._values = values
        self.tables = tables

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            from furnace.rules.ruleset import load_ruleset  # refused in the ruleset's own words

            return load_ruleset(self.profile)[name]


# -- made from the validated ruleset, kept in the cache as plain data ------------------------------------------
def _effect(data: Any) -> Any:
    if isinstance(data, dict):
        if "kind" in data:
            return PlainEffect(**{k: _effect(v) for k, v in data.items()})
        return {k: _effect(v) for k, v in data.items()}
    if isinstance(data, list):
        return tuple(_effect(v) for v in data)
    return data


TABLE_FIELDS = ("id", "name", "kind", "roll", "die_table", "die_key", "key_name")
ROW_FIELDS = ("min", "max", "key", "die", "text")


def _raw_tables(tables: "TableSet") -> tuple[dict[str, bytes], dict[str, str], list[str]]:
    """The tables' fields as plain data, each marshalled on its own; every name each answers to (as `TableSet.get`
    resolves it); and their short names."""
    import marshal

    raw = {t.id: marshal.dumps({**{f: getattr(t, f) for f in TABLE_FIELDS},
                                "rows": [{**{f: getattr(r, f) for f in ROW_FIELDS},
                                          "effects": [e.model_dump() for e in r.effects]} for r in t.rows]})
           for t in tables}
    names = {key: tables.get(key).id for t in tables for key in (t.id.lower(), t.name, *t.aliases)}
    return raw, names, [t.name for t in tables]


def _build() -> dict[str, Any]:
    """Every built-in profile's option values, and the tables in force (the packaged ones, shared by them all unless
    a profile's differ)."""
    from furnace.rules.ruleset import builtin_profiles, load_ruleset

    found: dict[str, Any] = {"options": {}, "tables": []}
    for name in builtin_profiles():
        rules = load_ruleset(name)
        tables = _raw_tables(rules.tables)
        if tables not in found["tables"]:
            found["tables"].append(tables)
        found["options"][name] = ({v.spec.name: v.value for v in rules}, found["tables"].index(tables))
    return found


_KEPT: dict[str, Any] = {}


def plain_rules(profile: str) -> PlainRules | None:
    """The built-in profile's options and tables as plain objects; None for any other name (a file, say)."""
    if "all" not in _KEPT:
        from furnace.rules.cache import cached_plain

        data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
        _KEPT["all"] = cached_plain("plain", data, _build)
    kept = _KEPT["all"]
    if not isinstance(profile, str) or profile not in kept["options"]:
        return None
    values, tables = kept["options"][profile]
    return PlainRules(profile, values, PlainTables(*kept["tables"][tables]))
