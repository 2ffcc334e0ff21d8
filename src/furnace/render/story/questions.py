"""The players' choices told: a question asked of its owner, its answer, the fight's standing answers
(`furnace.play.answering`, `furnace.campaign.questions`)."""

from __future__ import annotations

from typing import Any

from furnace.events import Event
from furnace.render.story import teller
from furnace.render.story.view import View

CHOICES = {"luck": "spend Luck Dice", "sunder": "sunder her shield", "rage": "rage",
           "hit_dice": "spend her Hit Dice on the Lay on Hands", "cleave": "cleave",
           "power": "use a once-a-fight power", "helmet": "make her helmet's save vs. death"}
POWERS = {"chosen_one": "Chosen one", "rally": "Rally", "two_handed": "2H weapon master", "protection": "Protection"}
STYLES = frozenset({"two_handed", "protection"})     # fighting styles asked as powers (F-FTR-04, AMB-45)


def choice_words(kind: str, about: dict[str, Any]) -> str:
    """The choice in words: a fighting style asked as a power is told as the style (F-FTR-04)."""
    return "use her fighting style" if kind == "power" and about.get("power") in STYLES else CHOICES.get(kind, kind)


def situation(kind: str, about: dict[str, Any]) -> str:
    """What the owner knows of the choice, in words (her roll, the blow, what she holds)."""
    if kind == "luck":
        roll = f"{about.get('roll', 'the roll')} {about['total']}" if "total" in about else about.get("roll", "")
        when = " before the roll" if about.get("before_roll") else ""
        return f"on {roll}{when} ({about.get('held', 0)} held)"
    if kind == "sunder":
        return (f"against a blow of {about.get('amount')} at HP {about.get('hp')} (sundered: "
                f"{about.get('halved')} taken, the shield destroyed)")
    if kind == "rage":
        return f"(+{about.get('bonus')} DAM, −{about.get('bonus')} AC; {about.get('left')} left)"
    if kind == "hit_dice":
        return f"(up to {about.get('allowed')})"
    return _power_situation(kind, about)


def _power_situation(kind: str, about: dict[str, Any]) -> str:
    """Cleave, a once-a-fight power, a helmet's save: what she has seen, and whom she may pick."""
    if kind == "cleave":
        what = "a new ATK" if about.get("new_attack") else f"{about.get('overflow')} remaining damage"
        return f"past {about.get('killed')} with {what} into {_whom(about.get('foes'))}"
    if kind == "power":
        name = POWERS.get(str(about.get("power")), str(about.get("power")))
        if about.get("power") == "chosen_one":
            return f"({name}: roll the ATK {about.get('total')} again)"
        if about.get("power") == "two_handed":
            faces = ", ".join(str(f) for f in about.get("faces") or [])
            return f"({name}: the {about.get('weapon')} DAM shows [{faces}]; roll each 1 again)"
        if about.get("power") == "protection":
            return (f"({name}, once a fight: {about.get('foe')}'s ATK on {about.get('ally')} is "
                    f"{about.get('mode', 'HARD')})")
        return f"({name}: the next ATK of {_whom(about.get('allies'))} is {about.get('mode', 'EASY')})"
    if kind == "helmet":
        return f"on her {str(about.get('location', 'head')).lower()} ({about.get('text', '')})"
    return ""


def _whom(named: object) -> str:
    """The foes or allies she may pick, by name and id."""
    if not isinstance(named, dict):
        return "?"
    return " or ".join(f"{name} ({cid})" for cid, name in named.items())


@teller("question")
def question(e: Event, v: View) -> str | None:
    kind = str(e.data.get("choice"))
    about = v.value(e, "about")
    told = situation(kind, about) if isinstance(about, dict) else ""
    choice = choice_words(kind, about if isinstance(about, dict) else {})
    options = " | ".join(str(o) for o in e.data.get("options") or [])
    return f"may {choice} {told}: {options}? (question {e.data.get('id')})".replace("  ", " ")


@teller("answer")
def answer(e: Event, v: View) -> str:
    kind = str(e.data.get("choice"))
    by = {"referee": " (the referee answers)", "standing": " (her standing answer)",
          "time": " (time ran out: her standing answer)"}.get(str(e.data.get("by")), "")
    power = v.value(e, "power")
    about = {"power": power} if power else {}
    named = f" ({POWERS.get(str(power), str(power))})" if power else ""
    return f"answers {e.data.get('id')}, {choice_words(kind, about)}{named}: {e.data.get('answer')}{by}"


@teller("standing")
def standing(e: Event, v: View) -> str:
    policies = e.data.get("policies") or {}
    named = ", ".join(f"{who} {name}" for who, name in policies.items()) if v.referee else ""
    quiet = ", ".join(e.data.get("quiet") or []) or "nothing"
    return f"standing answers{': ' + named if named else ''}; not asked: {quiet}"


@teller("standing_lasting")
def standing_lasting(e: Event, v: View) -> str:
    policies = e.data.get("policies") or {}
    named = ", ".join(f"{who} {name}" for who, name in policies.items()) if v.referee else ""
    quiet = ", ".join(e.data.get("quiet") or []) or "nothing"
    seconds = int(e.data.get("seconds") or 0)
    limit = f"{seconds} s, then the standing answer" if seconds else "none"
    return (f"standing answers between fights{': ' + named if named else ''}; not asked: {quiet}; "
            f"time to answer in the console: {limit}")
