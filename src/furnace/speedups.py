"""The fight engine's hot modules, compiled by Cython from their own Python source: the same code, run faster.

A fight is thousands of small Python calls (a blow, a fact, a change of a combatant), and the interpreter's cost
of each call and look-up is most of its time. Cython turns the very same `.py` files, unchanged and untyped, into C
extension modules that make those calls and look-ups without the interpreter's loop (about 1.3× the fights a
second; `benchmarks/bench_engine.py` measures both). Nothing is written twice: the source stays the one truth, and
the pure Python runs wherever no compiled module matches it.

How a compiled module is found, never a stale one: `build()` (run by `make`, `python -m furnace.speedups`) writes
each module of `ENGINE` into `_compiled/` under a name holding its source's fingerprint
(`furnace.play.state.<crc>.cpython-311-x86_64-linux-gnu.so`), and the importer `install()` puts first asks, for
these names alone, for the file of the source as it is now: a module edited since its build has no such file and
is imported from its source, as any module is. `FURNACE_PURE=1` imports them all from source (a debugger, a
profiler, coverage); `FURNACE_SPEEDUPS=required` (CI) fails an import that finds no compiled module.
"""

from __future__ import annotations

import os
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec

# the modules a fight runs through, hottest first (a profile of `furnace simulate`): each compiled on its own
ENGINE = (
    "furnace.play.state", "furnace.play.attacks", "furnace.play.encounter", "furnace.play.death",
    "furnace.play.standing", "furnace.play.apply", "furnace.play.choosing", "furnace.play.styles",
    "furnace.play.frozen", "furnace.play.luck", "furnace.play.countdown",
)
# (os.path, not pathlib: every command imports this module, `furnace roll` among them, which needs no pathlib)
PACKAGE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(PACKAGE, "_compiled")
PURE = "FURNACE_PURE"              # set (not "0"): every module from its source
REQUIRED = "FURNACE_SPEEDUPS"      # "required": a module of ENGINE without its compiled file is an error
# how Cython compiles them: Python's own semantics (annotations are not C types; functions are Python functions
# that `inspect` reads), only faster
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


class StaleSpeedups(ImportError):
    """`FURNACE_SPEEDUPS=required` and a module of ENGINE has no compiled file for its source as it is now."""


def source(name: str) -> str:
    """The `.py` file of an ENGINE module."""
    return os.path.join(PACKAGE, *name.split(".")[1:]) + ".py"


def compiled(name: str, text: bytes | None = None) -> str:
    """Where the module compiled from its source as it is now (or from `text`) is, or would be: its name, the
    source's CRC-32 and length (a changed file has others), and this interpreter's suffix for extension modules."""
    if text is None:
        with open(source(name), "rb") as file:
            text = file.read()
    return os.path.join(FOLDER, f"{name}.{zlib.crc32(text):08x}{len(text):x}{EXTENSION_SUFFIXES[0]}")


class _Importer:
    """Finds the compiled module of an ENGINE name when its file matches the source (else the usual import)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname not in _NAMES:
            return None
        try:
            found = compiled(fullname)
        except OSError:          # no source to match (a package shipped without it): the usual import decides
            return None
        if not os.path.isfile(found):
            if os.environ.get(REQUIRED) == "required":
                raise StaleSpeedups(f"{fullname} has no compiled module for its source: run `make speedups`")
            return None
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, found), origin=found)
        spec.has_location = True        # (its __file__ is the compiled file)
        return spec


_NAMES = frozenset(ENGINE)
_IMPORTER = _Importer()


def install() -> None:
    """Put the importer first, unless `FURNACE_PURE` asks for the source or nothing was ever built (it then costs
    nothing)."""
    if os.environ.get(PURE, "0") != "0" or _IMPORTER in sys.meta_path:
        return
    if os.path.isdir(FOLDER) or os.environ.get(REQUIRED) == "required":
        sys.meta_path.insert(0, _IMPORTER)


def in_use() -> dict[str, bool]:
    """Each ENGINE module imported so far: True when it runs compiled."""
    return {name: isinstance(getattr(sys.modules[name].__spec__, "loader", None), ExtensionFileLoader)
            for name in ENGINE if name in sys.modules}
