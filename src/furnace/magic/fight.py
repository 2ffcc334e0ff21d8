"""A spell cast in a fight: the SPELLCHECK, then the row's effects on the target and everyone in its
area, summons fielded as combatants, mishaps and disapproval on the caster, Spell Depletion.

F-SPELL-02…12, F-CLR-04 (D-10), F-MU-04, with the spell data of `furnace.magic.spells`.
"""

from __future__ import annotations

from furnace import dice
from furnace.errors import IllegalActionError
from furnace.magic.spellcheck import spellcheck
from furnace.magic.spells import Spell, cast, get_spell
from furnace.play.apply import apply_all
from furnace.play.combatant import Combatant, monster
from furnace.play.conditions import Held
from furnace.play.registry import ACTIONS
from furnace.play.state import Encounter, Step
from furnace.rules.effects import Area, Damage, Effect, Summon

LOCKOUTS = frozenset({"DEPLETED", "CANT_CAST"})


def can_cast(c: Combatant) -> bool:
    return c.spell_mod is not None and bool(c.spells) and not ({h.name for h in c.held} & LOCKOUTS)


class Cast:
    """Casting a spell as the turn's action (F-CMBT-01, F-SPELL-01), registered with the engine as "cast"."""

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None:
        if detail is None:
            raise IllegalActionError("casting needs a spell and a target")
        cast_in_fight(step, cid, detail, target)

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        return c.spells[0] if can_cast(c) else None   # the automatic tactic casts the first spell known


ACTIONS.add("cast", Cast())


def cast_in_fight(step: Step, caster: str, spell_name: str, target: str) -> None:
    c = step.c(caster)
    if c.spell_mod is None:
        raise IllegalActionError(f"{c.name} casts no spells")
    if {h.name for h in c.held} & LOCKOUTS:
        raise IllegalActionError(f"{c.name} cannot cast until a rest")
    spell = get_spell(step.rules, spell_name)
    check = spellcheck(step.rng, c.spell_mod, c.prof, step.enc.room_dc, step.rules,
                       ability="WIS" if c.char_class == "Cleric" else "INT", label=f"{c.name} casts {spell.name}")
    step.log("spellcheck", c.name, f"casts {spell.name}: {check.explain()}", sl=check.sl)
    mode = str(step.rules["cleric_natural_1"])
    divine = c.char_class == "Cleric" and check.natural <= c.disapproval and mode != "mishap"
    if divine:
        _disapproval(step, caster)
    if check.mishap and (not divine or mode == "also_mishap"):
        _mishap(step, caster, spell)
    if c.char_class == "Cleric" and not check.success:
        step.update(caster, disapproval=min(20, step.c(caster).disapproval + 1))
    done = cast(spell, check)
    if done.row is not None:
        step.log("spell", c.name, f"{spell.name} SL{check.sl}: {done.row.text}")
        _apply_spell(step, caster, target, list(done.effects))
    if check.success or step.rules["spell_depletion_counts"] == "attempts":
        _depletion(step, caster)


def _targets(step: Step, target: str, effects: list[Effect]) -> list[str]:
    """The target, and everyone of its side in the spell's area (CLOSE or NEAR of it)."""
    area = next((e for e in effects if isinstance(e, Area)), None)
    if area is None:
        return [target]
    t = step.c(target)
    zones = {"CLOSE": ("CLOSE",), "NEAR": ("CLOSE", "NEAR")}.get(area.zone, ("CLOSE", "NEAR", "RANGED", "FAR"))
    return [target] + [o.id for o in step.enc.combatants
                       if o.side == t.side and o.id != target and o.in_fight and o.zone in zones]


def _apply_spell(step: Step, caster: str, target: str, effects: list[Effect]) -> None:
    """Damage is rolled once for everyone the spell reaches; summons become combatants."""
    fixed: list[Effect] = []
    for e in effects:
        if isinstance(e, Damage) and e.every is None and e.target == "target":
            r = dice.roll(e.dice, step.rng, step.variables(step.c(caster)), f"{e.dice} {e.type or ''} DAM".strip())
            step.log("effect", step.c(caster).name, f"the spell deals {r.total} {e.type or ''} DAM".replace("  ", " "),
                     (r,))
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
    count = dice.roll(e.count, step.rng, {"NEAR_DEAD": dead, "BATTLEFIELD_DEAD": dead}, f"how many {e.creature}").total
    rows = step.rules.tables.get("summoned-creatures")
    known = rows.keys()
    data = (rows.lookup(e.creature) if e.creature in known else rows.lookup("creature")).data
    lasting = dice.roll(e.duration.amount, step.rng, label="summon lasts").total if e.duration else None
    for i in range(1, count + 1):
        spec = {"name": f"{e.creature.title()} {i}", "hp": data["hp"], "damage": data["damage"],
                "weapon": data["weapon"], "zone": "NEAR", "ac": step.enc.room_dc + int(data.get("ac_delta", 0)),
                "attack_bonus": step.enc.room_dc - 10 + int(data.get("attack_delta", 0))}
        new = monster(spec, c.side, step.enc.room_dc, step.rng, id=f"{e.creature}-{step.enc.round}-{i}")
        if lasting is not None:
            new = new.model_copy(update={"doomed_round": step.enc.round + lasting})
        step.enc = step.enc.model_copy(update={"combatants": (*step.enc.combatants, new)})
    until = f" for {lasting} round(s)" if lasting is not None else ""
    step.log("summon", c.name, f"raises {count} {e.creature}(s){until}", count=count)


def _mishap(step: Step, caster: str, spell: Spell) -> None:
    rolled = step.rules.tables.roll(spell.mishap_table or "mishap", step.rng,
                                    label=f"{step.c(caster).name}: mishap with {spell.name}")
    step.log("mishap", step.c(caster).name, f"{rolled.table.name} {rolled.roll.total}: {rolled.row.text}",
             (rolled.roll,))
    apply_all(step, rolled.row.effect_list(), actor=caster, target=caster)


def _disapproval(step: Step, caster: str) -> None:
    c = step.c(caster)
    rolled = step.rules.tables.roll("disapproval", step.rng, variables={"DISAPPROVAL": c.disapproval},
                                    label=f"{c.name}: disapproval (range {c.disapproval})")
    step.log("disapproval", c.name, f"disapproval {rolled.roll.total}: {rolled.row.text}", (rolled.roll,))
    apply_all(step, rolled.row.effect_list(), actor=caster, target=caster)


def _depletion(step: Step, caster: str) -> None:
    """F-MU-04: after 4 spells an INT SAVE vs ROOM DC; a failure stops casting until rest."""
    c = step.c(caster)
    if c.char_class == "Cleric" and not step.rules["cleric_spell_depletion"]:
        return
    count = c.spells_cast + 1
    if count < 4:
        step.update(caster, spells_cast=count)
        return
    bonus = c.save_bonus("INT")
    save = step.roll("d20+B" if bonus >= 0 else "d20-B", f"{c.name} INT SAVE vs ROOM DC (depletion)", {"B": abs(bonus)})
    if save.total >= step.enc.room_dc:
        step.update(caster, spells_cast=0)
        step.log("depletion", c.name, f"4 spells: INT SAVE {save.total} holds", (save,))
        return
    step.update(caster, spells_cast=0, held=(*c.held, Held(name="DEPLETED", source="Spell Depletion", ending="rest")))
    step.log("depletion", c.name, f"4 spells: INT SAVE {save.total} fails; no casting until rest (F-MU-04)", (save,))
