"""Standing answers on the command line: `--policy WHO=NAME` (simulate, fight, encounter start and standing) and the
answers given with an action (`encounter act … --luck 1 --no-rage`), or to an open question (`encounter answer`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from furnace.errors import FurnaceError

F = TypeVar("F", bound=Callable[..., Any])


def policy_option(fn: F) -> F:
    """`--policy WHO=NAME` (repeatable; a bare NAME for everyone): the parameter `policies`."""
    from furnace.play.policies import POLICIES

    return click.option("--policy", "policies", multiple=True, metavar="WHO=NAME",
                        help="A standing answer: WHO (a side such as party or monsters, a player, or referee) "
                             f"answers every choice by the policy NAME ({', '.join(POLICIES)}); a bare NAME is "
                             "everyone's. Default: the profile's default_policy.")(fn)


def policy_pairs(specs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    from furnace.play.policies import parse

    return tuple(parse(specs).items())


def policy_line(standing: tuple[tuple[str, str], ...], rules: Any) -> str:
    """The standing answers a run was played with, for its results."""
    from furnace.play.policies import POLICIES

    default = str(rules["default_policy"])
    named = [f"{'everyone' if who == '*' else who}: {name} ({POLICIES[name]})" for who, name in standing]
    rest = f"{'anyone else' if named else 'everyone'}: {default} ({POLICIES[default]}; the profile's default_policy)"
    return "Standing answers: " + "; ".join([*named, rest]) + "."


def answer_flags(fn: F) -> F:
    """`--luck N | --no-luck`, `--sunder | --no-sunder`, `--rage | --no-rage`, `--cleave [FOE] | --no-cleave`,
    `--power [ALLY] | --no-power`, `--helmet-save | --no-helmet-save` given with an action: the actor's answers to
    what it asks her (the parameter `standing`: kind → answer)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, luck: int | None, no_luck: bool, sunder: bool | None, rage: bool | None,
                cleave: str | None, no_cleave: bool, power: str | None, no_power: bool, helmet_save: bool | None,
                **kwargs: Any) -> Any:
        answers = given(luck, no_luck, sunder, rage, picks={"cleave": (cleave, no_cleave), "power": (power, no_power)},
                        helmet=helmet_save)
        return fn(*args, standing=answers, **kwargs)

    for option in reversed(FLAG_OPTIONS):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def pick_flags(fn: F) -> F:
    """The flags of the choices added with the fight's powers (cleave, power, helmet), shared by `encounter act` and
    `encounter answer`."""
    for option in reversed(_PICKS):
        fn = option(fn)
    return fn


_PICKS = (
    click.option("--cleave", is_flag=False, flag_value="yes", default=None, metavar="[FOE]",
                 help="Cleave past a foe she kills into FOE (its id; alone: the first foe CLOSE) (F-FTR-03)."),
    click.option("--no-cleave", is_flag=True, help="Do not cleave: the excess damage is lost."),
    click.option("--power", is_flag=False, flag_value="yes", default=None, metavar="[ALLY]",
                 help="Use a power: Chosen one's reroll, or Rally on ALLY (its id; alone: the first ally) "
                      "(F-ARCH-03); a fighting style's choice: the 2H weapon master's 1s rolled again, Protection's "
                      "HARD ATK on an ally (F-FTR-04)."),
    click.option("--no-power", is_flag=True, help="Keep the once-a-fight power for later, or the 1s as they fell."),
    click.option("--helmet-save/--no-helmet-save", default=None,
                 help="On a head or skull wound, make the helmet's save vs. death, or not (M-SEVER-01, M-BONE-01)."),
)
FLAG_OPTIONS = (
    click.option("--luck", type=click.IntRange(0, 3), default=None, metavar="N",
                 help="Spend N Luck Dice on a failed roll of hers (F-LUCK-03)."),
    click.option("--no-luck", is_flag=True, help="Spend no Luck Dice."),
    click.option("--sunder/--no-sunder", default=None, help="Sunder her shield, or keep it, when a blow lands "
                                                            "(F-EQ-03)."),
    click.option("--rage/--no-rage", default=None, help="Rage as she attacks, or not (F-ARCH-02)."),
    *_PICKS,
)


def given(luck: int | None, no_luck: bool, sunder: bool | None, rage: bool | None, *,
          picks: dict[str, tuple[str | None, bool]] | None = None, helmet: bool | None = None) -> dict[str, str]:
    """The answers given by the flags, by kind of choice; `picks` holds each pick's (`--cleave FOE`, `--no-cleave`)."""
    if luck is not None and no_luck:
        raise FurnaceError("--luck N or --no-luck, not both")
    out: dict[str, str] = {}
    if luck is not None or no_luck:
        out["luck"] = str(0 if no_luck else luck)
    for kind, flag in (("sunder", sunder), ("rage", rage), ("helmet", helmet)):
        if flag is not None:
            out[kind] = "yes" if flag else "no"
    for kind, (value, no) in (picks or {}).items():
        if value is not None and no:
            raise FurnaceError(f"--{kind} or --no-{kind}, not both")
        if value is not None or no:
            out[kind] = "no" if no else value or "yes"
    return out


FLAGS = {"luck": "--luck N | --no-luck", "sunder": "--sunder | --no-sunder", "rage": "--rage | --no-rage",
         "hit_dice": "--hit-dice N", "cleave": "--cleave FOE | --no-cleave", "power": "--power [ALLY] | --no-power",
         "helmet": "--helmet-save | --no-helmet-save"}


def refuse_open(state: Any) -> None:
    """A step asked for while a question is open: one line naming the open choices and how to answer them."""
    from furnace.campaign.questions import open_questions
    from furnace.render.story.status import question_line

    found = open_questions(state)
    if not found:
        return
    enc = _encounter(state)
    raise FurnaceError("; ".join(f"{question_line(enc, q)}: answer with `furnace encounter answer {q.id} "
                                 f"{FLAGS.get(q.kind, '')}`" for q in found))


def _encounter(state: Any) -> Any:
    from furnace.campaign import encounters

    return encounters.current(state).turns.encounter


def with_standing(command: Any, specs: tuple[str, ...]) -> Any:
    """A command that starts a fight, then sets its standing answers (`--policy`), as one command."""
    if not specs:
        return command
    from furnace.campaign.questions import standing
    from furnace.campaign.session import chain

    return chain(command, standing(dict(policy_pairs(specs))))


def prompt_open(name: str, as_json: bool) -> None:
    """At an interactive terminal, each open question is asked at once and answered (the step goes on)."""
    import sys

    if as_json or not sys.stdin.isatty():
        return
    from furnace.campaign.questions import answer, open_questions
    from furnace.cli.context import settings
    from furnace.cli.output import tell
    from furnace.dice import system
    from furnace.render.story.status import question_line

    store, _ = settings().in_use()
    for _ in range(100):
        state = store.open(name)
        found = open_questions(state)
        if not found:
            return
        q = found[0]
        value = click.prompt(question_line(_encounter(state), q), type=click.Choice(list(q.options)),
                             default=q.default)
        tell(store.apply(name, f"encounter answer {q.id}", answer(q.id, value, system())).events)


# -- Luck Dice on a roll out of a fight (F-LUCK-03) ---------------------------------------------------------------
def luck_ahead(fn: F) -> F:
    """`--luck N | --no-luck` on a campaign roll out of a fight: her answer given ahead (the parameter `luck`: the
    dice, or None when neither is given: a prompt at an interactive terminal, else her standing answer)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, luck: int | None, no_luck: bool, **kwargs: Any) -> Any:
        if luck is not None and no_luck:
            raise FurnaceError("--luck N or --no-luck, not both")
        return fn(*args, luck=0 if no_luck else luck, **kwargs)

    wrapper = click.option("--no-luck", is_flag=True, help="Spend no Luck Die on it.")(wrapper)
    wrapper = click.option("--luck", type=click.IntRange(0, 3), default=None, metavar="N",
                           help="Spend N of her player's Luck Dice on the roll once seen (F-LUCK-03). Neither "
                                "--luck nor --no-luck: asked at an interactive terminal, else her standing answer "
                                "(`furnace standing`) decides.")(wrapper)
    return wrapper  # type: ignore[return-value]


def seen_first(make: Callable[[Any, int | None], Any], rng: Any, luck: int | None, as_json: bool) -> tuple[Any, Any]:
    """At an interactive terminal with no answer given: the roll made once without luck and not written (the
    command run on the state, its dice recorded), shown, and her answer asked; then the command to log, rolling the
    same faces again with her answer. Elsewhere the command as given (her standing answer decides when None)."""
    import sys

    if luck is not None or as_json or not sys.stdin.isatty():
        return make(rng, luck), rng
    from furnace.campaign.luck import pool_of
    from furnace.campaign.luck_seen import may_change
    from furnace.cli.context import settings
    from furnace.cli.output import tell
    from furnace.dice.source import EnteredFaces
    from furnace.play.answering import Recorder

    store, name = settings().in_use()
    state = store.open(name)
    seen = Recorder(rng)
    _, events = make(seen, 0)(state)
    rolled = next((e for e in events if e.kind in ("save_roll", "sheet_roll")), None)
    # the same faces again: entered ones are read again from the first (`with_faces` rewinds them), others replayed
    again = rng if isinstance(rng, EnteredFaces) else Recorder(rng, tuple(seen.drawn))
    if rolled is None:
        return make(again, 0), rng
    held = pool_of(state, state.member(str(rolled.data.get("member") or rolled.actor))).dice
    if not may_change(rolled.data, held):       # the console asks by the same rule (`campaign.luck_seen`)
        return make(again, 0), rng
    tell([rolled])
    n = click.prompt(f"spend Luck Dice on it ({held} held)", type=click.IntRange(0, held), default=0)
    return make(again, n), rng
