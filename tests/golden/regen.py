"""Write the golden logs anew (only when a rule changed on purpose)."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from furnace.cli.app import main
from tests.golden.cases import CASES

LOGS = Path(__file__).parent / "logs"

if __name__ == "__main__":
    os.chdir(Path(__file__).resolve().parents[2])
    # a home of its own, as the tests have: the developer's campaign in use must not change a funnel's output
    home = Path(tempfile.mkdtemp())
    os.environ.update(FURNACE_DATA_DIR=str(home / "data"), FURNACE_CONFIG_DIR=str(home / "config"))
    for name in ("FURNACE_CAMPAIGN", "FURNACE_DATABASE_URL"):
        os.environ.pop(name, None)
    for name, argv in CASES.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(argv) == 0, name
        (LOGS / f"{name}.txt").write_text(out.getvalue(), encoding="utf-8")
