"""The choices a fight gives a player, each asked (`furnace.play.questions.ask`) where the rule gives it.

- Luck Dice on a roll just seen (F-LUCK-03, AMB-02): a failed ATK, a failed death SAVE (F-DEATH-03), a dying
  d20 when a spent die rolls the d20 again (luck_die_effect reroll; a die added to the total cannot make a
  natural 20), a crit-table roll (a higher row); under luck_spend_timing before_roll the spend is declared
  before the ATK is rolled. The options are 0 to the dice she holds; several may go on one roll.
- Shield sunder (F-EQ-03, AMB-36): after the damage is rolled and before it is applied, the bearer may halve it
  (rounded per shield_sunder_damage) and lose the shield and its AC.
- Rage (F-ARCH-02, AMB-46): as she attacks, a Barbarian with a Rage left may rage.
- Cleave (F-FTR-03, AMB-01): a Fighter's lethal blow; she may carry the excess (or a new ATK, cleave_overflow) to
  a second foe CLOSE, and picks which; the options are the foes' ids, then no.
- Once-a-fight archetype powers (F-ARCH-03, AMB-46): Chosen one, asked when she has seen her ATK miss (yes | no);
  Rally, asked as she attacks, with her allies' ids to pick the one whose next ATK is EASY, then no. A power she
  declines is hers still, and asked again at the next chance.
- Fighting styles (F-FTR-04, AMB-45, `furnace.play.styles`): the 2H weapon master, asked when she has seen a 1
  among her two-handed weapon's damage dice whether to roll each 1 again (yes | no); Protection, asked as a foe
  attacks an ally near her whether to make that ATK HARD, once a fight (yes | no).
- A helmet's save vs. death (M-SEVER-01 head, M-BONE-01 skull, AMB-94): on that location the wearer may make it;
  declined, the row stands as without a helmet.

The answer changes what happens; nobody asked, the owner's standing answer decides (`furnace.play.policies`).
"""

from __future__ import annotations

from furnace import dice
from furnace.events import declare
from furnace.play import luck
from furnace.play.combatant import Combatant
from furnace.play.questions import NO, YES, ask
from furnace.play.state import Step

LUCK = declare("luck", before="actor", after="actor", left="actor")
STYLE_RULES = ("F-FTR-04", "AMB-45")   # the fighting styles asked as powers
SHIELD_BONUS = 2          # a shield's AC (F-TAB-21), lost with it


def held_luck(step: Step, c: Combatant) -> luck.LuckState:
    """The Luck Dice she may spend now: read in this one place (the fight's pool of her owner, `Step.luck`), so
    that where Luck is kept (the player's pool, luck_owner) can change here alone."""
    return step.luck(c) if c.kind == "pc" else NO_LUCK


NO_LUCK = luck.LuckState()         # what a monster holds


def _counts(held: int) -> tuple[str, ...]:
    return tuple(str(n) for n in range(held + 1))


def luck_on(step: Step, cid: str, roll: dice.RollResult, *, needed: int | None, death: bool = False,
            natural_needed: int | None = None) -> luck.LuckSpend | None:
    """A PC's failed roll: she may spend Luck Dice on it (after seeing it). `needed`: the total that succeeds;
    `natural_needed`: the natural face that does (a dying d20), which only a reroll can change. Returns the spend
    (its total, its dice), or None when none was spent."""
    c = step.c(cid)
    held = held_luck(step, c).dice
    if held < 1 or step.options["luck_spend_timing"] != "after_roll":
        return None
    reroll = step.options["luck_die_effect"] == "reroll"
    if natural_needed is not None and not reroll:
        return None                                  # AMB-02: a die added to the total leaves the natural face
    die_max = _die_max(str(step.options["luck_die_size"]))
    short = (needed - roll.total) if needed is not None else None
    saves = reroll or (short is not None and short <= die_max)
    answer = ask(step, c, "luck", _counts(held), {"saves": saves, "roll": roll.label, "death": death},
                 {"roll": roll.label, "total": roll.total, "natural": roll.natural, "held": held,
                  "effect": str(step.options["luck_die_effect"])})
    return spend(step, c, roll, int(answer))


def _die_max(size: str) -> int:
    """The most a Luck Die of this size rolls (worked out once a size: a fight asks at every failed ATK)."""
    most = _DIE_MAX.get(size)
    if most is None:
        most = _DIE_MAX[size] = dice.parse(size).bounds()[1]
    return most


_DIE_MAX: dict[str, int] = {}     # (a few sizes: the option's values)


def luck_on_table(step: Step, cid: str, roll: dice.RollResult, top: int) -> luck.LuckSpend | None:
    """F-LUCK-03 ("You can always use Luck Dice!" on the crit tables): Luck Dice added to a table roll she made, for
    a higher row; asked when one is held and the total is below the top row (`top`, its lowest total). A die that
    rolls the d20 again has no meaning on a table's own die: only an added die is offered."""
    c = step.c(cid)
    held = held_luck(step, c).dice
    if held < 1 or roll.total >= top or step.options["luck_die_effect"] != "add" \
            or step.options["luck_spend_timing"] != "after_roll":
        return None
    answer = ask(step, c, "luck", _counts(held), {"saves": True, "roll": roll.label},
                 {"roll": roll.label, "total": roll.total, "held": held, "effect": "add"})
    return spend(step, c, roll, int(answer))


def luck_before(step: Step, cid: str, label: str) -> int:
    """Under luck_spend_timing before_roll: the Luck Dice she declares on the roll about to be made."""
    c = step.c(cid)
    held = held_luck(step, c).dice
    if held < 1 or step.options["luck_spend_timing"] != "before_roll":
        return 0
    return int(ask(step, c, "luck", _counts(held), {"saves": False, "roll": label},
                   {"roll": label, "held": held, "before_roll": True}))


def spend(step: Step, c: Combatant, roll: dice.RollResult, n: int) -> luck.LuckSpend | None:
    """Spend `n` of her Luck Dice on the roll (none: nothing happens), recorded as the luck fact."""
    if n < 1:
        return None
    state, spent = luck.spend(held_luck(step, c), step.rng, roll.total, step.rules, n, natural=roll.natural,
                              label="Luck Die")
    step.hold_luck(c, state)
    step.fact(LUCK, c.id, (), spent.rolls, ("F-LUCK-03",), before=roll.total, after=spent.total, left=state.dice)
    return spent


def rerolled_natural(spent: luck.LuckSpend | None, roll: dice.RollResult) -> int | None:
    """The natural d20 face after a spend: a reroll's last die, else the roll's own (AMB-02)."""
    if spent is not None and spent.effect == "reroll" and spent.rolls:
        return spent.rolls[-1].total
    return roll.natural


def sunders(step: Step, target: str, amount: int) -> bool:
    """F-EQ-03, AMB-36: the bearer of a shield, struck for `amount`, chooses whether to sunder it."""
    t = step.c(target)
    if not (t.kind == "pc" and t.shield and t.hp > 0 and amount > 0):
        return False
    return ask(step, t, "sunder", (YES, NO), {"drops": t.hp - amount <= 0},
               {"amount": amount, "hp": t.hp, "halved": halved(step, amount)}) == YES


def halved(step: Step, amount: int) -> int:
    """The damage a sundered shield lets through: half, rounded up (bearer_ceil) or down (shield_sunder_damage)."""
    return -(-amount // 2) if step.options["shield_sunder_damage"] == "bearer_ceil" else amount // 2


def rages(step: Step, c: Combatant, left: int) -> bool:
    """F-ARCH-02: she may rage as she attacks (+PROF DAM, −PROF AC to the end of the fight)."""
    return ask(step, c, "rage", (YES, NO), {}, {"left": left, "bonus": c.prof}) == YES


def cleaves(step: Step, c: Combatant, killed: Combatant, others: list[Combatant], overflow: int,
            new_attack: bool) -> Combatant | None:
    """F-FTR-03: she may cleave past the foe she killed into one of `others` (CLOSE), or not: the foe picked."""
    foes = {o.id: o.name for o in others}
    answer = ask(step, c, "cleave", (*foes, NO), {},
                 {"killed": killed.name, "overflow": overflow, "new_attack": new_attack, "foes": foes})
    return next((o for o in others if o.id == answer), None)


def chooses_one(step: Step, c: Combatant, total: int, natural: int) -> bool:
    """F-ARCH-03 Chosen one: she has seen her ATK miss, and may roll it again (once a fight)."""
    return ask(step, c, "power", (YES, NO), {"power": "chosen_one"},
               {"power": "chosen_one", "roll": "ATK", "total": total, "natural": natural}) == YES


def rallies(step: Step, c: Combatant, allies: list[Combatant], mode: str) -> Combatant | None:
    """F-ARCH-03 Rally: as she attacks she may pick the ally whose next ATK is `mode` (EASY), once a fight."""
    named = {a.id: a.name for a in allies}
    answer = ask(step, c, "power", (*named, NO), {"power": "rally"}, {"power": "rally", "mode": mode, "allies": named})
    return next((a for a in allies if a.id == answer), None)


def rerolls_ones(step: Step, c: Combatant, faces: list[int], ones: int) -> bool:
    """F-FTR-04 (d), AMB-45: the 2H weapon master has seen her weapon's damage dice; each 1 she may roll again."""
    return ask(step, c, "power", (YES, NO), {"power": "two_handed"},
               {"power": "two_handed", "faces": faces, "ones": ones, "weapon": c.weapon}, STYLE_RULES) == YES


def protects(step: Step, c: Combatant, ally: Combatant, foe: Combatant, mode: str) -> bool:
    """F-FTR-04 (e), AMB-45: a foe attacks an ally near her; she may make that ATK `mode` (HARD), once a fight."""
    return ask(step, c, "power", (YES, NO), {"power": "protection"},
               {"power": "protection", "ally": ally.name, "foe": foe.name, "mode": mode}, STYLE_RULES) == YES


def helmet_saves(step: Step, c: Combatant, location: str, text: str) -> bool:
    """M-SEVER-01, M-BONE-01, AMB-94: on her head or skull, the wearer of a helmet may make its save vs. death."""
    return ask(step, c, "helmet", (YES, NO), {"location": location},
               {"location": location, "text": text}) == YES


__all__ = ["LUCK", "SHIELD_BONUS", "chooses_one", "cleaves", "halved", "held_luck", "helmet_saves", "luck_before",
           "luck_on", "luck_on_table", "protects", "rages", "rallies", "rerolled_natural", "rerolls_ones", "spend",
           "sunders"]
