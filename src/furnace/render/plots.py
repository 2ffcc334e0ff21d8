"""Plots of a simulation's counts and of exact odds: a terminal histogram (text), an SVG of the outcomes and the
rounds, a sweep's heat map (SVG) and a distribution's bar chart (text).

Pure functions: counts in, text out (the caller writes the file). Nothing here imports more than the standard
library, so `furnace odds` starts fast."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

WIDTH, BAR_H, GAP = 640, 18, 6
BAR_X = 160                      # where the bars start: right of the longest label ("party loses with survivors")
BAR_WIDTH = 40


def escape(text: str) -> str:
    """HTML's escaping, imported when an SVG is drawn: `furnace odds` prints text and loads no `html`."""
    from html import escape as html_escape

    return html_escape(text)


def text_histogram(counts: Mapping[int, int], *, width: int = 40, label: str = "round") -> str:
    """One line per value: the value, a bar scaled to the largest count, the count and its share."""
    total = sum(counts.values()) or 1
    top = max(counts.values(), default=0) or 1
    return "\n".join(f"{label} {k:>3} {'█' * max(1 if n else 0, round(n / top * width)):<{width}} "
                     f"{n:>7,} ({n / total:.1%})" for k, n in sorted(counts.items()))


def _bars(title: str, rows: list[tuple[str, float, str]], y: int) -> tuple[list[str], int]:
    """A titled group of horizontal bars, each (label, length as a share of the longest, the figure shown)."""
    out = [f'<text x="10" y="{y + 14}" font-weight="bold">{escape(title)}</text>']
    y += 24
    for name, share, figure in rows:
        w = round(share * (WIDTH - 280))
        out.append(f'<text x="10" y="{y + 13}">{escape(name)}</text>'
                   f'<rect x="{BAR_X}" y="{y}" width="{w}" height="{BAR_H}" fill="#b5462a"><title>{escape(name)}: '
                   f'{escape(figure)}</title></rect>'
                   f'<text x="{BAR_X + 6 + w}" y="{y + 13}">{escape(figure)}</text>')
        y += BAR_H + GAP
    return out, y + 10


def _counted(rows: list[tuple[str, int]], total: int) -> list[tuple[str, float, str]]:
    top = max((n for _, n in rows), default=0) or 1
    return [(name, n / top, f"{n:,} ({n / (total or 1):.1%})") for name, n in rows]


def simulation_svg(title: str, outcomes: Mapping[str, int], rounds: Mapping[int, int],
                   deaths: Mapping[str, float] | None = None) -> str:
    """An SVG of how the fights ended (each fight one way: the bars add up to every fight), who died how often
    (each character's P(dies) once the dying's countdown ran out, on a 0–100 % scale) and how many rounds the
    fights lasted."""
    total = sum(outcomes.values())
    parts, y = _bars("How the fights ended", _counted(list(outcomes.items()), total), 30)
    if deaths:
        dead, y = _bars("Who dies (share of fights)", [(name, p, f"{p:.1%}") for name, p in deaths.items()], y)
        parts += dead
    spans, y = _bars("Rounds", _counted([(f"{k} round(s)", n) for k, n in sorted(rounds.items())], total), y)
    head = f'<text x="10" y="18" font-size="16">{escape(title)}</text>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" viewBox="0 0 {WIDTH} {y}" '
            f'font-family="sans-serif" font-size="12">{head}{"".join(parts + spans)}</svg>\n')


def odds_chart(expression: str, dist: Mapping[int, Fraction], dc: int | None, chance: Fraction | None) -> str:
    """A horizontal bar per total; totals that meet the DC are marked."""
    top = max(dist.values())
    lines = [f"{expression}: {len(dist)} totals, mean {float(sum(k * p for k, p in dist.items())):.2f}"]
    for total, p in sorted(dist.items()):
        bar = "█" * max(1, round(BAR_WIDTH * p / top)) if p else ""
        mark = "✓" if dc is not None and total >= dc else " "
        lines.append(f"{total:>5} {mark} {float(p) * 100:6.2f}% {bar}")
    if dc is not None and chance is not None:
        lines.append(f"P({expression} ≥ {dc}) = {chance} ≈ {float(chance) * 100:.2f}%")
    return "\n".join(lines)


def _shade(p: float) -> str:
    """White (0) to the forge's red (1)."""
    r, g, b = (round(255 + (c - 255) * p) for c in (0xb5, 0x46, 0x2a))
    return f"#{r:02x}{g:02x}{b:02x}"


def heat_map_svg(title: str, rows: Sequence[str], columns: Sequence[str], cells: Mapping[tuple[str, str], float],
                 *, what: str = "P(total party kill)") -> str:
    """A grid of shaded cells, one per (row, column), each with its share as a percentage; a cell left out is
    blank. Rows are read down, columns across (the sweep's first parameter across, the rest down)."""
    cw, ch, left, top = 72, 26, 230, 56
    out = [f'<text x="10" y="18" font-size="16">{escape(title)}</text>',
           f'<text x="10" y="40">{escape(what)}, darker is higher</text>']
    for j, col in enumerate(columns):
        out.append(f'<text x="{left + j * cw + cw // 2}" y="{top - 6}" text-anchor="middle">{escape(col)}</text>')
    for i, row in enumerate(rows):
        y = top + i * ch
        out.append(f'<text x="10" y="{y + 17}">{escape(row)}</text>')
        for j, col in enumerate(columns):
            if (row, col) not in cells:
                continue
            p = cells[(row, col)]
            ink = "#fff" if p > 0.55 else "#000"
            x = left + j * cw
            out.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{ch - 2}" fill="{_shade(p)}" stroke="#ccc"/>'
                       f'<text x="{x + cw // 2}" y="{y + 17}" text-anchor="middle" fill="{ink}">{p:.1%}</text>')
    width, height = left + max(1, len(columns)) * cw + 10, top + max(1, len(rows)) * ch + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="12">{"".join(out)}</svg>\n')
