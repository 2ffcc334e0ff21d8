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
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.campaign import commands
from furnace.campaign.commands import cast_of, rules_of
from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Command
from furnace.dice import DiceSource
from furnace.events import Event, Part, declare

if TYPE_CHECKING:
    from furnace.characters.character import Character
    from furnace.play.checks import DC, Advantage

Health = Literal["hidden", "word", "exact"]
HEALTH: tuple[Health, ...] = ("hidden", "word", "exact")
SheetRoll = Literal["check", "save", "attack", "spellcheck"]
SHEET_ROLLS: tuple[SheetRoll, ...] = ("check", "save", "attack", "spellcheck")
ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
MASK_LENGTH = 60
UNSEEN = "something unseen"

# what the players may see (`setting`: the monsters' `health` by default; whether players enter their own dice,
# `allowed`; a monster of the fight, the actor: `revealed`, its `mask`, its `health`), the referee's alone but for
# the players' dice; `id`, `revealed` and `mask` are read back by `furnace.web.cast`
TABLE = declare("table", setting="referee", health="referee", allowed="public", id="referee", revealed="referee",
                mask="referee", example={"setting": "monster", "health": "word", "allowed": True, "id": "ogre",
                                         "revealed": True, "mask": "a shape in the dark"})
IN_VIEW = declare("in_view")        # a monster the referee reveals comes into the table's view
# a hidden fact the referee shows the table (`shown`: the fact, as the log wrote it; `seq`: its event)
REVEAL = declare("reveal", seq="referee", shown="public", old_who="public", old_what="public",
                 example={"old_who": "", "old_what": "", "seq": 12,
                          "shown": {"kind": "roll", "data": {"expression": "d20", "label": "", "total": 14}}})
# a roll from a member's sheet: `roll` (check, save, attack, spellcheck), the `ability`, `skill` or `weapon`, the
# `modifiers` added to the die (value and source), the `total` against the `dc` (the ROOM DC `room_dc` moved by the
# `easy` and `hard` sources), `success`, the `natural` d20; a SPELLCHECK's success level `sl` and `spell_dice`; a
# race's EASY the referee may grant in its situation, `suggested_easy` (racial_easy: suggest)
SHEET_ROLL = declare("sheet_roll", rolls="actor", roll="public", ability="public", skill="public", weapon="actor",
                     modifiers="actor", total="actor", dc="public", room_dc="public", easy="public", hard="public",
                     success="public", natural="actor", sl="actor", spell_dice="actor", mishap="public",
                     member="public", suggested_easy="public", luck_before="actor", luck_dice="actor",
                     sl_before="actor",
                     example={"roll": "check", "ability": "DEX", "skill": "Stealth", "weapon": "",
                              "modifiers": [[2, "DEX"], [1, "PROF"]], "total": 15, "dc": 15, "room_dc": 12,
                              "easy": [], "hard": ["heavy armor"], "success": True, "natural": 12, "sl": None,
                              "spell_dice": None, "mishap": False, "member": "ann1",
                              "suggested_easy": ["Halfling: CHA checks EASY when performing for humanoids"]})
# the referee's morale roll (F-OPT-04): the `total` of 2d6 against `morale` (half the `room_dc`, or `set` by her),
# compared `strictly` over or not; the enemies `break` with an `outcome` (flee, surrender) or hold. Rolled hidden
# (the default) it is the referee's alone; rolled in the open, the table sees it all
ENEMY_MORALE = declare("enemy_morale", rolls="public", total="public", morale="public", room_dc="public",
                       set="public", strictly="public", breaks="public", outcome="public",
                       example={"total": 9, "morale": 6, "room_dc": 12, "set": False, "strictly": True,
                                "breaks": True, "outcome": "flee"})
# a roll on a rules table: its `table` (id) and `name`, the `die` (chosen by `key_name` = `key`, a level or an
# armor), the `total`, the row's `span` and `text`
TABLE_ROLL = declare("table_roll", rolls="public", table="public", name="public", die="public", key="public",
                     key_name="public", total="public", span="public", text="public",
                     example={"table": "F-TAB-36", "name": "fumble", "die": "d20", "key": "light",
                              "key_name": "armor", "total": 7, "span": "6-10", "text": "you drop your weapon"})
# the referee's reaction roll for NPCs met (F-NPC-01, F-TAB-29): 2d6 + the speaker's `cha` modifier, the `total`,
# the row's `span` and its `attitude`; rolled hidden it is the referee's alone
REACTION = declare("reaction", rolls="public", cha="public", speaker="public", total="public", span="public",
                   attitude="public", example={"cha": 1, "speaker": "Agna", "total": 8, "span": "6-8",
                                               "attitude": "neutral"})


class SeenRoll(BaseModel):
    """A roll from her sheet she has seen, kept until she says how many Luck Dice she spends on it: what was rolled
    (`roll`, `ability`, `skill`, against `dc`) and the dice's `faces` as drawn (sides, face), to roll them again."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    roll: SheetRoll
    ability: str | None = None
    skill: str | None = None
    dc: int = Field(12, ge=1, le=60)
    faces: tuple[tuple[int, int], ...] = Field((), max_length=64)


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
    # by member id, a roll from her sheet seen in the console and waiting for her Luck Dice (`campaign.luck_seen`)
    asked: dict[str, SeenRoll] = Field(default_factory=dict)


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
        return with_table(state, table), [Event(TABLE, "", (), (), {"hidden": True, "setting": "health",
                                                                    "health": health}, audience="referee")]

    return run


def allow_player_dice(allowed: bool) -> Command:
    """Let players enter the faces of their own physical dice (checked against the dice, marked entered), or not."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        table = table_of(state).model_copy(update={"players_dice": bool(allowed)})
        return with_table(state, table), [Event(TABLE, "", (), (), {"setting": "players_dice",
                                                                    "allowed": bool(allowed)})]

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
        seen_before = cid in table.revealed
        update: dict[str, Any] = {}
        if revealed is not None:
            update["revealed"] = tuple(sorted({*table.revealed, cid} if revealed else set(table.revealed) - {cid}))
        if mask is not None:
            update["masks"] = {k: v for k, v in {**table.masks, cid: mask.strip()}.items() if v}
        if chosen is not None:
            update["monster_health"] = {**table.monster_health, cid: chosen}
        table = table.model_copy(update=update)
        foe = foes[cid]
        cast = {cid: Part(str(foe["name"]), str(foe.get("kind") or "monster"), str(foe.get("player") or ""))}
        told = [Event(TABLE, cid, (), (), {
            "hidden": True, "setting": "monster", "id": cid, "revealed": cid in table.revealed,
            "mask": table.masks.get(cid, ""), "health": table.monster_health.get(cid, table.health)}, (), cast,
            audience="referee")]
        if cid in table.revealed and not seen_before:     # the table sees it now: told as it is shown to them
            told.append(Event(IN_VIEW, cid, (), (), {}, (), cast))
        return with_table(state, table), told

    return run


# -- hidden rolls ---------------------------------------------------------------------------------------------
def hidden(command: Command) -> Command:
    """The command with its events marked hidden (`data.hidden`, and for the referee alone): only the referee sees
    them, until she shows one."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        after, events = command(state)
        return after, [replace(e, data={**e.data, "hidden": True}, audience="referee") for e in events]

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
        return with_table(state, shown), [_reveal(found, seq)]

    return run


def _reveal(found: Any, seq: int) -> Event:
    """The fact that shows the table a hidden event: the fact itself, for everyone now (an event from before facts
    is shown to the referee as it was written)."""
    fact = found.fact
    if fact is None:
        return Event(REVEAL, "", (), (), {"seq": seq, "old_who": found.who, "old_what": found.what})
    shown = {**fact.to_dict(), "audience": "all",
             "data": {**{k: v for k, v in fact.data.items() if k != "hidden"}, "shown": True}}
    return Event(REVEAL, fact.actor, fact.targets, (), {"seq": seq, "shown": shown}, fact.rules, fact.cast)


SECRET_KINDS = frozenset({"timer", "timer_set"})   # the referee's timers (F-OPT-07): set, and when they run out


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
               dc: int = 12, luck: int | None = 0) -> Command:
    """A CHECK (an ability, or a skill), a SAVE, an ATK with the weapon in hand, or a SPELLCHECK for a living
    member of the roster, against `dc` (the ROOM DC, or the foe's AC); logged with its dice, nothing changed but
    the Luck Dice she spends on it once seen (F-LUCK-03; a SPELLCHECK's SL moves at most one step, F-SPELL-09):
    `luck` of them, or None for her standing answer's (`furnace.campaign.luck.wanted`)."""
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
        # a roll seen is never rolled again (`campaign.luck_seen`); the table's raw dict read, not validated, on
        # every roll
        if member.id in state.table.get("asked", {}):
            said = (f"{member.character.name}'s last roll waits for her Luck Dice: answer it first (0 Luck Dice "
                    "rolls on)")
            raise CampaignError(said).for_all(said)     # hers to read: only she and the referee roll for her
        if kind == "spellcheck":
            return _spellcheck(member, rng, dc, state, luck)
        return _rolled(member, kind, rng, ability.upper() if ability else None, skill, dc, state, luck)

    return run


def _rolled(member: Member, kind: str, rng: DiceSource, ability: str | None, skill: str | None, dc: int,
            state: CampaignState, luck: int | None) -> tuple[CampaignState, list[Event]]:
    from furnace.campaign.luck import counted, on_check
    from furnace.play.checks import Modifier, check
    from furnace.play.combatant import from_character

    c, rules = member.character, rules_of(state)
    crit_on = 20
    what: dict[str, str]
    suggested: list[str] = []      # a race's EASY whose situation the referee judges (racial_easy: suggest, AMB-63)
    if kind == "check" and skill:
        from furnace.play.skills import situational, skill_check

        result, what = skill_check(c, skill, rng, dc, rules), {"skill": skill}
        suggested = [] if rules["racial_easy"] == "automatic" else situational(c, skill, rules)[0]
    elif kind == "check":
        from furnace.play.skills import ability_easy

        chosen = ability or "STR"
        racial = ability_easy(c, chosen, rules)  # type: ignore[arg-type]
        applied = racial if rules["racial_easy"] == "automatic" else []
        suggested = [] if applied else racial
        target, advantage = _marked_dc(c, dc, ("checks", f"{chosen.lower()}_checks"), state, applied)
        result = check(rng, target, [Modifier(c.mod(chosen), chosen)], kind="CHECK",  # type: ignore[arg-type]
                       label=f"{chosen} CHECK", rules=rules, advantage=advantage)
        what = {"ability": chosen}
    else:
        fighter = from_character(c, "party", rules, id=member.id)
        if kind == "save":
            chosen = ability or "CON"
            target, advantage = _marked_dc(c, dc, ("saves", f"{chosen.lower()}_saves"), state)
            result = check(rng, target, [Modifier(fighter.save_bonus(chosen), f"{chosen} SAVE")],  # type: ignore[arg-type]
                           kind="SAVE", label=f"{chosen} SAVE", rules=rules, advantage=advantage)
            what = {"ability": chosen}
        else:
            target, advantage = _marked_dc(c, dc, ("atk", "ranged_atk") if fighter.ranged else ("atk",), state)
            result = check(rng, target, [Modifier(fighter.attack_bonus, fighter.weapon)], kind="ATK",
                           label="ATK", rules=rules, crit_on=fighter.crit_range, advantage=advantage)
            what, crit_on = {"weapon": fighter.weapon}, fighter.crit_range
    label = f"{skill} CHECK" if "skill" in what else result.label     # the die's role, not her name
    values: dict[str, Any] = {
        "roll": kind, **what, "modifiers": [[m.value, m.source] for m in result.modifiers], "total": result.total,
        "dc": result.dc.value, "room_dc": result.dc.room_dc, "easy": list(result.dc.easy),
        "hard": list(result.dc.hard), "success": result.success, "natural": result.natural, "member": member.id,
        **({"suggested_easy": suggested} if suggested else {})}
    after, lucky, told = on_check(state, member, rng, rules, result, luck, crit_on=crit_on)
    if lucky is not None:
        values |= lucky.values()
    after, streak = counted(after, member, bool(values["success"]), result.kind, rules)
    return after, [Event(SHEET_ROLL, c.name, (), (result.roll._replace(label=label),), values,
                         ("F-LUCK-03",) if lucky else (), cast_of([member])), *told, *streak]


def _marked_dc(c: Character, dc: int, rolls: Sequence[str], state: CampaignState,
               racial: Sequence[str] = ()) -> tuple[DC, Advantage]:
    """The DC moved by what her armor (D-9, AMB-40), load (AMB-57), injuries and conditions put on these rolls
    (`characters.markers`, read as the fight and her skill CHECKs read them), with her race's EASY where it is
    applied at once, and a DISADVANTAGE among them (taken as HARD with use_advantage off)."""
    from furnace.play.checks import make_dc

    rules = rules_of(state)
    easy: list[str] = list(racial)
    hard: list[str] = []
    disadvantage = False
    for m in c.markers(rules):
        if m.applies_to not in rolls:
            continue
        if m.mode == "EASY":
            easy.append(m.source)
        elif m.mode == "DISADVANTAGE" and rules["use_advantage"]:
            disadvantage = True
        elif m.mode in ("HARD", "DISADVANTAGE"):
            hard.append(m.source if m.mode == "HARD" else f"{m.source}, DISADVANTAGE as HARD (use_advantage off)")
    return make_dc(dc, easy, hard, rules), "dis" if disadvantage else None


def _spellcheck(member: Member, rng: DiceSource, dc: int, state: CampaignState,
                luck: int | None) -> tuple[CampaignState, list[Event]]:
    from furnace.campaign.luck import counted, pool_of, spent_from_pool, wanted
    from furnace.characters.markers import casting_refusal
    from furnace.magic.casting import casting_ability, spellcheck_state
    from furnace.magic.spellcheck import Spellcheck, spellcheck
    from furnace.play.answering import Recorder

    c, rules = member.character, rules_of(state)
    if not c.char_class or (c.char_class not in ("Magic-user", "Cleric") and not c.spells):
        raise CampaignError(f"{c.name} casts no spells: a SPELLCHECK is for a Magic-user, a Cleric or a caster")
    refused = casting_refusal(c, rules)       # D-9: no SPELLCHECK in armor she is not proficient in
    if refused:
        raise CampaignError(refused)
    ability = casting_ability(c)

    def rolled(source: DiceSource, n: int) -> Spellcheck:   # the SPELLCHECK's own rule spends the dice (F-SPELL-09)
        return spellcheck(source, c.mod(ability, rules), c.prof(rules), dc, rules, ability=ability,
                          label="SPELLCHECK", state=spellcheck_state(c), luck_dice=n)

    seen = Recorder(rng)
    result = rolled(seen, 0)
    held = pool_of(state, member).dice
    # luck cancels no mishap, and lifts no Failure under luck_lifts_spell_failure off (AMB-19, as `spell_luck`)
    stuck = result.mishap or (int(result.values.get("band", 0)) == 0 and not rules["luck_lifts_spell_failure"])
    short = 0 if result.success else int(result.values.get("needed", 12)) - result.total
    n = 0 if stuck or not held else wanted(state, member, rules, held=held, short=short, roll="SPELLCHECK",
                                           given=luck)
    told: list[Event] = []
    values: dict[str, Any] = {}
    if n > 0:          # the same d20 (its faces replayed), then her Luck Dice
        first, result = result, rolled(Recorder(rng, tuple(seen.drawn)), n)
        state, spent = spent_from_pool(state, member, n, first.total, result.total,
                                       result.luck_rolls)
        told = [spent]
        values = {"luck_before": first.total, "luck_dice": n, "sl_before": first.sl}
    state, streak = counted(state, member, result.success, "SPELLCHECK", rules)
    return state, [Event(SHEET_ROLL, c.name, (), (result.roll._replace(label="SPELLCHECK"),), {
        "roll": "spellcheck", "ability": ability, "total": result.total, "dc": result.dc.value,
        "room_dc": result.dc.room_dc, "easy": list(result.dc.easy), "hard": list(result.dc.hard),
        "success": result.success, "natural": result.natural, "sl": result.sl, "spell_dice": result.spell_dice,
        "mishap": result.mishap, "member": member.id, **values},
        ("F-SPELL-02", *(("F-LUCK-03", "F-SPELL-09") if n > 0 else ())), cast_of([member])), *told, *streak]


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
        return state, [Event(ENEMY_MORALE, "", (), (result.roll,), {
            "hidden": hidden, "total": result.roll.total, "morale": result.morale, "room_dc": room_dc,
            "set": value is not None, "strictly": rules["morale_roll_over"] == "strictly_over",
            "breaks": result.breaks, "outcome": result.outcome}, ("F-OPT-04",),
            audience="referee" if hidden else "all")]

    return run


def reaction(cha: int, rng: DiceSource, *, speaker: str = "", hidden: bool = False) -> Command:
    """How NPCs met greet the party (F-NPC-01): 2d6 + the speaker's CHA modifier on F-TAB-29 (`furnace reaction`),
    logged; hidden unless shown."""
    from furnace.play.reaction import reaction as greeted

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        met = greeted(rng, cha, rules_of(state), speaker=speaker)
        return state, [Event(REACTION, speaker, (), (met.table_roll.roll,), {
            "hidden": hidden, "cha": cha, "speaker": speaker, "total": met.table_roll.roll.total,
            "span": met.table_roll.row.span, "attitude": met.attitude}, ("F-NPC-01", "F-TAB-29"),
            audience="referee" if hidden else "all")]

    return run


def table_roll(name: str, rng: DiceSource, *, level: int | None = None, armor: str | None = None,
               hidden: bool = False) -> Command:
    """A roll on a rules table (`rules.tables`, as `furnace table roll`): the die and why, the row; logged."""
    from furnace.rules.tables import TableSet

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        key: int | str | None = level if level is not None else armor
        tables = TableSet.packaged()
        table = tables.get(name)
        result = tables.roll(name, rng, key=key, label=table.name)
        chooser = tables.get(table.die_table) if key is not None and table.die_table else None
        return state, [Event(TABLE_ROLL, "", (), (result.roll,), {
            "hidden": hidden, "table": table.id, "name": table.name, "die": result.roll.expression, "key": key,
            "key_name": (chooser.key_name or table.die_key) if chooser is not None else None,
            "total": result.roll.total, "span": result.row.span, "text": result.row.text}, (table.id,),
            audience="referee" if hidden else "all")]

    return run


__all__ = ["HEALTH", "SHEET_ROLLS", "UNSEEN", "Health", "Table", "allow_player_dice", "cast", "current", "fight_key",
           "health_word", "hidden", "hidden_roll", "is_hidden", "monsters", "morale", "reaction", "set_monster",
           "sheet_roll", "show_health", "show_roll", "table_of", "table_roll", "with_table"]
