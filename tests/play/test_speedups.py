"""The engine's compiled modules (`furnace.speedups`): the same fights as the pure Python, found only where they were
built from the sources as they are, and every one in use where CI requires them (FURNACE_SPEEDUPS=required)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from furnace import speedups

ROOT = Path(__file__).resolve().parents[2]
RUN = "import sys; from furnace.cli import main; sys.exit(main(sys.argv[1:]))"
IN_USE = "import json, furnace.play.simulate, furnace.speedups as s; print(json.dumps(s.in_use()))"


def python(*args: str, pure: bool = False) -> str:
    env = {k: v for k, v in os.environ.items() if k != speedups.PURE}
    if pure:
        env[speedups.PURE] = "1"
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_compiled_engine_fights_the_same_fights_as_the_pure_python() -> None:
    """300 fights of the example funnel under the Hazards profile, and a whole logged fight of the ogre, as `furnace
    simulate` and `furnace fight` report them: the same to the last number with the compiled modules or without."""
    simulate = ["-c", RUN, "simulate", "examples/funnel-vs-goblins.yaml", "--fights", "300", "--seed", "5",
                "--profile", "hazards", "--json"]
    fight = ["-c", RUN, "fight", "examples/party-vs-ogre.yaml", "--seed", "11", "--json"]
    for args in (simulate, fight):
        compiled, pure = python(*args), python(*args, pure=True)
        assert json.loads(compiled) == json.loads(pure)
    assert json.loads(python("-c", IN_USE, pure=True)) == dict.fromkeys(speedups.ENGINE, False)


@pytest.mark.skipif(os.environ.get(speedups.REQUIRED) != "required",
                    reason="the compiled modules are required only where FURNACE_SPEEDUPS=required (.ci/run sets it)")
def test_every_engine_module_runs_compiled_where_required() -> None:
    assert json.loads(python("-c", IN_USE)) == dict.fromkeys(speedups.ENGINE, True)
    assert "are compiled from their sources as they are" in python("scripts/build_speedups.py", "--check")


def test_a_module_edited_since_its_build_is_imported_from_its_source(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled file is named by its source's fingerprint: the importer finds the one built from the source as
    it is, and none once the source is edited (the usual import then reads the `.py`)."""
    name = "furnace.play.standing"
    monkeypatch.setattr(speedups, "FOLDER", str(tmp_path))
    monkeypatch.delenv(speedups.REQUIRED, raising=False)
    built = Path(speedups.compiled(name))
    assert built.parent == tmp_path and built.name.startswith(name + ".")
    built.write_bytes(b"")
    spec = speedups._Importer().find_spec(name)
    assert spec is not None and spec.origin == str(built)
    edited = tmp_path / "standing.py"
    edited.write_bytes(Path(speedups.source(name)).read_bytes() + b"# an edit\n")
    monkeypatch.setattr(speedups, "source", lambda _: str(edited))
    assert speedups.compiled(name) != str(built)
    assert speedups._Importer().find_spec(name) is None
    assert speedups._Importer().find_spec("furnace.play.clock") is None         # not an engine module: not asked
    monkeypatch.setattr(speedups, "source", lambda _: str(tmp_path / "none.py"))
    assert speedups._Importer().find_spec(name) is None          # no source to match: the usual import decides


def test_a_required_module_without_its_build_is_an_import_error(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speedups, "FOLDER", str(tmp_path))
    monkeypatch.setenv(speedups.REQUIRED, "required")
    with pytest.raises(speedups.StaleSpeedups, match=r"furnace\.play\.state has no compiled module"):
        speedups._Importer().find_spec("furnace.play.state")


def test_a_build_sweeps_what_no_engine_module_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`scripts/build_speedups.py` first removes the builds of modules no longer in ENGINE and any half-written
    file; an engine module's build, and another Python's, stay."""
    import importlib.util
    from importlib.machinery import EXTENSION_SUFFIXES

    spec = importlib.util.spec_from_file_location("build_speedups", ROOT / "scripts" / "build_speedups.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(speedups, "FOLDER", str(tmp_path))
    suffix = EXTENSION_SUFFIXES[0]
    kept = [f"furnace.play.state.0123abcd99{suffix}", "furnace.play.state.0123abcd99.cpython-399-other.so"]
    gone = [f"furnace.play.gone.0123abcd99{suffix}", f"furnace.play.luck.0123abcd99{suffix}.part"]
    for name in kept + gone:
        (tmp_path / name).write_bytes(b"")
    assert script.swept() == sorted(gone)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept)
