"""Terminal rendering for the CLI (rich): charts and tables people would rather look at than read."""

from __future__ import annotations

import sys
from fractions import Fraction

from rich.console import Console
from rich.table import Table as RichTable

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Character
from furnace.characters.funnel import Party
from furnace.rules.effects import effect_summary
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Table

BAR_WIDTH = 40


def _console() -> Console:
    # piped output gets a wide page rather than rich's 80-column default
    return Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 200)


def odds_chart(expression: str, dist: dict[int, Fraction], dc: int | None, chance: Fraction | None) -> str:
    """A horizontal bar per total; totals that meet the DC are marked (furnace.render.plots, which imports no
    rich, so `furnace odds` starts fast)."""
    from furnace.render.plots import odds_chart as chart

    return chart(expression, dist, dc, chance)


def table_list(tables: list[Table]) -> None:
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


def party_table(party: Party) -> None:
    out = RichTable(title=f"Funnel party: {len(party.characters)} 0-level characters")
    for col in ("player", "name", "race", "STR", "DEX", "CON", "INT", "WIS", "CHA", "HP", "occupation",
                "proficiency", "item"):
        out.add_column(col)
    for c in party.characters:
        occ = c.occupation
        out.add_row(c.player or "", c.name, c.race, *(f"{s} ({modifier(s):+d})" for s in c.scores.values()),
                    str(c.hp), occ.name if occ else "", occ.proficiency if occ else "", occ.item if occ else "")
    _console().print(out)


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
