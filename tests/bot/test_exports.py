"""`/export ledger` and `/export tournament [N]`: CSV files sent to the organizer alone, parsed back with the `csv`
module and summed against the ledger; refusals for anyone else, and for what cannot be exported."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.games.exports import HOUSE_STAKES, LEDGER_REASONS, reason_text
from bot.output import Actor, File, Place
from bot.render import Voice
from bot.service import Service
from bot.store import Store, Tx
from bot.store.played import LedgerEntry
from engine.reasons import Reason
from engine.tournament import Tournament
from tests.bot import test_service_tournament_options as options
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import SIX_PM, everything_said, ledger_ok, play_out, shove_out, started_service

MALLORY = Actor("mallory", "=HYPERLINK(\"http://x\")")
ACTORS = {actor.user_id: actor for actor in (ANN, BOB, CAT, MALLORY)}
CASH = Place(PLACE.chat_id, f"{PLACE.chat_id}/cash")


@pytest.fixture
async def night(store: Store) -> tuple[Service, FakeClock]:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    return service, clock


def parse(file: File) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(file.content.decode("utf-8-sig"), newline="")))


async def ok(service: Service, actor: Actor, text: str, place: Place = PLACE) -> None:
    reply = await service.handle(place, actor, text)
    assert reply.error is None, (text, reply.error)


async def played_evening(service: Service) -> None:
    """A cash hand at one table and, at another, a tournament of one hand that Cat leaves with a cash-out."""
    for actor in (ANN, BOB, CAT):
        await ok(service, actor, "/join 300", CASH)
    dealt = await service.handle(CASH, ANN, "/deal")
    await play_out(service, CASH, ACTORS, dealt, ("check", "call"))
    await ok(service, ANN, "/tournament create home-night")
    for actor in (ANN, BOB, CAT):
        await ok(service, actor, "/join")
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, ACTORS, started, ("bet", "raise", "call", "check"))
    await ok(service, CAT, "/cashout")
    await ok(service, ANN, "/tournament close")


async def test_the_ledger_export_sums_to_every_balance(night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await played_evening(service)
    await ledger_ok(service)
    reply = await service.handle(PLACE, ANN, "/export ledger")
    assert reply.error is None and reply.public == []
    (file,) = reply.files
    assert file.to == "ann" and file.name == "ledger-2026-11-29.csv"
    rows = parse(file)
    assert list(rows[0]) == ["time (UTC)", "from", "to", "chips", "reason", "table", "hand", "from player",
                             "to player"]
    assert reply.private == {"ann": [f"The chat's ledger, {len(rows)} rows, is in the file ledger-2026-11-29.csv."]}

    def books(tx: Tx) -> tuple[int, dict[str, int]]:
        count = sum(chat == PLACE.chat_id for _, chat, _ in tx.every_move())
        return count, {**tx.balances("")}

    count, balances = await service.store.read(books)
    assert len(rows) == count > 20
    summed: Counter[str] = Counter()
    for row in rows:
        summed[row["to"]] += int(row["chips"])
        summed[row["from"]] -= int(row["chips"])
    assert {name: chips for name, chips in summed.items()} == balances  # every account, to the chip
    grants = [row for row in rows if row["reason"] == "welcome grant"]
    assert [row["to player"] for row in grants] == ["Ann", "Bob", "Cat"] and grants[0]["time (UTC)"] == (
        "2026-11-29 18:00:00")
    stacks = {row["to player"] for row in rows if row["to"].startswith("stack:")}
    assert stacks == {"Ann", "Bob", "Cat"}, "a stack is named after its player"


async def test_the_ledger_export_is_in_the_tables_time_zone(night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await ok(service, ANN, "/set timezone europe/moscow")
    (file,) = (await service.handle(PLACE, ANN, "/export ledger")).files
    rows = parse(file)
    assert next(iter(rows[0])) == "time (Europe/Moscow)" and rows[0]["time (Europe/Moscow)"] == "2026-11-29 21:00:00"


async def test_a_house_table_sets_and_lists_its_time_zone_and_its_ledger_export_is_written_in_it(
        night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    house = Place(PLACE.chat_id, f"{PLACE.chat_id}/house")
    await ok(service, ANN, "/game caribbean", house)
    assert (await service.handle(house, ANN, "/set")).private["ann"][0].split("\n")[-2] == (
        "timezone — time zone: UTC")  # the last setting listed
    assert (await service.handle(house, BOB, "/set timezone europe/moscow")).error == (
        "Only the organizer — Ann — can do that.")
    assert (await service.handle(house, ANN, "/set timezone europe/moscow")).public == [
        "Setting changed: time zone — Europe/Moscow."]
    assert (await service.handle(house, ANN, "/set")).private["ann"][0].split("\n")[-2] == (
        "timezone — time zone: Europe/Moscow")
    refused = await service.handle(house, ANN, "/set timezone Mars/Olympus")
    assert refused.error == ("“Mars/\u2060Olympus” is not a valid value for “time zone” (/set timezone takes "
                             "Europe/Moscow, UTC, America/New_York…).")
    (file,) = (await service.handle(house, ANN, "/export ledger")).files
    assert next(iter(parse(file)[0])) == "time (Europe/Moscow)"


async def test_the_tables_time_zone_wins_over_a_chat_wide_one_an_older_version_kept(
        night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await ok(service, ANN, "/balance")

    def old_setting(tx: Tx) -> None:
        tx.set_chat_settings(PLACE.chat_id, {**tx.chat_settings(PLACE.chat_id), "timezone": "America/New_York"})

    await service.store.transact(old_setting, now=0.0)
    await ok(service, ANN, "/set timezone europe/moscow")
    (file,) = (await service.handle(PLACE, ANN, "/export ledger")).files
    assert next(iter(parse(file)[0])) == "time (Europe/Moscow)"


async def test_a_name_that_looks_like_a_formula_is_written_as_text(night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await ok(service, ANN, "/balance")
    await ok(service, MALLORY, "/balance")
    await ok(service, ANN, "/grant mallory 5")
    (file,) = (await service.handle(PLACE, ANN, "/export журнал")).files  # the Russian word too
    names = [row["to player"] for row in parse(file)]
    assert names == ["Ann", "'=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"]


async def test_the_tournament_export_sums_to_the_ledger_and_the_transfers(night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await played_evening(service)
    reply = await service.handle(CASH, ANN, "/export tournament 1")  # from any table of the chat, by number
    assert reply.error is None, reply.error
    players_file, transfers_file = reply.files
    assert (players_file.name, transfers_file.name) == ("tournament-1.csv", "tournament-1-transfers.csv")
    assert players_file.to == transfers_file.to == "ann"
    players, transfers = parse(players_file), parse(transfers_file)
    assert list(players[0]) == ["player", "place", "entries", "paid in", "rebuys", "add-ons", "chips bought",
                                "items pawned", "chips for items pawned", "items bought back", "chips cashed out",
                                "cashed out", "bounties", "net"]
    by_name = {row["player"]: row for row in players}
    assert set(by_name) == {"Ann", "Bob", "Cat"} and by_name["Cat"]["place"] == "cashed out"
    assert {by_name[name]["place"] for name in ("Ann", "Bob")} <= {"1", "2"}  # placed by their stacks
    assert {row["paid in"] for row in players} == {"50.00"} and {row["entries"] for row in players} == {"1"}

    def moves(tx: Tx) -> list[tuple[str, str, int, str]]:
        bank = f"bank:{PLACE.table_id}:t1"
        return [(move.source, move.target, move.amount, move.reason) for _, _, move in tx.every_move()
                if bank in (move.source, move.target)]

    bank = await service.store.read(moves)
    issued = sum(amount for source, _, amount, _ in bank if source.startswith("bank:"))
    returned = sum(amount for _, _, amount, reason in bank if reason == "cash-out")
    assert sum(int(row["chips bought"]) + int(row["chips for items pawned"]) for row in players) == issued == 900
    assert sum(int(row["chips cashed out"]) for row in players) == returned == 900
    cashed = {row["player"]: int(row["chips cashed out"]) for row in players}
    for name, row in by_name.items():  # chips back at 6 a unit, to the cent
        assert Decimal(row["cashed out"]) == round(Decimal(cashed[name]) / 6, 2)
    nets = {row["player"]: Decimal(row["net"]) for row in players}
    assert sum(nets.values()) == 0 and any(nets.values())
    settled: dict[str, Decimal] = {}
    for transfer in transfers:
        amount = Decimal(transfer["amount"])
        settled[transfer["payee"]] = settled.get(transfer["payee"], Decimal(0)) + amount
        settled[transfer["payer"]] = settled.get(transfer["payer"], Decimal(0)) - amount
    assert {name: net for name, net in nets.items() if net} == dict(settled)
    assert reply.private == {"ann": ["Tournament #1: its players are in the file tournament-1.csv, its settlement's "
                                     "transfers in tournament-1-transfers.csv."]}
    assert (await service.handle(PLACE, ANN, "/export tournament")).files[0].content == players_file.content, (
        "without a number: this table's last tournament")


async def shove_to_the_end_pawning_once(service: Service) -> str:
    """Hands until the tournament is over, everything said: until someone pawns a jacket, the biggest stack shoves and
    the others call or check (so someone is short of a call), and the first who may pawns; then all-in hands."""
    said, pawned = "", False
    reply = await service.handle(PLACE, ANN, "/table")
    for _ in range(20):
        while not pawned and reply.table is not None and reply.table.to_act is not None:
            actor = options.PLAYERS[reply.table.to_act]
            attempt = await service.handle(PLACE, actor, "/pawn leather jacket")
            if attempt.error is None:
                pawned, reply = True, attempt
                break
            stacks = await options.seat_stacks(service)
            shoves = max(stacks, key=lambda player: stacks[player]) == actor.user_id
            for line in ("/allin", "/call", "/check")[0 if shoves else 1:]:
                reply = await service.handle(PLACE, actor, line)
                if reply.error is None:
                    break
            assert reply.error is None, reply.error
        said += everything_said(await shove_out(service, reply, options.PLAYERS))
        if "The tournament is over" in said:
            assert pawned, "nobody was ever short of a call"
            return said
        reply = await service.handle(PLACE, ANN, "/deal")
        assert reply.error is None, reply.error
    raise AssertionError("the tournament did not end")


def bank_moves(tx: Tx) -> list[tuple[str, str, int]]:
    """Every move into or out of the options night's bank, in any hand: (source, target, chips)."""
    return [(move.source, move.target, move.amount) for _, _, move in tx.every_move()
            if options.BANK in (move.source, move.target)]


async def test_the_tournament_export_counts_every_option_and_the_pawn(store: Store) -> None:
    service, clock = await options.open_night(store)
    said = await options.shove_until_someone_busts(service, await service.handle(PLACE, ANN, "/tournament start"))
    out = options.REBUY_UNTIL_BREAK
    first, second, _ = [actor for actor in options.PLAYERS.values() if f"{actor.name}{out}" in said]
    await ok(service, first, "/join")  # a re-entry
    await ok(service, second, "/rebuy")
    await ok(service, first, "/rebuy")
    clock.current = options.BREAK
    await service.scheduler.fire_due()
    await ok(service, second, "/addon")
    clock.current = options.PLAY
    await service.scheduler.fire_due()
    said = await shove_to_the_end_pawning_once(service)
    assert "Settlement (money units):" in said
    await ledger_ok(service)

    _, state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    tournament = Tournament.from_dict(state["last_tournament"]["engine"])
    settled = {row.player: row for row in tournament.settle().rows}
    ledger = await service.store.read(bank_moves)
    reply = await service.handle(PLACE, ANN, "/export tournament")
    assert reply.error is None, reply.error
    exported = {row["player"]: row for row in parse(reply.files[0])}
    assert set(exported) == {actor.name for actor in options.PLAYERS.values()}
    for actor in options.PLAYERS.values():
        row, settlement = exported[actor.name], settled[actor.user_id]
        assert (int(row["entries"]), int(row["rebuys"]), int(row["add-ons"])) == (
            1 + settlement.reentries, settlement.rebuys, settlement.addons)
        items = [item for item in tournament.items if item.owner == actor.user_id]
        assert (int(row["items pawned"]), int(row["chips for items pawned"])) == (
            len(items), sum(item.chips for item in items))
        assert settlement.item_count == len(items), "each item pawned is bought back at the end"
        assert Fraction(row["items bought back"]) == round(settlement.items_bought_back, 2)
        assert Fraction(row["bounties"]) == settlement.bounties
        assert Fraction(row["paid in"]) == settlement.paid_in
        assert Fraction(row["net"]) * 100 == settlement.net_cents
        issued = sum(amount for source, target, amount in ledger
                     if source == options.BANK and target == options.stack(actor.user_id))
        assert int(row["chips bought"]) + int(row["chips for items pawned"]) == issued, actor.name
    columns = ("entries", "rebuys", "add-ons", "items pawned", "chips for items pawned")
    assert [sum(int(row[column]) for row in exported.values()) for column in columns] == [5, 2, 1, 1, 100]
    assert sum(Fraction(row["bounties"]) for row in exported.values()) == 40, "four bounties of 10"
    assert sum(Fraction(row["items bought back"]) for row in exported.values()) == Fraction("13.33"), (
        "100 chips at 7.5 a unit")
    issued = sum(amount for source, _, amount in ledger if source == options.BANK)
    returned = sum(amount for _, target, amount in ledger if target == options.BANK)
    bought = sum(int(row["chips bought"]) + int(row["chips for items pawned"]) for row in exported.values())
    assert bought == issued == 8 * 300 + 100, "four buy-ins, a re-entry, two rebuys, an add-on and the jacket"
    assert sum(int(row["chips cashed out"]) for row in exported.values()) == returned == issued


async def test_exports_are_refused_with_a_reason(night: tuple[Service, FakeClock], tmp_path: Path) -> None:
    service, _ = night
    await ok(service, ANN, "/balance")
    assert (await service.handle(PLACE, ANN, "/export tournament")).error == (
        "This table has had no tournament; name one: /export tournament N.")
    await ok(service, BOB, "/balance")
    await ok(service, ANN, "/tournament create home-night")
    before = dump(tmp_path / "bot.db")
    refused = await service.handle(PLACE, BOB, "/export ledger")
    assert refused.error == "Only the organizer — Ann — exports the chat's records." and refused.files == []
    assert (await service.handle(PLACE, BOB, "/export tournament 1")).error == refused.error
    assert (await service.handle(PLACE, ANN, "/export tournament")).error == (
        "Tournament #1 is still on: its record can be exported once it is closed.")
    assert (await service.handle(PLACE, ANN, "/export tournament 7")).error == "This chat has no tournament #7."
    for text in ("/export", "/export wallets", "/export ledger 2", "/export tournament x"):
        assert (await service.handle(PLACE, ANN, text)).error == "Usage: /export ledger | tournament [number]"
    assert dump(tmp_path / "bot.db") == before, "a refusal changes nothing"


HOUSE = Place(PLACE.chat_id, f"{PLACE.chat_id}/house")


async def house_rounds(service: Service) -> None:
    """A Russian Poker round with an exchange (a fee) and a Three Card round with PAIRPLUS, at a table of their own,
    and a grant by the organizer."""
    await ok(service, ANN, "/game russian", HOUSE)
    await ok(service, ANN, "/ante 10", HOUSE)
    await ok(service, ANN, "/deal", HOUSE)
    exchanged = await service.handle(HOUSE, ANN, "/exchange 1")
    assert exchanged.error is None, exchanged.error
    await play_out(service, HOUSE, ACTORS, exchanged)
    await ok(service, ANN, "/game three-card", HOUSE)
    await ok(service, ANN, "/ante 10 pp 5", HOUSE)
    await play_out(service, HOUSE, ACTORS, await service.handle(HOUSE, ANN, "/deal"))
    await ok(service, ANN, "/grant bob 50")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", {"welcome grant", "granted by Ann", "kept for the bets to follow", "ANTE placed", "PAIRPLUS placed",
            "exchange fee", "box paid out to its owner", "small blind", "pot won", "buy-in"}),
    ("ru", {"стартовые фишки", "выдача фишек, организатор: Ann", "отложено на следующие ставки", "ставка: АНТЕ",
            "ставка: «Пара плюс»", "плата за обмен", "выплата с бокса владельцу", "малый блайнд", "выигрыш банка",
            "бай-ин"}),
])
async def test_the_ledger_exports_each_reason_as_a_phrase_in_the_organizers_language(
        night: tuple[Service, FakeClock], language: str, expected: set[str]) -> None:
    """The reason column mixed stored codes ("ante", "pairplus_won") with English sentences ("kept for the bets to
    follow") whatever the organizer's language: each known reason is now a phrase in his language (`/lang ru me`),
    the ledger keeping what it stored; a reason the export does not know goes out as stored."""
    service, _ = night
    await played_evening(service)
    await house_rounds(service)
    await service.store.transact(lambda tx: tx.move(PLACE.chat_id, f"mint:{PLACE.chat_id}",
                                                    f"wallet:{PLACE.chat_id}:cat", 1, "an older reason"), now=SIX_PM)
    await ok(service, ANN, f"/lang {language} me")
    (file,) = (await service.handle(PLACE, ANN, "/export ledger")).files
    reasons = Counter(list(row.values())[4] for row in parse(file))  # the reason column, headed in his language
    assert expected <= set(reasons), sorted(reasons)
    assert reasons["an older reason"] == 1
    stored = await service.store.read(lambda tx: {move.reason for _, chat, move in tx.every_move()})
    assert {"ante", "pairplus_won" if "pairplus_won" in stored else "pairplus_lost", "welcome grant"} <= stored
    if language == "ru":  # every known reason in Russian words
        latin = {reason for reason in reasons if re.fullmatch(r"[^а-яё]*", reason.lower())}
        assert latin == {"an older reason"}
    else:
        assert not {"ante", "pairplus_won", "pairplus_lost", "paid_out", "bet_won", "ante_lost"} & set(reasons)


IN_RUSSIAN = {  # bot/locales/ru/exports.json's phrase for each reason the code stores (the `LEDGER_REASONS` keys)
    "welcome grant": "стартовые фишки", "practice seat": "место тренировочного бота", "buy-in": "бай-ин",
    "cash-out": "выход с фишками", "top-up": "докупка", "hand voided": "раздача отменена, ставки возвращены",
    "round voided": "раунд отменён, ставки возвращены", "kept for the bets to follow": "отложено на следующие ставки",
    "given back": "возвращено из отложенного на ставки", "small blind": "малый блайнд", "big blind": "большой блайнд",
    "straddle": "стрэддл", "call": "колл", "bet": "бет", "raise": "рейз",
    "uncalled bet": "возврат неуравненной ставки", "pot won": "выигрыш банка", "pawn": "вещь в залог",
    "redeem": "выкуп заложенной вещи", "unregister": "отмена регистрации", "re-entry": "повторный вход",
    "rebuy": "ребай", "add-on": "аддон", "paid_out": "выплата с бокса владельцу", "buy": "плата за прикуп",
    "exchange": "плата за обмен", "re_exchange": "плата за второй обмен", "dealer_game": "плата за игру дилеру",
    "grant by ann": "выдача фишек, организатор: Ann",
}
STAKES_IN_RUSSIAN = {"ante": "АНТЕ", "bet": "БЕТ", "play": "ИГРА", "pairplus": "«Пара плюс»", "bonus": "БОНУС",
                     "ante_bonus": "бонус к АНТЕ", "half_payout": "половина выплаты"}  # bot/locales/ru/labels.json


@pytest.mark.parametrize(("reason", "target", "said"), [
    *((reason, "pot:c/t", phrase) for reason, phrase in IN_RUSSIAN.items()),
    *((stake, "box:c/t:ann:1", f"ставка: {label}") for stake, label in STAKES_IN_RUSSIAN.items()),
    *((f"{stake}_won", "wallet:c:ann", f"выигрыш: {label}") for stake, label in STAKES_IN_RUSSIAN.items()),
    *((f"{stake}_lost", "house:c", f"проигрыш: {label}") for stake, label in STAKES_IN_RUSSIAN.items()),
    ("an older reason", "pot:c/t", "an older reason"),
])
def test_every_reason_the_code_stores_reads_in_russian(reason: str, target: str, said: str) -> None:
    """Each reason the code stores (`Tx.move`, the engines' `Move`s) has its phrase: in Russian, Russian words (a
    house stake's name placed on a box is that stake, Hold'em's `bet` into the pot a bet); one it does not know goes
    out as stored."""
    row = LedgerEntry("wallet:c:ann", target, 10, reason, "c/t", "r1", 0.0)
    assert reason_text(Voice("ru", {"ann": "Ann"}.__getitem__), row) == said


def test_the_russian_phrases_above_cover_every_reason_the_export_knows() -> None:
    assert set(LEDGER_REASONS) == set(Reason)  # every reason a move may name has its phrase
    assert set(IN_RUSSIAN) == {*LEDGER_REASONS, "grant by ann"}
    assert set(STAKES_IN_RUSSIAN) == set(HOUSE_STAKES)


async def test_the_ledger_writes_a_name_like_a_mention_as_the_player_typed_it(
        night: tuple[Service, FakeClock]) -> None:
    """The chat shows `@alice` with a word joiner after `@` (no mention in a chat client), but a file is read by
    programs: the grant's reason and the player columns carry the name as stored, joiner-free."""
    service, _ = night
    alice = Actor("ann", "@alice")
    await ok(service, alice, "/balance")
    await ok(service, BOB, "/balance")
    await ok(service, alice, "/grant bob 50")
    (file,) = (await service.handle(PLACE, alice, "/export ledger")).files
    rows = parse(file)
    written = {cell for row in rows for cell in row.values()}
    assert "granted by @alice" in written, written
    assert "'@alice" in written  # her wallet's welcome grant, in the "to player" column (quoted: no formula)
    assert not any("\u2060" in cell for cell in written)
