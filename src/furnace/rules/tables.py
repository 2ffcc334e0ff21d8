"""Rule tables as data: every table of RULES.md is a YAML file in `furnace/data/tables`.

Two kinds of table:
- `range`: rows with `min`/`max` (inclusive; `null` = open end), rolled with `roll` (a dice expression,
  possibly with variables: `d20`, `3d6+EXCESS`, `2d6+CHA`) or with a die another table picks
  (`die_table`: the crit die by level, the fumble die by armor). Rows must cover `covers` (default: the
  roll's range) with no gap and no overlap.
- `keyed`: rows with a unique `key` (a level, an armor type, a race), looked up, not rolled.

Each row has our own short wording (`text`), structured `effects` (see `furnace.rules.effects`) and any further
columns in `data`. A referee's file with the same `id` replaces a table; a file that does not validate is
refused with its path, row and reason, and the tables in force stay as they were.

Limits, checked before any row is validated (`check_shape`): a table holds at most `MAX_TABLE_VALUES`
values counted with every shared value (a YAML alias) as often as it is used, nested at most
`MAX_TABLE_DEPTH` deep, only plain data (text, numbers, true/false, lists, mappings), integers within
±`MAX_INT`; at most `MAX_ROWS` rows; row bounds within ±`MAX_TOTAL` (the largest total 1,000 dice of
10,000 sides can give); dice expressions within the dice language's limits; every row of a rolled table
reachable by its roll.
"""

import datetime
import itertools
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import DataFileError, FurnaceError, UnknownNameError
from furnace.rules.datafile import packaged, read_yaml
from furnace.rules.effects import TABLE_NAMES, Effect, EffectList, check_dice
from furnace.rules.lookups import die_for, lookup_row, row_span

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

TABLE_ID = re.compile(r"^[FHMX]-TAB-\d{2}[a-z]?$|^[a-z][a-z0-9-]*:[A-Za-z0-9-]+$")
NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")

MAX_TABLE_VALUES = 50_000     # the largest packaged table holds about 2,600
MAX_TABLE_DEPTH = 32          # the deepest packaged table nests 9 levels
MAX_DATA_VALUES = 10_000      # in one `data` mapping (of a row, a table, a clock entry …)
MAX_INT = 10**18              # any integer in a data file
MAX_ROWS = 10_000             # a d10000 table
MAX_TOTAL = dice.MAX_DICE * 10_000    # the largest total of 1,000 dice of 10,000 sides
MAX_TEXT = 4_000              # characters of a row's text (the longest packaged one is under 600)
_PLAIN = (str, int, float, bool, type(None), datetime.date)
Bound = Field(None, ge=-MAX_TOTAL, le=MAX_TOTAL)


def check_shape(value: Any, what: str = "data", *, max_values: int = MAX_TABLE_VALUES,
                max_depth: int = MAX_TABLE_DEPTH) -> None:
    """Refuse (with a `ValueError` naming `what` and where in it) data that is too big to validate cheaply:
    more than `max_values` values when every shared value (a YAML alias) is counted each time it is used,
    nested more than `max_depth` deep, anything but plain data, or an integer beyond ±MAX_INT. Counted
    without recursion and stopped as soon as a limit is passed, so a "billion laughs" costs no more than
    the limit."""
    count = 0
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        count += 1
        if count > max_values:
            raise ValueError(f"{what} holds more than {max_values:,} values (shared values counted each time)")
        if isinstance(item, dict):
            children: list[tuple[Any, tuple[Any, ...]]] = [(k, path) for k in item]
            children += [(v, (*path, k)) for k, v in item.items()]
        elif isinstance(item, list | tuple):
            children = [(v, (*path, i)) for i, v in enumerate(item)]
        elif isinstance(item, _PLAIN):
            if isinstance(item, int) and not -MAX_INT <= item <= MAX_INT:
                raise ValueError(f"{_at(what, path)}: an integer beyond ±10^18 (at most 19 digits)")
            continue
        else:
            raise ValueError(f"{_at(what, path)}: a {type(item).__name__}, where only text, numbers, true/false, "
                             "lists and mappings may be")
        if children and len(path) + 1 >= max_depth:
            raise ValueError(f"{_at(what, path)}: nested more than {max_depth} levels deep")
        stack.extend(children)


def _at(what: str, path: tuple[Any, ...]) -> str:
    """'field rows.3.data.cost' for the place `path` in the data called `what`."""
    if not path:
        return what
    shown = ".".join(str(p) if len(str(p)) <= 40 else str(p)[:40] + "…" for p in path[:12])
    return f"field {shown}" + ("…" if len(path) > 12 else "")


# Keys of a `data` mapping (at any depth) whose text is a dice expression the engine rolls: a referee's
# `item_damage: 1001d6` is refused on load like a typed `1001d6`.
DICE_KEYS = frozenset({"dice", "die", "damage", "item_damage", "hit_die", "spell_die", "spell_die_hint", "roll",
                       "expression", "heal", "hp", "hp_1", "hp_cost"})


def _plain_data(value: Any) -> Any:
    """A `data` field: a mapping of plain values within MAX_DATA_VALUES (see `check_shape`), whose dice
    expressions (under DICE_KEYS) obey the dice language's limits."""
    if isinstance(value, dict):
        check_shape(value, "data", max_values=MAX_DATA_VALUES)
        stack: list[tuple[Any, str]] = [(value, "data")]
        while stack:
            item, where = stack.pop()
            pairs = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
            for key, child in pairs:
                if isinstance(child, dict | list):
                    stack.append((child, f"{where}.{key}"))
                elif key in DICE_KEYS and isinstance(child, str):
                    try:
                        check_dice(child)
                    except ValueError as exc:
                        raise ValueError(f"{where}.{key}: {exc}") from None
    return value


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    min: int | None = Bound
    max: int | None = Bound
    key: str | int | None = None
    die: str | None = None           # in a die-selector table: the die this row names
    text: str = Field(max_length=MAX_TEXT)
    effects: EffectList = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)

    @field_validator("die")
    @classmethod
    def die_parses(cls, value: str | None) -> str | None:
        return None if value is None else check_dice(value)

    @field_validator("key")
    @classmethod
    def key_form(cls, value: str | int | None) -> str | int | None:
        if isinstance(value, int) and not -MAX_TOTAL <= value <= MAX_TOTAL:
            raise ValueError(f"a key is a word or a whole number from {-MAX_TOTAL:,} to {MAX_TOTAL:,}")
        if isinstance(value, str) and not 0 < len(value) <= 200:
            raise ValueError("a key is a word of 1 to 200 characters")
        return value

    @field_validator("data", mode="before")
    @classmethod
    def data_plain(cls, value: Any) -> Any:
        return _plain_data(value)

    @property
    def span(self) -> str:
        return row_span(self)

    def effect_list(self) -> list[Effect]:
        return list(self.effects)


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: str
    name: str
    title: str
    source: str
    kind: Literal["range", "keyed"]
    roll: str | None = None
    variables: list[str] = Field(default_factory=list)   # what the caller binds in `roll`
    die_table: str | None = None
    die_key: str | None = None                           # level, armor …
    key_name: str | None = None                          # for keyed tables: what the key is
    covers: tuple[int | None, int | None] | None = None
    aliases: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)       # RULES.md ids this table serves
    notes: list[str] = Field(default_factory=list)       # gaps, overlaps and the reading chosen
    data: dict[str, Any] = Field(default_factory=dict)   # table-wide facts (a spell's die, an item's tier)
    rows: list[Row] = Field(max_length=MAX_ROWS)

    @model_validator(mode="before")
    @classmethod
    def small_enough(cls, value: Any) -> Any:
        check_shape(value, "the table")
        return value

    @field_validator("data", mode="before")
    @classmethod
    def data_plain(cls, value: Any) -> Any:
        return _plain_data(value)

    @field_validator("covers")
    @classmethod
    def covers_bounded(cls, value: tuple[int | None, int | None] | None) -> tuple[int | None, int | None] | None:
        if value is not None:
            lo, hi = value
            if any(v is not None and not -MAX_TOTAL <= v <= MAX_TOTAL for v in value):
                raise ValueError(f"covers runs within {-MAX_TOTAL:,} to {MAX_TOTAL:,}")
            if lo is not None and hi is not None and lo > hi:
                raise ValueError(f"covers starts at {lo}, above its end {hi}")
        return value

    @field_validator("id")
    @classmethod
    def id_form(cls, value: str) -> str:
        if not TABLE_ID.match(value):
            raise ValueError(f"table id {value!r} is not like F-TAB-31 or house:my-table")
        return value

    @field_validator("name")
    @classmethod
    def name_form(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError(f"short name {value!r} must be lower-case words joined by '-'")
        return value

    @field_validator("roll")
    @classmethod
    def roll_parses(cls, value: str | None) -> str | None:
        return None if value is None else check_dice(value)

    @model_validator(mode="after")
    def rows_fit(self) -> "Table":
        if not self.rows:
            raise ValueError("a table needs at least one row")
        if self.kind == "keyed":
            _check_keys(self.rows)
        else:
            _check_ranges(self.rows, self.span())
        return self

    def span(self) -> tuple[int | None, int | None] | None:
        """The totals the rows must cover."""
        if self.covers is not None:
            return self.covers
        if self.roll is not None and not self.variables:
            return dice.parse(self.roll).bounds()
        return None

    # -- use ----------------------------------------------------------------------------------------
    def lookup(self, value: int | str) -> Row:
        """The row for a total (range tables) or a key (keyed tables)."""
        return lookup_row(self, value)  # type: ignore[no-any-return]

    def keys(self) -> list[str]:
        return [str(r.key) for r in self.rows]


def _check_keys(rows: list[Row]) -> None:
    seen: set[str] = set()
    for i, row in enumerate(rows, 1):
        if row.key is None:
            raise ValueError(f"row {i}: a keyed table's rows need a key")
        k = str(row.key).lower()
        if k in seen:
            raise ValueError(f"row {i}: key {row.key!r} appears twice")
        seen.add(k)


def _check_ranges(rows: list[Row], span: tuple[int | None, int | None] | None) -> None:
    for i, row in enumerate(rows, 1):
        if row.min is None and row.max is None:
            raise ValueError(f"row {i}: a range row needs min or max")
        if row.min is not None and row.max is not None and row.min > row.max:
            raise ValueError(f"row {i}: min {row.min} is above max {row.max}")
    for i, (a, b) in enumerate(itertools.pairwise(rows), 2):
        if a.max is None or b.min is None:
            raise ValueError(f"row {i}: only the first row may start open and only the last may end open")
        if b.min <= a.max:
            raise ValueError(f"row {i}: {b.span} overlaps the row before ({a.span})")
        if b.min != a.max + 1:
            raise ValueError(f"row {i}: gap between {a.max} and {b.min}")
    if span is None:
        return
    lo, hi = span
    for i, row in enumerate(rows, 1):   # a row no roll can reach is a typo, not a rule
        if (row.min is not None and hi is not None and row.min > hi) or \
                (row.max is not None and lo is not None and row.max < lo):
            raise ValueError(f"row {i}: {row.span} can never come up: the roll gives {lo} to {hi}")
    first, last = rows[0], rows[-1]
    if lo is not None and first.min is not None and first.min > lo:
        raise ValueError(f"row 1: rows start at {first.min} but a roll can give {lo}")
    if hi is not None and last.max is not None and last.max < hi:
        raise ValueError(f"row {len(rows)}: rows end at {last.max} but a roll can give {hi}")


@dataclass(frozen=True)
class TableRoll:
    """A roll on a table: the table, the die and why it was chosen, the roll, and the row it landed on."""

    table: Table
    roll: RollResult
    row: Row
    die_reason: str = ""

    def explain(self) -> str:
        head = f"{self.table.name} ({self.table.id})"
        why = f" [{self.die_reason}]" if self.die_reason else ""
        r = self.roll
        return f"{head}{why}: {r.expression} → {dice.render(r.tree)} = {r.total} → {self.row.span}: {self.row.text}"

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table.id, "name": self.table.name, "die_reason": self.die_reason,
                "roll": self.roll.to_dict(), "row": self.row.model_dump(mode="json", exclude_defaults=True)}


# -- the registry ----------------------------------------------------------------------------------


def _row_of(error: Mapping[str, Any]) -> int | None:
    loc = error.get("loc", ())
    if len(loc) >= 2 and loc[0] == "rows" and isinstance(loc[1], int):
        return int(loc[1]) + 1
    return None


def validate_table(data: Any, path: str | Path) -> Table:
    """Validate one table mapping, or raise `DataFileError` naming the path, the row and the reason."""
    if not isinstance(data, dict):
        raise DataFileError(path, "a table file holds one mapping with id, name, kind and rows")
    try:
        check_shape(data, "the table")
    except ValueError as exc:
        raise DataFileError(path, str(exc)) from None
    try:
        return Table.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        row = _row_of(first)
        m = re.match(r"row (\d+): (.*)", message)
        if m:
            row, message = int(m.group(1)), m.group(2)
        return _raise(path, f"{loc}: {message}" if loc and not m else message, row)
    except FurnaceError as exc:  # a dice expression inside that does not parse
        return _raise(path, str(exc), None)


def _raise(path: str | Path, reason: str, row: int | None) -> Table:
    raise DataFileError(path, reason, row)


class TableSet:
    """The tables in force: the packaged ones, with a referee's files laid over them by id."""

    def __init__(self, tables: Iterable[Table] = ()) -> None:
        self._by_id: dict[str, Table] = {}
        self._sources: dict[str, str] = {}
        for t in tables:
            self._by_id[t.id] = t
        self._forget()

    def _forget(self) -> None:
        """Drop the lookups worked out from the tables (after the set changes, before it is used)."""
        self._names: dict[str, Table] | None = None     # id (lower case), name and alias → the first table
        self._ordered: tuple[Table, ...] | None = None

    @classmethod
    def packaged(cls) -> "TableSet":
        return _packaged()

    def copy(self) -> "TableSet":
        other = TableSet(self._by_id.values())
        other._sources = dict(self._sources)
        return other

    def with_table(self, table: Table, source: str = "<memory>") -> "TableSet":
        """A new set with one more (or a replaced) table."""
        if not isinstance(table, Table):
            raise FurnaceError(f"with_table takes a validated Table (see validate_table), not {type(table).__name__}")
        if table.id in self._by_id:
            check_columns(self._by_id[table.id], table, source)
        other = self.copy()
        other._by_id[table.id] = table
        other._sources[table.id] = source
        other._forget()
        other._check_names()
        return other

    def load_files(self, paths: Iterable[str | Path]) -> "TableSet":
        """A new set with these files laid over this one; all are validated before any takes effect."""
        if isinstance(paths, str | bytes | os.PathLike) or not isinstance(paths, Iterable):
            raise FurnaceError("load_files takes a list of table files' paths")
        files = list(paths)
        bad = [p for p in files if not isinstance(p, str | os.PathLike)]
        if bad:
            raise FurnaceError(f"a table file is a path, not {type(bad[0]).__name__}")
        loaded = [(str(p), validate_table(read_yaml(Path(p), "table"), p)) for p in files]
        for path, table in loaded:
            if table.id in self._by_id:
                check_columns(self._by_id[table.id], table, path)
        other = self.copy()
        for path, table in loaded:
            other._by_id[table.id] = table
            other._sources[table.id] = path
        other._forget()
        other._check_names()
        return other

    def _check_names(self) -> None:
        seen: dict[str, str] = {}
        for t in self._by_id.values():
            for name in [t.name, *t.aliases]:
                if name in seen and seen[name] != t.id:
                    raise DataFileError(self._sources.get(t.id, t.id), f"name {name!r} is used by {seen[name]} too")
                seen[name] = t.id

    def __iter__(self) -> Any:
        if self._ordered is None:     # sorted once: a cast looks through every table for its spell
            self._ordered = tuple(sorted(self._by_id.values(), key=lambda t: _sort_key(t.id)))
        return iter(self._ordered)

    def __len__(self) -> int:
        return len(self._by_id)

    def source_of(self, table_id: str) -> str:
        return self._sources.get(table_id, "packaged")

    def get(self, name: str) -> Table:
        """A table by id (`F-TAB-31`, any case) or short name (`crit-fighter`) or alias."""
        if not isinstance(name, str):
            raise UnknownNameError("table", repr(name), sorted(t.name for t in self._by_id.values()))
        if self._names is None:       # the first table in order that answers to a name, as a scan would find
            self._names = {}
            for t in self._by_id.values():
                for key in (t.id.lower(), t.name, *t.aliases):
                    self._names.setdefault(key, t)
        found = self._names.get(name.strip().lower())
        if found is not None:
            return found
        raise UnknownNameError("table", name, sorted(t.name for t in self._by_id.values()))

    # -- rolling --------------------------------------------------------------------------------------
    def die_for(self, table: Table, key: int | str) -> tuple[str, str]:
        """The die a table is rolled with for this key (level, armor), and the reason, for the log."""
        return die_for(self, table, key)

    def roll(self, name: str, rng: DiceSource, *, key: int | str | None = None, die: str | None = None,
             variables: Mapping[str, int | str] | None = None, label: str = "") -> TableRoll:
        """Roll on a table with its own die, a die chosen by `key` (level, armor), or a given `die`."""
        table = self.get(name)
        if table.kind != "range":
            raise FurnaceError(f"{table.name} is looked up by {table.key_name or 'key'}, not rolled")
        reason = ""
        expression = die
        if expression is None and key is not None:
            expression, reason = self.die_for(table, key)
        if expression is None:
            expression = table.roll
        if expression is None:
            hint = f" --{table.die_key} or" if table.die_key else ""
            raise FurnaceError(f"{table.name} needs a die: give{hint} --die EXPR")
        result = dice.roll(expression, rng, variables, label or f"{table.name} ({reason or expression})")
        return TableRoll(table, result, table.lookup(result.total), reason)


def check_columns(replaced: Table, table: Table, source: str | Path) -> None:
    """A referee's table that replaces a packaged one carries, in every row, each `data` column every row of
    the one it replaces carries, of the same kind: the rules read those columns (a crit table's die, a
    modifier), and a row without one would fail where it is rolled, not where it was written."""
    wanted: dict[str, str | None] = {}
    for i, row in enumerate(replaced.rows):
        for key in set(row.data) if i == 0 else set(wanted) & set(row.data):
            wanted[key] = _column_kind(row.data[key]) if i == 0 else _joined(wanted[key], _column_kind(row.data[key]))
        wanted = {k: v for k, v in wanted.items() if k in row.data}
    for i, row in enumerate(table.rows, 1):
        for key, kind in sorted(wanted.items()):
            if key not in row.data:
                raise DataFileError(source, f"data.{key} is missing: the table it replaces ({replaced.id}) has it in "
                                            "every row, and the rules read it", i)
            if kind is not None and _joined(kind, _column_kind(row.data[key])) != kind:
                raise DataFileError(source, f"data.{key} is {_column_kind(row.data[key])}, not {kind} as in the table "
                                            f"it replaces ({replaced.id})", i)


def _joined(kind: str | None, other: str) -> str | None:
    """The kind a column of both kinds has: a number holds whole numbers; other mixtures are of no one kind."""
    if kind == other or kind is None:
        return kind
    return "a number" if {kind, other} == {"a number", "a whole number"} else None


def _column_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number" if isinstance(value, float) else "a whole number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else "a date"


def _sort_key(table_id: str) -> tuple[int, int, str]:
    order = {"F": 0, "H": 1, "M": 2}
    m = re.match(r"([FHM])-TAB-(\d+)([a-z]?)", table_id)
    if not m:
        return (9, 0, table_id)
    return (order[m.group(1)], int(m.group(2)), m.group(3))


_PACKAGED: TableSet | None = None


def _packaged() -> TableSet:
    global _PACKAGED
    if _PACKAGED is None:
        from furnace.rules.cache import cached

        folder = packaged("tables")
        _PACKAGED = cached("tables", folder, lambda: _read_packaged(folder))
        TABLE_NAMES.update({t.id: t.name for t in _PACKAGED})   # an injury effect names its table in words
    return _PACKAGED


def _read_packaged(folder: "Traversable") -> TableSet:
    tables = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            tables.append(validate_table(read_yaml(entry, "table"), f"furnace/data/tables/{entry.name}"))
    packaged = TableSet(tables)
    packaged._check_names()
    return packaged
