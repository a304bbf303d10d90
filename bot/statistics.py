"""A player's Hold'em figures from recorded hands (RULES.md §1d): one hand's facts per player, and their totals.

Definitions (RULES.md §1d, and where it is silent, the usual tracker's):
- *hands played*: hands that ended (a `HandEnded`) with the player dealt in; a voided hand counts nowhere.
- *VPIP*: hands in which he put money in preflop of his own will: a call or a raise (a bet, too, should a preflop
  round ever open without blinds); blinds, checks and folds do not count. *PFR*: hands with a preflop raise (or bet).
- *aggression factor*: his bets and raises on the flop, turn and river over his calls there (all hands together).
- *went to showdown*: of the hands in which he saw the flop (still in when it was dealt), those he was still in when
  the hand was decided at a showdown (a pot awarded by comparing hands); *won at showdown*: of those, the ones in
  which he collected chips from a pot awarded at the showdown.
- *hands won* and *biggest pot*: hands in which he collected chips, and the most he collected in one hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

COUNTED_KINDS = frozenset({"PlayerCalled", "PlayerBet", "PlayerRaised", "PlayerFolded", "BoardDealt", "HandsShown",
                           "PotAwarded", "HandEnded"})
"""The event kinds a hand's figures are read from (the others, like hole cards, need not even be parsed)."""
_AGGRESSIVE = ("PlayerBet", "PlayerRaised")


@dataclass
class PlayFigures:
    """A player's counts over some hands, added up hand by hand (see the module for what each one counts)."""

    hands_played: int = 0
    hands_won: int = 0
    net: int = 0
    biggest_pot: int = 0
    vpip: int = 0
    pfr: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0

    # written out, not generated: see bot/compiled.py
    def __init__(self, hands_played: int = 0, hands_won: int = 0, net: int = 0, biggest_pot: int = 0, vpip: int = 0,
                 pfr: int = 0, postflop_aggressive: int = 0, postflop_calls: int = 0, saw_flop: int = 0,
                 showdowns: int = 0, showdowns_won: int = 0) -> None:
        self.hands_played = hands_played
        self.hands_won = hands_won
        self.net = net
        self.biggest_pot = biggest_pot
        self.vpip = vpip
        self.pfr = pfr
        self.postflop_aggressive = postflop_aggressive
        self.postflop_calls = postflop_calls
        self.saw_flop = saw_flop
        self.showdowns = showdowns
        self.showdowns_won = showdowns_won

    def add(self, other: PlayFigures) -> None:
        """Add another set of counts to these (the biggest pot is the larger of the two)."""
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            setattr(self, item.name, max(mine, theirs) if item.name == "biggest_pot" else mine + theirs)

    def counts(self) -> dict[str, int]:
        """The counts by name (what `pruned_stats` keeps of pruned hands)."""
        return {item.name: getattr(self, item.name) for item in fields(self)}


def hand_figures(events: Iterable[Mapping[str, Any]]) -> dict[str, PlayFigures]:
    """Each player's figures from one Hold'em hand's events (as recorded: plain dicts with a `kind`), `{}` for a hand
    that did not end."""
    street = "preflop"
    folded: set[str] = set()
    out_before_flop: set[str] | None = None  # set when the flop is dealt: who had folded by then
    acted: dict[str, PlayFigures] = {}
    showdown = False
    collected: dict[str, int] = {}
    won_at_showdown: set[str] = set()
    net: dict[str, int] | None = None
    for event in events:
        kind = event.get("kind")
        if kind == "PlayerCalled" or kind in _AGGRESSIVE:
            mine = acted.setdefault(str(event["player"]), PlayFigures())
            if street == "preflop":
                mine.vpip = 1
                mine.pfr = max(mine.pfr, int(kind in _AGGRESSIVE))
            elif kind == "PlayerCalled":
                mine.postflop_calls += 1
            else:
                mine.postflop_aggressive += 1
        elif kind == "PlayerFolded":
            folded.add(str(event["player"]))
        elif kind == "BoardDealt":
            if out_before_flop is None and event.get("street") == "flop":
                out_before_flop = set(folded)
            street = str(event.get("street", street))
        elif kind == "HandsShown":
            showdown = True
        elif kind == "PotAwarded":
            at_showdown = event.get("category") is not None
            showdown = showdown or at_showdown
            for player, chips in (event.get("winners") or {}).items():
                collected[str(player)] = collected.get(str(player), 0) + int(chips)
                if at_showdown and chips:
                    won_at_showdown.add(str(player))
        elif kind == "HandEnded":
            net = {str(player): int(chips) for player, chips in (event.get("net") or {}).items()}
    if net is None:
        return {}
    figures = {}
    for player, chips in net.items():
        mine = acted.get(player, PlayFigures())
        mine.hands_played, mine.net = 1, chips
        mine.hands_won, mine.biggest_pot = int(collected.get(player, 0) > 0), collected.get(player, 0)
        mine.saw_flop = int(out_before_flop is not None and player not in out_before_flop)
        mine.showdowns = int(bool(mine.saw_flop) and showdown and player not in folded)
        mine.showdowns_won = int(bool(mine.showdowns) and player in won_at_showdown)
        figures[player] = mine
    return figures


def percent(part: int, whole: int) -> Decimal | None:
    """`part` of `whole` in whole percent, halves rounded up (2 of 3: 67); None when there is nothing to count."""
    if whole <= 0:
        return None
    return (Decimal(100 * part) / whole).quantize(Decimal(1), rounding=ROUND_HALF_UP)


def aggression_factor(figures: PlayFigures) -> Decimal | None:
    """Post-flop bets and raises over post-flop calls, to one decimal (halves up); None without a post-flop call
    (undefined: the caller says "—", or "∞" when there were bets or raises)."""
    if figures.postflop_calls == 0:
        return None
    ratio = Decimal(figures.postflop_aggressive) / figures.postflop_calls
    return ratio.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
