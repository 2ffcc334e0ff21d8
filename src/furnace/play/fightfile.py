"""Fight files: a YAML description of an encounter (party from character files, monsters inline).

    room_dc: 12
    initiative: group            # or simultaneous (F-INIT-02); left out: the option initiative_model (CF-53)
    surprised: [goblins]         # sides that lose the first round (F-SURP-01)
    party:
      - {file: characters/brakka.json, zone: NEAR}
    monsters:
      - {name: Goblin, count: 4, hp: 1d6, damage: 1d6, zone: NEAR}

AC, attack and save bonuses of monsters default to the ROOM DC (D-2, options monster_attack_bonus and
monster_save_bonus). A malformed file is refused
with its path and the field (an unknown field with the fields allowed there, an unknown zone with the
zones). A party file is read from the fight file's folder and may not lead out of it unless the caller
allows it (`furnace fight --allow-outside`); a fight holds at most `MAX_COMBATANTS`, counted before any
is built.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from furnace import dice, files
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import DataFileError, FurnaceError, from_validation
from furnace.play.combatant import ZONES, Combatant, Zone, from_character, hp_dice, monster
from furnace.play.frozen import updated
from furnace.play.state import Encounter
from furnace.rules import datafile
from furnace.rules.cache import parsed_text, validated_text
from furnace.rules.datafile import YAML_LIMIT, loader, parse_yaml
from furnace.rules.hit_dice import hd_value
from furnace.rules.ruleset import Ruleset

_SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the source of a fight file's validation: this module, the zones (`furnace.play.combatant`), the YAML reader and the
# Hit Dice's (`furnace.rules`), the dice, the errors
_VALIDATING = (__file__, *(os.path.join(_SOURCE, part) for part in (
    os.path.join("play", "combatant.py"), "rules", "dice", "errors.py")))

MAX_COMBATANTS = 500     # a fight of 500 takes about two seconds for 20 rounds; more is not a fight file's


def _zone(value: Any) -> Any:
    """A zone of the list (any case): NEAR, near → NEAR; anything else is refused with the zones."""
    text = value.strip().upper() if isinstance(value, str) else value
    if text not in ZONES:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"unknown zone {shown}; the zones are {', '.join(ZONES)}")
    return text


KnownZone = Annotated[Zone, BeforeValidator(_zone)]


def _hit_dice(value: Any) -> Any:
    """Hit Dice as the bestiary writes them (7, 0.5, "1/2", "1-1"): a monster under 1 HD is a mook for the
    Middle Sea fighters' extra attacks (M-MOOK-02), so a fight file must be able to say so."""
    try:
        hd_value(value)
    except FurnaceError as exc:
        raise ValueError(str(exc)) from None
    return value


HitDice = Annotated[int | float | str, BeforeValidator(_hit_dice)]


class PartyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    file: str
    zone: KnownZone = "NEAR"
    side: str = "party"


class MonsterEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    name: str
    count: int = Field(1, ge=1, le=100)
    hp: str = "1d8"
    hd: HitDice = 1
    damage: str = "1d6"
    weapon: str = "attack"
    ac: int | None = None
    attack_bonus: int | None = None
    save_bonus: int | None = None
    ranged: bool = False
    armor: Literal["none", "light", "heavy"] = "none"
    morale: int | None = None
    zone: KnownZone = "NEAR"
    side: str = "monsters"
    named: bool = False          # an NPC the referee names (REF-42, M-MOOK-01): rolls the grievous table

    @field_validator("hp", "damage", mode="before")
    @classmethod
    def dice_text(cls, value: Any) -> str:
        text = str(value)
        try:
            dice.parse(text)
        except FurnaceError as exc:
            raise ValueError(str(exc)) from None
        return text


class FightFile(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    name: str = "a fight"
    room_dc: int = Field(12, ge=1, le=40)
    initiative: Literal["group", "simultaneous"] | None = None   # None: the option initiative_model (CF-53)
    surprised: list[str] = Field(default_factory=list)
    party: list[PartyEntry] = Field(min_length=1)
    monsters: list[MonsterEntry] = Field(min_length=1)


def load_fight(path: str | Path) -> FightFile:
    """A fight file, validated; at most MAX_COMBATANTS combatants (the party and every monster's count). A text
    validated before (by this code and this Pydantic) is read from the cache (`furnace.rules.cache.validated_text`):
    a referee fights one fight file seed after seed, and building Pydantic's validator of a fight file (its fields'
    default factories asked for their signatures, which compiles `tokenize`'s patterns) is ~12 ms of `furnace fight`."""
    from pydantic import VERSION

    file = Path(path)
    text = files.read_text(file, limit=YAML_LIMIT, what="the fight file")
    fight = validated_text("fight-files", text, lambda t: _validated(file, t), *_VALIDATING, version=VERSION)
    total = len(fight.party) + sum(m.count for m in fight.monsters)
    if total > MAX_COMBATANTS:
        raise DataFileError(file, f"a fight holds at most {MAX_COMBATANTS} combatants; this one has {total:,} "
                                  f"({len(fight.party)} in the party, {total - len(fight.party):,} monsters)")
    return fight


def _validated(file: Path, text: str) -> FightFile:
    data = parsed_text("fight-file", text, lambda t: _parsed(file, t), __file__, datafile.__file__)
    if not isinstance(data, dict):
        raise DataFileError(file, "a fight file holds one mapping with room_dc, party and monsters")
    try:
        return FightFile.model_validate(data)
    except ValidationError as exc:
        raise _refusal(file, exc) from None


def _parsed(file: Path, text: str) -> Any:
    """The fight file's YAML, its entries counted first (kept by `furnace.rules.cache.parsed_text`: the same text
    again is neither counted nor parsed again, nor is PyYAML imported)."""
    _count_entries(file, text)
    return parse_yaml(text, str(file), "fight file")


def party_files(path: str | Path, allow_outside: bool = False) -> list[Path]:
    """The character files a fight file's party names, as `build` reads them (the inputs of a command that
    fights it: no output of that command may replace one)."""
    file = Path(path)
    return [files.resolve_inside(file.parent, e.file, allow_outside, what="party file") for e in load_fight(file).party]


def _count_entries(file: Path, text: str) -> None:
    """Too many party and monster entries are refused from the parser's events, at the first entry too many:
    the work is bounded by MAX_COMBATANTS, not by the file (composing 20,000 entries took 0.3-1 s). A file
    that does not parse is left to the reader, which says where."""
    import yaml  # here, not at the top: a campaign command that keeps a fight reads no fight file

    node_starts = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)
    depth, expect_key, key, counting, entries = 0, True, None, False, 0
    try:
        for event in yaml.parse(text, Loader=loader()):
            starts = isinstance(event, node_starts)
            if starts and counting and depth == 2:
                entries += 1
                if entries > MAX_COMBATANTS:
                    raise DataFileError(file, f"a fight holds at most {MAX_COMBATANTS} combatants; this one lists "
                                              f"more than {MAX_COMBATANTS} party and monster entries")
            if starts and depth == 1:                    # a key or a value of the top mapping
                if expect_key:
                    key = event.value if isinstance(event, yaml.ScalarEvent) else None
                else:
                    counting = isinstance(event, yaml.SequenceStartEvent) and key in ("party", "monsters")
                expect_key = not expect_key
            if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                depth += 1
                if depth == 1 and isinstance(event, yaml.SequenceStartEvent):
                    return                               # not a mapping: the reader refuses it
            elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return


_MODELS: dict[str, type[BaseModel]] = {"party": PartyEntry, "monsters": MonsterEntry}


def _refusal(file: Path, exc: ValidationError) -> DataFileError:
    """The first thing wrong; a field the file may not have is named with the fields it may."""
    first = exc.errors()[0]
    loc = first["loc"]
    if first["type"] == "extra_forbidden" and loc:
        model = _MODELS.get(str(loc[0]), FightFile) if len(loc) > 1 else FightFile
        where = {PartyEntry: "a party entry", MonsterEntry: "a monster entry"}.get(model, "a fight file")
        return DataFileError(file, f"field {'.'.join(map(str, loc))}: {where} has no field {str(loc[-1])!r}; "
                                   f"its fields are {', '.join(model.model_fields)}")
    return from_validation(file, exc)


def build(fight: FightFile, base: Path, rng: DiceSource, rules: Ruleset, *, allow_outside: bool = False,
          ) -> Encounter:
    """The encounter a fight file describes; character files are read relative to the fight file's folder
    `base`, and only inside it unless `allow_outside`."""
    combatants: list[Combatant] = []
    taken: set[str] = set()
    for entry in fight.party:
        path = files.resolve_inside(base, entry.file, allow_outside, what="party file")
        character = Character.from_file(path)
        combatants.append(from_character(character, entry.side, rules, zone=entry.zone,
                                         id=_unique(character.name, taken)))
    combatants += rolled(roster(fight, taken), fight.room_dc, rng, rules)
    initiative = fight.initiative or rules["initiative_model"]
    return Encounter(room_dc=fight.room_dc, combatants=tuple(combatants), initiative=initiative,
                     surprised=tuple(fight.surprised))


Roster = list[tuple[dict[str, Any], str, str]]      # each monster to roll: its spec (named), side and id


def roster(fight: FightFile, taken: set[str]) -> Roster:
    """The monsters the file's entries make, in order, each with an id none of `taken` has (taken as it is
    given): what `build` rolls, worked out once for a simulation's thousands of fights."""
    out: Roster = []
    for m in fight.monsters:
        spec = {k: v for k, v in dict(m).items() if v is not None}     # (its fields are plain: no serialiser built)
        for i in range(1, m.count + 1):
            name = f"{m.name} {i}" if m.count > 1 else m.name
            out.append(({**spec, "name": name}, m.side, _unique(name.lower().replace(" ", "-"), taken)))
    return out


def rolled(monsters: Roster, room_dc: int, rng: DiceSource, rules: Ruleset) -> list[Combatant]:
    """The roster's monsters, their HP rolled in order on these dice."""
    return [monster(spec, side, room_dc, rng, id=cid, rules=rules) for spec, side, cid in monsters]


def rolling(monsters: Roster, room_dc: int, rules: Ruleset) -> Callable[[DiceSource], list[Combatant]]:
    """`rolled` for thousands of fights: each monster made once, then at each fight only her HP rolled, in order on
    that fight's dice (the same monsters, the same dice, as `rolled` gives)."""
    made = [(monster(spec, side, room_dc, dice.seeded(0), id=cid, rules=rules), hp_dice(spec), f"{cid} HP")
            for spec, side, cid in monsters]

    def roll(rng: DiceSource) -> list[Combatant]:
        out = []
        for template, hp, label in made:
            rolled_hp = max(1, hp if isinstance(hp, int) else hp.roll(rng, None, label).total)
            out.append(updated(template, {"hp": rolled_hp, "hp_max": rolled_hp}))
        return out

    return roll


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    taken.add(candidate)
    return candidate
