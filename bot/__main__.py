"""The `pokerbot` command: run the bot (Discord, Telegram, or the terminal table) or a tool such as `odds`."""

from __future__ import annotations

import argparse
import sys

from bot import odds_cli


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="pokerbot",
        description="Poker for friends in Discord and Telegram chats.",
    )
    subparsers = parser.add_subparsers(dest="tool", metavar="TOOL")
    odds_cli.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script and of `python -m bot`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.tool == "odds":
        return odds_cli.run(args)
    parser.print_help()
    print("\nThe application is not built yet: only the engine exists so far.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
