"""Hands said as a card room says them ("two pair, kings and sevens, ace kicker"), and what decided between two.

The words come from the catalogues: `hand.says.<category>` templates filled with rank names, and a table of rank
names per grammatical role (`rank.<A|K|…|2>.<form>`), because Russian needs a different case in each phrase ("пара
тузов", "стрит до туза", "короли на семёрках", "старший туз").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render import Voice
from engine.cards import RANK_CHARS

FORMS = ("card", "cards", "of", "to", "on", "high")
"""The rank-name forms each language provides: a card ("ace", «туз»), cards ("aces", «тузы»), after "of" ("aces",
«тузов»), after "to" ("ace", «туза»), after "on" ("aces", «тузах») and as a high card ("ace high", «старший туз»)."""

_NAMED_BY = {"high_card": 1, "pair": 1, "two_pair": 2, "three_of_a_kind": 1, "straight": 1, "flush": 1,
             "full_house": 2, "four_of_a_kind": 1, "straight_flush": 1}
"""How many leading ranks name a hand of each category; the rest are kickers."""

_SHOWS_KICKER = frozenset({"pair", "two_pair", "three_of_a_kind", "four_of_a_kind"})
"""Categories whose first kicker is said with the hand ("pair of aces, king kicker")."""

_DECIDERS = {
    "high_card": ("card_1", "card_2", "card_3", "card_4", "card_5"),
    "pair": ("pair", "kicker_1", "kicker_2", "kicker_3"),
    "two_pair": ("top_pair", "low_pair", "kicker_1"),
    "three_of_a_kind": ("three", "kicker_1", "kicker_2"),
    "straight": ("card_1",),
    "flush": ("card_1", "card_2", "card_3", "card_4", "card_5"),
    "full_house": ("three", "pair"),
    "four_of_a_kind": ("four", "kicker_1"),
    "straight_flush": ("card_1",),
}
"""For each category, what the rank at each position of the tie-break is called when it decides."""

_SAID_AS_MANY = frozenset({"pair", "top_pair", "low_pair", "three", "four"})
"""Deciders that are groups of cards ("Ann's kings beat Bob's queens"), not one card."""


def category_key(name: str) -> str:
    """An engine category name (`two pair`, `TWO_PAIR`, `two_pair`) as the catalogues' key (`two_pair`)."""
    return name.lower().replace(" ", "_").replace("-", "_")


def rank_name(voice: Voice, rank: int, form: str) -> str:
    """A rank's name in one of `FORMS`, in the chat's language."""
    return voice.t(f"rank.{RANK_CHARS[rank - 2]}.{form}")


def category_label(voice: Voice, name: str) -> str:
    """A hand category's bare name ("two pair") in the chat's language; empty for none."""
    if not name:
        return ""
    key = category_key(name)
    try:
        return voice.t(f"hand.{key}")
    except KeyError:
        return key.replace("_", " ")


def describe(voice: Voice, name: str, ranks: Sequence[int]) -> str:
    """A hand in words from its category and the ranks that rank it (`HandValue.ranks`, most significant first):
    "two pair, kings and sevens, ace kicker", "straight to the ten", "flush, ace high". Without ranks, or for a
    category that names no rank (royal flush, ace-king, no game), the category's name alone."""
    key = category_key(name)
    named = _NAMED_BY.get(key)
    if named is None or len(ranks) < named:
        return category_label(voice, key)
    params: dict[str, object] = {}
    for prefix, rank in zip(("first", "second"), ranks[:named], strict=False):
        params.update({f"{prefix}_{form}": rank_name(voice, rank, form) for form in FORMS})
    said = voice.t(f"hand.says.{key}", **params)
    if key in _SHOWS_KICKER and len(ranks) > named:
        said = voice.t("hand.kicker", hand=said, card=rank_name(voice, ranks[named], "card"))
    return said


def five_card_name(category: str, ranks: Sequence[int]) -> str:
    """A five-card category as a card room names it: the ace-high straight flush is a royal flush."""
    key = category_key(category)
    return "royal_flush" if key == "straight_flush" and len(ranks) > 0 and ranks[0] == 14 else key


def decided(voice: Voice, name: str, winner: str, winner_ranks: Sequence[int], loser: str,
            loser_ranks: Sequence[int]) -> str:
    """What decided between two hands of the same category `name`, the first rank where they differ: "the kicker
    decides: Ann's ace beats Bob's queen". Empty when the hands are equal (or the ranks are unknown)."""
    deciders = _DECIDERS.get(category_key(name), ())
    for index, (mine, theirs) in enumerate(zip(winner_ranks, loser_ranks, strict=False)):
        if mine == theirs:
            continue
        if index >= len(deciders):
            return ""
        what = deciders[index]
        many = what in _SAID_AS_MANY
        form = "cards" if many else "card"
        return voice.t("hand.decided_many" if many else "hand.decided_one", what=voice.t(f"hand.what.{what}"),
                       winner=winner, card=rank_name(voice, mine, form), loser=loser,
                       other=rank_name(voice, theirs, form))
    return ""
