"""pokerkit's PokerStars parser, for tests that read an exported hand back and replay it."""

from __future__ import annotations

import warnings
from re import compile as regex
from typing import Any, ClassVar

from pokerkit.notation import PokerStarsParser


class LimitAwareParser(PokerStarsParser):
    """pokerkit's PokerStars parser knows only `Hold'em No Limit` headers; real PokerStars writes `Hold'em Limit` for
    fixed-limit games. Limit hands are replayed under no-limit rules: their bets are written out in chips, and every
    fixed-limit bet sequence is legal no-limit betting except for caps, which only make a sequence shorter.
    `Omaha Pot Limit` is replayed as pokerkit's Pot-Limit Omaha."""

    VARIANT = regex(r" (?P<variant>Hold'em (No )?Limit|Omaha Pot Limit) ")
    VARIANTS: ClassVar[dict[str, str]] = {"Hold'em No Limit": "NT", "Hold'em Limit": "NT", "Omaha Pot Limit": "PO"}


def parse(text: str) -> list[Any]:
    """Every hand in the text, parsed and replayed by pokerkit (a failure raises)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about its own extra fields (time zone)
        return list(LimitAwareParser()(text, error_status=True))


def replayed_stacks(history: Any) -> dict[str, int]:
    """The players' stacks once pokerkit has replayed the hand to its end."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(history)[-1]
    return dict(zip(history.players, final.stacks, strict=True))
