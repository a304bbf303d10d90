"""Leaving a tournament and its end: cash-outs, eliminations (and the bounties they pay), the close, the standings and
the settlement.

Cashing out (between hands, once, for good) turns chips back into money at the rate and buys back the player's pawned
items; he has no place. Places go to eliminated players in order (the first out of n gets n-th; players busted in the
same hand are ranked by the chips they began it with). Players still in when the organizer closes the tournament are
placed by their stacks (equal stacks share a place). A place is final once said (`is_place_final`; RULES.md is silent,
this is the card-room way): a player still in who cashes out after it leaves his place empty (1, 2, 4), and the end
says the places the busts said. Before places are final (the rebuy period), a cash-out moves those out up, as a late
entry or a comeback moves them down. A bounty is collected when its holder busts (see `engine.bounty` for who collects
it); a bounty nobody collected (its holder still in at the end, cashed out, or out without a pot naming who took his
chips) goes back to its holder. At the end the bank is empty, and each player's net is cashed out + bounties - paid in -
items bought back; the settlement says who pays whom.

Money said is whole cents, and the settlement says the same figures (RULES.md is silent on rounding; this is the card
room's way, the odd cent apportioned once). An item is bought back at its price to the nearest cent (16.67). A player
cashing out while chips stay in play is told his chips' worth at the rate to the nearest cent, and keeps it. Those who
take the last chips in play (the stacks at the end, or the last player in cashing out) share what the bank still holds
for chips, in proportion to their chips by the largest remainder (`engine.settlement.apportion`): the cents that the
earlier figures' rounding left over (at most half a cent each) come out even there, so the nets sum to zero. When a chip
is worth under a cent (a bounty near the buy-in), the cents earlier cash-outs were rounded up by can come to more than
the last chips are worth: a cash-out is then told no more than the bank can spare (what it still holds for chips, less
what redeeming the items still in pawn with the chips left could take from it; down to nothing), so that nobody's
share comes out below nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction

from engine.bounty import eliminators, split_bounty
from engine.clock_time import to_utc
from engine.common import Event, IllegalAmount, Move, RuleError, allowed
from engine.holdem_types import PotAward
from engine.reasons import Reason
from engine.settlement import CENT, Settlement, SettlementRow, apportion, build_settlement, to_cents
from engine.tournament_events import (
    BountyCollected,
    ItemBoughtBack,
    PlayerCashedOut,
    PlayerEliminated,
    TournamentFinished,
)
from engine.tournament_pawns import Pawns
from engine.tournament_types import BANK, Entrant, EntrantStatus, ItemStatus, PawnedItem, Phase, is_in

__all__ = ["Ending"]


class Ending(Pawns):
    """Cash-outs, eliminations, the close, the standings and the settlement, as part of a `Tournament`."""

    # --- leaving ---------------------------------------------------------------------------------------------------

    def verify_cash_out(self, player: str, chips: int) -> None:
        """Raise unless `player` (playing) may exchange `chips` (his whole stack) for money now."""
        self._verify_playing(player)
        if chips < 0 or chips > self.chips_in_play:
            raise IllegalAmount("bad_chips", f"{chips} chips is not a stack in this tournament", chips=chips)

    def can_cash_out(self, player: str, chips: int) -> bool:
        """Whether `cash_out(player, chips)` is allowed."""
        return allowed(self.verify_cash_out, player, chips)

    def cash_out(self, player: str, chips: int, now: datetime | None = None) -> list[Event]:
        """Exchange the player's chips for money at the rate, buy back his items, and remove him for good. The places
        of those out move up only while they are not final at `now` (needed when the tournament has rebuys or
        re-entry, whose period they are not final in); once they are, they stay so (`fix_places`).

        Between hands only: the application calls it when no hand is running at his table.
        """
        self.verify_cash_out(player, chips)
        if (self.config.rebuys or self.config.reentry) and now is None:
            raise ValueError("a cash-out during a tournament with a rebuy period needs the time")
        events = self._cash_out(player, chips, self._worth({player: chips})[player])
        if now is not None and not self.fix_places(now):
            self._renumber_places()
        return events

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

    # --- the end ---------------------------------------------------------------------------------------------------

    def verify_finish(self, now: datetime, stacks: Mapping[str, int]) -> None:
        """Raise unless `stacks` gives every player still in his chips, adding up to all the chips in play."""
        to_utc(now)
        if self.phase is Phase.FINISHED:
            raise RuleError("tournament_finished", "the tournament is over")
        still_in = {player for player, entrant in self.entrants.items() if is_in(entrant)}
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
        events: list[Event] = []
        worth = self._worth(stacks)
        for player, chips in sorted(stacks.items(), key=lambda pair: (-pair[1], pair[0])):
            if self.phase is Phase.RUNNING:
                self.entrants[player].place = 1 + sum(other > chips for other in stacks.values())
            events.extend(self._cash_out(player, chips, worth[player], is_final=True))
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
        """The final ledger: paid in, cashed out, items bought back and net per player, and the fewest transfers; each
        figure as it was said (the module says how)."""
        self.verify_settle()
        cashed_out = self._cashed_out_money()
        rows = []
        for player, entrant in self.entrants.items():
            bought = [item for item in self.items if item.owner == player and item.status is ItemStatus.BOUGHT_BACK]
            rows.append(SettlementRow(
                player, entrant.paid_in(self.config), cashed_out[player],
                sum((self._item_price(item) for item in bought), Fraction(0)), len(bought),
                bounties=entrant.bounties_won + entrant.bounty, rebuys=entrant.rebuys, addons=entrant.addons,
                reentries=entrant.reentries,
            ))
        return build_settlement(rows)

    # --- helpers ---------------------------------------------------------------------------------------------------

    def _worth(self, batch: Mapping[str, int]) -> dict[str, Fraction]:
        """What the chips of players cashing out together (player → chips) are worth, in whole cents: each at the rate
        to the nearest cent while chips stay in play, but never more than the bank can spare (what it still holds for
        chips, less what redeeming the items in pawn with the chips staying could take); a batch that takes the last
        chips shares what the bank still holds for chips (the module says why)."""
        told = sum((self._told(entrant) for player, entrant in self.entrants.items() if player not in batch),
                   Fraction(0))
        left = self._held_for_chips() - int(told / CENT)
        staying = self.chips_in_play - sum(batch.values())
        if staying > 0:
            nearest = {player: to_cents(self.config.to_money(chips)) for player, chips in batch.items()}
            spare = left - self._redeemable(staying, set(batch))
            if sum(nearest.values()) > spare:  # earlier cash-outs rounded up, and a chip is worth under a cent
                nearest = apportion(max(spare, 0), batch)
            return {player: cents * CENT for player, cents in nearest.items()}
        return {player: cents * CENT for player, cents in apportion(left, batch).items()}

    def _redeemable(self, staying: int, leaving: set[str]) -> int:
        """The most cents the bank may still give back for items in pawn (not those of the players `leaving`, bought
        back as they go) redeemed with the `staying` chips: each redemption takes the item's chips and leaves its
        owner at least one, and the bank no longer holds its price."""
        held = sorted((item for item in self.items if item.status is ItemStatus.HELD and item.owner not in leaving),
                      key=self._item_price, reverse=True)
        cents, chips = 0, 0
        for item in held:
            chips += item.chips
            if chips >= staying:
                break
            cents += int(self._item_price(item) / CENT)
        return cents

    def _held_for_chips(self) -> int:
        """The cents the bank took for every chip it gave out: the payments less their bounties (paid out apart), and
        the items pawned and not redeemed with chips (bought back, at the end at the latest)."""
        paid = sum((entrant.paid_in(self.config) - entrant.bounty - entrant.bounties_won
                    for entrant in self.entrants.values()), Fraction(0))
        items = sum((self._item_price(item) for item in self.items
                     if item.status in (ItemStatus.HELD, ItemStatus.BOUGHT_BACK)), Fraction(0))
        return to_cents(paid + items)

    def _told(self, entrant: Entrant) -> Fraction:
        """What the entrant was told his chips cashed out were worth (0 when he has not cashed out; one who cashed out
        before the figure was kept was told his chips at the rate to the nearest cent)."""
        if entrant.cashed_out_money is not None:
            return entrant.cashed_out_money
        return to_cents(self.config.to_money(entrant.cashed_out_chips)) * CENT

    def _cashed_out_money(self) -> dict[str, Fraction]:
        """Each player's cash-out as he was told it; for a tournament that ended before the figures were kept, the
        cash-outs share the bank's money for chips as a batch taking the last chips would."""
        if any(entrant.cashed_out_money is not None for entrant in self.entrants.values()):
            return {player: self._told(entrant) for player, entrant in self.entrants.items()}
        chips = {player: entrant.cashed_out_chips for player, entrant in self.entrants.items()}
        return {player: cents * CENT for player, cents in apportion(self._held_for_chips(), chips).items()}

    def _item_price(self, item: PawnedItem) -> Fraction:
        """What buying the item back costs: its chips at the rate, to the nearest cent."""
        return to_cents(self.config.to_money(item.chips)) * CENT

    def _cash_out(self, player: str, chips: int, money: Fraction, *, is_final: bool = False) -> list[Event]:
        """The player's chips back to the bank for `money` (whole cents, `_worth`) and his held items bought back: he
        is out for good."""
        entrant = self.entrants[player]
        entrant.status = EntrantStatus.CASHED_OUT
        entrant.cashed_out_chips += chips
        entrant.cashed_out_money = (entrant.cashed_out_money or Fraction(0)) + money
        self.chips_in_play -= chips
        events: list[Event] = [self._buy_back(item) for item in self.items
                               if item.owner == player and item.status is ItemStatus.HELD]
        events.append(PlayerCashedOut(player=player, chips=chips, money=money, is_final=is_final,
                                      moves=(Move(f"stack:{player}", BANK, chips, Reason.CASH_OUT),) if chips else ()))
        return events

    def _buy_back(self, item: PawnedItem) -> Event:
        """The owner buys the held item back from the bank at the rate."""
        item.status = ItemStatus.BOUGHT_BACK
        return ItemBoughtBack(item_id=item.item_id, owner=item.owner, description=item.description,
                              money=self._item_price(item))

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


def _by_place(pair: tuple[str, int]) -> tuple[int, str]:
    """A (player, place) pair's sort key: by place, then by name."""
    return pair[1], pair[0]
