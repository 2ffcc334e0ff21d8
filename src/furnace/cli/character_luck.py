"""`furnace luck WHO [CHANGE]`: a player's Luck Dice on the campaign chosen — shown, or adjusted by the referee.

Under luck_owner player (the default) the pool is the player's, held by all her living characters alike
(`furnace.campaign.luck`); a change is one logged command (`campaign undo` takes it back).
"""

from __future__ import annotations

import dataclasses

import click

from furnace.cli.app import _emit, cli, json_option
from furnace.cli.context import settings
from furnace.cli.output import tell


@cli.command()
@click.argument("who")
@click.argument("change", required=False, metavar="[+N|-N|N]")
@click.option("--reason", default="", help="Why, for the log (a clever plan, a god's favour).")
@json_option
def luck(who: str, change: str | None, reason: str, as_json: bool) -> None:
    """Show the Luck Dice WHO's rolls spend and build (her player's pool, F-LUCK-01), or change it: +1, -2, or a
    number to set it to, 0 to 3 (F-LUCK-02).

    Example: furnace luck Ann-1 +1 --reason "a clever plan"
    """
    from furnace.campaign import luck as pools

    store, name = settings().in_use()
    if change is not None:
        applied = store.apply(name, "luck", pools.adjust(who, change, reason))
        if as_json:
            _emit([dataclasses.asdict(e) for e in applied.events])
        else:
            tell(applied.events, seq=True)
        return
    state = store.open(name)
    member = state.member(who)
    pool, holders = pools.pool_of(state, member), [m.character.name for m in pools.holders(state, member)]
    if as_json:
        _emit({"member": member.id, "player": member.player, "holders": holders, **pool.to_dict()})
        return
    shared = bool(member.player) and pools.by_player(state)
    whose = f"{member.player}'s pool, held by {', '.join(holders)}" if shared else "her own pool"
    click.echo(f"{member.character.name}: {pool.explain()} ({whose})")
