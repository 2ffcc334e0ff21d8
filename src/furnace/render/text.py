"""Terminal rendering for the CLI (rich): charts and tables people would rather look at than read.

Rich is imported where a table is drawn with it: the funnel's party, piped as a plain table of short single-line
cells (`plain_table`), is written without it (importing and running rich was ~55 ms of `furnace funnel`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Character
from furnace.characters.funnel import Party
from furnace.rules.effects import effect_summary
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Table

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.console import Console

BAR_WIDTH = 40
PIPED_WIDTH = 200       # piped output gets a wide page rather than rich's 80-column default


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else PIPED_WIDTH)


def odds_chart(expression: str, dist: dict[int, Fraction], dc: int | None, chance: Fraction | None) -> str:
    """A horizontal bar per total; totals that meet the DC are marked (furnace.render.plots, which imports no
    rich, so `furnace odds` starts fast)."""
    from furnace.render.plots import odds_chart as chart

    return chart(expression, dist, dc, chance)


def table_list(tables: list[Table]) -> None:
    from rich.table import Table as RichTable

    out = RichTable(title="Furnace tables", show_lines=False)
    for col in ("id", "name", "title", "rolled with", "rows"):
        out.add_column(col)
    for t in tables:
        how = t.roll or (f"die by {t.die_key} ({t.die_table})" if t.die_table else f"by {t.key_name or 'key'}")
        out.add_row(t.id, t.name, t.title, how, str(len(t.rows)))
    _console().print(out)


def table_show(t: Table, explain: bool = False) -> None:
    """A table's rows and their effects; its RULES.md ids (the table's own, the rules behind it and the ids in
    its effects) only when `explain`, as everywhere a referee reads."""
    from rich.table import Table as RichTable

    from furnace.rules.effects import TABLE_NAMES
    from furnace.rules.ids import without_rule_ids

    def shown(text: str) -> str:
        return text if explain else without_rule_ids(text)

    by = t.die_table if explain or t.die_table is None else TABLE_NAMES.get(t.die_table, t.die_table)
    how = t.roll or (f"die by {t.die_key} from {by}" if t.die_table else f"looked up by {t.key_name or 'key'}")
    out = RichTable(title=f"{t.id} · {t.title} ({t.name}; {how})" if explain else f"{t.title} ({t.name}; {how})",
                    show_lines=True)
    out.add_column("roll" if t.kind == "range" else (t.key_name or "key"), no_wrap=True)
    out.add_column("result")
    out.add_column("effects")
    for row in t.rows:
        text = row.text + (f"  [die {row.die}]" if row.die else "")
        out.add_row(row.span, shown(text), "\n".join(shown(effect_summary(e)) for e in row.effects))
    console = _console()
    console.print(out)
    for note in t.notes:
        console.print(f"• {shown(note)}")
    if explain:
        console.print(f"source: {t.source}; rules: {', '.join(t.rules)}")


def rules_table(ruleset: Ruleset, campaign: str | None = None) -> None:
    """Every option with its value as the referee writes it (true, none, 3), where it comes from (the default,
    a profile, a campaign's override file or `campaign override set`) and its first sources; a value that is
    not the default in bold."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    from furnace.render.story.campaign import option_words

    whose = f"campaign {campaign} · profile {ruleset.profile}" if campaign else f"profile {ruleset.profile}"
    out = RichTable(title=f"Rule options · {escape(whose)}")
    for col in ("option", "value", "from", "sources"):
        out.add_column(col)
    for value in ruleset:
        words = escape(option_words(value.value))
        shown = f"[bold]{words}[/bold]" if value.source != "default" else words
        out.add_row(value.spec.name, shown, escape(value.source), ", ".join(value.spec.sources[:4]))
    _console().print(out)


def demo_output(rng: dice.DiceSource, count: int) -> None:
    """The main job's showcase: a funnel of 0-level characters and a sample roll with its explanation."""
    from furnace.characters.funnel import run_funnel

    party_table(run_funnel(rng, 1, count))
    sample = dice.roll("d20+STR+PROF", rng, {"STR": 2, "PROF": 1}, label="a sample ATK (STR +2, PROF +1)")
    _console().print(sample.explain())


PARTY_COLUMNS = ("player", "name", "race", "STR", "DEX", "CON", "INT", "WIS", "CHA", "HP", "occupation", "proficiency",
                 "item")


def party_table(party: Party) -> None:
    title = f"Funnel party: {len(party.characters)} 0-level characters"
    rows = [(c.player or "", c.name, c.race, *(f"{s} ({modifier(s):+d})" for s in c.scores.values()), str(c.hp),
             *((c.occupation.name, c.occupation.proficiency, c.occupation.item) if c.occupation else ("", "", "")))
            for c in party.characters]
    plain = plain_table(title, PARTY_COLUMNS, rows)
    if plain is not None:
        sys.stdout.write(plain)
        return
    from rich.table import Table as RichTable

    out = RichTable(title=title)
    for col in PARTY_COLUMNS:
        out.add_column(col)
    for row in rows:
        out.add_row(*row)
    _console().print(out)


# what rich draws as it is: printable ASCII but markup's brackets and escapes (an emoji's code has two colons)
_PLAIN = frozenset(chr(c) for c in range(32, 127)) - frozenset("[]\\")
# the variables under which rich colours piped output, or takes it for a terminal's
_RICH_ENVIRONMENT = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


def _plain(text: str) -> bool:
    return _PLAIN.issuperset(text) and text.count(":") < 2


def plain_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str | None:
    """A table as rich draws it on piped output (`_console`: no colour, `PIPED_WIDTH` columns; rich's default table:
    a heavy head, a centred title, a space either side of each cell), written without rich; None when rich would draw
    it otherwise (a terminal, a variable that colours output, an encoding other than UTF's, a cell it reads as markup
    or draws wider than its letters, a table wider than the page), for rich to draw it."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower()     # (else rich draws its boxes in ASCII)
    if sys.stdout.isatty() or not encoding.startswith("utf") or any(name in os.environ for name in _RICH_ENVIRONMENT):
        return None
    if not all(_plain(text) for text in (title, *columns, *(cell for row in rows for cell in row))):
        return None
    widths = [max(len(cell) for cell in column) + 2 for column in zip(columns, *rows, strict=True)]
    width = sum(widths) + len(widths) + 1
    if width > PIPED_WIDTH or len(title) > width:
        return None
    left = (width - len(title)) // 2

    def line(ends: str, fill: str) -> str:
        return ends[0] + ends[1].join(fill * w for w in widths) + ends[2] + "\n"

    def cells(bar: str, row: Sequence[str]) -> str:
        return bar + bar.join(f" {cell:<{w - 2}} " for cell, w in zip(row, widths, strict=True)) + bar + "\n"

    return "".join([" " * left + title + " " * (width - left - len(title)) + "\n", line("┏┳┓", "━"),
                    cells("┃", columns), line("┡╇┩", "━"), *(cells("│", row) for row in rows), line("└┴┘", "─")])


def character_sheet(c: Character, rules: Ruleset, note: str = "", *, luck: int | None = None) -> None:
    """The sheet in the terminal; `note` is a line under the title (the roster's id, player and status); `luck`
    the player's pool when Luck is kept per player. The same fields as the Markdown and HTML sheets."""
    from rich.markup import escape

    from furnace.characters.sheet import sheet
    from furnace.render.sheets import condition_list, pool_words, spell_lines, weapon_words, xp_words

    s = sheet(c, rules, luck=luck)
    console = _console()
    title = f"{c.name} · {c.race} {c.char_class or '0-level'} {c.archetype or ''} · level {c.level}"
    if note:
        title += f"\n{note}"
    from rich.table import Table as RichTable

    out = RichTable(title=escape(title), show_header=False)
    out.add_column("field")
    out.add_column("value")

    def row(field: str, value: str) -> None:
        out.add_row(field, escape(value))

    row("abilities", "  ".join(f"{a} {s_} ({modifier(s_):+d})" for a, s_ in c.scores.items()))
    row("HP", f"{c.hp}/{c.hp_max}   Hit Dice {c.hit_dice} × {c.hit_die(rules)}: {pool_words(s)}")
    row("PROF / AC / load", f"+{c.prof(rules)} / {c.ac(rules)} / {s.load} of {s.load_limit}")
    row("Luck Dice / coins", f"{s.luck_dice} / {s.coins:,}")
    row("XP", xp_words(s))
    row("weapons", "\n".join(weapon_words(s)) or "fist")
    row("worn", ", ".join(s.worn) or "nothing")
    row("carried", ", ".join(s.carried) or "nothing")
    row("saves", ", ".join(c.saves) or "—")
    row("skills", ", ".join(c.skills + [f"{x} (expertise)" for x in c.expertise]) or "—")
    if c.occupation:
        row("occupation", f"{c.occupation.name}: {c.occupation.proficiency}; {c.occupation.item}")
    for label, known in spell_lines(c, rules):
        row(label.lower(), known)
    style = [f"Fighting Style: {c.fighting_style}"] if c.fighting_style else []
    row("features", ", ".join([f for f in s.features if not (style and f == "Fighting Style")] + style
                              + list(s.archetype_features)) or "—")
    if condition_list(s):
        row("conditions, injuries", ", ".join(condition_list(s)))
    if c.hp_history:
        row("HP by level", "; ".join(f"L{g.level} +{g.gained} ({g.reason})" for g in c.hp_history))
    if c.dead:
        from furnace.render.story.words import death_cause

        row("dead", death_cause(c.dead))     # a cause's code (threshold …) in words
    console.print(out)
