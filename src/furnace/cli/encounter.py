"""`furnace encounter …`: a fight of the campaign played turn by turn (start, status, next, actions, act, end).

Each command is a few lines over `furnace.campaign.encounters` (the campaign's commands) and
`furnace.play.turns` (whose turn, what she may do); every step is one logged command with its rolls.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import click

from furnace.cli.answer import encounter_answer, encounter_standing
from furnace.cli.app import _emit, cli, json_option, seed_option
from furnace.cli.context import settings
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.output import explain_option, plain, tell
from furnace.cli.standing import answer_flags, policy_option, prompt_open, refuse_open, with_standing


def party_option(fn: Any) -> Any:
    return click.option("--party", multiple=True, metavar="all|WHO",
                        help="Who fights: all (the roster's living characters, the default) or ids and names "
                             "(repeat, or separate with commas).")(fn)


def fight_options(fn: Any) -> Any:
    """--monsters, --room-dc, --initiative, --name, --option: what a campaign fight is made of."""
    for option in reversed((
        click.option("--monsters", default=None, metavar='"goblin x4, ogre"',
                     help="The monsters, from the bestiary (and the campaign's monster overrides)."),
        click.option("--room-dc", type=click.IntRange(1, 40), default=None,
                     help="The ROOM DC (default: the monsters' highest typical ROOM DC, or the fight file's)."),
        click.option("--initiative", type=click.Choice(["group", "simultaneous"]), default=None,
                     help="The initiative model (default: the fight file's, else the option initiative_model)."),
        click.option("--name", default=None, help="What the log calls the fight."),
        click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
                     help="A rule option for this fight only, over the campaign's rules (repeatable)."),
    )):
        fn = option(fn)
    return fn


def fight_overrides(options: Sequence[str], store: Any, name: str) -> dict[str, Any]:
    """`--option NAME=VALUE` for one fight, read against the campaign's rules (its tables for a table option)."""
    if not options:
        return {}
    from furnace.campaign.commands import rules_of
    from furnace.rules.ruleset import parse_overrides

    return parse_overrides(options, tables=rules_of(store.open(name)).tables)


def show_log(events: Sequence[Any], as_json: bool, *, rolls: bool = True, extra: dict[str, Any] | None = None) -> None:
    """Stored events as the fight's log (a round as a heading), or as JSON."""
    if as_json:
        _emit({"events": [dataclasses.asdict(e) for e in events], **(extra or {})})
        return
    tell(events, rolls=rolls)


def _store_and_name() -> tuple[Any, str]:
    s = settings()
    return s.in_use()


def _status(name: str, as_json: bool, *, events: Sequence[Any] = (), state: Any = None) -> None:
    """After a step: the log of the step, then the table at a glance (or everything as JSON). `state`: the campaign
    as just read (else it is read). The fight as the campaign keeps it (`furnace.campaign.kept_fight`): a read of
    the table loads none of the commands that play it (`furnace.campaign.encounters`)."""
    from furnace.campaign.kept_fight import current

    store, _ = _store_and_name()
    state = store.open(name) if state is None else state
    now = current(state) if state.encounter is not None else None
    due = _deadline(store, name, state)
    if as_json:
        shown = _as_json(now)
        show_log(events, True, extra={"encounter": {**shown, "deadline": due} if shown and due else shown})
        return
    show_log(events, False)
    if now is not None:
        from furnace.render.story.status import encounter_lines

        click.echo("")
        click.echo("\n".join(encounter_lines(now.turns)))
        if due:
            click.echo(f"  {due['id']} waits until {due['at']} (the time limit, {state.question_seconds} s); then "
                       f"the standing answer, {due['default']}, decides it")


def _deadline(store: Any, name: str, state: Any) -> dict[str, Any] | None:
    """The open question's time limit in the console: its id, the moment (UTC) and the answer that falls due."""
    from furnace.campaign.kept_fight import deadline

    found = deadline(store, name, state) if state.encounter is not None else None
    if found is None:
        return None
    q, at = found
    return {"id": q.id, "at": at.strftime("%Y-%m-%d %H:%M:%S UTC"), "iso": at.isoformat(), "default": q.default}


def _as_json(now: Any) -> dict[str, Any] | None:
    from furnace.play import turns
    from furnace.play.combatant import flat
    from furnace.render.story.status import encounter_lines

    if now is None:
        return None
    c = turns.due(now.turns)
    return {"name": now.name, "round": now.turns.encounter.round, "due": c.id if c else None,
            "over": now.turns.encounter.over, "phases": [list(p) for p in now.turns.encounter.phases],
            "combatants": [flat(x) for x in now.turns.encounter.combatants],
            "deaths": {k: v.model_dump() for k, v in now.deaths.items()}, "status": encounter_lines(now.turns),
            "questions": [q.public() for q in now.turns.encounter.asking.open()]}


@cli.group()
def encounter() -> None:
    """A fight of the campaign played turn by turn; it lives in the campaign, so it survives the terminal.

    Example: furnace encounter start --monsters "goblin x4" && furnace encounter next
    """


@encounter.command("start")
@party_option
@fight_options
@click.option("--file", "file", default=None, help="A fight file: its ROOM DC, initiative, surprise and monsters "
                                                   "(the party comes from the roster).")
@policy_option
@seed_option
@faces_option
@explain_option
@json_option
def encounter_start(party: tuple[str, ...], monsters: str | None, room_dc: int | None, initiative: str | None,
                    name: str | None, options: tuple[str, ...], file: str | None, policies: tuple[str, ...],
                    seed: int | None, faces: str | None, as_json: bool) -> None:
    """Start a fight: the roster's living characters against monsters; initiative, then the first turn.

    Example: furnace encounter start --party all --monsters "goblin x4" --room-dc 12 --seed 3
    """
    from furnace.campaign import encounters
    from furnace.play.fightfile import load_fight

    store, name_ = _store_and_name()
    spec = load_fight(file) if file else None
    rng = rng_from(seed, faces)
    command = encounters.begin(party, rng, monsters=monsters, fight_file=spec, room_dc=room_dc, name=name,
                               initiative=initiative, options=fight_overrides(options, store, name_))
    command = with_standing(command, policies)
    _status(name_, as_json, events=_apply(store, name_, "encounter start", command, rng))


def _apply(store: Any, name: str, what: str, command: Any, rng: Any) -> Any:
    """One step, logged; faces entered at the table checked inside its transaction (refused: nothing changes)."""
    from furnace.campaign.session import with_faces

    return store.apply(name, what, with_faces(command, rng)).events


@encounter.command("status")
@explain_option
@json_option
def encounter_status(as_json: bool) -> None:
    """The fight in progress: initiative by side, whose turn, HP, conditions with time left, the dying.

    Example: furnace encounter status
    """
    from furnace.campaign.kept_fight import current

    store, name = _store_and_name()
    state = store.open(name)
    current(state)      # refuses when there is none
    _status(name, as_json, state=state)


@encounter.command("next")
@seed_option
@faces_option
@explain_option
@json_option
def encounter_next(seed: int | None, faces: str | None, as_json: bool) -> None:
    """Play the monsters' turns with the tactic (attack the nearest foe) until a player character is due or a
    question is open (a choice of a player's: `furnace encounter answer`).

    Example: furnace encounter next --seed 4
    """
    from furnace.campaign import encounters, questions
    from furnace.play import turns

    store, name = _store_and_name()
    state = store.open(name)
    refuse_open(state)
    now = encounters.current(state)
    c = turns.due(now.turns)
    if c is None or c.kind == "pc":
        who = f"{c.name} ({c.id}) is due: `furnace encounter act {c.id} …`" if c else \
            "the fight is over: `furnace encounter end` settles it"
        finish(rng_from(seed, faces))          # nothing rolls: faces entered are refused as left over
        if as_json:
            _emit({"events": [], "encounter": _as_json(now), "message": who})
        else:
            click.echo(who)
        return
    rng = rng_from(seed, faces)
    _status(name, as_json, events=_apply(store, name, "encounter next", questions.next_turns(rng), rng))
    prompt_open(name, as_json)


@encounter.command("actions")
@click.argument("who", required=False)
@explain_option
@json_option
def encounter_actions(who: str | None, as_json: bool) -> None:
    """What a combatant may do now (default: whoever is due), and why each other action is refused.

    Example: furnace encounter actions brak1
    """
    from furnace.campaign import encounters
    from furnace.campaign.commands import rules_of
    from furnace.play import turns

    store, name = _store_and_name()
    state = store.open(name)
    now = encounters.current(state)
    c = turns.due(now.turns)
    cid = encounters.resolve(state, now, who) if who else (c.id if c else None)
    if cid is None:
        click.echo("the fight is over: `furnace encounter end` settles it")
        return
    rules = rules_of(state).with_options(now.options, "this fight") if now.options else rules_of(state)
    menu = turns.legal_actions(now.turns, cid, rules)
    if as_json:
        _emit({"who": cid, "actions": [dataclasses.asdict(m) | {"legal": m.legal} for m in menu]})
        return
    click.echo(f"{now.turns.encounter.get(cid).name} ({cid}):")
    names = {c.name for c in now.turns.encounter.combatants}
    for m in menu:
        click.echo(plain(f"  {m.explain()}", names))


@encounter.command("act")
@click.argument("who")
@click.argument("verb", type=click.Choice(["attack", "cast", "use", "stabilise", "stabilize", "dodge", "move",
                                           "disengage", "wait", "free", "lay"], case_sensitive=False))
@click.argument("target", required=False)
@click.option("--spell", default=None, help="The spell (or cantrip) to cast.")
@click.option("--note", default="", help="A free-form action, for the referee.")
@click.option("--item", default=None, help="The magic item whose power to use (with `use`).")
@click.option("--cure", default=None, metavar="CONDITION",
              help="With `lay`: the Lay on Hands cures this condition instead of healing (F-CLR-06).")
@click.option("--bloodmagic", is_flag=True, help="A Bloodshaman spends 1d6 HP to add as much to the blow's DAM.")
@answer_flags
@seed_option
@faces_option
@explain_option
@json_option
def encounter_act(who: str, verb: str, target: str | None, spell: str | None, note: str, item: str | None,
                  cure: str | None, bloodmagic: bool, seed: int | None, faces: str | None, as_json: bool,
                  standing: dict[str, str]) -> None:
    """One action on WHO's turn: attack FOE (going NEAR first if need be), move FOE|RANGED, cast TARGET --spell S,
    use [TARGET] --item I, stabilise ALLY, dodge, disengage, wait, free --note; attack FOE --bloodmagic for a
    Bloodshaman; lay ALLY [--cure CONDITION] for a Cleric's Lay on Hands (the ally answers for her Hit Dice). Out of
    turn or not allowed: refused with the reason.

    Example: furnace encounter act brak1 attack goblin-2 --seed 5
    """
    from furnace.campaign import encounters

    store, name = _store_and_name()
    refuse_open(store.open(name))
    rng = rng_from(seed, faces)
    note = f"cure:{cure}" if cure and verb.lower() == "lay" else note
    command = encounters.act(who, verb, target, rng, spell=spell, note=note, item=item, bloodmagic=bloodmagic,
                             asked=True, standing=standing)
    _status(name, as_json, events=_apply(store, name, f"encounter act {verb}", command, rng))
    prompt_open(name, as_json)


@encounter.command("end")
@seed_option
@faces_option
@explain_option
@json_option
def encounter_end(seed: int | None, faces: str | None, as_json: bool) -> None:
    """End the fight (won, lost or broken off) and settle it: HP, deaths, injuries, gear, luck, XP; what still lasts
    goes on the campaign clock (a dying timer, waking, a wound's timer, a condition's rounds, a bone's weeks).

    Example: furnace encounter end --seed 2
    """
    from furnace.campaign import encounters

    store, name = _store_and_name()
    rng = rng_from(seed, faces)
    show_log(_apply(store, name, "encounter end", encounters.end(rng), rng), as_json)


# -- the referee edits the fight -----------------------------------------------------------------------------------
@encounter.group("edit")
def encounter_edit() -> None:
    """The referee changes the fight in progress: add or remove a combatant, set HP, add or remove a condition,
    delay a turn. Each is a logged command; the fight is over as soon as one side is left standing.

    Example: furnace encounter edit hp goblin-1 2
    """


def _edit(what: str, command: Any, rng: Any, as_json: bool) -> None:
    store, name = _store_and_name()
    _status(name, as_json, events=_apply(store, name, f"encounter edit {what}", command, rng))


@encounter_edit.command("add")
@click.option("--party", multiple=True, metavar="WHO", help="Members of the roster who join (ids or names).")
@click.option("--monsters", default=None, metavar='"goblin x2"', help="Monsters of the bestiary who join.")
@seed_option
@faces_option
@explain_option
@json_option
def edit_add(party: tuple[str, ...], monsters: str | None, seed: int | None, faces: str | None,
             as_json: bool) -> None:
    """Combatants join the fight: each acts from her side's next phase (a monster's HP rolled and logged).

    Example: furnace encounter edit add --monsters "goblin x2" --seed 4
    """
    from furnace.campaign import fightedit
    from furnace.campaign.session import chain
    from furnace.errors import FurnaceError

    if not party and not monsters:
        raise FurnaceError('name who joins: --party WHO or --monsters "goblin x2"')
    rng = rng_from(seed, faces)
    steps = ([fightedit.add_members(party)] if party else []) + (
        [fightedit.add_monsters(monsters, rng)] if monsters else [])
    _edit("add", chain(*steps), rng, as_json)


@encounter_edit.command("remove")
@click.argument("who")
@seed_option
@faces_option
@explain_option
@json_option
def edit_remove(who: str, seed: int | None, faces: str | None, as_json: bool) -> None:
    """A combatant leaves the fight: a member is settled onto the roster at once, a monster is gone (no XP).

    Example: furnace encounter edit remove goblin-2
    """
    from furnace.campaign import fightedit

    rng = rng_from(seed, faces)
    _edit("remove", fightedit.remove(who, rng), rng, as_json)


@encounter_edit.command("hp", context_settings={"ignore_unknown_options": True})
@click.argument("who")
@click.argument("hp", type=click.IntRange(-10_000, 10_000))
@seed_option
@faces_option
@explain_option
@json_option
def edit_hp(who: str, hp: int, seed: int | None, faces: str | None, as_json: bool) -> None:
    """Set a combatant's HP: lower, as damage by the campaign's death model (a drop rolls its timer); higher, as
    healing (up again above 0).

    Example: furnace encounter edit hp brak1 5
    """
    from furnace.campaign import fightedit

    rng = rng_from(seed, faces)
    _edit("hp", fightedit.set_hp(who, hp, rng), rng, as_json)


@encounter_edit.command("condition")
@click.argument("who")
@click.argument("condition")
@click.option("--rounds", type=click.IntRange(1, 1_000), default=None,
              help="How many rounds it lasts (default: until the fight ends).")
@click.option("--remove", is_flag=True, help="Take the condition away instead.")
@seed_option
@faces_option
@explain_option
@json_option
def edit_condition(who: str, condition: str, rounds: int | None, remove: bool, seed: int | None, faces: str | None,
                   as_json: bool) -> None:
    """Add a condition to a combatant (for --rounds N, or until the fight ends), or take one away (--remove).

    Example: furnace encounter edit condition goblin-1 PRONE --rounds 1
    """
    from furnace.campaign import fightedit

    rng = rng_from(seed, faces)
    _edit("condition", fightedit.condition(who, condition, rng, add=not remove, rounds=rounds), rng, as_json)


@encounter_edit.command("delay")
@click.argument("who")
@seed_option
@faces_option
@explain_option
@json_option
def edit_delay(who: str, seed: int | None, faces: str | None, as_json: bool) -> None:
    """The combatant due waits: she acts after the rest of her phase, and the next one is due.

    Example: furnace encounter edit delay brak1
    """
    from furnace.campaign import fightedit

    rng = rng_from(seed, faces)
    _edit("delay", fightedit.delay(who, rng), rng, as_json)


# the players' choices join the group: `encounter answer` and `encounter standing` (furnace.cli.answer)
encounter.add_command(encounter_answer)
encounter.add_command(encounter_standing)
