"""A home Hold'em tournament: entrants, buy-ins, cash-outs, eliminations, pawned items, its clock, and the settlement.

The tournament's bank is the counterparty of every buy-in and cash-out: players pay the buy-in in money units and get
chips at the rate; before the start a player may unregister, the chips going back to the bank and the buy-in to him (he
is then no entrant at all); cashing out (between hands, once, for good) turns chips back into money at the same rate.
The chips of a hand move between stacks inside the Hold'em table; this object only counts the chips in play (issued by
the bank, not yet returned), so that at the end the remaining stacks must add up to exactly that. At the end the bank is
empty, and each player's net is cashed out - paid in - items bought back; the settlement says who pays whom.

Pawned items (RULES.md §1): a loan from the bank. The bank holds the item and the player's stack grows by its value in
chips; between hands he may redeem it by paying those chips back; otherwise he buys it back at the rate when he cashes
out or at the end (100 chips at 6 per unit = 50/3 units, exactly). The Hold'em table adds the chips to the stack and its
pawn event carries that chip move; `record_pawn` records the item and the debt and carries no move, so the ledger counts
the chips once. Ask `verify_pawn` (or `can_pawn`) before letting the table add the chips.

Tournament options (RULES.md §1c, all off by default): rebuys (a count per player) while his stack is at or below the
starting stack during the rebuy period, which runs until the first break; add-ons (a count per player) during the first
break; re-entry for a busted player while late registration is open; a bounty (money units out of each first buy-in) on
every entrant's head. A rebuy, an add-on and a re-entry each buy the starting stack at the rate, which is the buy-in
less the bounty (rebuys and re-entries carry no bounty, RULES.md §1c). Each is a payment to the bank like the buy-in.

Add-ons missed with the first break (RULES.md §1c is silent): when the application was down across the whole first
break (it acted on nothing of the clock from before the break began until after it ended), nobody could buy the
add-on the rules promise at that break. As a card room whose clock failed would, the add-on is sold once play is back:
from the restart, for as long as the missed break lasted (an hour for `home-night`'s 19:00-20:00), between hands as
at the break (`reopen_addons`).

Choices where the rules are silent: late registration (a setting, on by default) is open until the first player leaves
(by elimination or cash-out); when the tournament has rebuys or re-entry it is open during the rebuy period instead (as
in a card room, late registration ends with the rebuy period), and a busted player may come back by a rebuy (one of
his count) or a re-entry. Places go to eliminated players in order (the first out of n gets n-th); whoever comes back
or joins late ranks above everyone out, whose places move down to keep them consistent. Players who cash out
mid-tournament have no place, and players still in when the organizer closes the tournament are placed by their stacks
(equal stacks share a place). Items count against the limit when pawned, even if redeemed later. The schedule must have
a break for rebuys, add-ons or re-entry (their period ends at it). A bounty is collected when its holder busts (see
`engine.bounty` for who collects it); after a re-entry or a rebuy from zero he carries none. A bounty nobody collected
(its holder still in at the end, cashed out, or out without a pot naming who took his chips) goes back to its holder.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from typing import Any

from engine.bounty import eliminators, split_bounty
from engine.clock import Clock
from engine.clock_events import TournamentEvent
from engine.clock_time import from_iso, to_iso, to_utc
from engine.common import Event, IllegalAmount, Move, RuleError, allowed
from engine.holdem_types import PawnRules, PotAward
from engine.schedule import Schedule
from engine.settlement import CENT, Settlement, SettlementRow, build_settlement, fraction_from_text, fraction_to_text

BANK = "bank"
"""The tournament bank's account name in chip moves; a player's chips are `stack:<player>`."""


class Phase(StrEnum):
    """Where the tournament is."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class EntrantStatus(StrEnum):
    """Where one entrant is."""

    REGISTERED = "registered"
    PLAYING = "playing"
    CASHED_OUT = "cashed_out"
    ELIMINATED = "eliminated"


class ItemStatus(StrEnum):
    """What became of a pawned item."""

    HELD = "held"
    REDEEMED = "redeemed"
    BOUGHT_BACK = "bought_back"


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """The tournament's money and chips: buy-in (money units) for `chips`, rebuys, add-ons, re-entry, the bounty out of
    each buy-in, pawning; defaults from RULES.md (no rebuys, add-ons, re-entry or bounty)."""

    buy_in: Fraction = Fraction(50)
    chips: int = 300
    rebuys: int = 0
    late_registration: bool = True
    max_pawns: int = 3
    pawn_chips: int = 100
    min_players: int = 2
    addons: int = 0
    reentry: bool = False
    bounty: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "buy_in", Fraction(self.buy_in))
        object.__setattr__(self, "bounty", Fraction(self.bounty))
        if self.buy_in <= 0 or self.chips <= 0 or self.pawn_chips <= 0 or self.max_pawns < 0 or self.min_players < 2:
            raise ValueError("buy-in, chips and pawn value must be positive, pawns not negative, at least 2 players")
        if self.rebuys < 0 or self.addons < 0:
            raise ValueError("rebuys and add-ons are counts, not negative")
        if not 0 <= self.bounty < self.buy_in or (self.bounty / CENT).denominator != 1:
            raise ValueError("the bounty is whole cents, less than the buy-in")

    @property
    def stack_price(self) -> Fraction:
        """What the starting stack costs: the buy-in less its bounty (a rebuy, an add-on and a re-entry pay this)."""
        return self.buy_in - self.bounty

    @property
    def rate(self) -> Fraction:
        """Chips per money unit (300 chips for 50 units: 6; with a bounty of 10 out of 50, 300 for 40: 7.5)."""
        return Fraction(self.chips) / self.stack_price

    def to_money(self, chips: int) -> Fraction:
        """Chips in money units at the rate, exactly."""
        return Fraction(chips) / self.rate

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {"buy_in": fraction_to_text(self.buy_in), "chips": self.chips, "rebuys": self.rebuys,
                "late_registration": self.late_registration, "max_pawns": self.max_pawns,
                "pawn_chips": self.pawn_chips, "min_players": self.min_players, "addons": self.addons,
                "reentry": self.reentry, "bounty": fraction_to_text(self.bounty)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        """The config `to_dict` wrote (one saved before the options existed has none of them)."""
        data = {key: value for key, value in data.items() if key != "rebuys_allowed"}  # an older flag, never on
        return cls(**{**data, "buy_in": fraction_from_text(data["buy_in"]),
                      "bounty": fraction_from_text(data.get("bounty", 0))})


@dataclass(slots=True)
class Entrant:
    """One player in the tournament: status, how many starting stacks he bought (the buy-in, then each rebuy, add-on
    and re-entry), chips cashed out, finishing place, the counts of each option used, the bounty on his head and the
    bounties he collected (money units)."""

    player: str
    status: EntrantStatus
    buy_ins: int = 1
    cashed_out_chips: int = 0
    place: int | None = None
    rebuys: int = 0
    addons: int = 0
    reentries: int = 0
    bounty: Fraction = Fraction(0)
    bounties_won: Fraction = Fraction(0)

    def paid_in(self, config: TournamentConfig) -> Fraction:
        """Money paid to the bank: the buy-in, then the starting stack's price for each rebuy, add-on and re-entry."""
        return config.buy_in + (self.buy_ins - 1) * config.stack_price


@dataclass(slots=True)
class PawnedItem:
    """An item pawned to the bank: owner, holder (the bank), value in chips, and the hand it was pawned in."""

    item_id: int
    owner: str
    description: str
    chips: int
    hand_number: int
    status: ItemStatus = ItemStatus.HELD
    holder: str = BANK


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(TournamentEvent):
    """A player paid the buy-in (`money` units) and got `chips`."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class PlayerUnregistered(TournamentEvent):
    """Before the start, a player withdrew: his `chips` went back to the bank and his buy-in (`money` units) to him."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class PlayerRebought(TournamentEvent):
    """A player at or below the starting stack (or busted) bought it again for `money` units; `rebuys` so far."""

    player: str
    money: Fraction
    chips: int
    rebuys: int = 1


@dataclass(frozen=True, kw_only=True)
class PlayerAddedOn(TournamentEvent):
    """At the first break, a player still in bought the starting stack once more for `money` units."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class AddonsReopened(TournamentEvent):
    """The first break passed while nobody could buy an add-on (the application was down across it): add-ons are
    sold again from `at` until `until`."""

    at: datetime
    until: datetime


@dataclass(frozen=True, kw_only=True)
class PlayerReentered(TournamentEvent):
    """A busted player registered again during late registration, for `money` units (no bounty)."""

    player: str
    money: Fraction
    chips: int


@dataclass(frozen=True, kw_only=True)
class BountyCollected(TournamentEvent):
    """`player` busted: his bounty of `money` units went to the winners of the pot that eliminated him."""

    player: str
    money: Fraction
    winners: dict[str, Fraction] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class TournamentStarted(TournamentEvent):
    """Play began with these players."""

    at: datetime
    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ItemBoughtBack(TournamentEvent):
    """The owner bought his pawned item back from the bank for `money` units."""

    item_id: int
    owner: str
    description: str
    money: Fraction


@dataclass(frozen=True, kw_only=True)
class PlayerCashedOut(TournamentEvent):
    """A player exchanged `chips` for `money` units and left the tournament: before its end (no place), or, when
    `is_final`, at its end, with the stack he finished with (placed by it)."""

    player: str
    chips: int
    money: Fraction
    is_final: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerEliminated(TournamentEvent):
    """A player lost his last chip and finished in `place`."""

    player: str
    place: int


@dataclass(frozen=True, kw_only=True)
class PawnRecorded(TournamentEvent):
    """The bank took an item in pawn for `chips`; the owner owes `price` units for it unless he redeems it."""

    item_id: int
    owner: str
    description: str
    chips: int
    hand_number: int
    price: Fraction


@dataclass(frozen=True, kw_only=True)
class PawnRedeemed(TournamentEvent):
    """The owner paid the item's chips back to the bank and has it again."""

    item_id: int
    owner: str
    description: str
    chips: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(TournamentEvent):
    """The tournament closed; `places` maps each placed player to his place, best first; `cashed_out` names those who
    cashed out before the end (they played it but take no place)."""

    at: datetime
    places: dict[str, int] = field(default_factory=dict)
    cashed_out: tuple[str, ...] = ()


class Tournament:
    """The tournament's state; every action is a verify / can / do triad returning events."""

    def __init__(self, config: TournamentConfig, schedule: Schedule, *, warnings: tuple[int, ...] = (5, 1)) -> None:
        if (config.rebuys or config.addons or config.reentry) and first_break(schedule) is None:
            raise RuleError("needs_break", "rebuys, add-ons and re-entry run until the first break, and this schedule "
                            "has none")
        self.config = config
        self.clock = Clock(schedule, warnings=warnings)
        self.phase = Phase.REGISTERING
        self.entrants: dict[str, Entrant] = {}
        self.items: list[PawnedItem] = []
        self.chips_in_play = 0
        self.finished_at: datetime | None = None
        self.addons_reopened: tuple[datetime, datetime] | None = None
        """From when until when add-ons missed with the first break are sold again (`reopen_addons`)."""

    # --- registration and start ------------------------------------------------------------------------------------

    def verify_register(self, player: str, now: datetime | None = None) -> None:
        """Raise unless `player` may buy in now, or re-enter (busted, during late registration, when the tournament
        allows it). While the tournament runs, `now` says whether a late registration period by the clock is open."""
        if self.phase is Phase.FINISHED:
            raise RuleError("tournament_finished", "the tournament is over")
        entrant = self.entrants.get(player)
        if entrant is not None:
            if entrant.status is EntrantStatus.CASHED_OUT:
                raise RuleError("cashed_out", "you cashed out of this tournament: that was for good", player=player)
            if entrant.status is not EntrantStatus.ELIMINATED:
                raise RuleError("already_registered", "you are already in this tournament", player=player)
            if not self.config.reentry:
                raise RuleError("no_reentry", "re-entry is not allowed in this tournament", player=player)
        if self.phase is Phase.RUNNING and not self._late_registration_open(now):
            raise RuleError("registration_closed", "registration is closed")

    def can_register(self, player: str, now: datetime | None = None) -> bool:
        """Whether `register(player, now)` is allowed."""
        return allowed(self.verify_register, player, now)

    def entry_price(self, player: str) -> Fraction:
        """What `register` charges the player: the buy-in, or for a busted player re-entering the starting stack's
        price (no bounty)."""
        return self.config.stack_price if player in self.entrants else self.config.buy_in

    def register(self, player: str, now: datetime | None = None) -> list[Event]:
        """Buy in: the player pays the buy-in and gets the starting chips (playing at once when late); a busted player
        re-entering pays the starting stack's price (no bounty) and plays on (`entry_price`)."""
        self.verify_register(player, now)
        price = self.entry_price(player)
        entrant = self.entrants.get(player)
        if entrant is not None:
            entrant.reentries += 1
            entrant.buy_ins += 1
            self._come_back(entrant)
            return [PlayerReentered(player=player, money=price, chips=self.config.chips,
                                    moves=(self._issue(player, self.config.chips, "re-entry"),))]
        status = EntrantStatus.PLAYING if self.phase is Phase.RUNNING else EntrantStatus.REGISTERED
        self.entrants[player] = Entrant(player, status, bounty=self.config.bounty)
        self._renumber_places()
        return [PlayerRegistered(player=player, money=price, chips=self.config.chips,
                                 moves=(self._issue(player, self.config.chips, "buy-in"),))]

    def verify_unregister(self, player: str) -> None:
        """Raise unless `player` is registered and play has not begun (after the start he may only cash out)."""
        if self.phase is not Phase.REGISTERING:
            raise RuleError("tournament_started", "the tournament has already started")
        if player not in self.entrants:
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)

    def can_unregister(self, player: str) -> bool:
        """Whether `unregister(player)` is allowed."""
        return allowed(self.verify_unregister, player)

    def unregister(self, player: str) -> list[Event]:
        """Withdraw before the start: the chips go back to the bank, the buy-in back to the player, as if he had never
        registered."""
        self.verify_unregister(player)
        entrant = self.entrants.pop(player)
        chips = entrant.buy_ins * self.config.chips
        self.chips_in_play -= chips
        return [PlayerUnregistered(player=player, money=entrant.paid_in(self.config), chips=chips,
                                   moves=(Move(f"stack:{player}", BANK, chips, "unregister"),))]

    def verify_start(self, now: datetime) -> None:
        """Raise unless play can begin (registering, enough players)."""
        to_utc(now)
        if self.phase is not Phase.REGISTERING:
            raise RuleError("tournament_started", "the tournament has already started")
        if len(self.entrants) < self.config.min_players:
            raise RuleError("too_few_players", f"at least {self.config.min_players} players are needed",
                            needed=self.config.min_players)

    def can_start(self, now: datetime) -> bool:
        """Whether `start(now)` is allowed."""
        return allowed(self.verify_start, now)

    def start(self, now: datetime) -> list[Event]:
        """Begin play and start the clock."""
        self.verify_start(now)
        events = self.clock.start(now)
        self.phase = Phase.RUNNING
        for entrant in self.entrants.values():
            entrant.status = EntrantStatus.PLAYING
        return [TournamentStarted(at=to_utc(now), players=tuple(self.entrants)), *events]

    # --- leaving ---------------------------------------------------------------------------------------------------

    def verify_cash_out(self, player: str, chips: int) -> None:
        """Raise unless `player` (playing) may exchange `chips` (his whole stack) for money now."""
        self._verify_playing(player)
        if chips < 0 or chips > self.chips_in_play:
            raise IllegalAmount("bad_chips", f"{chips} chips is not a stack in this tournament", chips=chips)

    def can_cash_out(self, player: str, chips: int) -> bool:
        """Whether `cash_out(player, chips)` is allowed."""
        return allowed(self.verify_cash_out, player, chips)

    def cash_out(self, player: str, chips: int) -> list[Event]:
        """Exchange the player's chips for money at the rate, buy back his items, and remove him for good.

        Between hands only: the application calls it when no hand is running at his table.
        """
        self.verify_cash_out(player, chips)
        return self._cash_out(player, chips)

    def verify_eliminate(self, player: str) -> None:
        """Raise unless `player` is playing and is not the last one (the last one wins: `finish`)."""
        self._verify_playing(player)
        if sum(entrant.status is EntrantStatus.PLAYING for entrant in self.entrants.values()) < 2:
            raise RuleError("last_player", "the last player in is the winner, not eliminated", player=player)

    def can_eliminate(self, player: str) -> bool:
        """Whether `eliminate(player)` is allowed."""
        return allowed(self.verify_eliminate, player)

    def eliminate(self, player: str) -> list[Event]:
        """The player has no chips left: he finishes in the place after everyone still playing."""
        self.verify_eliminate(player)
        place = sum(entrant.status is EntrantStatus.PLAYING for entrant in self.entrants.values())
        entrant = self.entrants[player]
        entrant.status, entrant.place = EntrantStatus.ELIMINATED, place
        return [PlayerEliminated(player=player, place=place)]

    def eliminate_busted(self, busted: Sequence[str], starting_stacks: Mapping[str, int], *,
                         pots: Sequence[PotAward] = (), order: Sequence[str] = ()) -> list[Event]:
        """Players who lost their last chip in the same hand, eliminated together: whoever began that hand with more
        chips finishes higher (card-room practice), and equal stacks share the better place, as at `finish`. Someone
        must be left playing: he is not eliminated but wins (`finish`). With the hand's `pots` and its seat `order`
        from the first left of the button, each one's bounty goes to the winners of the pot that eliminated him."""
        busted = [player for player in dict.fromkeys(busted)
                  if player in self.entrants and self.entrants[player].status is EntrantStatus.PLAYING]
        playing = sum(entrant.status is EntrantStatus.PLAYING for entrant in self.entrants.values())
        if busted and playing - len(busted) < 1:
            raise RuleError("last_player", "the last player in is the winner, not eliminated", player=busted[-1])
        events: list[Event] = []
        by_stack = sorted(busted, key=lambda player: starting_stacks.get(player, 0))
        for _, tied in itertools.groupby(by_stack, key=lambda player: starting_stacks.get(player, 0)):
            group = sorted(tied, key=busted.index)
            place = playing - len(group) + 1
            for player in group:
                entrant = self.entrants[player]
                entrant.status, entrant.place = EntrantStatus.ELIMINATED, place
                events.append(PlayerEliminated(player=player, place=place))
                events += self._collect_bounty(player, pots, order)
            playing -= len(group)
        return events

    # --- rebuys, add-ons ------------------------------------------------------------------------------------------

    def is_rebuy_period(self, now: datetime) -> bool:
        """Whether the rebuy period runs at `now`: the tournament is running and its first break has not begun."""
        first = first_break(self.clock.schedule)
        return self.phase is Phase.RUNNING and first is not None and self.clock.level_at(now).index < first

    def is_addon_time(self, now: datetime) -> bool:
        """Whether add-ons are sold at `now`: the tournament is running and its first break is on, or add-ons missed
        with it are sold again (`reopen_addons`)."""
        first = first_break(self.clock.schedule)
        if self.phase is not Phase.RUNNING or first is None:
            return False
        if self.addons_reopened is not None and self.addons_reopened[0] <= to_utc(now) < self.addons_reopened[1]:
            return True
        return self.clock.level_at(now).index == first

    def verify_reopen_addons(self, unseen_since: datetime, now: datetime) -> None:
        """Raise unless add-ons are to be sold again from `now`, the application having acted on nothing of the clock
        since `unseen_since` (it was down): add-ons are offered, the tournament runs, they were not sold again before,
        and the first break was played (not passed over by a late start) wholly after `unseen_since`, ending by
        `now`."""
        if not self.config.addons:
            raise RuleError("no_addons", "add-ons are not offered in this tournament")
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        if self.addons_reopened is not None:
            raise RuleError("addons_reopened", "the add-ons missed with the first break were already sold again")
        span = self._first_break_span()
        if span is None or span[1] is None or not to_utc(unseen_since) < span[0] < span[1] <= to_utc(now):
            raise RuleError("break_not_missed", "the first break was not missed")

    def can_reopen_addons(self, unseen_since: datetime, now: datetime) -> bool:
        """Whether `reopen_addons(unseen_since, now)` is allowed."""
        return allowed(self.verify_reopen_addons, unseen_since, now)

    def reopen_addons(self, unseen_since: datetime, now: datetime) -> list[Event]:
        """Sell add-ons again from `now` for as long as the missed first break lasted (see the module's docstring)."""
        self.verify_reopen_addons(unseen_since, now)
        span = self._first_break_span()
        assert span is not None and span[1] is not None
        at = to_utc(now)
        self.addons_reopened = (at, at + (span[1] - span[0]))
        return [AddonsReopened(at=at, until=self.addons_reopened[1])]

    def verify_rebuy(self, player: str, stack: int | None, now: datetime) -> None:
        """Raise unless `player`, with `stack` chips (0 when busted), may rebuy at `now`: rebuys are offered, he has
        one left, the rebuy period runs and his stack is at or below the starting stack (not asked when `stack` is
        None: not known yet, while his hand is in play)."""
        if not self.config.rebuys:
            raise RuleError("no_rebuys", "rebuys are not allowed in this tournament")
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status not in (EntrantStatus.PLAYING, EntrantStatus.ELIMINATED):
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)
        if not self.is_rebuy_period(now):
            raise RuleError("rebuy_period_over", "the rebuy period is over (it ends at the first break)")
        if entrant.rebuys >= self.config.rebuys:
            raise RuleError("no_rebuys_left", f"you have used all your rebuys ({self.config.rebuys})",
                            limit=self.config.rebuys)
        if entrant.status is EntrantStatus.PLAYING and stack is not None and stack > self.config.chips:
            raise IllegalAmount("stack_over_start", f"a rebuy is for {self.config.chips} chips or fewer; you have "
                                f"{stack}", chips=stack, limit=self.config.chips)

    def comeback(self, player: str, now: datetime) -> str | None:
        """How a busted player may come back into play at `now`: `rebuy` when he may rebuy, else `reentry` when he
        may register again, else None (a player who is not busted has no comeback to make)."""
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status is not EntrantStatus.ELIMINATED:
            return None
        if self.can_rebuy(player, 0, now):
            return "rebuy"
        return "reentry" if self.can_register(player, now) else None

    def comebacks(self, now: datetime) -> dict[str, str]:
        """Every busted player who may come back at `now`, and how (`comeback`): while any may, a tournament down to
        one player waits for them."""
        ways = {player: self.comeback(player, now) for player in self.entrants}
        return {player: way for player, way in ways.items() if way is not None}

    def can_rebuy(self, player: str, stack: int, now: datetime) -> bool:
        """Whether `rebuy(player, stack, now)` is allowed."""
        return allowed(self.verify_rebuy, player, stack, now)

    def rebuy(self, player: str, stack: int, now: datetime) -> list[Event]:
        """The player pays the starting stack's price and gets the starting stack again (back in play when busted).

        Between hands only: the application calls it when he has no cards in a hand at his table."""
        self.verify_rebuy(player, stack, now)
        entrant = self.entrants[player]
        entrant.rebuys += 1
        entrant.buy_ins += 1
        self._come_back(entrant)
        return [PlayerRebought(player=player, money=self.config.stack_price, chips=self.config.chips,
                               rebuys=entrant.rebuys, moves=(self._issue(player, self.config.chips, "rebuy"),))]

    def verify_addon(self, player: str, now: datetime) -> None:
        """Raise unless `player` (still in) may buy an add-on at `now`: offered, during the first break, one left."""
        if not self.config.addons:
            raise RuleError("no_addons", "add-ons are not offered in this tournament")
        self._verify_playing(player)
        if not self.is_addon_time(now):
            raise RuleError("not_addon_time", "add-ons are sold during the first break")
        if self.entrants[player].addons >= self.config.addons:
            raise RuleError("no_addons_left", f"you have bought all your add-ons ({self.config.addons})",
                            limit=self.config.addons)

    def can_addon(self, player: str, now: datetime) -> bool:
        """Whether `addon(player, now)` is allowed."""
        return allowed(self.verify_addon, player, now)

    def addon(self, player: str, now: datetime) -> list[Event]:
        """At the first break (or while add-ons missed with it are sold again): the player pays the starting stack's
        price and gets the starting stack once more."""
        self.verify_addon(player, now)
        entrant = self.entrants[player]
        entrant.addons += 1
        entrant.buy_ins += 1
        return [PlayerAddedOn(player=player, money=self.config.stack_price, chips=self.config.chips,
                              moves=(self._issue(player, self.config.chips, "add-on"),))]

    def summary(self) -> TournamentSummary:
        """Counts for a display (the clock page, `/clock`): players left, entries, rebuys, add-ons and re-entries so
        far, the bounties still on players' heads, and the money paid into the bank."""
        entrants = self.entrants.values()
        return TournamentSummary(
            players_left=sum(_is_in(entrant) for entrant in entrants),
            entries=sum(1 + entrant.reentries for entrant in entrants),
            rebuys=sum(entrant.rebuys for entrant in entrants),
            addons=sum(entrant.addons for entrant in entrants),
            reentries=sum(entrant.reentries for entrant in entrants),
            bounty_pool=sum((entrant.bounty for entrant in entrants if _is_in(entrant)), Fraction(0)),
            money_in=sum((entrant.paid_in(self.config) for entrant in entrants), Fraction(0)),
            chips_in_play=self.chips_in_play,
        )

    # --- pawned items ----------------------------------------------------------------------------------------------

    def verify_pawn(self, player: str, description: str | None = None, value: int | None = None) -> None:
        """Raise unless `player` may pawn an item (the description and value are checked when given)."""
        self._verify_playing(player)
        pawned = sum(item.owner == player for item in self.items)
        if pawned >= self.config.max_pawns:
            raise RuleError("too_many_pawns", f"at most {self.config.max_pawns} items per player",
                            limit=self.config.max_pawns)
        if value is not None and value != self.config.pawn_chips:
            raise IllegalAmount("pawn_value", f"an item is worth {self.config.pawn_chips} chips, not {value}",
                                chips=value, value=self.config.pawn_chips)
        if description is not None:
            PawnRules().verify_item(description)  # the same rules (and refusals) as pawning in the hand

    def can_pawn(self, player: str, description: str | None = None, value: int | None = None) -> bool:
        """Whether `player` may pawn an item (this one, when described)."""
        return allowed(self.verify_pawn, player, description, value)

    def record_pawn(self, player: str, description: str, value: int, hand_number: int) -> list[Event]:
        """Record an item pawned in a hand for `value` chips: the bank holds it and the owner owes its price."""
        self.verify_pawn(player, description, value)
        item = PawnedItem(len(self.items) + 1, player, description.strip(), value, hand_number)
        self.items.append(item)
        self.chips_in_play += value
        return [PawnRecorded(item_id=item.item_id, owner=player, description=item.description, chips=value,
                           hand_number=hand_number, price=self.config.to_money(value))]

    def verify_redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> None:
        """Raise unless `player` owns held item `item_id` (and, when his `stack` is given, has more than its chips).

        A redemption never takes his last chip: a player with no chips is out, and an elimination belongs to the end of
        a hand, not to a purchase between hands. Paying back his whole stack would leave him seated at 0 (neither out
        nor able to post a blind); he keeps the item in pawn instead, bought back at the rate when he cashes out or
        at the end (RULES.md §1), which costs him the same."""
        self._verify_playing(player)
        item = self._item(item_id)
        if item is None or item.owner != player or item.status is not ItemStatus.HELD:
            raise RuleError("no_such_item", "you have no pawned item with that number", item_id=item_id)
        if stack is not None and stack < item.chips:
            raise IllegalAmount("short_stack", f"redeeming it costs {item.chips} chips", chips=item.chips)
        if stack is not None and stack == item.chips:
            raise IllegalAmount("redeem_last_chips", f"redeeming it would take all your {stack} chips; it stays in "
                                "pawn and is bought back at the rate when you cash out or at the end", chips=stack)

    def held_items(self, player: str) -> list[PawnedItem]:
        """The items `player` has pawned and not yet redeemed or bought back, by number."""
        return [item for item in self.items if item.owner == player and item.status is ItemStatus.HELD]

    def can_redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> bool:
        """Whether `redeem_pawn` is allowed."""
        return allowed(self.verify_redeem_pawn, player, item_id, stack=stack)

    def redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> list[Event]:
        """Between hands: the owner pays the item's chips back to the bank and has it again."""
        self.verify_redeem_pawn(player, item_id, stack=stack)
        item = self._item(item_id)
        assert item is not None
        item.status = ItemStatus.REDEEMED
        self.chips_in_play -= item.chips
        return [PawnRedeemed(item_id=item_id, owner=player, description=item.description, chips=item.chips,
                             moves=(Move(f"stack:{player}", BANK, item.chips, "redeem"),))]

    # --- the end ---------------------------------------------------------------------------------------------------

    def verify_finish(self, now: datetime, stacks: Mapping[str, int]) -> None:
        """Raise unless `stacks` gives every player still in his chips, adding up to all the chips in play."""
        to_utc(now)
        if self.phase is Phase.FINISHED:
            raise RuleError("tournament_finished", "the tournament is over")
        still_in = {player for player, entrant in self.entrants.items() if _is_in(entrant)}
        if set(stacks) != still_in:
            raise RuleError("stacks_mismatch", "give the stack of every player still in, and only theirs",
                            missing=sorted(still_in - set(stacks)), extra=sorted(set(stacks) - still_in))
        if any(chips < 0 for chips in stacks.values()) or sum(stacks.values()) != self.chips_in_play:
            raise IllegalAmount("chips_mismatch", f"the stacks add up to {sum(stacks.values())} chips but "
                                f"{self.chips_in_play} are in play", chips=sum(stacks.values()))

    def can_finish(self, now: datetime, stacks: Mapping[str, int]) -> bool:
        """Whether `finish(now, stacks)` is allowed."""
        return allowed(self.verify_finish, now, stacks)

    def finish(self, now: datetime, stacks: Mapping[str, int]) -> list[Event]:
        """Close the tournament (the organizer, or the last hand): cash everyone out, buy back every item, place all."""
        self.verify_finish(now, stacks)
        if self.phase is Phase.RUNNING:
            self._renumber_places()  # those out follow those still in, also when some cashed out (no place)
        events: list[Event] = []
        for player, chips in sorted(stacks.items(), key=lambda pair: (-pair[1], pair[0])):
            if self.phase is Phase.RUNNING:
                self.entrants[player].place = 1 + sum(other > chips for other in stacks.values())
            events.extend(self._cash_out(player, chips, is_final=True))
        for item in self.items:
            if item.status is ItemStatus.HELD:
                events.append(self._buy_back(item))
        self.phase = Phase.FINISHED
        self.finished_at = to_utc(now)
        places, cashed_out = self.standings()
        events.append(TournamentFinished(at=self.finished_at, places=places, cashed_out=cashed_out))
        return events

    def standings(self) -> tuple[dict[str, int], tuple[str, ...]]:
        """The places so far (player → place, best first) and the players who cashed out while it ran (no place);
        before the start nobody has played, so nobody is listed."""
        if not self.clock.is_started:
            return {}, ()
        places = {player: entrant.place for player, entrant in self.entrants.items() if entrant.place is not None}
        cashed_out = tuple(player for player, entrant in self.entrants.items()
                           if entrant.status is EntrantStatus.CASHED_OUT and entrant.place is None)
        return dict(sorted(places.items(), key=_by_place)), cashed_out

    def verify_settle(self) -> None:
        """Raise unless the tournament is over."""
        if self.phase is not Phase.FINISHED:
            raise RuleError("not_finished", "the tournament is not over yet")

    def settle(self) -> Settlement:
        """The final ledger: paid in, cashed out, items bought back and net per player, and the fewest transfers."""
        self.verify_settle()
        rows = []
        for player, entrant in self.entrants.items():
            bought = [item for item in self.items if item.owner == player and item.status is ItemStatus.BOUGHT_BACK]
            rows.append(SettlementRow(
                player, entrant.paid_in(self.config), self.config.to_money(entrant.cashed_out_chips),
                sum((self.config.to_money(item.chips) for item in bought), Fraction(0)), len(bought),
                bounties=entrant.bounties_won + entrant.bounty, rebuys=entrant.rebuys, addons=entrant.addons,
                reentries=entrant.reentries,
            ))
        return build_settlement(rows)

    # --- helpers ---------------------------------------------------------------------------------------------------

    def _cash_out(self, player: str, chips: int, *, is_final: bool = False) -> list[Event]:
        entrant = self.entrants[player]
        entrant.status = EntrantStatus.CASHED_OUT
        entrant.cashed_out_chips += chips
        self.chips_in_play -= chips
        events: list[Event] = [self._buy_back(item) for item in self.items
                               if item.owner == player and item.status is ItemStatus.HELD]
        events.append(PlayerCashedOut(player=player, chips=chips, money=self.config.to_money(chips), is_final=is_final,
                                      moves=(Move(f"stack:{player}", BANK, chips, "cash-out"),) if chips else ()))
        return events

    def _buy_back(self, item: PawnedItem) -> Event:
        item.status = ItemStatus.BOUGHT_BACK
        return ItemBoughtBack(item_id=item.item_id, owner=item.owner, description=item.description,
                              money=self.config.to_money(item.chips))

    def _issue(self, player: str, chips: int, reason: str) -> Move:
        self.chips_in_play += chips
        return Move(BANK, f"stack:{player}", chips, reason)

    def _collect_bounty(self, player: str, pots: Sequence[PotAward], order: Sequence[str]) -> list[Event]:
        """The busted player's bounty to the winners of the pot that eliminated him (none named: it stays his)."""
        entrant = self.entrants[player]
        shares = {winner: chips for winner, chips in eliminators(player, pots).items() if winner in self.entrants}
        if not entrant.bounty or not shares:
            return []
        cents = split_bounty(int(entrant.bounty / CENT), shares, order)
        winners = {winner: amount * CENT for winner, amount in cents.items() if amount}
        for winner, money in winners.items():
            self.entrants[winner].bounties_won += money
        money, entrant.bounty = entrant.bounty, Fraction(0)
        return [BountyCollected(player=player, money=money, winners=winners)]

    def _come_back(self, entrant: Entrant) -> None:
        """A busted player is back in (a re-entry or a rebuy): unplaced, without a bounty, the others' places kept
        consistent."""
        if entrant.status is EntrantStatus.ELIMINATED:
            entrant.status, entrant.place, entrant.bounty = EntrantStatus.PLAYING, None, Fraction(0)
            self._renumber_places()

    def _renumber_places(self) -> None:
        """Everyone out ranks below everyone still playing, in the order they went out (shared places kept): after a
        late entry or a comeback the places of those out move so that they stay consecutive."""
        out = sorted((entrant for entrant in self.entrants.values()
                      if entrant.status is EntrantStatus.ELIMINATED and entrant.place is not None),
                     key=lambda entrant: entrant.place or 0)
        place = 1 + sum(entrant.status is EntrantStatus.PLAYING for entrant in self.entrants.values())
        for _, tied in itertools.groupby(out, key=lambda entrant: entrant.place):
            group = list(tied)
            for entrant in group:
                entrant.place = place
            place += len(group)

    def _late_registration_open(self, now: datetime | None) -> bool:
        """Late registration: until the first player leaves, or with rebuys or re-entry during the rebuy period."""
        if not self.config.late_registration:
            return False
        if self.config.rebuys or self.config.reentry:
            if now is None:
                raise ValueError("late registration by the clock needs the time")
            return self.is_rebuy_period(now)
        return not self._anyone_left()

    def _first_break_span(self) -> tuple[datetime, datetime | None] | None:
        """When the first break begins and ends on the clock's timeline (see `Clock.span`), None without one."""
        first = first_break(self.clock.schedule)
        return None if first is None else self.clock.span(first)

    def _item(self, item_id: int) -> PawnedItem | None:
        return next((item for item in self.items if item.item_id == item_id), None)

    def _anyone_left(self) -> bool:
        return any(entrant.status in (EntrantStatus.CASHED_OUT, EntrantStatus.ELIMINATED)
                   for entrant in self.entrants.values())

    def _verify_playing(self, player: str) -> None:
        if self.phase is not Phase.RUNNING:
            raise RuleError("not_running", "the tournament is not running")
        entrant = self.entrants.get(player)
        if entrant is None or entrant.status is not EntrantStatus.PLAYING:
            raise RuleError("not_playing", "you are not playing in this tournament", player=player)

    # --- serialisation ---------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form."""
        return {
            "config": self.config.to_dict(),
            "clock": self.clock.to_dict(),
            "phase": self.phase.value,
            "entrants": [{"player": e.player, "status": e.status.value, "buy_ins": e.buy_ins,
                          "cashed_out_chips": e.cashed_out_chips, "place": e.place, "rebuys": e.rebuys,
                          "addons": e.addons, "reentries": e.reentries, "bounty": fraction_to_text(e.bounty),
                          "bounties_won": fraction_to_text(e.bounties_won)} for e in self.entrants.values()],
            "items": [{"item_id": i.item_id, "owner": i.owner, "description": i.description, "chips": i.chips,
                       "hand_number": i.hand_number, "status": i.status.value, "holder": i.holder}
                      for i in self.items],
            "chips_in_play": self.chips_in_play,
            "finished_at": to_iso(self.finished_at),
            "addons_reopened": None if self.addons_reopened is None else [to_iso(at) for at in self.addons_reopened],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The tournament `to_dict` wrote."""
        clock = Clock.from_dict(data["clock"])
        tournament = cls(TournamentConfig.from_dict(data["config"]), clock.schedule)
        tournament.clock = clock
        tournament.phase = Phase(data["phase"])
        tournament.entrants = {e["player"]: Entrant(
            e["player"], EntrantStatus(e["status"]), e["buy_ins"], e["cashed_out_chips"], e["place"],
            e.get("rebuys", 0), e.get("addons", 0), e.get("reentries", 0), fraction_from_text(e.get("bounty", 0)),
            fraction_from_text(e.get("bounties_won", 0))) for e in data["entrants"]}
        tournament.items = [PawnedItem(i["item_id"], i["owner"], i["description"], i["chips"], i["hand_number"],
                                       ItemStatus(i["status"]), i["holder"]) for i in data["items"]]
        tournament.chips_in_play = data["chips_in_play"]
        tournament.finished_at = from_iso(data["finished_at"])
        reopened = data.get("addons_reopened")  # absent from a tournament saved before it existed
        if reopened:
            tournament.addons_reopened = (to_utc(datetime.fromisoformat(reopened[0])),
                                          to_utc(datetime.fromisoformat(reopened[1])))
        return tournament


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A plain view of the tournament's counts for a display: players still in, entries (first buy-ins and
    re-entries), rebuys, add-ons and re-entries so far, the bounties still on the heads of players still in (money
    units), all the money paid into the bank, and the chips in play."""

    players_left: int
    entries: int
    rebuys: int
    addons: int
    reentries: int
    bounty_pool: Fraction
    money_in: Fraction
    chips_in_play: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (money as "num/den" text, see `fraction_to_text`)."""
        return {"players_left": self.players_left, "entries": self.entries, "rebuys": self.rebuys,
                "addons": self.addons, "reentries": self.reentries, "bounty_pool": fraction_to_text(self.bounty_pool),
                "money_in": fraction_to_text(self.money_in), "chips_in_play": self.chips_in_play}


def first_break(schedule: Schedule) -> int | None:
    """The index of the schedule's first break (where the rebuy period ends and add-ons are sold), None without one."""
    return next((index for index, level in enumerate(schedule.levels) if level.is_break), None)


def _is_in(entrant: Entrant) -> bool:
    return entrant.status in (EntrantStatus.REGISTERED, EntrantStatus.PLAYING)


def _by_place(pair: tuple[str, int]) -> tuple[int, str]:
    return pair[1], pair[0]
