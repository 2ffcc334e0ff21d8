"""What a character's gear, load, state and injuries do to her rolls, in and out of fights: markers.

A marker names the rolls it touches (`applies_to`), how (`mode`: EASY, HARD, DISADVANTAGE, or FORBIDDEN for
what she cannot do at all) and why (`source`, a sentence for the log). Skill CHECKs (`furnace.play.skills`),
the fight (`furnace.play.combatant.from_character`, as held modifiers) and casting read the same markers:

- armor or a shield she is not proficient in (D-9, AMB-40, option `nonproficient_armor`; the class's armor
  from F-TAB-04, options `rogue_shield` (CF-07) and `magic_user_proficiencies` (CF-06)): STR and DEX CHECKs,
  SAVEs and ATKs HARD, no spellcasting;
- more than her Load (AMB-57, option `overload_penalty`): STR and DEX CHECKs and ATKs HARD;
- the injuries she carries (F-TAB-37a/b rows 14-19 "every CHECK", F-TAB-38's lost eye and horrible scar),
  read from the injury tables in force by the row's text or its lasting mark's name, in `injuries` or in the
  `until_rest` lines (D-7);
- conditions she holds whose text says what they do to her CHECKs (FRIGHTENED, WEAK; AMB-22).

The applies_to words are those of the effect kind `modifier` (`checks`, `atk`, `ranged_atk`, `persuasion`,
`intimidation`, `perception_sight` …), and for one ability's rolls `str_checks`, `dex_checks`, `str_saves`,
`dex_saves`; `spellcasting` FORBIDDEN bars every SPELLCHECK.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from furnace.rules.effects import Ability, Lasting, Modifier
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row, Table

if TYPE_CHECKING:
    from furnace.characters.character import Character

Mode = Literal["EASY", "HARD", "DISADVANTAGE", "ADVANTAGE", "FORBIDDEN"]
Piece = Literal["light", "heavy", "shield"]
LoadState = Literal["ok", "over", "immobile"]
BUNDLES = {"coins": 1000, "torches": 5}      # F-LOAD-01: light things count in bulk
INJURY_TABLES = ("F-TAB-37a", "F-TAB-37b", "F-TAB-38")
# AMB-22: what a held condition does to the holder's CHECKs and SAVEs out of a fight (its ATKs are the fight's)
CONDITION_MARKERS: dict[str, tuple[tuple[str, Mode], ...]] = {
    "FRIGHTENED": (("checks", "HARD"),),
    "WEAK": (("str_checks", "HARD"), ("str_saves", "HARD")),
}


@dataclass(frozen=True)
class Marker:
    """Something that makes some of a character's rolls EASY or HARD (or impossible), and why."""

    applies_to: str
    mode: Mode
    source: str

    def explain(self) -> str:
        what = self.applies_to.replace("_", " ")
        return f"{what} {self.mode} ({self.source})"


def _ability_rolls(kinds: Iterable[str], abilities: Iterable[Ability], mode: Mode, source: str) -> list[Marker]:
    return [Marker(f"{a.lower()}_{kind}", mode, source) for kind in kinds for a in abilities]


# -- armor proficiency (D-9, AMB-40, CF-06, CF-07) ------------------------------------------------------------
def armor_proficiencies(character: Character, rules: Ruleset) -> tuple[str, ...]:
    """The armor a character's class is proficient in (F-TAB-04 data.armor: light, heavy, shield).

    The Rogue's shield follows `rogue_shield` (CF-07); the Magic-user's armor `magic_user_proficiencies`
    (CF-06: the table's shield, or the class section's light armor). A 0-level character has no class row
    to read: the funnel's peasants wear what they find, so no piece counts as non-proficient (REF)."""
    if character.char_class is None:
        return ("light", "heavy", "shield")
    allowed = [str(a) for a in character.class_data(rules).get("armor", [])]
    if character.char_class == "Rogue" and not rules["rogue_shield"]:
        allowed = [a for a in allowed if a != "shield"]
    if character.char_class == "Magic-user" and rules["magic_user_proficiencies"] == "class_section":
        allowed = ["light"]
    return tuple(allowed)


def worn_pieces(character: Character, rules: Ruleset) -> list[tuple[str, str]]:
    """(kind, name) of each piece worn: the body armor's F-TAB-21 type (light or heavy) and the shield."""
    pieces: list[tuple[str, str]] = []
    if character.armor:
        kind = str(rules.tables.get("armor").lookup(character.armor).data.get("type", "none"))
        if kind in ("light", "heavy"):
            pieces.append((kind, character.armor))
    if character.shield:
        pieces.append(("shield", "shield"))
    return pieces


def nonproficient_pieces(character: Character, rules: Ruleset) -> list[str]:
    """The pieces worn without proficiency, named for the log: 'chain-mail (heavy armor)', 'shield'."""
    allowed = armor_proficiencies(character, rules)
    return [name if kind == "shield" else f"{name} ({kind} armor)"
            for kind, name in worn_pieces(character, rules) if kind not in allowed]


def armor_markers(character: Character, rules: Ruleset) -> list[Marker]:
    """D-9 / option nonproficient_armor: like_5e STR and DEX CHECKs, SAVEs and ATKs HARD and no spellcasting;
    checks_and_attacks the same without the SAVEs; no_penalty nothing."""
    mode = str(rules["nonproficient_armor"])
    bad = nonproficient_pieces(character, rules)
    if not bad or mode == "no_penalty":
        return []
    source = f"non-proficient {', '.join(bad)} ({'D-9' if mode == 'like_5e' else 'AMB-40'})"
    kinds = ("checks", "saves") if mode == "like_5e" else ("checks",)
    return [*_ability_rolls(kinds, ("STR", "DEX"), "HARD", source), Marker("atk", "HARD", source),
            Marker("spellcasting", "FORBIDDEN", source)]


def casting_refusal(character: Character, rules: Ruleset) -> str | None:
    """Why the character cannot cast a spell because of her armor (D-9), or None."""
    if any(m.applies_to == "spellcasting" for m in armor_markers(character, rules)):
        return (f"{character.name} cannot cast spells in armor she is not proficient in: "
                f"{', '.join(nonproficient_pieces(character, rules))}")
    return None


# -- load (F-LOAD-01, AMB-57) -------------------------------------------------------------------------------
def load_used(character: Character, coins: int = 0, torches: int = 0) -> int:
    """F-LOAD-01: every item is one load, worn or in the pack (a helmet too); coins count per 1000 and torches per
    5 (rounded up)."""
    items = [i for i in character.items if i.lower() not in ("torch", "torches")]
    gear = len(items) + len(character.weapons) + (1 if character.armor else 0) + (1 if character.shield else 0) \
        + (1 if character.helmet else 0)
    return gear + -(-coins // BUNDLES["coins"]) + -(-torches // BUNDLES["torches"])


def load_limit(character: Character, rules: Ruleset | None = None) -> int:
    """Load = 10 + STR (F-LOAD-01), the modifier read per the rules in force."""
    return 10 + character.mod("STR", rules)


def load_state(character: Character, rules: Ruleset, coins: int = 0, torches: int = 0) -> LoadState:
    """AMB-57: 'over' above the Load (movement NEAR a turn), 'immobile' above twice the Load; always 'ok'
    under overload_penalty none (the load is only tracked)."""
    used, limit = load_used(character, coins, torches), load_limit(character, rules)
    if rules["overload_penalty"] == "none" or used <= limit:
        return "ok"
    return "immobile" if used > 2 * limit else "over"


def load_markers(character: Character, rules: Ruleset, coins: int = 0, torches: int = 0) -> list[Marker]:
    """AMB-57 (option overload_penalty hard_near): above the Load, STR and DEX CHECKs and ATKs are HARD."""
    if load_state(character, rules, coins, torches) == "ok":
        return []
    used, limit = load_used(character, coins, torches), load_limit(character, rules)
    source = f"over Load: {used} of {limit} (AMB-57)"
    return [*_ability_rolls(("checks",), ("STR", "DEX"), "HARD", source), Marker("atk", "HARD", source)]


# -- injuries and conditions (F-TAB-37a/b, F-TAB-38, D-7, AMB-22) ------------------------------------------
def _injury_tables(rules: Ruleset) -> list[Table]:
    ids = [str(rules["injury_table"]), str(rules["lingering_injury_table"]), *INJURY_TABLES]
    tables: dict[str, Table] = {}
    for table_id in ids:
        table = rules.tables.get(table_id)
        tables.setdefault(table.id, table)
    return list(tables.values())


def _row_names(row: Row) -> list[str]:
    """The texts a character may carry for a row: its text and the names of its lasting marks."""
    return [row.text, *(e.name for e in row.effect_list() if isinstance(e, Lasting))]


def _row_markers(table: Table, row: Row) -> list[Marker]:
    out: list[Marker] = []
    for effect in row.effect_list():
        name = effect.name if isinstance(effect, Lasting) else row.text
        inner = effect.effects if isinstance(effect, Lasting) else [effect]
        for e in inner:
            if isinstance(e, Modifier) and e.target == "self" and e.mode in ("EASY", "HARD", "DISADVANTAGE"):
                out.append(Marker(e.applies_to, e.mode, f"{name} ({table.id} {row.span})"))
    return out


def _carried(character: Character) -> set[str]:
    """What the character carries, as the tables write it: her injuries and her until_rest lines (a line
    may lead with a name: 'NAME: text')."""
    lines = [*character.injuries, *character.until_rest]
    return {t.strip().casefold() for line in lines for t in (line, line.partition(": ")[2]) if t.strip()}


def table_markers(character: Character, rules: Ruleset) -> list[Marker]:
    """The markers of every injury row (F-TAB-37a/b, F-TAB-38, the tables in force) whose text or lasting
    mark the character carries in her injuries or until_rest lines."""
    carried = _carried(character)
    if not carried:
        return []
    out: list[Marker] = []
    for table in _injury_tables(rules):
        for row in table.rows:
            if any(n.strip().casefold() in carried for n in _row_names(row)):
                out += _row_markers(table, row)
    return out


def _held_marker(name: str, source: str) -> Marker | None:
    """A held modifier written back from a fight ('MOD:checks:HARD', D-7) as a marker, or None."""
    parts = name.split(":")
    if len(parts) == 3 and parts[0] == "MOD" and parts[2] in ("EASY", "HARD", "DISADVANTAGE", "ADVANTAGE"):
        return Marker(parts[1], parts[2], source or f"{parts[1]} {parts[2]}")  # type: ignore[arg-type]
    return None


def held_markers(character: Character) -> list[Marker]:
    """The modifiers a fight left on her: until_rest lines 'MOD:<rolls>:<mode>: source' (D-7) and the lasting
    ones kept in extensions['fight']['held'] (one eye, AMB-34)."""
    found = [_held_marker(*line.partition(": ")[::2]) for line in character.until_rest]
    kept = character.extensions.get("fight", {}).get("held", [])
    found += [_held_marker(str(h.get("name", "")), str(h.get("source", ""))) for h in kept if isinstance(h, dict)]
    return [m for m in found if m is not None]


def injury_markers(character: Character, rules: Ruleset) -> list[Marker]:
    """Her injuries' markers, each kind of roll and mode once (the same lost eye may be written as the row's
    text and kept as a held marker; one source counts once, AMB-04)."""
    out: dict[tuple[str, str], Marker] = {}
    for m in [*table_markers(character, rules), *held_markers(character)]:
        out.setdefault((m.applies_to, m.mode), m)
    return list(out.values())


def condition_markers(character: Character, rules: Ruleset | None = None) -> list[Marker]:
    """What her conditions do to her rolls (AMB-22), but those she is immune to (a Barbarian's FEAR, F-ARCH-02)."""
    immune = character.immunities(rules)
    return [Marker(applies_to, mode, f"{name} (AMB-22)") for name in character.conditions if name not in immune
            for applies_to, mode in CONDITION_MARKERS.get(name, ())]


def markers(character: Character, rules: Ruleset) -> list[Marker]:
    """Every marker the character carries now: armor, load, injuries, conditions."""
    return [*armor_markers(character, rules), *load_markers(character, rules), *injury_markers(character, rules),
            *condition_markers(character, rules)]
