"""The installed packages' entry points, read without `importlib.metadata`: the chapters' (`furnace.chapters`, read by
`furnace.play.registry`) and Pydantic's plug-ins' (`furnace.cli.startup`, asked by every command that builds a model,
which need not import the registries for it).
"""

from __future__ import annotations

import os
import sys


def entry_points(group: str) -> dict[str, str]:
    """The installed packages' entry points of `group` (name → "module[:attr]"), read from each
    distribution's `entry_points.txt` on `sys.path` (the first of a name wins, as importing would).

    What `importlib.metadata.entry_points(group=…)` answers, without importing it: that import alone costs
    a command about 50 ms (email, zipfile, csv), a third of `furnace fight`'s start. The files are read once a
    process, every group at once (the CLI asks for pydantic's plugins too, `furnace.cli.app`)."""
    return dict(_installed().get(group, {}))


_INSTALLED: list[dict[str, dict[str, str]]] = []


def _installed() -> dict[str, dict[str, str]]:
    """Every group's entry points of the installed distributions, read on first use."""
    if not _INSTALLED:
        _INSTALLED.append(_read_installed())
    return _INSTALLED[0]


def _read_installed() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    seen: set[str] = set()
    for folder in sys.path:
        try:
            names = sorted(n for n in os.listdir(folder or ".") if n.endswith((".dist-info", ".egg-info")))
        except OSError:            # not a folder (a zip, a missing path)
            continue
        for name in names:
            dist = name.partition("-")[0].lower().replace("_", "-").replace(".", "-")
            if dist in seen:       # an older copy further down sys.path is not what imports
                continue
            seen.add(dist)
            try:
                with open(os.path.join(folder or ".", name, "entry_points.txt"), encoding="utf-8") as stream:
                    text = stream.read()
            except OSError:
                continue
            for group, entry, target in _sections(text):
                found.setdefault(group, {}).setdefault(entry, target)
    return found


def _sections(text: str) -> list[tuple[str, str, str]]:
    """The `name = target` lines of an entry_points.txt (an INI file), each with its `[group]`."""
    entries: list[tuple[str, str, str]] = []
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            group = line[1:].partition("]")[0].strip()
        elif group is not None and "=" in line:
            name, _, target = line.partition("=")
            entries.append((group, name.strip(), target.strip()))
    return entries
