"""Exact odds of one attack and of a dying character, from the rules the engine plays by.

`attack_odds`: one ATK of an attacker (a `Combatant` built from a character file, or an `Attacker` from the
numbers a referee types) against an AC. A natural 1 misses (F-FUMB-01); a natural at or above the attacker's crit range
(20, a Barbarian's melee 19: F-ARCH-02; ranged always 20) hits and, when the attacker has a crit table
(`furnace.play.crit.crit_table`: by class, level 0 and Magic-users per option, monsters only with F-CRIT-03),
crits; anything else hits when d20 + ATK meets the AC, moved by EASY/HARD (`furnace.play.dc.make_dc`).
A hit deals the damage dice, at least 1; a crit deals the weapon's maximum (crit_damage, AMB-23) plus the
crit table's row rolled with the crit die for the attacker's level (F-CRIT-02, read through the ruleset's
tables): the row's '+XdY' damage to the target is added (a sunder row's 'then' branch when the foe holds a
weapon, else its 'otherwise'; a slay row's 'otherwise'), and rows that kill outright are counted apart.
Luck Dice (F-LUCK-03) are a player's choice and are not in these odds.

`dying_odds`: F-DEATH-01 under death_model furnace: the timer is 1d4 turns and each of her turns while dying
she rolls a d20, getting up with 1 HP on a natural 20; with T turns she rolls T times.

Every distribution is our own exact convolution (`furnace.dice.odds`), in Fractions.
"""

from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from furnace import dice
from furnace.dice.odds import Distribution, at_least, convolve, mean, mixture
from furnace.errors import FurnaceError
from furnace.play.crit import CLASS_CRIT_TABLES, crit_level, crit_table
from furnace.play.dc import make_dc

if TYPE_CHECKING:
    from furnace.play.combatant import Combatant
    from furnace.rules.ruleset import Ruleset

# The odds read a ruleset and an attacker by their attributes: a `Ruleset` or the plain reading of a built-in profile
# (`furnace.rules.plain.PlainRules`: `furnace odds attack` builds no model), a `Combatant` or an `Attacker`.
Rules: TypeAlias = Any
Fighter: TypeAlias = Any

CLASSES = (*CLASS_CRIT_TABLES, "Magic-user")
DYING_TIMER = "1d4"          # F-DEATH-01: "Roll 1d4, after that many turn you die" (furnace.play.death)
GETS_UP_ON = 20              # F-DEATH-01: "on a natural 20 you get up with 1 hp"


def class_name(text: str | None) -> str | None:
    """A class as typed (fighter, magic-user, any case) → the rules' spelling; None for a 0-level."""
    if text is None:
        return None
    for name in CLASSES:
        if name.lower() == text.strip().lower():
            return name
    raise FurnaceError(f"unknown class {text!r}; the classes are {', '.join(CLASSES)}")


def attack_bonus_of(text: str) -> int:
    """The ATK bonus of an attack roll written `d20+3`, `1d20-1`, `+3` or `3`: only a plain d20 plus a
    number, as the engine rolls an ATK."""
    cleaned = text.replace(" ", "").lower()
    for head in ("1d20", "d20"):
        if cleaned.startswith(head):
            cleaned = cleaned[len(head):] or "0"
            break
    try:
        return int(cleaned)
    except ValueError:
        raise FurnaceError(f"an ATK is d20 plus a number, like d20+3 or d20-1, not {text!r}") from None


class Attacker(NamedTuple):
    """What the odds read of an attacker, from the numbers a referee gives: a `Combatant`'s fields of the same names
    (one made from a character file is read alike), with no model to build (`furnace odds attack` starts fast)."""

    id: str
    name: str
    side: str
    kind: str
    level: int
    char_class: str | None
    attack_bonus: int
    damage: str
    ranged: bool
    crit_range: int

    def combatant(self) -> "Combatant":
        """The attacker as the engine's combatant (1 HP, AC 10: the odds read neither)."""
        from furnace.play.combatant import Combatant

        return Combatant.model_validate(dict(   # validated: `kind` is any text here
            id=self.id, name=self.name, side=self.side, kind=self.kind, level=self.level, char_class=self.char_class,
            hp=1, hp_max=1, ac=10, attack_bonus=self.attack_bonus, damage=self.damage, ranged=self.ranged,
            crit_range=self.crit_range))


def typed_attacker(bonus: int, damage: str, *, level: int = 0, char_class: str | None = None, crit_on: int = 20,
                   ranged: bool = False, monster: bool = False) -> Attacker:
    """The attacker from the numbers a referee gives, each checked."""
    dice.parse(damage)                # refused here, with the dice's own error, if it does not parse
    if not 2 <= crit_on <= 20:
        raise FurnaceError(f"a crit range starts at a natural 2 to 20, not {crit_on}")
    if not 0 <= level <= 20:
        raise FurnaceError(f"a level is 0 to 20, not {level}")
    return Attacker(id="attacker", name="the attacker", side="attackers", kind="monster" if monster else "pc",
                    level=level, char_class=class_name(char_class) if level else None, attack_bonus=bonus,
                    damage=damage, ranged=ranged, crit_range=crit_on)


def attacker(bonus: int, damage: str, *, level: int = 0, char_class: str | None = None, crit_on: int = 20,
             ranged: bool = False, monster: bool = False) -> "Combatant":
    """The attacker as the engine sees one, from the numbers a referee gives (`typed_attacker`'s combatant)."""
    return typed_attacker(bonus, damage, level=level, char_class=char_class, crit_on=crit_on, ranged=ranged,
                          monster=monster).combatant()


class CritRow(NamedTuple):
    """One row of the crit table, as a crit reaches it."""

    span: str
    text: str
    chance: Fraction                 # P(this row | a crit)
    extra: Distribution              # the row's added damage to the target
    kills: bool                      # the row can kill outright (death, slay)


class AttackOdds(NamedTuple):
    """One ATK's exact odds against an AC. (The odds' results are NamedTuples: a frozen dataclass costs `furnace odds
    attack`'s import about a millisecond each to make.)"""

    attack: str
    ac: int                          # the AC to meet, after EASY/HARD
    why: str                         # how that AC was reached
    crit_on: int
    p_fumble: Fraction
    p_hit: Fraction                  # every hit, crits included
    p_crit: Fraction
    hit_damage: Distribution         # an ordinary hit
    crit_damage: Distribution        # a crit: the maximum and the row's dice
    crit_table: str | None
    crit_die: str | None
    crit_rows: tuple[CritRow, ...]
    damage: Distribution             # per attack, a miss counting 0

    @property
    def expected(self) -> Fraction:
        return mean(self.damage)

    @property
    def p_kill_row(self) -> Fraction:
        """P(the attack crits and the row can kill outright)."""
        return self.p_crit * sum((r.chance for r in self.crit_rows if r.kills), Fraction(0))

    def p_damage_at_least(self, amount: int) -> Fraction:
        return at_least(self.damage, amount)


def _crit_base(a: Fighter, rules: Rules) -> int:
    """The crit's maximum DAM: with the flat modifiers (max_dice_plus_mods) or the dice only (max_dice_only), as
    `furnace.play.attacks` deals it (AMB-23)."""
    if rules["crit_damage"] == "max_dice_only":
        return dice.parse(a.damage).dice_maximum()
    return dice.parse(a.damage).bounds()[1]


def _row_damage(effects: list[Any], foe_armed: bool) -> tuple[list[str], list[int], bool]:
    """The dice the row adds to the target, its fixed maxima, and whether it can kill outright. Each effect is read
    by its kind (`furnace.rules.effects`: damage, weapon, slay, death), a model's or a plain one's alike."""
    rolled: list[str] = []
    fixed: list[int] = []
    kills = False
    for e in effects:
        if e.kind == "damage" and e.target == "target" and e.every is None:
            if e.maximum:
                fixed.append(dice.parse(e.dice).bounds()[1])
            else:
                rolled.append(e.dice)
        elif e.kind == "weapon" and e.target == "target" and (e.then or e.otherwise):
            more = _row_damage(list(e.then if foe_armed else e.otherwise), foe_armed)
            rolled, fixed, kills = rolled + more[0], fixed + more[1], kills or more[2]
        elif e.kind == "slay":
            more = _row_damage(list(e.otherwise), foe_armed)
            rolled, fixed, kills = rolled + more[0], fixed + more[1], True
        elif e.kind == "death" and e.target == "target" and e.timer is None:
            kills = True
    return rolled, fixed, kills


def _crit_row(row: Any, chance: Fraction, foe_armed: bool) -> CritRow:
    rolled, fixed, kills = _row_damage(row.effect_list(), foe_armed)
    extra = dice.parse("+".join(rolled)).distribution() if rolled else {0: Fraction(1)}
    return CritRow(row.span, row.text, chance, {k + sum(fixed): p for k, p in extra.items()}, kills)


def crit_rows(a: Fighter, rules: Rules, foe_armed: bool = True) -> tuple[str | None, str | None,
                                                                                tuple[CritRow, ...]]:
    """The attacker's crit table, its die for her level, and each row a crit can reach with its chance."""
    name = crit_table(a, rules)
    if name is None:
        return None, None, ()
    table = rules.tables.get(name)
    level = crit_level(a, rules)
    die = rules.tables.die_for(table, level)[0] if table.die_table is not None else table.roll
    if die is None:
        raise FurnaceError(f"{table.name} names no die to roll it with")
    chances: dict[str, tuple[Any, Fraction]] = {}
    for total, p in dice.parse(die).distribution().items():
        row = table.lookup(total)
        before = chances.get(row.span, (row, Fraction(0)))[1]
        chances[row.span] = (row, before + p)
    return table.name, die, tuple(_crit_row(row, p, foe_armed) for row, p in chances.values())


def attack_odds(a: Fighter, ac: int, rules: Rules, *, easy: tuple[str, ...] = (),
                hard: tuple[str, ...] = (),
                foe_armed: bool = True) -> AttackOdds:
    """The exact odds of one ATK by `a` against AC `ac` (F-CMBT-01, F-CRIT-01/02, F-FUMB-01)."""
    if rules["crit_model"] != "furnace":
        raise FurnaceError(f"exact attack odds follow the Furnace crit (F-CRIT-01); this profile's crit_model is "
                           f"{rules['crit_model']}")
    dc = make_dc(ac, easy, hard, rules)
    crit_on = a.crit_range if not a.ranged else 20
    table, die, rows = crit_rows(a, rules, foe_armed)
    n = Fraction(1, 20)
    natural_hits = sum(1 for k in range(2, 21) if k >= crit_on)
    rolled_hits = sum(1 for k in range(2, 21) if k < crit_on and k + a.attack_bonus >= dc.value)
    p_crit = natural_hits * n if table is not None else Fraction(0)
    p_hit = (natural_hits + rolled_hits) * n
    ordinary: Distribution = {}
    for total, p in dice.parse(a.damage).distribution().items():
        ordinary[max(1, total)] = ordinary.get(max(1, total), Fraction(0)) + p
    base = {_crit_base(a, rules): Fraction(1)}
    crit = mixture([(r.chance, convolve(base, r.extra)) for r in rows]) if rows else base
    damage = mixture([(1 - p_hit, {0: Fraction(1)}), (p_hit - p_crit, ordinary), (p_crit, crit)])
    why = dc.explain().replace("ROOM DC", "AC", 1).replace("DC", "AC", 1)
    return AttackOdds(attack=f"d20{a.attack_bonus:+d}", ac=dc.value, why=why, crit_on=crit_on, p_fumble=n,
                      p_hit=p_hit, p_crit=p_crit, hit_damage=dict(sorted(ordinary.items())), crit_damage=crit,
                      crit_table=table, crit_die=die, crit_rows=rows, damage=damage)


class DyingOdds(NamedTuple):
    timer: Distribution              # turns until death
    gets_up: Fraction                # P(a natural 20 before the timer runs out)
    by_turns: dict[int, Fraction]    # P(gets up | that many turns)


def dying_odds(rules: "Ruleset") -> DyingOdds:
    """F-DEATH-01: P(a dying character gets up before her 1d4-turn timer ends), rolling a d20 each turn."""
    if rules["death_model"] != "furnace":
        raise FurnaceError(f"a dying timer is the Furnace death model's (F-DEATH-01); this profile's death_model is "
                           f"{rules['death_model']}, which has none")
    timer = dice.parse(DYING_TIMER).distribution()
    miss = 1 - at_least(dice.parse("d20").distribution(), GETS_UP_ON)
    by_turns = {t: 1 - miss ** t for t in timer}
    return DyingOdds(timer, sum((p * by_turns[t] for t, p in timer.items()), Fraction(0)), by_turns)
