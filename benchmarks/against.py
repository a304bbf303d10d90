"""Saturated actions/s of this checkout against an earlier commit's (or another checkout's folder), alternated in the
same minutes: each checkout's own `benchmarks/service.py` run in a process of its own, `--pairs` times each, the
earlier one first in every other pair. Timed figures here drift by ±25% within minutes (`benchmarks/NOTES.md`), so
only a ratio measured so means anything; the default commit is main just before the first of issue 17's work
(31082c6), the code whose rate that issue asks to double.

Order alone moved the figures: with each run's files left behind, whichever run of a pair went first was some 6%
faster (the eighteenth round, timing pairs outside this script that always put the old code first). So every run
starts on a synced disk, its temporary files removed after it, and the ratio is printed for either order apart as
well as over all pairs: a difference between the two is the machine's, not the change's.

The earlier checkout is extracted with `git archive` into a temporary folder (a folder given instead is used as it is: a
prototype, say, with modules compiled in place); what its `pyproject.toml` depends on and this environment lacks
(aiosqlite before 0.23, for 31082c6) is installed beside it with `pip install --target`, from the package index pip is
configured with. Both checkouts' modules are compiled to bytecode first (`compile_bytecode`). Printed: each run's raw
single-row commit rate and saturated actions/s, each pair's ratio, the pairs' ratios summed up with how far they
spread (`spread`: a change whose interval holds 1.00 is not shown by these pairs), the ratio of the means in either
order, and over all pairs. Run: `python benchmarks/against.py [--commit 31082c6 | --commit FOLDER] [--pairs 3]
[--tables 1000] [--seconds 5] [--concurrency 64]`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path
from typing import NamedTuple

from arguments import at_least_one, more_than_zero  # beside this file
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
ISSUE_17_BASE = "31082c6"
"""Main just before the first merge of issue 17's work ('scale', 48e8293)."""


class Run(NamedTuple):
    """One run of a checkout's `benchmarks/service.py`."""

    raw: float
    """Raw single-row sqlite3 commits/s in the same run."""
    rate: float
    """Saturated actions/s."""


def extract(commit: str, folder: Path) -> Path:
    """The files of `commit` in `folder/checkout`, with what its dependencies need and this environment lacks
    installed in `folder/lib` (a folder to put on `PYTHONPATH` after the checkout)."""
    checkout, lib = folder / "checkout", folder / "lib"
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(checkout, filter="data")
    missing = missing_requirements(checkout / "pyproject.toml")
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(lib), *missing],
                       check=True)
    return checkout


def compile_bytecode(checkout: Path) -> None:
    """Compile the checkout's modules to bytecode beforehand, as an installed or long-used checkout has them: a
    process that compiled its modules from their source first ran some 10% slower in its timed phases (twenty-fourth
    round: the same commit against itself, extracted without `.pyc` files, 1.22x over three pairs; compiled, 1.05x
    over two), its heap laid out around the compiler's garbage. So both sides of every pair run compiled code."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(part for part in ("bot", "engine", "benchmarks")
                                                            if (checkout / part).is_dir())],
                   cwd=checkout, check=True, stdout=subprocess.DEVNULL)


def missing_requirements(pyproject: Path) -> list[str]:
    """The project's dependencies that no installed distribution satisfies (absent, or of another version)."""
    declared = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    missing = []
    for text in declared:
        requirement = Requirement(text)
        try:
            installed = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(text)
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            missing.append(text)
    return missing


def run_service(checkout: Path, tables: int, seconds: float, concurrency: int) -> Run:
    """Run `checkout`'s `benchmarks/service.py` with its own code first on the path, on a synced disk, its temporary
    files removed after it (see the module's docstring): its two rates."""
    path = [str(checkout), str(checkout.parent / "lib"), os.environ.get("PYTHONPATH", "")]
    os.sync()  # the last run's writes reach the disk before this one starts, not during it
    temporary = tempfile.mkdtemp(prefix="against-")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(part for part in path if part), "TMPDIR": temporary}
    try:
        done = subprocess.run(
            [sys.executable, "benchmarks/service.py", "--tables", str(tables), "--seconds", str(seconds),
             "--concurrency", str(concurrency), "--history-hands", "200"],
            cwd=checkout, env=environment, capture_output=True, text=True)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}'s benchmark failed:\n{done.stderr[-3000:]}")
    return Run(_figure(done.stdout, r"raw sqlite3 single-row commits/s[^:]*: ([\d,]+)"),
               _figure(done.stdout, r"service actions/s[^:]*: ([\d,]+)"))


def _figure(output: str, pattern: str) -> float:
    found = re.search(pattern, output)
    if found is None:
        raise SystemExit(f"no figure matching {pattern!r} in:\n{output}")
    return float(found.group(1).replace(",", ""))


def main() -> None:
    """Parse the options, run the pairs, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", default=ISSUE_17_BASE,
                        help="the earlier commit to compare with, or a checkout's folder")
    parser.add_argument("--pairs", type=at_least_one("pairs"), default=3)
    parser.add_argument("--tables", type=at_least_one("tables"), default=1000)
    parser.add_argument("--seconds", type=more_than_zero, default=5.0)
    parser.add_argument("--concurrency", type=at_least_one("players"), default=64, help="players pressing at once")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        given = Path(options.commit)
        earlier = given.resolve() if given.is_dir() else extract(options.commit, Path(folder))
        for checkout in (earlier, ROOT):
            compile_bytecode(checkout)
        runs: dict[str, list[Run]] = {"earlier": [], "this": []}
        for pair in range(options.pairs):
            order = ("earlier", "this") if pair % 2 == 0 else ("this", "earlier")
            for name in order:
                run = run_service(earlier if name == "earlier" else ROOT, options.tables, options.seconds,
                                  options.concurrency)
                runs[name].append(run)
                print(f"pair {pair + 1}, {name}: {run.rate:,.0f} actions/s (raw commits {run.raw:,.0f}/s)",
                      flush=True)
            print(f"pair {pair + 1}: {runs['this'][-1].rate / runs['earlier'][-1].rate:.2f}x", flush=True)
    ratios = [this.rate / before.rate for this, before in zip(runs["this"], runs["earlier"], strict=True)]
    print(f"pairs' ratios: {describe_spread(ratios)}")
    print(f"either order: {order_ratios(runs)}")
    this, before = (statistics.mean(run.rate for run in runs[name]) for name in ("this", "earlier"))
    print(f"{options.tables:,} tables, {options.pairs} pairs: this checkout {this:,.0f} actions/s, {options.commit} "
          f"{before:,.0f}: {this / before:.2f}x")


SPREAD_RESAMPLES = 2000
"""Resamples of the pairs `spread` draws."""


def spread(ratios: list[float], resamples: int = SPREAD_RESAMPLES, seed: int = 0) -> tuple[float, float, float]:
    """The pairs' ratios summed up: their geometric mean, and the 5th and 95th percentiles of the geometric means of
    `resamples` draws of as many pairs, with replacement, from them (a bootstrap: how far the machine's drift alone
    could move the figure with this many pairs; with few pairs it is narrower than the truth, a rough guide). Seeded,
    so that the same pairs always read the same."""
    logs = [math.log(ratio) for ratio in ratios]
    draw = random.Random(seed)
    means = sorted(statistics.fmean(draw.choices(logs, k=len(logs))) for _ in range(resamples))
    low, high = means[int(0.05 * (resamples - 1))], means[int(0.95 * (resamples - 1))]
    return math.exp(statistics.fmean(logs)), math.exp(low), math.exp(high)


def describe_spread(ratios: list[float]) -> str:
    """`spread`'s figures as a line of text, saying whether the pairs show a change at all."""
    middle, low, high = spread(ratios)
    if len(ratios) < 2:
        return f"{middle:.2f}x (one pair: no spread to tell the drift from a change)"
    verdict = "within the drift" if low <= 1.0 <= high else ("faster" if low > 1.0 else "slower")
    return (f"{middle:.2f}x (geometric mean), 90% of resampled pairs within {low:.2f}-{high:.2f}x: {verdict} "
            f"over {len(ratios)} pairs")


def order_ratios(runs: dict[str, list[Run]]) -> str:
    """This checkout's mean rate over the earlier one's in the pairs where the earlier ran first (the even ones,
    counted from 0) and in those where this one did."""
    ratios = []
    for first, parity in (("earlier", 0), ("this", 1)):
        pairs = range(parity, len(runs["this"]), 2)
        if pairs:
            this, before = (statistics.mean(runs[name][pair].rate for pair in pairs) for name in ("this", "earlier"))
            ratios.append(f"{first} first {this / before:.2f}x ({len(pairs)} pairs)")
    return ", ".join(ratios)


if __name__ == "__main__":
    main()
