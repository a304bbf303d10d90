"""Settlement: nets rounded to cents without losing any, transfers that settle every net in at most n - 1 payments."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.settlement import (
    EXACT_LIMIT,
    Settlement,
    SettlementRow,
    Transfer,
    build_settlement,
    fewest_transfers,
    round_to_cents,
)


def received(transfers: list[Transfer], players: list[str]) -> dict[str, int]:
    total = dict.fromkeys(players, 0)
    for transfer in transfers:
        assert transfer.cents > 0 and transfer.payer != transfer.payee
        assert transfer.amount == Fraction(transfer.cents, 100)
        total[transfer.payee] += transfer.cents
        total[transfer.payer] -= transfer.cents
    return total


def most_zero_groups(values: list[int]) -> int:
    """The most parts a zero-sum list splits into, by brute force over which subset holds the first element."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in chosen) == 0:
                others = [value for i, value in enumerate(rest) if i not in chosen]
                best = max(best, 1 + most_zero_groups(others))
    return best


balances = st.lists(st.integers(-5000, 5000), min_size=1, max_size=9).map(lambda values: [*values, -sum(values)])


@settings(max_examples=150, deadline=None)
@given(balances)
def test_transfers_settle_every_balance_with_at_most_n_minus_one(values: list[int]) -> None:
    players = [f"p{i}" for i in range(len(values))]
    transfers = fewest_transfers(dict(zip(players, values, strict=True)))
    assert received(transfers, players) == dict(zip(players, values, strict=True))
    assert len(transfers) <= max(len(players) - 1, 0)
    nonzero = [value for value in values if value]
    assert len(transfers) == len(nonzero) - most_zero_groups(nonzero)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3000, 3000), min_size=EXACT_LIMIT + 1, max_size=EXACT_LIMIT + 8))
def test_many_players_still_settle_within_the_bound(values: list[int]) -> None:
    values = [*values, -sum(values)]
    players = [f"p{i:02}" for i in range(len(values))]
    transfers = fewest_transfers(dict(zip(players, values, strict=True)))
    assert received(transfers, players) == dict(zip(players, values, strict=True))
    assert len(transfers) <= len(players) - 1


def test_pairs_that_cancel_pay_each_other() -> None:
    transfers = fewest_transfers({"a": 500, "b": -500, "c": 300, "d": -300, "e": 0})
    assert sorted((t.payer, t.payee, t.cents) for t in transfers) == [("b", "a", 500), ("d", "c", 300)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fractions(min_value=-1000, max_value=1000, max_denominator=60), min_size=1, max_size=8))
def test_rounding_keeps_the_total_and_stays_within_a_cent(values: list[Fraction]) -> None:
    nets = {f"p{i}": value for i, value in enumerate([*values, -sum(values, Fraction(0))])}
    cents = round_to_cents(nets)
    assert sum(cents.values()) == 0
    assert all(abs(Fraction(cents[player], 100) - net) < Fraction(1, 100) for player, net in nets.items())


def test_thirds_round_as_documented() -> None:
    # 50/3 and 25/3 units (a pawned item's price and half of it): both round down, the left-over cent goes to the net
    # that lost the most by it (16.666… -> 16.67), so the payer's -25 is met exactly.
    assert round_to_cents({"bob": Fraction(50, 3), "cat": Fraction(25, 3), "dan": Fraction(-25)}) == {
        "bob": 1667, "cat": 833, "dan": -2500}


def test_rounding_refuses_a_total_that_is_not_whole_cents() -> None:
    with pytest.raises(ValueError, match="whole number of cents"):
        round_to_cents({"a": Fraction(1, 3)})
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers({"a": 5})


def test_settlement_rows_and_json_round_trip() -> None:
    settlement = build_settlement([
        SettlementRow("ann", Fraction(50), Fraction(75), Fraction(0)),
        SettlementRow("bob", Fraction(50), Fraction(250, 3), Fraction(50, 3), 1),
        SettlementRow("dan", Fraction(50), Fraction(25, 3), Fraction(0)),
    ])
    assert [row.net_cents for row in settlement.rows] == [2500, 1667, -4167]
    assert [(t.payer, t.payee, t.cents) for t in settlement.transfers] == [("dan", "ann", 2500), ("dan", "bob", 1667)]
    with pytest.raises(ValueError, match="balance"):
        build_settlement([SettlementRow("ann", Fraction(50), Fraction(60), Fraction(0))])
    assert Settlement.from_dict(settlement.to_dict()) == settlement
