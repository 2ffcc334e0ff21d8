"""What each role may see of a campaign, decided here before anything leaves the server.

The referee sees everything. A player or an observer sees the roster, the clock and the fight as the table shows
it (`furnace.campaign.table`): concealed monsters are left out, a masked monster goes by its mask, its health
as the referee set it (hidden, a word, exact), and monsters go by handles (m1, m2 …), never by their ids, which
carry their names. The log is redacted the same way (`Redactor`): hidden rolls are left out, the names of
concealed monsters (and of the fights they are in) become "something unseen", a monster's HP leaves its
sentences unless shown exact, and a monster's own dice stay behind. Error messages go through it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from furnace.campaign import table as tables
from furnace.campaign.state import CampaignState, Member
from furnace.campaign.store import Store, StoredEvent
from furnace.web.auth import Caller
from furnace.web.cast import Casting, Fight, casting

HP_CHANGE = re.compile(r":?\s*HP -?\d+ → -?\d+")
HP_AC = re.compile(r"\s*\(HP -?\d+, AC \d+\)")
HP_OF = re.compile(r"\bHP -?\d+/\d+")


U = re.escape(tables.UNSEEN)
# A list of unseen ones told once: "something unseen, something unseen and something unseen" says how many.
GROUP = re.compile(rf"{U}(?:\s\(\d+\))?(?:(?:,\s(?:and\s)?|\sand\s|;\s|\s&\s){U}(?:\s\(\d+\))?)+")


@dataclass
class Redactor:
    """Rewrites text for players: names to replace (longest first), the monsters whose HP is not told, and the
    party's names (an unseen monster's event that touches none of them is not told at all)."""

    names: dict[str, str] = field(default_factory=dict)
    hp_hidden: set[str] = field(default_factory=set)     # monster names (as in the log) whose HP is not shown
    words: dict[str, str] = field(default_factory=dict)   # monster name → its health word, where shown as a word
    party: frozenset[str] = frozenset()
    pattern: re.Pattern[str] | None = None

    def __post_init__(self) -> None:
        keys = sorted((k for k in self.names if k), key=len, reverse=True)
        self.lowered = {k.lower(): v for k, v in self.names.items()}
        if keys:
            self.pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-])",
                                      re.IGNORECASE)
        self.touch = re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(self.party, key=len,
                                reverse=True)) + r")(?![\w-])", re.IGNORECASE) if self.party else None

    def text(self, text: str) -> str:
        if self.pattern is None:
            return text
        out = self.pattern.sub(lambda m: self.lowered.get(m.group(1).lower(), tables.UNSEEN), text)
        return GROUP.sub(tables.UNSEEN, out)

    def unseen(self, name: str) -> bool:
        return self.lowered.get(name.lower()) == tables.UNSEEN

    def event(self, e: StoredEvent) -> dict[str, Any] | None:
        """An event as a player sees it (already known not hidden); None when it is not told at all: an unseen
        monster's doing that touches no one of the party (each would tell one more of them)."""
        monster = e.who in self.hp_hidden or e.who in self.words or e.who.lower() in self.lowered
        what = HP_AC.sub("", e.what)
        rolls = [] if monster or e.kind == "encounter" else [str(r.get("explanation", "")) for r in e.rolls]
        if e.who in self.hp_hidden or (monster and e.who not in self.words):
            what = HP_OF.sub("", HP_CHANGE.sub("", what))
        elif e.who in self.words:
            what = HP_OF.sub("", HP_CHANGE.sub(f" ({self.words[e.who]})", what))
        if self.unseen(e.who) and (self.touch is None or not self.touch.search(what)):
            return None
        return {"seq": e.seq, "kind": e.kind, "who": self.text(e.who), "what": self.text(what),
                "rolls": [self.text(r) for r in rolls if r], "at": e.created_at, "entered": bool(e.data.get("entered"))}


def full_event(e: StoredEvent) -> dict[str, Any]:
    """An event as the referee sees it: everything, hidden ones marked."""
    return {"seq": e.seq, "kind": e.kind, "who": e.who, "what": e.what, "at": e.created_at,
            "rolls": [str(r.get("explanation", "")) for r in e.rolls if r.get("explanation")],
            "hidden": tables.secret(e), "entered": bool(e.data.get("entered")), "command": e.command}


def redactor(state: CampaignState, cast: Casting | None = None, upto: int | None = None) -> Redactor:
    """The redactor at event `upto` (None: now): every monster of the fights the log has begun by then goes by
    its name only when revealed plainly, by its mask, or as "something unseen" (`web.cast`); the fight in
    progress as the table stands."""
    table = tables.current(state)
    names: dict[str, str] = {}
    hp_hidden: set[str] = set()
    fights = (cast.upto(upto) if upto is not None else cast.fights) if cast is not None else []
    live = fights[-1] if fights and state.encounter is not None and cast is not None and \
        fights[-1] is cast.fights[-1] and fights[-1].name == str(state.encounter.get("name", "")) else None
    for fight in fights:
        if fight is not live and cast is not None:
            _past(fight, cast.undone, names, hp_hidden)
    words = _present(state, table, names, hp_hidden)
    party = frozenset(p for m in state.roster.values() for p in (m.character.name, m.id))
    return Redactor(names, hp_hidden, words, party)


def _past(fight: Fight, undone: set[int], names: dict[str, str], hp_hidden: set[str]) -> None:
    """A finished fight's monsters: their names as last shown in it; their HP not told."""
    shown, plain = fight.shown(undone), True
    for cid, name in fight.monsters.items():
        revealed, mask = shown.get(cid, (False, ""))
        names[name] = names[cid] = (mask or name) if revealed else tables.UNSEEN
        hp_hidden.add(name)
        plain = plain and revealed and not mask
    if fight.name:
        names[fight.name] = fight.name if plain else "the fight"


def _present(state: CampaignState, table: tables.Table, names: dict[str, str], hp_hidden: set[str]) -> dict[str, str]:
    """The fight in progress: each monster as the table shows it; its health words (name → word)."""
    words: dict[str, str] = {}
    foes = tables.monsters(state)
    if state.encounter is not None:
        plain = all(_plainly_seen(table, str(c["id"])) for c in foes)
        title = str(state.encounter.get("name", ""))
        names[title] = title if plain else "the fight"
    for c in foes:
        cid, name = str(c["id"]), str(c["name"])
        shown = cid in table.revealed
        names[name] = names[cid] = table.masks.get(cid, name) if shown else tables.UNSEEN
        health = table.monster_health.get(cid, table.health)
        if not shown or health == "hidden":
            hp_hidden.add(name)
        elif health == "word":
            words[name] = tables.health_word(int(c["hp"]), int(c["hp_max"]), str(c.get("status", "up")))
            hp_hidden.discard(name)
        else:
            hp_hidden.discard(name)
    return words


def _plainly_seen(table: tables.Table, cid: str) -> bool:
    return cid in table.revealed and cid not in table.masks


def player_redactor(store: Store, state: CampaignState) -> Redactor:
    """The redactor for everything a player reads now (the campaign view, errors, the fight's menu)."""
    return redactor(state, casting(store, state.name))


def visible_events(events: list[StoredEvent], state: CampaignState, caller: Caller,
                   store: Store) -> list[dict[str, Any]]:
    """The events the caller may see, as they may see them: each event redacted as of its own place in the log
    (a monster of a fight begun later is not yet a monster)."""
    if caller.referee:
        return [full_event(e) for e in events]
    table, cast = tables.current(state), casting(store, state.name)
    scrubs: dict[int, Redactor] = {}
    out = []
    for e in events:
        if tables.is_hidden(e, table):
            continue
        begun = len(cast.upto(e.seq))
        scrub = scrubs.get(begun) or scrubs.setdefault(begun, redactor(state, cast, e.seq))
        view = scrub.event(e)
        if view is not None:
            out.append(view)
    return out


# -- the campaign -----------------------------------------------------------------------------------------------
def own(member: Member, caller: Caller) -> bool:
    return caller.role == "player" and member.player.strip().lower() == caller.player.strip().lower()


def member_view(m: Member) -> dict[str, Any]:
    c = m.character
    return {"id": m.id, "name": c.name, "player": m.player, "status": m.status, "hp": c.hp, "hp_max": c.hp_max,
            "level": c.level, "class": c.char_class or "0-level", "occupation": c.occupation,
            "conditions": list(c.conditions), "injuries": list(c.injuries), "luck_dice": c.luck_dice,
            "death": m.death.cause if m.death else None, "spells": list(c.spells), "scores": dict(c.scores)}


def campaign_view(state: CampaignState, caller: Caller, store: Store) -> dict[str, Any]:
    """The campaign as the caller may see it: the roster, the clock, the fight, and (referee) the table."""
    from furnace.campaign.roster import members

    roster = [dict(member_view(m), mine=own(m, caller)) for m in members(state)]
    if not caller.referee:      # a death's cause, a condition's source, an injury can name a monster
        scrub = player_redactor(store, state)
        roster = [r | {"death": scrub.text(r["death"]) if r["death"] else None,
                       "conditions": [scrub.text(x) for x in r["conditions"]],
                       "injuries": [scrub.text(x) for x in r["injuries"]]} for r in roster]
    if caller.role == "observer":
        roster = [{k: r[k] for k in ("id", "name", "player", "status", "hp", "hp_max", "conditions")}
                  for r in roster if r["status"] in ("alive", "dying")]
    out: dict[str, Any] = {"name": state.name, "profile": state.profile, "role": caller.role,
                           "player": caller.player, "session": state.session, "clock": state.clock.describe(),
                           "roster": roster, "encounter": encounter_view(state, caller, store),
                           "players_dice": tables.table_of(state).players_dice}
    if caller.referee:
        out["table"] = tables.table_of(state).model_dump(mode="json")
        out["prompts"] = prompts(store, state.name)
    return out


PROMPTED = frozenset({"referee", "crit", "fumble", "injury", "timer", "morale"})


def prompts(store: Store, campaign: str, last: int = 300) -> list[dict[str, Any]]:
    """What asks for the referee's judgement among the last events: crits and fumbles with their prompts, the
    engine's "referee:" lines, timers run out, morale (newest last)."""
    since = max(0, store.count(campaign) - last)
    return [full_event(e) | {"prompt": str(e.data.get("prompt") or e.data.get("referee_prompt") or "")}
            for e in store.events(campaign, since=since)
            if e.kind in PROMPTED or e.data.get("prompt") or e.data.get("referee_prompt")][-30:]


def handles(state: CampaignState) -> dict[str, str]:
    """Combatant id → what players call it: a character by her id, a monster by m1, m2 … in the fight's order."""
    out: dict[str, str] = {}
    n = 0
    combatants = state.encounter.get("turns", {}).get("encounter", {}).get("combatants", []) if state.encounter \
        else []
    for c in combatants:
        if c.get("kind") == "pc":
            out[str(c["id"])] = str(c["id"])
        else:
            n += 1
            out[str(c["id"])] = f"m{n}"
    return out


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
                "due": due.id if due else None, "lines": turns.describe(now.turns),
                "combatants": [_fighter(c, enc) | _secrets(c, table) for c in enc.combatants]}
    handle, scrub = handles(state), player_redactor(store, state)
    shown = [c for c in enc.combatants if c.kind == "pc" or c.id in table.revealed]
    due_view = None
    if due is not None:
        visible = due.kind == "pc" or due.id in table.revealed
        due_view = {"id": handle[due.id] if visible else None,
                    "name": scrub.text(due.name) if visible else tables.UNSEEN, "side": due.side}
    return {"name": scrub.text(now.name), "round": enc.round, "over": enc.over, "winner": enc.winner,
            "due": due_view, "combatants": [_public(c, enc, table, handle[c.id], scrub) for c in shown]}


def _fighter(c: Any, enc: Any) -> dict[str, Any]:
    from furnace.play.turns import _held

    return {"id": c.id, "name": c.name, "side": c.side, "kind": c.kind, "hp": c.hp, "hp_max": c.hp_max, "ac": c.ac,
            "zone": c.zone, "status": c.status, "dying_turns": c.dying_turns,
            "conditions": [_held(enc, h) for h in c.held]}


def _secrets(c: Any, table: tables.Table) -> dict[str, Any]:
    if c.kind == "pc":
        return {}
    return {"revealed": c.id in table.revealed, "mask": table.masks.get(c.id, ""),
            "health": table.monster_health.get(c.id, table.health)}


def _public(c: Any, enc: Any, table: tables.Table, handle: str, scrub: Redactor) -> dict[str, Any]:
    view = _fighter(c, enc)
    view.update(id=handle, conditions=[scrub.text(x) for x in view["conditions"]])
    if c.kind == "pc":
        return view
    health = table.monster_health.get(c.id, table.health)
    view.update(name=table.masks.get(c.id, c.name), ac=None)
    if health != "exact":
        view.update(hp=None, hp_max=None, health=tables.health_word(c.hp, c.hp_max, c.status)
                    if health == "word" else None)
    if table.masks.get(c.id):
        view["conditions"] = []     # a condition's source could name it
    return view
