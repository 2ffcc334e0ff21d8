"""`furnace campaign …`: make, choose, inspect, undo, verify and move campaigns (join, import-files, export,
import, backup, restore), the referee's overrides; `damage` and `heal`.

Each command is a few lines over `furnace.campaign`: the store, its commands, `transfer`, `overrides`, `verify`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from furnace.cli.app import LazySubgroup, _emit, cli, force_option, json_option, load_rules, option_option, seed_option
from furnace.cli.context import can_remember, confirm, remembered, settings, use
from furnace.cli.dice_options import faces_option
from furnace.cli.numbers import whole
from furnace.cli.output import tell
from furnace.errors import FurnaceError

if TYPE_CHECKING:
    from furnace.campaign.overrides import Listed, ProfileInForce


def _show_events(events: Sequence[Any], as_json: bool, *, rolls: bool = True) -> None:
    if as_json:
        _emit([dataclasses.asdict(e) for e in events])
        return
    tell(events, rolls=rolls, seq=True)


def _apply(command: str, fn: Any, as_json: bool) -> None:
    s = settings()
    store, name = s.in_use()
    applied = store.apply(name, command, fn)
    _show_events(applied.events, as_json)


@cli.group(cls=LazySubgroup, lazy=dict.fromkeys(("recap", "session"), "furnace.cli.sessions"))
def campaign() -> None:
    """Campaigns that last: the roster, the clock and the log, kept in a database.

    Example: furnace campaign new "The Keep" --profile hazards && furnace campaign use "The Keep"
    """


@campaign.command("new")
@click.argument("name")
@click.option("--profile", default="furnace", show_default=True, help="furnace, hazards or middle-sea.")
@option_option
def campaign_new(name: str, profile: str, options: Sequence[str]) -> None:
    """Start a campaign under a profile, with rule-option overrides.

    Example: furnace campaign new keep --profile middle-sea --option enemy_morale=true
    """
    rules = load_rules(profile, options)   # refuses a wrong profile or option before anything is stored
    overrides = {o.partition("=")[0].strip(): rules[o.partition("=")[0].strip()] for o in options}
    state = settings().store().create(name, profile, overrides)
    click.echo(f"campaign {state.name!r} made (profile {state.profile}) in {settings().store().where()}")


@campaign.command("list")
@json_option
def campaign_list(as_json: bool) -> None:
    """The campaigns in the database; the one in use is starred.

    Example: furnace campaign list
    """
    s = settings()
    names, chosen = s.store().names(), s.chosen()
    if as_json:
        _emit({"campaigns": names, "in_use": chosen})
        return
    for name in names:
        click.echo(f"{'*' if name == chosen else ' '} {name}")
    if not names:
        click.echo("no campaigns yet: furnace campaign new NAME")


@campaign.command("use")
@click.argument("name")
def campaign_use(name: str) -> None:
    """Choose the campaign that later commands work on.

    Example: furnace campaign use keep
    """
    settings().choosing = True      # a campaign.json that cannot be read is what this command replaces
    settings().store().open(name)   # it must exist
    click.echo(f"using campaign {name!r} (remembered in {use(name)})")


@campaign.command("show")
@json_option
def campaign_show(as_json: bool) -> None:
    """The campaign in use: the profile its rules come from and each override, time, roster, the clock.

    Example: furnace --campaign keep campaign show
    """
    from furnace.campaign.overrides import listed, profile_in_force

    s = settings()
    store, name = s.in_use()
    state = store.open(name)
    profile, overrides = profile_in_force(state), listed(state)
    if as_json:
        _emit({**state.model_dump(mode="json"), "rules": {
            "profile": profile.name, "began": profile.began, "profile_override": profile.key or None,
            "overrides": [_listed_json(x) for x in overrides]}})
        return
    click.echo(f"{state.name} (profile {_profile_words(profile)}) — {state.clock.describe()}, "
               f"{len(state.clock.entries)} entries on the clock")
    for x in overrides:
        click.echo(f"  override {_listed_words(x)}")
    if state.standing or state.quiet or state.question_seconds:
        from furnace.campaign.standing import told
        from furnace.cli.answer import lasting_line

        click.echo(f"  {lasting_line(told(state))}")
    from furnace.render.story.campaign import death_words

    for m in state.roster.values():
        c = m.character
        extra = f" — died: {death_words(m.death.cause, m.death.facts)}" if m.death else ""
        click.echo(f"  {m.id:<8} {c.name:<20} {m.status:<8} HP {c.hp}/{c.hp_max}  level {c.level} "
                   f"{c.char_class or 'peasant'}{' (' + m.player + ')' if m.player else ''}{extra}")


def _profile_words(profile: ProfileInForce) -> str:
    """'hazards', or 'grim, from grim.yaml (profile:grim), extending hazards; begun under furnace'."""
    if not profile.key:
        return profile.name
    return (f"{profile.name}, from {profile.source or 'no file'} ({profile.key}), extending {profile.extends}; "
            f"begun under {profile.began}")


def _listed_words(x: Listed) -> str:
    """One override as `override list` and `campaign show` print it: 'table:F-TAB-36  (fumbles.yaml)',
    'set:hazards_light = true'."""
    from furnace.render.story.campaign import option_words

    if x.kind == "set":
        return f"{x.key} = {option_words(x.value)}"
    return x.key + (f"  ({x.source})" if x.source else "")


def _listed_json(x: Listed) -> dict[str, Any]:
    return {"key": x.key, "kind": x.kind, "id": x.id, "source": x.source, **({"value": x.value} if x.kind == "set"
                                                                               else {})}


@campaign.command("log")
@click.option("--since", type=whole(0), default=0, help="Only events after this number.")
@click.option("--limit", type=click.IntRange(1, 100_000), default=None, help="At most this many events.")
@click.option("--rolls/--no-rolls", default=True, show_default=True, help="Show each roll's dice.")
@json_option
def campaign_log(since: int, limit: int | None, rolls: bool, as_json: bool) -> None:
    """The campaign's log, oldest first, each event with its rolls.

    Example: furnace campaign log --since 10
    """
    s = settings()
    store, name = s.in_use()
    _show_events(store.events(name, since=since, limit=limit), as_json, rolls=rolls)


@campaign.command("undo")
@click.option("--yes", "confirmed", type=click.IntRange(1, 2**62), metavar="ID",
              help="Undo without asking, if the command to undo is still this one (the id undo shows).")
@click.option("--show", is_flag=True, help="Only say what undo (and redo) would take back, and do nothing.")
@json_option
def campaign_undo(confirmed: int | None, show: bool, as_json: bool) -> None:
    """Take back the newest command (a roll too), naming it and its id first; the undo is logged, nothing is
    deleted. It asks before (or takes --yes ID): if another command came in the meantime, the id no longer
    matches and nothing is undone.

    Example: furnace campaign undo --show
    """
    _reverse("undo", confirmed, show, as_json)


@campaign.command("redo")
@click.option("--yes", "confirmed", type=click.IntRange(1, 2**62), metavar="ID",
              help="Redo without asking, if the undo to reverse is still this one (the id redo shows).")
@click.option("--show", is_flag=True, help="Only say what redo (and undo) would do, and do nothing.")
@json_option
def campaign_redo(confirmed: int | None, show: bool, as_json: bool) -> None:
    """Put back what the newest undo took: the state the command made, and its facts with the same dice.

    Example: furnace campaign redo --show
    """
    _reverse("redo", confirmed, show, as_json)


def _reverse(what: str, confirmed: int | None, show: bool, as_json: bool) -> None:
    store, name = settings().in_use()
    steps = {"undo": store.undoable(name), "redo": store.redoable(name)}
    if show:
        if as_json:
            _emit({k: None if v is None else {"command": v.id, "name": v.names} for k, v in steps.items()})
            return
        for key, step in steps.items():
            click.echo(f"{key}: " + (step.said() if step else "nothing"))
        return
    step = steps[what]
    if step is None:
        raise FurnaceError(f"nothing to {what} in {name!r}")
    store.require_writable()
    if confirmed is None and not confirm(f"{what} {step.said()}?", f"--yes {step.id}"):
        raise FurnaceError(f"nothing done: {step.said()} stands" if what == "undo" else "nothing done")
    done = store.undo(name, confirmed or step.id) if what == "undo" else store.redo(name, confirmed or step.id)
    _show_events(done.events, as_json)


@campaign.command("replay")
def campaign_replay() -> None:
    """Rebuild the campaign from its log alone (no snapshot, no die) and compare with its state.

    Example: furnace campaign replay
    """
    s = settings()
    name = s.need_campaign()
    same = s.store().replay(name) == s.store().open(name)
    click.echo(f"replayed {s.store().count(name)} events: " + ("the same state" if same else "a DIFFERENT state"))
    if not same:
        raise FurnaceError(f"the log of {name!r} does not rebuild its state: run `furnace campaign verify --deep`")


@campaign.command("verify")
@click.argument("name", required=False)
@click.option("--deep", is_flag=True, help="Also rebuild the state at every snapshot from the log.")
@json_option
def campaign_verify(name: str | None, deep: bool, as_json: bool) -> None:
    """Check the chain of hashes, the event count and the snapshots; exit 2 when broken.

    Example: furnace campaign verify keep --deep
    """
    from furnace.campaign.verify import verify

    s = settings()
    name = name or s.need_campaign()
    report = verify(s.store(), name, deep=deep)
    if as_json:
        _emit({**dataclasses.asdict(report), "ok": report.ok})
    else:
        click.echo(report.explain())
    if not report.ok:
        raise FurnaceError(f"campaign {report.campaign!r} failed verification at event {report.first_bad}")


@campaign.command("rename")
@click.argument("old")
@click.argument("new")
def campaign_rename(old: str, new: str) -> None:
    """Give a campaign a new name.

    Example: furnace campaign rename keep "The Keep on the Borderlands"
    """
    follow = remembered() == old          # the campaign in use keeps being used under its new name
    if follow:
        can_remember()
    settings().store().rename(old, new)
    if follow:
        use(new)
    click.echo(f"campaign {old!r} is now {new!r}")


@campaign.command("delete")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask.")
def campaign_delete(name: str, yes: bool) -> None:
    """Delete a campaign and its whole log (asks first unless --yes).

    Example: furnace campaign delete old-test --yes
    """
    store = settings().store()
    store.open(name)
    store.require_writable()
    forget = remembered() == name
    if forget:
        can_remember()
    if not yes and not confirm(f"delete campaign {name!r} and its {store.count(name)} events?", "--yes"):
        raise FurnaceError("nothing deleted")
    store.delete(name)
    if forget:
        use(None)
    click.echo(f"campaign {name!r} deleted")


@cli.command()
@click.argument("who")
@click.argument("amount", type=click.IntRange(1, 10_000))
@click.option("--source", default="the referee", help="What dealt it, for the log.")
@seed_option
@faces_option
@json_option
def damage(who: str, amount: int, source: str, seed: int | None, faces: str | None, as_json: bool) -> None:
    """Damage a character of the campaign (name or id) by the campaign's death model: furnace, dying with a
    1d4-round timer on the clock (F-DEATH-01); hazards, unconscious and waking in 1d6 hours (H-DMG-02, H-HEAL-04);
    middle-sea, the grievous injury table past 0 (M-GRIEV-01). In the encounter in progress, to her combatant.

    Example: furnace damage Brakka 4 --source "a falling stone" --seed 3
    """
    from furnace.campaign import fightedit
    from furnace.campaign.session import with_faces
    from furnace.cli.dice_options import rng_from

    rng = rng_from(seed, faces)
    _apply("damage", with_faces(fightedit.damage(who, amount, source, rng), rng), as_json)


@cli.command()
@click.argument("who")
@click.argument("amount", type=click.IntRange(1, 10_000))
@click.option("--source", default="the referee", help="What healed it, for the log.")
@seed_option
@faces_option
@json_option
def heal(who: str, amount: int, source: str, seed: int | None, faces: str | None, as_json: bool) -> None:
    """Heal a character of the campaign (up to the maximum HP); above 0 HP she is no longer dying or unconscious.
    In the encounter in progress, to her combatant.

    Example: furnace heal Brakka 3 --source "a healing draught"
    """
    from furnace.campaign import fightedit
    from furnace.campaign.session import with_faces
    from furnace.cli.dice_options import rng_from

    rng = rng_from(seed, faces)
    _apply("heal", with_faces(fightedit.heal(who, amount, source, rng), rng), as_json)


# -- moving characters and campaigns in and out ---------------------------------------------------------------
@campaign.command("join")
@click.argument("files", nargs=-1, required=True, metavar="FILE…")
@click.option("--player", default="", help="The player who runs them (default: the file's own player).")
@json_option
def campaign_join(files: Sequence[str], player: str, as_json: bool) -> None:
    """Character JSON files join the roster (each a logged command); every file is read before any joins.

    Example: furnace campaign join examples/characters/brakka.json --player Ann
    """
    from furnace.campaign.transfer import import_files

    s = settings()
    if not player:
        _show_events([e for a in import_files(*s.in_use(), files) for e in a.events], as_json)
        return
    from furnace.campaign.roster import join_files

    _show_events([e for a in join_files(*s.in_use(), files, player) for e in a.events], as_json)


@campaign.command("import-files")
@click.argument("files", nargs=-1, required=True, metavar="FILE…")
@json_option
def campaign_import_files(files: Sequence[str], as_json: bool) -> None:
    """Bring character files and an old `furnace clock` state file into the campaign in use.

    Example: furnace campaign import-files examples/characters/wren.json examples/characters/corra.json
    """
    from furnace.campaign.transfer import import_files

    s = settings()
    _show_events([e for a in import_files(*s.in_use(), files) for e in a.events], as_json)


@campaign.command("export")
@click.argument("name")
@click.option("--out", "out", required=True, metavar="FILE", help="The JSON file to write (--force replaces it).")
@force_option
def campaign_export(name: str, out: str) -> None:
    """Write one campaign's whole log, every event with its hash, to a JSON file.

    Example: furnace campaign export keep --out keep.json
    """
    from furnace.campaign.transfer import write_export

    s = settings()
    path = write_export(s.store(), name, out, force=s.force)
    click.echo(f"campaign {name!r} ({s.store().count(name)} events) written to {path}")


@campaign.command("import")
@click.argument("file")
@click.option("--as", "as_name", default=None, metavar="NEW", help="Import it under another name.")
def campaign_import(file: str, as_name: str | None) -> None:
    """Recreate an exported campaign here, its chain of hashes checked first.

    Example: furnace campaign import keep.json --as keep-copy
    """
    from furnace.campaign.transfer import import_campaign

    s = settings()
    name = import_campaign(s.store(), file, as_name=as_name)
    click.echo(f"campaign {name!r} imported ({s.store().count(name)} events) into {s.store().where()}")


@campaign.command("backup")
@click.argument("file")
@click.option("--portable", is_flag=True, help="The JSON form any engine restores (default for a .json FILE).")
@force_option
def campaign_backup(file: str, portable: bool) -> None:
    """Back up every campaign of the database into one file (SQLite's online backup, or portable JSON).

    Example: furnace campaign backup furnace-backup.db
    """
    from furnace.campaign.transfer import backup

    s = settings()
    form = backup(s.store(), file, force=s.force, portable=True if portable else None)
    click.echo(f"{len(s.store().names())} campaign(s) backed up to {file} ({form})")


@campaign.command("restore")
@click.argument("file")
@force_option
def campaign_restore(file: str) -> None:
    """Bring back every campaign of a backup (or one export); --force replaces campaigns of the same name.

    Example: furnace --db new.db campaign restore furnace-backup.db
    """
    from furnace.campaign.transfer import restore

    s = settings()
    names = restore(s.store(), file, force=s.force)
    click.echo(f"restored {len(names)} campaign(s): {', '.join(names)}")


# -- the referee's own files ----------------------------------------------------------------------------------
@campaign.group("override")
def override() -> None:
    """The referee's own tables, options, profile, archetypes, spells, items and monsters in the campaign, and
    single rule options set without a file (`override set NAME=VALUE`).

    Example: furnace campaign override list
    """


@override.command("add")
@click.argument("file")
@click.option("--kind", default=None, help="table, option, archetype, spell, item, monster or profile (default: "
                                           "told by the file).")
@json_option
def override_add(file: str, kind: str | None, as_json: bool) -> None:
    """Add (or replace) a referee's file, validated in the campaign; logged, so `campaign undo` takes it back.

    A table file replaces the packaged table of its id (start from a copy of one and edit it); an archetype
    file is offered at promotion where its prerequisite holds.

    Example: furnace campaign override add my-fumbles.yaml --kind table
    """
    from furnace.campaign.overrides import add_override

    s = settings()
    _show_events(add_override(*s.in_use(), file, kind=kind).events, as_json)


@override.command("set")
@click.argument("setting", metavar="NAME=VALUE")
@json_option
def override_set(setting: str, as_json: bool) -> None:
    """Set one rule option in the campaign, without a file; logged, so `campaign undo` takes it back.

    The value is read by the option's type, as `--option` reads it (`furnace rules show NAME` says what it
    takes); an option one of the campaign's option files sets is refused (remove that file first). Remove it
    with `furnace campaign override remove set:NAME`.

    Example: furnace campaign override set hazards_light=true
    """
    from furnace.campaign.overrides import set_option

    s = settings()
    _show_events(set_option(*s.in_use(), setting).events, as_json)


@override.command("list")
@json_option
def override_list(as_json: bool) -> None:
    """The campaign's overrides: its files by kind, each with its key and the file it came from, then the
    options set without a file (set:NAME = VALUE).

    Example: furnace campaign override list
    """
    from furnace.campaign.overrides import listed

    s = settings()
    store, name = s.in_use()
    found = listed(store.open(name))
    if as_json:
        _emit([_listed_json(x) for x in found])
        return
    for x in found:
        click.echo(_listed_words(x))
    if not found:
        click.echo("no overrides: the packaged rules are in force")


@override.command("remove")
@click.argument("key")
@json_option
def override_remove(key: str, as_json: bool) -> None:
    """Remove an override by its key (as `override list` shows it): the packaged table, or the profile's value
    of an option set without a file (set:NAME), is back.

    Example: furnace campaign override remove table:F-TAB-36
    """
    from furnace.campaign.overrides import remove_override

    s = settings()
    _show_events(remove_override(*s.in_use(), key).events, as_json)
