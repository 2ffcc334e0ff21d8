"""The fight at a glance, for the referee: the round, the initiative, whose turn it is, and each combatant's HP,
zone, status, conditions with the time they have left and the dying countdown."""

from __future__ import annotations

from furnace.play import conditions as cond
from furnace.play.combatant import Combatant
from furnace.play.questions import Question
from furnace.play.state import Encounter
from furnace.play.turns import Turns, due
from furnace.render.story.conditions import condition_words, ending_words


def encounter_lines(turns: Turns) -> list[str]:
    enc = turns.encounter
    now = due(turns)
    phases = " → ".join(" + ".join(p) for p in enc.phases) or "not rolled"
    lines = [f"round {enc.round}; initiative: {phases}"]
    if enc.over:
        lines.append(f"the fight is over: {f'the {enc.winner} stand' if enc.winner else 'no one stands'}")
    elif now is not None:
        lines.append(f"due: {now.name} ({now.id}, {now.side})")
    for side in enc.sides:
        lines.append(f"{side}:")
        lines += [f"  {'▶' if now is not None and c.id == now.id else ' '} {combatant_line(enc, c)}"
                  for c in enc.combatants if c.side == side]
    asked = enc.asking.open()
    if asked:
        lines.append("open questions:")
        lines += [f"  {question_line(enc, q)}" for q in asked]
    return lines


def question_line(enc: Encounter, q: Question) -> str:
    """An open question for the referee: its id, who chooses what, the options and her standing answer."""
    from furnace.render.story.questions import choice_words, situation

    owner = enc.get(q.owner)
    player = f", {q.player}'s" if q.player else ""
    return (f"{q.id}: {owner.name} ({owner.id}{player}) may {choice_words(q.kind, q.about)} "
            f"{situation(q.kind, q.about)}: {' | '.join(q.options)} (standing answer: {q.default})").replace("  ", " ")


def combatant_line(enc: Encounter, c: Combatant) -> str:
    parts = [f"{c.name} ({c.id})", f"HP {c.hp}/{c.hp_max}", c.zone, c.status]
    if c.status == "dying":
        turns = c.dying_turns or 1
        parts.append(f"dies in {turns} {'turn' if turns == 1 else 'turns'} unless stabilised or a natural 20")
    if c.doomed_round is not None:
        parts.append(f"dies at its turn in round {c.doomed_round}")
    held = [held_words(enc, h) for h in c.held]
    return " · ".join(parts + ([", ".join(held)] if held else []))


def held_words(enc: Encounter, h: cond.Held) -> str:
    """A condition a combatant holds, in words, with the time it has left and where it came from."""
    name = condition_words(h.name, h.value)
    source = f", {h.source}" if h.source and h.source != h.name and ":" not in h.source else ""
    if h.ending == "round" and h.until_round is not None:
        left = h.until_round - enc.round
        rounds = "round" if left == 1 else "rounds"
        return f"{name} ({left} {rounds} left: ends at its turn in round {h.until_round}{source})"
    return f"{name} ({ending_words(h.ending)}{source})"
