"""Rule options and profiles: every point where the documents disagree or are unclear is a named option.

The options are declared in `data/options.yaml` (name, choices, default, the RULES.md ids behind it).
A profile (`data/profiles/*.yaml`) sets some of them and may extend another profile; the built-in ones
are `furnace` (the default reading of every option), `hazards` and `middle-sea`. A referee's profile file
extends one of these and overrides options and tables by id. Rules read options, never profile names:

    rules = load_ruleset("middle-sea")
    DEATH_MODELS[rules["death_model"]](...)
"""

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.errors import DataFileError, DiceError, FurnaceError, RuleOptionError, UnknownNameError, from_validation
from furnace.rules.datafile import close_matches, packaged, read_yaml
from furnace.rules.effects import Ability, shown
from furnace.rules.tables import TableSet

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

OptionType = Literal["choice", "bool", "int", "table", "dice", "text"]

# The rules' own ranges of the whole-number options (an option file may declare `minimum`/`maximum` itself).
# Times and intervals are positive; "X in 6" chances run 0-6; DCs run 1-40 (a d20 + 20 at most).
INT_RANGES: dict[str, tuple[int, int]] = {
    "rage_uses_per_long_rest": (0, 20),
    "skill_challenge_failures": (1, 20),
    "hazard_save_dc": (1, 40),
    "item_save_dc_wood": (1, 40),
    "item_save_dc_metal": (1, 40),
    "exploration_turn_minutes": (1, 24 * 60),       # at most a day
    "round_seconds": (1, 3600),                     # at most an hour
    "surprise_chance": (0, 6),
    "torso_injury_rest_days": (1, 365),
    "zero_level_heal_cap": (0, 20),
    "loh_nat20_extra_hd": (0, 20),
    "mishap_condition_duration": (1, 100),
    "disease_loss_per_failure": (0, 20),
    "drunk_duration_hours": (1, 7 * 24),
    "helmet_hit_chance": (0, 6),
}
DEFAULT_INT_RANGE = (0, 1000)      # a whole-number option that declares no range of its own
MAX_PROFILE_TABLES = 100           # table files one profile lays over the packaged ones
MAX_TEXT = 200                     # characters in a text option's value
MAX_OVERRIDE = 400                 # characters in one NAME=VALUE override
BOOL_WORDS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
_INT = re.compile(r"[+-]?\d{1,12}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class UnknownOptionError(UnknownNameError, RuleOptionError):
    """A rule option name that does not exist; the message names the closest ones."""

    def __init__(self, name: object, known: Iterable[str]) -> None:
        names = sorted(known)
        label = name[:80] if isinstance(name, str) else shown(name)
        close = close_matches(str(name), names, n=5, cutoff=0.6) if isinstance(name, str) else []
        close += [k for k in names if isinstance(name, str) and name and name in k and k not in close][:5 - len(close)]
        if close:
            hint = f"did you mean {', '.join(close)}?"
        else:
            more = f" … and {len(names) - 12} more" if len(names) > 12 else ""
            hint = f"the options are {', '.join(names[:12])}{more}"
        self.kind, self.name = "rule option", label
        FurnaceError.__init__(self, f"unknown rule option {label!r}; {hint} (`furnace rules list` shows them all)")


class OptionSpec(BaseModel):
    """One named rule option."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)
    title: str
    type: OptionType = "choice"
    choices: list[Any] = Field(default_factory=list)
    default: Any
    minimum: int | None = None                            # an int option's range (else INT_RANGES)
    maximum: int | None = None
    sources: list[str] = Field(default_factory=list)     # CF-nn, AMB-nn, D-n and rule ids
    read_by: str = ""                                     # the module that reads it
    description: str = ""

    def int_range(self) -> tuple[int, int]:
        """The lowest and highest value a whole-number option accepts."""
        lo, hi = INT_RANGES.get(self.name, DEFAULT_INT_RANGE)
        return (lo if self.minimum is None else self.minimum, hi if self.maximum is None else self.maximum)

    def allowed(self) -> str:
        """What this option accepts, in words, for error messages."""
        if self.type == "choice":
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.type == "bool":
            return "true or false"
        if self.type == "int":
            lo, hi = self.int_range()
            return f"a whole number from {lo} to {hi}"
        if self.type == "table":
            return "the id or name of a table in force (`furnace table list`)"
        if self.type == "dice":
            return "a dice expression such as d6 or 2d4+1 (at most 1,000 dice of 10,000 sides, 256 characters)"
        return f"text of at most {MAX_TEXT} characters"

    def check(self, value: Any, where: str = "", tables: TableSet | None = None) -> Any:
        """The value if this option accepts it, else a `RuleOptionError` naming the option and what it accepts.
        A table option is checked against `tables` when given (`load_ruleset` and `with_options` give it)."""
        at = f" ({where})" if where else ""

        def refuse(why: str = "") -> RuleOptionError:
            return RuleOptionError(f"option {self.name}{at}: {shown(value)} is not {self.allowed()}{why}")

        if self.type == "choice":
            if not any(type(c) is type(value) and c == value for c in self.choices):
                raise refuse()
        elif self.type == "bool":
            if not isinstance(value, bool):
                raise refuse()
        elif self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise refuse()
            lo, hi = self.int_range()
            if not lo <= value <= hi:
                raise refuse()
        elif self.type == "text":
            if not isinstance(value, str) or len(value) > MAX_TEXT or _CONTROL.search(value):
                raise refuse()
        elif self.type == "dice":
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise refuse()
            from furnace import dice

            try:
                dice.parse(str(value))
            except DiceError as exc:
                raise refuse(f": {exc}") from None
        elif self.type == "table":
            if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
                raise refuse()
            if tables is not None:
                try:
                    tables.get(value)
                except UnknownNameError:
                    ids = ", ".join(t.id for t in tables)
                    raise RuleOptionError(f"option {self.name}{at}: {value!r} is not a table in force; "
                                          f"the tables are {ids}") from None
        return value

    def parse(self, text: str, tables: TableSet | None = None) -> Any:
        """A value typed as text (`--option NAME=VALUE`) read as this option's type, then checked."""
        raw = text.strip()
        value: Any = raw
        if self.type == "choice":
            exact = [c for c in self.choices if str(c) == raw]
            loose = [c for c in self.choices if str(c).lower() == raw.lower()]
            if exact or len(loose) == 1:
                value = (exact or loose)[0]
        elif self.type == "bool":
            value = BOOL_WORDS.get(raw.lower(), raw)
        elif self.type == "int" and _INT.fullmatch(raw):
            value = int(raw)
        elif self.type == "table" and tables is not None and raw:
            try:
                value = tables.get(raw).id
            except UnknownNameError:
                value = raw          # `check` says which tables there are
        elif self.type == "text":
            value = text
        return self.check(value, "override", tables)


def parse_override(text: object, specs: Mapping[str, OptionSpec] | None = None,
                   tables: TableSet | None = None) -> tuple[str, Any]:
    """One `NAME=VALUE` override (a `--option`) as the option's name and its value, read by the option's
    declared type: `choice` (one of its choices), `bool` (true/false, yes/no, on/off), `int` (a whole number
    in the option's range), `table` (a table in `tables`, by default the packaged ones), `dice` (an expression within
    the dice limits) or `text`. An unknown name or a wrong value is a `RuleOptionError` that says what the
    option accepts; nothing is parsed as YAML, so no value can be a list, a mapping or a document."""
    if not isinstance(text, str):
        raise RuleOptionError(f"an option override is text NAME=VALUE, not {type(text).__name__}")
    if len(text) > MAX_OVERRIDE:
        raise RuleOptionError(f"an option override is at most {MAX_OVERRIDE} characters, not {len(text):,}")
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RuleOptionError(f"an option override is NAME=VALUE, e.g. enemy_morale=true; not {text!r}")
    specs = _SPECS() if specs is None else specs
    tables = TableSet.packaged() if tables is None else tables
    key = name.strip().lower().replace("-", "_")
    if key not in specs:
        raise UnknownOptionError(name.strip(), specs)
    return key, specs[key].parse(value, tables)


def parse_overrides(pairs: Iterable[str], specs: Mapping[str, OptionSpec] | None = None,
                    tables: TableSet | None = None) -> dict[str, Any]:
    """Several `NAME=VALUE` overrides (see `parse_override`); a later one for the same name wins."""
    if isinstance(pairs, str | bytes):
        raise RuleOptionError("option overrides are a list of NAME=VALUE texts, not one text")
    return dict(parse_override(p, specs, tables) for p in pairs)


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_. -]*$")
    title: str = Field("", max_length=200)
    extends: str | None = Field(None, min_length=1, max_length=64)
    description: str = Field("", max_length=4000)
    options: dict[str, Any] = Field(default_factory=dict)
    # a referee's table files, relative to the profile
    tables: list[str] = Field(default_factory=list, max_length=MAX_PROFILE_TABLES)


@dataclass(frozen=True)
class OptionValue:
    spec: OptionSpec
    value: Any
    source: str          # "default", "profile hazards", "profile ./my.yaml", "override"


# the four categories of 'save vs. X' (D-5), each the option naming its ability
SAVE_VS_OPTIONS = {"poison": "save_vs_poison", "paralysis": "save_vs_paralysis", "death": "save_vs_death",
                   "fear": "save_vs_fear"}


@dataclass(frozen=True)
class Ruleset:
    """The options and tables in force for a campaign. Immutable: `with_options` makes a new one."""

    profile: str
    values: Mapping[str, OptionValue]
    tables: TableSet = field(repr=False)
    # the built-in profiles it is made of, base first (`furnace`, `hazards`): whose chapters are in force
    # (`furnace.play.registry.in_force`); () when unknown (a ruleset made by hand): every chapter is
    chain: tuple[str, ...] = field(default=(), compare=False)
    # each option's value by name, resolved once: the engine reads options hundreds of times a fight
    _resolved: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        resolved = {name: v.value for name, v in self.values.items()} if isinstance(self.values, Mapping) else {}
        object.__setattr__(self, "_resolved", resolved)

    def __getitem__(self, name: str) -> Any:
        try:
            return self._resolved[name]
        except (KeyError, TypeError):
            return self.option(name).value      # unknown: refused, naming the options

    def option(self, name: str) -> OptionValue:
        try:
            return self.values[name]
        except (KeyError, TypeError):
            raise UnknownOptionError(name, self.values) from None

    def __iter__(self) -> Any:
        return iter(self.values.values())

    def save_vs(self, category: str | None) -> Ability | None:
        """D-5 (AMB-05): the ability SAVE that 'save vs. poison/paralysis/death/fear' is, as the profile
        reads it; None for any other category (a crushing blow, magic …) or none."""
        option = SAVE_VS_OPTIONS.get(category or "")
        return None if option is None else cast(Ability, self[option])   # the option's choices are abilities

    def with_options(self, overrides: Mapping[str, Any], source: str = "override") -> "Ruleset":
        """A new ruleset with these options changed; each value is checked (a table option against the
        tables in force) and an unknown name or a wrong value is a `RuleOptionError`."""
        if not isinstance(overrides, Mapping):
            raise RuleOptionError(f"option overrides are a mapping of option names to values, "
                                  f"not {type(overrides).__name__}")
        if not isinstance(source, str):
            raise RuleOptionError(f"an override's source is text, not {type(source).__name__}")
        values = dict(self.values)
        for name, value in overrides.items():
            spec = self.option(name).spec
            values[name] = OptionValue(spec, spec.check(value, source, self.tables), source)
        return Ruleset(self.profile, values, self.tables, self.chain)

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile,
                "options": {n: {"value": v.value, "source": v.source} for n, v in self.values.items()}}


def _validation(path: str, exc: ValidationError, row: int | str | None = None) -> DataFileError:
    return from_validation(path, exc, row)


def option_specs() -> dict[str, OptionSpec]:
    """Every option, from the packaged `options.yaml`."""
    return dict(_SPECS())


def _specs_from(data: Any, path: str) -> dict[str, OptionSpec]:
    """The options declared in an options file; each default must be a value its option accepts."""
    if not isinstance(data, dict) or not isinstance(data.get("options"), list):
        raise DataFileError(path, "an options file holds a list under 'options'")
    specs: dict[str, OptionSpec] = {}
    for i, item in enumerate(data["options"], 1):
        try:
            spec = OptionSpec.model_validate(item)
        except ValidationError as exc:
            raise _validation(path, exc, i) from None
        if spec.name in specs:
            raise DataFileError(path, f"option {spec.name} declared twice", i)
        try:
            spec.check(spec.default, "its default")
        except RuleOptionError as exc:
            raise DataFileError(path, str(exc), i) from None
        specs[spec.name] = spec
    return specs


_CACHE: dict[str, Any] = {}


def _SPECS() -> dict[str, OptionSpec]:
    if "specs" not in _CACHE:
        from furnace.rules.cache import cached

        entry = packaged("options.yaml")     # 64 KB: ~10 ms to parse each command
        _CACHE["specs"] = cached("options", entry, lambda: _specs_from(read_yaml(entry, "rule options"),
                                                                         "furnace/data/options.yaml"))
    specs: dict[str, OptionSpec] = _CACHE["specs"]
    return specs


def builtin_profiles() -> dict[str, Profile]:
    if "profiles" not in _CACHE:
        from furnace.rules.cache import cached

        folder = packaged("profiles")
        _CACHE["profiles"] = cached("profiles", folder, lambda: _read_profiles(folder))
    profiles: dict[str, Profile] = _CACHE["profiles"]
    return profiles


def _read_profiles(folder: "Traversable") -> dict[str, Profile]:
    found: dict[str, Profile] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            found_profile = _profile_from(read_yaml(entry, "profile"), f"furnace/data/profiles/{entry.name}")
            found[found_profile.name] = found_profile
    return found


def _profile_from(data: Any, path: str) -> Profile:
    if not isinstance(data, dict):
        raise DataFileError(path, "a profile holds one mapping with a name and options")
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise _validation(path, exc) from None


def _chain(profile: Profile, profiles: Mapping[str, Profile], path: str) -> list[tuple[Profile, str]]:
    """The profile and its ancestors, base first; a loop or an unknown parent is refused naming `path`."""
    chain: list[tuple[Profile, str]] = [(profile, path)]
    seen = [profile.name]
    while (parent := chain[0][0].extends) is not None:
        if parent not in profiles:
            raise DataFileError(chain[0][1], f"field extends: unknown profile {parent!r}; the profiles are "
                                f"{', '.join(sorted(profiles))}")
        if parent in seen or len(seen) > len(profiles):
            raise DataFileError(path, f"field extends: the profiles extend each other in a loop: "
                                f"{' → '.join([*seen, parent])}")
        seen.append(parent)
        chain.insert(0, (profiles[parent], f"furnace/data/profiles/{parent}.yaml"))
    return chain


def load_ruleset(profile: str | os.PathLike[str] = "furnace", overrides: Mapping[str, Any] | None = None,
                 table_files: Iterable[str | Path] = ()) -> Ruleset:
    """The ruleset of a built-in profile name or a referee's profile file, with optional overrides.

    Every option value is checked against its declared type and range (a table option must name a table
    in force); anything wrong is a `FurnaceError`: `DataFileError` naming the file for a profile,
    `RuleOptionError` for an override, `UnknownNameError` for a profile that is neither built in nor a file."""
    if not isinstance(profile, str | os.PathLike):
        raise RuleOptionError(f"a profile is a built-in name ({', '.join(builtin_profiles())}) or a file's path, "
                              f"not {type(profile).__name__}")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RuleOptionError(f"option overrides are a mapping of option names to values, "
                              f"not {type(overrides).__name__}")
    if isinstance(table_files, str | bytes | os.PathLike) or not isinstance(table_files, Iterable):
        raise RuleOptionError("table_files is a list of table files' paths")
    specs = _SPECS()
    profiles = builtin_profiles()
    extra_tables: list[str | Path] = []
    name = os.fspath(profile)
    if isinstance(name, str) and name in profiles:
        chosen, path = profiles[name], f"furnace/data/profiles/{name}.yaml"
    else:
        if not isinstance(name, str) or not _is_file(name):
            raise UnknownNameError("profile", str(name), sorted(profiles))
        file = Path(name)
        chosen, path = _profile_from(read_yaml(file, "profile"), str(file)), str(file)
        extra_tables = [file.parent / t for t in chosen.tables]
    values = {name: OptionValue(spec, spec.default, "default") for name, spec in specs.items()}
    chain = _chain(chosen, profiles, path)
    tables = TableSet.packaged().load_files([*extra_tables, *table_files])
    for member, member_path in chain:
        for option, value in member.options.items():
            if option not in specs:
                raise DataFileError(member_path, str(UnknownOptionError(option, specs)), str(option))
            try:
                values[option] = OptionValue(specs[option], specs[option].check(value, "", tables),
                                             f"profile {member.name}")
            except RuleOptionError as exc:
                raise DataFileError(member_path, str(exc), option) from None
    rules = Ruleset(chosen.name, values, tables, tuple(m.name for m, _ in chain if m.name in profiles))
    return rules.with_options(overrides, "override") if overrides else rules


def _is_file(name: str) -> bool:
    """Whether a profile name is a path to an existing file (a name with a NUL byte is not)."""
    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False
