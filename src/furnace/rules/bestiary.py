"""The bestiary: monsters as validated data, in the Furnace rules' own terms (`furnace/data/monsters/*.yaml`).

A monster's numbers follow the encounter's ROOM DC (F-BASE-03, D-2): AC = ROOM DC, ATK and SAVE bonus =
ROOM DC − 10, unless the entry gives its own. An entry carries what the ROOM DC does not: Hit Dice (a number,
"1/2" or "1-1": under one HD is a mook, M-MOOK-02), HP dice (default: the HD in d8s), its attack's damage and
name, the armor that picks its fumble die (F-TAB-35, AMB-27), its morale (the 2d6 target of F-OPT-04; default
half the ROOM DC), the features the engine applies to a monster (Cleave, Sneak Attack), an XP suggestion for
the referee's ledger (REF-24) and the ROOM DC a referee would set for a typical encounter with it (REF-02).

`Bestiary.packaged()` holds the monsters shipped with Furnace (our own wording, copied from no book); a
referee's files are laid over it by id (`load_files`): a file that does not validate is refused with its path,
the entry and the reason, and the bestiary in force stays as it was (F-BASE-01). `Monster.spec()` is the
mapping `furnace.play.combatant.monster` builds a fighter from; `parse_monsters("goblin x4, ogre")` reads a
command line's monster list. See docs/monsters.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeVar, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from furnace import dice
from furnace.errors import DataFileError, FurnaceError, UnknownNameError
from furnace.rules.datafile import close_matches, packaged, read_yaml
from furnace.rules.hit_dice import HD_LESS, MAX_HD, hd_parts, hd_value, normal_hd
from furnace.rules.tables import check_shape

__all__ = [
    "FEATURES", "MAX_COUNT", "MAX_HD", "WEAPON_CLASSES", "ZONES", "Bestiary", "Monster", "MonsterFileError",
    "UnknownMonsterError", "default_hp", "hd_value", "listing", "markdown_list", "parse_monsters", "row",
    "validate_entries",
]

T = TypeVar("T")
Zone = Literal["CLOSE", "NEAR", "RANGED", "FAR"]
ZONES: tuple[Zone, ...] = ("CLOSE", "NEAR", "RANGED", "FAR")
WEAPON_CLASSES = ("sharp", "blunt", "strung", "pole", "hurled", "unarmed")   # M-WPN, AMB-95
FEATURES = ("Cleave", "Sneak Attack")     # the features `furnace.play.encounter` applies to a monster
SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

MAX_HP = 10_000          # the most HP a monster's dice may give
MAX_AC = 40              # as the highest ROOM DC
MIN_BONUS, MAX_BONUS = -10, 30
MIN_MORALE, MAX_MORALE = 2, 12      # 2d6 shows 2 to 12
MAX_XP = 1_000_000
MAX_COUNT = 100          # monsters of one kind in `parse_monsters`, as in a fight file
MAX_ENTRIES = 1_000      # monsters in one file
MAX_FILE_VALUES = 50_000
MAX_LIST_TEXT = 1_000    # characters of a `--monsters` list



def default_hp(hd: Any) -> str:
    """The HD in d8s: 3 → 3d8, "1-1" → 1d8-1, "1/2" → 1d4 (half a d8), 2.5 → 2d8+1d4."""
    try:
        return _default_hp(hd)
    except ValueError as exc:
        raise FurnaceError(str(exc)) from None


def _default_hp(hd: Any) -> str:
    normal, value = normal_hd(hd)
    if m := HD_LESS.match(normal):
        return f"{m.group(1)}d8-{m.group(2)}"
    whole = int(value)
    part = round((value - whole) * 8)
    extra = f"1d{part}" if part >= 2 else ""
    if whole == 0:
        return extra or "1"
    return f"{whole}d8" + (f"+{extra}" if extra else "")


# -- a monster ---------------------------------------------------------------------------------------------

def _dice_text(value: Any, what: str, most: int | None) -> str:
    """A dice expression (or a whole number) within the dice language's limits, with no variables, able
    to give at least 1 and (for HP) at most `most`. Errors leave the field's name to the caller."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{what} is dice like 2d8+2 or a whole number, not {type(value).__name__}")
    text = str(value).strip()
    try:
        expr = dice.parse(text)
        names = sorted(expr.variables())
        if names:
            raise ValueError(f"{text!r} names {', '.join(names)}; a monster's dice name no variables")
        hi = expr.bounds()[1]
    except FurnaceError as exc:
        raise ValueError(str(exc)) from None
    if hi < 1:
        raise ValueError(f"{text!r} can never reach 1 (at most {hi})")
    if most is not None and hi > most:
        raise ValueError(f"{text!r} can reach {hi:,}; the most is {most:,}")
    return text


class Monster(BaseModel):
    """One monster of the bestiary. AC, attack_bonus and save_bonus None: they follow the fight's ROOM DC."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)

    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=60)
    hd: str                                    # as written: "4", "0.5", "1/2", "1-1"
    hp: str = Field("", validate_default=True)   # dice or a whole number; default the HD in d8s
    ac: int | None = Field(None, ge=0, le=MAX_AC)
    attack_bonus: int | None = Field(None, ge=MIN_BONUS, le=MAX_BONUS)
    save_bonus: int | None = Field(None, ge=MIN_BONUS, le=MAX_BONUS)
    damage: str = "1d6"
    weapon: str = Field("attack", min_length=1, max_length=60)
    ranged: bool = False
    armor: Literal["none", "light", "heavy"] = "none"
    armor_key: str | None = Field(None, max_length=40)
    helmet: bool = False
    shield: bool = False
    weapon_class: Literal["sharp", "blunt", "strung", "pole", "hurled", "unarmed"] | None = None
    morale: int | None = Field(None, ge=MIN_MORALE, le=MAX_MORALE)
    zone: Zone = "NEAR"
    named: bool = False                        # an NPC the referee names (REF-42): the Middle Sea's grievous roll
    features: tuple[str, ...] = Field((), max_length=len(FEATURES))
    xp: int = Field(0, ge=0, le=MAX_XP)
    room_dc: int = Field(12, ge=1, le=MAX_AC)
    tags: tuple[str, ...] = Field((), max_length=12)
    description: str = Field("", max_length=500)

    @model_validator(mode="before")
    @classmethod
    def hp_from_hd(cls, data: Any) -> Any:
        """No hp given: the HD in d8s (left to the field checks when the HD themselves are wrong)."""
        if isinstance(data, dict) and data.get("hp") is None and "hd" in data:
            try:
                return {**data, "hp": _default_hp(data["hd"])}
            except ValueError:
                return data
        return data

    @field_validator("id", "armor_key")
    @classmethod
    def slug(cls, value: str | None) -> str | None:
        if value is not None and not SLUG.match(value):
            raise ValueError(f"{value!r} is not a slug: lower-case letters and digits joined by '-' (giant-rat)")
        return value

    @field_validator("name", "weapon", "description")
    @classmethod
    def one_line(cls, value: str) -> str:
        if not value.isprintable():
            raise ValueError("one line of printable text")
        return value

    @field_validator("hd", mode="before")
    @classmethod
    def hit_dice(cls, value: Any) -> str:
        return normal_hd(value)[0]

    @field_validator("hp", mode="before")
    @classmethod
    def hp_dice(cls, value: Any) -> str:
        return _dice_text(value, "hp", MAX_HP)

    @field_validator("damage", mode="before")
    @classmethod
    def damage_dice(cls, value: Any) -> str:
        return _dice_text(value, "damage", None)

    @field_validator("zone", mode="before")
    @classmethod
    def zone_any_case(cls, value: Any) -> Any:
        text = value.strip().upper() if isinstance(value, str) else value
        if text not in ZONES:
            raise ValueError(f"unknown zone {str(value)[:40]!r}; the zones are {', '.join(ZONES)}")
        return text

    @field_validator("features", mode="before")
    @classmethod
    def known_features(cls, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return value
        spelled = {f.lower(): f for f in FEATURES}
        out: list[str] = []
        for item in value:
            name = spelled.get(item.strip().lower()) if isinstance(item, str) else None
            if name is None:
                raise ValueError(f"unknown feature {str(item)[:40]!r}; the features the engine applies to a "
                                 f"monster are {', '.join(FEATURES)} (write any other power in the description)")
            if name in out:
                raise ValueError(f"feature {name!r} is listed twice")
            out.append(name)
        return tuple(out)

    @field_validator("tags")
    @classmethod
    def tag_slugs(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for tag in value:
            if not SLUG.match(tag) or len(tag) > 30:
                raise ValueError(f"tag {tag[:40]!r} is not a slug of at most 30 characters (undead, beast)")
        if len(set(value)) != len(value):
            raise ValueError("a tag is listed twice")
        return value

    # -- use ----------------------------------------------------------------------------------------------
    @property
    def hd_value(self) -> float:
        """The HD as a number (0.9 for "1-1", 0.5 for "1/2")."""
        return hd_parts(self.hd)[1]

    @property
    def under_one_hd(self) -> bool:
        """Under one Hit Die: a target for the Middle Sea fighters' extra attacks (M-MOOK-02)."""
        return self.hd_value < 1

    def spec(self) -> dict[str, Any]:
        """The mapping `furnace.play.combatant.monster(spec, side, room_dc, rng, id=…)` builds a fighter from;
        AC, ATK and SAVE are left out when they follow the ROOM DC, morale when it is half the ROOM DC."""
        spec: dict[str, Any] = {
            "name": self.name, "hd": self.hd, "hp": self.hp, "damage": self.damage, "weapon": self.weapon,
            "ranged": self.ranged, "armor": self.armor, "zone": self.zone, "helmet": self.helmet,
            "shield": self.shield, "features": list(self.features)}
        optional = {"ac": self.ac, "attack_bonus": self.attack_bonus, "save_bonus": self.save_bonus,
                    "morale": self.morale, "armor_key": self.armor_key, "weapon_class": self.weapon_class,
                    "named": self.named or None}
        spec.update({k: v for k, v in optional.items() if v is not None})
        return spec


# -- files -------------------------------------------------------------------------------------------------

class MonsterFileError(DataFileError):
    """A monster file that does not validate: its path, the entry (number and id) and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str, entry: int | None = None,
                 monster_id: str | None = None) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        self.entry = entry
        self.row = None if entry is None else f"{entry}" + (f" ({monster_id})" if monster_id else "")
        where = "" if entry is None else f", monster {self.row}"
        FurnaceError.__init__(self, f"{self.path}{where}: {reason}")


_FIELDS = tuple(Monster.model_fields)


def _reason(exc: ValidationError) -> str:
    """The first thing wrong with an entry; a field it may not have is named with the fields it may."""
    first = exc.errors()[0]
    loc = [str(x) for x in first["loc"]]
    if first["type"] == "extra_forbidden" and loc:
        close = close_matches(loc[0], _FIELDS, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"{loc[0]!r} is not a monster field{hint}; the fields are {', '.join(_FIELDS)}"
    message = str(first["msg"]).removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "required: every monster has id, name and hd"
    return f"field {'.'.join(loc)}: {message}" if loc else message


def validate_entries(data: Any, path: str | os.PathLike[str]) -> list[Monster]:
    """The monsters of one file (a list of entries, or a mapping with `monsters:` and that list), or a
    `MonsterFileError` naming the path, the entry and the reason. Ids are unique within a file."""
    if isinstance(data, dict):
        extra = sorted(str(k) for k in data if k != "monsters")
        if extra:
            raise MonsterFileError(path, f"a monster file holds `monsters:` and a list of entries; {extra[0]!r} "
                                         "is not allowed at the top")
        data = data.get("monsters")
    if not isinstance(data, list) or not data:
        raise MonsterFileError(path, "a monster file holds `monsters:` and a list of at least one entry")
    if len(data) > MAX_ENTRIES:
        raise MonsterFileError(path, f"a monster file holds at most {MAX_ENTRIES:,} monsters, not {len(data):,}")
    try:
        check_shape(data, "the monster file", max_values=MAX_FILE_VALUES)
    except ValueError as exc:
        raise MonsterFileError(path, str(exc)) from None
    monsters: list[Monster] = []
    seen: set[str] = set()
    for n, entry in enumerate(data, 1):
        raw_id = entry.get("id") if isinstance(entry, dict) else None
        shown_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 60 and raw_id.isprintable() else None
        if not isinstance(entry, dict):
            raise MonsterFileError(path, f"an entry is a mapping of fields, not {type(entry).__name__}", n)
        try:
            monster = Monster.model_validate(entry)
        except ValidationError as exc:
            raise MonsterFileError(path, _reason(exc), n, shown_id) from None
        if monster.id in seen:
            raise MonsterFileError(path, f"id {monster.id!r} appears twice in this file", n, shown_id)
        seen.add(monster.id)
        monsters.append(monster)
    return monsters


# -- the bestiary ------------------------------------------------------------------------------------------

def _key(text: str) -> str:
    """A name or id as looked up: any case, spaces and underscores as hyphens."""
    return re.sub(r"[\s_]+", "-", text.strip().lower())


class UnknownMonsterError(UnknownNameError):
    """A monster name or id the bestiary does not hold; the message lists the closest names."""

    def __init__(self, name: str, close: list[str], count: int) -> None:
        self.kind, self.name, self.close = "monster", name, close
        shown = name if len(name) <= 60 else name[:57] + "..."
        hint = f"; did you mean {', '.join(close)}?" if close else f"; the bestiary holds {count} monsters"
        FurnaceError.__init__(self, f"unknown monster {shown!r}{hint}")


_MISSING: Any = object()


class Bestiary(Mapping[str, Monster]):
    """An immutable mapping id → Monster: the packaged monsters, with a referee's files laid over them by id.
    `get` also takes a name (any case) and raises `UnknownMonsterError` with the closest names."""

    __slots__ = ("_by_id", "_index", "_sources")

    def __init__(self, monsters: Iterable[Monster] = (), sources: Mapping[str, str] | None = None) -> None:
        by_id: dict[str, Monster] = {}
        for m in monsters:
            if not isinstance(m, Monster):
                raise FurnaceError(f"a bestiary holds monsters, not {type(m).__name__}")
            if m.id in by_id:
                raise FurnaceError(f"monster id {m.id!r} appears twice")
            by_id[m.id] = m
        self._by_id: Mapping[str, Monster] = MappingProxyType(dict(sorted(by_id.items())))
        self._sources: Mapping[str, str] = MappingProxyType({k: v for k, v in (sources or {}).items() if k in by_id})
        self._index: Mapping[str, str] = MappingProxyType(self._build_index())

    def _build_index(self) -> dict[str, str]:
        """Each lookup key (id, name) → id; a name that is another monster's id or name is refused."""
        index: dict[str, str] = {m.id: m.id for m in self._by_id.values()}
        for m in self._by_id.values():
            key = _key(m.name)
            if index.setdefault(key, m.id) != m.id:
                other = index[key]
                mine, theirs = (m.id, other) if self.source_of(m.id) != "packaged" else (other, m.id)
                raise DataFileError(self.source_of(mine), f"monster {mine!r} is called {self[mine].name!r}, like "
                                                          f"{theirs!r} ({self.source_of(theirs)}); rename one")
        return index

    @classmethod
    def packaged(cls) -> Bestiary:
        """The monsters shipped in furnace/data/monsters (read and validated once per process)."""
        return _packaged()

    # -- the Mapping ---------------------------------------------------------------------------------------
    def __getitem__(self, monster_id: str) -> Monster:
        return self._by_id[monster_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def __repr__(self) -> str:
        return f"<Bestiary of {len(self)} monsters>"

    @overload
    def get(self, key: str, /) -> Monster: ...
    @overload
    def get(self, key: str, /, default: Monster | T) -> Monster | T: ...

    def get(self, key: str, /, default: Any = _MISSING) -> Any:
        """A monster by id or name, any case ("Giant rat", "giant-rat", "GIANT RAT"); with no default, an
        unknown one raises `UnknownMonsterError` naming the closest monsters."""
        found = self._index.get(_key(key)) if isinstance(key, str) else None
        if found is not None:
            return self._by_id[found]
        if default is not _MISSING:
            return default
        raise UnknownMonsterError(key if isinstance(key, str) else repr(key), self.close_names(key), len(self))

    def close_names(self, key: Any, n: int = 5) -> list[str]:
        """The names of the monsters closest to `key`: those it is part of, then the most alike."""
        if not isinstance(key, str) or not key.strip():
            return []
        wanted = _key(key)
        names = {_key(m.name): m.name for m in self._by_id.values()} | {m.id: m.name for m in self._by_id.values()}
        inside = [names[k] for k in sorted(names) if wanted in k]
        alike = [names[k] for k in close_matches(wanted, list(names), n=n, cutoff=0.6)]
        return list(dict.fromkeys([*inside, *alike]))[:n]

    def source_of(self, monster_id: str) -> str:
        """Where a monster came from: "packaged" or the referee's file."""
        return self._sources.get(monster_id, "packaged")

    # -- laying files over ---------------------------------------------------------------------------------
    def with_monsters(self, monsters: Iterable[Monster], source: str = "<memory>") -> Bestiary:
        """A new bestiary with these monsters added (a new id) or replacing the one of the same id."""
        merged = dict(self._by_id)
        sources = dict(self._sources)
        for m in monsters:
            merged[m.id] = m
            sources[m.id] = source
        return Bestiary(merged.values(), sources)

    def load_files(self, paths: Iterable[str | os.PathLike[str]]) -> Bestiary:
        """A new bestiary with a referee's monster files laid over this one: the same id replaces a monster,
        a new id adds one. Every file is validated before any takes effect; a file that does not is refused
        (`MonsterFileError`: path, entry, reason) and this bestiary is unchanged. An id may appear in only one
        of the files loaded together."""
        if isinstance(paths, str | bytes | os.PathLike) or not isinstance(paths, Iterable):
            raise FurnaceError("load_files takes a list of monster files' paths")
        files = list(paths)
        bad = [p for p in files if not isinstance(p, str | os.PathLike)]
        if bad:
            raise FurnaceError(f"a monster file is a path, not {type(bad[0]).__name__}")
        merged = dict(self._by_id)
        sources = dict(self._sources)
        loaded: dict[str, str] = {}
        for p in files:
            path = os.fspath(p)
            for n, m in enumerate(validate_entries(read_yaml(Path(path), "monster file"), path), 1):
                if m.id in loaded:
                    raise MonsterFileError(path, f"id {m.id!r} is also in {loaded[m.id]}; give each monster "
                                                 "once", n, m.id)
                loaded[m.id] = path
                merged[m.id] = m
                sources[m.id] = path
        return Bestiary(merged.values(), sources)


@cache
def _packaged() -> Bestiary:
    folder = packaged("monsters")
    monsters: list[Monster] = []
    sources: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            where = f"furnace/data/monsters/{entry.name}"
            for m in validate_entries(read_yaml(entry, "monster file"), where):
                if m.id in sources:
                    raise MonsterFileError(where, f"id {m.id!r} is also in {sources[m.id]}")
                sources[m.id] = where
                monsters.append(m)
    return Bestiary(monsters)


# -- a command line's monster list -------------------------------------------------------------------------

_ITEM = re.compile(r"^(?P<name>[^\W\d_](?:[^\W\d_]|['\- ])*?)(?:\s+[x×]\s*(?P<count>\d{1,6}))?$")
LIST_FORM = '"goblin x4, ogre": monster names or ids, each with an optional x and a count, separated by commas'


def parse_monsters(text: str, bestiary: Bestiary | None = None) -> list[tuple[Monster, int]]:
    """A monster list as typed on a command line (`--monsters "goblin x4, giant rat x2, ogre"`): each
    (Monster, count), in the order given, a monster named twice counted once with the counts added. A count
    is 1 to MAX_COUNT; bad syntax is refused with the form expected; an unknown name with the closest ones."""
    if not isinstance(text, str):
        raise FurnaceError(f"a monster list is text like {LIST_FORM}, not {type(text).__name__}")
    if len(text) > MAX_LIST_TEXT:
        raise FurnaceError(f"a monster list is at most {MAX_LIST_TEXT:,} characters; write it like {LIST_FORM}")
    book = Bestiary.packaged() if bestiary is None else bestiary
    counts: dict[str, int] = {}
    for part in text.split(","):
        item = part.strip()
        m = _ITEM.match(item)
        if not item or m is None or re.search(r"\s[x×]$", m.group("name")):
            shown = repr(item) if item else "an empty entry"
            raise FurnaceError(f"cannot read {shown} in the monster list {text.strip()[:80]!r}; write it like "
                               f"{LIST_FORM}")
        count = int(m.group("count") or 1)
        if not 1 <= count <= MAX_COUNT:
            raise FurnaceError(f"{item!r}: a count is 1 to {MAX_COUNT}, not {count}; write it like {LIST_FORM}")
        monster = book.get(m.group("name"))
        counts[monster.id] = counts.get(monster.id, 0) + count
        if counts[monster.id] > MAX_COUNT:
            raise FurnaceError(f"{monster.name} x{counts[monster.id]}: at most {MAX_COUNT} of one monster")
    return [(book[k], n) for k, n in counts.items()]


# -- the docs ----------------------------------------------------------------------------------------------

def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_list(bestiary: Bestiary | None = None) -> str:
    """The monsters as a Markdown table sorted by name (docs/monsters.md holds the packaged ones)."""
    lines = ["| Monster | id | HD | HP | AC | damage | morale | ROOM DC | XP | features | tags |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for m in listing(bestiary):
        r = row(m)
        lines.append(f"| {_cell(r['name'])} | `{r['id']}` | {r['hd']} | {r['hp']} | {r['ac']} | {_cell(r['damage'])} | "
                     f"{r['morale']} | {r['room_dc']} | {m.xp:,} | {r['features'] or '—'} | {r['tags'] or '—'} |")
    return "\n".join(lines) + "\n"


MAX_QUERY = 60


def listing(bestiary: Bestiary | None = None, query: str = "") -> list[Monster]:
    """The monsters sorted by name, as the list shows them; with `query`, those whose name, id or a tag holds it
    (any case): what the console's bestiary browser searches."""
    book = Bestiary.packaged() if bestiary is None else bestiary
    if len(query) > MAX_QUERY:
        raise FurnaceError(f"a search of the bestiary is at most {MAX_QUERY} characters")
    wanted = query.strip().lower()
    found = [m for m in book.values()
             if not wanted or wanted in m.name.lower() or wanted in m.id or any(wanted in t for t in m.tags)]
    return sorted(found, key=lambda m: (m.name.lower(), m.id))


def row(m: Monster) -> dict[str, Any]:
    """A monster's line of the list, each column in words: AC and morale as the ROOM DC sets them unless given."""
    return {"name": m.name, "id": m.id, "hd": str(m.hd), "hp": str(m.hp),
            "ac": "ROOM DC" if m.ac is None else str(m.ac),
            "damage": f"{m.damage} {m.weapon}" + (" (ranged)" if m.ranged else ""),
            "morale": "½ ROOM DC" if m.morale is None else str(m.morale), "room_dc": m.room_dc, "xp": m.xp,
            "features": ", ".join(m.features), "tags": ", ".join(m.tags), "description": m.description}
