"""A tournament with rebuys, an add-on, re-entry and bounties played through the service: every payment goes through
the bank in the ledger, the settlement's transfers pay each player's net, and refusals change nothing."""

import re
from fractions import Fraction

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply, TableMessage
from bot.render import Voice
from bot.render.tournament import settlement as render_settlement
from bot.service import Service
from bot.store import Store
from engine.settlement import SettlementRow, build_settlement
from engine.tournament import Tournament
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE
from tests.bot.helpers import (
    SIX_PM,
    at,
    everything_said,
    ledger_ok,
    listen,
    night_registered,
    play_out,
    press_label,
    public_lines,
    restart_after_downtime,
    shove_until,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT, DAN)}
BREAK = at(19, 0, 1)
PLAY = at(20, 0, 1)
OPTIONS = "home-night rebuys 2 addon 1 reentry bounty 10"
BANK = f"bank:{PLACE.table_id}:t1"
NO_TOURNAMENT = "There is no tournament at this table: an organizer starts one with /tournament create."
BOB_WINS = ["Bob finishes with 600 chips, worth 100.",
            "🏆 The tournament is over. Winner: Bob!\nPlaces: 1. Bob · 2. Ann",
            "Settlement (money units):\nAnn: paid 50, cashed out 0, net −50\nBob: paid 50, cashed out 100, net +50\n"
            "Payments:\nAnn → Bob: 50"]
"""How a night of Ann and Bob ends once Ann, busted, may no longer rebuy: Bob wins, and Ann pays him her buy-in."""


def stack(user_id: str) -> str:
    return f"stack:{PLACE.table_id}:{user_id}"


@pytest.fixture
async def night(store: Store) -> tuple[Service, FakeClock]:
    return await open_night(store)


async def open_night(store: Store) -> tuple[Service, FakeClock]:
    """A no-limit tournament with every option (OPTIONS), its four players registered, not yet started."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=11)
    created = await night_registered(service, PLAYERS.values(), OPTIONS)
    assert created.public == [
        "Tournament #1 created. Schedule (UTC): 10/20 until 19:00; break until 20:00; 50/100. Buy-in 50 for 300 chips: "
        "/join to register; the organizer starts it with /tournament start.",
        "Options: 2 rebuys per player until the first break, with 300 chips or fewer; 1 add-on per player at the first "
        "break; re-entry while late registration is open (until the first break); a bounty of 10 out of each buy-in; "
        "a rebuy, an add-on, or a re-entry costs 40 for 300 chips."]
    return service, clock


async def balances(service: Service) -> dict[str, int]:
    found = await service.store.read(lambda tx: tx.balances(""))
    return {name: chips for name, chips in found.items() if PLACE.table_id in name}


BUST = re.compile(r" is out for now | is out; | is eliminated in | share \S+ place\.|The tournament is over")
"""What the channel says of a bust: out for now (a comeback open, or the place not yet final), out in a place, out
sharing places, or the end."""
REBUY_UNTIL_BREAK = " is out for now and may come back with /rebuy until 19:00."
REENTER_UNTIL_BREAK = " is out for now and may re-enter with /join until 19:00."


async def shove_until_someone_busts(service: Service, reply: Reply) -> str:
    """All-in hands until someone is out (`BUST`); everything said."""
    return await shove_until(service, reply, PLAYERS, BUST)


async def refused_without_change(service: Service, actor: Actor, line: str, error: str) -> None:
    before = await balances(service)
    reply = await service.handle(PLACE, actor, line)
    assert reply.error == error
    assert await balances(service) == before


async def seat_stacks(service: Service) -> dict[str, int]:
    return {name.rsplit(":", 1)[1]: chips for name, chips in (await balances(service)).items()
            if name.startswith("stack:") and chips}


async def test_rebuys_add_ons_re_entries_and_bounties_end_to_end(night) -> None:
    service, clock = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    said = await shove_until_someone_busts(service, started)
    assert ("Ann wins the main pot (1,200) with two pair, sevens and fives, ten kicker.\n"  # four stacks all-in
            "Bob is out for now and may come back with /rebuy until 19:00.\n"  # out for now: no place yet
            "Cat is out for now and may come back with /rebuy until 19:00.\n"
            "Dan is out for now and may come back with /rebuy until 19:00.\n"
            "🎯 Ann collects Bob's bounty: 10.\n"  # the bounty is announced at the bust-out
            "🎯 Ann collects Cat's bounty: 10.\n"
            "🎯 Ann collects Dan's bounty: 10.\n") in said
    assert "The tournament is over" not in said, "in the rebuy period the busted may still come back"
    assert " share " not in said and " is eliminated in " not in said, "out for now: no place yet"
    first, second, third = BOB, CAT, DAN

    reentered = await service.handle(PLACE, first, "/join")  # re-entry: the usual register command
    assert reentered.public == [f"{first.name} re-enters: 300 chips for 40."]
    rebought = await service.handle(PLACE, second, "/rebuy")  # busted too: back by a rebuy from nothing
    assert rebought.public == [f"{second.name} rebuys: 300 chips for 40."]
    stacks = await seat_stacks(service)
    rich = next(player for player, chips in stacks.items() if chips > 300)
    await refused_without_change(service, PLAYERS[rich], "/rebuy",
                                 f"A rebuy is for a stack of 300 chips or fewer; you have {stacks[rich]:,}.")
    idle = await service.handle(PLACE, first, "/table")
    rebought = await service.press(PLACE, first, press_label(idle, "rebuy"))  # the button between hands
    assert rebought.error is None, rebought.error
    assert rebought.public == [f"{first.name} rebuys: 300 chips for 40."]
    assert (await service.handle(PLACE, BOB, "/clock")).public == [
        "⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break.\n"  # still 18:00: the level ends at 19:00
        "3 players left of 5 entries; 2 rebuys · 0 add-ons · 1 re-entry · bounties in play: 10; paid in: 320.\n"
        "Options: 2 rebuys each through level 1; 1 add-on each at the break; re-entry through level 1; bounty 10."]

    clock.current = BREAK
    await service.scheduler.fire_due()
    await refused_without_change(service, first, "/rebuy", "The rebuy period is over (it ends at the first break).")
    await refused_without_change(service, third, "/join", "Registration is closed.")  # late registration is over
    await refused_without_change(service, third, "/rebuy", "The rebuy period is over (it ends at the first break).")
    idle = await service.handle(PLACE, second, "/table")
    added = await service.press(PLACE, second, press_label(idle, "addon"))
    assert added.public == [f"{second.name} takes the add-on: 300 chips for 40."]
    await refused_without_change(service, second, "/addon", "You have bought all your add-ons (1).")
    await refused_without_change(service, third, "/addon", "You are out of the tournament in 4th place.")

    clock.current = PLAY
    await service.scheduler.fire_due()
    reply = await service.handle(PLACE, ANN, "/table")
    for _ in range(20):
        said = await shove_until_someone_busts(service, reply)
        if "The tournament is over" in said:
            break
        assert "may re-enter" not in said and "may come back" not in said
        reply = await service.handle(PLACE, ANN, "/deal")
    assert said.endswith("\n"
                         "🏆 The tournament is over. Winner: Bob!\n"
                         "Places: 1. Bob · 2. Ann · 3. Cat · 4. Dan\n"
                         "Settlement (money units):\n"
                         "Ann: paid 50, cashed out 0, net −20 (bounties 30)\n"
                         "Bob: paid 130, cashed out 320, net +200 (1 rebuy, 1 re-entry, bounties 10)\n"
                         "Cat: paid 130, cashed out 0, net −130 (1 rebuy, 1 add-on)\n"
                         "Dan: paid 50, cashed out 0, net −50\n"
                         "Payments:\n"
                         "Cat → Bob: 130\n"
                         "Dan → Bob: 50\n"
                         "Ann → Bob: 20\n"
                         "Hold'em — hand #3 · blinds 25/50 · no-limit\n"
                         "Board: 7♠ 5♠ 3♦ 6♣ A♦ · Pot: 0\n"
                         "  Ann · 0 Ⓓ\n"
                         "  Bob · 2,400\n"
                         "\n"
                         "Ann wants to run it once.\n"
                         "The board is run once.\n"
                         "Flop: 7♠ 5♠ 3♦\n"
                         "Turn: 6♣ (board 7♠ 5♠ 3♦ 6♣)\n"
                         "River: A♦ (board 7♠ 5♠ 3♦ 6♣ A♦)\n"
                         "Showdown — Bob: 9♦ 7♥ (a pair of sevens, ace kicker); Ann: Q♣ K♥ (ace high)\n"
                         "Bob wins the main pot (1,200) with a pair of sevens, ace kicker.\n"
                         "The hand is over."), said[-1500:]

    assert await service.store.read(lambda tx: tx.check_ledger()) == []
    assert (await balances(service))[BANK] == 0, "every chip issued came back to the bank"
    rows = await service.store.read(lambda tx: tx.ledger_rows(PLACE.table_id, "t1"))
    _, state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    tournament = Tournament.from_dict(state["last_tournament"]["engine"])
    settlement = tournament.settle()
    rate = tournament.config.rate
    for row in settlement.rows:
        issued = sum(move.amount for move in rows if move.source == BANK and move.target == stack(row.player))
        returned = sum(move.amount for move in rows if move.target == BANK and move.source == stack(row.player))
        assert row.paid_in == 10 + Fraction(issued) / rate, "the buy-in's bounty, and every stack at the rate"
        assert row.cashed_out == Fraction(returned) / rate
        paid = sum(item.amount for item in settlement.transfers if item.payer == row.player)
        got = sum(item.amount for item in settlement.transfers if item.payee == row.player)
        assert (got - paid) * 100 == row.net_cents, "the transfers pay exactly each player's net"
    assert sum(row.bounties for row in settlement.rows) == 40, "four bounties of 10, each paid to someone"
    assert sum(row.net for row in settlement.rows) == 0
    counts = {row.player: (row.rebuys, row.addons, row.reentries) for row in settlement.rows}
    assert (counts[first.user_id], counts[second.user_id], counts[third.user_id]) == ((1, 0, 1), (1, 1, 0), (0, 0, 0))

    await service.handle(PLACE, ANN, "/lang ru")
    again = await service.handle(PLACE, BOB, "/tournament close")  # the results again, now in Russian
    assert again.public == ["🏆 Турнир окончен. Победитель: Bob!\nМеста: 1. Bob · 2. Ann · 3. Cat · 4. Dan",
                            "Расчёт (в деньгах):\n"
                            "Ann: внесено 50, получено 0, итог −20 (баунти 30)\n"
                            "Bob: внесено 130, получено 320, итог +200 (1 ребай, 1 повторный вход, баунти 10)\n"
                            "Cat: внесено 130, получено 0, итог −130 (1 ребай, 1 аддон)\n"
                            "Dan: внесено 50, получено 0, итог −50\n"
                            "Кто кому платит:\n"
                            "Cat → Bob: 130\n"
                            "Dan → Bob: 50\n"
                            "Ann → Bob: 20"]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Ann: paid 210, cashed out 0, net −207.50 (2 rebuys, 1 add-on, 1 re-entry, bounties 2.50)",
            "Bob: paid 50, cashed out 0, net −50 (21 rebuys, 5 re-entries)",
            "Cat: paid 0, cashed out 257.50, net +257.50"]),
    ("ru", ["Ann: внесено 210, получено 0, итог −207,50 (2 ребая, 1 аддон, 1 повторный вход, баунти 2,50)",
            "Bob: внесено 50, получено 0, итог −50 (21 ребай, 5 повторных входов)",
            "Cat: внесено 0, получено 257,50, итог +257,50"]),
])
def test_the_settlement_says_each_count_in_the_form_its_number_takes(language: str, expected: list[str]) -> None:
    rows = [SettlementRow("ann", Fraction(210), Fraction(0), Fraction(0), bounties=Fraction(5, 2), rebuys=2, addons=1,
                          reentries=1),
            SettlementRow("bob", Fraction(50), Fraction(0), Fraction(0), rebuys=21, reentries=5),
            SettlementRow("cat", Fraction(0), Fraction(515, 2), Fraction(0))]
    lines = render_settlement(Voice(language, str.title), build_settlement(rows)).splitlines()
    assert lines[1:4] == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Olga: paid 100, cashed out 666.67, items bought back 16.67, net +550",
            "Ivan: paid 300, cashed out 0, items bought back 0, net −300",
            "Petr: paid 300, cashed out 50, items bought back 0, net −250"]),
    ("ru", ["Olga: внесено 100, получено 666,67, выкуп вещей 16,67, итог +550",
            "Ivan: внесено 300, получено 0, выкуп вещей 0, итог −300",
            "Petr: внесено 300, получено 50, выкуп вещей 0, итог −250"]),
])
def test_every_settlement_row_says_the_same_figures_in_the_same_order(language: str, expected: list[str]) -> None:
    """A player who busted read "paid 300, net −300" beside "paid 300, cashed out 50, net −250": the rows did not
    line up, and the bust's cash-out of nothing was left to guess. Every row now says paid, cashed out and net, a
    zero where there is nothing; items bought back too, on every row, once anyone bought one back."""
    rows = [SettlementRow("olga", Fraction(100), Fraction(66667, 100), Fraction(1667, 100)),
            SettlementRow("ivan", Fraction(300), Fraction(0), Fraction(0)),
            SettlementRow("petr", Fraction(300), Fraction(50), Fraction(0))]
    lines = render_settlement(Voice(language, str.title), build_settlement(rows)).splitlines()
    assert lines[1:4] == expected


CLOCK_OPTIONS = {
    "en": ("Options: 2 rebuys each through level 1; 1 add-on each at the break; re-entry through level 1; bounty 10.",
           "Options: rebuys are over; 1 add-on each at the break; re-entry is over; bounty 10.",
           "Options: rebuys are over; add-ons are over; re-entry is over; bounty 10."),
    "ru": ("Опции: 2 ребая на игрока до конца уровня 1; 1 аддон на игрока на перерыве; повторный вход до конца "
           "уровня 1; баунти 10.",
           "Опции: ребаи закончились; 1 аддон на игрока на перерыве; повторный вход закрыт; баунти 10.",
           "Опции: ребаи закончились; аддоны закончились; повторный вход закрыт; баунти 10."),
}
"""What `/clock` says of OPTIONS in the rebuy period, at the first break, and after it."""


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_clock_says_the_options_and_which_are_over(night, language: str) -> None:
    """`/clock` ends with the options in one short line, each period said as over once it is: before the start and
    in the rebuy period, at the break (the add-on on sale), after it."""
    service, clock = night
    await service.handle(PLACE, ANN, f"/lang {language}")
    during, at_break, after = CLOCK_OPTIONS[language]
    registering = {"en": "Registration open: Ann, Bob, Cat, Dan.", "ru": "Идёт регистрация: Ann, Bob, Cat, Dan."}
    assert (await service.handle(PLACE, CAT, "/clock")).public == [f"{registering[language]}\n{during}"]
    await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, CAT, "/clock")).public[0].splitlines()[-1] == during
    clock.current = BREAK
    await service.scheduler.fire_due()
    assert (await service.handle(PLACE, CAT, "/clock")).public[0].splitlines()[-1] == at_break
    clock.current = PLAY
    await service.scheduler.fire_due()
    assert (await service.handle(PLACE, CAT, "/tournament clock")).public[0].splitlines()[-1] == after
    paused = (await service.handle(PLACE, ANN, "/tournament pause")).public  # the organizer's: the clock alone
    assert (await service.handle(PLACE, CAT, "/clock")).public == [f"{paused[0]}\n{after}"]


@pytest.mark.parametrize(("language", "options", "said"), [
    ("en", "pawns 1", "Options: at most 1 item pawned per player."),
    ("en", "pawns 0 bounty 2,5", "Options: bounty 2.50; no pawning."),
    ("ru", "pawns 2", "Опции: в залог — не больше 2 вещей на игрока."),
    ("ru", "addon 2 pawns 5", "Опции: 2 аддона на игрока на перерыве; в залог — не больше 5 вещей на игрока."),
])
async def test_the_clock_names_only_the_options_the_tournament_has(store: Store, language: str, options: str,
                                                                   said: str) -> None:
    service = await started_service(store, FakeClock(SIX_PM), seed=1)
    await night_registered(service, (ANN, BOB), f"home-night {options}")
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, CAT, "/clock")).public[0].splitlines()[-1] == said


async def test_bad_options_are_refused_with_a_reason_and_create_nothing(store: Store) -> None:
    service = await started_service(store, FakeClock(SIX_PM), seed=1)
    refused = await service.handle(PLACE, ANN, "/tournament create home-night rebuys")
    assert refused.error == "I can't read that option: “rebuys” needs a count per player, like “rebuys 2”."
    refused = await service.handle(PLACE, ANN, "/tournament create bounty 60")
    assert refused.error == "I can't read that option: the bounty is part of the buy-in: more than 0 and less than 50."
    refused = await service.handle(PLACE, ANN, "/tournament create 10/20 20m; 20/40 rebuys 1")
    assert refused.error == "Rebuys, add-ons and re-entry run until the first break, and this schedule has none."
    for line in ("pawns -1", "pawns 11", "pawns 99999999999999999999"):
        refused = await service.handle(PLACE, ANN, f"/tournament create home-night {line}")
        assert refused.error == (f"I can't read that option: “pawns”: from 0 (no pawning) to 10 items per player, "
                                 f"not {line.split()[1]}."), line
    refused = await service.handle(PLACE, ANN, "/tournament create pawns all")
    assert refused.error == "I can't read that option: “pawns” needs a count per player, like “pawns 2”."
    await service.handle(PLACE, ANN, "/lang ru")
    refused = await service.handle(PLACE, ANN, "/tournament create аддон 0")
    assert refused.error == "Не могу разобрать опцию: «аддон»: от 1 до 99 на игрока, а не 0."
    refused = await service.handle(PLACE, ANN, "/tournament create залоги -2")
    assert refused.error == "Не могу разобрать опцию: «залоги»: от 0 (без залогов) до 10 вещей на игрока, а не -2."
    assert (await service.handle(PLACE, ANN, "/clock")).error == (
        "За этим столом нет турнира: организатор создаёт его командой /tournament create."), "none was created"
    created = await service.handle(PLACE, ANN, "/tournament create ребаи 1 баунти 2,5")
    assert created.error is None, created.error
    assert created.public == [
        "Турнир №1 создан. Расписание (UTC): 10/20 до 19:00; перерыв до 20:00; 50/100. Бай-ин 50 за 300 фишек; "
        "регистрация — /join; организатор запускает турнир командой /tournament start.",
        "Опции: 1 ребай на игрока до первого перерыва, при стеке не больше 300 фишек; баунти 2,50 из каждого бай-ина; "
        "ребай стоит 47,50 за 300 фишек."]  # only what it offers is priced


async def test_no_rebuy_or_add_on_when_the_tournament_offers_none(store: Store) -> None:
    service = await started_service(store, FakeClock(SIX_PM), seed=1)
    await service.handle(PLACE, ANN, "/tournament create home-night")
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join")
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert not any(button.payload.endswith(("rebuy", "addon")) for button in started.table.buttons)
    in_hand = PLAYERS[started.table.to_act]  # not told to wait for the hand's end: there is nothing to wait for
    await refused_without_change(service, in_hand, "/rebuy", "Rebuys are not allowed in this tournament.")
    await refused_without_change(service, in_hand, "/addon", "Add-ons are not offered in this tournament.")
    await refused_without_change(service, CAT, "/rebuy", "Rebuys are not allowed in this tournament.")
    await refused_without_change(service, CAT, "/addon", "Add-ons are not offered in this tournament.")
    assert (await service.handle(PLACE, CAT, "/clock")).public == [  # no counts without options
        "⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."]


async def test_in_a_hand_a_rebuy_or_add_on_not_on_offer_says_why_before_between_hands(night) -> None:
    """"Between hands" only when it would be sold after the hand: at level 1 an add-on waits for the break, and a
    hand that plays on into the break is past the rebuy period."""
    service, clock = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    in_hand = PLAYERS[started.table.to_act]
    await refused_without_change(service, in_hand, "/addon", "Add-ons are sold during the first break.")
    await refused_without_change(service, in_hand, "/rebuy", "Rebuy between hands: wait for this hand to end.")
    clock.current = BREAK  # the hand dealt at level 1 plays on
    await service.scheduler.fire_due()
    assert (await service.handle(PLACE, ANN, "/table")).table.to_act, "the hand is still in play"
    await refused_without_change(service, in_hand, "/rebuy", "The rebuy period is over (it ends at the first break).")
    await refused_without_change(service, in_hand, "/addon",
                                 "Take the add-on between hands: wait for this hand to end.")
    await service.handle(PLACE, ANN, "/lang ru")
    await refused_without_change(service, in_hand, "/rebuy", "Время ребаев прошло (оно кончается с первым перерывом).")


async def test_the_last_player_waits_for_a_comeback_until_the_rebuy_period_ends(store: Store) -> None:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=3)
    await night_registered(service, (ANN, BOB), "home-night rebuys 1")
    said = await shove_until_someone_busts(service, await service.handle(PLACE, ANN, "/tournament start"))
    assert any(f"{actor.name}{REBUY_UNTIL_BREAK}" in said for actor in (ANN, BOB)), "he may still rebuy"
    assert "The tournament is over" not in said
    heard = listen(service)
    clock.current = BREAK
    await service.scheduler.fire_due()
    assert public_lines(heard) == [  # no comeback by the break
        "⏸ Break until 20:00 (1h00m left).\n1 player left of 2 entries; 0 rebuys; paid in: 100.", *BOB_WINS]
    assert await service.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.parametrize("line", ["/tournament skip", "/tournament minutes -90"])
async def test_the_organizer_moving_the_clock_past_the_rebuy_period_ends_it_for_a_lone_player(store: Store,
                                                                                              line: str) -> None:
    """As when the break comes on time: once nobody may come back, the last player has won, at once (after a skip
    nothing else would end it: the clock's next word may be hours away, or never on the last level)."""
    service, _, busted, left = await two_then_one(store, "rebuys 1")
    moved = await service.handle(PLACE, ANN, line)
    assert moved.error is None, moved.error
    assert (busted, left) == (ANN, BOB)
    assert moved.public == [
        "⏸ Break until 20:00 (2h00m left).\n1 player left of 2 entries; 0 rebuys; paid in: 100.", *BOB_WINS]
    assert (await service.handle(PLACE, busted, "/rebuy")).error == NO_TOURNAMENT, "the night is over"
    await ledger_ok(service)


async def two_then_one(store: Store, options: str) -> tuple[Service, FakeClock, Actor, Actor]:
    """Ann and Bob in a no-limit night with `options`, shoving until one is out: (service, clock, busted, left)."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=3)
    await night_registered(service, (ANN, BOB), f"home-night {options}")
    said = await shove_until_someone_busts(service, await service.handle(PLACE, ANN, "/tournament start"))
    out = {"rebuys 1": REBUY_UNTIL_BREAK, "reentry": REENTER_UNTIL_BREAK}[options]
    busted = next(actor for actor in (ANN, BOB) if f"{actor.name}{out}" in said)
    return service, clock, busted, next(actor for actor in (ANN, BOB) if actor is not busted)


@pytest.mark.parametrize(("options", "way", "ru_way"), [("rebuys 1", "rebuy (/rebuy)", "ребай (/rebuy)"),
                                                       ("reentry", "re-entry (/join)", "повторный вход (/join)")])
async def test_a_lone_player_s_table_says_who_may_come_back_and_how(store: Store, options: str, way: str,
                                                                     ru_way: str) -> None:
    """Not "Waiting for a second player: /join to sit down." (the busted player's /join is refused without
    re-entry): what can happen until the rebuy period ends, said as the bust line says it (19:00, where it said "until
    the first break"), and what happens if it does not."""
    service, _, busted, _ = await two_then_one(store, options)
    assert busted == ANN
    table = (await service.handle(PLACE, busted, "/table")).table
    assert table is not None and table.text == (
        "Texas Hold'em — seats:\n"
        "  Bob — 600\n"
        "Hand #1: Bob wins 600.\n"
        f"Waiting until 19:00 for a busted player to come back — {way}: Ann. If nobody does, "
        "the last player left wins.")  # the time the bust line gave, the first break's start
    await service.handle(PLACE, ANN, "/lang ru")
    table = (await service.handle(PLACE, busted, "/table")).table
    assert table is not None and table.text == (
        "Техасский холдем — места:\n"
        "  Bob — 600\n"
        "Раздача №1: Bob выигрывает 600.\n"
        f"До 19:00 ждём, не вернётся ли выбывший — {ru_way}: Ann. Если никто не вернётся, "
        "побеждает последний оставшийся игрок.")


async def test_a_lone_player_s_table_paused_past_the_break_waits_until_play_resumes(store: Store) -> None:
    """The organizer's pause holds the rebuy period open: before its end time (19:00) the table waits "until the
    first break", as the bust line says then; once 19:00 has passed in the pause, the break never comes (resuming
    passes it over) and the period ends as play resumes, so the table waits "until play resumes" (where it still
    said the first break)."""
    service, clock, busted, _ = await two_then_one(store, "rebuys 1")
    await service.handle(PLACE, ANN, "/tournament pause")
    waiting = ("Waiting until {until} for a busted player to come back — rebuy (/rebuy): Ann. If nobody does, the "
               "last player left wins.")
    table = (await service.handle(PLACE, busted, "/table")).table
    assert table is not None and table.text.splitlines()[-1] == waiting.format(until="the first break")
    clock.advance(90 * 60)  # 19:30
    table = (await service.handle(PLACE, busted, "/table")).table
    assert table is not None and table.text.splitlines()[-1] == waiting.format(until="play resumes")
    await service.handle(PLACE, ANN, "/lang ru")
    table = (await service.handle(PLACE, busted, "/table")).table
    assert table is not None and table.text.splitlines()[-1] == (
        "До возобновления игры ждём, не вернётся ли выбывший — ребай (/rebuy): Ann. Если никто не вернётся, "
        "побеждает последний оставшийся игрок.")


@pytest.mark.parametrize(("options", "comeback", "said"), [("rebuys 1", "/rebuy", "Ann rebuys: 300 chips for 50."),
                                                           ("reentry", "/join", "Ann re-enters: 300 chips for 50.")])
async def test_a_comeback_to_a_lone_player_is_dealt_the_next_hand_by_itself(store: Store, options: str,
                                                                            comeback: str, said: str) -> None:
    """The table says the next deal comes in a moment: it comes, with nobody pressing Deal."""
    service, clock, busted, _ = await two_then_one(store, options)
    back = await service.handle(PLACE, busted, comeback)
    assert back.error is None and back.table is not None
    assert back.public == [said]
    assert back.table.text == ("Texas Hold'em — seats:\n"
                               "  Bob — 600\n"
                               "  Ann — 300\n"
                               "Hand #1: Bob wins 600.\n"
                               "Between hands: the next deal comes in a moment, or press Deal.")
    heard = listen(service)
    clock.advance(30)
    await service.scheduler.fire_due()
    dealt = [reply.table for reply in heard if reply.table is not None and reply.table.to_act]
    assert dealt, "two players seated while the tournament runs, and no hand was dealt"
    await ledger_ok(service)


async def test_the_last_player_cashing_out_ends_the_night_with_a_winner(store: Store) -> None:
    """RULES.md §1: who cashes out takes no place; the end names the winner and the places of those who busted, so
    the last one out moves up to first, at once (a comeback would have nobody to play)."""
    service, _, busted, left = await two_then_one(store, "rebuys 1")
    heard = listen(service)
    out = await service.handle(PLACE, left, "/cashout")
    assert out.error is None
    assert (busted, left) == (ANN, BOB)
    assert [out.public, *(reply.public for reply in heard)] == [[
        "Bob cashes out 600 chips for 100.",
        "🏆 The tournament is over. Winner: Ann!\nPlaces: 1. Ann\nCashed out before the end (no place): Bob",
        "Settlement (money units):\n"
        "Ann: paid 50, cashed out 0, net −50\n"
        "Bob: paid 50, cashed out 100, net +50\n"
        "Payments:\n"
        "Ann → Bob: 50"]]
    assert (await service.handle(PLACE, busted, "/rebuy")).error == NO_TOURNAMENT, "the night is over"
    await ledger_ok(service)


async def test_a_tournament_started_during_its_first_break_sells_no_add_on_before_any_hand(store: Store) -> None:
    """Started at 19:30, in the 19:00-20:00 break: nobody has played, so the break is no add-on break (an add-on then
    is only a bigger buy-in): no Add-on button, and /addon is refused with that reason, in either language, changing
    nothing."""
    clock = FakeClock(at(19, 30))
    service = await started_service(store, clock, seed=3)
    await night_registered(service, (ANN, BOB), "home-night addon 1", structure=None)
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None, started.error
    idle = await service.handle(PLACE, BOB, "/table")
    assert idle.table is not None and idle.table.to_act is None, "the break: no hand"
    assert not any(button.payload.endswith("addon") for button in idle.table.buttons)
    await refused_without_change(service, ANN, "/addon",
                                 "This tournament started during its first break, before any hand: it sells no "
                                 "add-ons.")
    await service.handle(PLACE, ANN, "/lang ru")
    await refused_without_change(service, BOB, "/addon",
                                 "Этот турнир начался во время первого перерыва, до первой раздачи: аддоны в нём не "
                                 "продаются.")
    await ledger_ok(service)


def table_of(replies: list[Reply]) -> TableMessage:
    """The last table message among these replies (the one the chat shows now)."""
    tables = [reply.table for reply in replies if reply.table is not None]
    assert tables, "the table message was not redrawn"
    return tables[-1]


def commands_of(table: TableMessage) -> list[str]:
    return [button.payload.rsplit("|", 1)[1] for button in table.buttons]


SEATS_AT_THE_BREAK = ("Texas Hold'em — seats:\n  Ann — 300\n  Bob — 295\n  Cat — 305\n  Dan — 300\n"
                      "Hand #1: Cat wins 10.\nBreak until 20:00.")
"""The seats at the first break after hand #1 (Cat won it), played out or into the break alike."""


async def test_the_first_break_shows_the_add_on_button_without_a_table_command(night) -> None:
    """At the first break the chat heard "⏸ Break until 20:00." while the table message went on showing the last
    hand's end, with no Add-on button: only a player who typed /table learned that add-ons were on sale. The break
    now redraws the seats, with why no hand comes and the Add-on button."""
    service, clock = night
    heard = listen(service)
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    clock.current = BREAK
    await service.scheduler.fire_due()
    table = table_of(heard)
    assert (table.text, commands_of(table)) == (SEATS_AT_THE_BREAK, ["show", "addon"])
    added = await service.press(PLACE, BOB, press_label(heard[-1], "addon"))
    assert f"{BOB.name} takes the add-on: 300 chips for 40." in added.public
    await ledger_ok(service)


async def test_a_hand_played_into_the_break_ends_with_the_add_on_button(night) -> None:
    """The hand dealt at level 1 plays on into the break; when it ends no hand follows, and the seats (with the
    Add-on button) replace its end once the pause between hands is over, as a new hand would."""
    service, clock = night
    heard = listen(service)
    started = await service.handle(PLACE, ANN, "/tournament start")
    clock.current = BREAK
    await service.scheduler.fire_due()
    in_play = [reply for reply in (started, *heard) if reply.table is not None][-1]  # the time bank runs
    await play_out(service, PLACE, PLAYERS, in_play, preference=("fold", "check"))
    ended = len(heard)
    clock.advance(30)
    await service.scheduler.fire_due()
    table = table_of(heard[ended:])
    assert (table.text, commands_of(table)) == (SEATS_AT_THE_BREAK, ["show", "addon"])


@pytest.mark.parametrize(("language", "paused"), [
    ("en", "Texas Hold'em — seats:\n  Ann — 300\n  Bob — 295\n  Cat — 305\n  Dan — 300\nHand #1: Cat wins 10.\n"
           "The clock is paused: no hand is dealt until the organizer resumes it (/tournament resume)."),
    ("ru", "Техасский холдем — места:\n  Ann — 300\n  Bob — 295\n  Cat — 305\n  Dan — 300\nРаздача №1: Cat выигрывает "
           "10.\nЧасы на паузе: раздач не будет, пока организатор их не запустит (/tournament resume)."),
])
async def test_a_pause_between_hands_takes_the_deal_button_away(night, language: str, paused: str) -> None:
    """Paused between hands, the table message went on saying "the next deal comes in a moment, or press Deal" with
    a Deal button that the pause refused; it now says the clock is paused, with no Deal button, and resumed, the
    next hand is dealt."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert "deal" in commands_of(table_of([await service.handle(PLACE, BOB, "/table")]))
    table = table_of([await service.handle(PLACE, ANN, "/tournament pause")])
    assert (table.text, commands_of(table)) == (paused, ["show", "rebuy"])
    assert table_of([await service.handle(PLACE, ANN, "/tournament resume")]).to_act, "the next hand is dealt"


async def start_rebuy_night(service: Service) -> Reply:
    """A two-player rebuy night (one rebuy each, no-limit) created and started by Ann at the clock's time: the start,
    with its first hand."""
    await night_registered(service, (ANN, BOB), "home-night rebuys 1")
    return await service.handle(PLACE, ANN, "/tournament start")


async def rebuy_night_with_a_bust(service: Service, clock: FakeClock) -> Actor:
    """A two-player rebuy night (`start_rebuy_night`); at 18:20 all-in hands until one player busts. The busted
    player."""
    started = await start_rebuy_night(service)
    clock.current = at(18, 20)
    said = await shove_until_someone_busts(service, started)
    return next(actor for actor in (ANN, BOB) if f"{actor.name}{REBUY_UNTIL_BREAK}" in said)


async def bust_one_then_go_down(store: Store, language: str, stops_cleanly: bool) -> tuple[Actor, Actor]:
    """A two-player rebuy night (one rebuy each) started at 18:00 in `language`; one player busts at 18:20, then the
    bot stops at 18:40 (`stops_cleanly`) or crashes (its last stored action the bust), and `store` is closed. The
    busted player and the one left."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=3)
    busted = await rebuy_night_with_a_bust(service, clock)
    await service.handle(PLACE, ANN, f"/lang {language}")
    if stops_cleanly:
        clock.current = at(18, 40)
        await service.stop()
    await store.close()
    return busted, ANN if busted is BOB else BOB


@pytest.mark.parametrize(("language", "stops_cleanly", "comes_back", "reopened", "waiting", "over"), [
    ("en", True, True, ["⏸ Break until 20:00 (30m left).\n1 player left of 2 entries; 0 rebuys; paid in: 100.",
                        "The rebuy period ended while the bot was offline: it runs again until 19:50, for as long as "
                        "the downtime cut it short."],
     "Waiting until 19:50 for a busted player to come back — rebuy (/rebuy): {busted}. If nobody does, the last "
     "player left wins.", "The tournament is over. Winner: {left}"),
    ("ru", False, False, ["⏸ Перерыв до 20:00 (осталось 30\xa0мин).\nВ игре 1 игрок, 2 входа в турнир; 0 ребаев; "
                          "внесено: 100.",
                          "Время ребаев закончилось, пока бот был недоступен: оно идёт снова до 20:10 — столько, "
                          "сколько отнял простой."],
     "До 20:10 ждём, не вернётся ли выбывший — ребай (/rebuy): {busted}. Если никто не вернётся, побеждает "
     "последний оставшийся игрок.", "Турнир окончен. Победитель: {left}"),
])
async def test_a_rebuy_period_cut_short_by_downtime_runs_again_after_the_restart(
        store: Store, language: str, stops_cleanly: bool, comes_back: bool, reopened: list[str], waiting: str,
        over: str) -> None:
    """A player busts at 18:20 in a rebuy night; the bot stops at 18:40 (or crashes: its last stored action was the
    bust) and starts again at 19:30, past the rebuy period's end at the 19:00 break (RULES.md §1c is silent): the
    period runs again from the restart, once, for the 20 (or 40) minutes the downtime took from it, and the last player
    is not declared the winner meanwhile. The busted player rebuys then; or, when nobody comes back, the night ends
    when the period given back does, with the last player the winner."""
    busted, left = await bust_one_then_go_down(store, language, stops_cleanly)
    later = FakeClock(at(19, 30))
    reopened_store, restarted, heard = await restart_after_downtime(store.location, later)
    assert [reply.public for reply in heard] == [reopened]
    table = (await restarted.handle(PLACE, left, "/table")).table
    assert table is not None and table.text.endswith("\n" + waiting.format(busted=busted.name)), table.text
    end = at(19, 50) if stops_cleanly else at(20, 10)
    given_back = {"en": "Options: 1 rebuy each until 19:50.", "ru": "Опции: 1 ребай на игрока до 20:10."}
    assert (await restarted.handle(PLACE, left, "/clock")).public[0].splitlines()[-1] == given_back[language]
    if comes_back:
        back = await restarted.handle(PLACE, busted, "/rebuy")
        assert back.error is None and back.public == [f"{busted.name} rebuys: 300 chips for 50."]
    later.current = at(20, 0, 1)
    await restarted.scheduler.fire_due()
    assert over.format(left=left.name) not in everything_said(heard), "play resumes inside the rebuy time given back"
    later.current = end
    await restarted.scheduler.fire_due()
    assert (over.format(left=left.name) in everything_said(heard)) is not comes_back
    # he came back (en): the night goes on past the period given back; nobody did (ru): the night is over
    assert (await restarted.handle(PLACE, busted, "/rebuy")).error == {
        "en": "The rebuy period is over (it ends at the first break).",
        "ru": "За этим столом нет турнира: организатор создаёт его командой /tournament create.",
    }[language], "the rebuy time given back is over"
    await ledger_ok(restarted)
    await reopened_store.close()


@pytest.mark.parametrize("command", ["/rebuy", "/tournament skip"])
async def test_the_rebuy_period_given_back_is_there_before_the_restarts_timers_fire(store: Store, command: str) -> None:
    """The bot was down from 18:40 to 19:30, past the rebuy period's end at 19:00. The timer loop starts after
    start-up, and a command may reach the table before it fires the clock's appointment: the period given back (until
    19:50) is there from the start all the same. The busted player's `/rebuy` is taken; the organizer's `/tournament
    skip` moves the clock from the break to the next level and the last player waits on for a comeback (the period
    given back runs by the wall clock, as the downtime did), where it used to end the night at once."""
    busted, _ = await bust_one_then_go_down(store, "en", stops_cleanly=True)
    reopened = await Store.open(store.location)
    restarted = await started_service(reopened, FakeClock(at(19, 30)), seed=5)  # and no `scheduler.fire_due()`
    reply = await restarted.handle(PLACE, busted if command == "/rebuy" else ANN, command)
    assert reply.error is None, reply.error
    if command == "/rebuy":
        assert reply.public == [f"{busted.name} rebuys: 300 chips for 50."]
    else:
        assert reply.public == ["⏱ Level 2: limits 50/100 (blinds 25/50), the last level: it plays until the "
                                "tournament ends.\n1 player left of 2 entries; 0 rebuys; paid in: 100."]  # not over
        assert (await restarted.handle(PLACE, busted, "/rebuy")).error is None
    await ledger_ok(restarted)
    await reopened.close()


async def paused_from(service: Service, clock: FakeClock, table_id: str, start: float, *, until: float) -> str:
    """The table paused (`Service.pause`: the bot lost its chat) at `start` and resumed at `until`, its due timers
    fired at each: nothing is said while it is paused; all that is said as play resumes."""
    heard = listen(service)
    clock.current = start
    await service.pause([table_id])
    clock.current = until
    await service.scheduler.fire_due()
    assert not heard, "nothing fires at a paused table"
    await service.resume([table_id])
    await service.scheduler.fire_due()
    return everything_said(heard)


@pytest.mark.parametrize(("language", "given_back", "rebought", "over"), [
    ("en", "The rebuy period ended while the table was paused (the bot could not reach this chat): it runs again "
           "until 20:00, for as long as the pause cut it short.",
     "{player} rebuys: 300 chips for 50.", "The rebuy period is over (it ends at the first break)."),
    ("ru", "Время ребаев закончилось, пока стол стоял на паузе (бот не мог связаться с этим чатом): оно идёт снова "
           "до 20:00 — столько, сколько отняла пауза.",
     "{player} делает ребай: 300 фишек за 50.", "Время ребаев прошло (оно кончается с первым перерывом)."),
])
async def test_a_table_paused_across_the_end_of_the_rebuy_period_gets_it_back_when_play_resumes(
        store: Store, language: str, given_back: str, rebought: str, over: str) -> None:
    """The bot lost the channel (`Service.pause`) at 18:30, after a player busted at 18:20, and got it back at 19:30,
    past the rebuy period's end at 19:00. The players could neither see the table nor act (RULES.md is silent: a card
    room gives that time back): the clock's announcement, held by the pause, fires as play resumes, and the period
    runs again from then for the 30 minutes the pause took from it, said as taken by the pause (the bot was not
    offline); the busted player may rebuy; at 20:00 it is over."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=3)
    busted = await rebuy_night_with_a_bust(service, clock)
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    said = await paused_from(service, clock, PLACE.table_id, at(18, 30), until=at(19, 30))
    assert given_back in said.splitlines()
    assert "offline" not in said and "недоступен" not in said
    back = await service.handle(PLACE, busted, "/rebuy")
    assert back.error is None and back.public == [rebought.format(player=busted.name)]
    clock.current = at(20, 0)
    assert (await service.handle(PLACE, busted, "/rebuy")).error == over
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "given_back"), [
    ("en", "The first break, when add-ons are sold, passed while the table was paused (the bot could not reach this "
           "chat): add-ons are on sale between hands until 21:10 (/addon)."),
    ("ru", "Первый перерыв, когда продаются аддоны, прошёл, пока стол стоял на паузе (бот не мог связаться с этим "
           "чатом): аддоны продаются между раздачами до 21:10 (/addon)."),
])
async def test_a_table_paused_across_the_first_break_sells_its_add_ons_when_play_resumes(
        store: Store, language: str, given_back: str) -> None:
    """Paused from 18:10 to 20:10 (the bot could not reach the chat), the table missed the 19:00-20:00 break, the only
    time add-ons are sold: as play resumes they are sold for the hour the break lasted, until 21:10, said as taken
    by the pause (the bot was not offline)."""
    from tests.bot.test_start_up import PLACE as NIGHT
    from tests.bot.test_start_up import PLAYERS, night_with_add_ons

    clock = FakeClock(at(18, 0))
    service = await night_with_add_ons(store, clock)
    assert (await service.handle(NIGHT, PLAYERS["ann"], f"/lang {language}")).error is None
    said = await paused_from(service, clock, NIGHT.table_id, at(18, 10), until=at(20, 10))
    assert given_back in said.splitlines()
    assert "offline" not in said and "недоступен" not in said
    options = {"en": "Options: 1 add-on each until 21:10.", "ru": "Опции: 1 аддон на игрока до 21:10."}
    assert (await service.handle(NIGHT, PLAYERS["bob"], "/clock")).public[0].splitlines()[-1] == options[language]
    await ledger_ok(service)
