"""Caribbean Poker against the dealer (RULES.md §4): priced exchanges, ace-king qualification, suit tie-break, bonus.

Choices where RULES.md is silent, as a card room does it:
- the bonus bet (`side=`, its fixed size is the limits' side range, default exactly 10) is settled with the box, on the
  dealt hand, whether the box plays or folds and whatever the dealer holds;
- the maximum payout is the box's: it caps the bonus, ANTE and BET winnings together ("a maximum payout per box that
  caps every payment"); where it bites, the BET's line is cut first and the bonus, won on the deal, last;
- no box is blind unless `blind_box` is set; a blind box places ANTE and BET at once and cannot exchange or fold;
- the re-exchange (off by default, `re_exchange_limit` times per box) comes after a first exchange and swaps one card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.cards import Card
from engine.common import Event
from engine.hands import HandCategory, HandValue, caribbean_key, evaluate
from engine.house.actions import ActionOption
from engine.house.boxes import (
    Box,
    ConfigBase,
    Limits,
    hand_name,
)
from engine.house.chips import versus_dealer
from engine.house.common import HouseRound
from engine.house.events import (
    BoxActed,
    CardsDrawn,
    DealerCardsShown,
    Payout,
    StakesSettled,
)

PAYTABLE: Mapping[str, int] = MappingProxyType({
    "high_card": 1, "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5, "full_house": 7,
    "four_of_a_kind": 20, "straight_flush": 50, "royal_flush": 100})
"""The standard BET paytable (x:1); a winning high card (ace-king over ace-king) pays 1:1, as the standard does."""

LINE_NAMES: Mapping[str, str] = MappingProxyType({"high_card": "ace_king"})
"""The paytable's lines said by another name than their key, as a settled round says them (`said_name`): a high card
wins only over a dealer who qualifies, so it holds an ace and a king, RULES.md's "ace-king"."""

BONUS: Mapping[str, int] = MappingProxyType({
    "royal_flush": 500, "straight_flush": 100, "four_of_a_kind": 50, "full_house": 10, "flush": 7, "straight": 5})
"""RULES.md bonus paytable on the dealt hand (x:1)."""


SUIT_OUTCOMES: Mapping[str, str] = MappingProxyType({"won": "won_on_suit", "lost": "lost_on_suit"})
"""A box's outcome when its ranks equal the dealer's and the suit of the highest card decided it."""


@dataclass(frozen=True)
class CaribbeanRules(ConfigBase):
    """A Caribbean Poker table. Fees are in ANTEs: `exchange_fee` per card, `re_exchange_fee` per re-exchange."""

    limits: Limits = field(default_factory=lambda: Limits(min_ante=1, max_ante=100, max_boxes=3, max_payout=10_000,
                                                          min_side=10, max_side=10))
    paytable: Mapping[str, int] = field(default_factory=lambda: dict(PAYTABLE))
    bonus: Mapping[str, int] = field(default_factory=lambda: dict(BONUS))
    exchange_fee: int = 1
    re_exchange_limit: int = 0
    re_exchange_fee: int = 2
    suit_tiebreak: bool = True
    blind_box: int | None = None


def dealer_qualifies(value: HandValue) -> bool:
    """Ace-king or better: a pair or more, or a high-card hand holding an ace and a king."""
    return value.category > HandCategory.HIGH_CARD or value.ranks[:2] == (14, 13)


def said_name(value: HandValue) -> str:
    """A hand's name as the table says it, the same for the dealer and a box: a high card holding an ace and a king
    is "ace-king" (the dealer's lowest qualifying hand), as "ace high" alone says nothing of the king; any other hand
    its paytable key."""
    if value.category is HandCategory.HIGH_CARD and value.ranks[:2] == (14, 13):
        return "ace_king"
    return hand_name(value)


def compare(player: HandValue, dealer: HandValue, suit_tiebreak: bool = True) -> int:
    """1 when the player's hand is higher, -1 when lower, 0 for a tie (only possible without the suit tie-break)."""
    mine, theirs = ((caribbean_key(player), caribbean_key(dealer)) if suit_tiebreak
                    else ((player.strength, 0), (dealer.strength, 0)))
    return (mine > theirs) - (mine < theirs)


class CaribbeanRound(HouseRound):
    """One round of Caribbean Poker. Side bet: `side=` is the bonus bet."""

    game = "caribbean"
    actions = ("play", "fold", "exchange", "re_exchange")
    dealer_up_count = 1
    rules_type = CaribbeanRules
    side_name = "bonus"

    @property
    def rules(self) -> CaribbeanRules:
        """This table's rules: `config`, typed as this game's (a compiled subclass may not narrow the attribute)."""
        rules: CaribbeanRules = self.config
        return rules

    def __init__(self, config: CaribbeanRules) -> None:
        super().__init__(config)
        self.dealt: dict[str, list[str]] = {}

    def _on_deal(self) -> list[Event]:
        events = self._deal_boxes()
        self.dealt.update({box.account: [str(card) for card in box.cards] for box in self.boxes})
        self.dealer = self.draw(5)
        self._open_decisions()
        return [*events, DealerCardsShown(cards=(self.dealer[-1],))]

    def _options(self, box: Box) -> list[ActionOption]:
        ante = box.ante
        options = [ActionOption("play", 2 * ante), ActionOption("fold")]
        if not self.spare_cards():
            return options
        if "exchange" not in box.history:  # an exchange keeps the BET; the wallet may pay for fewer cards
            options.append(ActionOption("exchange", self.rules.exchange_fee * ante, per_card=True, min_cards=1,
                                        max_cards=min(5, self.spare_cards()), keep=2 * ante))
        elif box.history.count("re_exchange") < self.rules.re_exchange_limit:
            options.append(ActionOption("re_exchange", self.rules.re_exchange_fee * ante, min_cards=1, max_cards=1,
                                        keep=2 * ante))
        return options

    def _apply(self, box: Box, action: str, cards: list[Card]) -> tuple[list[Event], bool]:
        box.history.append(action)
        if action == "fold":
            side, payouts = self._bonus(box)
            return self._fold(box, side=side, cards=box.cards, payouts=payouts), True
        if action == "play":
            return self._play(box, "play", 2), True
        fee = (self.rules.exchange_fee * len(cards) if action == "exchange" else self.rules.re_exchange_fee)
        moves = self._charge_fee(box, fee * box.ante, action)
        drawn = self.draw(len(cards))
        box.cards = [card for card in box.cards if card not in cards] + drawn
        return [BoxActed(player=box.owner, box=box.index, action=action, cost=fee * box.ante,
                         discarded_count=len(cards), moves=moves),
                CardsDrawn(player=box.owner, box=box.index, discarded=tuple(cards), drawn=tuple(drawn),
                           cards=tuple(box.cards), visible_to=box.owner)], False

    def _bonus(self, box: Box) -> tuple[dict[str, int], tuple[Payout, ...]]:
        """The bonus bet's result on the dealt hand, uncapped, and what paid it ({} without a bonus bet)."""
        stake = box.stakes.get("bonus", 0)
        if not stake:
            return {}, ()
        dealt = evaluate([Card.parse(text) for text in self.dealt[box.account]])
        multiple = self.rules.bonus.get(hand_name(dealt), 0)
        payout = Payout("bonus", hand_name(dealt), dealt.ranks, multiple)
        return {"bonus": stake * multiple if multiple else -stake}, (payout,)

    def _finish_phase(self) -> list[Event]:
        dealer = evaluate(self.dealer)
        qualifies = dealer_qualifies(dealer)
        events: list[Event] = [DealerCardsShown(cards=tuple(self.dealer), hand=said_name(dealer), ranks=dealer.ranks,
                                                qualifies=qualifies, needs="ace_king")]
        return events + [self._settle_box(box, dealer, qualifies) for box in self._played()] + self._end()

    def _settle_box(self, box: Box, dealer: HandValue, qualifies: bool) -> StakesSettled:
        value = evaluate(box.cards)
        order = compare(value, dealer, self.rules.suit_tiebreak) if qualifies else 0
        name = said_name(value)
        multiple = self.rules.paytable.get(hand_name(value), 0)
        results, outcome = versus_dealer(order, qualifies, box.ante, box.stakes["bet"], multiple)
        if order and value.strength == dealer.strength:  # the same ranks: said, or "ace-king" beats "ace-king"
            outcome = SUIT_OUTCOMES[outcome]
        bonus, bonus_payouts = self._bonus(box)
        return self._settle(box, {**results, **bonus}, outcome, hand=name, ranks=value.ranks, cards=box.cards,
                            payouts=(Payout("bet", name, value.ranks, multiple), *bonus_payouts), cut_last=("bonus",))

    def _extra_to_dict(self) -> dict[str, Any]:
        return {"dealt": dict(self.dealt)}

    def _extra_from_dict(self, data: Mapping[str, Any]) -> None:
        self.dealt = {key: list(value) for key, value in data["dealt"].items()}
