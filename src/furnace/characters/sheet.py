"""What a referee plays from, derived from a character and the rules in force: the values every sheet shows
(terminal, Markdown, HTML, the console), computed once here and put into words by `furnace.render.sheets`.

Coins (`extensions["gear"]`), XP and what the next level needs (F-BASE-08: the XP system is the referee's, so the
next level's XP comes from a keyed table named `xp-levels` she loads, key the level and data.xp; REF-24), Luck
Dice (F-LUCK-01), the Hit Dice left of the pool (F-HP-06), each weapon's ATK and damage (F-EQ-04, AMB-39),
what is worn and what is carried (F-EQ-01/02, F-LOAD-01), injuries and conditions, features by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from furnace.characters import arms, markers, xp
from furnace.characters.character import Character, archetype_table
from furnace.characters.equipment import attack_bonus, damage_expression
from furnace.characters.worn import armor_name, pieces
from furnace.errors import FurnaceError
from furnace.rules.ruleset import Ruleset

XP_TABLE = "xp-levels"


@dataclass(frozen=True)
class WeaponLine:
    name: str
    atk: int               # d20 + this to hit (ability + PROF if proficient, styles, notches)
    damage: str            # the damage roll as dice text: 1d8+2
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sheet:
    coins: int
    xp: int
    next_level: int | None            # None at level 10
    next_xp: int | None               # the XP the next level needs, when the referee's table gives it
    luck_dice: int
    hit_dice_left: int
    hit_dice_pool: int
    hit_die: str
    weapons: tuple[WeaponLine, ...]
    worn: tuple[str, ...]
    carried: tuple[str, ...]
    load: int
    load_limit: int
    features: tuple[str, ...]
    archetype_features: tuple[str, ...]
    injuries: tuple[str, ...]
    conditions: tuple[str, ...]       # codes (PRONE …): the renderers put them into words
    lasting: tuple[str, ...] = field(default=())   # "until rest" effects, in words

    @property
    def hit_dice_used(self) -> int:
        return max(0, self.hit_dice_pool - self.hit_dice_left)


def pool_size(character: Character, rules: Ruleset) -> int:
    """The Hit Dice of the level (F-HP-06, AMB-13): 1 at levels 0-1, up to 5 from level 5."""
    row = rules.tables.get(str(rules["advancement_table"])).lookup(character.level).data
    return int(row.get("hd_pool", max(1, min(character.level, 5))))


def next_level_xp(character: Character, rules: Ruleset) -> int | None:
    """The XP the next level needs, from the referee's `xp-levels` table (REF-24); None without one or at 10."""
    if character.level >= 10:
        return None
    try:
        row = rules.tables.get(XP_TABLE).lookup(character.level + 1)
    except FurnaceError:
        return None
    value = row.data.get("xp")
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def weapon_lines(c: Character, rules: Ruleset) -> tuple[WeaponLine, ...]:
    out = []
    for w in c.weapons:
        notes = [*(["broken"] if w.broken else []), *(["cracked"] if w.cracked else []),
                 *([f"{w.notches} notched"] if w.notches else []), *([f"magic {w.magic_bonus:+d}"] if w.magic_bonus
                                                                     else []), *w.tags]
        if not arms.wieldable(c, w):
            notes.append(f"cannot be wielded: {arms.hurt_words(c)}")
        out.append(WeaponLine(w.name, attack_bonus(c, w, rules), damage_expression(c, w, rules), tuple(notes)))
    return tuple(out)


def worn_lines(c: Character, rules: Ruleset) -> tuple[str, ...]:
    """Armor with its AC and Stealth, the shield with its arm, the helmet."""
    out = []
    if c.armor:
        data = rules.tables.get("armor").lookup(c.armor).data
        notes = [f"{data.get('type')} armor"]
        notes += ["Stealth HARD"] if data.get("stealth") == "HARD" else []
        notes += [f"{c.armor_damage} protection lost"] if c.armor_damage else []
        notes += [f"magic {c.armor_magic:+d}"] if c.armor_magic else []
        out.append(f"{armor_name(c.armor)} ({', '.join(notes)})")
    if c.shield:
        arm = arms.shield_arm(c)
        lame = arms.lame_arms(c).get(arm)
        bonus = int(rules.tables.get("armor").lookup("shield").data.get("ac_bonus", 2)) + c.shield_magic
        out.append(f"shield (on the {arm} arm, " + (f"{lame}: no AC)" if lame else f"AC {bonus:+d})"))
    if c.helmet:
        out.append("helmet")
    return tuple(out)


def archetype_feature_names(c: Character, rules: Ruleset) -> tuple[str, ...]:
    """Her archetype's features by name (its row's text up to a colon: 'Rage'), not by their keys."""
    if not c.archetype or not c.archetype_features:
        return ()
    table = archetype_table(rules, c.archetype)
    texts = [table.lookup(key).text for key in c.archetype_features]
    return tuple(text.split(":")[0].strip() if ":" in text else text for text in texts)


def lasting_lines(c: Character) -> tuple[str, ...]:
    """Her "until rest" effects in words: a held modifier as what it does, a named line as its text."""
    out = []
    for line in c.until_rest:
        name, _, source = line.partition(": ")
        held = markers.held_markers(c.model_copy(update={"until_rest": [line], "extensions": {}}))
        out.append(held[0].explain() if held else (source or name))
    return tuple(out)


def sheet(c: Character, rules: Ruleset, *, luck: int | None = None) -> Sheet:
    """The sheet's values (`luck`: the player's pool, when Luck is kept per player rather than per character)."""
    gear = dict(c.extensions.get(arms.GEAR, {}))
    coins, torches = int(gear.get("coins", 0)), sum(1 for i in c.items if i.strip().lower() in ("torch", "torches"))
    kept = pieces(c)
    carried = tuple(_carried(i, _kept_notes(kept.get(i.casefold(), {}))) for i in c.items)
    return Sheet(coins=coins, xp=xp.total(c), next_level=c.level + 1 if c.level < 10 else None,
                 next_xp=next_level_xp(c, rules), luck_dice=c.luck_dice if luck is None else luck,
                 hit_dice_left=c.hit_dice, hit_dice_pool=pool_size(c, rules), hit_die=c.hit_die(rules),
                 weapons=weapon_lines(c, rules), worn=worn_lines(c, rules), carried=carried,
                 load=markers.load_used(c, coins, torches), load_limit=c.load_limit(rules),
                 features=tuple(c.features), archetype_features=archetype_feature_names(c, rules),
                 injuries=tuple(c.injuries), conditions=tuple(c.conditions),
                 lasting=lasting_lines(c))


def _carried(item: str, notes: list[str]) -> str:
    return f"{item} ({', '.join(notes)})" if notes else item


def _kept_notes(state: dict[str, object]) -> list[str]:
    """What a piece in the pack kept when taken off: its notches, damage, plus."""
    notes = []
    for key, word in (("notches", "notched"), ("armor_damage", "protection lost"), ("shield_damage", "damaged")):
        value = state.get(key)
        if isinstance(value, int) and value:
            notes.append(f"{value} {word}")
    for key in ("magic_bonus", "armor_magic", "shield_magic"):
        value = state.get(key)
        if isinstance(value, int) and value:
            notes.append(f"magic {value:+d}")
    notes += ["broken"] if state.get("broken") else []
    return notes
