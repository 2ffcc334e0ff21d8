"""A session's recap in words: time passed, and each member's deaths, HP, injuries, conditions, XP and levels."""

from __future__ import annotations

from typing import Any

from furnace.campaign.recap import MemberRecap, Recap
from furnace.campaign.timekeeping import span_text
from furnace.render.story.campaign import death_words
from furnace.render.story.conditions import condition_words


def member_lines(m: MemberRecap) -> list[str]:
    out = []
    if m.joined:
        out.append(f"{m.name} joined the campaign")
    if m.died is not None:
        out.append(f"{m.name} died: {death_words(str(m.died.get('cause', '')), m.died.get('facts') or ())}")
    if m.hp is not None:
        out.append(f"{m.name}: HP {m.hp[0]} → {m.hp[1]}")
    if m.injuries:
        out.append(f"{m.name} was injured: {'; '.join(m.injuries)}")
    if m.conditions:
        out.append(f"{m.name} is now {', '.join(condition_words(c) for c in m.conditions)}")
    if m.xp:
        out.append(f"{m.name} earned {m.xp:+,} XP")
    if m.level is not None:
        out.append(f"{m.name} went from level {m.level[0]} to level {m.level[1]}")
    return out


def recap_text(report: Recap) -> str:
    head = f"session {report.session}" + (f": {report.title}" if report.title else "") if report.session else \
        "since the campaign began"
    commands = f"{report.commands} {'command' if report.commands == 1 else 'commands'}"
    lines = [f"{head} — from {report.began}, {span_text(report.seconds)} passed on the clock, {commands}"]
    told = [line for m in report.members for line in member_lines(m)]
    lines += [f"  {line}" for line in told] or ["  no deaths, injuries, experience or levels"]
    return "\n".join(lines)


def recap_json(report: Recap) -> dict[str, Any]:
    """The recap as JSON: its facts, each member's with her lines in words."""
    told = {m.id: member_lines(m) for m in report.members}
    facts = report.to_dict()
    return {**facts, "members": [{**m, "lines": told[m["id"]]} for m in facts["members"]]}
