"""Effects as data: the typed things a table row, spell level, injury or feature does.

Each kind is a small pydantic model registered under its `kind` name. Data files list effects as
mappings (`{kind: damage, dice: 1d8}`); `parse_effect` validates one against its kind. The engine
keeps one `apply` per kind; whatever it cannot decide alone is a `referee_prompt`, so nothing is
silently dropped.
"""

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from furnace.errors import FurnaceError

MAX_BONUS = 20          # a flat modifier or an AC change: a d20's worth either way
MAX_EFFECTS = 100       # effects in one list (a row, a save's on_fail …)

Ability = Literal["STR", "DEX", "CON", "INT", "WIS", "CHA"]
ABILITIES: tuple[Ability, ...] = ("STR", "DEX", "CON", "INT", "WIS", "CHA")

# Who an effect lands on, from the point of view of the one whose roll it is.
Target = Literal[
    "target", "self", "attacker", "random_ally", "random_ally_close_to_target", "all_near_target",
    "all_close_to_target", "all_near", "random_target", "random_creature", "ally",
]

# Units a duration can be counted in (AMB-03: a Furnace turn is a round; the exploration turn is 10 min).
DurationUnit = Literal[
    "round", "exploration_turn", "segment", "minute", "hour", "day", "week", "month", "year",
    "next_turn", "until_rest", "until_cured", "until_repaired", "until_healed", "until_stands",
    "encounter", "permanent",
]

# Named conditions (AMB-22 gives their meaning; `furnace.play.conditions` adds their mechanics).
CONDITIONS: dict[str, str] = {
    "PRONE": "on the ground; stands up with movement",
    "STUNNED": "can't act; attacks against it are EASY",
    "BLINDED": "can't see; its ATK are HARD, ATK against it are EASY",
    "PARALYSED": "can't move or act; ATK against it are EASY",
    "FRIGHTENED": "won't approach the source; its checks are HARD",
    "WEAK": "STR checks, saves and melee damage are HARD",
    "UNCONSCIOUS": "senseless and helpless",
    "INCAPACITATED": "can't take actions",
    "CANT_MOVE": "can't move",
    "CANT_ATTACK": "can't ATK",
    "CANT_ACT": "takes no action",
    "CANT_SPEAK": "can't speak (nor cast spells aloud)",
    "CANT_CAST": "can't cast any spell",
    "CANT_CAST_THIS_SPELL": "can't attempt the same spell",
    "CANT_TARGET_SAME": "can't target the same creature with a spell",
    "CANT_USE_OBJECTS": "hands can't hold or use objects",
    "CANT_BE_HEALED": "no healing takes effect",
    "MOVE_NEAR_ONLY": "can move only as far as NEAR",
    "LAST_TO_ACT": "acts last",
    "EXPOSED": "ATK against it are EASY",
    "KNOCKED_DOWN": "down and conscious",
    "OFF_BALANCE": "loses DEX and shield AC, loses time next round",
    "DYING": "unconscious at 0 HP, dies when the timer ends",
    "BLEEDING": "loses HP each round or dies when the timer ends unless treated",
    "CHILLED": "slowed by cold",
    "DRUNK": "DEX and saves are worse",
    "DEPLETED": "can't cast until rest (Spell Depletion)",
    "RAGING": "Barbarian rage: +PROF damage, -PROF AC",
    "POLYMORPHED": "turned into a critter",
    "POISONED": "poisoned: what it does is the poison's or the referee's (Lay on Hands may cure it, F-CLR-06)",
    "DISEASED": "diseased: what it does is the disease's or the referee's (Lay on Hands may cure it, F-CLR-06)",
}


def shown(value: object, limit: int = 60) -> str:
    """A value for an error message, never expensive: its repr cut to `limit` characters; a container is
    described by its size (a shared "billion laughs" list has no affordable repr), a huge integer by its type."""
    if isinstance(value, list | tuple | dict | set | frozenset):
        return f"a {type(value).__name__} of {len(value):,} items"
    try:
        text = repr(value[:limit + 1] if isinstance(value, str | bytes) else value)
    except ValueError:   # an integer past Python's 4,300 digits
        return f"an {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[:limit] + "…"


class EffectError(FurnaceError):
    """An effect mapping that does not validate."""


class Effect(BaseModel):
    """Base of every effect kind."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    kind: str
    note: str | None = None
    KIND: ClassVar[str] = ""


EFFECT_KINDS: dict[str, type[Effect]] = {}
E = TypeVar("E", bound=type[Effect])


def effect_kind(name: str) -> Callable[[E], E]:
    """Register an effect kind; later modules may add their own."""

    def register(cls: E) -> E:
        cls.KIND = name
        EFFECT_KINDS[name] = cls
        return cls

    return register


def _dice_text(value: Any) -> Any:
    if isinstance(value, int):
        value = str(value)
    if isinstance(value, str):
        check_dice(value)
    return value


def check_dice(text: str) -> str:
    """Parse a dice expression inside a validator: its error becomes a ValueError so pydantic locates it.
    The dice language's own limits apply (256 characters, 1,000 dice, 10,000 sides), as for a typed roll."""
    from furnace.dice import parse

    if not isinstance(text, str):
        raise ValueError(f"a dice expression is text, not {type(text).__name__}")
    try:
        parse(text)
    except FurnaceError as exc:
        raise ValueError(str(exc)) from None
    return text


def _effects(value: Any) -> list[Effect]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise ValueError(f"effects are a list of mappings with a 'kind', not {type(value).__name__}")
    if len(value) > MAX_EFFECTS:
        raise ValueError(f"at most {MAX_EFFECTS} effects in one list, not {len(value):,}")
    try:
        return [parse_effect(e) for e in value]
    except EffectError as exc:
        raise ValueError(str(exc)) from None


DiceText = Annotated[str, BeforeValidator(_dice_text)]


class Duration(BaseModel):
    """`{amount: 1d4, unit: round}`; amount is a dice expression (or 1 for 'next turn')."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    amount: DiceText = "1"
    unit: DurationUnit = "round"


def parse_effect(data: Any) -> Effect:
    if isinstance(data, Effect):
        return data
    if not isinstance(data, dict) or "kind" not in data:
        raise EffectError(f"an effect is a mapping with a 'kind', not {shown(data)}")
    kind = data["kind"]
    cls = EFFECT_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EffectError(f"unknown effect kind {shown(kind)}; known: {', '.join(sorted(EFFECT_KINDS))}")
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        raise EffectError(f"{kind} effect, field {where}: {message}" if where else f"{kind} effect: {message}") \
            from None


EffectList = Annotated[list[Any], BeforeValidator(_effects)]


@effect_kind("damage")
class Damage(Effect):
    dice: DiceText
    type: str | None = None           # fire, cold …
    target: Target = "target"
    maximum: bool = False             # deal the maximum instead of rolling (crits)
    every: DurationUnit | None = None  # damage over time: every round …
    duration: Duration | None = None


@effect_kind("heal")
class Heal(Effect):
    dice: DiceText
    unit: Literal["hp", "hit_die"] = "hp"
    target: Target = "self"


@effect_kind("condition")
class Condition(Effect):
    name: str
    target: Target = "target"
    duration: Duration | None = None

    @field_validator("name")
    @classmethod
    def known(cls, value: str) -> str:
        if value.upper() not in CONDITIONS:
            raise ValueError(f"unknown condition {value!r}; known: {', '.join(CONDITIONS)}")
        return value.upper()


@effect_kind("save")
class Save(Effect):
    """A SAVE; `on_fail` happens when it fails (and `on_success` when it holds)."""

    ability: Ability | None = None
    category: Literal["poison", "paralysis", "death", "fear", "crushing_blow", "normal_blow", "magic"] | None = None
    dc: DiceText = "ROOM_DC"          # e.g. 10+PC_LVL, 15
    target: Target = "target"
    modifier: DiceText = "0"
    every: DurationUnit | None = None  # a save repeated at each of the holder's turns (torso wound)
    on_fail: EffectList = Field(default_factory=list)
    on_success: EffectList = Field(default_factory=list)


@effect_kind("modifier")
class Modifier(Effect):
    """EASY/HARD (or a flat bonus) on some kind of roll, e.g. 'ATK against it is EASY'."""

    applies_to: Literal[
        "atk", "atk_against", "checks", "all_rolls", "saves", "ac", "damage", "to_hit_and_damage",
        "ranged_atk", "perception_sight", "persuasion", "intimidation", "next_atk", "next_atk_against",
        "spellcheck", "morale", "fear_saves", "dex",
    ]
    mode: Literal["EASY", "HARD", "ADVANTAGE", "DISADVANTAGE", "BONUS"] = "HARD"
    value: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    target: Target = "target"
    duration: Duration | None = None


@effect_kind("extra_attack")
class ExtraAttack(Effect):
    target: Literal["same", "another_near", "any_near"] = "same"
    repeat: Literal["once", "until_miss"] = "once"
    only_if: Literal["target_dies"] | None = None


@effect_kind("attack")
class Attack(Effect):
    """The roller attacks someone else, e.g. a random ally (fumble 11) or itself (fumble 12)."""

    target: Target = "random_ally"


@effect_kind("ability_loss")
class AbilityLoss(Effect):
    ability: Ability | Literal["random"]
    dice: DiceText = "1"
    mode: Literal["subtract", "halve"] = "subtract"
    permanent: bool = True
    target: Target = "self"


@effect_kind("death")
class Death(Effect):
    """Death now, or when a timer runs out (`timer: 1d4`, unit rounds)."""

    timer: Duration | None = None
    target: Target = "target"
    unless: str | None = None         # what stops the timer, in words


@effect_kind("slay")
class Slay(Effect):
    """The target dies outright when a comparison holds, otherwise `otherwise` happens."""

    when: Literal["target_hp_below_attacker_hp"]
    otherwise: EffectList = Field(default_factory=list)


@effect_kind("hp_fraction_loss")
class HpFractionLoss(Effect):
    fraction: str = "1/2"
    of: Literal["current", "maximum"] = "current"
    target: Target = "target"

    @field_validator("fraction")
    @classmethod
    def a_fraction(cls, value: str) -> str:
        import re

        m = re.fullmatch(r"\s*(\d{1,3})/(\d{1,3})\s*", value)
        if not m or int(m[2]) == 0 or int(m[1]) > int(m[2]):
            raise ValueError(f"a fraction from 0/1 to 1/1 such as 1/2, not {value!r}")
        return value


@effect_kind("weapon")
class WeaponEffect(Effect):
    action: Literal["drop", "knock_away", "damage", "destroy", "sunder", "loose", "entangled", "notch",
                    "slip", "string_snaps", "crack"]
    target: Target = "target"
    then: EffectList = Field(default_factory=list)        # when the weapon is there (sunder: +1d10 DAM)
    otherwise: EffectList = Field(default_factory=list)   # e.g. sunder with no weapon → 1d12 damage


@effect_kind("armor")
class ArmorEffect(Effect):
    action: Literal["damage", "destroy", "seize"] = "damage"
    ac_delta: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    piece: Literal["armor", "shield", "helmet", "any"] = "armor"
    target: Target = "target"


@effect_kind("spell")
class SpellEffect(Effect):
    """A spell let loose by a mishap: random spell, redirected, backfiring; SL rolled on `sl` dice."""

    spell: Literal["random_known", "this"] = "this"
    target: Target = "random_target"
    sl: DiceText = "1d6"


@effect_kind("summon")
class Summon(Effect):
    creature: str
    count: DiceText = "1"
    duration: Duration | None = None


@effect_kind("area")
class Area(Effect):
    """The effect also reaches everyone in this zone around the target."""

    zone: Literal["CLOSE", "NEAR", "FAR", "battlefield"]
    of: Literal["target", "self"] = "target"


@effect_kind("injury")
class Injury(Effect):
    """Roll on another table (the lingering injury table, a bone or limb table)."""

    table: str


@effect_kind("lasting")
class Lasting(Effect):
    """A lasting mark on the character (scar, lost eye, limp) with the mechanics given as effects."""

    name: str
    effects: EffectList = Field(default_factory=list)
    duration: Duration | None = None


@effect_kind("move")
class Move(Effect):
    """Something moves: a slipped weapon 2d6 feet away, a crawling character."""

    what: Literal["weapon", "self", "target"] = "weapon"
    distance: DiceText = "0"
    unit: Literal["feet", "inches", "zone"] = "feet"


@effect_kind("nothing")
class Nothing(Effect):
    """The row has no mechanical effect."""


@effect_kind("referee_prompt")
class RefereePrompt(Effect):
    """What the engine cannot decide alone; shown to the referee, never dropped."""

    prompt: str


# -- sentences a referee reads ----------------------------------------------------------------------------------
DiceShown = Callable[[str], str]
"""How a dice expression of an effect is shown: as written (`str`), or rolled with its faces and total."""

WHO: dict[str, str] = {
    "target": "the target", "self": "the roller", "attacker": "the attacker", "random_ally": "a random ally",
    "random_ally_close_to_target": "a random ally CLOSE to the target", "all_near_target": "everyone NEAR the target",
    "all_close_to_target": "everyone CLOSE to the target", "all_near": "everyone NEAR",
    "random_target": "a random target", "random_creature": "a random creature", "ally": "an ally",
}
# The words of the variables data files use in dice expressions (the rest: underscores read as spaces).
VARIABLE_WORDS = {"ROOM_DC": "the ROOM DC", "PC_LVL": "the PC's level", "MISHAP_ROUNDS": "the mishap's rounds",
                  "NEAR_DEAD": "the dead NEAR", "BATTLEFIELD_DEAD": "the dead on the battlefield",
                  "HAZARD_SAVE_DC": "the hazard's DC", "ITEM_SAVE_DC": "the item's DC"}
UNITS = {"exploration_turn": "exploration turn (10 minutes)"}
UNTIL = {"next_turn": "until its next turn", "until_rest": "until a rest", "until_cured": "until cured",
         "until_repaired": "until repaired", "until_healed": "until healed", "until_stands": "until it stands",
         "encounter": "for the encounter", "permanent": "for good"}
APPLIES_TO = {
    "atk": "{w}'s ATK", "atk_against": "ATK against {w}", "checks": "{w}'s checks", "all_rolls": "{w}'s every roll",
    "saves": "{w}'s SAVEs", "ac": "{w}'s AC", "damage": "{w}'s damage", "to_hit_and_damage": "{w}'s ATK and damage",
    "ranged_atk": "{w}'s ranged ATK", "perception_sight": "{w}'s Perception by sight",
    "persuasion": "{w}'s Persuasion", "intimidation": "{w}'s Intimidation", "next_atk": "{w}'s next ATK",
    "next_atk_against": "the next ATK against {w}", "spellcheck": "{w}'s SPELLCHECKs", "morale": "{w}'s morale",
    "fear_saves": "{w}'s SAVEs against fear", "dex": "{w}'s DEX",
}
WEAPON_DOES = {"drop": "weapon is dropped", "knock_away": "weapon is knocked away", "damage": "weapon is damaged",
               "destroy": "weapon is destroyed", "sunder": "weapon is sundered", "loose": "weapon slips loose",
               "entangled": "weapon is entangled", "notch": "weapon is notched", "slip": "weapon slips",
               "string_snaps": "bowstring snaps", "crack": "weapon cracks"}


def words(text: str) -> str:
    """A dice expression or a value of a data file as a referee reads it: variables named in words."""
    import re

    text = str(text)
    named = re.sub(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", lambda m: VARIABLE_WORDS.get(m[0], m[0].replace("_", " ")), text)
    return named if named == text else re.sub(r"\s*([+*/-])\s*", r" \1 ", named)


def _duration(d: Duration | None, shown: DiceShown) -> str:
    if d is None:
        return ""
    if d.unit in UNTIL:
        return f" {UNTIL[d.unit]}"
    if d.amount == "MISHAP_ROUNDS":
        return " for the rounds a mishap's condition lasts"
    return f" for {shown(d.amount)} {_units(d.unit, d.amount)}"


def _units(unit: str, amount: str) -> str:
    word = UNITS.get(unit, unit)
    return word if amount == "1" else word.replace(" (", "s (", 1) if "(" in word else word + "s"


def _who(target: str) -> str:
    return WHO.get(target, target.replace("_", " "))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _all(effects: list[Any], shown: DiceShown) -> str:
    return "; ".join(_sentence(e, shown) for e in effects) or "nothing"


def _damage(e: Damage, shown: DiceShown) -> str:
    what = f"{'the maximum of ' if e.maximum else ''}{shown(e.dice)}{' ' + e.type if e.type else ''} damage"
    to = "" if e.target == "target" else f" to {_who(e.target)}"
    every = f" every {UNITS.get(e.every, e.every)}" if e.every else ""
    return f"{what}{to}{every}{_duration(e.duration, shown)}"


def _condition(e: Condition, shown: DiceShown) -> str:
    meaning = CONDITIONS[e.name]
    state = meaning if e.name.startswith(("CANT_", "MOVE_", "LAST_")) else f"is {e.name}"
    return f"{_who(e.target)} {state}{_duration(e.duration, shown)}"


def _save(e: Save, shown: DiceShown) -> str:
    kind = " ".join(x for x in (e.ability, e.category and e.category.replace("_", " ")) if x)
    dc = words(e.dc) if e.dc != "ROOM_DC" else "the ROOM DC"
    mod = "" if e.modifier == "0" else f" with {words(e.modifier)} added"
    every = f", every {UNITS.get(e.every, e.every)}" if e.every else ""
    article = "an" if kind[:1] in ("A", "E", "I", "O") else "a"
    out = f"{_who(e.target)} makes {article} {kind + ' ' if kind else ''}SAVE against {dc}{mod}{every}"
    if e.on_fail:
        out += f"; if it fails: {_all(e.on_fail, shown)}"
    if e.on_success:
        out += f"; if it holds: {_all(e.on_success, shown)}"
    return out


def _modifier(e: Modifier, shown: DiceShown) -> str:
    roll = APPLIES_TO[e.applies_to].format(w=_who(e.target))
    verb = "is" if e.applies_to in ("ac", "damage", "morale", "dex", "next_atk", "next_atk_against") else "are"
    how = f"{e.value:+d} to {roll}" if e.mode == "BONUS" else f"{roll} {verb} {e.mode}"
    return f"{how}{_duration(e.duration, shown)}"


def _extra_attack(e: ExtraAttack, shown: DiceShown) -> str:
    at = {"same": "the same foe", "another_near": "another foe NEAR", "any_near": "any foe NEAR"}[e.target]
    again = ", again until one misses" if e.repeat == "until_miss" else ""
    only = ", only if the target dies" if e.only_if else ""
    return f"one more ATK against {at}{again}{only}"


def _ability_loss(e: AbilityLoss, shown: DiceShown) -> str:
    ability = "a random ability" if e.ability == "random" else e.ability
    how = f"has {ability} halved" if e.mode == "halve" else f"loses {shown(e.dice)} {ability}"
    return f"{_who(e.target)} {how}{' for good' if e.permanent else ' until healed'}"


def _death(e: Death, shown: DiceShown) -> str:
    when = f" in {shown(e.timer.amount)} {_units(e.timer.unit, e.timer.amount)}" if e.timer else ""
    unless = f" unless {e.unless}" if e.unless else ""
    return f"{_who(e.target)} dies{when}{unless}"


def _weapon(e: WeaponEffect, shown: DiceShown) -> str:
    out = f"{_who(e.target)}'s {WEAPON_DOES[e.action]}"
    if e.then:
        out += f"; with a weapon: {_all(e.then, shown)}"
    if e.otherwise:
        out += f"; without one: {_all(e.otherwise, shown)}"
    return out


def _armor(e: ArmorEffect, shown: DiceShown) -> str:
    piece = "a piece of armor" if e.piece == "any" else e.piece
    done = {"damage": "is damaged", "destroy": "is destroyed", "seize": "is seized"}[e.action]
    ac = f" (AC {e.ac_delta:+d})" if e.ac_delta else ""
    return f"{_who(e.target)}'s {piece} {done}{ac}"


SENTENCES: dict[str, Callable[[Any, DiceShown], str]] = {
    "damage": _damage, "condition": _condition, "save": _save, "modifier": _modifier,
    "extra_attack": _extra_attack, "ability_loss": _ability_loss, "death": _death, "weapon": _weapon,
    "armor": _armor,
    "heal": lambda e, s: f"{_who(e.target)} heals {s(e.dice)} {'Hit Dice' if e.unit == 'hit_die' else 'HP'}",
    "attack": lambda e, s: f"the roller attacks {'themself' if e.target == 'self' else _who(e.target)}",
    "slay": lambda e, s: "the target dies outright if its HP are below the attacker's"
                         + (f"; otherwise: {_all(e.otherwise, s)}" if e.otherwise else ""),
    "hp_fraction_loss": lambda e, s: f"{_who(e.target)} loses {e.fraction} of its {e.of} HP",
    "spell": lambda e, s: f"{'a random spell known' if e.spell == 'random_known' else 'the spell'} goes off at "
                          f"{_who(e.target)} with SL {s(e.sl)}",
    "summon": lambda e, s: f"{words(s(e.count))} {e.creature} summoned{_duration(e.duration, s)}",
    "area": lambda e, s: "it reaches everyone on the battlefield" if e.zone == "battlefield"
                         else f"it reaches everyone {e.zone} to {_who(e.of)}",
    "injury": lambda e, s: f"roll on the {_table_name(e.table)} table",
    "lasting": lambda e, s: f"a lasting mark, {e.name}"
                            + (f": {_all(e.effects, s)}" if e.effects else "") + _duration(e.duration, s),
    "move": lambda e, s: {"weapon": "the weapon lands", "self": "the roller moves", "target": "the target moves"}[
        e.what] + f" {s(e.distance)} {e.unit} away",
    "nothing": lambda e, s: "no effect",
    "referee_prompt": lambda e, s: f"for the referee: {e.prompt}",
}


TABLE_NAMES: dict[str, str] = {}
"""Table ids and their short names, filled as `furnace.rules.tables` loads the tables (which import this module)."""


def _table_name(table: str) -> str:
    """A table an effect names, by its short name with its id (`lingering-injuries (F-TAB-38)`)."""
    name = TABLE_NAMES.get(table)
    return f"{name} ({table})" if name else table


def _plain(value: Any) -> str:
    """A field of a kind registered elsewhere, in words (never a repr)."""
    if isinstance(value, Effect):
        return effect_summary(value)
    if isinstance(value, BaseModel):
        return _plain(value.model_dump(exclude_defaults=True))
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(_plain(v) for v in value)
    return words(str(value))


def effect_summary(effect: Effect, shown: DiceShown = words) -> str:
    """A sentence a referee reads: what the effect does, to whom, for how long (never a repr). `shown` shows the
    effect's dice: as written by default, or rolled (`furnace.render.referee.rolling`)."""
    return _cap(_sentence(effect, shown))


def _sentence(effect: Effect, shown: DiceShown) -> str:
    sentence = SENTENCES.get(effect.kind)
    if sentence is not None:
        text = sentence(effect, shown)
    else:
        fields = effect.model_dump(exclude={"kind", "note"}, exclude_defaults=True)
        text = effect.kind.replace("_", " ") + "".join(f", {k.replace('_', ' ')} {_plain(getattr(effect, k))}"
                                                       for k in fields)
    return text + (f" ({effect.note})" if effect.note else "")
