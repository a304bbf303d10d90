"""The shared skeleton of a house-game round: betting, the deal, legal actions, box-by-box decisions, settlement.

Chips move between the accounts described in `engine.house.boxes` (player wallet, box, house); every move is a `Move`
carried by an event, made by `engine.house.chips` (stakes, fees, settlement). The decisions a box may take, and what
the wallet allows of them, are `engine.house.actions`.

Balances: the round keeps a running count of each player's wallet. `place_bets(..., balance=N)` tells it the wallet
as it is now (after every move of this round so far); it is required for a player's first bet. Every later move updates
the count, so decisions (`act`) need no balance. A stake or fee over the count is refused with a `RuleError`, and so is
an ANTE the wallet could not follow (RULES.md): it must leave enough for the BET (or PLAY) of that box and of the
player's other boxes (`follow_up`), so no box is left able only to fold. Where a decision is still limited by the
wallet (fees paid since), `shortfalls` says which actions and by how much.

One deck per round (RULES.md is silent): a table takes no more boxes than the deck can deal (`deck_capacity`, code
`table_full`), the dealer's own later draw is kept in reserve, and when the deck runs short a box's buy or exchange
shrinks to the cards left (`spare_cards`), so a late box may find none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from engine.cards import Card, Deck, parse_cards
from engine.common import Event, IllegalAmount, Move, NotYourTurn, RuleError, allowed
from engine.house.actions import (
    ActionOption,
    LegalActions,
    Shortfall,
    fit_to_wallet,
    read_cards,
    shortfalls,
    wallet_shortfall,
)
from engine.house.boxes import (
    HOUSE,
    Box,
    BoxStatus,
    ConfigBase,
    Limits,
    Phase,
    RoundResult,
    box_account,
    cap,
    hand_name,
    player_account,
)
from engine.house.chips import RoundChips
from engine.house.events import BetsPlaced, BoxActed, BoxCardsDealt, Payout, RoundEnded

DECK_SIZE = 52

__all__ = ["HOUSE", "Box", "BoxStatus", "ConfigBase", "HouseRound", "Limits", "Phase", "RoundResult", "box_account",
           "cap", "hand_name", "player_account"]

# --- the round skeleton ----------------------------------------------------------------------------------


class HouseRound(RoundChips):
    """The shared skeleton of a house-game round: betting, the deal, box-by-box decisions, settlement.

    Subclasses set `game` and `rules_type`, implement `_on_deal`, `_options`, `_apply` and `_finish_phase`, and may
    keep extra state through `_extra_to_dict` / `_extra_from_dict`.
    """

    game: ClassVar[str] = ""
    rules_type: ClassVar[type[ConfigBase]] = ConfigBase
    """The game's table rules (a `ConfigBase` subclass); `new()` uses its defaults."""
    side_name: ClassVar[str] = ""
    """The name of the optional side stake ("pairplus", "bonus"), or "" when the game has none."""
    actions: ClassVar[tuple[str, ...]] = ()
    """Every decision the game has (RULES.md), at any table and in any phase: what a decision command may mean here
    (`_options` offers them; a table option may leave one out, as Caribbean's `re_exchange`)."""
    box_cards: ClassVar[int] = 5
    """Cards dealt to each box."""
    table_cards: ClassVar[int] = 5
    """Cards dealt besides the boxes' on the deal (the dealer's and the community cards)."""
    dealer_up_count: ClassVar[int] = 0
    """How many of the dealer's cards (the last ones dealt) lie face up from the deal on."""

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.phase = Phase.BETTING
        self.deck: Deck | None = None
        self.dealer: list[Card] = []
        self.queue: list[int] = []

    @classmethod
    def new(cls, config: ConfigBase | None = None) -> Self:
        """A round in its betting phase (the game's default rules when `config` is None)."""
        return cls(config or cls.rules_type())

    # --- betting -----------------------------------------------------------------------------------------

    def find_box(self, player: str, index: int) -> Box | None:
        """The player's box with that number, if he has bet on it."""
        return next((box for box in self.boxes if box.owner == player and box.index == index), None)

    def is_blind(self, index: int) -> bool:
        """Whether box number `index` plays blind (its rules' `blind_box`; a game without one has none)."""
        blind_box = getattr(self.config, "blind_box", None)
        return blind_box is not None and index == blind_box

    def _stakes_for(self, index: int, ante: int, side: int) -> dict[str, int]:
        """The stakes placed at once on a box: ANTE, the side bet, and a blind box's BET (twice the ANTE)."""
        stakes = {"ante": ante}
        if side:
            stakes[self.side_name] = side
        if self.is_blind(index):
            stakes["bet"] = 2 * ante
        return stakes

    def verify_place_bets(self, player: str, box: int, ante: int, *, side: int = 0,
                          balance: int | None = None) -> None:
        """Raise a RuleError unless the player may put `ante` (and `side`) on his box number `box` now."""
        limits = self.limits
        if self.phase is not Phase.BETTING:
            raise RuleError("not_betting", "bets are closed for this round")
        if len(self.boxes) >= self.deck_capacity:
            raise RuleError("table_full", f"one deck deals at most {self.deck_capacity} boxes at this table",
                            boxes=self.deck_capacity)
        if not 1 <= box <= limits.max_boxes:
            raise RuleError("bad_box", f"box must be 1 to {limits.max_boxes}", box=box)
        if self.find_box(player, box) is not None:
            raise RuleError("box_taken", f"you already bet on box {box}", box=box)
        if box > 1 and self.find_box(player, box - 1) is None:
            raise RuleError("box_order", f"bet on box {box - 1} first", box=box)
        if side:
            self.verify_side(side)
        if ante == 0 and not side and self._ante_optional():
            raise IllegalAmount("ante_alone_needs_side", f"an ANTE of 0 is for a box with the {self.side_name} bet "
                                f"alone: add it, or bet an ANTE of {limits.min_ante} to {limits.max_ante}",
                                min=limits.min_ante, max=limits.max_ante, stake=self.side_name)
        if not (ante == 0 and side > 0 and self._ante_optional()) and not limits.min_ante <= ante <= limits.max_ante:
            raise IllegalAmount("bad_ante", f"ANTE must be {limits.min_ante} to {limits.max_ante}", amount=ante,
                                min=limits.min_ante, max=limits.max_ante)
        if balance is None and player not in self.wallets:
            raise RuleError("balance_unknown", "the player's balance is needed with his first bet")
        available = self.wallets.get(player, 0) if balance is None else balance
        total = sum(self._stakes_for(box, ante, side).values())
        if total > available:
            raise IllegalAmount("over_balance", f"the bets need {total} chips but you have {available}",
                                amount=total, balance=available)
        pending = sum(self.follow_up(item.index, item.ante) for item in self.boxes if item.owner == player)
        needed = total + self.follow_up(box, ante) + pending
        if needed > available and self.is_blind(box):  # its BET goes on now: only the other boxes' are to follow
            raise IllegalAmount("blind_follow_up_over_balance", f"box {box} plays blind, its BET goes on with the "
                                f"ANTE: with the BETs to follow on your other boxes that needs {needed} chips but you "
                                f"have {available}", amount=needed, balance=available, box=box)
        if needed > available:
            raise IllegalAmount("follow_up_over_balance", f"with the bets to follow (BET or PLAY) your boxes need "
                                f"{needed} chips but you have {available}", amount=needed, balance=available,
                                box=box)

    def verify_side(self, side: int) -> None:
        """Raise a RuleError unless the table takes a side bet of `side` chips: one within its range, or a named 0,
        which is no side bet, where the range starts at 0 (RULES.md §5: PAIRPLUS 0–25; Caribbean Poker's bonus has
        one size, so a bonus of 0 is refused with it). `place_bets` reads a `side` of 0 as none named."""
        limits = self.limits
        if not self.side_name:
            raise RuleError("no_side_bet", "this game has no side bet")
        lowest = max(limits.min_side, 1)
        if side < 0 or (side == 0 and limits.min_side > 0) or (side and not lowest <= side <= limits.max_side):
            raise IllegalAmount("bad_side", f"the {self.side_name} bet must be {lowest} to {limits.max_side}",
                                amount=side, min=lowest, max=limits.max_side, stake=self.side_name)

    def follow_up(self, index: int, ante: int) -> int:
        """The largest bet box number `index` with `ante` may still have to place after the deal: its BET, twice the
        ANTE (none for a blind box, whose BET goes on with the ANTE, or a box with no ANTE)."""
        return 0 if self.is_blind(index) else 2 * ante

    def held(self, player: str) -> int:
        """What the player's boxes may still have to bet (each box's `follow_up` until it plays or folds): the chips
        his wallet keeps for them, which no other table may spend meanwhile (RULES.md: no box left able only to
        fold)."""
        return sum(self.follow_up(box.index, box.ante) for box in self.boxes
                   if box.owner == player and box.status in (BoxStatus.PLACED, BoxStatus.DEALT))

    def _ante_optional(self) -> bool:
        """Whether a box may carry only a side bet (Three Card Poker's PAIRPLUS alone)."""
        return False

    def can_place_bets(self, player: str, box: int, ante: int, *, side: int = 0, balance: int | None = None) -> bool:
        """Whether `place_bets` would be accepted."""
        return allowed(self.verify_place_bets, player, box, ante, side=side, balance=balance)

    def place_bets(self, player: str, box: int, ante: int, *, side: int = 0,
                   balance: int | None = None) -> list[Event]:
        """Put ANTE (and the side bet) on the player's box `box`; `balance` is his wallet now (see module doc)."""
        self.verify_place_bets(player, box, ante, side=side, balance=balance)
        if balance is not None:
            self.wallets[player] = balance
        new = Box(owner=player, index=box, stakes={})
        self.boxes.append(new)
        order = list(dict.fromkeys(item.owner for item in self.boxes))
        self.boxes.sort(key=lambda item: (order.index(item.owner), item.index))
        moves: list[Move] = []
        for name, amount in self._stakes_for(box, ante, side).items():
            if amount:
                moves.extend(self._stake(new, name, amount))
        return [BetsPlaced(player=player, box=box, stakes=dict(new.stakes), moves=tuple(moves))]

    # --- the deal ----------------------------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise a RuleError unless the cards may be dealt now."""
        if self.phase is not Phase.BETTING:
            raise RuleError("already_dealt", "the cards are already dealt")
        if not self.boxes:
            raise RuleError("no_bets", "nobody has bet yet")

    def can_deal(self) -> bool:
        """Whether `deal` would be accepted."""
        return allowed(self.verify_deal)

    def deal(self, deck: Deck) -> list[Event]:
        """Close the bets and deal from `deck` (which the round keeps for later draws)."""
        self.verify_deal()
        self.deck = deck
        for box in self.boxes:
            box.status = BoxStatus.DEALT
        events = self._on_deal()
        return events + self._advance()

    def _on_deal(self) -> list[Event]:
        raise NotImplementedError

    def _deal_boxes(self, *, show: bool = True) -> list[Event]:
        """Deal `box_cards` cards to every box; with `show`, each owner's cards as private events (else none)."""
        for box in self.boxes:
            box.cards = self.draw(self.box_cards)
        return [self._box_cards_dealt(box) for box in self.boxes] if show else []

    @staticmethod
    def _box_cards_dealt(box: Box) -> BoxCardsDealt:
        """The box's cards, shown to its owner only."""
        return BoxCardsDealt(player=box.owner, box=box.index, cards=tuple(box.cards), visible_to=box.owner)

    def _open_decisions(self) -> None:
        """Blind boxes play at once; every other box is queued for its decision, and the deciding phase begins."""
        for position, box in enumerate(self.boxes):
            if self.is_blind(box.index):
                box.status = BoxStatus.PLAYED
            else:
                self.queue.append(position)
        self.phase = Phase.DECIDING

    # --- decisions ---------------------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[str, int] | None:
        """The (player, box number) to decide now, or None."""
        if not self.queue:
            return None
        box = self.boxes[self.queue[0]]
        return box.owner, box.index

    @property
    def is_over(self) -> bool:
        """Whether every box is settled."""
        return self.phase is Phase.OVER

    def dealer_shown(self) -> list[Card | None]:
        """The dealer's cards as the table sees them, in order: a Card face up, None face down (empty before the
        deal). All face up once the round is over."""
        if self.is_over:
            return list(self.dealer)
        down = max(0, len(self.dealer) - self.dealer_up_count)
        return [None] * down + list(self.dealer[down:])

    def community_shown(self) -> list[Card]:
        """The community cards face up now (none in a game without them)."""
        return []

    def current_box(self) -> Box | None:
        """The box to act, if any."""
        return self.boxes[self.queue[0]] if self.queue else None

    def owner_sees(self, box: Box) -> bool:
        """Whether the box's owner has been shown its cards (dealt, in most games): what his private views may show."""
        return bool(box.cards)

    def legal_actions(self) -> LegalActions:
        """The actions the box to act may take, with their costs, as its owner's wallet allows them."""
        box = self.current_box()
        if box is None:
            return LegalActions(None, None)
        return LegalActions(box.owner, box.index, fit_to_wallet(self._options(box), self.wallets[box.owner]))

    def shortfalls(self) -> tuple[Shortfall, ...]:
        """The actions the wallet alone keeps the box to act from taking, or from taking with as many cards as the
        deck allows, so the table can say why ("BET needs 200, you have 90", "Buy needs 30 with the BET, you
        have 25")."""
        box = self.current_box()
        return () if box is None else shortfalls(self._options(box), self.wallets[box.owner])

    def shortfall(self, action: str, cards: int = 0) -> Shortfall | None:
        """What the wallet needs for the box to act to take `action` with `cards` cards (a draw's fewest when 0),
        when the wallet alone refuses it; None when the wallet pays for it, or when something else would refuse it
        (no such action now, more cards than the action takes)."""
        box = self.current_box()
        option = None if box is None else next((item for item in self._options(box) if item.name == action), None)
        if box is None or option is None or cards > option.max_cards:
            return None
        return wallet_shortfall(option, self.wallets[box.owner], cards)

    def _verify_wallet_pays(self, action: str, cards: int) -> None:
        """Raise the wallet's reason (`short_of_chips`, with the `Shortfall` as `short`) when it alone refuses
        `action` with `cards` cards to the box to act (RULES.md: a bet over the wallet is refused with the reason)."""
        short = self.shortfall(action, cards)
        if short is not None:
            box = self.current_box()
            assert box is not None
            wallet = self.wallets[box.owner]
            kept = f" (the BET's {short.kept} included)" if short.kept else ""
            raise IllegalAmount("short_of_chips", f"{action} needs {short.needed} chips{kept} but you have {wallet}",
                                short=short, balance=wallet)

    def _options(self, box: Box) -> list[ActionOption]:
        """The box's actions were its owner's wallet bottomless (`legal_actions` fits them to the wallet)."""
        raise NotImplementedError

    def verify_act(self, player: str, action: str, cards: Sequence[Card | str] = ()) -> None:
        """Raise a RuleError unless `player` may take `action` (discarding `cards` where it draws) now."""
        box = self.current_box()
        if box is None:
            raise RuleError("nothing_to_decide", "there is no decision to take now")
        if player != box.owner:
            raise NotYourTurn("not_your_turn", f"it is {box.owner}'s turn (box {box.index})", player=box.owner)
        option = self.legal_actions().get(action)
        if option is None:
            self._verify_wallet_pays(action, len(cards))
            names = ", ".join(self.legal_actions().names)
            raise RuleError("illegal_action", f"{action!r} is not possible now; you may: {names}", action=action)
        chosen = read_cards(cards)
        if option.max_cards == 0 and chosen:
            raise RuleError("no_cards_needed", f"{action} takes no cards")
        if option.max_cards:
            if not option.min_cards <= len(chosen) <= option.max_cards:
                self._verify_wallet_pays(action, len(chosen))
                raise RuleError("card_count", f"{action} needs {option.min_cards} to {option.max_cards} cards",
                                count=len(chosen))
            if len(set(chosen)) != len(chosen):
                raise RuleError("card_twice", "name each card once")
            if any(card not in box.cards for card in chosen):
                raise RuleError("not_your_cards", "you can only discard cards of this box")
        self._verify_affordable(player, option.cost_for(len(chosen)), action)

    def can_act(self, player: str, action: str, cards: Sequence[Card | str] = ()) -> bool:
        """Whether `act` would be accepted."""
        return allowed(self.verify_act, player, action, cards)

    def act(self, player: str, action: str, cards: Sequence[Card | str] = ()) -> list[Event]:
        """Take a decision on the box to act; returns what happened (and what followed, up to the next decision)."""
        self.verify_act(player, action, cards)
        box = self.current_box()
        assert box is not None
        events, done = self._apply(box, action, read_cards(cards))
        if done:
            self.queue.pop(0)
            events += self._advance()
        return events

    def _apply(self, box: Box, action: str, cards: list[Card]) -> tuple[list[Event], bool]:
        """Apply a verified action; return its events and whether the box is done for this phase."""
        raise NotImplementedError

    def _fold(self, box: Box, *, side: Mapping[str, int] | None = None, cards: Sequence[Card] = (),
              payouts: Sequence[Payout] = ()) -> list[Event]:
        """The box folds: it loses its ANTE (`side` adds the side bet's line, `payouts` what paid it) at once, and
        its owner alone learns what the side bet did; the box's public result comes when the round ends (`_end`),
        as a side bet's would give its cards away while other boxes still decide."""
        box.status = BoxStatus.FOLDED
        return [BoxActed(player=box.owner, box=box.index, action="fold"),
                self._settle(box, {"ante": -box.ante, **(side or {})}, "folded", cards=cards, payouts=payouts,
                             final=False)]

    def _play(self, box: Box, action: str, multiple: int, stake: str = "bet") -> list[Event]:
        """The box plays on: `multiple` times its ANTE goes on the `stake` line."""
        cost = multiple * box.ante
        moves = self._stake(box, stake, cost)
        box.status = BoxStatus.PLAYED
        return [BoxActed(player=box.owner, box=box.index, action=action, cost=cost, moves=moves)]

    def _advance(self) -> list[Event]:
        """Move to the next phase while nobody has a decision to take."""
        events: list[Event] = []
        while not self.queue and self.phase is not Phase.OVER:
            events += self._finish_phase()
        box = self.current_box()
        if box is not None:
            events += self._on_turn(box)
        return events

    def _on_turn(self, box: Box) -> list[Event]:
        """What to show when a box's turn comes (games that reveal boxes one at a time override this)."""
        return []

    def _finish_phase(self) -> list[Event]:
        """Everyone has decided in this phase: set up the next one (fill `queue`) or settle and end."""
        raise NotImplementedError

    def _played(self) -> list[Box]:
        """The boxes that play against the dealer (BET placed, not yet settled)."""
        return [box for box in self.boxes if box.status is BoxStatus.PLAYED]

    def _end(self) -> list[Event]:
        """The round is over: the folded boxes get their public result (settled at the fold), then every net."""
        events: list[Event] = [self._settle(box, {}, "folded") for box in self.boxes
                               if box.status is BoxStatus.FOLDED]
        self.phase = Phase.OVER
        result = self.result()
        return [*events, RoundEnded(nets=dict(result.players))]

    # --- the deck ----------------------------------------------------------------------------------------

    def _reserved_cards(self) -> int:
        """Cards the deck keeps after the players' draws for the dealer's own later draw."""
        return 0

    @property
    def deck_capacity(self) -> int:
        """How many boxes one deck can deal at this table (the players' draws come from what is left)."""
        return (DECK_SIZE - self.table_cards - self._reserved_cards()) // self.box_cards

    def spare_cards(self) -> int:
        """Cards the players may still draw: the deck's remainder less the dealer's reserve (0 before the deal).

        When the deck runs short a later box may draw only what is left; its buy or exchange options shrink to fit.
        """
        return 0 if self.deck is None else max(0, self.deck.remaining - self._reserved_cards())

    def draw(self, count: int) -> list[Card]:
        """Cards from the round's deck."""
        assert self.deck is not None
        return self.deck.deal(count)

    # --- results and saving ------------------------------------------------------------------------------

    def result(self) -> RoundResult:
        """Net per box and per player so far (final once `is_over`)."""
        boxes = {(box.owner, box.index): box.net for box in self.boxes}
        players: dict[str, int] = {}
        for box in self.boxes:
            players[box.owner] = players.get(box.owner, 0) + box.net
        return RoundResult(boxes, players)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form from which `from_dict` rebuilds an equal round (remaining deck included)."""
        return {"game": self.game, "config": self.config.to_dict(), "phase": self.phase.value,
                "boxes": [box.to_dict() for box in self.boxes], "wallets": dict(self.wallets),
                "deck": None if self.deck is None else self.deck.to_list(),
                "dealer": [str(card) for card in self.dealer], "queue": list(self.queue),
                "extra": self._extra_to_dict()}

    def _extra_to_dict(self) -> dict[str, Any]:
        return {}

    def _extra_from_dict(self, data: Mapping[str, Any]) -> None:
        return None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild a round saved by `to_dict`."""
        if data["game"] != cls.game:
            raise ValueError(f"a {data['game']!r} round cannot be loaded as {cls.game!r}")
        round_ = cls(cls.rules_type.from_dict(data["config"]))
        round_.phase = Phase(data["phase"])
        round_.boxes = [Box.from_dict(item) for item in data["boxes"]]
        round_.wallets = dict(data["wallets"])
        round_.deck = None if data["deck"] is None else Deck.from_list(data["deck"])
        round_.dealer = parse_cards(data["dealer"])
        round_.queue = list(data["queue"])
        round_._extra_from_dict(data["extra"])
        return round_

