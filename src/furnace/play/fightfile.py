"""Fight files: a YAML description of an encounter (party from character files, monsters inline).

    room_dc: 12
    initiative: group            # or simultaneous (F-INIT-02)
    surprised: [goblins]         # sides that lose the first round (F-SURP-01)
    party:
      - {file: characters/brakka.json, zone: NEAR}
    monsters:
      - {name: Goblin, count: 4, hp: 1d6, damage: 1d6, zone: NEAR}

AC, attack and save bonuses of monsters default to the ROOM DC (D-2). A malformed file is refused
with its path and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from furnace import dice
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import DataFileError, FurnaceError, from_validation
from furnace.play.combatant import Combatant, Zone, from_character, monster
from furnace.play.state import Encounter
from furnace.rules.datafile import read_yaml
from furnace.rules.ruleset import Ruleset


class PartyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    file: str
    zone: Zone = "NEAR"
    side: str = "party"


class MonsterEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    count: int = Field(1, ge=1, le=100)
    hp: str = "1d8"
    hd: int = Field(1, ge=0, le=30)
    damage: str = "1d6"
    weapon: str = "attack"
    ac: int | None = None
    attack_bonus: int | None = None
    save_bonus: int | None = None
    ranged: bool = False
    armor: Literal["none", "light", "heavy"] = "none"
    morale: int | None = None
    zone: Zone = "NEAR"
    side: str = "monsters"

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
    model_config = ConfigDict(extra="forbid")
    name: str = "a fight"
    room_dc: int = Field(12, ge=1, le=40)
    initiative: Literal["group", "simultaneous"] = "group"
    surprised: list[str] = Field(default_factory=list)
    party: list[PartyEntry] = Field(min_length=1)
    monsters: list[MonsterEntry] = Field(min_length=1)


def load_fight(path: str | Path) -> FightFile:
    file = Path(path)
    data = read_yaml(file, "fight file")
    if not isinstance(data, dict):
        raise DataFileError(file, "a fight file holds one mapping with room_dc, party and monsters")
    try:
        return FightFile.model_validate(data)
    except ValidationError as exc:
        raise from_validation(file, exc) from None


def build(fight: FightFile, base: Path, rng: DiceSource, rules: Ruleset) -> Encounter:
    """The encounter a fight file describes; character files are read relative to the fight file."""
    combatants: list[Combatant] = []
    for entry in fight.party:
        path = base / entry.file
        try:
            character = Character.from_json(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            raise DataFileError(path, f"cannot read the character file: {exc.strerror}") from None
        combatants.append(from_character(character, entry.side, rules, zone=entry.zone,
                                         id=_unique(character.name, combatants)))
    for m in fight.monsters:
        spec = {k: v for k, v in m.model_dump().items() if v is not None}
        for i in range(1, m.count + 1):
            name = f"{m.name} {i}" if m.count > 1 else m.name
            combatants.append(monster({**spec, "name": name}, m.side, fight.room_dc, rng,
                                      id=_unique(name.lower().replace(" ", "-"), combatants)))
    return Encounter(room_dc=fight.room_dc, combatants=tuple(combatants), initiative=fight.initiative,
                     surprised=tuple(fight.surprised))


def _unique(name: str, existing: list[Combatant]) -> str:
    taken = {c.id for c in existing}
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    return candidate
