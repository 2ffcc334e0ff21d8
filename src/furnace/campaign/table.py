"""The table console's own state: what the players may see of the fight, hidden rolls, and rolls from a sheet.

The referee keeps secrets. Monsters start concealed and appear when she reveals them; a monster's name can be
masked ("a shape in the dark"); its health shows as she sets it for the campaign or for the monster: hidden,
a word (unhurt, bloodied, near death) or exact. A roll can be made hidden (its event is marked
`data.hidden`, as the Hazards chapter marks a lost party's roll) and shown later. All of it lives in
`CampaignState.table` (`Table`), changed by commands for `Store.apply`, so it is logged, lasts and undoes
like everything else; each reveal's event says what it set (`data.revealed`, `data.mask`), so the log alone
tells what players were shown of any fight. Which monsters belong to which fight is told by the fight's key
(`fight_key`): a new fight starts with every monster concealed again.

`sheet_roll` is a player's button: a CHECK, SAVE, ATK or SPELLCHECK for one member of the roster, rolled by the
engine's rules (`play.checks`, `play.skills`, the combatant's numbers, `magic.spellcheck`) and logged; it
changes nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.campaign import commands
from furnace.campaign.commands import rules_of
from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Command
from furnace.dice import DiceSource
from furnace.events import Event

Health = Literal["hidden", "word", "exact"]
HEALTH: tuple[Health, ...] = ("hidden", "word", "exact")
SheetRoll = Literal["check", "save", "attack", "spellcheck"]
SHEET_ROLLS: tuple[SheetRoll, ...] = ("check", "save", "attack", "spellcheck")
ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
MASK_LENGTH = 60
UNSEEN = "something unseen"


class Table(BaseModel):
    """What the players may see: the health shown by default, and for the fight `fight` (its key) the monsters
    revealed, their masks and their own health setting; the hidden rolls shown since. (Which names stay out of
    the public log is read from the log itself, for every fight however begun: `furnace.web.cast`.)"""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    health: Health = "word"
    fight: str = ""
    revealed: tuple[str, ...] = ()
    masks: dict[str, str] = Field(default_factory=dict)
    monster_health: dict[str, Health] = Field(default_factory=dict)
    shown_rolls: tuple[int, ...] = ()
    players_dice: bool = False          # players may enter the faces of their own physical dice


def table_of(state: CampaignState) -> Table:
    try:
        return Table.model_validate(state.table)
    except ValidationError as exc:
        raise CampaignError(f"the table's settings do not validate: {exc.errors()[0]['msg']}") from None


def with_table(state: CampaignState, table: Table) -> CampaignState:
    return state.model_copy(update={"table": table.model_dump(mode="json", exclude_defaults=True)})


def fight_key(state: CampaignState) -> str:
    """The fight in progress, told apart from others: its name, when it began and its monsters' ids and HP."""
    if state.encounter is None:
        return ""
    enc = state.encounter.get("turns", {}).get("encounter", {})
    foes = sorted(f"{c.get('id')}:{c.get('hp_max')}" for c in enc.get("combatants", []) if c.get("kind") != "pc")
    return f"{state.encounter.get('name', '')}@{state.encounter.get('began', 0)}|{','.join(foes)}"


def current(state: CampaignState) -> Table:
    """The table for the fight in progress: reveals and masks of an earlier fight do not carry over."""
    table = table_of(state)
    if table.fight != fight_key(state):
        table = table.model_copy(update={"fight": fight_key(state), "revealed": (), "masks": {},
                                         "monster_health": {}})
    return table


def monsters(state: CampaignState) -> list[dict[str, Any]]:
    """The fight's monsters as stored (JSON), in the encounter's order."""
    if state.encounter is None:
        return []
    combatants = state.encounter.get("turns", {}).get("encounter", {}).get("combatants", [])
    return [c for c in combatants if c.get("kind") != "pc"]


# -- the referee's settings ------------------------------------------------------------------------------------
def _health(value: str) -> Health:
    for known in HEALTH:
        if value == known:
            return known
    raise CampaignError(f"health shows as hidden, word or exact, not {value!r}")


def show_health(value: str) -> Command:
    """How monsters' health shows to the players by default."""
    health = _health(value)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        table = table_of(state).model_copy(update={"health": health})
        return with_table(state, table), [Event.said("table", "", f"monsters' health shows as {health}",
                                                data={"hidden": True})]

    return run


def allow_player_dice(allowed: bool) -> Command:
    """Let players enter the faces of their own physical dice (checked against the dice, marked entered), or not."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        table = table_of(state).model_copy(update={"players_dice": bool(allowed)})
        said = "may" if allowed else "may not"
        return with_table(state, table), [Event.said("table", "", f"players {said} enter their own dice")]

    return run


def set_monster(cid: str, *, revealed: bool | None = None, mask: str | None = None,
                health: str | None = None) -> Command:
    """Reveal or conceal a monster of the fight in progress, mask its name ("" unmasks), set its health shown."""
    if mask is not None and (len(mask) > MASK_LENGTH or any(ord(ch) < 32 for ch in mask)):
        raise CampaignError(f"a mask is a short name, at most {MASK_LENGTH} characters")
    chosen = _health(health) if health is not None else None

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        foes = {str(c["id"]): c for c in monsters(state)}
        if cid not in foes:
            raise CampaignError(f"no monster {cid!r} in the fight in progress"
                                + (f" (monsters: {', '.join(foes)})" if foes else ""))
        table = current(state)
        update: dict[str, Any] = {}
        if revealed is not None:
            update["revealed"] = tuple(sorted({*table.revealed, cid} if revealed else set(table.revealed) - {cid}))
        if mask is not None:
            update["masks"] = {k: v for k, v in {**table.masks, cid: mask.strip()}.items() if v}
        if chosen is not None:
            update["monster_health"] = {**table.monster_health, cid: chosen}
        table = table.model_copy(update=update)
        name = str(foes[cid]["name"])
        seen = "revealed" if cid in table.revealed else "concealed"
        shown = f", shown as {table.masks[cid]!r}" if cid in table.masks else ""
        return with_table(state, table), [Event.said("table", name, f"is {seen}{shown}; health "
                                                f"{table.monster_health.get(cid, table.health)}",
                                                data={"hidden": True, "id": cid, "revealed": cid in table.revealed,
                                                      "mask": table.masks.get(cid, "")})]

    return run


# -- hidden rolls ---------------------------------------------------------------------------------------------
def hidden(command: Command) -> Command:
    """The command with its events marked hidden: only the referee sees them, until she shows one."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        after, events = command(state)
        return after, [replace(e, data={**e.data, "hidden": True}) for e in events]

    return run


def hidden_roll(expression: str, rng: DiceSource, *, label: str = "") -> Command:
    """A roll only the referee sees (`commands.roll`, its events marked hidden) until she shows it."""
    return hidden(commands.roll(expression, rng, label=label))


def show_roll(seq: int, events: Sequence[Any]) -> Command:
    """Show the players a hidden event (`events`: the stored events, to check that `seq` is one)."""
    found = next((e for e in events if e.seq == seq), None)
    if found is None or not secret(found):
        raise CampaignError(f"event {seq} is not a hidden roll or a timer of this campaign")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        table = table_of(state)
        shown = table.model_copy(update={"shown_rolls": tuple(sorted({*table.shown_rolls, seq}))})
        return with_table(state, shown), [Event.said("reveal", found.who, f"shows the table: {found.what}",
                                                data={"seq": seq})]

    return run


SECRET_KINDS = frozenset({"timer"})   # the referee's timers (F-OPT-07): set, and when they run out


def secret(event: Any) -> bool:
    """The referee's own: a roll made hidden, or a timer (its length and its prompt are hers to tell)."""
    return bool(event.data.get("hidden")) or event.kind in SECRET_KINDS


def is_hidden(event: Any, table: Table) -> bool:
    """A stored event the players may not see: the referee's own (`secret`) and not shown since."""
    return secret(event) and event.seq not in table.shown_rolls


# -- what health looks like ------------------------------------------------------------------------------------
def health_word(hp: int, hp_max: int, status: str = "up") -> str:
    """unhurt, bloodied (at or below the maximum), near death (a quarter or less), or its state when out."""
    if status in ("dead", "fled", "out"):
        return status
    if hp <= 0:
        return "down"
    if hp >= hp_max:
        return "unhurt"
    return "near death" if hp * 4 <= hp_max else "bloodied"


# -- a player's buttons ----------------------------------------------------------------------------------------
def sheet_roll(who: str, kind: str, rng: DiceSource, *, ability: str | None = None, skill: str | None = None,
               dc: int = 12) -> Command:
    """A CHECK (an ability, or a skill), a SAVE, an ATK with the weapon in hand, or a SPELLCHECK for a living
    member of the roster, against `dc` (the ROOM DC, or the foe's AC); logged with its dice, nothing changed."""
    if kind not in SHEET_ROLLS:
        raise CampaignError(f"a roll from the sheet is {', '.join(SHEET_ROLLS)}, not {kind!r}")
    if isinstance(dc, bool) or not isinstance(dc, int) or not 1 <= dc <= 60:
        raise CampaignError(f"the DC is a whole number from 1 to 60, not {dc!r}")
    if ability is not None and ability.upper() not in ABILITIES:
        raise CampaignError(f"the ability is one of {', '.join(ABILITIES)}, not {ability!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        if member.status in ("dead", "retired"):
            raise CampaignError(f"{member.character.name} ({member.id}) is {member.status} and rolls nothing")
        return state, [_rolled(member, kind, rng, ability.upper() if ability else None, skill, dc, state)]

    return run


def _rolled(member: Member, kind: str, rng: DiceSource, ability: str | None, skill: str | None, dc: int,
            state: CampaignState) -> Event:
    from furnace.play.checks import Modifier, check
    from furnace.play.combatant import from_character

    c, rules = member.character, rules_of(state)
    if kind == "spellcheck":
        return _spellcheck(member, rng, dc, state)
    if kind == "check" and skill:
        from furnace.play.skills import skill_check

        result = skill_check(c, skill, rng, dc, rules)
    elif kind == "check":
        chosen = ability or "STR"
        result = check(rng, dc, [Modifier(c.mod(chosen), chosen)], kind="CHECK",  # type: ignore[arg-type]
                       label=f"{c.name}: {chosen} CHECK", rules=rules)
    else:
        fighter = from_character(c, "party", rules, id=member.id)
        if kind == "save":
            chosen = ability or "CON"
            result = check(rng, dc, [Modifier(fighter.save_bonus(chosen), f"{chosen} SAVE")],  # type: ignore[arg-type]
                           kind="SAVE", label=f"{c.name}: {chosen} SAVE", rules=rules)
        else:
            result = check(rng, dc, [Modifier(fighter.attack_bonus, fighter.weapon)], kind="ATK",
                           label=f"{c.name}: ATK with {fighter.weapon}", rules=rules, crit_on=fighter.crit_range)
    verdict = "succeeds" if result.success else "fails"
    return Event.said("sheet_roll", c.name, f"{verdict}: {result.explain()}", (result.roll,),
                 data={"total": result.total, "dc": result.dc.value, "success": result.success, "kind": kind,
                       "member": member.id})


def _spellcheck(member: Member, rng: DiceSource, dc: int, state: CampaignState) -> Event:
    from furnace.magic.casting import casting_ability, spellcheck_state
    from furnace.magic.spellcheck import spellcheck

    c, rules = member.character, rules_of(state)
    if not c.char_class or (c.char_class not in ("Magic-user", "Cleric") and not c.spells):
        raise CampaignError(f"{c.name} casts no spells: a SPELLCHECK is for a Magic-user, a Cleric or a caster")
    ability = casting_ability(c)
    result = spellcheck(rng, c.mod(ability, rules), c.prof(rules), dc, rules, ability=ability,
                        label=f"{c.name}: SPELLCHECK", state=spellcheck_state(c))
    return Event.said("sheet_roll", c.name, f"SPELLCHECK: {result.explain()}", (result.roll,),
                 data={"total": result.total, "sl": result.sl, "success": result.success, "kind": "spellcheck",
                       "member": member.id})


# -- the referee's tools: a spell cast from the sheet, enemy morale, a rules table ---------------------------------
def cast(who: str, spell: str, rng: DiceSource, *, dc: int = 12, scroll: bool = False) -> Command:
    """A member casts a spell she knows outside a fight (`magic.casting.cast_spell`): the SPELLCHECK, a mishap or
    disapproval with its roll, depletion, all written back to her sheet and logged."""
    from furnace.magic.casting import cast_spell

    def rule(c: Any, rules: Any) -> tuple[Any, list[Event]]:
        result = cast_spell(c, spell, rng, dc, rules, scroll=scroll)
        return result.character, list(result.events)

    return commands.on_member(who, rule)


def morale(room_dc: int, rng: DiceSource, *, value: int | None = None, hidden: bool = True) -> Command:
    """Enemy morale (F-OPT-04): 2d6 against half the ROOM DC, or the monster's own score; hidden unless shown."""
    from furnace.play.reaction import enemy_morale

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        rules = rules_of(state)
        if not rules["enemy_morale"]:
            rules = rules.with_options({"enemy_morale": True}, "the referee's morale roll")
        result = enemy_morale(rng, room_dc, rules, morale=value)
        return state, [Event.said("morale", "", f"enemy morale: {result.explain()}", (result.roll,),
                             data={"hidden": hidden, "breaks": result.breaks})]

    return run


def table_roll(name: str, rng: DiceSource, *, level: int | None = None, armor: str | None = None,
               hidden: bool = False) -> Command:
    """A roll on a rules table (`rules.tables`, as `furnace table roll`): the die and why, the row; logged."""
    from furnace.rules.tables import TableSet

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        key: int | str | None = level if level is not None else armor
        result = TableSet.packaged().roll(name, rng, key=key)
        return state, [Event.said("table_roll", "", result.explain(), (result.roll,),
                             data={"hidden": hidden, "table": result.table.id})]

    return run


__all__ = ["HEALTH", "SHEET_ROLLS", "UNSEEN", "Health", "Table", "allow_player_dice", "cast", "current", "fight_key",
           "health_word", "hidden", "hidden_roll", "is_hidden", "monsters", "morale", "set_monster", "sheet_roll",
           "show_health", "show_roll", "table_of", "table_roll", "with_table"]
