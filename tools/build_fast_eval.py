"""Rewrite the shipped lookup table of `engine.fast_eval` from `hands.evaluate`: `python tools/build_fast_eval.py`.

Only needed when hand ranking changes; the engine itself only reads the file (once, on first use).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from engine.fast_eval import DATA_PATH, table_bytes


def main() -> int:
    """Build the tables and write them where the engine looks for them."""
    DATA_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATA_PATH.write_bytes(table_bytes())
    print(f"wrote {DATA_PATH} ({DATA_PATH.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
