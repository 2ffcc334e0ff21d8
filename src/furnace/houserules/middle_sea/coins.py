"""Coin and gem weight (RULES.md M.9): M-COIN-01 with the weight units of M-TAB-07, 100 coins or gems to the pound
and a gold-piece equivalent of 1/10 lb; a load is bridged as 1000 coins = 10 lb (CF-44).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from furnace.houserules.middle_sea.common import MiddleSeaError, _rules
from furnace.rules.ruleset import Ruleset

LB_PER_LOAD = 10   # CF-44: bridging, 1 load = 1000 coins = 10 lb


@dataclass(frozen=True)
class CoinWeight:
    coins: int
    gems: int
    pounds: Fraction
    gpe: Fraction
    load: Fraction

    def explain(self) -> str:
        return (f"{self.coins} coins and {self.gems} gems weigh {float(self.pounds):g} lb = {float(self.gpe):g} gpe "
                f"= {float(self.load):g} load (M-COIN-01; 1 load = 1000 coins = 10 lb, CF-44)")

    def to_dict(self) -> dict[str, Any]:
        return {"coins": self.coins, "gems": self.gems, "pounds": float(self.pounds), "gpe": float(self.gpe),
                "load": float(self.load)}


def coin_weight(coins: int, gems: int = 0, rules: Ruleset | None = None) -> CoinWeight:
    """M-COIN-01, M-TAB-07: 100 coins (or gems) to the pound; a gold-piece equivalent is 1/10 lb."""
    if coins < 0 or gems < 0:
        raise MiddleSeaError("coins and gems are counted from 0")
    table = _rules(rules).tables.get("coin-weight")

    def per_pound(key: str) -> int:
        return int(table.lookup(key).data["per_pound"])

    pounds = Fraction(coins, per_pound("coin")) + Fraction(gems, per_pound("gem"))
    return CoinWeight(coins, gems, pounds, pounds * per_pound("gp-equivalent"), pounds / LB_PER_LOAD)
