"""Every figure of a tournament's end as the players read it adds up to the cent: each settlement line says the same
figures in the same order (paid, cashed out, items bought back when anyone bought one, net), and on each, paid +
net = cashed out + bounties - items bought back; the nets sum to zero; the payments settle the nets; and each cash-out
("cashes out N chips for X", "finishes with N chips, worth X") and item bought back ("buys back … for X") says the
figure the settlement repeats. Random tournaments: buy-ins, rebuys, bounties, pawns, redemptions, busts, cash-outs
(the last player in too), stacks."""

import re
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render import Voice
from bot.render import tournament as render
from engine.common import Event
from engine.tournament import EntrantStatus, ItemBoughtBack, ItemStatus, PlayerCashedOut, Tournament
from tests.engine.test_tournament_options import END, LEVEL_ONE, pot, running

VOICE = Voice("en", str.title)
ROW = re.compile(r"^(?P<player>P\d): (?P<parts>.*?)(?: \((?P<extras>[^)]*)\))?$")
TOLD = re.compile(r"^(?P<player>P\d) (?:cashes out|finishes with) [\d,]+ chips?(?:, worth| for) (?P<money>[\d,.]+)\.$")
BOUGHT = re.compile(r"^(?P<player>P\d) buys back “coat” for (?P<money>[\d,.]+)\.$")
PAYMENT = re.compile(r"^(?P<payer>P\d) → (?P<payee>P\d): (?P<money>[\d,.]+)$")


def amount(text: str) -> Decimal:
    """A figure as printed ("1,234.56", "+3.34", "−1.67")."""
    return Decimal(text.replace(",", "").replace("−", "-"))


@st.composite
def played(draw: st.DrawFn) -> tuple[Tournament, list[Event]]:
    """A tournament played to its end at random, and every event of it."""
    players = [f"p{i}" for i in range(draw(st.integers(2, 6)))]
    bounty = draw(st.sampled_from(["0", "10", "12.5", "3.33"]))
    tournament = running(*players, rebuys=draw(st.integers(0, 2)), bounty=Decimal(bounty))
    stacks = dict.fromkeys(players, 300)
    events: list[Event] = []
    for _ in range(draw(st.integers(0, 14))):
        playing = [p for p in players if tournament.entrants[p].status is EntrantStatus.PLAYING]
        if not playing:
            break
        player, other = draw(st.sampled_from(players)), draw(st.sampled_from(playing))
        action = draw(st.sampled_from(["win", "pawn", "redeem", "rebuy", "cash_out", "bust"]))
        if player not in playing and action != "rebuy":
            continue
        if action == "win":
            won = draw(st.integers(0, stacks[other]))
            stacks[other] -= won
            stacks[player] += won
        elif action == "pawn" and tournament.can_pawn(player):
            events += tournament.record_pawn(player, "coat", 100, 1)
            stacks[player] += 100
        elif action == "redeem":
            held = tournament.held_items(player)
            if held and tournament.can_redeem_pawn(player, held[0].item_id, stack=stacks[player]):
                events += tournament.redeem_pawn(player, held[0].item_id, stack=stacks[player])
                stacks[player] -= 100
        elif action == "rebuy" and tournament.can_rebuy(player, stacks.get(player, 0), LEVEL_ONE):
            events += tournament.rebuy(player, stacks.get(player, 0), LEVEL_ONE)
            stacks[player] = stacks.get(player, 0) + tournament.config.chips
        elif action == "cash_out":  # the last player in too: then nobody is left to finish with chips
            events += tournament.cash_out(player, stacks.pop(player), LEVEL_ONE)
        elif action == "bust" and player != other:
            chips = stacks.pop(player)
            stacks[other] += chips
            events += tournament.eliminate_busted([player], {player: chips},
                                                  pots=[pot(chips, f"{player} {other}", {other: chips})],
                                                  order=[other])
    events += tournament.finish(END, stacks)
    return tournament, events


@settings(max_examples=150, deadline=None)
@given(played())
def test_every_printed_figure_of_a_settlement_adds_up(game: tuple[Tournament, list[Event]]) -> None:
    tournament, events = game
    said = render.narrate(VOICE, tournament, [e for e in events if isinstance(e, PlayerCashedOut | ItemBoughtBack)])
    told = {found["player"]: amount(found["money"]) for line in said if (found := TOLD.match(line))}
    items: dict[str, Decimal] = {}
    for found in filter(None, map(BOUGHT.match, said)):
        items[found["player"]] = items.get(found["player"], Decimal(0)) + amount(found["money"])
    lines = render.settlement(VOICE, tournament.settle()).splitlines()
    rows = [found.groupdict() for line in lines if (found := ROW.match(line))]
    assert len(rows) == len(tournament.entrants)
    said_alike = ["paid", "cashed out", *(["items bought back"] if items else []), "net"]
    nets = {}
    for row in rows:
        figures = {name: amount(value) for name, value in (part.rsplit(" ", 1) for part in row["parts"].split(", "))}
        assert list(figures) == said_alike, "every row says the same figures in the same order, zeros too"
        extras = dict(part.rsplit(" ", 1) for part in (row["extras"] or "").split(", ") if part)
        bounties = amount(extras.get("bounties", "0"))
        cashed, bought = figures["cashed out"], figures.get("items bought back", Decimal(0))
        assert figures["paid"] + figures["net"] == cashed + bounties - bought, row
        assert cashed == told.get(row["player"], Decimal(0)), "the cash-out as he was told it"
        assert bought == items.get(row["player"], Decimal(0)), "the items as they were bought back"
        nets[row["player"]] = figures["net"]
    assert sum(nets.values()) == 0
    for found in filter(None, map(PAYMENT.match, lines)):
        nets[found["payer"]] += amount(found["money"])
        nets[found["payee"]] -= amount(found["money"])
    assert set(nets.values()) <= {0}, "the payments settle every net"
    exact = {player: tournament.config.to_money(entrant.cashed_out_chips)
             for player, entrant in tournament.entrants.items()}
    for player, figure in told.items():  # each a few cents at most from its chips at the rate
        assert abs(Fraction(figure) - exact[player.lower()]) < Fraction(5, 100)
    assert all(item.status is not ItemStatus.HELD for item in tournament.items)
