"""Standing answers: named policies that answer a player's choices when nobody asks her.

A simulation, `furnace fight`, a monster (the referee's), and a kind of choice the referee does not ask are answered
by a policy: the one set for the owner's player, else for her side, else the referee's for a monster, else the
rules' `default_policy` (the profile's). The same names serve `--policy` in `simulate` and `fight` and the standing
answers of each player at the table.

- `keen` (the default): a Luck Die when one can turn a failed ATK into a hit, the shield sundered when the blow
  would drop her, Rage at the first blow — the engine's readings before it asked.
- `never`: no Luck Die, no sunder, no Rage.
- `dying`: a Luck Die only on a failed death or dying roll it can save; nothing else.
- `sunder`: the shield sundered when the blow would drop her; nothing else.
- `always`: a Luck Die on any failed roll it can save, the shield sundered at every blow, Rage at the first blow.

Every policy lets a Lay on Hands spend all the Hit Dice it allows (the recipient agrees, F-CLR-05), and makes a
helmet's save vs. death (M-SEVER-01, M-BONE-01: declining it gains nothing). Every policy but `never` cleaves into
the first foe CLOSE (F-FTR-03) and uses a once-a-fight power at its first chance (F-ARCH-03: Chosen one on the
first missed ATK, Rally on the first ally as she first attacks) and a fighting style's choice (F-FTR-04, AMB-45: the
2H weapon master rolls every 1 again, as the engine did before it asked; Protection makes the first ATK on an ally
near her HARD) — the engine's readings before it asked; `never` declines them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from furnace.errors import FurnaceError, UnknownNameError

if TYPE_CHECKING:
    from furnace.play.combatant import Combatant
    from furnace.play.questions import Asking
    from furnace.rules.ruleset import Ruleset

POLICIES: dict[str, str] = {
    "keen": "Luck on a failed ATK it can turn into a hit; sunder when the blow would drop her; rage",
    "never": "never spends Luck, never sunders, never rages, never cleaves, uses no once-a-fight power",
    "dying": "Luck on a failed death or dying roll only",
    "sunder": "sunders when the blow would drop her; nothing else",
    "always": "Luck on any failed roll it can save; sunders every blow; rages",
}
REFEREE = "referee"
PICKS = ("cleave", "power")     # choices whose options are whom (or yes), then no


def check(name: str) -> str:
    """A policy's name, or the error naming the policies."""
    if name not in POLICIES:
        raise UnknownNameError("policy", name, list(POLICIES))
    return name


def parse(specs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`--policy party=dying --policy referee=never` (a bare name: every side) as {who: policy}."""
    out: dict[str, str] = {}
    for spec in specs:
        who, _, name = spec.rpartition("=")
        if not name:
            raise FurnaceError(f"a policy is WHO=NAME or NAME, not {spec!r}; the policies are {', '.join(POLICIES)}")
        out[who.strip() or "*"] = check(name.strip())
    return out


def standing(asking: Asking, owner: Combatant, rules: Ruleset) -> str:
    """The policy that answers for her: her player's, her side's, the referee's (a monster), every side's, the
    rules' default."""
    policies = asking.policies
    for key in (owner.player or "", owner.side, REFEREE if owner.kind != "pc" else "", "*"):
        if key and key in policies:
            return policies[key]
    return str(rules["default_policy"])


def decide(policy: str, kind: str, situation: Mapping[str, Any], options: tuple[str, ...]) -> str:
    """The policy's answer to one choice, from what it may weigh."""
    if kind == "luck":
        return "1" if _spends(policy, situation) and "1" in options else "0"
    if kind == "sunder":
        drops = bool(situation.get("drops"))
        return "yes" if policy == "always" or (policy in ("keen", "sunder") and drops) else "no"
    if kind == "rage":
        return "yes" if policy in ("keen", "always") else "no"
    if kind in PICKS:       # cleave, power: the first foe CLOSE, the first ally, or yes; never: no
        return "no" if policy == "never" else options[0]
    if kind == "helmet":
        return "yes"
    return options[-1]      # hit_dice: all she may spend


def _spends(policy: str, situation: Mapping[str, Any]) -> bool:
    """A Luck Die when it can save the roll (`saves`), on the rolls the policy spends on."""
    if not situation.get("saves"):
        return False
    if policy == "always":
        return True
    if policy == "dying":
        return bool(situation.get("death"))
    return policy == "keen" and situation.get("roll") == "ATK"


__all__ = ["POLICIES", "check", "decide", "parse", "standing"]
