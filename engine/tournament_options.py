"""The options of `/tournament create` (RULES.md §1c): `rebuys N`, `addon [N]`, `reentry`, `bounty M`, and the pawn
limit `pawns N` (RULES.md §1: three items per player unless set), read out of the words that also carry the schedule
("home-night rebuys 2 addon reentry bounty 10 pawns 1").

An option is a word (English or Russian) followed by its value; every other word belongs to the schedule, in order.
A bad value is refused with a code and parameters for a translated reason, quoting what was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.text import log_quote, quote_input

MAX_COUNT = 99
"""The most rebuys or add-ons per player an organizer may offer (more is surely a typing mistake)."""
MAX_PAWNS = 10
"""The most items a player may be allowed to pawn: each is a piece of clothing worth a third of the starting stack,
and ten garments is more than anyone wears to a card game (more is surely a typing mistake). 0 turns pawning off."""

OPTION_WORDS: dict[str, str] = {
    **dict.fromkeys(("rebuys", "rebuy", "ребаи", "ребай", "ребаев", "ребая"), "rebuys"),
    **dict.fromkeys(("addon", "addons", "add-on", "add-ons", "аддон", "аддоны", "аддона", "аддонов"), "addons"),
    **dict.fromkeys(("reentry", "re-entry", "reentries", "реэнтри", "ре-энтри"), "reentry"),
    **dict.fromkeys(("bounty", "bounties", "баунти"), "bounty"),
    **dict.fromkeys(("pawns", "pawn", "залоги", "залог", "залога", "залогов"), "max_pawns"),
}
"""Each word that names an option, lower case, to the option's name."""

_COUNT = re.compile(r"[0-9]{1,3}")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_MONEY = re.compile(r"([0-9]{1,7})(?:[.,]([0-9]{1,2}))?")


class OptionError(ValueError):
    """A tournament option that cannot be read; `code` names the problem and `params` fill a translated reason."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """What `/tournament create` asked for: rebuys and add-ons per player, re-entry, the bounty (money units), the
    items each player may pawn (None when not named: the tournament's own limit), and the options named (so that one
    given twice is refused)."""

    rebuys: int = 0
    addons: int = 0
    reentry: bool = False
    bounty: Fraction = Fraction(0)
    max_pawns: int | None = None
    named: tuple[str, ...] = field(default=(), compare=False)


def split_options(text: str, buy_in: Fraction) -> tuple[TournamentOptions, str]:
    """The options among `text`'s words and the words left (the schedule, joined by spaces, without the separators
    at its ends that stood between it and the options); raise `OptionError` for an option given twice or with a bad
    value (a bounty must be less than the `buy_in`). Words left that are nothing but separators (`; ;`) are a schedule
    written empty, not no schedule: they come back as written, for `parse_schedule` to refuse."""
    words = text.split()
    values: dict[str, Any] = {}
    rest: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        option = OPTION_WORDS.get(word.lower())
        if option is None:
            rest.append(word)
            index += 1
            continue
        if option in values:
            raise OptionError("repeated", f"the option {log_quote(word)} is given twice", option=quote_input(word))
        following = words[index + 1] if index + 1 < len(words) else None
        value, used = _value(option, word, following, buy_in)
        values[option] = value
        index += 1 + used
    options = TournamentOptions(**values, named=tuple(values))
    written = " ".join(rest)
    return options, written.strip(" ;,") or written


def _value(option: str, word: str, following: str | None, buy_in: Fraction) -> tuple[Any, int]:
    """The option's value read from the word after it, and how many words that took (0 or 1)."""
    shown = quote_input(following) if following is not None else ""
    if option == "reentry":
        if following is not None and _COUNT.fullmatch(following):
            raise OptionError("reentry_count", f"{log_quote(word)} takes no number: a busted player may re-enter until "
                              "late registration ends", option=quote_input(word))
        return True, 0
    if option == "bounty":
        match = _MONEY.fullmatch(following or "")
        if match is None:
            raise OptionError("bad_bounty", "the bounty is an amount of money like 10 or 2.50, not "
                              f"{log_quote(shown)}", value=shown)
        amount = Fraction(int(match[1])) + Fraction(int((match[2] or "0").ljust(2, "0")), 100)
        if not 0 < amount < buy_in:
            raise OptionError("bounty_range", f"the bounty is part of the buy-in: more than 0 and less than {buy_in}",
                              value=shown, buy_in=buy_in)
        return amount, 1
    if option == "max_pawns" and following is not None and _SIGNED.fullmatch(following):
        # more digits than the cap has is out of range, and never read (Python refuses an int of 4,300 digits)
        if len(following.lstrip("+-")) > len(str(MAX_PAWNS)) or not 0 <= int(following) <= MAX_PAWNS:
            raise OptionError("pawns_range", f"{log_quote(word)}: from 0 (no pawning) to {MAX_PAWNS} items per player, "
                              f"not {shown}", option=quote_input(word), value=shown, limit=MAX_PAWNS)
        return int(following), 1
    if following is not None and _COUNT.fullmatch(following):
        count = int(following)
        if not 1 <= count <= MAX_COUNT:
            raise OptionError("count_range", f"{log_quote(word)}: from 1 to {MAX_COUNT} per player, not {count}",
                              option=quote_input(word), value=count, limit=MAX_COUNT)
        return count, 1
    if option == "addons":
        return 1, 0  # "addon" alone: one add-on each, the usual
    raise OptionError("needs_count", f"{log_quote(word)} needs a count per player, like {word} 2",
                      option=quote_input(word))
