"""The decisions a house box may take: each one's cost and cards (`ActionOption`), those its owner's wallet allows
now (`LegalActions`, `fit_to_wallet`) and those it refuses, with what they need (`Shortfall`, `shortfalls`); and the
cards a draw names (`read_cards`). `engine.house.common.HouseRound` asks them of the box to act.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.cards import Card, CardError
from engine.common import RuleError
from engine.text import log_quote, quote_input


@dataclass(frozen=True, slots=True)
class ActionOption:
    """One action the box to act may take: its name, its cost in chips (per card when `per_card`), card counts, and
    the chips `keep` the wallet must still hold once it is paid (a buy or exchange keeps the box's BET)."""

    name: str
    cost: int = 0
    per_card: bool = False
    min_cards: int = 0
    max_cards: int = 0
    keep: int = 0

    def cost_for(self, cards: int) -> int:
        """What taking this action with `cards` cards costs."""
        return self.cost * (cards if self.per_card else 1)

    def needs(self, cards: int) -> int:
        """What the wallet must hold to take this action with `cards` cards: its cost and what it keeps."""
        return self.cost_for(cards) + self.keep

    def within(self, wallet: int) -> ActionOption | None:
        """This action as a wallet of `wallet` chips allows it: None when even its fewest cards need more; a draw paid
        per card takes at most the cards the wallet pays for. A free action needs nothing."""
        if not self.cost:
            return self
        if self.needs(max(1, self.min_cards)) > wallet:
            return None
        if self.per_card and self.max_cards:
            most = (wallet - self.keep) // self.cost
            if most < self.max_cards:
                return replace(self, max_cards=most)
        return self


@dataclass(frozen=True, slots=True)
class Shortfall:
    """An action the wallet keeps the box to act from taking: it needs `needed` chips, `kept` of them the BET it must
    leave room for (0 when it keeps none). For a draw paid per card, `cards` is the count that needs them: the one
    asked (`HouseRound.shortfall`), or in `shortfalls` the fewest the wallet refuses where it allows fewer (else 0)."""

    action: str
    needed: int
    kept: int = 0
    cards: int = 0


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the box to act may do now (empty when nobody is to act)."""

    player: str | None
    box: int | None
    options: tuple[ActionOption, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The action names, in the order to show them."""
        return tuple(option.name for option in self.options)

    def get(self, name: str) -> ActionOption | None:
        """The option with that name, if legal."""
        return next((option for option in self.options if option.name == name), None)


def fit_to_wallet(options: Iterable[ActionOption], wallet: int) -> tuple[ActionOption, ...]:
    """The options as a wallet of `wallet` chips allows them (see `ActionOption.within`), in their order."""
    allowed_now = (option.within(wallet) for option in options)
    return tuple(option for option in allowed_now if option is not None)


def shortfalls(options: Iterable[ActionOption], wallet: int) -> tuple[Shortfall, ...]:
    """The options a wallet of `wallet` chips refuses, or allows with fewer cards than they take: for a draw paid per
    card, the fewest cards it refuses."""
    found = []
    for option in options:
        allowed_now = option.within(wallet)
        if allowed_now != option:
            found.append(_shortfall(option, 0 if allowed_now is None else allowed_now.max_cards + 1))
    return tuple(found)


def wallet_shortfall(option: ActionOption, wallet: int, cards: int) -> Shortfall | None:
    """What `option` with `cards` cards (its fewest when 0) needs when a wallet of `wallet` chips alone refuses it;
    None when the wallet pays for it."""
    allowed = option.within(wallet)
    return _shortfall(option, cards) if allowed is None or cards > allowed.max_cards else None


def _shortfall(option: ActionOption, cards: int) -> Shortfall:
    """What `option` needs with `cards` cards (its fewest when 0); a draw paid per card names the count asked."""
    return Shortfall(option.name, option.needs(max(1, cards, option.min_cards)), option.keep,
                     cards if option.per_card else 0)


def read_cards(cards: Sequence[Card | str]) -> list[Card]:
    """The chosen cards as Cards; a RuleError (`bad_card`) quoting the first token that is not a card."""
    chosen = []
    for card in cards:
        if isinstance(card, Card):
            chosen.append(card)
            continue
        try:
            chosen.append(Card.parse(card))
        except CardError:
            shown = quote_input(card)
            raise RuleError("bad_card", f"{log_quote(shown)} is not a card (write rank and suit, like As or Td)",
                            card=shown) from None
    return chosen
