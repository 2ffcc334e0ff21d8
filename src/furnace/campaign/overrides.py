"""A referee's own files kept in a campaign: tables, rule options, a profile, archetypes, spells, items, monsters.

An override is the file's text, kept in `CampaignState.overrides` under "kind:id" (`table:F-TAB-36`,
`spell:house:spell-frost-lance`, `option:house-rules`, `profile:grim`, `monster:cave-bear`), so the log
holds it and an export carries it. A file is validated when it is added, by the validators the loaders
use (`validate_table`, the profile and option checks of `load_ruleset`, the spell and item budgets, the
archetype rows), and again in the campaign it joins: a malformed file is refused with its path and reason,
and the campaign is left as it was. One rule option may also be set without a file (`set_option`, kept in
`CampaignState.options` and listed under "set:NAME", as `campaign new --option` keeps its options). Adding,
setting and removing are logged commands (`override add`, `override set`, `override remove`), so `undo` takes
them back.

`campaign_ruleset(state)` is the ruleset the campaign plays by: its profile (or the referee's profile
file), then the options set in the campaign, then the option files, with every override table laid over the
packaged ones by id; each option's value says where it comes from (`SET_SOURCE`, an option file's label, the
profile, the default). An option is set in one place only: a file and a `set` of the same option refuse each
other, so the order between them never decides a value. Table-like overrides share the table ids: a spell
file with the id of a table file replaces it. Monster files are checked minimally (a name, Hit Dice or hit
points, dice that parse) and kept for the bestiary to come; they change nothing in the ruleset yet.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace import files
from furnace.campaign.state import OVERRIDE_KINDS, CampaignError, CampaignState, Override
from furnace.campaign.store import Applied, Command, Store
from furnace.errors import DataFileError, FurnaceError, UnknownNameError, from_validation
from furnace.events import Event, declare
from furnace.play.registry import in_force
from furnace.rules.datafile import YAML_LIMIT, parse_yaml
from furnace.rules.ruleset import Profile, Ruleset, builtin_profiles, load_ruleset, option_specs, parse_override
from furnace.rules.tables import Table, TableSet, validate_table

TABLE_KINDS = ("table", "spell", "item", "archetype")
# the referee adds a file (`action`: add, the `key` it goes under, its kind `of`, `id` and `source` file, the keys it
# `replaces`) or removes one (remove: the `packaged` table in force again); the referee's own (a monster's file
# says what the party will meet)
OVERRIDE = declare("override", action="referee", key="referee", of="referee", id="referee", source="referee",
                   replaces="referee", packaged="referee",
                   example={"action": "add", "key": "table:F-TAB-36", "of": "table", "id": "F-TAB-36",
                            "source": "fumbles.yaml", "replaces": [], "packaged": True})
# the referee sets one rule option without a file (`action` set) or takes a set back (unset): the `option`, the
# `value` in force after and where it comes from (`source`), the value in force before (`was`, from `was_from`)
RULE_OPTION = declare("rule_option", action="referee", option="referee", value="referee", source="referee",
                      was="referee", was_from="referee",
                      example={"action": "set", "option": "hazards_light", "value": True,
                               "source": "campaign override set", "was": False, "was_from": "default"})
SET = "set"                             # the key of an option set without a file: "set:hazards_light"
SET_SOURCE = "campaign override set"    # where its value comes from, as `rules show` says
ORDER = {kind: i for i, kind in enumerate(OVERRIDE_KINDS)}
SLUG = re.compile(r"[^a-z0-9]+")
FILE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
WHAT = ("an override file holds one YAML mapping: a table (id, name, kind, rows), a profile (name, extends, "
        "options), rule options (option: value) or a monster (name, with hd or hp)")


class MonsterFile(BaseModel):
    """The least a monster file must say until the bestiary format comes: a name and its Hit Dice or hit
    points; what else it holds is kept as written."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    id: str | None = None
    name: str = Field(min_length=1, max_length=120)
    hd: int | float | str | None = None
    hp: int | str | None = None
    damage: str | None = None
    ac: int | None = None
    attack_bonus: int | None = None
    save_bonus: int | None = None
    morale: int | None = None


@dataclass(frozen=True)
class _Read:
    override: Override
    path: str                 # the file it was read from (a profile's tables come from their own files)


# -- reading one file ---------------------------------------------------------------------------------------
def read_override(path: str | os.PathLike[str], kind: str | None = None) -> list[Override]:
    """The override(s) a file makes, validated on its own; a profile file brings the table files it lists.

    The kind is told by the content (rows: a table, a spell, an item or an archetype by its name and data;
    option names only: rule options; name with hd or hp: a monster; name, extends, options: a profile)
    unless `kind` says it. Raises `DataFileError` naming the file and the reason.

    Example:
        read_override("house/fumbles.yaml")[0].id        # 'F-TAB-36'
    """
    return [r.override for r in _read(os.fspath(path), kind)]


def _read(where: str, kind: str | None) -> list[_Read]:
    if kind is not None and kind not in OVERRIDE_KINDS:
        raise CampaignError(f"unknown override kind {kind!r}: use one of {', '.join(OVERRIDE_KINDS)}")
    return _read_text(files.read_text(where, limit=YAML_LIMIT, what="the override file"), where, kind)


def _read_text(text: str, where: str, kind: str | None, *, beside: bool = True) -> list[_Read]:
    """The override(s) of a file's text; `beside`: a profile's tables are read from files beside it (never for a
    text sent without its folder, such as the console's: it names no file of the server's)."""
    if kind is not None and kind not in OVERRIDE_KINDS:
        raise CampaignError(f"unknown override kind {kind!r}: use one of {', '.join(OVERRIDE_KINDS)}")
    if len(text.encode("utf-8")) > YAML_LIMIT:
        raise CampaignError(f"an override file is at most {YAML_LIMIT:,} bytes")
    data = parse_yaml(text, where, "override file")
    found = kind or _kind_of(data, where)
    source = os.path.basename(where)
    if found in TABLE_KINDS:
        table = _table(data, where)
        actual = _table_kind(table)
        if kind not in (None, "table", actual):
            raise DataFileError(where, f"not {_a(kind)} file: {_how_told(kind)}")
        return [_Read(Override(kind=actual, id=table.id, text=text, source=source), where)]
    if found == "option":
        _options(data, where)
        return [_Read(Override(kind="option", id=_file_id(where), text=text, source=source), where)]
    if found == "monster":
        return [_Read(Override(kind="monster", id=_monster(data, where), text=text, source=source), where)]
    profile = _profile(data, where)
    if profile.tables and not beside:
        raise CampaignError(f"{where}: a profile that lists table files is added with its folder, from the command "
                            "line (`furnace campaign override add FILE`); add its tables one by one here")
    tables = [t for ref in profile.tables for t in _read(os.fspath(Path(where).parent / ref), "table")]
    return [_Read(Override(kind="profile", id=profile.name, text=text, source=source), where), *tables]


def _kind_of(data: Any, where: str) -> str:
    if not isinstance(data, dict) or not data:
        raise DataFileError(where, WHAT)
    if "rows" in data:
        return "table"
    specs = option_specs()
    if all(key in specs for key in data):
        return "option"
    if "name" in data and ("hd" in data or "hp" in data):
        return "monster"
    if "name" in data and set(data) <= set(Profile.model_fields):
        return "profile"
    if "name" not in data:
        unknown = next(str(key) for key in data if key not in specs)
        raise DataFileError(where, f"unknown rule option {unknown!r} (and no table rows, no monster or profile "
                                   "name): " + WHAT, unknown)
    raise DataFileError(where, f"not a table (no rows), a profile or a monster (no hd or hp): {WHAT}")


def _table(data: Any, where: str) -> Table:
    return validate_table(data, where)


def _table_kind(table: Table) -> str:
    from furnace.magic.items import is_item
    from furnace.magic.spells import is_spell

    if is_spell(table):
        return "spell"
    if is_item(table):
        return "item"
    return "archetype" if table.name.startswith("archetype-") else "table"


def _how_told(kind: str) -> str:
    return {"spell": "a spell is a keyed table named spell-… with data.spell_kind",
            "item": "an item is a keyed table named item-… with an 'item' row",
            "archetype": "an archetype is a keyed table named archetype-…"}.get(kind, WHAT)


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _options(data: Any, where: str) -> dict[str, Any]:
    """Rule-option overrides, checked as `load_ruleset` checks a profile's options."""
    if not isinstance(data, dict) or not data:
        raise DataFileError(where, "an option file holds a mapping of rule options to their values")
    specs = option_specs()
    for name, value in data.items():
        if name not in specs:
            raise DataFileError(where, f"unknown rule option {name!r}", str(name))
        try:
            specs[name].check(value)
        except FurnaceError as exc:   # RuleOptionError, or a dice option's expression that does not parse
            raise DataFileError(where, str(exc), name) from None
    return dict(data)


def _profile(data: Any, where: str) -> Profile:
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        raise from_validation(where, exc) from None
    known = builtin_profiles()
    if profile.extends is not None and profile.extends not in known:
        raise DataFileError(where, f"extends unknown profile {profile.extends!r}; known: {sorted(known)}")
    if profile.options:
        _options(profile.options, where)
    return profile


def _monster(data: Any, where: str) -> str:
    """One monster in the bestiary's format (docs/monsters.md), validated by the bestiary's own rules."""
    from furnace.rules.bestiary import validate_entries

    if isinstance(data, dict) and "monsters" not in data and "id" not in data and isinstance(data.get("name"), str):
        data = {"id": SLUG.sub("-", data["name"].lower()).strip("-"), **data}   # "Cave Bear" → cave-bear
    monsters = validate_entries([data] if isinstance(data, dict) and "monsters" not in data else data, where)
    if len(monsters) != 1:
        raise DataFileError(where, f"an override file holds one monster, not {len(monsters)}")
    return monsters[0].id


def _file_id(where: str) -> str:
    return FILE_ID.sub("-", Path(where).stem).strip("-.")[:64] or "options"


# -- the campaign's ruleset -------------------------------------------------------------------------------
def label(key: str, override: Override) -> str:
    """How an override is named in messages and as its tables' source: 'campaign override table:F-TAB-36
    (fumbles.yaml)'."""
    return f"campaign override {key}" + (f" ({override.source})" if override.source else "")


_rulesets: dict[tuple[str, str, tuple[tuple[str, str], ...]], Ruleset] = {}
_rulesets_lock = threading.Lock()


def campaign_ruleset(state: CampaignState) -> Ruleset:
    """The ruleset the campaign plays by (`ruleset_of`), kept for the profile, options and overrides it was made
    of: a server's every roll asks for it, and a Ruleset never changes (`with_options` makes a new one)."""
    key = (state.profile, json.dumps(state.options, sort_keys=True, default=str),
           tuple((k, o.model_dump_json()) for k, o in sorted(state.overrides.items())))
    with _rulesets_lock:
        known = _rulesets.get(key)
    if known is None:
        known = ruleset_of(state)            # a refusal is not kept: it is raised again at the next ask
        with _rulesets_lock:
            if len(_rulesets) >= 64:
                _rulesets.clear()
            _rulesets[key] = known
    return in_force(known)        # the registries list the chapters of its profile only


def ruleset_of(state: CampaignState) -> Ruleset:
    """The ruleset the campaign plays by, with the referee's overrides in force.

    The base is the campaign's profile, or the referee's profile override (laid over the built-in profile it
    extends); then the campaign's own options; then each option file; and every table, spell, item and
    archetype override replaces the packaged table of its id (or adds one). A table option must name a
    table in force.

    Example:
        rules = campaign_ruleset(store.open("keep"))
        rules.tables.roll("fumble", rng, key="none").row.text        # the referee's fumble table
    """
    tables: list[tuple[str, Table]] = []
    options: list[tuple[str, dict[str, Any]]] = []
    profile: Profile | None = None
    for key in sorted(state.overrides, key=_order):
        override = state.overrides[key]
        where = label(key, override)
        data = parse_yaml(override.text, where, "override file")
        if override.kind in TABLE_KINDS:
            tables.append((where, _table(data, where)))
        elif override.kind == "option":
            options.append((where, _options(data, where)))
        elif override.kind == "profile":
            if profile is not None:
                raise CampaignError(f"the campaign {state.name!r} has more than one profile override")
            profile = _profile(data, where)
    base = load_ruleset((profile.extends or "furnace") if profile else state.profile)
    table_set = base.tables
    for where, table in tables:
        table_set = table_set.with_table(table, where)
    rules = Ruleset(profile.name if profile else base.profile, base.values, table_set, base.chain)
    if profile is not None and profile.options:
        rules = rules.with_options(profile.options, f"profile {profile.name}")
    if state.options:
        rules = rules.with_options(state.options, SET_SOURCE)
    for where, chosen in options:
        rules = rules.with_options(chosen, where)
    for value in rules:
        if value.spec.type == "table":
            rules.tables.get(str(value.value))     # a table option must name a table in force
    return rules


def _order(key: str) -> tuple[int, str]:
    kind = key.split(":", 1)[0]
    return ORDER.get(kind, len(ORDER)), key


def list_overrides(state: CampaignState) -> list[Override]:
    """The campaign's overrides, by kind (tables, options, archetypes, spells, items, monsters, profile), then id.

    Example:
        [f"{o.kind}:{o.id} ({o.source})" for o in list_overrides(store.open("keep"))]
    """
    return [state.overrides[key] for key in sorted(state.overrides, key=_order)]


@dataclass(frozen=True)
class Listed:
    """One override as the referee reads it: its key ("kind:id", or "set:NAME" for an option set without a file),
    its kind ("set" for such an option), id, the file it came from ("" for a set) and a set option's value."""

    key: str
    kind: str
    id: str
    source: str = ""
    value: Any = None


def listed(state: CampaignState) -> list[Listed]:
    """Every override of the campaign: its files by kind and id (as `list_overrides`), then the options set in it.

    Example:
        [x.key for x in listed(store.open("keep"))]       # ['table:F-TAB-36', 'set:hazards_light']
    """
    files_ = [Listed(f"{o.kind}:{o.id}", o.kind, o.id, o.source) for o in list_overrides(state)]
    return files_ + [Listed(f"{SET}:{name}", SET, name, "", value) for name, value in sorted(state.options.items())]


@dataclass(frozen=True)
class ProfileInForce:
    """The profile the campaign's rules come from now: the one it began under (`began`), or the referee's
    profile override (`key`, its file `source`) laid over the built-in profile it `extends`."""

    name: str
    began: str
    key: str = ""
    source: str = ""
    extends: str = ""


def profile_in_force(state: CampaignState) -> ProfileInForce:
    """Which profile the campaign plays by after its overrides (a profile file replaces the one it began under).

    Example:
        profile_in_force(store.open("keep")).name          # 'grim', from grim.yaml, extending hazards
    """
    for key, override in state.overrides.items():
        if override.kind == "profile":
            profile = _profile(parse_yaml(override.text, label(key, override), "override file"), label(key, override))
            return ProfileInForce(profile.name, state.profile, key, override.source, profile.extends or "furnace")
    return ProfileInForce(state.profile, state.profile)


# -- adding and removing ------------------------------------------------------------------------------------
def add_override(store: Store, name: str, path: str | os.PathLike[str], *, kind: str | None = None) -> Applied:
    """Add a referee's file to the campaign (or replace the one of the same kind and id), as a logged command.

    The file is validated on its own and then in the campaign (the ruleset it makes must load; a spell's
    and an item's dice must add up; an archetype needs its basic and feature rows; an option file may not
    set an option another option file sets). A refused file changes nothing. A profile file brings the
    table files it lists; a second profile replaces the first.

    Example:
        add_override(store, "keep", "house/fumbles.yaml")        # table:F-TAB-36 replaces the packaged one
        add_override(store, "keep", "house/cave-bear.yaml", kind="monster")
    """
    where = os.fspath(path)
    return store.apply(name, "override add", _adding(_read(where, kind), where))


def adding_text(text: str, source: str, kind: str | None = None) -> Command:
    """The command `add_override` runs, for a file's text sent without the file (the console's form): `source`
    is the file's name the log and `override list` show; a profile that lists table files is refused."""
    where = os.path.basename(source.replace("\\", "/")) or "override.yaml"
    return _adding(_read_text(text, where, kind, beside=False), where)


def _adding(adding: list[_Read], where: str) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        overrides = dict(state.overrides)
        logged = []
        for read in adding:
            new = read.override
            key = f"{new.kind}:{new.id}"
            replaced = sorted(k for k, old in overrides.items() if _same_slot(new, old, k, key))
            for k in replaced:
                del overrides[k]
            if new.kind == "option":
                _no_clash(new, overrides, read.path, state.options)
            overrides[key] = new
            logged.append(Event(OVERRIDE, "", (), (), {"action": "add", "key": key, "of": new.kind, "id": new.id,
                                                       "source": new.source, "replaces": replaced},
                                audience="referee"))
        after = state.model_copy(update={"overrides": overrides})
        _check_in(after, adding, where)
        return after, logged

    return run


def _same_slot(new: Override, old: Override, old_key: str, key: str) -> bool:
    """Whether the new override takes the old one's place: the same key, a table of the same id (a spell,
    an item … are tables too), or a second profile."""
    if old_key == key:
        return True
    if new.kind in TABLE_KINDS and old.kind in TABLE_KINDS:
        return old.id == new.id
    return new.kind == old.kind == "profile"


def _no_clash(new: Override, overrides: dict[str, Override], where: str, options: dict[str, Any]) -> None:
    mine = set(_options(parse_yaml(new.text, where), where))
    both = sorted(mine & set(options))
    if both:
        raise DataFileError(where, f"option {both[0]} is set by {SET}:{both[0]} already: remove that override "
                                   f"first", both[0])
    for key, old in sorted(overrides.items()):
        if old.kind == "option":
            both = sorted(mine & set(_options(parse_yaml(old.text, key), key)))
            if both:
                raise DataFileError(where, f"option {both[0]} is set by {key} already: remove that override "
                                           f"(or edit it) first", both[0])


def _check_in(state: CampaignState, adding: list[_Read], where: str) -> None:
    """The new overrides, checked in the campaign: its ruleset loads, and each spell, item and archetype holds."""
    from furnace.characters.character import archetype_table
    from furnace.magic.items import item_from_table
    from furnace.magic.spells import spell_from_table

    own = {label(f"{r.override.kind}:{r.override.id}", r.override) for r in adding}
    for read in adding:
        new = read.override
        with _blame(read.path, state, own):
            rules = campaign_ruleset(state)
            if new.kind in TABLE_KINDS:
                table = rules.tables.get(new.id)
                if new.kind == "spell":
                    spell_from_table(table, rules)
                elif new.kind == "item":
                    item_from_table(table, rules)
                elif new.kind == "archetype":
                    archetype_table(rules, table.name.removeprefix("archetype-"))


@contextmanager
def _blame(path: str, state: CampaignState, own: set[str]) -> Iterator[None]:
    """Errors found in the campaign, told as errors of the file being added (naming the other file if any)."""
    try:
        yield
    except DataFileError as exc:
        also = "" if exc.path in own or exc.path == path else f" (with {exc.path})"
        raise DataFileError(path, f"{exc.reason}{also}", exc.row) from None
    except FurnaceError as exc:
        raise DataFileError(path, f"in the campaign {state.name!r}: {exc}") from None


def remove_override(store: Store, name: str, key: str) -> Applied:
    """Remove an override by its key ("kind:id", or "set:NAME" for an option set without a file, as `listed`
    shows), as a logged command.

    Refused, changing nothing, when the campaign's ruleset needs it (an option file names its table).

    Example:
        remove_override(store, "keep", "table:F-TAB-36")          # the packaged fumble table is back
        remove_override(store, "keep", "set:hazards_light")       # the profile's value is back
    """
    return store.apply(name, "override remove", removing(key))


def removing(key: str) -> Command:
    """The command `remove_override` runs (the console's route runs it too)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        if key.startswith(f"{SET}:") and key.removeprefix(f"{SET}:") in state.options:
            return _unset(state, key.removeprefix(f"{SET}:"))
        if key not in state.overrides:
            raise UnknownNameError("override", key, [x.key for x in listed(state)])
        gone = state.overrides[key]
        after = state.model_copy(update={"overrides": {k: v for k, v in state.overrides.items() if k != key}})
        try:
            campaign_ruleset(after)
        except FurnaceError as exc:
            raise CampaignError(f"cannot remove {key} from {state.name!r}: the campaign needs it ({exc})") from None
        back = gone.kind in TABLE_KINDS and any(t.id == gone.id for t in TableSet.packaged())
        return after, [Event(OVERRIDE, "", (), (), {"action": "remove", "key": key, "of": gone.kind, "id": gone.id,
                                                    "source": gone.source, "packaged": back}, audience="referee")]

    return run


# -- one option without a file ---------------------------------------------------------------------------------
def set_option(store: Store, name: str, setting: str) -> Applied:
    """Set one rule option in the campaign without a file, as a logged command (`campaign undo`, or
    `remove_override(store, name, "set:NAME")`, takes it back).

    `setting` is "NAME=VALUE", read by the option's declared type as `--option` is (a table option against the
    campaign's tables). Refused, changing nothing, for an unknown option, a value the option does not take, or an
    option one of the campaign's option files sets (remove that file, or edit it and add it again). Setting an
    option set before replaces its value.

    Example:
        set_option(store, "keep", "hazards_light=true")     # torches burn down on the clock (H-LIGHT-02)
    """
    return store.apply(name, "override set", setting_option(setting))


def setting_option(setting: str) -> Command:
    """The command `set_option` runs (the console's route runs it too)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        before = campaign_ruleset(state)
        option, value = parse_override(setting, tables=before.tables)
        for key, override in sorted(state.overrides.items()):
            if override.kind == "option" and option in _options(parse_yaml(override.text, key), key):
                raise CampaignError(f"option {option} is set by {key} ({override.source or 'no file'}) already: "
                                    "remove that override, or edit its file and add it again")
        after = state.model_copy(update={"options": {**state.options, option: value}})
        return after, [_option_fact("set", option, before, campaign_ruleset(after))]

    return run


def _unset(state: CampaignState, option: str) -> tuple[CampaignState, list[Event]]:
    after = state.model_copy(update={"options": {k: v for k, v in state.options.items() if k != option}})
    try:
        now = campaign_ruleset(after)
    except FurnaceError as exc:
        raise CampaignError(f"cannot remove {SET}:{option} from {state.name!r}: the campaign needs it "
                            f"({exc})") from None
    return after, [_option_fact("unset", option, campaign_ruleset(state), now)]


def _option_fact(action: str, option: str, before: Ruleset, now: Ruleset) -> Event:
    was, value = before.option(option), now.option(option)
    return Event(RULE_OPTION, "", (), (), {"action": action, "option": option, "value": value.value,
                                          "source": value.source, "was": was.value, "was_from": was.source},
                 ("F-BASE-01",), audience="referee")


__all__ = ["Listed", "ProfileInForce", "add_override", "adding_text", "campaign_ruleset", "list_overrides", "listed",
           "profile_in_force", "read_override", "remove_override", "removing", "set_option", "setting_option"]
