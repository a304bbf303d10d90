"""`pokerbot odds GAME`: the house games' return to the player, exact or simulated, as text or JSON."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from tqdm import tqdm

from bot.i18n import text
from engine.house.odds import PAYTABLES, STANDARD_RULES, STRATEGIES, OddsReport, line_name, odds, paytables

GAMES = ("three-card", "caribbean", "russian", "texas")

PAYTABLE_NAMES = {"table": "the bot's own (RULES.md)", "standard": "standard casino (the published figures)"}
"""How the text output names a game's paytables: `--paytables standard` changes only the games that have one."""

PAYS = {"paytable": "BET pays", "pairplus": "PAIRPLUS pays", "ante_bonus": "ANTE bonus pays"}
"""How the text output names each paytable field (`engine.house.odds.PAYTABLES`)."""

BAR_DELAY = 1.0
"""Seconds before the progress bar appears: a run shorter than this shows none."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `odds` tool to the `pokerbot` command's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "odds", help="house edge of a house game under a stated strategy",
        description="Report a house game's house edge (percent of the initial wager) under a stated strategy: "
                    "exact for Three Card Poker, by simulation with a standard error (±) for the others. "
                    "A run longer than a second shows a progress bar on stderr when it is a terminal.")
    parser.add_argument("game", choices=(*GAMES, "all"), help="which game (or all)")
    parser.add_argument("--rounds", type=rounds, default=200_000, help="simulated rounds (default 200000)")
    parser.add_argument("--seed", type=int, default=None, help="random seed for a reproducible simulation")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--paytables", choices=("table", "standard"), default="table",
                        help="the bot's own paytables (RULES.md, the default) or the standard casino ones behind the "
                             "published figures (Three Card Poker, Caribbean Stud)")
    return parser


def rounds(value: str) -> int:
    """`--rounds`: a whole number, at least 1 (argparse says so otherwise, on stderr)."""
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {count})")
    return count


def _pays(game: str, table: dict[str, int]) -> str:
    """A paytable's lines as `/odds` names them in English ("ace-king 1, pair 1, …")."""
    return ", ".join(f"{text('en', f'hand.{line_name(game, hand)}')} {multiple}" for hand, multiple in table.items())


def run(args: argparse.Namespace) -> int:
    """Compute and print the figures; returns the exit status."""
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    games = GAMES if args.game == "all" else (args.game,)
    rules = {game: STANDARD_RULES.get(game) if args.paytables == "standard" else None for game in games}
    reports: list[OddsReport] = []
    started = time.perf_counter()
    simulated = sum(args.rounds for game in games if game != "three-card")
    # stderr only, and only on a terminal (disable=None), after BAR_DELAY seconds: piped or captured output and
    # quick runs stay clean
    with tqdm(total=simulated, unit="round", unit_scale=True, file=sys.stderr, delay=BAR_DELAY, disable=None,
              leave=False, miniters=1, mininterval=0.2) as bar:
        for game in games:
            reports += odds(game, args.rounds, rng, rules[game], progress=bar.update)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({"seed": args.seed, "paytables": args.paytables, "seconds": round(elapsed, 3),
                          "reports": [report.to_dict() for report in reports]}, indent=2))
        return 0
    for report in reports:
        error = f" ± {report.std_error:.2f} (standard error)" if report.method == "simulation" else " (exact)"
        print(f"{report.game:<11} {report.bet:<9} house edge {report.house_edge:6.2f}%{error}"
              f"   {report.rounds:,} {'rounds' if report.method == 'simulation' else 'deals'}")
        field, name = PAYTABLES[report.game][report.bet], PAYTABLE_NAMES["standard" if rules[report.game] else "table"]
        pays = _pays(report.game, paytables(report.game, rules[report.game])[field])
        print(f"{'':<11} paytable, {name}: {PAYS[field]} {pays}")
        print(f"{'':<11} strategy: {STRATEGIES.get(report.game) if report.bet != 'pairplus' else 'none needed'}")
    print(f"({elapsed:.1f} s)")
    return 0
