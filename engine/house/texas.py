"""Texas Poker against the dealer (RULES.md §2): community cards, bet early on five cards or buy the next card.

Choices where RULES.md is silent, as a card room does it:
- `community` holds the five community cards in the order they open: the first three face up on the deal, the fourth
  after everyone's first decision, the fifth with the dealer's cards;
- like Russian Poker, a buy or an exchange is refused when the player could not then afford the BET;
- the half payout (straight or royal flush not beating a qualifying dealer) is half of what the box would have won
  (ANTE 1:1 plus BET by the paytable), rounded down, with ANTE and BET returned; the table's maximum payout caps every
  box's winnings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.cards import Card, parse_cards
from engine.common import Event
from engine.hands import HandCategory, HandValue, evaluate
from engine.house.actions import ActionOption
from engine.house.boxes import (
    Box,
    BoxStatus,
    ConfigBase,
    Limits,
    Phase,
    hand_name,
)
from engine.house.chips import versus_dealer
from engine.house.common import HouseRound
from engine.house.events import (
    BoxActed,
    CardsDrawn,
    CommunityCardsShown,
    DealerCardsShown,
    Payout,
    StakesSettled,
)

PAYTABLE: Mapping[str, int] = MappingProxyType({
    "pair": 1, "two_pair": 1, "three_of_a_kind": 2, "straight": 3, "flush": 4, "full_house": 6,
    "four_of_a_kind": 15, "straight_flush": 50, "royal_flush": 100})
"""RULES.md BET paytable (x:1)."""


@dataclass(frozen=True)
class TexasRules(ConfigBase):
    """A Texas Poker table: limits (one box per player by default), the BET paytable, the half-payout rule."""

    limits: Limits = field(default_factory=lambda: Limits(min_ante=1, max_ante=100, max_boxes=1, max_payout=10_000))
    paytable: Mapping[str, int] = field(default_factory=lambda: dict(PAYTABLE))
    half_payout: bool = True


def player_hand(hole: list[Card], community: list[Card], bought: bool) -> HandValue:
    """The box's hand: exactly hole + the three first open cards after an early BET, else the best five of seven."""
    return evaluate(hole + (community if bought else community[:3]))


def whole_payout(ante: int, bet: int, multiple: int) -> int:
    """What a box that beats a qualifying dealer wins: ANTE 1:1 and BET at `multiple`:1 (a half payout is half of
    it)."""
    return ante + bet * multiple


def dealer_qualifies(dealer: HandValue) -> bool:
    """The dealer plays with any pair (the lowest: a pair of twos)."""
    return dealer.category >= HandCategory.PAIR


def texas_results(ante: int, bet: int, player: HandValue, dealer: HandValue,
                  rules: TexasRules) -> tuple[dict[str, int], str, tuple[Payout, ...]]:
    """The stake lines and outcome of a box that bet, against the dealer's hand (before the payout cap), and what may
    pay them: the BET by the paytable, or the half payout of a straight or royal flush that does not beat a
    qualifying dealer (half of the whole it would have won, ANTE and BET returned)."""
    name = hand_name(player)
    multiple = rules.paytable.get(name, 0)
    whole = whole_payout(ante, bet, multiple)
    payouts = (Payout("bet", name, player.ranks, multiple), Payout("half_payout", name, player.ranks, multiple, whole))
    qualifies = dealer_qualifies(dealer)
    if (rules.half_payout and player.category is HandCategory.STRAIGHT_FLUSH
            and (not qualifies or dealer.strength >= player.strength)):
        results, outcome = {"ante": 0, "bet": 0, "half_payout": whole // 2}, "half_payout"
    else:
        order = (player.strength > dealer.strength) - (player.strength < dealer.strength)
        results, outcome = versus_dealer(order, qualifies, ante, bet, multiple)
    return results, outcome, payouts


_OPEN_COUNTS = {Phase.BETTING: 0, Phase.DECIDING: 3, Phase.SECOND_DECISION: 4}
"""Community cards face up in each phase before the round is over (then all five)."""


class TexasRound(HouseRound):
    """One round of Texas Poker: every player's box against the dealer, sharing the community cards."""

    game = "texas"
    actions = ("bet", "fold", "buy", "exchange")
    rules_type = TexasRules
    box_cards = 2
    table_cards = 7

    @property
    def rules(self) -> TexasRules:
        """This table's rules: `config`, typed as this game's (a compiled subclass may not narrow the attribute)."""
        rules: TexasRules = self.config
        return rules

    def __init__(self, config: TexasRules) -> None:
        super().__init__(config)
        self.community: list[Card] = []

    @property
    def open_count(self) -> int:
        """How many community cards are face up: three on the deal, the fourth for the second decision, all five
        when the dealer shows."""
        return _OPEN_COUNTS.get(self.phase, 5)

    def community_shown(self) -> list[Card]:
        """The community cards face up now."""
        return self.community[: self.open_count]

    def _on_deal(self) -> list[Event]:
        events = self._deal_boxes()
        self.dealer = self.draw(2)
        self.community = self.draw(5)
        self._open_decisions()
        return [*events, CommunityCardsShown(cards=tuple(self.community[:3]))]

    def _options(self, box: Box) -> list[ActionOption]:
        ante = box.ante
        options = [ActionOption("bet", 2 * ante), ActionOption("fold")]
        if self.phase is Phase.DECIDING:  # a buy or an exchange keeps the BET
            options.append(ActionOption("buy", ante, keep=2 * ante))
        elif "exchange" not in box.history and self.spare_cards():
            options.append(ActionOption("exchange", ante, min_cards=1, max_cards=min(2, self.spare_cards()),
                                        keep=2 * ante))
        return options

    def _apply(self, box: Box, action: str, cards: list[Card]) -> tuple[list[Event], bool]:
        box.history.append(action)
        if action == "fold":
            return self._fold(box), True
        if action == "bet":
            return self._play(box, "bet", 2), True
        moves = self._charge_fee(box, box.ante, action)
        acted = BoxActed(player=box.owner, box=box.index, action=action, cost=box.ante,
                         discarded_count=len(cards), moves=moves)
        if action == "buy":
            return [acted], True
        drawn = self.draw(len(cards))
        box.cards = [card for card in box.cards if card not in cards] + drawn
        return [acted, CardsDrawn(player=box.owner, box=box.index, discarded=tuple(cards), drawn=tuple(drawn),
                                  cards=tuple(box.cards), visible_to=box.owner)], False

    def _finish_phase(self) -> list[Event]:
        if self.phase is Phase.DECIDING:
            self.phase = Phase.SECOND_DECISION
            self.queue = [position for position, box in enumerate(self.boxes) if box.status is BoxStatus.DEALT]
            return [CommunityCardsShown(cards=(self.community[3],))]
        dealer = evaluate(self.dealer + self.community)
        qualifies = dealer_qualifies(dealer)
        events: list[Event] = [CommunityCardsShown(cards=(self.community[4],)),
                               DealerCardsShown(cards=tuple(self.dealer), hand=hand_name(dealer),
                                                ranks=dealer.ranks, qualifies=qualifies, needs="pair")]
        return events + [self._settle_box(box, dealer) for box in self._played()] + self._end()

    def _settle_box(self, box: Box, dealer: HandValue) -> StakesSettled:
        hand = player_hand(box.cards, self.community, "buy" in box.history)
        results, outcome, payouts = texas_results(box.ante, box.stakes["bet"], hand, dealer, self.rules)
        return self._settle(box, results, outcome, hand=hand_name(hand), ranks=hand.ranks, cards=hand.cards,
                            payouts=payouts)

    def _extra_to_dict(self) -> dict[str, Any]:
        return {"community": [str(card) for card in self.community]}

    def _extra_from_dict(self, data: Mapping[str, Any]) -> None:
        self.community = parse_cards(data["community"])  # older snapshots also hold "open_count": derived now
