"""Command-line values the benchmark scripts check before they run, so that a count or a time they cannot use is
answered with a usage line (argparse's, exit 2) rather than a traceback from dividing or averaging by nothing."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least_one(what: str) -> Callable[[str], int]:
    """An argparse type: a whole number of `what`, 1 or more."""

    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"a number of {what}, 1 or more, not {text!r}")
        return int(text)

    return parse


def more_than_zero(text: str) -> float:
    """An argparse type: a number of seconds above zero."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:  # nan too
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return seconds


def whole_numbers(least: int, *, exactly: int | None = None) -> Callable[[str], list[int]]:
    """An argparse type: whole numbers, each `least` or more, separated by commas (`0,60000`); `exactly` of them when
    it is given."""

    def parse(text: str) -> list[int]:
        parts = text.split(",")
        if not all(part.strip().isdigit() and int(part) >= least for part in parts) or (
                exactly is not None and len(parts) != exactly):
            many = f"{exactly} " if exactly is not None else ""
            raise argparse.ArgumentTypeError(
                f"{many}whole numbers of {least} or more separated by commas, not {text!r}")
        return [int(part) for part in parts]

    return parse
