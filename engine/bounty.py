"""Bounties (RULES.md §1c): who eliminated a busted player, and how his bounty is split between them in whole cents.

The pot that eliminates a player is the last pot he had chips in (the side pot that took his last chips, or the main pot
when there is none); its winners collect his bounty, in proportion to what each won of that pot. A pot dealt out in
parts (one per board when it is run twice) is the same pot: its parts add up. The bounty is money, split in whole cents:
each winner gets his proportion rounded down, and the cents left go one each, in seat order from the first left of the
button as the odd chip of a split pot does (RULES.md §1), to the winners whose proportion is not a whole number of
cents. A winner whose proportion is whole gets exactly it, so nobody is a cent or more from his proportion; when the
shares are equal, as in a split pot, this is the pot's odd-chip rule itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.holdem_types import PotAward


def eliminators(player: str, pots: Sequence[PotAward]) -> dict[str, int]:
    """The winners of the pot that eliminated `player` and the chips each won of it (empty when no pot names him)."""
    last = next((pot.eligible for pot in reversed(pots) if player in pot.eligible), None)
    if last is None:
        return {}
    shares: dict[str, int] = {}
    for pot in pots:
        if pot.eligible == last:
            for winner, chips in pot.winners.items():
                if winner != player and chips > 0:
                    shares[winner] = shares.get(winner, 0) + chips
    return shares


def split_bounty(cents: int, shares: Mapping[str, int], order: Sequence[str]) -> dict[str, int]:
    """`cents` split between the winners in proportion to their `shares`, in whole cents, summing exactly to `cents`:
    each gets his proportion rounded down, and the cents left go one each in `order` (seat order from the first left
    of the button; winners it does not name come after, by id) to those whose proportion has a fraction of a cent.
    There are never more cents left than such winners (their fractions sum to the cents left, each below one)."""
    if cents < 0 or any(chips <= 0 for chips in shares.values()):
        raise ValueError("a bounty and the shares that split it are positive")
    if not shares:
        return {}
    total = sum(shares.values())
    result = {winner: cents * chips // total for winner, chips in shares.items()}
    fractional = {winner for winner, chips in shares.items() if cents * chips % total}
    seated = [winner for winner in order if winner in fractional]
    turn = seated + sorted(fractional.difference(seated))
    for winner in turn[: cents - sum(result.values())]:
        result[winner] += 1
    return result
