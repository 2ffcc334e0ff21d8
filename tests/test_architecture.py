"""The house rules of the code itself: layers (import-linter, run by `make test`), no import circle, no
module over 600 lines, a docstring on every subpackage, and a cheap `import furnace`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "furnace"


def _cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """A depth-first search for a circle among the package's modules (function-level imports included)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph.modules):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_circle() -> None:
    graph = grimp.build_graph("furnace", include_external_packages=False, exclude_type_checking_imports=True,
                              cache_dir=None)      # no cache written into the checkout, which two runs may share
    # a package's __init__ that re-exports its own modules is not a circle of rules: leave those edges out
    for module in sorted(graph.modules):
        for imported in list(graph.find_modules_directly_imported_by(module)):
            if imported.startswith(module + "."):
                graph.remove_import(importer=module, imported=imported)
    assert _cycle(graph) is None


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_over_600_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


@pytest.mark.parametrize("package", sorted(p.parent for p in SRC.rglob("__init__.py")),
                         ids=lambda p: str(p.relative_to(SRC.parent)))
def test_every_subpackage_says_what_lives_there(package: Path) -> None:
    assert ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))


def test_import_furnace_is_cheap() -> None:
    """`import furnace` loads no engine: tools that only roll dice start fast (`speedups` is the importer of the
    engine's compiled modules, which imports none of them)."""
    code = "import sys, furnace; print(' '.join(sorted(m for m in sys.modules if m.startswith('furnace'))))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert set(loaded) <= {"furnace", "furnace.errors", "furnace.speedups"}


@pytest.mark.parametrize("package", ["rules", "characters", "play", "magic", "render"])
def test_the_public_api_of_each_layer(package: str) -> None:
    """`__all__` lists exactly the lazy exports; each resolves; the type checker sees the same names."""
    import importlib

    module = importlib.import_module(f"furnace.{package}")
    exports = module._EXPORTS
    assert module.__all__ == sorted(exports)
    assert not set(exports) & {p.stem for p in (SRC / package).glob("*.py")}, "a name that is also a module"
    for name, where in exports.items():
        assert getattr(module, name) is getattr(importlib.import_module(f"furnace.{package}.{where}"), name)
    tree = ast.parse((SRC / package / "__init__.py").read_text(encoding="utf-8"))
    typed = {(alias.name, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names if node.module and node.module.startswith(f"furnace.{package}.")}
    assert typed == {(n, f"furnace.{package}.{m}") for n, m in exports.items()}
