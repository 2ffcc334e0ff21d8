"""Character sheets as text: Markdown, printable HTML (funnel pages and single sheets) and JSON.

Pure functions returning strings: no rich, no files. The HTML is one self-contained document (inline CSS,
no scripts, no external assets) laid out in millimetres so a page fits both A4 and Letter: with 10 mm
margins A4 leaves 190 × 277 mm and Letter 196 × 259 mm, so each page's content stays within 190 × 255 mm.
A funnel page holds four 0-level characters as a 2 × 2 grid of cards (F-CHAR-01).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from furnace.characters.character import Character
from furnace.characters.funnel import Party
from furnace.characters.sheet import Sheet, sheet
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import Ruleset

CARDS_PER_PAGE = 4


# -- shared helpers ---------------------------------------------------------------------------------------
def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _class_line(c: Character) -> str:
    if c.char_class is None:
        return f"0-level {c.race}"
    archetype = f" ({c.archetype})" if c.archetype else ""
    return f"level {c.level} {c.race} {c.char_class}{archetype}"


def _occupation_line(c: Character) -> str:
    occ = c.occupation
    if occ is None:
        return ""
    item = f"; carries {occ.item}" if occ.item else ""
    return f"{occ.name}: {occ.proficiency} ({occ.proficiency_kind}){item}"


def _gear(c: Character) -> list[str]:
    gear = [c.armor] if c.armor else []
    gear += ["shield"] if c.shield else []
    gear += [f"{w.name} ({w.damage})" for w in c.weapons]
    return gear + [i for i in c.items if i not in gear]


def _n(n: int) -> str:
    return f"{n:,}"


def xp_words(s: Sheet) -> str:
    """'250 (level 4 at 1,000)'; without the referee's XP table, the next level is her call (REF-24)."""
    if s.next_level is None:
        return _n(s.xp)
    if s.next_xp is None:
        return f"{_n(s.xp)} (level {s.next_level} when the referee says)"
    return f"{_n(s.xp)} (level {s.next_level} at {_n(s.next_xp)})"


def pool_words(s: Sheet) -> str:
    """'3 left, 2 used (of 5)'."""
    return f"{s.hit_dice_left} left, {s.hit_dice_used} used (of {s.hit_dice_pool})"


def weapon_words(s: Sheet) -> list[str]:
    """'arming sword: ATK +3, 1d8+2 (notched 1)' for each weapon she wields."""
    return [f"{w.name}: ATK {_signed(w.atk)}, {w.damage}" + (f" ({', '.join(w.notes)})" if w.notes else "")
            for w in s.weapons]


def condition_list(s: Sheet) -> list[str]:
    """Her conditions, injuries and "until rest" effects in words."""
    from furnace.render.story.conditions import condition_words

    return [*(condition_words(c) for c in s.conditions), *s.injuries, *s.lasting]


def sheet_pairs(c: Character, rules: Ruleset, s: Sheet) -> list[tuple[str, str]]:
    """The fields every sheet shows beside the scores, as (label, words): what a referee plays from."""
    return [
        ("Hit Dice pool", pool_words(s)),
        ("Luck Dice", str(s.luck_dice)),
        ("Coins", _n(s.coins)),
        ("XP", xp_words(s)),
        ("Weapons", "; ".join(weapon_words(s)) or "fist"),
        ("Worn", ", ".join(s.worn) or "nothing"),
        ("Carried", ", ".join(s.carried) or "nothing"),
    ]


def spell_lines(c: Character, rules: Ruleset) -> list[tuple[str, str]]:
    """What a caster knows, against her caps: ("Spells known (2 of 3)", "Fireball, Chill Touch") and
    ("Cantrips (2 of 2)", …) — a Cleric's are prayers (F-CLR-03, F-MU-05/06, F-ARCH-04/05)."""
    from furnace.magic.cantrips import cantrip_cap
    from furnace.magic.casting import spells_known_cap

    out = []
    cap = spells_known_cap(c, rules)
    if cap or c.spells:
        label = "Prayers known" if c.char_class == "Cleric" else "Spells known"
        out.append((f"{label} ({len(c.spells)} of {cap})", ", ".join(c.spells) or "—"))
    cantrips = cantrip_cap(c)
    if cantrips or c.cantrips:
        out.append((f"Cantrips ({len(c.cantrips)} of {cantrips})", ", ".join(c.cantrips) or "—"))
    return out


# -- Markdown ---------------------------------------------------------------------------------------------
def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_list(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "—"


def character_markdown(c: Character, rules: Ruleset, note: str = "", *, luck: int | None = None) -> str:
    """A Markdown sheet: identity, scores with modifiers, derived values, Luck, coins, XP, weapons with their ATK
    and damage, what is worn and carried, proficiencies, spells, features by name, conditions and injuries in
    words, HP history; `note` is a line under the title (the roster's id, player and status); `luck` the player's
    pool when Luck is kept per player."""
    s = sheet(c, rules, luck=luck)
    lines = [f"# {c.name}", ""]
    lines.append(" · ".join([f"**{_class_line(c)}**"] + ([f"player: {c.player}"] if c.player else [])))
    if note:
        lines += ["", f"*{_md_cell(note)}*"]
    if c.dead:
        lines += ["", f"**Dead:** {_dead(c)}"]
    lines += ["", "| Ability | Score | Mod |", "|---|---:|---:|"]
    lines += [f"| {a} | {c.scores[a]} | {_signed(c.mod(a))} |" for a in ABILITIES]
    lines += [
        "",
        f"- **HP:** {c.hp}/{c.hp_max}",
        f"- **Hit Dice:** {c.hit_dice} × {c.hit_die(rules)}",
        f"- **Hit Dice pool:** {pool_words(s)}",
        f"- **PROF:** {_signed(c.prof(rules))}",
        f"- **AC:** {c.ac(rules)}",
        f"- **Load:** {s.load} of {s.load_limit}",
        f"- **Luck Dice:** {s.luck_dice}",
        f"- **Coins:** {_n(s.coins)}",
        f"- **XP:** {xp_words(s)}",
        f"- **Worn:** {_md_cell(_md_list(s.worn))}",
        f"- **Carried:** {_md_cell(_md_list(s.carried))}",
        f"- **Saves:** {_md_list(c.saves)}",
        f"- **Skills:** {_md_list(c.skills)}",
        f"- **Expertise:** {_md_list(c.expertise)}",
        f"- **Tools:** {_md_list(c.tools)}",
    ]
    if c.occupation:
        lines.append(f"- **Occupation:** {_occupation_line(c)}")
    if c.fighting_style:
        lines.append(f"- **Fighting style:** {c.fighting_style}")
    lines += [f"- **{label}:** {_md_cell(known)}" for label, known in spell_lines(c, rules)]
    lines += [f"- **Features:** {_md_list(s.features)}",
              f"- **Archetype features:** {_md_list(s.archetype_features)}"]
    if condition_list(s):
        lines.append(f"- **Conditions / injuries:** {_md_cell(_md_list(condition_list(s)))}")
    lines += ["", "## Weapons", "", "| Weapon | ATK | Damage | Notes |", "|---|---:|---|---|"]
    lines += [f"| {_md_cell(w.name)} | {_signed(w.atk)} | {w.damage} | {_md_cell(', '.join(w.notes)) or '—'} |"
              for w in s.weapons] or ["| fist | — | — | no weapon wielded |"]
    if c.hp_history:
        lines += ["", "## HP by level", "", "| Level | Die | Rolled | Floor | Gained | Why |",
                  "|---:|---|---:|---:|---:|---|"]
        for g in c.hp_history:
            lines.append(f"| {g.level} | {g.die or '—'} | {'—' if g.rolled is None else g.rolled} | "
                         f"{'—' if g.floor is None else g.floor} | +{g.gained} | {_md_cell(g.reason) or '—'} |")
    return "\n".join(lines) + "\n"


def character_json(c: Character) -> str:
    return c.to_json()


# -- HTML -------------------------------------------------------------------------------------------------
CSS = """
@page { size: auto; margin: 10mm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font: 9pt/1.3 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #111; }
.page { width: 190mm; height: 255mm; display: flex; flex-direction: column; overflow: hidden;
        break-after: page; page-break-after: always; break-inside: avoid; }
.page:last-child { break-after: auto; page-break-after: auto; }
.page-head { height: 7mm; flex: none; display: flex; justify-content: space-between; align-items: baseline;
             border-bottom: 0.4mm solid #111; margin-bottom: 3mm; font-size: 10pt; }
.page-head h1 { font-size: 12pt; margin: 0; }
.grid { flex: 1; min-height: 0; display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: 1fr 1fr;
        gap: 4mm; }
.card { border: 0.5mm solid #111; border-radius: 2mm; padding: 3mm; overflow: hidden; min-height: 0;
        display: flex; flex-direction: column; gap: 2mm; overflow-wrap: anywhere; }
.card.single { flex: 1; }
.card header { border-bottom: 0.3mm solid #111; padding-bottom: 1mm; }
.card h2 { font-size: 13pt; margin: 0; line-height: 1.15; }
.card .sub { display: flex; justify-content: space-between; gap: 2mm; color: #333; }
.dead { color: #a00; font-weight: bold; }
.scores { display: grid; grid-template-columns: repeat(6, 1fr); gap: 1.5mm; }
.score { border: 0.3mm solid #111; border-radius: 1.5mm; text-align: center; padding: 0.8mm 0; }
.score .ab { font-size: 7pt; font-weight: bold; letter-spacing: 0.3mm; }
.score .val { font-size: 12pt; font-weight: bold; line-height: 1.1; }
.score .mod { font-size: 8pt; }
.stats { display: grid; grid-template-columns: repeat(4, 1fr); gap: 1.5mm; }
.stat { border: 0.3mm solid #111; border-radius: 1.5mm; text-align: center; padding: 0.8mm 0; }
.stat .lbl { font-size: 7pt; font-weight: bold; }
.stat .val { font-size: 11pt; font-weight: bold; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.6mm 2mm; margin: 0; }
dt { font-weight: bold; }
dd { margin: 0; }
table.hp { border-collapse: collapse; width: 100%; font-size: 8pt; }
table.hp th, table.hp td { border: 0.2mm solid #777; padding: 0.5mm 1mm; text-align: left; }
.notes { flex: 1; min-height: 10mm; border: 0.3mm solid #111; border-radius: 1.5mm; padding: 1mm 2mm;
         background: repeating-linear-gradient(to bottom, transparent 0, transparent 5.6mm, #bbb 5.6mm,
                     #bbb 5.8mm); }
.notes .lbl { font-size: 7pt; font-weight: bold; background: #fff; }
@media screen {
  /* the page's margins drawn as a shadow, so the screen layout is the printed one */
  body { background: #ccc; padding: 12mm; }
  .page { background: #fff; margin: 0 auto 24mm; box-shadow: 0 0 0 10mm #fff, 0 0 1mm 10.5mm #888; }
}
"""


def _document(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
            f"<style>{CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n")


def _scores_html(c: Character) -> str:
    cells = "".join(f'<div class="score"><div class="ab">{a}</div><div class="val">{c.scores[a]}</div>'
                    f'<div class="mod">{_signed(c.mod(a))}</div></div>' for a in ABILITIES)
    return f'<div class="scores">{cells}</div>'


def _stats_html(pairs: Iterable[tuple[str, str]]) -> str:
    cells = "".join(f'<div class="stat"><div class="lbl">{escape(k)}</div><div class="val">{escape(v)}</div></div>'
                    for k, v in pairs)
    return f'<div class="stats">{cells}</div>'


def _dl(pairs: Iterable[tuple[str, str]]) -> str:
    rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in pairs if v)
    return f"<dl>{rows}</dl>"


def _dead(c: Character) -> str:
    """How she died, in words (a fight records its cause's code: threshold, bled_out …)."""
    from furnace.render.story.words import death_cause

    return death_cause(c.dead or "")


def _header(c: Character, title: str, note: str = "") -> str:
    player = f"<span>{escape(c.player)}</span>" if c.player else "<span>Player: ________</span>"
    dead = f'<div class="dead">Dead: {escape(_dead(c))}</div>' if c.dead else ""
    noted = f'<div class="sub">{escape(note)}</div>' if note else ""
    return (f"<header><h2>{escape(c.name)}</h2>"
            f'<div class="sub"><span>{escape(title)}</span>{player}</div>{noted}{dead}</header>')


def _notes(label: str = "Notes") -> str:
    return f'<div class="notes"><span class="lbl">{escape(label)}</span></div>'


def _funnel_card(c: Character, rules: Ruleset) -> str:
    occ = c.occupation
    details = [("Occupation", occ.name if occ else "—")]
    if occ:
        details += [("Proficiency", f"{occ.proficiency} ({occ.proficiency_kind})"), ("Item", occ.item or "—")]
    gear = [g for g in _gear(c) if not (occ and g == occ.item)]
    details += [("Gear", ", ".join(gear))]
    stats = [("HP", f"{c.hp}/{c.hp_max}"), ("AC", str(c.ac(rules))), ("PROF", _signed(c.prof(rules))),
             ("Load", str(c.load))]
    return (f'<section class="card" data-name="{escape(c.name)}">{_header(c, _class_line(c))}'
            f"{_scores_html(c)}{_stats_html(stats)}{_dl(details)}{_notes()}</section>")


def funnel_html(party_or_characters: Party | Iterable[Character], rules: Ruleset,
                title: str = "Furnace funnel") -> str:
    """A printable funnel: four 0-level characters per page in a 2 × 2 grid of cards (F-CHAR-01)."""
    chars = list(party_or_characters.characters if isinstance(party_or_characters, Party)
                 else party_or_characters)
    chunks = [chars[i:i + CARDS_PER_PAGE] for i in range(0, len(chars), CARDS_PER_PAGE)] or [[]]
    pages = []
    for n, chunk in enumerate(chunks, 1):
        cards = "\n".join(_funnel_card(c, rules) for c in chunk)
        pages.append(f'<div class="page"><div class="page-head"><h1>{escape(title)}</h1>'
                     f"<span>page {n} of {len(chunks)}</span></div>\n"
                     f'<div class="grid">\n{cards}\n</div></div>\n')
    return _document(title, "".join(pages))


def character_html(c: Character, rules: Ruleset, note: str = "", *, luck: int | None = None) -> str:
    """A one-page printable sheet for one character, in the funnel cards' style (`note`: a line under the
    title; `luck`: the player's pool when Luck is kept per player)."""
    s = sheet(c, rules, luck=luck)
    details = [
        ("Hit Dice", f"{c.hit_dice} × {c.hit_die(rules)}"),
        *[(k, v) for k, v in sheet_pairs(c, rules, s) if k != "Weapons"],
        ("Saves", ", ".join(c.saves) or "—"),
        ("Skills", ", ".join(c.skills) or "—"),
        ("Expertise", ", ".join(c.expertise)),
        ("Tools", ", ".join(c.tools)),
        ("Occupation", _occupation_line(c)),
        ("Fighting style", c.fighting_style or ""),
        *spell_lines(c, rules),
        ("Features", ", ".join(s.features) or "—"),
        ("Archetype features", ", ".join(s.archetype_features)),
        ("Conditions", ", ".join(condition_list(s))),
    ]
    stats = [("HP", f"{c.hp}/{c.hp_max}"), ("AC", str(c.ac(rules))), ("PROF", _signed(c.prof(rules))),
             ("Load", f"{s.load}/{s.load_limit}")]
    weapons = "".join(f'<tr class="weapon"><td>{escape(w.name)}</td><td>{escape(_signed(w.atk))}</td>'
                      f"<td>{escape(w.damage)}</td><td>{escape(', '.join(w.notes))}</td></tr>" for w in s.weapons) or \
        '<tr class="weapon"><td>fist</td><td></td><td></td><td>no weapon wielded</td></tr>'
    weapons = ('<table class="hp weapons"><thead><tr><th>Weapon</th><th>ATK</th><th>Damage</th><th>Notes</th>'
               f"</tr></thead><tbody>{weapons}</tbody></table>")
    history = ""
    if c.hp_history:
        rows = "".join(f"<tr><td>{g.level}</td><td>{escape(g.die or '—')}</td>"
                       f"<td>{'—' if g.rolled is None else g.rolled}</td><td>+{g.gained}</td>"
                       f"<td>{escape(g.reason)}</td></tr>" for g in c.hp_history)
        history = ('<table class="hp"><thead><tr><th>Level</th><th>Die</th><th>Rolled</th><th>Gained</th>'
                   f"<th>Why</th></tr></thead><tbody>{rows}</tbody></table>")
    card = (f'<section class="card single" data-name="{escape(c.name)}">{_header(c, _class_line(c), note)}'
            f"{_scores_html(c)}{_stats_html(stats)}{_dl(details)}{weapons}{history}{_notes()}</section>")
    return _document(c.name, f'<div class="page">\n{card}\n</div>\n')


__all__ = ["character_html", "character_json", "character_markdown", "condition_list", "funnel_html", "pool_words",
           "sheet_pairs", "spell_lines", "weapon_words", "xp_words"]
