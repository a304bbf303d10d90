"""Three Card Poker against the dealer (RULES.md §5): PAIRPLUS on the deal, play or fold, queen-high qualification."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from engine.common import Event
from engine.hands import evaluate_three, is_qualifying_three
from engine.house.actions import ActionOption
from engine.house.boxes import (
    Box,
    BoxStatus,
    ConfigBase,
    Limits,
    Phase,
)
from engine.house.chips import versus_dealer
from engine.house.common import HouseRound
from engine.house.events import DealerCardsShown, Payout

PAIRPLUS: Mapping[str, int] = MappingProxyType(
    {"straight_flush": 40, "three_of_a_kind": 20, "straight": 5, "flush": 4, "pair": 1})
"""RULES.md PAIRPLUS paytable (x:1)."""

ANTE_BONUS: Mapping[str, int] = MappingProxyType({"straight_flush": 4, "three_of_a_kind": 3, "straight": 1})
"""RULES.md ante bonus (x:1 on the ANTE)."""


@dataclass(frozen=True)
class ThreeCardRules(ConfigBase):
    """A Three Card Poker table: limits (ANTE and PAIRPLUS ranges), paytables, the ante-bonus option, qualification.

    `ante_bonus_always`: pay the ante bonus whenever the player plays (the common casino rule) instead of only when he
    wins or ties. `qualifying_rank`: the dealer qualifies with this high card or better (12 = queen).
    """

    limits: Limits = field(default_factory=lambda: TIERS_LIMITS["lite"])
    pairplus: Mapping[str, int] = field(default_factory=lambda: dict(PAIRPLUS))
    ante_bonus: Mapping[str, int] = field(default_factory=lambda: dict(ANTE_BONUS))
    ante_bonus_always: bool = False
    qualifying_rank: int = 12

    @classmethod
    def tier(cls, name: str, **changes: Any) -> ThreeCardRules:
        """The LITE / RESPECT / VIP table (by name, any case), with optional changes."""
        return cls(limits=TIERS_LIMITS[name.lower()], **changes)


TIERS_LIMITS: Mapping[str, Limits] = MappingProxyType({
    "lite": Limits(min_ante=1, max_ante=50, max_boxes=3, max_payout=None, min_side=0, max_side=25),
    "respect": Limits(min_ante=5, max_ante=500, max_boxes=3, max_payout=None, min_side=0, max_side=100),
    "vip": Limits(min_ante=25, max_ante=2000, max_boxes=3, max_payout=None, min_side=0, max_side=500),
})
"""The limit tiers of RULES.md §5: ANTE and PAIRPLUS ranges."""


TIER_FIELDS = ("min_ante", "max_ante", "min_side", "max_side")
"""What a tier sets of a table's limits: its ANTE and PAIRPLUS ranges (the maximum payout and the boxes are no part of
a tier)."""


def with_tier(limits: Limits, name: str) -> Limits:
    """`limits` with the ranges of the tier `name` (any case); the table's maximum payout and boxes kept."""
    tier = TIERS_LIMITS[name.lower()]
    return replace(limits, **{limit: getattr(tier, limit) for limit in TIER_FIELDS})


def tier_of(limits: Limits) -> str | None:
    """The tier whose ranges these limits have, or None: a table whose `min_ante` was changed after choosing VIP is no
    longer VIP."""
    ranges = _ranges(limits)
    return next((name for name, tier in TIERS_LIMITS.items() if _ranges(tier) == ranges), None)


def _ranges(limits: Limits) -> tuple[int, ...]:
    return tuple(getattr(limits, limit) for limit in TIER_FIELDS)


class ThreeCardRound(HouseRound):
    """One round of Three Card Poker. Side bet: `side=` is PAIRPLUS; a box may carry PAIRPLUS alone (ANTE 0)."""

    game = "three-card"
    actions = ("play", "fold")
    rules_type = ThreeCardRules
    side_name = "pairplus"
    box_cards = 3
    table_cards = 3

    @property
    def rules(self) -> ThreeCardRules:
        """This table's rules: `config`, typed as this game's (a compiled subclass may not narrow the attribute)."""
        rules: ThreeCardRules = self.config
        return rules

    def _ante_optional(self) -> bool:
        return True

    def follow_up(self, index: int, ante: int) -> int:
        """The PLAY bet still to come: one ANTE (none for a box with PAIRPLUS alone)."""
        return ante

    def _on_deal(self) -> list[Event]:
        """PAIRPLUS is settled on the deal, told to the box's owner alone (its result gives the cards away); the
        table learns it with the box's result at the end. A box with PAIRPLUS alone has nothing to decide: it
        waits, as played, for the round's end."""
        events = self._deal_boxes()
        self.dealer = self.draw(3)
        for position, box in enumerate(self.boxes):
            if "pairplus" in box.stakes:
                value = evaluate_three(box.cards)
                name = value.category.name.lower()
                multiple = self.rules.pairplus.get(name, 0)
                stake = box.stakes["pairplus"]
                results = {"pairplus": stake * multiple if multiple else -stake}
                events.append(self._settle(box, results, "won" if multiple else "lost", hand=name,
                                           ranks=value.ranks, cards=box.cards, final=False,
                                           payouts=[Payout("pairplus", name, value.ranks, multiple)]))
            if box.ante:
                self.queue.append(position)
            else:
                box.status = BoxStatus.PLAYED
        self.phase = Phase.DECIDING
        return events

    def _options(self, box: Box) -> list[ActionOption]:
        return [ActionOption("play", box.ante), ActionOption("fold")]

    def _apply(self, box: Box, action: str, cards: list[Any]) -> tuple[list[Event], bool]:
        box.history.append(action)
        if action == "fold":
            return self._fold(box), True
        return self._play(box, "play", 1, stake="play"), True

    def _finish_phase(self) -> list[Event]:
        dealer = evaluate_three(self.dealer)
        qualifies = is_qualifying_three(dealer, self.rules.qualifying_rank)
        events: list[Event] = [DealerCardsShown(cards=tuple(self.dealer), hand=dealer.category.name.lower(),
                                                ranks=dealer.ranks, qualifies=qualifies, needs="high_card",
                                                needs_ranks=(self.rules.qualifying_rank,))]
        for box in self._played():
            value = evaluate_three(box.cards)
            name = value.category.name.lower()
            ante = box.ante
            if not ante:  # PAIRPLUS alone, settled on the deal: its result, now public
                outcome = "won" if sum(box.early.values()) > 0 else "lost"
                events.append(self._settle(box, {}, outcome, hand=name, ranks=value.ranks, cards=box.cards))
                continue
            order = (value.strength > dealer.strength) - (value.strength < dealer.strength)
            results, outcome = versus_dealer(order, qualifies, ante, box.stakes["play"], 1, line="play")
            bonus = self.rules.ante_bonus.get(name, 0)
            if bonus and (self.rules.ante_bonus_always or outcome != "lost"):
                results["ante_bonus"] = ante * bonus
            payouts = [Payout("play", name, value.ranks, 1), Payout("ante_bonus", name, value.ranks, bonus)]
            events.append(self._settle(box, results, outcome, hand=name, ranks=value.ranks, cards=box.cards,
                                       payouts=payouts))
        return events + self._end()
