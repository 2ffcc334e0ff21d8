"""A spell cast in a fight: the SPELLCHECK, then the row's effects on the target and everyone in its
area, summons fielded as combatants, mishaps and disapproval on the caster, Spell Depletion; cantrips.

F-SPELL-02…12, F-CLR-04 (D-10), F-MU-04, F-MU-06, AMB-21, with the spell data of `furnace.magic.spells`.
A mishap row that casts a spell picks the spell and its target with the dice, rolls its SL and applies that
SL's row (`furnace.magic.mishaps`). The lockouts a mishap or disapproval leaves (no casting, not this spell,
not this creature, until rest; Spell Depletion) are held by the caster and refused by the "cast" action with
the reason, and its tactic does not choose them; so is a spell the caster does not know (or has forgotten,
AMB-47), and every spell while she wears armor she is not proficient in (D-9, held `MOD:spellcasting:FORBIDDEN`).
The SPELLCHECK reads the caster's held spellcheck modifiers (a flat BONUS such as short of sleep, H-SLEEP-01, or
disapproval's −1, X-TAB-02; EASY/HARD); her SAVEs already carry her state. A mishap condition lasts the rounds of
the option `mishap_condition_duration` (AMB-20). `carry_magic`, registered in COMBATANT_HOOKS, carries a
character's casting state into a fight.
"""

from __future__ import annotations

from typing import Any

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.errors import IllegalActionError, UnknownNameError
from furnace.events import Event, declare
from furnace.magic import cantrips as _cantrips
from furnace.magic.cantrips import CANTRIP, armor_refusal
from furnace.magic.casting import (
    CASTERS,
    DEPLETION,
    DISAPPROVAL,
    LOOSED,
    MISHAP,
    SPELL,
    SPELLCHECK,
    forgotten,
    loosed_values,
    spell_values,
    table_values,
)
from furnace.magic.item_powers import UseItem, carry_items, settle_items
from furnace.magic.laying_on import LayOnHands, settle_laying_on
from furnace.magic.mishaps import SAME_TARGET, THIS_SPELL, lockouts, loose, spell_effects, with_mishap_rounds
from furnace.magic.spell_luck import with_luck
from furnace.magic.spellcheck import Spellcheck, spellcheck
from furnace.magic.spells import Spell, cast, get_spell
from furnace.magic.state import NO_MAGIC, MagicState, magic_state, with_magic
from furnace.magic.wards import ward
from furnace.play.apply import apply_all
from furnace.play.checks import Modifier
from furnace.play.combatant import Combatant, Zone, from_character, monster
from furnace.play.conditions import Held, modifier_name
from furnace.play.registry import ACTIONS, AFTERMATH_HOOKS, COMBATANT_HOOKS, state_modifiers
from furnace.play.state import Encounter, Step
from furnace.rules.effects import Area, Damage, Effect, SpellEffect, Summon
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import TableRoll

FORBIDDEN = modifier_name("spellcasting", "FORBIDDEN")   # D-9: armor she is not proficient in
LOCKOUTS = frozenset({"DEPLETED", "CANT_CAST", FORBIDDEN})
CANTRIP_TAG = "cantrip:"     # a cantrip the combatant knows, in its features (F-MU-06)
SPELLCHECK_MODES = {"BONUS": modifier_name("spellcheck", "BONUS"), "EASY": modifier_name("spellcheck", "EASY"),
                    "HARD": modifier_name("spellcheck", "HARD")}
# the facts of a spell in a fight beside casting's own (furnace.magic.casting): its damage, rolled once for all
# it reaches, and the creatures it raises
SPELL_DAMAGE = declare("effect", spell="actor", amount="actor", dice="actor", type="actor",
                       example={"spell": "Fireball", "amount": 5, "dice": "1d6", "type": "fire"})
SUMMON = declare("summon", creature="actor", count="actor", rounds="actor", example={"creature": "zombie",
                                                                                     "count": 3, "rounds": 5})


def can_cast(c: Combatant) -> bool:
    magic = magic_state(c)
    return magic.spell_mod is not None and bool(magic.spells) and not ({h.name for h in c.held} & LOCKOUTS)


def refusal(enc: Encounter, c: Combatant, spell: str, target: str | None) -> str | None:
    """Why this caster may not cast this spell (at this target) now, or None (F-MU-04, F-TAB-18, D-7)."""
    magic = magic_state(c)
    if magic.spell_mod is None:
        return f"{c.name} casts no spells"
    if spell not in magic.spells:
        return f"{c.name} does not know {spell} (AMB-47)"
    for h in c.held:
        if h.name == FORBIDDEN:
            return f"{c.name} cannot cast spells: {h.source or 'armor she is not proficient in (D-9)'}"
        if h.name == "DEPLETED":
            return f"{c.name} cannot cast until a rest (Spell Depletion, F-MU-04)"
        if h.name == "CANT_CAST":
            until = f"round {h.until_round}" if h.ending == "round" else f"a {h.ending}"
            return f"{c.name} cannot cast until {until} ({h.source or 'a mishap'})"
        if h.name == THIS_SPELL and h.source == spell:
            return f"{c.name} can't try {spell} again until a rest (a mishap or disapproval, F-TAB-18 8–9, X-TAB-02 6)"
        if target is not None and h.name == SAME_TARGET and h.source in (target, enc.get(target).name):
            return f"{c.name} can't target {enc.get(target).name} with a spell until a rest (mishap, F-TAB-18 10–11)"
    return None


class Cast:
    """Casting a spell as the turn's action (F-CMBT-01, F-SPELL-01), registered with the engine as "cast"."""

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None:
        if detail is None:
            raise IllegalActionError("casting needs a spell and a target")
        try:
            get_spell(step.rules, detail)
        except UnknownNameError:
            if detail not in _cantrips.load_cantrips():
                raise
            cast_cantrip_in_fight(step, cid, detail, target)
            return
        cast_in_fight(step, cid, detail, target)

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        """The first spell known that the caster may cast at this target; none: it does something else."""
        if not can_cast(c):
            return None
        return next((s for s in magic_state(c).spells if refusal(enc, c, s, target) is None), None)

    def details(self, c: Combatant) -> tuple[str, ...]:
        """The spells she knows, and the cantrips her features name (asked at every turn of the automatic tactic)."""
        spells = magic_state(c).spells
        if not spells and not c.features:
            return ()
        return (*spells, *(f.split(":", 1)[1] for f in c.features if f.startswith(CANTRIP_TAG)))


ACTIONS.add("cast", Cast())
ACTIONS.add("use", UseItem())
ACTIONS.add("lay_on_hands", LayOnHands())
COMBATANT_HOOKS.add("magic-items", carry_items)
AFTERMATH_HOOKS.add("magic-items", settle_items)
AFTERMATH_HOOKS.add("lay-on-hands", settle_laying_on)


def cast_in_fight(step: Step, caster: str, spell_name: str, target: str) -> None:
    """A SPELLCHECK and its outcome, the spell a mishap row lets loose resolved with it (AMB-21)."""
    c = step.c(caster)
    mod = magic_state(c).spell_mod
    if mod is None:
        raise IllegalActionError(f"{c.name} casts no spells")
    spell = get_spell(step.rules, spell_name)
    refused = refusal(step.enc, c, spell.name, target)
    if refused:
        raise IllegalActionError(refused)
    state, easy, hard = spellcheck_held(c)
    ability = "WIS" if c.char_class == "Cleric" else "INT"

    def roll(rng: DiceSource, luck_dice: int = 0) -> Spellcheck:
        return spellcheck(rng, mod, c.prof, step.enc.room_dc, step.rules, easy=easy, hard=hard, ability=ability,
                          label="SPELLCHECK", state=state, luck_dice=luck_dice)

    check = with_luck(step, caster, roll(step.rng), roll)      # she may spend Luck Dice on it (F-SPELL-09)
    step.fact(SPELLCHECK, caster, (target,), (check.roll,), check.rules, spell=spell.name, **check.values)
    mode = str(step.rules["cleric_natural_1"])
    divine = c.char_class == "Cleric" and check.natural <= magic_state(c).disapproval and mode != "mishap"
    if divine:
        _disapproval(step, caster, spell, target)
    if check.mishap and (not divine or mode == "also_mishap"):
        _mishap(step, caster, spell, target)
    if c.char_class == "Cleric" and not check.success:
        now = step.c(caster)
        step.update(caster, **with_magic(now, disapproval=min(20, magic_state(now).disapproval + 1)))
    done = cast(spell, check)
    if done.row is not None:
        step.fact(SPELL, caster, (), (), ("F-SPELL-08",) if done.crit_dice else (), **spell_values(done))
        effects = ward(step, caster, spell, list(done.effects), done.row.data)   # a shield's AC and flames (F-TAB-17)
        _apply_spell(step, caster, target, effects, spell.name)
    if check.success or step.rules["spell_depletion_counts"] == "attempts":
        _depletion(step, caster)


def spellcheck_held(c: Combatant) -> tuple[list[Modifier], list[str], list[str]]:
    """What the caster holds for her SPELLCHECK: flat modifiers (her state: short of sleep, H-SLEEP-01; a
    disapproval's −1, X-TAB-02), and the sources of EASY and HARD."""
    state = [Modifier(h.value, h.source or "a held modifier") for h in c.held
             if h.name == SPELLCHECK_MODES["BONUS"] and h.value]
    easy = [h.source or "EASY" for h in c.held if h.name == SPELLCHECK_MODES["EASY"]]
    hard = [h.source or "HARD" for h in c.held if h.name == SPELLCHECK_MODES["HARD"]]
    return state, easy, hard


def cast_cantrip_in_fight(step: Step, caster: str, name: str, target: str) -> None:
    """F-MU-06: a known cantrip takes effect with no SPELLCHECK: no mishap, no Luck, no depletion count."""
    c = step.c(caster)
    cantrip = _cantrips.load_cantrips().get(name)
    known = f"{CANTRIP_TAG}{cantrip.name}" in c.features or cantrip.name in magic_state(c).spells
    t = step.c(target)
    barred = [t.name for h in c.held if h.name == SAME_TARGET and h.source in (target, t.name)]
    armor = next((h.source or "armor she is not proficient in (D-9)" for h in c.held if h.name == FORBIDDEN), None)
    why = _cantrips.refused(c.name, cantrip, step.rules, known=known, barred=barred, target=t.name,
                            armor=f"{c.name} cannot cast spells: {armor}" if armor else None)
    if why:
        raise IllegalActionError(why)
    step.fact(CANTRIP, caster, (target,), (), ("F-MU-06",), cantrip=cantrip.name, text=cantrip.text)
    apply_all(step, cantrip.effects_under(step.rules), actor=caster, target=target)


def _targets(step: Step, target: str, effects: list[Effect]) -> list[str]:
    """The target, and everyone of its side in the spell's area (CLOSE or NEAR of it)."""
    area = next((e for e in effects if isinstance(e, Area)), None)
    if area is None:
        return [target]
    t = step.c(target)
    zones = {"CLOSE": ("CLOSE",), "NEAR": ("CLOSE", "NEAR")}.get(area.zone, ("CLOSE", "NEAR", "RANGED", "FAR"))
    return [target] + [o.id for o in step.enc.combatants
                       if o.side == t.side and o.id != target and o.in_fight and o.zone in zones]


def _apply_spell(step: Step, caster: str, target: str, effects: list[Effect], spell: str) -> None:
    """Damage is rolled once for everyone the spell reaches; summons become combatants."""
    fixed: list[Effect] = []
    for e in effects:
        if isinstance(e, Damage) and e.every is None and e.target == "target":
            r = dice.roll(e.dice, step.rng, step.variables(step.c(caster)), "DAM")
            typed: dict[str, Any] = {"type": e.type} if e.type else {}
            step.fact(SPELL_DAMAGE, caster, (), (r,), spell=spell, amount=r.total, dice=e.dice, **typed)
            fixed.append(e.model_copy(update={"dice": str(r.total)}))
        elif isinstance(e, Summon):
            _summon(step, caster, e)
        elif not isinstance(e, Area):
            fixed.append(e)
    for t in _targets(step, target, effects):
        apply_all(step, fixed, actor=caster, target=t)


def _summon(step: Step, caster: str, e: Summon) -> None:
    c = step.c(caster)
    dead = sum(1 for o in step.enc.combatants if o.status == "dead")
    counted = dice.roll(e.count, step.rng, {"NEAR_DEAD": dead, "BATTLEFIELD_DEAD": dead}, "count")
    count = counted.total
    rows = step.rules.tables.get("summoned-creatures")
    known = rows.keys()
    data = (rows.lookup(e.creature) if e.creature in known else rows.lookup("creature")).data
    lasts = dice.roll(e.duration.amount, step.rng, label="duration") if e.duration else None
    lasting = lasts.total if lasts is not None else None
    for i in range(1, count + 1):
        spec = {"name": f"{e.creature.title()} {i}", "hp": data["hp"], "damage": data["damage"],
                "weapon": data["weapon"], "zone": "NEAR", "ac": step.enc.room_dc + int(data.get("ac_delta", 0)),
                "attack_bonus": step.enc.room_dc - 10 + int(data.get("attack_delta", 0))}
        new = monster(spec, c.side, step.enc.room_dc, step.rng, id=f"{e.creature}-{step.enc.round}-{i}")
        if lasting is not None:
            new = new.model_copy(update={"doomed_round": step.enc.round + lasting})
        step.enc = step.enc.model_copy(update={"combatants": (*step.enc.combatants, new)})
    rounds: dict[str, Any] = {"rounds": lasting} if lasting is not None else {}
    step.fact(SUMMON, caster, (), (counted, *((lasts,) if lasts is not None else ())), (), creature=e.creature,
              count=count, **rounds)


def _mishap(step: Step, caster: str, spell: Spell, target: str) -> None:
    rolled = step.rules.tables.roll(spell.mishap_table or "mishap", step.rng, label="mishap")
    step.fact(MISHAP, caster, (), (rolled.roll,), ("F-SPELL-10", rolled.table.id), spell=spell.name,
              **table_values(rolled))
    _row_on_caster(step, caster, rolled, spell, target)


def _disapproval(step: Step, caster: str, spell: Spell, target: str) -> None:
    wide = magic_state(step.c(caster)).disapproval
    rolled = step.rules.tables.roll("disapproval", step.rng, variables={"DISAPPROVAL": wide}, label="disapproval")
    step.fact(DISAPPROVAL, caster, (), (rolled.roll,), ("F-CLR-04", rolled.table.id), spell=spell.name,
              range=wide, **table_values(rolled))
    _row_on_caster(step, caster, rolled, spell, target)


def _row_on_caster(step: Step, caster: str, rolled: TableRoll, spell: Spell, target: str) -> None:
    """A mishap or disapproval row, in its order: a spell it lets loose goes off (AMB-21); the rest lands on the
    caster; a "not this spell" or "not this creature" marker it leaves names the spell or the creature."""
    before = {id(h) for h in step.c(caster).held}
    for effect in with_mishap_rounds(rolled.row.effect_list(), step.rules):
        loosed = spell_effects([effect])
        if loosed:
            _let_loose(step, caster, spell, loosed[0], target)
        else:
            apply_all(step, [effect], actor=caster, target=caster)
    names = {THIS_SPELL: spell.name, SAME_TARGET: target}
    held = tuple(h.model_copy(update={"source": names[h.name]}) if id(h) not in before and h.name in names else h
                 for h in step.c(caster).held)
    step.update(caster, held=held)


def _in_range(step: Step, caster: str, spell: Spell, *, others_only: bool) -> list[str]:
    """AMB-21: the creatures a random target is picked from: everyone in the fight (for a melee spell, the
    caster and those CLOSE), allies and the caster included, unless the row says another creature."""
    return [o.id for o in step.enc.combatants
            if o.in_fight and not (others_only and o.id == caster)
            and (spell.kind != "melee" or o.id == caster or o.zone == "CLOSE")]


def _let_loose(step: Step, caster: str, spell: Spell, effect: SpellEffect, aimed: str) -> None:
    """AMB-21: the spell the row lets loose, on the creature the dice pick, at the SL they roll."""
    c = step.c(caster)
    known = [get_spell(step.rules, s) for s in magic_state(c).spells] or [spell]
    others = effect.target == "random_creature"
    done = loose(effect, spell, known, step.rng, step.rules,
                 lambda chosen: _in_range(step, caster, chosen, others_only=others), caster=caster, aimed=aimed)
    step.fact(LOOSED, caster, (done.target,) if done.target else (), done.rolls, ("AMB-21",), target=done.target,
              **loosed_values(done))
    if done.target is not None:
        _apply_spell(step, caster, done.target, list(done.effects), done.spell.name)


def _depletion(step: Step, caster: str) -> None:
    """F-MU-04: after 4 spells an INT SAVE vs ROOM DC; a failure stops casting until rest."""
    c = step.c(caster)
    if c.char_class == "Cleric" and not step.rules["cleric_spell_depletion"]:
        return
    count = magic_state(c).spells_cast + 1
    if count < 4:
        step.update(caster, **with_magic(c, spells_cast=count))
        return
    save = step.roll("d20+INT", "INT SAVE", {"INT": c.save_bonus("INT")})
    held = save.total >= step.enc.room_dc
    if held:
        step.update(caster, **with_magic(c, spells_cast=0))
    else:
        step.update(caster, **with_magic(c, spells_cast=0),
                    held=(*c.held, Held(name="DEPLETED", source="Spell Depletion", ending="rest")))
    step.fact(DEPLETION, caster, (), (save,), ("F-MU-04",), spells=count, total=save.total, dc=step.enc.room_dc,
              saved=held)


# -- a character into a fight ---------------------------------------------------------------------------------
def carry_magic(character: Character, c: Combatant, rules: Ruleset) -> Combatant:
    """What a character's magic brings into a fight (registered in COMBATANT_HOOKS; running it twice adds
    nothing twice): her lockouts until rest (Spell Depletion, no casting, not this spell, not this creature; D-7)
    as held markers; no spellcasting in armor she is not proficient in (D-9); what her state adds to the
    SPELLCHECK (short of sleep, H-SLEEP-01) as a held modifier; her cantrips; and in her magic state
    (`magic.state`) her casting ability's modifier (INT for a Magic-user, WIS for a Cleric), only the spells she
    has not forgotten (spells_over_cap, AMB-47), her count toward Spell Depletion and a Cleric's disapproval range
    (F-MU-04, F-CLR-04)."""
    held = [Held(name=name, source=what or ("Spell Depletion" if name == "DEPLETED" else line), ending="rest")
            for name, what, line in lockouts(character)]
    armor = armor_refusal(character, rules)
    ability = CASTERS.get(character.char_class or "")      # F-MU-03, F-CLR-03
    spell_mod = character.mod(ability, rules) if ability else None
    if spell_mod is not None and armor and FORBIDDEN not in {h.name for h in c.held}:
        held.append(Held(name=FORBIDDEN, source=armor, ending="encounter"))
    held += [Held(name=SPELLCHECK_MODES["BONUS"], source=p.source, ending="encounter", value=p.spellcheck)
             for p in state_modifiers(character) if p.spellcheck]
    tags = [f"{CANTRIP_TAG}{n}" for n in character.cantrips if f"{CANTRIP_TAG}{n}" not in c.features]
    lost = set(forgotten(character, rules))
    magic = MagicState(spell_mod=spell_mod, spells=tuple(s for s in character.spells if s not in lost),
                       spells_cast=character.spells_cast, disapproval=character.disapproval)
    kept = {} if magic == NO_MAGIC else with_magic(c, **{k: getattr(magic, k) for k in CARRIED_IN})
    return c.model_copy(update={"held": (*c.held, *(h for h in held if h not in c.held)),
                                "features": (*c.features, *tags), **kept})


# what `carry_magic` brings of her magic state
CARRIED_IN = ("spell_mod", "spells", "spells_cast", "disapproval")


def settle_magic(character: Character, c: Combatant, rules: Ruleset, events: list[Event]) -> Character:
    """After the fight (AFTERMATH_HOOKS): F-MU-04, the spells cast toward the Spell Depletion SAVE; F-CLR-04, a
    Cleric's disapproval range."""
    from furnace.play.aftermath import AFTER_FIGHT  # (here: a glance at the fight, `encounter status`, loads none)

    state, update = magic_state(c), dict[str, int]()
    if state.spells_cast != character.spells_cast:
        update["spells_cast"] = state.spells_cast
        events.append(fact(AFTER_FIGHT, character, (), ("F-MU-04",), change="spells_cast",
                           before=character.spells_cast, after=state.spells_cast))
    if character.char_class == "Cleric" and state.disapproval != character.disapproval:
        update["disapproval"] = state.disapproval
        events.append(fact(AFTER_FIGHT, character, (), ("F-CLR-04",), change="disapproval",
                           before=character.disapproval, after=state.disapproval))
    return character.model_copy(update=update) if update else character


COMBATANT_HOOKS.add("magic", carry_magic)
AFTERMATH_HOOKS.add("magic", settle_magic)


def combatant(character: Character, side: str, rules: Ruleset, *, zone: Zone = "NEAR", id: str | None = None,
              ) -> Combatant:
    """A character as a combatant with all she brings: `from_character` (her player, and what the chapters'
    COMBATANT_HOOKS carry in, magic's `carry_magic` among them) and her Luck Dice (F-LUCK-01)."""
    c = from_character(character, side, rules, zone=zone, id=id)
    return c.model_copy(update={"luck_dice": character.luck_dice})
