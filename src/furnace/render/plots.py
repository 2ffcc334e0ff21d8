"""Plots of a simulation's counts: a terminal histogram (text) and an SVG of the outcomes and the rounds.

Pure functions: counts in, text out (the caller writes the file)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

WIDTH, BAR_H, GAP = 640, 18, 6


def text_histogram(counts: Mapping[int, int], *, width: int = 40, label: str = "round") -> str:
    """One line per value: the value, a bar scaled to the largest count, the count and its share."""
    total = sum(counts.values()) or 1
    top = max(counts.values(), default=0) or 1
    return "\n".join(f"{label} {k:>3} {'█' * max(1 if n else 0, round(n / top * width)):<{width}} "
                     f"{n:>7,} ({n / total:.1%})" for k, n in sorted(counts.items()))


def _bars(title: str, rows: list[tuple[str, int]], y: int, total: int) -> tuple[list[str], int]:
    top = max((n for _, n in rows), default=0) or 1
    out = [f'<text x="10" y="{y + 14}" font-weight="bold">{escape(title)}</text>']
    y += 24
    for name, n in rows:
        w = round(n / top * (WIDTH - 260))
        out.append(f'<text x="10" y="{y + 13}">{escape(name)}</text>'
                   f'<rect x="160" y="{y}" width="{w}" height="{BAR_H}" fill="#b5462a"/>'
                   f'<text x="{166 + w}" y="{y + 13}">{n:,} ({n / (total or 1):.1%})</text>')
        y += BAR_H + GAP
    return out, y + 10


def simulation_svg(title: str, outcomes: Mapping[str, int], rounds: Mapping[int, int]) -> str:
    """An SVG of how the fights ended and how many rounds they lasted."""
    total = sum(outcomes.values())
    first, y = _bars("How the fights ended", list(outcomes.items()), 30, total)
    second, y = _bars("Rounds", [(f"{k} round(s)", n) for k, n in sorted(rounds.items())], y, total)
    head = f'<text x="10" y="18" font-size="16">{escape(title)}</text>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" '
            f'font-family="sans-serif" font-size="12">{head}{"".join(first + second)}</svg>\n')
