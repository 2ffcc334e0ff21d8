"""What the console is started with: the database, the referee's sign-in token, the dice, the live log's pace."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from furnace import dice
from furnace.campaign.access import new_token

DEMO = "Demo"


@dataclass
class WebSettings:
    """`db`: a SQLite path or a database URL (None: the default file); `referee_token`: the start link's token
    (printed by `furnace serve`); `rng`: a dice source per command (system randomness on a server, seeded in
    tests); `poll`: how often the live log looks for events written by another process (seconds)."""

    db: str | None = None
    referee_token: str = field(default_factory=new_token)
    rng: Callable[[], dice.DiceSource] = dice.system
    poll: float = 0.25
    demo: bool = True
    keepalive: float = 15.0
