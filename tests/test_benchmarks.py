"""Smoke runs of the benchmark scripts with tiny sizes, so they keep working (their numbers are not asserted)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("service.py", ["--tables", "20", "--seconds", "0.3", "--concurrency", "4", "--history-hands", "200"],
         "of the p99 without reads"),
        ("service.py", ["--scale-tables", "30", "--seconds", "0.3", "--concurrency", "4"], "due timers after"),
        ("holdem.py", ["50"], "ratio"),
        ("ceiling.py", ["--seconds", "0.2"], "through the store, parsed and timed"),
        ("picture.py", ["--rounds", "3"], "ms"),
        ("settlement.py", [], "exact / greedy"),
        ("delivery.py", ["--quick"], "ratio to budget"),
    ],
)
def test_benchmark_runs(script: str, args: list[str], expected: str) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], capture_output=True, text=True,
                            timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert expected in result.stdout


def test_processes_benchmark_runs(postgres_server: str) -> None:
    """`benchmarks/service.py --db postgresql://… --processes 2`: SQLite's one process, then 1 and 2 on PostgreSQL."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "service.py"), "--db", postgres_server,
                             "--processes", "2", "--tables", "6", "--seconds", "0.3", "--concurrency", "2"],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "PostgreSQL, 2 processes" in result.stdout
