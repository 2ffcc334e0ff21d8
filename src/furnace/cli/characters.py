"""`furnace funnel` and `furnace character …`: the funnel, and characters as roster members or JSON files.

With a campaign chosen (`--campaign`, FURNACE_CAMPAIGN or `campaign use`) a funnel's peasants join its roster
and `character list/show/promote/level-up/retire/rename WHO` work on a member (a name unique in the campaign,
or its short id), each change one logged command. Without one, the funnel only prints and WHO is a character
file, as before; a path that exists (or has a folder in it, or ends in .json) is always a file. Every choice a
promotion or a level asks is an option; `--random` lets the dice fill what is missing and says what they
picked (`furnace.campaign.roster`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any

import click

from furnace.cli.app import (
    _emit,
    _load_character,
    _profile_file,
    _write,
    _write_back,
    cli,
    force_option,
    html_option,
    json_option,
    profile_option,
    seed_option,
)
from furnace.cli.context import HOW_TO_CHOOSE, settings
from furnace.cli.dice_options import faces_option, finish, rng_from
from furnace.cli.output import tell
from furnace.errors import FurnaceError

STATUSES = ("alive", "dying", "dead", "retired")      # furnace.campaign.roster.STATUSES, without importing it


# -- where WHO lives ----------------------------------------------------------------------------------------------
def _campaign_for(who: str) -> str | None:
    """The campaign to find WHO in, or None when WHO is a character file (no campaign chosen, or a path)."""
    chosen = settings().chosen()
    if chosen is None:
        if not os.path.lexists(who) and not _path_like(who):
            raise FurnaceError(f"{who!r} is not a character file, and no campaign is chosen to find it in: "
                               f"{HOW_TO_CHOOSE}")
        return None
    return None if os.path.lexists(who) or _path_like(who) else chosen


def _path_like(who: str) -> bool:
    return os.sep in who or bool(os.altsep and os.altsep in who) or who.lower().endswith(".json")


def _no_profile(profile: str) -> None:
    if profile != "furnace":
        raise FurnaceError("a campaign plays by its own rules (its profile and the referee's overrides): --profile "
                           "is for a character file or a funnel outside a campaign")


def _stored_events(events: Sequence[Any], as_json: bool, member: Any = None) -> None:
    """Events as logged (`[seq] who: what`, with their rolls), or as JSON with the member after them."""
    if as_json:
        _emit({"member": member.model_dump(mode="json") if member is not None else None,
               "events": [dataclasses.asdict(e) if hasattr(e, "seq") else e.to_dict() for e in events]})
        return
    tell(events, seq=all(hasattr(e, "seq") for e in events))


def _on_member(campaign: str, command: str, fn: Any, who: str, write: bool, as_json: bool, rng: Any = None) -> None:
    """Run a roster command: logged in the campaign, or (--no-write) only shown; faces entered at the table
    are checked inside it (refused: nothing changes)."""
    from furnace.campaign.session import with_faces

    fn = with_faces(fn, rng) if rng is not None else fn
    store = settings().store()
    before = store.open(campaign)
    mid = before.member(who).id
    if write:
        applied = store.apply(campaign, command, fn)
        _stored_events(applied.events, as_json, applied.state.roster.get(mid))
        return
    state, events = fn(before)
    _stored_events(events, as_json, state.roster.get(mid))


# -- the funnel ---------------------------------------------------------------------------------------------------
@cli.command()
@click.option("--players", type=click.IntRange(1, 20), default=None,
              help="How many players (default 4, or as many as --player names).")
@click.option("--player", "names", multiple=True, metavar="NAME",
              help="A player by name (repeatable): her peasants are NAME-1, NAME-2 …")
@click.option("--per-player", type=click.IntRange(1, 10), default=4, show_default=True,
              help="0-level characters per player.")
@seed_option
@faces_option
@profile_option
@html_option
@force_option
@json_option
def funnel(players: int | None, names: Sequence[str], per_player: int, seed: int | None, faces: str | None,
           profile: str,
           html: str | None, as_json: bool) -> None:
    """Roll a 0-level funnel party: each player's peasants, 3d6 in order, race, occupation, 1d4 HP.

    With a campaign chosen, the peasants join its roster, each with her player, and the log keeps every die;
    without one, nothing is stored. --html writes a printable sheet, four characters to a page (A4 or Letter).

    Example: furnace funnel --players 4 --seed 1 --html funnel.html
    """
    from furnace.characters.funnel import run_funnel
    from furnace.render.text import party_table
    from furnace.rules.ruleset import load_ruleset

    if names and players is not None and players != len(names):
        raise FurnaceError(f"--players {players} but {len(names)} --player names: give one or the other")
    count, rng, campaign = len(names) if names else (players or 4), rng_from(seed, faces), settings().chosen()
    applied = None
    if campaign is None:
        rules = load_ruleset(profile)
        party = run_funnel(rng, count, per_player, rules)
        finish(rng)
        if names:
            from furnace.campaign.roster import check_players, name_players

            party = name_players(party, check_players(names))
    else:
        from furnace.campaign.overrides import campaign_ruleset
        from furnace.campaign.roster import Funnel

        _no_profile(profile)
        command = Funnel(list(names) if names else count, per_player, rng)
        from furnace.campaign.session import with_faces

        applied = settings().store().apply(campaign, "funnel", with_faces(command, rng))
        assert command.party is not None
        party, rules = command.party, campaign_ruleset(applied.state)
    if html:
        from furnace.render.sheets import funnel_html  # (here: a funnel printed to the terminal draws no sheet)

        _write(html, funnel_html(party, rules, title=f"Furnace funnel · {count} players"),
               inputs=[_profile_file(profile)])
    joined = [e for e in applied.events if e.kind == "join"] if applied else []
    if as_json:
        roster = [{"id": m.id, "name": m.character.name, "player": m.player} for m in applied.state.roster.values()
                  if m.character.name in {c.name for c in party.characters}] if applied else []
        _emit({**party.to_dict(), "campaign": campaign, "roster": roster} if applied else party.to_dict())
        return
    party_table(party)
    tell(joined, rolls=False, seq=True)


# -- characters ---------------------------------------------------------------------------------------------------
@cli.group()
def character() -> None:
    """Characters: the campaign's roster (by name or id), or JSON files when no campaign is chosen.

    Example: furnace character new --class Fighter --level 3 --random --seed 2 --json > hero.json
    """


def _save_and_report(file: str, after: Any, events: Sequence[Any], write: bool, as_json: bool) -> None:
    """Write the changed character back (unless --no-write) and print what happened."""
    if write:
        _write_back(file, after.to_json())
    if as_json:
        _emit({"character": after.model_dump(mode="json"), "events": [e.to_dict() for e in events]})
        return
    tell(events)


def _show_character(c: Any, rules: Any, as_json: bool, note: str = "") -> None:
    if as_json:
        click.echo(c.to_json())
        return
    from furnace.render.text import character_sheet

    character_sheet(c, rules, note)


def _write_option(fn: Any) -> Any:
    return click.option("--write/--no-write", default=True, show_default=True,
                        help="Keep the result (in the campaign's log, or back in FILE); --no-write only shows it.")(fn)


def _random_option(fn: Any) -> Any:
    return click.option("--random", "at_random", is_flag=True,
                        help="Let the dice pick every choice not given (seeded with --seed) and say what they "
                             "picked.")(fn)


def _magic_options(fn: Any) -> Any:
    fn = click.option("--cantrip", "cantrips", multiple=True,
                      help="A cantrip (repeatable): a Magic-user knows 2, an Arcane Trickster's Trickster 1.")(fn)
    return click.option("--spell", "spells", multiple=True,
                        help="A spell known (repeatable): a Magic-user 1 + LVL + INT, a Cleric 1 + LVL prayers.")(fn)


def _swap_option(fn: Any) -> Any:
    return click.option("--swap", default=None, metavar="A,B|none",
                        help="A Human's one swap of two scores after the 3d6 (F-RACE-02), e.g. STR,CHA; none keeps "
                             "them as rolled.")(fn)


def _class_options(fn: Any) -> Any:
    """The choices of a promotion (F-CHAR-03/04, F-FTR-04, F-ROG-03, AMB-62, F-TAB-40)."""
    for option in reversed((
            click.option("--class", "char_class", default=None, help="Fighter, Cleric, Rogue or Magic-user."),
            click.option("--archetype", default=None,
                         help="An archetype in force whose prerequisite she meets (Barbarian, Bloodshaman for a "
                              "Half-orc, Arcane Trickster, Wizard, or the referee's own)."),
            click.option("--skill", "skills", multiple=True,
                         help="A skill (repeatable): 1 + INT, a Rogue 3 + INT, a Human +1."),
            click.option("--expertise", multiple=True, help="A Rogue's Expertise skill (repeatable, 2)."),
            click.option("--save", "extra_save", default=None, help="The one save besides the class's own."),
            click.option("--style", default=None, help="A Fighter's fighting style (Archery, Defense, Dueling, 2H "
                                                       "weapon master, Protection, 2 weapon fighting)."),
            click.option("--kit", multiple=True,
                         help="An alternative of each pick of the class's starting kit (repeatable; a part of its "
                              "name will do), e.g. --kit two-handed --kit \"martial ranged\" --kit scalemail."),
            _swap_option)):
        fn = option(fn)
    return fn


def _picks_to(events: Sequence[Any], err: bool) -> None:
    """What --random picked, one line per pick (on stderr when stdout is JSON)."""
    from furnace.render import story

    view = story.View()
    for e in events:
        told = story.tell(e, view) if e.kind == "choice" else None
        for line in told.render(False)[:1] if told is not None else []:
            click.echo(line, err=err)


@character.command("new")
@_class_options
@click.option("--race", default=None, help="Human, Dwarf, Elf, Halfling or Half-orc (default: rolled).")
@click.option("--level", type=click.IntRange(1, 10), default=1, show_default=True)
@click.option("--name", default="", help="The character's name.")
@click.option("--ability", "abilities", multiple=True,
              help="The score raised at level 4, 6, 8 and 10 (repeatable, in the order of those levels).")
@click.option("--feature", "features", multiple=True,
              help="An archetype feature (repeatable, in the order of the levels that give one).")
@click.option("--weapon", default=None, help="The martial melee weapon an archetype feature makes her PROF with.")
@click.option("--join", "player", default=None, metavar="PLAYER",
              help="She joins the campaign in use with her player, made by its rules (not --profile), logged.")
@_magic_options
@_random_option
@seed_option
@faces_option
@profile_option
@json_option
def character_new(char_class: str | None, archetype: str | None, skills: Sequence[str], expertise: Sequence[str],
                  extra_save: str | None, style: str | None, kit: Sequence[str], swap: str | None,
                  race: str | None, level: int, name: str, abilities: Sequence[str], features: Sequence[str],
                  weapon: str | None, player: str | None, spells: Sequence[str], cantrips: Sequence[str],
                  at_random: bool, seed: int | None, faces: str | None, profile: str, as_json: bool) -> None:
    """A new character of a class and level: 3d6 in order, race, occupation, then promoted and levelled with every
    choice each level asks, given or (--random) picked by the dice and said, one line per pick.

    Example: furnace character new --class Rogue --level 5 --random --seed 4 --json
    """
    from furnace.campaign.choices import Choices, new_character, parse_swap
    from furnace.rules.ruleset import load_ruleset

    rules, rng = load_ruleset(profile), rng_from(seed, faces)
    choices = Choices(char_class=char_class, archetype=archetype, skills=tuple(skills), expertise=tuple(expertise),
                      save=extra_save, style=style, weapon=weapon, spells=tuple(spells), cantrips=tuple(cantrips),
                      kit=tuple(kit), swap=parse_swap(swap) if swap is not None else None, random=at_random)
    race = race or ("Half-orc" if (archetype or "").strip().lower() == "bloodshaman" else None)
    if player is not None:
        from furnace.campaign import roster
        from furnace.campaign.session import with_faces

        _no_profile(profile)
        store, campaign = settings().in_use()
        fn = roster.new_member(rng, choices, player=player, level=level, name=name, race=race, abilities=abilities,
                               features=features)
        applied = store.apply(campaign, "character new", with_faces(fn, rng))
        _stored_picks_to_stderr(applied.events if as_json else [])      # told on stdout otherwise
        _stored_events(applied.events, as_json)
        return
    c, events = new_character(rng, rules, choices, level=level, name=name, race=race, abilities=abilities,
                              features=features)
    finish(rng)
    _picks_to(events, err=as_json)
    _show_character(c, rules, as_json)


def _stored_picks_to_stderr(events: Sequence[Any]) -> None:
    """What --random picked, from the campaign's log, one line per pick on stderr (stdout is JSON)."""
    from furnace.render import story

    view = story.View()
    for e in events:
        for line in story.stored(e, view, rolls=False)[:1] if e.kind == "choice" else []:
            click.echo(line, err=True)


def best_ability(c: Any) -> Any:
    """For quick generation: raise the class's save ability, else the highest score below 18."""
    return max(c.scores, key=lambda a: (c.scores[a] < 18, a in c.saves[:1], c.scores[a]))


@character.command("list")
@click.option("--status", "statuses", multiple=True, type=click.Choice(STATUSES),
              help="Only members of this status (repeatable); default: all, the dead and retired included.")
@json_option
def character_list(statuses: Sequence[str], as_json: bool) -> None:
    """The campaign's roster by player: alive, dying, dead (with the cause) and retired.

    Example: furnace character list --status alive --status dying
    """
    from furnace.campaign.roster import members
    from furnace.render.roster import roster_json, roster_table

    s = settings()
    store, name = s.in_use()
    state = store.open(name)
    found = members(state, statuses)
    if as_json:
        _emit(roster_json(found))
        return
    click.echo(roster_table(found, title=f"{state.name}: the roster"))


@character.command("show")
@click.argument("who")
@profile_option
@click.option("--markdown", is_flag=True, help="Print the sheet as Markdown.")
@html_option
@force_option
@json_option
def character_show(who: str, profile: str, markdown: bool, html: str | None, as_json: bool) -> None:
    """Show a roster member (name or id) or a character file as a sheet, JSON or Markdown; --html writes one.

    Example: furnace character show hero.json --markdown --html hero.html
    """
    from furnace.render.sheets import character_html, character_markdown

    campaign = _campaign_for(who)
    if campaign is None:
        from furnace.rules.ruleset import load_ruleset

        c, rules, note, member, inputs = _load_character(who), load_ruleset(profile), "", None, [who]
    else:
        from furnace.campaign.overrides import campaign_ruleset

        _no_profile(profile)
        state = settings().store().open(campaign)
        member, rules, inputs = state.member(who), campaign_ruleset(state), []
        c, note = member.character, _note(member)
    if html:
        _write(html, character_html(c, rules, note), inputs=[*inputs, _profile_file(profile)])
    if markdown and not as_json:
        click.echo(character_markdown(c, rules, note), nl=False)
    elif as_json and member is not None:
        _emit(member.model_dump(mode="json"))
    else:
        _show_character(c, rules, as_json, note)


def _note(member: Any) -> str:
    from furnace.render.roster import sheet_note

    return sheet_note(member)


@character.command("promote")
@click.argument("who")
@_class_options
@click.option("--feature", default=None, help="An archetype feature at level 1 (only under the referee's optional "
                                              "rule archetype_feature_at_level_1).")
@click.option("--weapon", default=None, help="The martial melee weapon an archetype feature makes her PROF with "
                                            "(the Bloodshaman's martial-weapon).")
@_magic_options
@click.option("--name", default=None, help="Her new name (a survivor of the funnel earns one).")
@_random_option
@_write_option
@seed_option
@faces_option
@profile_option
@json_option
def character_promote(who: str, char_class: str | None, archetype: str | None, skills: Sequence[str],
                      expertise: Sequence[str], extra_save: str | None, style: str | None, kit: Sequence[str],
                      swap: str | None, feature: str | None, weapon: str | None, spells: Sequence[str],
                      cantrips: Sequence[str], name: str | None, at_random: bool, write: bool, seed: int | None,
                      faces: str | None, profile: str, as_json: bool) -> None:
    """Promote a funnel survivor to level 1: every choice asked (or --random), a missing one refused with the list.

    Example: furnace character promote examples/characters/hob.json --class Fighter --archetype Barbarian
    --skill Athletics --save DEX --style Defense --kit shield --kit "martial ranged" --kit leather --swap none
    --seed 3 --no-write
    """
    from furnace.campaign import roster

    choices = roster.Choices(char_class=char_class, archetype=archetype, skills=tuple(skills),
                             expertise=tuple(expertise), save=extra_save, style=style, feature=feature,
                             weapon=weapon, spells=tuple(spells), cantrips=tuple(cantrips), kit=tuple(kit),
                             swap=roster.parse_swap(swap) if swap is not None else None, random=at_random)
    campaign, rng = _campaign_for(who), rng_from(seed, faces)
    if campaign is not None:
        _no_profile(profile)
        _on_member(campaign, "character promote", roster.promote(who, choices, rng, name), who, write, as_json, rng)
        return
    from furnace.rules.ruleset import load_ruleset

    after, events = roster.promote_character(_load_character(who), choices, rng, load_ruleset(profile))
    finish(rng)
    if name is not None:
        after, event = roster.renamed(after, name)
        events.append(event)
    _save_and_report(who, after, events, write, as_json)


@character.command("level-up")
@click.argument("who")
@click.option("--ability", default=None, help="The score to raise at levels 4, 6, 8 and 10.")
@click.option("--feature", default=None, help="The archetype feature to take, where one is due.")
@click.option("--weapon", default=None, help="The martial melee weapon an archetype feature makes her PROF with "
                                            "(the Bloodshaman's martial-weapon).")
@_magic_options
@_random_option
@_write_option
@seed_option
@faces_option
@profile_option
@json_option
def character_level_up(who: str, ability: str | None, feature: str | None, weapon: str | None, spells: Sequence[str],
                       cantrips: Sequence[str], at_random: bool, write: bool, seed: int | None, faces: str | None,
                       profile: str,
                       as_json: bool) -> None:
    """Advance a character one level: HP roll (or flat $), PROF, and the choices the level asks.

    Example: furnace character level-up hero.json --ability STR --seed 5
    """
    from furnace.campaign import roster

    choices = roster.Choices(ability=ability, feature=feature, weapon=weapon, spells=tuple(spells),
                             cantrips=tuple(cantrips), random=at_random)
    campaign, rng = _campaign_for(who), rng_from(seed, faces)
    if campaign is not None:
        _no_profile(profile)
        _on_member(campaign, "character level-up", roster.level_up(who, choices, rng), who, write, as_json, rng)
        return
    from furnace.rules.ruleset import load_ruleset

    after, events = roster.level_up_character(_load_character(who), choices, rng, load_ruleset(profile))
    finish(rng)
    _save_and_report(who, after, events, write, as_json)


@character.command("retire")
@click.argument("who")
@click.option("--reason", default="", help="Why, for the log.")
@json_option
def character_retire(who: str, reason: str, as_json: bool) -> None:
    """Retire a member of the roster: she stays on it, out of play.

    Example: furnace character retire Ann-2 --reason "opens an inn in Hommlet"
    """
    from furnace.campaign import roster

    _on_member(settings().need_campaign(), "character retire", roster.retire(who, reason), who, True, as_json)


@character.command("rename")
@click.argument("who")
@click.argument("new")
@json_option
def character_rename(who: str, new: str, as_json: bool) -> None:
    """Give a member of the roster a new name (unique in the campaign); her id stays.

    Example: furnace character rename Ann-1 Mirela
    """
    from furnace.campaign import roster

    _on_member(settings().need_campaign(), "character rename", roster.rename(who, new), who, True, as_json)
