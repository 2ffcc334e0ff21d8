"""The optional tests of skill at the table: contests, effort, skill challenges, stunts and PC morale.

Each is an optional rule of the core document (F-OPT-02, F-OPT-03, F-OPT-06, F-OPT-05) or a referee's pattern
(F-CMBT-04); the library (`furnace.play.contests`, `furnace.play.effort`, `furnace.play.skills`,
`furnace.play.reaction`) refuses a rule whose option is off, and so does the command: a profile or
`--option contested_checks=true` turns it on for the run, as `check --adv` needs use_advantage. Nothing is
stored; the dice are seeded (`--seed`) or entered (`--faces`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from furnace.cli.app import _emit, _load_character, cli, json_option, load_rules, option_option, profile_option
from furnace.cli.app import seed_option as _seed_option
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.numbers import whole
from furnace.cli.output import explain_option, say, shown

SCORE = whole(1, 30)        # an ability score, raised by magic past 18 (F-ABIL-03)
ATTEMPTS = whole(1, 100)    # attempts at one task, bounded before any die is rolled


def _dice_options(fn: Any) -> Any:
    for option in (json_option, option_option, profile_option, explain_option, faces_option, _seed_option):
        fn = option(fn)
    return fn


@cli.command()
@click.argument("a_score", type=SCORE)
@click.argument("b_score", type=SCORE)
@click.option("--names", default="A,B", show_default=True, help="The two sides, A's name first.")
@_dice_options
def contest(a_score: int, b_score: int, names: str, seed: int | None, faces: str | None, profile: str,
            options: tuple[str, ...], as_json: bool) -> None:
    """A contested CHECK (F-OPT-02): each side rolls d20 under its own ability SCORE, A first; both under, the
    higher roll wins (a tie: the higher score); both over, by option contested_both_fail.

    Example: furnace contest 14 11 --names Brakka,Ogre --option contested_checks=true --seed 3
    """
    from furnace.errors import FurnaceError
    from furnace.play.contests import contested

    a_name, _, b_name = names.partition(",")
    if not a_name.strip() or not b_name.strip():
        raise FurnaceError(f"--names is the two sides' names, A's first: A,B, not {names!r}")
    rng = rng_from(seed, faces)
    result = contested(rng, a_score, b_score, a_label=a_name.strip(), b_label=b_name.strip(),
                       rules=load_rules(profile, options))
    shown(result, rng, as_json)


@cli.command()
@click.option("--room-dc", type=whole(1, 60), default=12, show_default=True,
              help="The ROOM DC each attempt's CHECK must meet.")
@click.option("--needed", type=whole(1, 1000), default=None, help="The effort the task needs (default: the ROOM DC).")
@click.option("--mod", type=whole(-10, 10), default=0, show_default=True, help="The ability modifier.")
@click.option("--prof", type=whole(0, 10), default=None,
              help="The PROF of a proficient character: added to each CHECK, and the effort die is 1d8.")
@click.option("--attempts", type=ATTEMPTS, default=1, show_default=True,
              help="Attempts, one after another, until the task is done.")
@_dice_options
def effort(room_dc: int, needed: int | None, mod: int, prof: int | None, attempts: int, seed: int | None,
           faces: str | None, profile: str, options: tuple[str, ...], as_json: bool) -> None:
    """Effort (F-OPT-03, F-TAB-41): each attempt is a CHECK (d20 + MOD, + PROF if proficient) vs the ROOM DC; a
    success rolls effort, 1d8 + MOD with PROF or 1d4 + MOD without, toward what the task needs.

    Example: furnace effort --room-dc 12 --mod 2 --prof 1 --attempts 3 --option effort=true --seed 5
    """
    from furnace.play.checks import CheckResult, Modifier, check
    from furnace.play.effort import Effort

    rules = load_rules(profile, options)
    task = Effort.start(room_dc, needed, rules)
    mods = [Modifier(mod, "MOD")] + ([Modifier(prof, "PROF")] if prof is not None else [])
    rng = rng_from(seed, faces)
    checks: list[CheckResult] = []
    while len(checks) < attempts and not task.done:
        checks.append(check(rng, room_dc, mods, label=f"attempt {len(checks) + 1}", rules=rules))
        task = task.add(rng, prof is not None, mod, check=checks[-1], rules=rules)
    finish(rng)
    if as_json:
        _emit(task.to_dict())
        return
    lines = task.explain().splitlines()
    say("\n".join([lines[0], *(f"    {c.explain()}\n    {line.strip()}" for c, line in zip(checks, lines[1:],
                                                                                         strict=True))]))


@cli.command()
@click.option("--dc", type=whole(1, 60), default=12, show_default=True, help="The challenge's DC.")
@click.option("--needs", type=whole(1, 100), required=True, help="The successes that win it (the threshold).")
@click.option("--mod", "mods", type=whole(-20, 20), multiple=True, required=True,
              help="Each creative CHECK's modifier, in turn (repeatable); the challenge stops when it is decided.")
@_dice_options
def challenge(dc: int, needs: int, mods: Sequence[int], seed: int | None, faces: str | None, profile: str,
              options: tuple[str, ...], as_json: bool) -> None:
    """A skill challenge (F-OPT-06): creative CHECKs against the DC until NEEDS successes, or as many failures as
    the option skill_challenge_failures allows (AMB-55).

    Example: furnace challenge --dc 14 --needs 3 --mod 2 --mod 4 --mod 1 --mod 3 --mod 0 --option
    skill_challenges=true --seed 2
    """
    from furnace.play.checks import Modifier
    from furnace.play.effort import SkillChallenge

    rules = load_rules(profile, options)
    running = SkillChallenge.start(dc, needs, rules)
    rng = rng_from(seed, faces)
    for n, mod in enumerate(mods, 1):
        if running.status != "running":
            break
        running, _ = running.attempt(rng, [Modifier(mod, "MOD")], label=f"CHECK {n}", rules=rules)
    shown(running, rng, as_json)


@cli.command()
@click.argument("file")
@click.option("--skill", required=True, help="The skill the stunt calls for (Acrobatics to leap the table …).")
@click.option("--room-dc", type=whole(1, 60), default=12, show_default=True, help="The ROOM DC of the CHECK.")
@_dice_options
def stunt(file: str, skill: str, room_dc: int, seed: int | None, faces: str | None, profile: str,
          options: tuple[str, ...], as_json: bool) -> None:
    """A stunt (F-CMBT-04): the character's skill CHECK vs the ROOM DC first; its success makes the follow-up
    (an ATK) EASY, its failure HARD. FILE is a character file.

    Example: furnace stunt examples/characters/brakka.json --skill Athletics --room-dc 12 --seed 4
    """
    from furnace.play.skills import stunt as run_stunt

    rng = rng_from(seed, faces)
    result = run_stunt(_load_character(file), skill, rng, room_dc, load_rules(profile, options))
    finish(rng)
    if as_json:
        _emit({"check": result.check.to_dict(), "follow_up": result.follow_up})
        return
    say(result.explain())


@cli.command("pc-morale")
@click.argument("file")
@click.option("--room-dc", type=whole(1, 60), default=12, show_default=True, help="The ROOM DC of the SAVE.")
@_dice_options
def pc_morale(file: str, room_dc: int, seed: int | None, faces: str | None, profile: str, options: tuple[str, ...],
              as_json: bool) -> None:
    """PC morale (F-OPT-05): the character's WIS SAVE vs the ROOM DC (+ PROF when WIS is one of her saves); what
    a failure does is the referee's call (REF-20). FILE is a character file.

    Example: furnace pc-morale examples/characters/brakka.json --room-dc 14 --option pc_morale=true --seed 1
    """
    from furnace.play.reaction import pc_morale as run_morale

    rules = load_rules(profile, options)
    c = _load_character(file)
    rng = rng_from(seed, faces)
    result = run_morale(rng, c.mod("WIS", rules), c.prof(rules), "WIS" in c.saves, room_dc, rules,
                        label=f"{c.name}: morale (WIS SAVE)")
    shown(result, rng, as_json)


__all__ = ["challenge", "contest", "effort", "pc_morale", "stunt"]
