"""`furnace chapters`: the installed chapters and every seam of the engine they plug into.

Each registry of `furnace.play.registry` (and the clock's handlers and the rest's models) with the module that
made it and, for each entry, the module that added it: what a referee's own plug-in would fill, and what each
chapter already fills. The campaign's own clock handlers (the lasting state) are loaded first, as a campaign
command would.
"""

from __future__ import annotations

import click

from furnace.cli.app import _emit, cli, json_option


@cli.command("chapters")
@json_option
def chapters(as_json: bool) -> None:
    """List the installed chapters and each registry of the engine with what fills it.

    Example: furnace chapters
    """
    import importlib

    from furnace.play.registry import load_chapters, seams

    importlib.import_module("furnace.campaign.timekeeping")   # the campaign's handlers: what lasts, the day's end
    listing = seams()
    if as_json:
        _emit({"chapters": list(load_chapters()),
               "registries": [{"holds": what, "made_in": home, "entries": entries}
                              for what, home, entries in listing]})
        return
    click.echo(f"chapters: {', '.join(load_chapters())} (the furnace.chapters entry points)")
    for what, home, entries in listing:
        click.echo(f"{what} ({home}):")
        for name, origin in entries.items():
            click.echo(f"  {name:<28} {origin}")
