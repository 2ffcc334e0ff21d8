"""Renderers shared by the interfaces: terminal text, Markdown and printable HTML sheets, fight logs.

Below the CLI and the web console, above the campaign: pure functions from values to text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from furnace._exports import lazy

if TYPE_CHECKING:
    from furnace.render.roster import roster_table
    from furnace.render.sheets import character_html, character_json, character_markdown, funnel_html, spell_lines
    from furnace.render.text import character_sheet, odds_chart, party_table, rules_table, table_list, table_show

_EXPORTS = {
    "character_markdown": "sheets",
    "character_json": "sheets",
    "character_html": "sheets",
    "funnel_html": "sheets",
    "spell_lines": "sheets",
    "roster_table": "roster",
    "odds_chart": "text",
    "table_list": "text",
    "table_show": "text",
    "rules_table": "text",
    "party_table": "text",
    "character_sheet": "text",
}
__all__ = [
    "character_html",
    "character_json",
    "character_markdown",
    "character_sheet",
    "funnel_html",
    "odds_chart",
    "party_table",
    "roster_table",
    "rules_table",
    "spell_lines",
    "table_list",
    "table_show",
]
__getattr__, __dir__ = lazy(__name__, _EXPORTS)
