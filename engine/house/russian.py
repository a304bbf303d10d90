"""Russian Poker against the dealer (RULES.md §3): buy or exchange once per box, second combination, dealer's game.

Choices where RULES.md is silent, as a card room does it:
- boxes act in the order the bets were placed (player by player, box 1 first); "its turn" is the player's own: his first
  box's turn comes with the deal (every player looks at his first box at once, as at a card table, while the others
  decide), each later box's when his box before it is decided; the blind box's cards are shown at the showdown;
- the blind box may still buy the dealer a game (that is a settlement choice, not a decision on its cards);
- the dealer's "highest card" is his highest rank (a hand with no game holds no two cards of one rank).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.cards import Card
from engine.common import Event
from engine.hands import RussianCategory, RussianHand, best_combination_pair, evaluate_russian
from engine.house.actions import ActionOption
from engine.house.boxes import (
    Box,
    BoxStatus,
    ConfigBase,
    Limits,
    Phase,
)
from engine.house.common import HouseRound
from engine.house.events import (
    BoxActed,
    BoxCardsDealt,
    CardsDrawn,
    DealerCardsShown,
    DealerDrew,
    Payout,
    StakesSettled,
)

PAYTABLE: Mapping[str, int] = MappingProxyType({
    "royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5, "straight": 4,
    "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ace_king": 1})
"""RULES.md BET paytable (x:1)."""


@dataclass(frozen=True)
class RussianRules(ConfigBase):
    """A Russian Poker table: limits, BET paytable, which box plays blind (None: none), and the options."""

    limits: Limits = field(default_factory=lambda: Limits(min_ante=1, max_ante=100, max_boxes=3, max_payout=None))
    paytable: Mapping[str, int] = field(default_factory=lambda: dict(PAYTABLE))
    blind_box: int | None = 3
    second_combination: bool = True
    dealer_game: bool = True


def russian_multiple(cards: list[Card], rules: RussianRules) -> int:
    """What a winning hand's BET is paid (x:1): its best combination, plus the second one where the rules allow."""
    table = {RussianCategory[name.upper()]: value for name, value in rules.paytable.items()}
    if rules.second_combination:
        return best_combination_pair(cards, table)[2]
    return table.get(evaluate_russian(cards).category, 0)


def russian_payouts(cards: list[Card], rules: RussianRules) -> tuple[tuple[Payout, ...], frozenset[Card]]:
    """What pays a winning hand's BET, named: its best combination and, where the rules allow, the second one (their
    multiples add up to `russian_multiple`); and the cards they are made of."""
    table = {RussianCategory[name.upper()]: value for name, value in rules.paytable.items()}
    if rules.second_combination:
        first, second, _ = best_combination_pair(cards, table)
        combos = [combo for combo in (first, second) if combo is not None]
        return (tuple(Payout("bet", combo.category.name.lower(), combo.ranks, table[combo.category])
                      for combo in combos), frozenset(card for combo in combos for card in combo.cards))
    hand = evaluate_russian(cards)
    return ((Payout("bet", hand.category.name.lower(), hand.value.ranks, table.get(hand.category, 0)),),
            frozenset(hand.value.cards))


def counted_cards(cards: Sequence[Card], hand: RussianHand, paid: Collection[Card] = ()) -> tuple[Card, ...]:
    """The cards of a box that count, in the box's order: its best five (of six after a buy, RULES.md §3), and any
    card beyond them that a paid second combination is made of (A-A-A-A-7-7: four of a kind and a full house)."""
    counted = {*hand.value.cards, *paid}
    return tuple(card for card in cards if card in counted)


class RussianRound(HouseRound):
    """One round of Russian Poker (one or more players, up to `max_boxes` boxes each)."""

    game = "russian"
    actions = ("play", "fold", "buy", "exchange", "dealer_game", "decline")
    dealer_up_count = 1
    rules_type = RussianRules

    @property
    def rules(self) -> RussianRules:
        """This table's rules: `config`, typed as this game's (a compiled subclass may not narrow the attribute)."""
        rules: RussianRules = self.config
        return rules

    def __init__(self, config: RussianRules) -> None:
        super().__init__(config)
        self.revealed: list[str] = []

    def _reserved_cards(self) -> int:
        return 1 if self.rules.dealer_game else 0

    def _on_deal(self) -> list[Event]:
        """Each player's first box to decide is shown to him with the deal (its turn has come: see the module doc);
        his later ones wait for theirs (`_on_turn`)."""
        self._deal_boxes(show=False)
        self.dealer = self.draw(5)
        self._open_decisions()
        firsts: dict[str, Box] = {}
        for position in self.queue:
            firsts.setdefault(self.boxes[position].owner, self.boxes[position])
        return [DealerCardsShown(cards=(self.dealer[-1],)), *(self._reveal(box) for box in firsts.values())]

    def owner_sees(self, box: Box) -> bool:
        """A box is its owner's to see once its turn has come (his first box's with the deal), or the round ended:
        RULES.md §3, multi-box. The private message and the private views both follow `revealed`."""
        return bool(box.cards) and (box.account in self.revealed or self.is_over)

    def _reveal(self, box: Box) -> BoxCardsDealt:
        self.revealed.append(box.account)
        return self._box_cards_dealt(box)

    def _on_turn(self, box: Box) -> list[Event]:
        return [] if box.account in self.revealed else [self._reveal(box)]

    def _options(self, box: Box) -> list[ActionOption]:
        ante = box.ante
        if self.phase is Phase.DEALER_GAME:
            return [ActionOption("dealer_game", ante), ActionOption("decline")]
        options = [ActionOption("play", 2 * ante), ActionOption("fold")]
        spare = self.spare_cards()
        if not {"buy", "exchange"} & set(box.history) and spare:  # a draw keeps the BET (RULES.md)
            options += [ActionOption("buy", ante, keep=2 * ante),
                        ActionOption("exchange", ante, min_cards=1, max_cards=min(5, spare), keep=2 * ante)]
        return options

    def dealer_shown(self) -> list[Card | None]:
        """One card up from the deal; all five once they were shown for the dealer game."""
        if self.phase is Phase.DEALER_GAME:
            return list(self.dealer)
        return super().dealer_shown()

    def _apply(self, box: Box, action: str, cards: list[Card]) -> tuple[list[Event], bool]:
        box.history.append(action)
        if action in ("dealer_game", "decline"):
            moves = self._charge_fee(box, box.ante, "dealer_game") if action == "dealer_game" else ()
            cost = box.ante if moves else 0
            return [BoxActed(player=box.owner, box=box.index, action=action, cost=cost, moves=moves)], True
        if action == "fold":
            return self._fold(box), True
        if action == "play":
            return self._play(box, "play", 2), True
        moves = self._charge_fee(box, box.ante, action)
        kept = [card for card in box.cards if card not in cards]
        drawn = self.draw(1 if action == "buy" else len(cards))
        box.cards = kept + drawn
        return [BoxActed(player=box.owner, box=box.index, action=action, cost=box.ante,
                         discarded_count=len(cards), moves=moves),
                CardsDrawn(player=box.owner, box=box.index, discarded=tuple(cards), drawn=tuple(drawn),
                           cards=tuple(box.cards), visible_to=box.owner)], False

    def _finish_phase(self) -> list[Event]:
        if self.phase is Phase.DECIDING:
            hand, qualifies = self._dealer_hand()
            events: list[Event] = [DealerCardsShown(cards=tuple(self.dealer), hand=hand, qualifies=qualifies,
                                                    ranks=evaluate_russian(self.dealer).value.ranks)]
            if qualifies or not self.rules.dealer_game or not self._played():
                return events + [self._settle_box(box, qualifies) for box in self._played()] + self._end()
            self.phase = Phase.DEALER_GAME
            self.queue = [position for position, box in enumerate(self.boxes) if box.status is BoxStatus.PLAYED]
            return events
        buyers = [box for box in self._played() if "dealer_game" in box.history]
        events = [self._settle_box(box, False) for box in self._played() if box not in buyers]
        if buyers:
            highest = max(self.dealer, key=lambda card: card.rank)
            drawn = self.draw(1)[0]
            self.dealer = [card for card in self.dealer if card != highest] + [drawn]
            hand, qualifies = self._dealer_hand()
            events.append(DealerDrew(discarded=highest, drawn=drawn, cards=tuple(self.dealer), hand=hand,
                                     qualifies=qualifies, ranks=evaluate_russian(self.dealer).value.ranks))
            for box in buyers:
                if qualifies:
                    events.append(self._settle_box(box, qualifies))
                else:
                    own = evaluate_russian(box.cards)
                    events.append(self._settle(box, {}, "dealer_still_no_game", hand=own.category.name.lower(),
                                               ranks=own.value.ranks, cards=counted_cards(box.cards, own)))
        return events + self._end()

    def _dealer_hand(self) -> tuple[str, bool]:
        """The dealer's current hand (its category name) and whether it is a game (ace-king or better)."""
        category = evaluate_russian(self.dealer).category
        return category.name.lower(), category >= RussianCategory.ACE_KING

    def _settle_box(self, box: Box, dealer_qualifies: bool) -> StakesSettled:
        """Settle a played box against the dealer's current hand."""
        hand = evaluate_russian(box.cards)
        name, ranks, cards = hand.category.name.lower(), hand.value.ranks, counted_cards(box.cards, hand)
        ante, bet = box.ante, box.stakes["bet"]
        if not dealer_qualifies:
            return self._settle(box, {"ante": ante}, "dealer_no_game", hand=name, ranks=ranks, cards=cards)
        dealer = evaluate_russian(self.dealer).value.strength
        if hand.value.strength < dealer:
            return self._settle(box, {"ante": -ante, "bet": -bet}, "lost", hand=name, ranks=ranks, cards=cards)
        if hand.value.strength == dealer:
            return self._settle(box, {}, "push", hand=name, ranks=ranks, cards=cards)
        payouts, paid = russian_payouts(box.cards, self.rules)
        results = {"ante": 0, "bet": bet * sum(payout.multiple for payout in payouts)}
        return self._settle(box, results, "won", hand=name, ranks=ranks, cards=counted_cards(box.cards, hand, paid),
                            payouts=payouts)

    def _extra_to_dict(self) -> dict[str, Any]:
        return {"revealed": list(self.revealed)}

    def _extra_from_dict(self, data: Mapping[str, Any]) -> None:
        self.revealed = list(data["revealed"])
