"""The opt-in compiled build (issue 17): the engine and the action path compiled in place to C extensions by mypyc,
the stamp saying what they were compiled from, and the guard that refuses a build older than its sources.

`python -m bot.compiled build [--opt-level N] | clean | status`. A C extension beside a module's source is imported
in its place, so a source changed after the build would run its old code: `pokerbot` and the test suite refuse to
start while `stale()` names a module. This module is never compiled itself (the guard runs it as it is written).

The dataclasses an action makes (the engine's events, moves and views of a hand, `Action`, `Reply`, `Voice`, a
scheduler's `Timer`…) write their `__init__` out, each marked "written out, not generated": mypyc compiles a
dataclass's class, but the `__init__` the `dataclass` decorator makes as the module is imported is Python, so compiled
code made each such object through the interpreter (a frozen class of three fields some 600 ns, against some 50 with
its own). `tests/test_compilable.py` checks each against its fields, and that no dataclass derives from one without
writing its own too: compiled, a subclass makes its objects through its base's `__init__`, never the generated one.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterable
from pathlib import Path

from engine import STAMP, compiled_libraries

ROOT = Path(__file__).resolve().parents[1]
"""The checkout whose modules are compiled in place."""
COMPILED = ("engine", "engine/house", "bot", "bot/games", "bot/render", "bot/service", "bot/store")
"""The packages whose modules are compiled (each folder's own modules, not its subfolders')."""
LEFT_INTERPRETED = frozenset({"bot/__init__.py", "bot/__main__.py", "bot/commands.py", "bot/compiled.py",
                              "bot/games/__init__.py", "bot/terminal.py", "engine/__init__.py"})
"""Modules mypyc cannot compile as they are (`bot/commands.py`: a dataclass's class variable holding a dict;
`bot/games/__init__.py`: runtime-checkable protocols, which mypyc compiles into classes `runtime_checkable` refuses),
that are not on the action path (the terminal, the entry point), or that must run as written (this one;
`engine/__init__.py` and `bot/__init__.py`, which load the build's shared library before any compiled module needs
it)."""
WORK = Path("build", "compiled")
"""The build's temporary files (mypyc's C, gcc's objects, the setup script and the log), under the root."""
LOG = WORK / "build.log"
TAIL = 20
"""How many of a failed build's last lines of output the command line shows."""
SHOWN = 5
"""How many stale modules a refusal names before it counts the rest."""
WAYS_OUT = "build again (python -m bot.compiled build) or clean (python -m bot.compiled clean)"
SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="pokerbot-compiled", ext_modules=mypycify(["--cache-dir", {cache!r}, *{modules!r}], opt_level={opt_level!r},
                                                     multi_file=True, target_dir={target!r}))
"""


class BuildError(Exception):
    """Why the compiled build could not be made, in one line that says what to do; `output` is the end of a failed
    build's log (empty when it did not start)."""

    def __init__(self, reason: str, output: str = "") -> None:
        super().__init__(reason)
        self.output = output


def modules(root: Path | None = None) -> list[str]:
    """The modules to compile, as paths relative to `root` (the checkout's)."""
    root = root or ROOT
    found = [path.relative_to(root).as_posix() for package in COMPILED for path in (root / package).glob("*.py")]
    return sorted(module for module in found if module not in LEFT_INTERPRETED)


def digest(path: Path) -> str | None:
    """The SHA-256 of a source, in hex; None when it is gone."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def digests(root: Path, compiled: list[str]) -> dict[str, str | None]:
    """The digest of each module's source, by its path relative to `root`: what the stamp keeps."""
    return {module: digest(root / module) for module in compiled}


def write_stamp(root: Path, sources: dict[str, str | None], opt_level: str) -> None:
    """Record what the build at `root` compiled: the modules' digests (`digests`, taken before compiling them)."""
    (root / STAMP).write_text(json.dumps({"opt_level": opt_level, "modules": sources}, indent=1) + "\n")


def stamped(root: Path) -> dict[str, str] | None:
    """The modules the stamp says were compiled, with their sources' digests; None without a readable stamp."""
    try:
        built = json.loads((root / STAMP).read_text())["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return built if isinstance(built, dict) else None


def extension_files(root: Path, built: Iterable[str] = ()) -> list[Path]:
    """The C extensions a build leaves: every one in the compiled packages' folders (and in the folders of the
    modules `built`), and the shared libraries at the root (`engine.compiled_libraries`)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    folders = {root / package for package in COMPILED} | {(root / module).parent for module in built}
    found = [path for folder in folders if folder.is_dir() for path in folder.iterdir() if path.name.endswith(suffixes)]
    return sorted({*found, *compiled_libraries(root)})


def stale(root: Path | None = None) -> list[str]:
    """The compiled modules whose source changed since the build (or is gone); all the modules to compile when
    extensions are there without a readable stamp; empty when nothing is compiled (no extension, whatever a stamp
    left behind says). Hashes the sources only when both are there."""
    root = root or ROOT
    built = stamped(root)
    if not extension_files(root, built or ()):
        return []
    if built is None:
        return modules(root)
    return sorted(module for module, source in built.items() if digest(root / module) != source)


def stale_reason(root: Path, changed: list[str]) -> str:
    """What is wrong with a stale build (`changed` is `stale(root)`, not empty) and the two ways out."""
    named = ", ".join(changed[:SHOWN]) + (f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else "")
    if stamped(root) is None:
        what = f"C extensions with no readable stamp ({STAMP}) saying what they were compiled from ({named})"
    else:
        what = (f"{len(changed)} compiled module{'s' if len(changed) > 1 else ''} changed since the build ({named}) "
                "and would run the old code")
    return f"{what}; {WAYS_OUT}"


def refusal(root: Path | None = None) -> str | None:
    """Why `pokerbot` and the test suite refuse to run a stale compiled build; None when there is no build or it is
    current."""
    root = root or ROOT
    changed = stale(root)
    return f"the compiled build is stale: {stale_reason(root, changed)}" if changed else None


def cannot_build() -> str | None:
    """Why this machine cannot compile the bot (no mypyc, no C compiler, no Python headers); None when it can."""
    for package in ("mypyc", "setuptools"):
        if importlib.util.find_spec(package) is None:
            return f"{package} is not installed: pip install -e '.[compiled]'"
    compiler = (sysconfig.get_config_var("CC") or "gcc").split()[0]
    if shutil.which(compiler) is None:
        return f"the C compiler {compiler} is not installed (Debian: apt install build-essential)"
    headers = Path(sysconfig.get_paths()["include"])
    if not (headers / "Python.h").is_file():
        return f"Python's headers are not installed: no Python.h in {headers} (Debian: apt install python3-dev)"
    return None


def clean(root: Path | None = None) -> list[Path]:
    """Remove the compiled build: its C extensions, its stamp and its temporary files. Returns the extensions and
    the stamp it removed."""
    root = root or ROOT
    removed = extension_files(root, stamped(root) or ())
    if (root / STAMP).exists():
        removed.append(root / STAMP)
    for path in removed:
        path.unlink()
    remove_work(root)
    return removed


def remove_work(root: Path) -> None:
    """Remove the build's temporary files, and `build/` when nothing else is in it."""
    shutil.rmtree(root / WORK, ignore_errors=True)
    with contextlib.suppress(OSError):  # not there, or holding what another build left
        (root / WORK).parent.rmdir()


def build(root: Path | None = None, opt_level: str = "3") -> list[str]:
    """Compile `modules(root)` in place with mypyc, in a subprocess running setuptools' `build_ext --inplace` in
    `root`, after removing any earlier build; then write the stamp. Returns the modules compiled. Raises `BuildError`
    when the machine cannot build (before touching anything) or the build fails (its extensions removed again, its
    log kept)."""
    root = root or ROOT
    reason = cannot_build()
    if reason is not None:
        raise BuildError(reason)
    compile_modules = modules(root)
    clean(root)
    sources = digests(root, compile_modules)
    work = root / WORK
    work.mkdir(parents=True)
    setup = work / "setup.py"
    setup.write_text(SETUP.format(modules=compile_modules, opt_level=opt_level, target=(WORK / "c").as_posix(),
                                 cache=(WORK / "mypy_cache").as_posix()))
    command = [sys.executable, str(setup), "build_ext", "--inplace", "--build-temp", str(WORK / "temp"),
               "--build-lib", str(WORK / "lib")]
    try:
        with (root / LOG).open("w") as log:
            done = subprocess.run(command, cwd=root, stdout=log, stderr=subprocess.STDOUT, check=False)
        if done.returncode != 0:
            output = "".join((root / LOG).read_text().splitlines(keepends=True)[-TAIL:])
            raise BuildError(f"mypyc or the C compiler stopped (exit status {done.returncode}); its output is in "
                             f"{root / LOG}", output)
    except BaseException:  # failed or interrupted: a half-made build would shadow its sources
        for path in extension_files(root, sources):
            path.unlink()
        raise
    write_stamp(root, sources, opt_level)
    remove_work(root)
    return compile_modules


def status(root: Path | None = None) -> tuple[str, int]:
    """The build's state in one line (interpreted, compiled and current, or stale), and the exit status: 1 when
    stale."""
    root = root or ROOT
    changed = stale(root)
    if changed:
        return f"stale: {stale_reason(root, changed)}", 1
    built = stamped(root)
    if built is None or not extension_files(root, built):
        return "interpreted: nothing is compiled", 0
    return f"compiled and current: {len(built)} modules", 0


def main(argv: list[str] | None = None) -> int:
    """The command line: `build`, `clean` or `status`."""
    parser = argparse.ArgumentParser(prog="python -m bot.compiled",
                                     description="The compiled build of pokerbot (mypyc), for many tables.")
    commands = parser.add_subparsers(dest="command", required=True)
    building = commands.add_parser("build", help="compile the engine and the action path in place")
    building.add_argument("--opt-level", choices=("0", "1", "2", "3"), default="3", help="gcc's -O level (3)")
    commands.add_parser("clean", help="remove the compiled build: pokerbot runs the sources")
    commands.add_parser("status", help="interpreted, compiled and current, or which modules are stale")
    args = parser.parse_args(argv)
    if args.command == "status":
        line, code = status()
        print(line)
        return code
    if args.command == "clean":
        removed = clean()
        print(f"removed the compiled build ({len(removed)} files): pokerbot runs the sources" if removed
              else "nothing to clean: nothing is compiled")
        return 0
    reason = cannot_build()
    if reason is not None:
        print(f"build failed: {reason}", file=sys.stderr)
        return 1
    count = len(modules())
    print(f"compiling {count} modules with mypyc at opt level {args.opt_level} (some minutes of gcc; its output "
          f"goes to {ROOT / LOG})", flush=True)
    started = time.monotonic()
    try:
        build(opt_level=args.opt_level)
    except BuildError as error:
        print(f"{error.output}build failed: {error}", file=sys.stderr)
        return 1
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    print(f"compiled {count} modules in {minutes} min {seconds} s: pokerbot runs them now; after changing a source "
          f"{WAYS_OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
