"""The bot compiled by its own build (`python -m bot.compiled build`: the engine and the action path compiled to C by
mypyc) in a worktree of a commit of one's choice, for measuring what compiling gives issue 17's figures side by side
with the plain code (`benchmarks/NOTES.md` has the figures, from 2026-12-07's fifty-second round on).

It checks out `--commit` (HEAD) into `--folder` (a new temporary folder) as a detached git worktree and runs that
commit's own build there (commits from 2026-12-07's fifty-third round on have it; the round before measured an older
commit with a patch of what mypyc needs, since landed: one chain of classes for `Tx`'s, `Hand`'s and `Tournament`'s
parts, the store as actions see it typed as a protocol, `bot.store.view.TxView`). Then measure the folder as any
checkout, for instance from the plain checkout `python benchmarks/against.py --commit FOLDER` (the folder is then the
*earlier* side: its ratio is the plain code's to the compiled) or `PYTHONPATH=FOLDER python
FOLDER/benchmarks/instructions.py --tables 1000`.

Run: `python benchmarks/compiled.py [--commit HEAD] [--folder DIR] [--opt-level 3]` (gcc and Python's headers needed;
some 3-6 minutes of gcc on this machine).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    """Check out and compile; print the folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to compile (HEAD)")
    parser.add_argument("--folder", type=Path, help="where to check it out (a new temporary folder)")
    parser.add_argument("--opt-level", default="3", help="gcc's optimisation level (3)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="pokerbot-compiled-")) / "checkout"
    subprocess.run(["git", "-C", str(HERE.parent), "worktree", "add", "--detach", str(folder), args.commit],
                   check=True)
    if not (folder / "bot" / "compiled.py").is_file():
        raise SystemExit(f"{args.commit} has no compiled build of its own (bot/compiled.py)")
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    built = subprocess.run([sys.executable, "-m", "bot.compiled", "build", "--opt-level", args.opt_level],
                           cwd=folder, env=environment, check=False)
    if built.returncode:
        raise SystemExit(built.returncode)
    print(folder)


if __name__ == "__main__":
    main()
