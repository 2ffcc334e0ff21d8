"""Reading a data file (a table, a profile, a fight, a disease): one place that turns a missing file or
broken YAML into a `DataFileError` naming the path and, where YAML says it, the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from furnace.errors import DataFileError


def read_yaml(path: Path | Any, what: str = "data file") -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else None
        raise DataFileError(str(path), f"not valid YAML ({what}): {getattr(exc, 'problem', None) or exc}",
                            where) from None
    except OSError as exc:
        raise DataFileError(str(path), f"cannot read the {what}: {exc.strerror}") from None
