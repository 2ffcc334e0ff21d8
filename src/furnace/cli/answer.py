"""`furnace encounter answer` and `furnace encounter standing`: the players' choices in a fight of the campaign.

    furnace encounter status                    # the open questions, with their ids
    furnace encounter answer q1 --luck 1        # Ann spends a Luck Die on the roll she has seen
    furnace encounter answer q2 --no-sunder     # Hrolf keeps her shield and takes the blow
    furnace encounter answer q3 --cleave gob2   # Brakka carries the excess of her lethal blow into gob2
    furnace encounter standing --policy Ann=dying --quiet sunder   # her standing answer; sunder is not asked
    furnace standing --policy Ann=dying --seconds 60               # between fights: every new fight starts so
"""

from __future__ import annotations

import json
from typing import Any

import click

from furnace.cli.app import _emit, cli, json_option, seed_option
from furnace.cli.dice_options import faces_option, rng_from
from furnace.cli.output import explain_option, tell
from furnace.cli.standing import FLAGS, given, pick_flags, policy_option, policy_pairs, prompt_open
from furnace.errors import FurnaceError
from furnace.play.questions import KINDS


def _store_and_name() -> tuple[Any, str]:
    from furnace.cli.context import settings

    return settings().in_use()


def _shown(name: str, events: Any, as_json: bool) -> None:
    """The step's log, then the fight at a glance with its open questions (or both as JSON)."""
    from furnace.campaign import encounters
    from furnace.render.story.status import encounter_lines

    store, _ = _store_and_name()
    state = store.open(name)
    now = encounters.current(state) if state.encounter is not None else None
    if as_json:
        _emit({"events": [e.to_dict() for e in events],
               "questions": [q.public() for q in now.turns.encounter.asking.open()] if now else []})
        return
    tell(events)
    if now is not None:
        click.echo("")
        click.echo("\n".join(encounter_lines(now.turns)))


@click.command("answer")
@click.argument("question")
@click.option("--luck", type=click.IntRange(0, 3), default=None, metavar="N", help="Spend N Luck Dice.")
@click.option("--no-luck", is_flag=True, help="Spend no Luck Die.")
@click.option("--sunder/--no-sunder", default=None, help="Sunder the shield (half the damage, the shield destroyed), "
                                                        "or keep it and take the blow.")
@click.option("--rage/--no-rage", default=None, help="Rage, or not.")
@click.option("--hit-dice", type=click.IntRange(0, 20), default=None, metavar="N",
              help="Spend N of her Hit Dice on the Lay on Hands.")
@pick_flags
@click.option("--referee", "by_referee", is_flag=True, help="The referee answers for the player.")
@seed_option
@faces_option
@explain_option
@json_option
def encounter_answer(question: str, luck: int | None, no_luck: bool, sunder: bool | None, rage: bool | None,
                     hit_dice: int | None, cleave: str | None, no_cleave: bool, power: str | None, no_power: bool,
                     helmet_save: bool | None, by_referee: bool, seed: int | None, faces: str | None,
                     as_json: bool) -> None:
    """Answer an open QUESTION (its id from `furnace encounter status`): the step that asked goes on with it.

    Example: furnace encounter answer q1 --rage
    """
    from furnace.campaign import questions

    answers = given(luck, no_luck, sunder, rage, picks={"cleave": (cleave, no_cleave), "power": (power, no_power)},
                    helmet=helmet_save)
    if hit_dice is not None:
        answers["hit_dice"] = str(hit_dice)
    if len(answers) != 1:
        raise FurnaceError(f"give one answer: {' | '.join(FLAGS.values())}")
    store, name = _store_and_name()
    open_now = {q.id: q for q in questions.open_questions(store.open(name))}
    q = open_now.get(question)
    if q is None:
        raise FurnaceError(f"no open question {question!r}; open: {', '.join(open_now) or 'none'}")
    kind, value = next(iter(answers.items()))
    if kind != q.kind:
        raise FurnaceError(f"{q.id} asks about {q.kind}, not {kind}")
    if value.isdigit() and value not in q.options:
        raise FurnaceError(f"{q.id} takes {' | '.join(q.options)} (the dice she holds), not {value}")
    value = _picked(q.options, value)
    if value not in q.options:
        raise FurnaceError(f"{q.id} takes {' | '.join(q.options)}, not {value}")
    from furnace.campaign.session import with_faces

    rng = rng_from(seed, faces)
    command = questions.answer(q.id, value, rng, by="referee" if by_referee else "player")
    _shown(name, store.apply(name, f"encounter answer {q.id}", with_faces(command, rng)).events, as_json)
    prompt_open(name, as_json)


def _picked(options: tuple[str, ...], value: str) -> str:
    """A bare `--cleave` or `--power` (yes) where the options name whom: the first of them."""
    if value == "yes" and value not in options and len(options) > 1:
        return options[0]
    return value


@click.command("standing")
@policy_option
@click.option("--quiet", "quiet", multiple=True, type=click.Choice(list(KINDS)),
              help="A kind of choice not asked in this fight: the standing answer decides it (repeatable).")
@click.option("--ask-all", is_flag=True, help="Ask every kind of choice again.")
@json_option
def encounter_standing(policies: tuple[str, ...], quiet: tuple[str, ...], ask_all: bool, as_json: bool) -> None:
    """Set the fight's standing answers: a policy per player, side or the referee, and the kinds not asked.

    Example: furnace encounter standing --policy Ann=dying --quiet sunder
    """
    from furnace.campaign import encounters, questions

    store, name = _store_and_name()
    kinds = () if ask_all else (tuple(quiet) or None)
    state = store.apply(name, "encounter standing", questions.standing(dict(policy_pairs(policies)), kinds)).state
    asking = encounters.current(state).turns.encounter.asking
    if as_json:
        click.echo(json.dumps({"policies": dict(asking.policies), "quiet": list(asking.quiet)}))
        return
    shown = ", ".join(f"{who}={p}" for who, p in asking.policies.items()) or "none (the profile's default_policy)"
    click.echo(f"standing answers: {shown}; not asked: {', '.join(asking.quiet) or 'nothing'}")


@cli.command("standing")
@policy_option
@click.option("--clear", "clear", multiple=True, metavar="WHO",
              help="Drop WHO's lasting standing answer: the profile's default_policy answers for her (repeatable).")
@click.option("--quiet", "quiet", multiple=True, type=click.Choice(list(KINDS)),
              help="A kind of choice not asked in the campaign's fights from now on (repeatable).")
@click.option("--ask-all", is_flag=True, help="Ask every kind of choice again.")
@click.option("--seconds", type=click.IntRange(0, 86_400), default=None, metavar="N",
              help="How long a question waits in the console before her standing answer decides it (0: no limit).")
@json_option
def standing(policies: tuple[str, ...], clear: tuple[str, ...], quiet: tuple[str, ...], ask_all: bool,
             seconds: int | None, as_json: bool) -> None:
    """The standing answers that last between fights: a policy per player (or side, referee), the kinds of choice
    not asked, and the console's time limit on a question. Each new fight starts from them; `furnace encounter
    standing` changes the fight in progress alone. With no option: what holds now.

    Example: furnace standing --policy Ann=dying --quiet sunder --seconds 60
    """
    from furnace.campaign import standing as lasting

    store, name = _store_and_name()
    kinds = () if ask_all else (tuple(quiet) or None)
    if policies or clear or kinds is not None or seconds is not None:
        command = lasting.set_lasting(dict(policy_pairs(policies)), kinds, seconds, clear=clear)
        state = store.apply(name, "standing", command).state
    else:
        state = store.open(name)
    held = lasting.told(state)
    if as_json:
        click.echo(json.dumps(held))
        return
    click.echo(lasting_line(held))


def lasting_line(held: dict[str, Any]) -> str:
    """The standing answers between fights in a line (`furnace standing`, `campaign show`)."""
    shown = ", ".join(f"{who}={p}" for who, p in held["policies"].items()) or "none (the profile's default_policy)"
    limit = f"{held['seconds']} s, then the standing answer" if held["seconds"] else "none"
    return (f"standing answers between fights: {shown}; not asked: {', '.join(held['quiet']) or 'nothing'}; "
            f"time to answer in the console: {limit}")
