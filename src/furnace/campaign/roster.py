"""The roster at the table: a funnel rolled onto the campaign, promotion and levelling (with the choices asked,
`furnace.campaign.choices`), retiring and renaming, character files joining with their player.

Each is a campaign command for `Store.apply` (`Funnel(["Ann", "Bo"], 4, rng)`, `promote("Ann-1", Choices(…),
rng)`, `retire`, `rename`, `level_up`), so the log keeps it with its dice and `campaign undo` takes it back.
`members` lists the roster by player.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from furnace.campaign.choices import (
    ChoiceError,
    Choices,
    check_name,
    fighting_styles,
    level_up_character,
    new_character,
    open_archetypes,
    parse_swap,
    promote_character,
    renamed,
)
from furnace.campaign.commands import cast_of, join, put, rules_of
from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Applied, Command, Store
from furnace.characters.character import Character
from furnace.characters.funnel import Party, run_funnel
from furnace.dice import DiceSource
from furnace.events import Event, Part, declare

STATUSES = ("alive", "dying", "dead", "retired")
RETIRE = declare("retire", id="public", reason="public", before="public",
                 example={"id": "ann2", "reason": "opens an inn", "before": "alive"})
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


# -- names ------------------------------------------------------------------------------------------------------
def _free_name(state: CampaignState, name: str, member: Member | None = None) -> str:
    """The name, refused when another member of the roster has it (or has it as an id): names call members."""
    name = check_name(name)
    for m in state.roster.values():
        if m is not member and (m.character.name.lower() == name.lower() or m.id == name):
            taken = m.character.name if m.character.name.lower() == name.lower() else m.id
            raise CampaignError(f"{m.id} ({m.status}) is called {taken!r} already: choose another name, so that "
                                "the roster can call each by name")
    return name


# -- campaign commands ------------------------------------------------------------------------------------------
def _member(state: CampaignState, who: str, *, doing: str) -> Member:
    member = state.member(who)
    if member.status in ("dead", "retired"):
        why = member.death.cause if member.death else member.status
        raise CampaignError(f"{member.character.name} ({member.id}) is {member.status} ({why}) and cannot {doing}")
    return member


def promote(who: str, choices: Choices, rng: DiceSource, name: str | None = None) -> Command:
    """Promote a 0-level member of the roster (and rename her, with `name`), as a campaign command."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = _member(state, who, doing="be promoted")
        after, events = promote_character(member.character, choices, rng, rules_of(state))
        if name is not None:
            after, event = renamed(after, _free_name(state, name, member))
            events.append(event)
        return put(state, member, after), events

    return run


def level_up(who: str, choices: Choices, rng: DiceSource) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = _member(state, who, doing="advance")
        after, events = level_up_character(member.character, choices, rng, rules_of(state))
        return put(state, member, after), events

    return run


def retire(who: str, reason: str = "") -> Command:
    """The member leaves play: the roster keeps her as retired (no longer on the clock, no longer promoted)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = _member(state, who, doing="retire")
        after = member.model_copy(update={"status": "retired"})
        return state.with_member(after), [Event(RETIRE, member.character.name, (), (),
                                                {"id": member.id, "reason": reason, "before": member.status}, (),
                                                cast_of([member]))]

    return run


def rename(who: str, new: str) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        after, event = renamed(member.character, _free_name(state, new, member))
        return state.with_member(member.model_copy(update={"character": after})), [event]

    return run


def new_member(rng: DiceSource, choices: Choices, *, player: str = "", level: int = 1, name: str = "",
               race: str | None = None, abilities: Sequence[str] = (), features: Sequence[str] = ()) -> Command:
    """`character new` onto the roster: a character of a class and level made by the campaign's rules, every
    choice given or (`random`) picked and said, who joins with her player (as `campaign join` would a file)."""
    player = check_players([player])[0] if player else ""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        made, events = new_character(rng, rules_of(state), choices, level=level, race=race, abilities=abilities,
                                     features=features, name=_free_name(state, name) if name else "")
        state, joined = join(made.model_copy(update={"player": player}), player)(state)
        return state, [*events, *joined]

    return run


def members(state: CampaignState, statuses: Sequence[str] = ()) -> list[Member]:
    """The roster by player, then in the order they joined (ann1, ann2 … ann10); only `statuses` if given."""
    bad = [s for s in statuses if s not in STATUSES]
    if bad:
        raise CampaignError(f"{bad[0]!r} is not a status: {', '.join(STATUSES)}")
    found = [m for m in state.roster.values() if not statuses or m.status in statuses]
    return sorted(found, key=lambda m: (m.player.lower(), _natural(m.id)))


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in re.findall(r"\d+|\D+", text))


def join_files(store: Store, name: str, paths: Sequence[str], player: str) -> list[Applied]:
    """Character JSON files join the roster with their player, one logged command each; every file is read
    and validated before the first joins (`transfer.import_files` without a player).

    Example:
        join_files(store, "keep", ["examples/characters/brakka.json"], "Ann")
    """
    from furnace import files
    from furnace.campaign.transfer import FILES_LIMIT, MAX_FILES
    from furnace.characters.character import Character

    player = check_players([player])[0]
    files.check_batch(paths, count=MAX_FILES, each=files.MAX_BYTES, total=FILES_LIMIT, what="the character file")
    loaded = [(os.path.basename(p), Character.from_file(p)) for p in paths]
    return [store.apply(name, "campaign join", _join_file(c.model_copy(update={"player": player}), source))
            for source, c in loaded]


def _join_file(character: Character, source: str) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        after, logged = join(character, character.player or "")(state)
        return after, [e.with_data(file=source) for e in logged]

    return run


# -- the funnel onto the campaign: F-CHAR-01 ---------------------------------------------------------------------
@dataclass
class Funnel:
    """A campaign command: roll a funnel with the campaign's rules and add every peasant to the roster, each with
    her player. Players are named (`["Ann", "Bo"]`: Ann-1 … Ann-4) or counted (`4`: Player 1's P1-1 …); a
    name already on the roster takes the next number. After it runs, `party` is what was rolled.

    Example:
        store.apply("keep", "funnel", Funnel(["Ann", "Bo"], 4, rng))
    """

    players: int | Sequence[str]
    per_player: int
    rng: DiceSource
    party: Party | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.players, int):
            self.players = check_players(self.players)

    def __call__(self, state: CampaignState) -> tuple[CampaignState, list[Event]]:
        count = self.players if isinstance(self.players, int) else len(self.players)
        taken = [m.character.name for m in state.roster.values()]
        party = name_players(run_funnel(self.rng, count, self.per_player, rules_of(state)), self.players, taken)
        events = list(party.events)
        for c in party.characters:
            state, joined = join(c, c.player or "")(state)
            events += joined
        self.party = party
        return state, events


def check_players(names: Sequence[str]) -> list[str]:
    """Players' names: 1 to 60 characters, not blank, none twice."""
    out: list[str] = []
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60 or _CONTROL.search(name):
            raise CampaignError(f"{name!r} is not a player's name: 1 to 60 characters, not blank")
        if name.strip().lower() in (n.lower() for n in out):
            raise CampaignError(f"player {name.strip()!r} is named twice")
        out.append(name.strip())
    return out


def name_players(party: Party, players: int | Sequence[str], taken: Sequence[str] = ()) -> Party:
    """The funnel's P1-1 … as Ann-1 … for named players, each name numbered on past those `taken` (the
    roster's names), with its player."""
    used = {n.lower() for n in taken}
    new: dict[str, str] = {}
    chars = []
    for c in party.characters:
        p = int(str(c.player or "Player 1").rsplit(" ", 1)[-1])
        player = (c.player or "") if isinstance(players, int) else players[p - 1]
        stem = f"P{p}" if isinstance(players, int) else player
        n = 1
        while f"{stem}-{n}".lower() in used:
            n += 1
        used.add(f"{stem}-{n}".lower())
        new[c.name] = f"{stem}-{n}"
        chars.append(c.model_copy(update={"name": new[c.name], "player": player}))
    player_of = {c.name: c.player or "" for c in chars}
    events = tuple(_players(e.renamed(new), player_of) for e in party.events)
    return Party(tuple(chars), events)


def _players(e: Event, players: dict[str, str]) -> Event:
    """The fact with each character's player as the roster names her."""
    cast = {k: Part(p.name, p.kind, players.get(k, p.player)) for k, p in e.cast.items()}
    return Event(e.kind, e.actor, e.targets, e.rolls, e.data, e.rules, cast, e.audience)


__all__ = [
    "STATUSES",
    "ChoiceError",
    "Choices",
    "Funnel",
    "check_name",
    "check_players",
    "fighting_styles",
    "join_files",
    "level_up",
    "level_up_character",
    "members",
    "name_players",
    "open_archetypes",
    "parse_swap",
    "promote",
    "promote_character",
    "rename",
    "renamed",
    "retire",
]
