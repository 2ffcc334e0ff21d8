"""`furnace equip WHO ITEM` and `furnace unequip WHO ITEM`: a campaign member's armor, shield, helmet and weapons
between her pack and her body, each change one logged command (undone with `campaign undo`).

What she wears decides her AC, her attacks, Stealth, her load and the Middle Sea item saves; a broken arm holds
no shield and no weapon (M-BONE-01). The rules are `furnace.campaign.gear` and `furnace.characters.worn`.
"""

from __future__ import annotations

import click

from furnace.cli.app import cli, json_option
from furnace.cli.output import apply


@cli.command()
@click.argument("who")
@click.argument("item")
@click.option("--arm", type=click.Choice(["left", "right"]), default=None,
              help="The arm a shield is borne on (default: the left, or the arm it was last borne on).")
@click.option("--as", "row", default=None, metavar="ROW",
              help="The weapon row of a weapon the tables do not name (F-TAB-22: martial-one-handed …).")
@json_option
def equip(who: str, item: str, arm: str | None, row: str | None, as_json: bool) -> None:
    """Wear or wield a piece from her pack: armor (the old armor goes to the pack), a shield, a helmet, a weapon.

    Give it first (`furnace give WHO ITEM`); her AC, ATK, Stealth and load follow, and the change is told.

    Example: furnace equip Brakka helmet
    """
    from furnace.campaign.gear import equip as run

    apply("equip", run(who, item, arm=arm, row=row), as_json)


@cli.command()
@click.argument("who")
@click.argument("item")
@json_option
def unequip(who: str, item: str, as_json: bool) -> None:
    """Take off armor, a shield or a helmet, or put away a weapon, into her pack as it is (ITEM: its name, or
    'armor' for her body armor).

    Example: furnace unequip Brakka shield
    """
    from furnace.campaign.gear import unequip as run

    apply("unequip", run(who, item), as_json)
