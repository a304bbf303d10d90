"""A house round's chips: the running count of each wallet, the stakes and fees put down, and the settlement of a
box's stake lines (`HouseRound` in `engine.house.common` builds on it; RULES.md, "Chips, balances and limits")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.common import IllegalAmount, Move
from engine.house.boxes import HOUSE, Box, BoxStatus, Limits, cap, player_account
from engine.house.events import Payout, StakesSettled
from engine.reasons import Reason, stake_line


def versus_dealer(order: int, qualifies: bool, ante: int, bet: int, multiple: int,
                  line: str = "bet") -> tuple[dict[str, int], str]:
    """The ANTE and BET lines (BET named `line`) and outcome of a box that played, before the payout cap.

    `order` compares the box's hand with the dealer's (1 higher, 0 tie, -1 lower); a win pays BET × `multiple`; a
    dealer who does not qualify pays the ANTE 1:1 and returns the BET.
    """
    if not qualifies:
        return {"ante": ante, line: 0}, "dealer_not_qualified"
    if order < 0:
        return {"ante": -ante, line: -bet}, "lost"
    if order == 0:
        return {"ante": 0, line: 0}, "push"
    return {"ante": ante, line: bet * multiple}, "won"


class RoundChips:
    """The chips of a house round: its boxes, the count of each owner's wallet kept in step with every move, and the
    moves themselves (a stake, a fee, a box's lines settled) within the table's limits."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.boxes: list[Box] = []
        self.wallets: dict[str, int] = {}

    @property
    def limits(self) -> Limits:
        """The table's limits."""
        limits: Limits = self.config.limits
        return limits

    def _apply_moves(self, moves: Iterable[Move]) -> tuple[Move, ...]:
        """Keep the wallet counts and the boxes' totals in step with moves; return them as a tuple."""
        out = tuple(moves)
        for move in out:
            if move.source.startswith("player:"):
                self.wallets[move.source[7:]] -= move.amount
            if move.target.startswith("player:"):
                self.wallets[move.target[7:]] += move.amount
        return out

    def _verify_affordable(self, player: str, amount: int, what: str) -> None:
        available = self.wallets.get(player, 0)
        if amount > available:
            raise IllegalAmount("over_balance", f"{what} needs {amount} chips but you have {available}",
                                amount=amount, balance=available)

    def _charge_fee(self, box: Box, amount: int, reason: str) -> tuple[Move, ...]:
        """A fee from the owner's wallet to the house (never returned); a free action moves nothing."""
        if not amount:
            return ()
        box.paid_for[reason] = box.paid_for.get(reason, 0) + amount
        return self._apply_moves([Move(player_account(box.owner), HOUSE, amount, Reason(reason))])

    def _stake(self, box: Box, name: str, amount: int) -> tuple[Move, ...]:
        """Put a stake from the owner's wallet on the box."""
        box.stakes[name] = box.stakes.get(name, 0) + amount
        box.bets[name] = box.bets.get(name, 0) + amount
        box.staked += amount
        return self._apply_moves([Move(player_account(box.owner), box.account, amount, stake_line(name))])

    def _settle(self, box: Box, results: Mapping[str, int], outcome: str, *, hand: str = "",
                ranks: Sequence[int] = (), cards: Sequence[Card] = (), payouts: Sequence[Payout] = (),
                final: bool = True, cut_last: Sequence[str] = ()) -> StakesSettled:
        """Settle stake lines: net < 0 loses that much to the house, net > 0 is won from it; the rest goes home.

        Winnings are capped at the table's maximum payout per box, less what the box won earlier (a side bet on the
        deal), the later lines cut first (`cut_last` names lines cut only after all others); the event says so
        (`max_payout`), and a box's final one when an earlier one was.
        A line may name no stake (a payment not tied to a stake). `payouts` say what paid the winning lines (only
        those that won are kept). With `final` every stake left is settled as a push and the box is marked settled,
        and the event repeats the lines settled earlier; settling a settled box is a bug and raises.
        """
        if box.is_settled:
            raise RuntimeError(f"box {box.account} is settled twice")
        limit = self.limits.max_payout
        if limit is not None:
            limit = max(0, limit - sum(net for net in box.early.values() if net > 0))
        lines = cap(results, limit, cut_last=cut_last)
        cut = lines != dict(results)
        box.capped = box.capped or cut
        if final:
            for name in box.stakes:
                lines.setdefault(name, 0)
        moves: list[Move] = []
        returned = 0
        for name, net in lines.items():
            stake = box.stakes.pop(name, 0)
            if net < 0:
                moves.append(Move(box.account, HOUSE, -net, stake_line(name, "lost")))
            elif net > 0:
                moves.append(Move(HOUSE, box.account, net, stake_line(name, "won")))
            returned += stake + net
        if returned:
            moves.append(Move(box.account, player_account(box.owner), returned, Reason.PAID_OUT))
        box.paid_out += returned
        paid = tuple(payout for payout in payouts if lines.get(payout.line, 0) > 0)
        earlier: dict[str, int] = {}
        earlier_payouts: tuple[Payout, ...] = ()
        fees: dict[str, int] = {}
        if final:
            box.status = BoxStatus.SETTLED
            box.settled_lines = dict(lines)
            earlier, earlier_payouts = dict(box.early), tuple(box.early_payouts)
            fees = dict(box.paid_for)
        else:
            box.early.update(lines)
            box.early_payouts.extend(paid)
        max_payout = self.limits.max_payout if (box.capped if final else cut) else None
        return StakesSettled(player=box.owner, box=box.index, results=lines, outcome=outcome, hand=hand,
                             ranks=tuple(ranks), cards=tuple(cards), final=final, payouts=paid, earlier=earlier,
                             earlier_payouts=earlier_payouts, max_payout=max_payout, fees=fees,
                             moves=self._apply_moves(moves))
