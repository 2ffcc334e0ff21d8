"""Compile the fight engine's modules (`furnace.speedups.ENGINE`) with Cython into src/furnace/_compiled/.

    python scripts/build_speedups.py            # those whose source changed since their build (make does this)
    python scripts/build_speedups.py --check    # exit 1 when one is missing or stale, build nothing

Each module is compiled from a copy of its source as read once, and named by that text's fingerprint
(`speedups.compiled`), so a file edited during the build is simply built again next time. Compiled files of an
older source of the same module are removed. Without Cython or a C compiler it says so and leaves the engine in
pure Python (exit 0), unless FURNACE_SPEEDUPS=required (CI), where that is a failure (exit 1).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from furnace import speedups

JOBS = 2                    # the machine's two cores: gcc compiles two modules at a time
CFLAGS = ["-O2", "-g0"]     # no debug symbols: a tenth of the size, the same speed


def swept() -> list[str]:
    """Remove the compiled files of modules no longer in ENGINE, and any half-written one (a build killed while it
    copied): the files' names, none imported again in any case, which `_compiled/` would otherwise keep."""
    folder, gone, suffix = Path(speedups.FOLDER), [], EXTENSION_SUFFIXES[0]
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        if path.name.endswith(suffix):         # (another Python's builds are that Python's to sweep)
            if path.name[:-len(suffix)].rsplit(".", 1)[0] in speedups.ENGINE:
                continue
        elif not path.name.endswith(".part"):
            continue
        path.unlink()
        gone.append(path.name)
    return gone


def stale() -> list[str]:
    return [name for name in speedups.ENGINE if not os.path.isfile(speedups.compiled(name))]


@contextlib.contextmanager
def quiet(log: Path) -> Iterator[None]:
    """The compilers' chatter (gcc's warnings on generated C) into `log`, shown only if the build fails."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)


def build(names: list[str], tmp: Path) -> None:
    """Compile `names` from copies of their sources in `tmp`, then move each into place under its text's name."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    tree, texts = tmp / "src", {}
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts)):      # the packages' __init__ files: Cython names the module by its package
            init = tree.joinpath(*parts[:i], "__init__.py")
            init.parent.mkdir(parents=True, exist_ok=True)
            init.touch()
        texts[name] = Path(speedups.source(name)).read_bytes()
        tree.joinpath(*parts).with_suffix(".py").write_bytes(texts[name])
    extensions = [Extension(name, [str(tree.joinpath(*name.split(".")).with_suffix(".py"))], extra_compile_args=CFLAGS)
                  for name in names]
    with quiet(tmp / "build.log"):
        extensions = cythonize(extensions, compiler_directives=speedups.DIRECTIVES, nthreads=JOBS, quiet=True)
        command = Distribution({"ext_modules": extensions}).get_command_obj("build_ext")
        command.build_lib, command.build_temp, command.parallel = str(tmp / "lib"), str(tmp / "obj"), JOBS
        command.ensure_finalized()
        command.run()
    folder = Path(speedups.FOLDER)
    folder.mkdir(exist_ok=True)
    for name in names:
        target = Path(speedups.compiled(name, texts[name]))
        part = target.with_name(target.name + ".part")
        shutil.copyfile(command.get_ext_fullpath(name), part)
        os.replace(part, target)             # whole, or not at all: an import never sees half a file
        for old in folder.glob(f"{name}.*"):
            if old != target:
                old.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a module is missing or stale")
    args = parser.parse_args(argv)
    required = os.environ.get(speedups.REQUIRED) == "required"
    if not args.check:
        for name in swept():
            print(f"speedups: removed {name} (not an engine module's build)")
    names = stale()
    if not names:
        print(f"speedups: the {len(speedups.ENGINE)} engine modules are compiled from their sources as they are")
        return 0
    if args.check:
        print(f"speedups: not compiled from their sources as they are: {', '.join(names)}")
        return 1
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("speedups: Cython is not installed: the engine runs as pure Python (pip install -e '.[dev]')")
        return 1 if required else 0
    start = time.monotonic()
    print(f"speedups: compiling {len(names)} engine modules with Cython ({JOBS} at a time) …", flush=True)
    with tempfile.TemporaryDirectory(prefix="furnace-speedups-") as tmp:
        try:
            build(names, Path(tmp))
        except (Exception, SystemExit) as error:      # (distutils reports a compiler's failure as SystemExit)
            print((Path(tmp) / "build.log").read_text(errors="replace")[-4000:], file=sys.stderr)
            print(f"speedups: the build failed ({error}): the engine runs as pure Python", file=sys.stderr)
            return 1 if required else 0
    print(f"speedups: {len(names)} compiled in {time.monotonic() - start:.0f} s into {speedups.FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
