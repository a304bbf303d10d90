"""The bot with its action path compiled to C by mypyc (mypy's compiler for type-annotated Python), in a worktree of
a commit of one's choice, for measuring what compiling gives issue 17's figures side by side with the plain code
(`python -m bot.compiled build` is the user's build, in place in the checkout; the note in `benchmarks/NOTES.md` of
2026-12-07's fifty-second round has the first figures).

It checks out `--commit` (HEAD) into `--folder` (a new temporary folder) as a detached git worktree, applies
`benchmarks/mypyc.patch` there (what mypyc needs of the code: see below) and compiles it with the bot's own build
(`bot.compiled.build`: the engine and the application's modules but those it leaves interpreted, to C extensions
beside their sources, and its stamp). Then measure the folder as any checkout, for instance from the plain checkout
`python benchmarks/against.py --commit FOLDER` (the folder is then the *earlier* side: its ratio is the plain code's
to the compiled) or `PYTHONPATH=FOLDER python FOLDER/benchmarks/instructions.py --tables 1000`.

What mypyc needs of the code, as the patch does it (made at 71fa91d; a later commit may need it made again):
- no multiple inheritance of its own classes but from traits: `Hand`'s showdown half (`ShowdownPhases`) becomes a
  subclass of `HandState`, `Tournament`'s three parts a chain, and `Tx`'s seven a chain;
- no subclass of a built-in exception other than `Exception` (`ReplayError`, `BeatBeforeStart`), no
  `runtime_checkable` protocol (five `isinstance` checks become `hasattr`), no attribute named `_thread` (its C
  name is a keyword of gcc), two expressions its compiler cannot lower;
- `cast` is checked at run time, so the recording transaction (`bot.replay.RecordingTx`, a proxy through
  `__getattr__`, which compiled classes ignore) is typed `Any` where a `Tx` is expected.
`bot/commands.py` (a dataclass's `ClassVar` holding a dict), `bot/replay.py` (the proxy), `bot/terminal.py` and the
adapters stay interpreted (`bot.compiled.LEFT_INTERPRETED`). Compiled code checks its annotations at run time, so
the engine's tests that hand it wrong types (`RaiseTo(20.0)`) fail there with a `TypeError` rather than the rule's
refusal.

Run: `python benchmarks/compiled.py [--commit HEAD] [--folder DIR]` (gcc and Python's headers needed; some 3-6
minutes of gcc on this machine).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from bot.compiled import BuildError, build

HERE = Path(__file__).resolve().parent
PATCH = HERE / "mypyc.patch"


def main() -> None:
    """Check out, patch and compile; print the folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to compile (HEAD)")
    parser.add_argument("--folder", type=Path, help="where to check it out (a new temporary folder)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="pokerbot-compiled-")) / "checkout"
    subprocess.run(["git", "-C", str(HERE.parent), "worktree", "add", "--detach", str(folder), args.commit],
                   check=True)
    # what mypyc needs of the code until main has it; drop this step (and the patch) once it has
    subprocess.run(["git", "-C", str(folder), "apply", "--3way", str(PATCH)], check=True)
    try:
        build(folder)
    except BuildError as error:
        raise SystemExit(f"{error.output}build failed: {error}") from error
    print(folder)


if __name__ == "__main__":
    main()
