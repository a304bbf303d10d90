"""The bot with its action path compiled to C by mypyc (mypy's compiler for type-annotated Python): a prototype that
measures what compiling would give issue 17's figures, not a build the bot ships (the note in `benchmarks/NOTES.md`
of 2026-12-07's fifty-second round says why).

It checks out `--commit` (HEAD) into `--folder` (a new temporary folder) as a detached git worktree, applies
`benchmarks/mypyc.patch` there (what mypyc needs of the code: see below) and compiles the engine and the application's
modules but those listed in `LEFT_INTERPRETED` to C extensions beside their sources. Then measure the folder as any
checkout, for instance from the plain checkout `python benchmarks/against.py --commit FOLDER` (the folder is then
the *earlier* side: its ratio is the plain code's to the compiled) or `PYTHONPATH=FOLDER python
FOLDER/benchmarks/instructions.py --tables 1000`.

What mypyc needs of the code, as the patch does it (made at 71fa91d; a later commit may need it made again):
- no multiple inheritance of its own classes but from traits: `Hand`'s showdown half (`ShowdownPhases`) becomes a
  subclass of `HandState`, `Tournament`'s three parts a chain, and `Tx`'s seven a chain;
- no subclass of a built-in exception other than `Exception` (`ReplayError`, `BeatBeforeStart`), no
  `runtime_checkable` protocol (five `isinstance` checks become `hasattr`), no attribute named `_thread` (its C
  name is a keyword of gcc), two expressions its compiler cannot lower;
- `cast` is checked at run time, so the recording transaction (`bot.replay.RecordingTx`, a proxy through
  `__getattr__`, which compiled classes ignore) is typed `Any` where a `Tx` is expected.
`bot/commands.py` (a dataclass's `ClassVar` holding a dict), `bot/replay.py` (the proxy), `bot/terminal.py` and the
adapters stay interpreted. Compiled code checks its annotations at run time, so the engine's tests that hand it wrong
types (`RaiseTo(20.0)`) fail there with a `TypeError` rather than the rule's refusal.

Run: `python benchmarks/compiled.py [--commit HEAD] [--folder DIR]` (gcc and Python's headers needed; some 3-6
minutes of gcc on this machine).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATCH = HERE / "mypyc.patch"
COMPILED = ("engine", "bot", "bot/games", "bot/render", "bot/service", "bot/store")
"""The packages whose modules are compiled (each folder's own modules, not its subfolders')."""
LEFT_INTERPRETED = {"bot/__main__.py", "bot/commands.py", "bot/replay.py", "bot/terminal.py"}
"""Modules mypyc cannot compile as they are, or that are not on the action path."""
SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="pokerbot-compiled", ext_modules=mypycify({modules!r}, opt_level="3", multi_file=True))
"""


def modules(folder: Path) -> list[str]:
    """The modules to compile, as paths relative to `folder`."""
    found = [str(path.relative_to(folder)) for package in COMPILED for path in sorted((folder / package).glob("*.py"))]
    return [module for module in found if module not in LEFT_INTERPRETED]


def main() -> None:
    """Check out, patch and compile; print the folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to compile (HEAD)")
    parser.add_argument("--folder", type=Path, help="where to check it out (a new temporary folder)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="pokerbot-compiled-")) / "checkout"
    subprocess.run(["git", "-C", str(HERE.parent), "worktree", "add", "--detach", str(folder), args.commit],
                   check=True)
    subprocess.run(["git", "-C", str(folder), "apply", "--3way", str(PATCH)], check=True)
    setup = folder / "build" / "setup.py"
    setup.parent.mkdir(exist_ok=True)
    setup.write_text(SETUP.format(modules=modules(folder)))
    subprocess.run([sys.executable, str(setup), "build_ext", "--inplace"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    print(folder)


if __name__ == "__main__":
    main()
