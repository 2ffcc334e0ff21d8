"""Rule options and profiles: every point where the documents disagree or are unclear is a named option.

The options are declared in `data/options.yaml` (name, choices, default, the RULES.md ids behind it).
A profile (`data/profiles/*.yaml`) sets some of them and may extend another profile; the built-in ones
are `furnace` (the default reading of every option), `hazards` and `middle-sea`. A referee's profile file
extends one of these and overrides options and tables by id. Rules read options, never profile names:

    rules = load_ruleset("middle-sea")
    DEATH_MODELS[rules["death_model"]](...)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.errors import DataFileError, RuleOptionError, UnknownNameError, from_validation
from furnace.rules.datafile import read_yaml
from furnace.rules.tables import TableSet

OptionType = Literal["choice", "bool", "int", "table", "dice", "text"]


class OptionSpec(BaseModel):
    """One named rule option."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    title: str
    type: OptionType = "choice"
    choices: list[Any] = Field(default_factory=list)
    default: Any
    sources: list[str] = Field(default_factory=list)     # CF-nn, AMB-nn, D-n and rule ids
    read_by: str = ""                                     # the module that reads it
    description: str = ""

    def check(self, value: Any, where: str = "") -> Any:
        """The value if this option accepts it, else a `RuleOptionError` saying what it accepts."""
        at = f" ({where})" if where else ""
        if self.type == "choice" and value not in self.choices:
            raise RuleOptionError(f"option {self.name}{at}: {value!r} is not one of {self.choices}")
        if self.type == "bool" and not isinstance(value, bool):
            raise RuleOptionError(f"option {self.name}{at}: {value!r} is not true or false")
        if self.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleOptionError(f"option {self.name}{at}: {value!r} is not a whole number")
        if self.type == "dice":
            from furnace import dice

            dice.parse(str(value))
        return value


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    title: str = ""
    extends: str | None = None
    description: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    tables: list[str] = Field(default_factory=list)       # a referee's table files, relative to the profile


@dataclass(frozen=True)
class OptionValue:
    spec: OptionSpec
    value: Any
    source: str          # "default", "profile hazards", "profile ./my.yaml", "override"


@dataclass(frozen=True)
class Ruleset:
    """The options and tables in force for a campaign. Immutable: `with_options` makes a new one."""

    profile: str
    values: Mapping[str, OptionValue]
    tables: TableSet = field(repr=False)

    def __getitem__(self, name: str) -> Any:
        return self.option(name).value

    def option(self, name: str) -> OptionValue:
        try:
            return self.values[name]
        except KeyError:
            raise UnknownNameError("rule option", name, sorted(self.values)) from None

    def __iter__(self) -> Any:
        return iter(self.values.values())

    def with_options(self, overrides: Mapping[str, Any], source: str = "override") -> Ruleset:
        values = dict(self.values)
        for name, value in overrides.items():
            spec = self.option(name).spec
            values[name] = OptionValue(spec, spec.check(value, source), source)
        return Ruleset(self.profile, values, self.tables)

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile,
                "options": {n: {"value": v.value, "source": v.source} for n, v in self.values.items()}}


def _validation(path: str, exc: ValidationError, row: int | str | None = None) -> DataFileError:
    return from_validation(path, exc, row)


def option_specs() -> dict[str, OptionSpec]:
    """Every option, from the packaged `options.yaml`."""
    return dict(_SPECS())


def _specs_from(data: Any, path: str) -> dict[str, OptionSpec]:
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
        entry = resources.files("furnace") / "data" / "options.yaml"
        _CACHE["specs"] = _specs_from(read_yaml(entry, "rule options"), "furnace/data/options.yaml")
    specs: dict[str, OptionSpec] = _CACHE["specs"]
    return specs


def builtin_profiles() -> dict[str, Profile]:
    if "profiles" not in _CACHE:
        folder = resources.files("furnace") / "data" / "profiles"
        found: dict[str, Profile] = {}
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".yaml"):
                found_profile = _profile_from(read_yaml(entry, "profile"), f"furnace/data/profiles/{entry.name}")
                found[found_profile.name] = found_profile
        _CACHE["profiles"] = found
    profiles: dict[str, Profile] = _CACHE["profiles"]
    return profiles


def _profile_from(data: Any, path: str) -> Profile:
    if not isinstance(data, dict):
        raise DataFileError(path, "a profile holds one mapping with a name and options")
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise _validation(path, exc) from None


def _chain(profile: Profile, profiles: Mapping[str, Profile], path: str) -> list[tuple[Profile, str]]:
    """The profile and its ancestors, base first."""
    chain: list[tuple[Profile, str]] = [(profile, path)]
    seen = {profile.name}
    while (parent := chain[0][0].extends) is not None:
        if parent not in profiles:
            raise DataFileError(chain[0][1], f"extends unknown profile {parent!r}; known: {sorted(profiles)}")
        if parent in seen:
            raise DataFileError(chain[0][1], f"profiles extend each other in a loop at {parent!r}")
        seen.add(parent)
        chain.insert(0, (profiles[parent], f"furnace/data/profiles/{parent}.yaml"))
    return chain


def load_ruleset(profile: str = "furnace", overrides: Mapping[str, Any] | None = None,
                 table_files: Iterable[str | Path] = ()) -> Ruleset:
    """The ruleset of a built-in profile name or a referee's profile file, with optional overrides."""
    specs = _SPECS()
    profiles = builtin_profiles()
    extra_tables: list[str | Path] = []
    if profile in profiles:
        chosen, path = profiles[profile], f"furnace/data/profiles/{profile}.yaml"
    else:
        file = Path(profile)
        if not file.exists():
            raise UnknownNameError("profile", profile, sorted(profiles))
        chosen, path = _profile_from(read_yaml(file, "profile"), str(file)), str(file)
        extra_tables = [file.parent / t for t in chosen.tables]
    values = {name: OptionValue(spec, spec.default, "default") for name, spec in specs.items()}
    for member, member_path in _chain(chosen, profiles, path):
        for name, value in member.options.items():
            if name not in specs:
                raise DataFileError(member_path, f"unknown rule option {name!r}", name)
            try:
                values[name] = OptionValue(specs[name], specs[name].check(value), f"profile {member.name}")
            except RuleOptionError as exc:
                raise DataFileError(member_path, str(exc), name) from None
    tables = TableSet.packaged().load_files([*extra_tables, *table_files])
    rules = Ruleset(chosen.name, values, tables)
    for value in values.values():
        if value.spec.type == "table":
            tables.get(str(value.value))  # a table option must name a table in force
    return rules.with_options(overrides, "override") if overrides else rules
