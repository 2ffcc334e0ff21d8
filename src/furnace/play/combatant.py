"""A combatant: a character or a monster as the encounter sees it.

Monster numbers follow the ROOM DC (D-2): AC = ROOM DC, attack bonus and save bonus = ROOM DC − 10,
each overridable per monster.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import fields as fields_of
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import ConfigDict

from furnace import dice
from furnace.characters import markers
from furnace.characters.arms import shield_borne, wieldable
from furnace.characters.character import Character
from furnace.characters.equipment import attack_bonus, damage_expression, style_data
from furnace.play import luck, registry
from furnace.play.conditions import FIGHT_KEY, Held, carried, modifier_name
from furnace.play.frozen import Frozen, updated
from furnace.play.marks import Marks  # noqa: F401  (registered as a chapter state before she is validated)
from furnace.play.wear import CRACKED
from furnace.play.wear import KEY as WEAR
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.hit_dice import hd_value
from furnace.rules.ruleset import Ruleset, load_ruleset

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

Zone = Literal["CLOSE", "NEAR", "RANGED", "FAR"]
ZONES: tuple[Zone, ...] = ("CLOSE", "NEAR", "RANGED", "FAR")
Status = Literal["up", "dying", "stable", "unconscious", "dead", "out", "fled"]
ArmorType = Literal["none", "light", "heavy"]
FIGHTING: frozenset[Status] = frozenset({"up", "dying", "stable", "unconscious"})   # the statuses `in_fight`


@dataclass(frozen=True, kw_only=True)
class Combatant(Frozen):
    """Our own frozen dataclass, not a pydantic model (`frozen.Frozen`): the engine reads and copies her fields
    plainly; pydantic validates her where she comes in (`model_validate`, a fight's monsters, the campaign's stored
    encounter) and forbids a field she has not."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")
    id: str
    name: str
    side: str
    kind: Literal["pc", "monster"] = "monster"
    level: int = 0
    prof: int = 0
    char_class: str | None = None
    hp: int
    hp_max: int
    ac: int
    attack_bonus: int
    damage: str = "1d6"
    weapon: str = "weapon"
    ranged: bool = False
    armor_type: ArmorType = "none"
    armor_key: str | None = None            # F-TAB-21 key: what the armor is made of (M-ARM)
    helmet: bool = False
    shield: bool = False
    weapon_class: str | None = None         # sharp, blunt, strung, pole, hurled, unarmed (M-WPN)
    magic_bonus: int = 0
    dex_score: int = 10
    saves: dict[Ability, int] = field(default_factory=dict)
    con_mod: int = 0
    morale: int | None = None
    zone: Zone = "NEAR"
    status: Status = "up"
    dying_turns: int | None = None          # F-DEATH-01: turns left before death
    knocked_down: int = 0                   # drops to 0 HP this encounter (F-DEATH-03)
    crit_range: int = 20
    features: tuple[str, ...] = ()          # Cleave, Sneak Attack, Rage …
    held: tuple[Held, ...] = ()
    injuries: tuple[str, ...] = ()
    hit_dice: int = 0
    hit_die: str = "d4"
    scores: dict[Ability, int] = field(default_factory=dict)   # PCs: for ability loss and death at 0
    luck_dice: int = 0                      # F-LUCK-01/02: PCs earn them on failed rolls in a row
    luck_streak: int = 0
    hd: float = 0                           # a monster's Hit Dice; "1-1" and "1/2" are under one (M-MOOK-02)
    doomed_round: int | None = None         # a crit's "dies in 1d4 rounds": dies at its turn in this round
    player: str | None = None               # a PC's player: whose Luck Dice and streak she shares (F-LUCK-01)
    rages_left: int | None = None           # Rages left before a long rest; None: rage_uses_per_long_rest (AMB-46)
    # what the fight did that outlasts it, for `furnace.play.aftermath.settle` to write back to the character, is
    # among `chapters`: the wear on her gear (`play.wear`) and the rest of what it left on her (`play.marks`)
    cause_of_death: str | None = None       # how she died (F-DEATH-02)
    immune: tuple[str, ...] = ()            # conditions and SAVE categories she ignores (FRIGHTENED, fear: F-ARCH-02)
    skills: tuple[str, ...] = ()            # a PC's proficient skills (Medicine for stabilising, AMB-28)
    powers: dict[str, dict[str, Any]] = field(default_factory=dict)   # archetype powers left this fight, by feature
    healed_today: int = 0                   # HD of magical healing received today, before and in this fight (F-CLR-07)
    # each chapter's own state on her, by the chapter's key (magic's spells cast and items' uses: `ChapterState.on`);
    # the engine copies it with her and reads none of it
    chapters: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """Pydantic's validation of her, after `chapters_placed` (a stored combatant's chapter state put in place)."""
        from pydantic_core import core_schema

        return core_schema.no_info_before_validator_function(chapters_placed, handler(source))

    @property
    def active(self) -> bool:
        """Up and able to fight: not dying, dead, fled, nor knocked senseless (UNCONSCIOUS)."""
        return self.status == "up" and (not self.held or all(h.name != "UNCONSCIOUS" for h in self.held))

    @property
    def in_fight(self) -> bool:
        return self.status in FIGHTING

    def save_bonus(self, ability: Ability | None) -> int:
        return self.saves.get(ability, 0) if ability else 0


# What she carries into the fight — her features (cantrips among them) and the chapters' state (magic's spells,
# casting ability and items' uses) — from which a chapter's action says what she may take it with
# (`registry.ActionRule.details`); the rest of her (HP, zone, conditions, Luck) changes blow by blow, and the engine
# asks `details` again only when her kit changed
KIT = ("features", "chapters")
kit: Callable[[Combatant], tuple[Any, ...]] = attrgetter(*KIT)


def chapters_placed(data: Any) -> Any:
    """Validation's first step: each chapter's state in `chapters` made its registered class
    (`registry.CHAPTER_STATES`), and the fields a combatant held as her own before chapters kept their state (an
    encounter stored then: `spells_cast`, `disapproval` …, each chapter state's `FLAT`) moved into its chapter's."""
    if not isinstance(data, Mapping) or (_FIELDS.issuperset(data) and not data.get("chapters")):
        return data
    kept = data.get("chapters") or {}
    if not isinstance(kept, Mapping):
        return data           # (refused by pydantic, as any field of the wrong kind)
    out, chapters = dict(data), dict(kept)
    for key, cls in registry.chapter_states().items():
        old = {name: out.pop(name) for name in cls.FLAT if name in out}
        state = chapters.get(key)
        if not old and (state is None or isinstance(state, cls)):
            continue
        given = state.model_dump() if isinstance(state, cls) else {} if state is None else state
        chapters[key] = cls.model_validate({**old, **given} if isinstance(given, Mapping) else given)
    out["chapters"] = chapters
    return out


def flat(c: Combatant) -> dict[str, Any]:
    """Her fields as one JSON record, each chapter's state among them in the place a combatant held it before
    chapters kept their own (its class's `FLAT`; a chapter's defaults while it keeps none on her): what
    `furnace fight --json` and `encounter show --json` have always printed."""
    dumped = c.model_dump(mode="json")
    chapters = dumped.pop("chapters")
    following: dict[str, list[tuple[str, Any]]] = {}
    for key, cls in registry.chapter_states().items():
        state = chapters.get(key) or cls().model_dump(mode="json")
        for name, before in cls.FLAT.items():
            following.setdefault(before, []).append((name, state[name]))
    out: dict[str, Any] = {}

    def put(name: str, value: Any) -> None:
        out[name] = value
        for after, its in following.pop(name, ()):
            put(after, its)

    for name, value in dumped.items():
        put(name, value)
    for rest in list(following.values()):
        for name, value in rest:
            out[name] = value
    return out


def armor_type(c: Character, rules: Ruleset) -> ArmorType:
    """Fumble die by armor (F-TAB-35); a shield alone counts as no armor (AMB-27), or as light armor under the
    option shield_only_fumble_armor."""
    if c.armor is None:
        return "light" if c.shield and rules["shield_only_fumble_armor"] == "light" else "none"
    kind = rules.tables.get("armor").lookup(c.armor).data.get("type", "none")
    if kind == "light":
        return "light"
    return "heavy" if kind == "heavy" else "none"


def armor_points(armor_key: str | None, rules: Ruleset) -> int:
    """The protection a body armor holds before it breaks (AMB-35, CF-40, option armor_damage_scale): its AC above
    10 (F-TAB-21 data.protection: Boiled leather 1, Plate 6), or its whole AC under literal_ac."""
    data = rules.tables.get("armor").lookup(armor_key or "unarmored").data
    key = "protection" if rules["armor_damage_scale"] == "protection_points" else "ac_base"
    return int(data.get(key) or 0)


def rages_left(c: Character, rules: Ruleset) -> int:
    """F-ARCH-02, AMB-46: the Rages a Barbarian has left, rage_uses_per_long_rest less those used since her last
    long rest (Character.extensions["fight"]["rages_used"], written by `aftermath.settle`)."""
    used = int(c.extensions.get(FIGHT_KEY, {}).get("rages_used", 0))
    return max(0, int(rules["rage_uses_per_long_rest"]) - used)


def carry_in(c: Character, combatant: Combatant, rules: Ruleset) -> Combatant:
    """The engine's COMBATANT_HOOKS entry: what earlier fights left on the character comes into this one — her
    injuries, her markers (conditions, "until rest" lines, lasting ones) and the Rages she has left."""
    return combatant.model_copy(update={
        "held": (*combatant.held, *carried(c)), "injuries": (*combatant.injuries, *c.injuries),
        "rages_left": rages_left(c, rules)})


registry.COMBATANT_HOOKS.add("furnace", carry_in)


BLUNT = ("mace", "hammer", "club", "maul", "flail", "cudgel", "sledge")
POLE = ("staff", "spear", "pole", "halberd", "glaive", "pike", "billhook", "quarterstaff")


def weapon_class_of(weapon: Any) -> str | None:
    """The Middle Sea weapon class (AMB-95): given on the weapon, else read from its name and kind."""
    if weapon is None:
        return "unarmed"
    if weapon.weapon_class:
        return str(weapon.weapon_class)
    name = weapon.name.lower()
    if weapon.kind == "ranged":
        return "strung" if "bow" in name else "hurled"
    if any(w in name for w in POLE):
        return "pole"
    return "blunt" if any(w in name for w in BLUNT) else "sharp"


def state_modifiers(c: Character) -> tuple[int, int]:
    """What the character's state does to her ATK and SAVEs in a fight: the chapters' registered modifiers
    (short of sleep −N to every roll, H-SLEEP-01; drunk −2 to saves, H-DRUG-02; Liquid Courage −1 to hit,
    M-DRINK-01). The rules live in their chapters; the engine only adds them up."""
    parts = registry.state_modifiers(c)
    return sum(p.to_hit for p in parts), sum(p.saves for p in parts)


# the markers `from_character` holds for the fight: the rolls the engine reads (ATK, SAVEs by ability, the
# injury modifiers of `effects.Modifier`); CHECKs and spellcasting come by the chapters' hooks and carry_in
FIGHT_ROLLS = frozenset({"atk", "ranged_atk", "atk_against", "str_saves", "dex_saves", "saves", "checks",
                         "perception_sight", "persuasion", "intimidation"})


def _marker_held(c: Character, rules: Ruleset, present: set[str]) -> tuple[Held, ...]:
    """Her armor (D-9), load (AMB-57) and injuries (F-TAB-37a/b, F-TAB-38) as held modifiers for this fight
    (re-read from the character at each fight, so they end with it); an injury modifier a hook already carried
    in (`present`) is not held twice."""
    gear = [*markers.armor_markers(c, rules), *markers.load_markers(c, rules)]
    wounds = [m for m in markers.table_markers(c, rules) if modifier_name(m.applies_to, m.mode) not in present]
    held = {(modifier_name(m.applies_to, m.mode), m.source): m for m in [*gear, *wounds]
            if m.applies_to in FIGHT_ROLLS and m.mode in ("EASY", "HARD", "DISADVANTAGE")}
    return tuple(Held(name=name, source=source, ending="encounter") for name, source in held)


def _weapon_numbers(c: Character, rules: Ruleset, zone: Zone) -> tuple[Any, int, str, str, bool]:
    """The weapon she fights with (the first unbroken one, or the first ranged one from RANGED or FAR), its ATK
    and damage (a notch's −1 each, M-WPN-02), name and whether it is ranged; a fist without one."""
    usable = [w for w in c.weapons if not w.broken and wieldable(c, w)]   # none on a broken arm (M-BONE-01)
    ranged_weapons = [w for w in usable if w.kind == "ranged"]
    weapon = ranged_weapons[0] if zone in ("RANGED", "FAR") and ranged_weapons else next(iter(usable), None)
    if weapon is None:
        strength = c.mod("STR", rules)
        return None, strength + c.prof(rules), str(max(1, 1 + strength)), "fist", False
    return (weapon, attack_bonus(c, weapon, rules), damage_expression(c, weapon, rules), weapon.name,
            weapon.kind == "ranged")


# the archetype data that makes a power the fight uses (F-ARCH-03): Chosen one's reroll, Rally's EASY ally ATK,
# Bloodmagic's HP cost (furnace.play.attacks)
POWERS = frozenset({"reroll", "ally_atk", "hp_cost"})


def _powers(c: Character, features: list[dict[str, Any]], rules: Ruleset) -> dict[str, dict[str, Any]]:
    """The powers she holds for the fight: her archetype's (F-ARCH-03) and the Protection style's (F-FTR-04 (e),
    F-TAB-39 data.protects), each gone once used when it is once a fight."""
    powers = {key: data for key, data in zip(c.archetype_features, features, strict=False) if POWERS & set(data)}
    style = style_data(c, rules)
    if "protects" in style:
        powers[str(style["name"])] = style
    return powers


def from_character(c: Character, side: str, rules: Ruleset, *, zone: Zone = "NEAR", id: str | None = None,
                   ) -> Combatant:
    """A character's numbers for the fight: AC (with her armor's damage and magic), the first weapon's ATK and
    damage, SAVE bonuses, modifiers by the rules in force (ability_13_modifier …); then what the chapters'
    COMBATANT_HOOKS carry in, and her armor, load and injury markers as held modifiers."""
    prof = c.prof(rules)
    weapon, atk, dmg, name, ranged = _weapon_numbers(c, rules, zone)
    to_hit, save_mod = state_modifiers(c)
    saves = {a: c.mod(a, rules) + (prof if a in c.saves else 0) + save_mod for a in ABILITIES}
    crit_range = 20
    features = c.archetype_feature_data(rules)
    for data in features:
        if "crit_range" in data:
            crit_range = min(crit_range, int(min(data["crit_range"])))
    immune = c.immunities(rules)
    built = Combatant(
        id=id or c.name, name=c.name, side=side, kind="pc", level=c.level, prof=prof, char_class=c.char_class,
        player=c.player, hp=c.hp, hp_max=c.hp_max, ac=c.ac(rules), attack_bonus=atk + to_hit, damage=dmg,
        weapon=name, ranged=ranged, armor_type=armor_type(c, rules), armor_key=c.armor, helmet=c.helmet,
        shield=shield_borne(c), weapon_class=weapon_class_of(weapon), magic_bonus=weapon.magic_bonus if weapon else 0,
        chapters={WEAR: CRACKED} if weapon is not None and weapon.cracked else {},
        dex_score=c.scores["DEX"], saves=saves, con_mod=c.mod("CON", rules), zone=zone,
        crit_range=crit_range, features=(*c.features, *c.archetype_features), hit_dice=c.hit_dice,
        healed_today=c.healed_today,
        hit_die=c.hit_die(rules), scores=dict(c.scores),
        status="up" if c.hp > 0 else "unconscious",
        skills=tuple(dict.fromkeys((*c.skills, *c.expertise))),
        luck_dice=c.luck_dice, luck_streak=luck.held_by(c).streak, immune=tuple(sorted(immune)),
        powers=_powers(c, features, rules))
    hooked = registry.combatant_hooks(c, built, rules)
    own = _marker_held(c, rules, {h.name for h in hooked.held})
    return hooked.model_copy(update={"held": tuple(h for h in (*own, *hooked.held) if h.name not in immune)})


def monster_hd(value: Any) -> float:
    """A monster's Hit Dice as written: 7, 0.5, "1/2", or "1-1" (one die less a point: under one full HD).
    The bestiary's reading, so a fight file and a bestiary entry mean the same thing."""
    return hd_value(value)


def monster_bonus(option: str, room_dc: int, rules: Ruleset) -> int:
    """D-2, AMB-07/25: a monster's default ATK or SAVE bonus, ROOM DC − 10 (`room_dc_minus_10`) or 0 (`zero`)."""
    return room_dc - 10 if rules[option] == "room_dc_minus_10" else 0


def monster(spec: dict[str, Any], side: str, room_dc: int, rng: dice.DiceSource, *, id: str,
            rules: Ruleset | None = None) -> Combatant:
    """A monster from a fight file: hp (a number or dice like 2d8), and AC/ATK/saves from the ROOM DC (D-2,
    options monster_attack_bonus and monster_save_bonus); the spec's own numbers override them."""
    rules = rules or load_ruleset()
    hp_of = hp_dice(spec)
    hp = hp_of if isinstance(hp_of, int) else hp_of.roll(rng, None, f"{id} HP").total
    made = _made_before(spec, side, room_dc, rules)
    if made is None:
        return _monster(spec, side, room_dc, id, hp, rules)
    key, known = made
    if key not in known:
        if len(known) >= MADE_PER_RULESET:
            known.clear()
        known[key] = _monster(spec, side, room_dc, id, hp, rules)
    return updated(known[key], {"id": id, "name": str(spec.get("name", id)), "hp": max(1, hp), "hp_max": max(1, hp)})


def hp_dice(spec: dict[str, Any]) -> int | dice.DiceExpression:
    """A monster's HP as her spec gives them: a number, or the dice to roll (1d8 when it gives none)."""
    text = str(spec.get("hp", "1d8"))
    return int(text) if text.lstrip("-").isdigit() else dice.parse(text)


# The monsters made before under each ruleset, by all they are made from but their id, name and HP: a simulation
# makes the same monsters thousands of times, and a validated one copied with those three is the same monster.
_MADE: dict[int, dict[tuple[Any, ...], Combatant]] = {}
MADE_PER_RULESET = 256


def _made_before(spec: dict[str, Any], side: str, room_dc: int, rules: Ruleset,
                 ) -> tuple[tuple[Any, ...], dict[tuple[Any, ...], Combatant]] | None:
    """The key of this monster and the monsters made under these rules; None when the spec cannot be a key."""
    key = (side, room_dc, *sorted((k, type(v), v) for k, v in spec.items() if k != "name"))
    try:
        hash(key)
    except TypeError:          # a list among its fields: made afresh
        return None
    known = _MADE.get(id(rules))
    if known is None:
        try:
            weakref.finalize(rules, _MADE.pop, id(rules), None)
        except TypeError:      # rules that cannot be watched: not kept
            return None
        known = _MADE[id(rules)] = {}
    return key, known


def _monster(spec: dict[str, Any], side: str, room_dc: int, id: str, hp: int, rules: Ruleset) -> Combatant:
    bonus = int(spec.get("attack_bonus", monster_bonus("monster_attack_bonus", room_dc, rules)))
    save = int(spec.get("save_bonus", monster_bonus("monster_save_bonus", room_dc, rules)))
    fields: dict[str, Any] = dict(
        id=id, name=str(spec.get("name", id)), side=side, kind="monster",
        level=int(spec.get("level", max(1, int(monster_hd(spec.get("hd", 1)))))), hd=monster_hd(spec.get("hd", 1)),
        hp=max(1, hp), hp_max=max(1, hp), ac=int(spec.get("ac", room_dc)), attack_bonus=bonus,
        damage=str(spec.get("damage", "1d6")), weapon=str(spec.get("weapon", "attack")),
        ranged=bool(spec.get("ranged", False)), armor_type=spec.get("armor", "none"),
        saves={a: save for a in ABILITIES}, morale=spec.get("morale"), zone=spec.get("zone", "NEAR"),
        helmet=bool(spec.get("helmet", False)), shield=bool(spec.get("shield", False)),
        armor_key=spec.get("armor_key"), weapon_class=spec.get("weapon_class"),
        features=(*spec.get("features", ()), *(("named",) if spec.get("named") else ())))   # REF-42
    # the spec's armor, zone, morale, armor and weapon kinds and features come as the fight file, the bestiary or a
    # spell gave them: made at once when each is already of its kind, else validated (and refused) by pydantic,
    # whose validator costs a command ~30 ms to build
    return Combatant(**fields) if _exact(fields) else Combatant.model_validate(fields)


ARMOR_TYPES: tuple[ArmorType, ...] = ("none", "light", "heavy")   # a tuple: an odd value compared, not hashed


def _exact(fields: dict[str, Any]) -> bool:
    """Whether the fields a monster's spec gives as written are each of its field's kind already."""
    return (fields["armor_type"] in ARMOR_TYPES and fields["zone"] in ZONES
            and (fields["morale"] is None or type(fields["morale"]) is int)
            and all(fields[k] is None or type(fields[k]) is str for k in ("armor_key", "weapon_class"))
            and all(type(f) is str for f in fields["features"]))


_FIELDS = frozenset(f.name for f in fields_of(Combatant))
