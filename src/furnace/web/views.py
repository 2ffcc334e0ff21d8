"""What each role may see of a campaign, decided here before anything leaves the server.

The referee sees everything. A player sees her own characters whole; everyone else's, on the roster and in the
fight, as the table sees them (name, state, HP as the table's health setting shows it), and so does an observer.
A player or an observer sees the clock and the fight as the table shows it (`furnace.campaign.table`): concealed
monsters are left out altogether, a masked monster goes by its mask, its health as the referee set it (hidden, a
word, exact), and monsters go by handles (m1, m2 … in the order the table first saw them), never by their ids,
which carry their names. The log is told to each of them from its facts (`web.feed`, `furnace.render.story`),
from what she may know; nothing is written and then taken out."""

from __future__ import annotations

from typing import Any

from furnace.campaign import luck_seen
from furnace.campaign import table as tables
from furnace.campaign.state import CampaignState, Member
from furnace.campaign.store import Store, StoredEvent
from furnace.render.story import Sight
from furnace.render.story.conditions import condition_words
from furnace.render.story.status import encounter_lines, held_words
from furnace.render.story.words import death_cause
from furnace.web.auth import Caller
from furnace.web.cast import casting
from furnace.web.feed import REFEREE, TABLE, Audience, feed


def audience(caller: Caller) -> Audience:
    """Whose telling the caller reads: the referee's, the table's (an observer), or her own (a player)."""
    if caller.referee:
        return REFEREE
    if caller.role == "player":
        return Audience("player", caller.player)
    return TABLE


def visible_events(events: list[StoredEvent], state: CampaignState, caller: Caller,
                   store: Store) -> list[dict[str, Any]]:
    """These events (a command's, just written) as the caller is told them, in her own numbering."""
    reading = feed(store, state.name, audience(caller), state, written=events)     # no read: they follow on
    wanted = {e.seq for e in events}
    return [item for seq, item in zip(reading.seqs, reading.items, strict=True) if seq in wanted]


def sight(store: Store, state: CampaignState) -> Sight:
    """What the table has been shown of the fight in progress, now."""
    table = tables.current(state)
    return casting(store, state.name).sight_at(None, table.health, dict(table.monster_health))


# -- the campaign -----------------------------------------------------------------------------------------------
def own(member: Member, caller: Caller) -> bool:
    return caller.role == "player" and member.player.strip().lower() == caller.player.strip().lower()


def member_view(m: Member, referee: bool = True) -> dict[str, Any]:
    """A member of the roster; for anyone but the referee her death's cause and her conditions in words (a
    cause of death is a code; one written in old words may name a monster, and is told as 'died')."""
    c = m.character
    cause = m.death.cause if m.death else None
    if cause is not None and not referee:
        cause = death_cause(cause) if cause.replace("_", "").isalpha() and cause.islower() else "died"
    conditions = list(c.conditions) if referee else [condition_words(x) for x in c.conditions]
    return {"id": m.id, "name": c.name, "player": m.player, "status": m.status, "hp": c.hp, "hp_max": c.hp_max,
            "level": c.level, "class": c.char_class or "0-level", "occupation": c.occupation,
            "conditions": conditions, "injuries": list(c.injuries), "luck_dice": c.luck_dice,
            "death": cause, "spells": list(c.spells), "scores": dict(c.scores)}


def campaign_view(state: CampaignState, caller: Caller, store: Store) -> dict[str, Any]:
    """The campaign as the caller may see it: the roster, the clock, the fight, and (referee) the table. A player
    gets her own characters whole and everyone else's as the table sees them (`others`); during a fight a
    character's HP is the fight's, the one source of it."""
    from furnace.campaign.roster import members

    table = tables.table_of(state)        # validated once for the whole view
    health = table.health
    fighting = _fight_hp(state)
    roster = []
    for m in members(state):
        whole = dict(member_view(m, caller.referee), mine=own(m, caller)) | fighting.get(m.id, {})
        roster.append(whole if caller.referee or whole["mine"] else others(whole, health))
    if caller.role == "observer":
        roster = [r for r in roster if r["status"] in ("alive", "dying")]
    mine = {r["id"] for r in roster if caller.referee or r.get("mine")}
    out: dict[str, Any] = {"name": state.name, "profile": state.profile, "role": caller.role,
                           "player": caller.player, "session": state.session, "clock": state.clock.describe(),
                           "roster": roster, "encounter": encounter_view(state, caller, store),
                           "players_dice": table.players_dice,
                           "luck_asked": {m: held for m, held in luck_seen.waiting(state, table).items()
                                          if m in mine}}
    if caller.referee:
        out["table"] = table.model_dump(mode="json")
        out["prompts"] = prompts(store, state.name)
    return out


def others(whole: dict[str, Any], health: str) -> dict[str, Any]:
    """Someone else's character as the table sees it: her name, whose she is, her state, and her HP as the
    table's health setting shows it (exact, a word, or hidden); no scores, spells, Luck, injuries nor class."""
    seen = {k: whole[k] for k in ("id", "name", "player", "status")} | {"mine": False, "hp": None, "hp_max": None,
                                                                         "health": None}
    if health == "exact":
        seen.update(hp=whole["hp"], hp_max=whole["hp_max"])
    elif health == "word":
        seen["health"] = tables.health_word(int(whole["hp"]), int(whole["hp_max"]),
                                            "dead" if whole["status"] == "dead" else "up")
    return seen


def _fight_hp(state: CampaignState) -> dict[str, dict[str, int]]:
    """The HP of each character in the fight in progress, by member id (the fight's, not the sheet's of before)."""
    if state.encounter is None:
        return {}
    from furnace.campaign import encounters

    fight = encounters.current(state).turns.encounter
    return {c.id: {"hp": int(c.hp), "hp_max": int(c.hp_max)} for c in fight.combatants if c.kind == "pc"}


PROMPTED = frozenset({"referee", "crit", "fumble", "injury", "timer", "morale"})


def prompts(store: Store, campaign: str, last: int = 300) -> list[dict[str, Any]]:
    """What asks for the referee's judgement among the last events: crits and fumbles with their rows, the
    engine's notes for the referee, timers run out, morale (newest last)."""
    since = max(0, store.count(campaign) - last)
    reading = feed(store, campaign, REFEREE)
    asked = {e.seq for e in store.events(campaign, since=since)
             if e.kind in PROMPTED or e.data.get("prompt") or e.data.get("referee_prompt")}
    return [item | {"prompt": item["what"]} for item in reading.items if item["seq"] in asked][-30:]


def encounter_view(state: CampaignState, caller: Caller, store: Store) -> dict[str, Any] | None:
    if state.encounter is None:
        return None
    from furnace.campaign import encounters
    from furnace.play import turns

    now = encounters.current(state)
    enc, due = now.turns.encounter, turns.due(now.turns)
    table = tables.current(state)
    if caller.referee:
        return {"name": now.name, "round": enc.round, "over": enc.over, "winner": enc.winner,
                "due": due.id if due else None, "lines": encounter_lines(now.turns),
                "combatants": [_fighter(c, enc) | _secrets(c, table) for c in enc.combatants]}
    seen = sight(store, state)
    shown = [c for c in enc.combatants if c.kind == "pc" or c.id in seen.revealed]
    plain = all(c.id in seen.revealed and c.id not in seen.masks for c in enc.combatants if c.kind != "pc")
    due_view = {"id": due.id, "name": due.name, "side": due.side} if due is not None and due.kind == "pc" else None
    mine = {m.id for m in state.roster.values() if own(m, caller)}
    return {"name": now.name if plain else "the fight", "round": enc.round, "over": enc.over,
            "winner": _winner(enc, plain), "due": due_view,
            "combatants": [_public(c, seen, c.id in mine, table.health) for c in shown]}


def _winner(enc: Any, plain: bool) -> str | None:
    """Who won, as the table may know it: the party's side by name, any other as 'the foes'."""
    if enc.winner is None:
        return None
    party = {c.side for c in enc.combatants if c.kind == "pc"}
    return str(enc.winner) if enc.winner in party or plain else "the foes"


def _fighter(c: Any, enc: Any) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "side": c.side, "kind": c.kind, "hp": c.hp, "hp_max": c.hp_max, "ac": c.ac,
            "zone": c.zone, "status": c.status, "dying_turns": c.dying_turns,
            "conditions": [held_words(enc, h) for h in c.held]}


def _secrets(c: Any, table: tables.Table) -> dict[str, Any]:
    if c.kind == "pc":
        return {}
    return {"revealed": c.id in table.revealed, "mask": table.masks.get(c.id, ""),
            "health": table.monster_health.get(c.id, table.health)}


def _public(c: Any, seen: Sight, mine: bool, health: str) -> dict[str, Any]:
    """A combatant as the table sees it: the caller's own PC whole; another PC by name, state and zone, her HP as
    the table's health setting shows it; a revealed monster by its handle and its name or mask, its health as the
    referee shows it, nothing else (no AC, no side's name)."""
    conditions = [condition_words(h.name) for h in c.held] if c.kind == "pc" or c.id not in seen.masks else []
    view = {"id": c.id if c.kind == "pc" else seen.handles.get(c.id, "m?"), "name": c.name, "kind": c.kind,
            "zone": c.zone, "status": c.status, "conditions": conditions}
    if c.kind == "pc" and mine:
        return view | {"side": c.side, "hp": c.hp, "hp_max": c.hp_max, "ac": c.ac, "dying_turns": c.dying_turns}
    shown = health if c.kind == "pc" else seen.health_of(c.id)
    view.update(name=seen.masks.get(c.id) or c.name, side=c.side if c.kind == "pc" else "foes", hp=None,
                hp_max=None, ac=None, health=None)
    if shown == "exact":
        view.update(hp=c.hp, hp_max=c.hp_max)
    elif shown == "word":
        view["health"] = tables.health_word(c.hp, c.hp_max, c.status)
    return view


def handles(store: Store, state: CampaignState) -> dict[str, str]:
    """Combatant id → what players call it: a PC by her id, a revealed monster by its handle (m1, m2 …)."""
    if state.encounter is None:
        return {}
    from furnace.campaign import encounters

    seen = sight(store, state)
    out = {cid: handle for cid, handle in seen.handles.items() if cid in seen.revealed}
    for c in encounters.current(state).turns.encounter.combatants:
        if c.kind == "pc":
            out[c.id] = c.id
    return out
