"""One set of factories for the tests, in the game's words: characters, combatants, encounters (with scripted
dice) and campaigns. No test module makes its own (tests/test_factories.py checks it).

- Characters: `character(**fields)`, the presets `fighter`, `peasant`, `mage`, `cleric`, `rogue`, a fighter rolled
  at the table (`rolled_fighter`), and the repository's examples (`example("brakka")`).
- Combatants: `pc(cid)`, `monster(cid)`, a character's numbers for a fight (`fighting(character)`), a monster as a
  fight file or the bestiary writes it (`from_spec`), and a band of them (`band`).
- Encounters: `encounter(*combatants)`, and `step(*combatants, faces=[…])`: one action's working state with the
  scripted dice it rolls (`dice.remaining == 0` shows the engine asked for exactly the faces given).
- Campaigns: the clock's `campaign(*characters)`, a stored campaign's state (`campaign_state`, `member`), a
  campaign made in a `Store` with its members joined (`stored_campaign`), and read back (`reopened`).
- Scripted dice: `dice(17, 3)`, the faces that roll given scores (`score_faces`, `zero_level_dice`), and a Middle
  Sea grievous roll (`roll_total`).

Every factory takes presets, then fields: `character(FLO, hp=3)` is the preset FLO (a module-level dict of
fields: data, never a function) with hp 3; a later preset or field wins over an earlier one. Every default is
written in the factory's docstring: a test that depends on a number passes it, or finds it there.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from furnace.campaign import commands
from furnace.campaign.state import CampaignState, Member
from furnace.campaign.store import Store
from furnace.characters.advancement import level_up
from furnace.characters.character import Character, Occupation
from furnace.characters.funnel import new_zero_level, promote
from furnace.dice import DiceSource, ScriptedDice
from furnace.play import combatant as _combatant
from furnace.play.clock import Campaign
from furnace.play.combatant import Combatant, Zone
from furnace.play.fightfile import build, load_fight
from furnace.play.state import Encounter, Step
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import Ruleset, load_ruleset

if TYPE_CHECKING:   # the Middle Sea chapter registers its hooks when imported: only roll_total imports it
    from furnace.houserules.middle_sea import Grievous

# -- characters ------------------------------------------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TEN: dict[str, int] = dict.fromkeys(ABILITIES, 10)
"""Every score 10 (modifier +0)."""

FARMER = Occupation(name="Farmer", proficiency="Nature", item="pitchfork", roll=1)
"""The 0-level occupation of `peasant`: d100 roll 1, Nature, a pitchfork."""

# -- the Middle Sea's fighters (tests/houserules/test_middle_sea_*.py) ----------------------------------------------
SEA_SCORES: dict[str, int] = {"STR": 14, "DEX": 12, "CON": 14, "INT": 10, "WIS": 10, "CHA": 10}   # CON +1
SEA_FIGHTER: dict[str, Any] = dict(name="Hero", char_class="Fighter", level=5, scores=SEA_SCORES, hp_max=40, hp=10)
"""A level-5 Fighter: d10 hit die, 40 HP maximum (half is 20), at 10 HP; STR and CON 14 (+1)."""
SEA_HERO: dict[str, Any] = {**SEA_FIGHTER, "saves": ["STR", "CON"]}
"""`SEA_FIGHTER` proficient in CON saves (PROF 3): a helmet save is d20 + 4."""


def scores(base: Mapping[str, int] | None = None, /, **by_ability: int) -> dict[str, int]:
    """Six scores: ten in each (`TEN`), then `base`, then the abilities named: `scores(INT=16)`."""
    return {**TEN, **(base or {}), **by_ability}


def merged(presets: Iterable[object], fields: Mapping[str, Any]) -> dict[str, Any]:
    """The presets in order, then the fields: a later one wins (shared by every factory of tests/helpers)."""
    spec: dict[str, Any] = {}
    for preset in presets:
        if not isinstance(preset, Mapping):
            raise TypeError(f"a preset is a mapping of fields, not {preset!r}")
        spec.update(preset)
    spec.update(fields)
    return spec


def character(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """A valid Character: by default "Hero", a 0-level Human of no class, every score 10, hp_max 10, and hp equal
    to hp_max unless given. `scores` are merged over `TEN`; `STR=…` … `CHA=…` set one score."""
    spec = merged(presets, fields)
    by_ability = {a: spec.pop(a) for a in ABILITIES if a in spec}
    spec["scores"] = scores(spec.get("scores"), **by_ability)
    spec.setdefault("name", "Hero")
    spec.setdefault("hp_max", 10)
    spec.setdefault("hp", spec["hp_max"])
    return Character.model_validate(spec)


_character = character     # for roll_total, whose parameter `character` hides it


def fighter(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """A level-1 Fighter (d10 hit die, PROF 1); otherwise `character`'s defaults: "Hero", scores 10, 10 HP."""
    return character({"char_class": "Fighter", "level": 1}, *presets, **fields)


def peasant(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """A 0-level funnel survivor: "Survivor", a Human with 3 HP (hp_max 3, and hp the same unless given), one Hit
    Die, scores 10, the Farmer's occupation (`FARMER`: Nature, a pitchfork carried)."""
    return character({"name": "Survivor", "level": 0, "hp_max": 3, "hit_dice": 1, "occupation": FARMER,
                      "skills": ["Nature"], "items": ["pitchfork"]}, *presets, **fields)


def mage(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """Mira, a level-3 Magic-user: INT 16 (+2), PROF 2, proficient in INT saves (SPELLCHECK and INT SAVE d20 + 4),
    12 HP, 3 Hit Dice, knowing Fireball and Chill Touch."""
    return character({"name": "Mira", "char_class": "Magic-user", "level": 3, "scores": scores(INT=16),
                      "hp_max": 12, "hit_dice": 3, "saves": ["INT"], "spells": ["Fireball", "Chill Touch"]},
                     *presets, **fields)


def cleric(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """A level-3 Cleric (PROF 2) proficient in WIS saves, with 3 Hit Dice; otherwise `character`'s defaults."""
    return character({"char_class": "Cleric", "level": 3, "hit_dice": 3, "saves": ["WIS"]}, *presets, **fields)


def rogue(*presets: Mapping[str, Any], **fields: Any) -> Character:
    """A level-1 Rogue, an Arcane Trickster; otherwise `character`'s defaults."""
    return character({"char_class": "Rogue", "archetype": "Arcane Trickster", "level": 1}, *presets, **fields)


def rolled_fighter(level: int, *, seed: int = 5, rules: Ruleset | None = None) -> Character:
    """Brannoc as a table rolls him, every die from `random.Random(seed)` (5): a 0-level Human of Ada's
    (`new_zero_level`), promoted a Fighter (Barbarian), then levelled up to `level`, choosing STR at each score
    increase; under `rules` (the furnace profile)."""
    rules = load_ruleset() if rules is None else rules
    rng = random.Random(seed)
    c, _ = new_zero_level(rng, rules, name="Brannoc", race="Human", player="Ada")
    c, _ = promote(c, "Fighter", "Barbarian", rng, rules)
    while c.level < level:
        c, _ = level_up(c, rng, rules, ability="STR")
    return c


def example(stem: str, /, **fields: Any) -> Character:
    """An example character of the repository, `examples/characters/<stem>.json` (brakka, wren, maelis …), with
    `fields` changed as `model_copy` changes them (not validated again): `example("brakka", hp=200, hp_max=200)`."""
    made = Character.from_file(EXAMPLES / "characters" / f"{stem}.json")
    return made.model_copy(update=fields) if fields else made


def examples() -> dict[str, Character]:
    """Every example character, by file name (`examples()["brakka"]`)."""
    return {p.stem: example(p.stem) for p in sorted((EXAMPLES / "characters").glob("*.json"))}


# -- combatants ------------------------------------------------------------------------------------------------
ROOM_SAVES: dict[str, int] = dict.fromkeys(ABILITIES, 2)
"""Every SAVE +2: a monster's under ROOM DC 12 (ROOM DC − 10, D-2)."""

CASTER: dict[str, Any] = dict(char_class="Magic-user", level=3, hp=12, hp_max=12, damage="1d6", spell_mod=2,
                              spells=("Chill Touch", "Fireball"), zone="NEAR",
                              saves={"INT": 4, "WIS": 0, "DEX": 0, "CON": 0, "STR": 0, "CHA": 0})
"""A `pc` preset: a level-3 Magic-user in a fight (PROF 2, INT 16: spell_mod +2, INT SAVE +4, the others +0), 12 HP,
AC 12, ATK +3, damage 1d6, NEAR, knowing Chill Touch and Fireball: `pc("m", CASTER)`."""
FOE: dict[str, Any] = dict(level=0, hp=40, hp_max=40, saves={})
"""A `monster` preset: a foe of no level with 40 HP, AC 12, ATK +2, damage 1d6, no SAVE bonus."""


def _combatant_spec(args: tuple[str | Mapping[str, Any], ...], default_id: str) -> tuple[str, dict[str, Any]]:
    """The id (the first argument when it is a string, else `default_id`) and the presets' fields merged."""
    if args and isinstance(args[0], str):
        return args[0], merged(args[1:], {})
    return default_id, merged(args, {})


def pc(*id_and_presets: str | Mapping[str, Any], **fields: Any) -> Combatant:
    """A PC: `pc()`, `pc("c")`, `pc(PRESET, hp=3)`, `pc("c", PRESET, hp=3)` (the id first, "a" by default). On
    side "a", named by her id in capitals: a level-1 Fighter, PROF 2, 10 HP of 10, AC 12, ATK +3, damage 1d8,
    CLOSE; no SAVE bonus, no scores (the `Combatant` defaults for everything else)."""
    cid, preset = _combatant_spec(id_and_presets, "a")
    spec: dict[str, Any] = dict(id=cid, name=cid.upper(), side="a", kind="pc", level=1, prof=2, char_class="Fighter",
                                hp=10, hp_max=10, ac=12, attack_bonus=3, damage="1d8", zone="CLOSE")
    return Combatant.model_validate({**spec, **preset, **fields})


def monster(*id_and_presets: str | Mapping[str, Any], **fields: Any) -> Combatant:
    """A monster: `monster()`, `monster("c")`, `monster(PRESET, hp=3)`, `monster("c", PRESET, hp=3)` (the id
    first, "b" by default). On side "b", named by its id in capitals, with the numbers of ROOM DC 12 (D-2): AC 12,
    ATK +2, every SAVE +2 (`ROOM_SAVES`); level 1, 50 HP of 50, damage 1d6, CLOSE."""
    cid, preset = _combatant_spec(id_and_presets, "b")
    spec: dict[str, Any] = dict(id=cid, name=cid.upper(), side="b", kind="monster", level=1, hp=50, hp_max=50,
                                ac=12, attack_bonus=2, damage="1d6", zone="CLOSE", saves=ROOM_SAVES)
    return Combatant.model_validate({**spec, **preset, **fields})


def fighting(character: Character, cid: str = "a", /, *, side: str = "a", zone: Zone = "CLOSE",
             rules: Ruleset | None = None, **fields: Any) -> Combatant:
    """The character's numbers for a fight (`furnace.play.combatant.from_character`) as id `cid` on `side`, CLOSE,
    under the rules given (the furnace profile by default); `fields` then change the combatant made."""
    made = _combatant.from_character(character, side, load_ruleset() if rules is None else rules, zone=zone,
                                     id=cid)
    return made.model_copy(update=fields) if fields else made


def from_spec(spec: Mapping[str, Any], cid: str, /, *, side: str = "b", room_dc: int = 12,
              rules: Ruleset | None = None, **fields: Any) -> Combatant:
    """A monster as a fight file or a bestiary entry writes it (`furnace.play.combatant.monster`: its numbers from
    the ROOM DC, 12 by default, unless the spec gives them), id `cid` on `side` ("b"), named as the spec names it
    or else by its id title-cased ("g1": "G1"); its HP must be a number (no die is rolled); `fields` then change
    the combatant made."""
    named = dict(spec) if "name" in spec else {**spec, "name": cid.title()}
    made = _combatant.monster(named, side, room_dc, ScriptedDice([]), id=cid, rules=rules)
    return made.model_copy(update=fields) if fields else made


def band(spec: Mapping[str, Any], side: str, n: int, /, **fields: Any) -> tuple[Combatant, ...]:
    """`n` monsters of one spec (`from_spec`) on `side`, ids `side`0 … `side`n−1, each named by its id title-cased."""
    return tuple(from_spec(spec, f"{side}{i}", side=side, **fields) for i in range(n))


# -- encounters ------------------------------------------------------------------------------------------------
def encounter(*combatants: Combatant, room_dc: int = 12, round: int = 1, **fields: Any) -> Encounter:
    """These combatants in a fight of ROOM DC 12, in round 1 (a fight not yet begun, for `run_round`,
    `run_fight` or `turns.start`, passes round=0); `fields` set the rest (initiative, phases, surprised …)."""
    return Encounter(room_dc=room_dc, round=round, combatants=combatants, **fields)


def example_fight(stem: str, rng: DiceSource, rules: Ruleset | None = None) -> Encounter:
    """The repository's example fight `examples/<stem>.yaml` (funnel-vs-goblins, party-vs-ogre) ready to begin
    (round 0), its monsters' HP rolled with `rng`, under `rules` (the furnace profile by default)."""
    path = EXAMPLES / f"{stem}.yaml"
    return build(load_fight(path), path.parent, rng, load_ruleset() if rules is None else rules)


def step(*combatants: Combatant, faces: Iterable[int], rules: Ruleset | None = None, room_dc: int = 12,
         round: int = 1, **fields: Any) -> tuple[Step, ScriptedDice]:
    """One action's working state in `encounter(*combatants, room_dc=…, round=…, **fields)` (ROOM DC 12, round
    1), under `rules` (the furnace profile by default), and the scripted dice it rolls: `faces` in order."""
    dice = ScriptedDice(list(faces))
    rules = load_ruleset() if rules is None else rules
    return Step(encounter(*combatants, room_dc=room_dc, round=round, **fields), dice, rules), dice


# -- campaigns -------------------------------------------------------------------------------------------------
def campaign(*characters: Character, **flags: Any) -> Campaign:
    """The characters by name on a clock at its start (day 1, 00:00, nothing scheduled), with the referee's flags
    given (`hostile=True`, `bed=["Cy"]` …); none by default."""
    return Campaign(characters={c.name: c for c in characters}, flags=flags)


def member(character: Character, mid: str, /, **fields: Any) -> Member:
    """A roster entry of id `mid`: alive, no player, joined at clock 0, unless `fields` say otherwise."""
    return Member(id=mid, character=character, **fields)


def campaign_state(*members: Member, name: str = "keep", profile: str = "furnace", **fields: Any) -> CampaignState:
    """A stored campaign's state in memory: "keep" under the furnace profile, session 1, with these members and no
    options, flags, overrides or fight, unless `fields` say otherwise."""
    return CampaignState(name=name, profile=profile, roster={m.id: m for m in members}, **fields)


def stored_campaign(store: Store, *characters: Character, name: str = "keep", profile: str = "furnace",
                    options: dict[str, Any] | None = None, players: Mapping[str, str] | None = None,
                    label: str = "join") -> CampaignState:
    """Campaign `name` ("keep") made in the store under `profile` (furnace) with `options` (none), then each
    character joined in order by a `join` command of its own, logged as `label` ("join"; "{name}" in it stands for
    her name in lower case: "join {name}" logs "join brakka"), run by the player `players` gives for her name
    (none by default). The state after the last command."""
    state = store.create(name, profile, options)
    for c in characters:
        joined = commands.join(c, (players or {}).get(c.name, ""))
        state = store.apply(name, label.replace("{name}", c.name.lower()), joined).state
    return state


def reopened(where: Store | str | os.PathLike[str], name: str = "keep") -> CampaignState:
    """Campaign `name` as a new session reads it: a new `Store` on the same database (a store's URL, or the path
    of a SQLite file), closed afterwards."""
    url = where.url if isinstance(where, Store) else str(where) if "://" in str(where) else f"sqlite:///{where}"
    store = Store(url)
    try:
        return store.open(name)
    finally:
        store.close()


# -- scripted dice ---------------------------------------------------------------------------------------------
def dice(*faces: int) -> ScriptedDice:
    """Dice that show these faces, in order: `dice(17, 3)`."""
    return ScriptedDice(faces)


def three(total: int) -> list[int]:
    """Three d6 faces that add up to `total` (3..18)."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def score_faces(scores: dict[str, int]) -> list[int]:
    """The 18 faces that roll these scores 3d6 in order STR..CHA."""
    return [f for a in ABILITIES for f in three(scores[a])]


def zero_level_dice(scores: dict[str, int], hp: int = 2, occupation: int = 3) -> ScriptedDice:
    """Dice for `new_zero_level` with race= and name= given: 18 score dice (`score_faces`), the 1d4 HP (2), the
    d100 occupation (3)."""
    return ScriptedDice([*score_faces(scores), hp, occupation])


def roll_total(total: int, after: list[int], *, character: Character | None = None, rules: Ruleset | None = None,
               **kw: Any) -> tuple[Grievous, ScriptedDice]:
    """A Middle Sea grievous roll (`ms.grievous`) of `character` (`character(SEA_HERO)`: a helmet save is d20 + 4)
    under `rules` (the middle-sea profile): 3d6 = [1, 1, 1] and an excess of total − 3, then the faces `after`."""
    from furnace.houserules import middle_sea as ms

    dice = ScriptedDice([1, 1, 1, *after])
    hero = _character(SEA_HERO) if character is None else character
    made = ms.grievous(hero, total - 3, dice, load_ruleset("middle-sea") if rules is None else rules, **kw)
    return made, dice
