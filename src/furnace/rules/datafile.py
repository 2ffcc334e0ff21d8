"""Reading a data file (a table, a profile, a fight, a disease): one place that turns a missing file or
broken YAML into a `DataFileError` naming the path and, where YAML says it, the line.

A user's file is read through `furnace.files` (a regular file, at most `YAML_LIMIT` bytes, UTF-8). The
YAML is parsed into nodes first and refused when it nests deeper than `MAX_DEPTH` or, with its aliases
expanded, holds more than `MAX_NODES` values (a "billion laughs" file is a few lines long), or refers to
itself; only then is it built into Python values.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from furnace import files
from furnace.errors import DataFileError

YAML_LIMIT = 1024 * 1024     # the largest packaged table is 28 kB; YAML parses at about 1 MB a second
MAX_DEPTH = 64
MAX_NODES = 200_000

if TYPE_CHECKING:
    import yaml


@cache
def loader() -> type[yaml.SafeLoader]:
    """YAML's safe loader, libyaml's when installed. PyYAML is imported here, on the first file parsed, not with this
    module: a command whose tables come from the cache (`furnace.rules.cache`) parses no YAML (~10 ms of its start)."""
    import yaml

    found: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return found


def packaged(*parts: str) -> Path:
    """A packaged data file or folder (`furnace/data/…`) by its path: Furnace is installed as files (a wheel, an
    editable install), so no `importlib.resources` is imported (with zipfile and tempfile, ~5 ms of a command)."""
    return Path(__file__).resolve().parent.parent.joinpath("data", *parts)


def read_yaml(path: Path | Any, what: str = "data file") -> Any:
    """The YAML document in `path` (a user's path, or a packaged resource) as Python values."""
    if isinstance(path, str | os.PathLike):
        text = files.read_text(path, limit=YAML_LIMIT, what=f"the {what}")
    else:   # a packaged resource (importlib.resources) that is not a plain file
        text = path.read_text(encoding="utf-8")
    return parse_yaml(text, str(path), what)


def parse_yaml(text: str, path: str = "<text>", what: str = "data file") -> Any:
    """YAML text as Python values, within the depth and size limits; errors name `path` and the line."""
    import yaml

    parser = loader()(text)
    try:
        node = parser.get_single_node()
        if node is None:
            return None
        problem = _too_big(node)
        if problem is not None:
            raise DataFileError(path, f"not a usable {what}: {problem[0]}",
                                f"line {problem[1].start_mark.line + 1}" if problem[1].start_mark else None)
        return parser.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else None
        reason = getattr(exc, "problem", None) or _first_line(exc)
        raise DataFileError(path, f"not valid YAML ({what}): {reason}", where) from None
    except (ValueError, RecursionError) as exc:   # a value YAML cannot build: an over-long integer, a bad date
        raise DataFileError(path, f"not valid YAML ({what}): {_first_line(exc).split(';')[0]}") from None
    finally:
        parser.dispose()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class _Refused(Exception):
    def __init__(self, reason: str, node: yaml.Node) -> None:
        super().__init__(reason)
        self.reason, self.node = reason, node


def _too_big(root: yaml.Node) -> tuple[str, yaml.Node] | None:
    """Why the node graph is refused (and where), or None: deeper than MAX_DEPTH, more than MAX_NODES
    values once aliases are expanded, or an alias to a node that contains it."""
    import yaml

    seen: dict[int, tuple[int, int]] = {}      # a node's (values, height), aliases expanded
    open_nodes: set[int] = set()

    def measure(node: yaml.Node, depth: int) -> tuple[int, int]:
        key = id(node)
        if key in open_nodes:
            raise _Refused("an alias refers to a node that contains it", node)
        if key not in seen:
            if depth > MAX_DEPTH:
                raise _Refused(f"nested more than {MAX_DEPTH} levels deep", node)
            if isinstance(node, yaml.SequenceNode):
                children: list[yaml.Node] = list(node.value)
            elif isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            else:
                children = []
            open_nodes.add(key)
            total, height = 1, 1
            for child in children:
                size, tall = measure(child, depth + 1)
                total, height = total + size, max(height, 1 + tall)
                if total > MAX_NODES:
                    raise _Refused(f"more than {MAX_NODES:,} values once its aliases are expanded", node)
            open_nodes.discard(key)
            seen[key] = (total, height)
        total, height = seen[key]
        if depth + height - 1 > MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} levels deep", node)
        return total, height

    try:
        measure(root, 1)
    except _Refused as refused:
        return refused.reason, refused.node
    return None


def close_matches(word: str, names: Sequence[str], n: int, cutoff: float = 0.6) -> list[str]:
    """The names most like a mistyped one (difflib's), for an error's "did you mean"."""
    import difflib  # only on a miss: a command that names everything rightly never imports it (~3 ms)

    return difflib.get_close_matches(word, names, n=n, cutoff=cutoff)
