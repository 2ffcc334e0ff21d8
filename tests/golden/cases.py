"""The CLI runs whose output must not change while the package is rearranged or made faster."""

from __future__ import annotations

CASES: dict[str, list[str]] = {
    # --explain: the log with its rule ids, as it was before they were kept for --explain (issue 12)
    **{f"fight-funnel-goblins-seed{s}": ["fight", "examples/funnel-vs-goblins.yaml", "--seed", str(s), "--explain"]
       for s in (1, 2, 3, 4)},
    **{f"fight-ogre-{p}-seed{s}": ["fight", "examples/party-vs-ogre.yaml", "--seed", str(s), "--profile", p,
                                   "--explain"] for p in ("furnace", "hazards", "middle-sea") for s in (1, 3, 5)},
    "fight-ogre-json-seed3": ["fight", "examples/party-vs-ogre.yaml", "--seed", "3", "--json"],
    **{f"funnel-seed{s}": ["funnel", "--players", "4", "--seed", str(s)] for s in (1, 2, 3)},
    "funnel-json-seed7": ["funnel", "--players", "2", "--seed", "7", "--json"],
    "demo-seed1": ["demo", "--seed", "1"],
    "character-new-seed2": ["character", "new", "--class", "Fighter", "--level", "3", "--seed", "2", "--random",
                            "--json"],
}
