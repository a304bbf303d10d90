"""House-game bets through the service: an ANTE the wallet cannot follow is refused with the reason in the player's
language and changes nothing; a box the wallet still limits says so on the table (a BET over the wallet, and a buy or
exchange whose fee and the BET it must leave room for are over it); the table and the /join help offer only the boxes
and side bets the game has."""

import random

import pytest

from bot.clock import FakeClock
from bot.output import Place, Reply
from bot.service import Service, ServiceSettings
from bot.store import Store
from tests.bot.conftest import ANN, PLACE, dump
from tests.bot.helpers import ledger_ok, refused_without_change


async def open_table(store: Store, game: str, wallet: int, language: str = "en") -> Service:
    service = Service(store, FakeClock(), rng=random.Random(3), settings=ServiceSettings(starting_grant=wallet))
    await service.start()
    assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
    if language != "en":
        assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    return service


async def accepted(service: Service, text: str) -> Reply:
    reply = await service.handle(PLACE, ANN, text)
    assert reply.error is None, f"{text}: {reply.error}"
    return reply


async def refused_unchanged(service: Service, text: str) -> str:
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, text)
    assert reply.error is not None and reply.public == [] and reply.table is None
    assert dump(service.store.location) == before
    return reply.error


def box_line(reply: Reply, box: int) -> str:
    assert reply.table is not None
    return next(line for line in reply.table.text.splitlines() if f"· box {box} ·" in line)


async def test_russian_refuses_an_ante_whose_bet_it_could_not_pay_and_says_so_in_russian(store: Store) -> None:
    service = await open_table(store, "russian", 590)  # the wallet
    await accepted(service, "/ante 100")
    await refused_without_change(service, ANN, "/ante 100 box 2", {
        "en": "Not enough chips for an ANTE on box 2: with the bets still to follow (BET or PLAY) your boxes need 500, "
              "you have 490.",
        "ru": "Для АНТЕ на боксе 2 не хватит фишек: вместе с последующими ставками (БЕТ или ИГРА) вашим боксам нужно "
              "500, а у вас 490."})
    await accepted(service, "/ante 95 box 2")  # 95 + 190 + box 1's 200 = 485 of 490
    await refused_without_change(service, ANN, "/ante 10 box 3", {  # blind: 10 + its BET 20 now, then 200 + 190
        "en": "Not enough chips for an ANTE on box 3: it plays blind, so its BET goes on with the ANTE at once; with "
              "the BETs still to follow on your other boxes that needs 420, you have 395.",
        "ru": "Для АНТЕ на боксе 3 не хватит фишек: бокс играет втёмную, и его БЕТ ставится сразу вместе с АНТЕ; "
              "с последующими ставками БЕТ на других боксах нужно 420, а у вас 395."})
    await accepted(service, "/ante 1 box 3")  # 1 + 2 now, 390 to follow: 393 of 395
    await ledger_ok(service)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_russian_a_box_left_short_by_an_exchange_says_what_its_bet_needs(store: Store, language: str) -> None:
    service = await open_table(store, "russian", 65)
    await accepted(service, f"/lang {language}")
    await accepted(service, "/ante 10")
    await accepted(service, "/ante 10 box 2")
    dealt = await accepted(service, "/deal")
    assert dealt.table is not None and "needs" not in dealt.table.text and "нужно" not in dealt.table.text
    await accepted(service, "/exchange 1 2")  # 10: 35 left
    played = await accepted(service, "/play")  # box 1's BET 20: 15 left, box 2's BET needs 20
    line = box_line(played, 2) if language == "en" else next(
        line for line in played.table.text.splitlines() if "· бокс 2 ·" in line)
    assert line.startswith("▶ Ann")
    assert line.endswith(
        "· Play needs 20, you have 15 · Buy card needs 30 with the BET, you have 15 · Swap needs 30 with the BET, "
        "you have 15" if language == "en" else
        "· Играть: нужно 20, у вас 15 · Прикуп: нужно 30 с учётом ставки БЕТ, у вас 15 · Обмен: нужно 30 с "
        "учётом ставки БЕТ, у вас 15")
    await ledger_ok(service)


async def test_texas_refuses_an_ante_without_room_for_its_bet(store: Store) -> None:
    service = await open_table(store, "texas", 29)
    assert await refused_unchanged(service, "/ante 10") == (
        "Not enough chips for an ANTE on box 1: with the bets still to follow (BET or PLAY) your boxes need 30, "
        "you have 29.")
    await accepted(service, "/ante 9")


async def test_caribbean_refuses_a_second_ante_and_reports_a_box_left_short(store: Store) -> None:
    service = await open_table(store, "caribbean", 60)
    await accepted(service, "/ante 10")
    assert "need 53, you have 50" in await refused_unchanged(service, "/ante 11 box 2")
    await accepted(service, "/ante 5 box 2")
    await accepted(service, "/deal")
    await accepted(service, "/exchange 1 2")  # 20: the exchange still leaves box 1's BET
    played = await accepted(service, "/play")
    assert box_line(played, 2).endswith("· Play needs 10, you have 5 · Swap needs 15 with the BET, you have 5")
    await ledger_ok(service)


def language_box_line(reply: Reply, box: int, language: str) -> str:
    assert reply.table is not None
    label = f"· box {box} ·" if language == "en" else f"· бокс {box} ·"
    return next(line for line in reply.table.text.splitlines() if label in line)


BET_ONLY_BUTTONS = {
    ("texas", "en"): ["🂠 My cards", "Bet (20)", "Fold"], ("texas", "ru"): ["🂠 Мои карты", "БЕТ (20)", "Пас"],
    ("russian", "en"): ["🂠 My cards", "Play (20)", "Fold"], ("russian", "ru"): ["🂠 Мои карты", "Играть (20)", "Пас"]}
"""A box whose wallet holds its BET but no draw with it: its buttons, with no draw among them (the Russian buy
button reads «Прикуп»)."""


@pytest.mark.parametrize(("game", "language", "expected"), [
    ("texas", "en", "· deciding · Buy card needs 30 with the BET, you have 25"),
    ("texas", "ru", "· решает · Прикуп: нужно 30 с учётом ставки БЕТ, у вас 25"),
    ("russian", "en", "· deciding · Buy card needs 30 with the BET, you have 25 · Swap needs 30 with the BET, "
                      "you have 25"),
    ("russian", "ru", "· решает · Прикуп: нужно 30 с учётом ставки БЕТ, у вас 25 · Обмен: нужно 30 с учётом "
                      "ставки БЕТ, у вас 25"),
], ids=["texas-en", "texas-ru", "russian-en", "russian-ru"])
async def test_a_draw_that_would_not_leave_the_bet_is_reported_with_the_bet(store: Store, game: str, language: str,
                                                                          expected: str) -> None:
    service = await open_table(store, game, 35)  # ANTE 10: 25 left, the BET's 20 but not a draw's 10 with it
    await accepted(service, f"/lang {language}")
    await accepted(service, "/ante 10")
    dealt = await accepted(service, "/deal")
    assert language_box_line(dealt, 1, language).endswith(expected)
    buttons = [button.label for button in dealt.table.buttons]
    assert not any(label.startswith(("Buy", "Swap", "Прикуп", "Обмен")) for label in buttons), buttons
    assert buttons == BET_ONLY_BUTTONS[game, language]
    await ledger_ok(service)


@pytest.mark.parametrize(("wallet", "language", "expected"), [
    (60, "en", "· Swap (4 cards) needs 60 with the BET, you have 50"),
    (60, "ru", "· Обмен (4 карты): нужно 60 с учётом ставки БЕТ, у вас 50"),
    (50, "ru", "· Обмен (3 карты): нужно 50 с учётом ставки БЕТ, у вас 40"),
    (70, "ru", "· Обмен (5 карт): нужно 70 с учётом ставки БЕТ, у вас 60"),
    (40, "en", "· Swap (2 cards) needs 40 with the BET, you have 30"),
    (40, "ru", "· Обмен (2 карты): нужно 40 с учётом ставки БЕТ, у вас 30"),
    (35, "en", "· Swap needs 30 with the BET, you have 25"),
], ids=["60-en", "60-ru", "50-ru", "70-ru", "40-en", "40-ru", "35-en"])
async def test_caribbean_says_how_many_cards_the_wallet_cannot_exchange(store: Store, wallet: int, language: str,
                                                                       expected: str) -> None:
    service = await open_table(store, "caribbean", wallet)
    await accepted(service, f"/lang {language}")
    await accepted(service, "/ante 10")
    dealt = await accepted(service, "/deal")
    assert language_box_line(dealt, 1, language).endswith(expected)


async def test_three_card_refuses_an_ante_without_room_for_its_play(store: Store) -> None:
    service = await open_table(store, "three-card", 24)
    assert "need 25, you have 24" in await refused_unchanged(service, "/ante 10 pp 5")
    await accepted(service, "/ante 7 pp 5")  # 7 + 5 + PLAY 7 = 19


TITLES = {"texas": "Texas Poker", "russian": "Russian Poker", "caribbean": "Caribbean Poker",
          "three-card": "Three Card Poker"}


@pytest.mark.parametrize(("game", "usage", "hints"), [
    ("texas", "/ante chips, then", ""),
    ("russian", "/ante chips [box 1-3], then",
     " (add “box 2” for a second box; box 3 plays blind: its BET goes on with the ANTE)"),
    ("caribbean", "/ante chips [box 1-3] [bonus 10], then", " (add “box 2” for a second box; “bonus 10” for the "
                                                            "bonus bet, its only size here)"),
    ("three-card", "/ante chips [box 1-3] [pp chips], then", " (add “box 2” for a second box; “pp chips” for the "
                                                          "PAIRPLUS bet, which an ANTE of 0 places alone)"),
])
async def test_the_table_offers_only_the_boxes_and_side_bets_the_game_has(store: Store, game: str, usage: str,
                                                                        hints: str) -> None:
    service = await open_table(store, game, 1000)
    joined = await accepted(service, "/join")
    # every platform reads it: Discord answers privately in the channel, so no "open a private chat" here (Telegram's
    # table message adds that hint itself)
    assert joined.private["ann"][0] == (f"{TITLES[game]}: place your ANTE with /ante chips{hints}. Your cards come "
                                        "privately: press “My cards” to see them.")
    placed = await accepted(service, "/ante 10")
    assert placed.table is not None and f"Bets are open: {usage} /deal" in placed.table.text


async def test_the_bonus_hint_names_the_tables_one_size_and_another_is_refused_with_it(store: Store) -> None:
    """Caribbean Poker's bonus bet has one size (the table's, `/set bonus`): the hint and `/ante`'s usage name it, in
    each language, and a bonus of another size is refused saying the size it must be, changing nothing."""
    service = await open_table(store, "caribbean", 1000, "ru")
    await accepted(service, "/set bonus 20")
    joined = await accepted(service, "/join")
    assert joined.private["ann"][0] == (
        "Карибский покер: ставьте АНТЕ командой /ante фишки (добавьте «box 2» — для второго бокса; «bonus 20» — для "
        "бонусной ставки, другого размера за этим столом нет). Карты приходят лично вам: нажмите «Мои карты», чтобы "
        "их увидеть.")
    await refused_without_change(service, ANN, "/ante 10 bonus 5", {
        "en": "The BONUS bet is 20 at this table, not 5.", "ru": "Ставка БОНУС за этим столом — ровно 20, а не 5."})
    await refused_without_change(service, ANN, "/ante", {  # the usage names it too, where it said "[bonus chips]"
        "en": "Usage: /ante chips [box 1-3] [bonus 20]", "ru": "Как писать: /ante фишки [box 1-3] [bonus 20]"})
    await ledger_ok(service)


async def test_another_table_cannot_spend_what_the_boxes_keep_for_their_bets(store: Store) -> None:
    """RULES.md: an ANTE is accepted only with its BET to follow in the wallet, so no box is left able only to fold.
    Another table of the chat (a Hold'em buy-in, another house game's ANTE) may spend the rest of the wallet, not
    the BETs kept for the boxes; the boxes play, and nothing stays kept once the round ends."""
    service = await open_table(store, "caribbean", 1000)
    for box in (1, 2, 3):
        await accepted(service, f"/ante 100 box {box}")  # 300 on the boxes, their BETs' 600 kept: 100 to spend
    holdem, russian = Place(PLACE.chat_id, "chat/holdem"), Place(PLACE.chat_id, "chat/russian")
    assert (await service.handle(russian, ANN, "/game russian")).error is None  # the other, new, plays Hold'em
    for place, line, reason in (
            (holdem, "/join 400", "A buy-in of 400 is more than your wallet (100)."),
            (russian, "/ante 50", "Not enough chips for an ANTE on box 1: with the bets still to follow (BET or PLAY) "
                                  "your boxes need 150, you have 100.")):  # the ANTE 50 and its BET of 100
        before = dump(service.store.location)
        refused = await service.handle(place, ANN, line)
        assert refused.error == reason, line
        assert dump(service.store.location) == before
    assert (await service.handle(russian, ANN, "/ante 30")).error is None  # 30 and its BET of 60: within the 100
    await accepted(service, "/deal")
    for _ in range(3):
        played = await accepted(service, "/play")
    assert played.table is not None and "Round over" in played.table.text
    kept = await service.store.read(lambda tx: tx.balances(f"held:{PLACE.table_id}:"))
    assert set(kept.values()) <= {0}, "nothing is kept once the round is settled"
    await ledger_ok(service)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_balance_counts_the_chips_kept_for_the_boxes_and_only_while_kept(store: Store, language: str) -> None:
    """`/balance` at any table of the chat tells the wallet and, while a house round keeps some of it for the boxes'
    bets to follow, how much is kept: a player who read 400 and forgot the 400 his BETs need would think chips lost."""
    service = await open_table(store, "caribbean", 1000, language)
    await accepted(service, "/ante 100 box 1")
    await accepted(service, "/ante 100 box 2")  # 200 on the boxes, their BETs' 400 kept
    holdem = Place(PLACE.chat_id, "chat/holdem")
    told = (await service.handle(holdem, ANN, "/balance")).private[ANN.user_id]
    assert told == ["Your wallet: 400 chips, and 400 more kept for the bets your boxes have still to make."
                    if language == "en" else
                    "В кошельке 400 фишек, и ещё 400 отложено для ставок, которые вашим боксам предстоит сделать."]
    await accepted(service, "/deal")
    await accepted(service, "/play")
    await accepted(service, "/play")
    settled = await service.store.read(lambda tx: tx.balance(f"wallet:{PLACE.chat_id}:{ANN.user_id}"))
    told = (await service.handle(PLACE, ANN, "/balance")).private[ANN.user_id]
    assert len(told) == 1 and f" {settled} " in told[0] and ("kept" if language == "en" else "отложено") not in told[0]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The BONUS bet is 10 at this table, not 20."),
    ("ru", "Ставка БОНУС за этим столом — ровно 10, а не 20."),
])
async def test_a_side_bet_of_one_size_is_named_as_that_size(store: Store, language: str, expected: str) -> None:
    """Caribbean's bonus is 10 chips, no more, no less (RULES.md §4): a refusal reads "is 10", not "10 to 10"."""
    service = await open_table(store, "caribbean", 1000, language)
    assert await refused_unchanged(service, "/ante 100 bonus 20") == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Card 1 is named twice: name each card once."),
    ("ru", "Карта 1 названа дважды: называйте каждую карту один раз."),
])
async def test_an_exchange_naming_a_card_twice_says_so(store: Store, language: str, expected: str) -> None:
    """`/exchange 1 1` names the box's own first card twice: the reason is that, not "only cards of this box"."""
    service = await open_table(store, "russian", 1000, language)
    await accepted(service, "/ante 10")
    await accepted(service, "/deal")
    assert await refused_unchanged(service, "/exchange 1 1") == expected


@pytest.mark.parametrize(("game", "wallet", "text", "language", "expected"), [
    ("russian", 35, "/buy", "en", "Not enough chips. Buy card needs 30 with the BET, you have 25."),
    ("russian", 35, "/exchange 1", "ru", "Не хватает фишек. Обмен: нужно 30 с учётом ставки БЕТ, у вас 25."),
    ("texas", 35, "/buy", "en", "Not enough chips. Buy card needs 30 with the BET, you have 25."),
    ("caribbean", 60, "/exchange 1 2 3 4", "en",
     "Not enough chips. Swap (4 cards) needs 60 with the BET, you have 50."),
    ("caribbean", 60, "/exchange 1 2 3 4", "ru",
     "Не хватает фишек. Обмен (4 карты): нужно 60 с учётом ставки БЕТ, у вас 50."),
], ids=["russian-buy", "russian-exchange-ru", "texas-buy", "caribbean-4-cards", "caribbean-4-cards-ru"])
async def test_a_decision_the_wallet_cannot_pay_is_refused_with_what_it_needs(
        store: Store, game: str, wallet: int, text: str, language: str, expected: str) -> None:
    """RULES.md: bets are refused, with the reason, when they exceed the wallet: not "Not possible now. You may: Play,
    Fold." nor "You may not choose 4 cards for that.", which the player cannot tell from a rule of the game."""
    service = await open_table(store, game, wallet, language)
    await accepted(service, "/ante 10")
    await accepted(service, "/deal")
    assert await refused_unchanged(service, text) == expected


async def test_a_box_a_draw_left_short_refuses_its_bet_with_what_it_needs(store: Store) -> None:
    service = await open_table(store, "russian", 65)
    await accepted(service, "/ante 10")
    await accepted(service, "/ante 10 box 2")
    await accepted(service, "/deal")
    await accepted(service, "/exchange 1 2")  # 10: 35 left
    await accepted(service, "/play")  # box 1's BET 20: 15 left, box 2's BET needs 20
    assert await refused_unchanged(service, "/play") == "Not enough chips. Play needs 20, you have 15."
    assert await refused_unchanged(service, "/dealergame") == "Not possible now. You may: Fold."


@pytest.mark.parametrize(("game", "text", "language", "expected"), [
    ("russian", "/ante 99999999999", "en", "ANTE is too large: at most 1,000,000,000 chips, not “99999999999”."),
    ("caribbean", "/ante 10 bonus 99999999999", "en",
     "The BONUS bet is too large: at most 1,000,000,000 chips, not “99999999999”."),
    ("caribbean", "/ante 10 bonus 0", "ru", "Ставка БОНУС за этим столом — ровно 10, а не 0."),  # its one size
    ("caribbean", "/ante 10 bonus 5", "en", "The BONUS bet is 10 at this table, not 5."),
    ("caribbean", "/ante 10 pp 10", "en", "This table takes no PAIRPLUS bet: its side bet is BONUS."),
    ("caribbean", "/ante 10 pp x", "en", "This table takes no PAIRPLUS bet: its side bet is BONUS."),
    ("three-card", "/ante 10 bonus 5", "ru",
     "Ставки БОНУС за этим столом нет: дополнительная ставка здесь — «Пара плюс»."),
    ("three-card", "/ante 10 bonus 99999999999", "ru",
     "Ставки БОНУС за этим столом нет: дополнительная ставка здесь — «Пара плюс»."),
    ("three-card", "/ante 10 pairplus 99999999999", "en",
     "The PAIRPLUS bet is too large: at most 1,000,000,000 chips, not “99999999999”."),
    ("three-card", "/ante 10 pp 26", "en", "The PAIRPLUS bet must be 1 to 25 at this table, not 26."),
    ("three-card", "/ante 10 pp 26", "ru", "Ставка «Пара плюс» за этим столом — от 1 до 25, а не 26."),
    ("three-card", "/ante 0", "en",
     "An ANTE of 0 is for a box with the PAIRPLUS bet alone: add it, or bet an ANTE of 1 to 50."),
    ("three-card", "/ante 0", "ru",
     "АНТЕ 0 — для бокса только со ставкой «Пара плюс»: добавьте её или поставьте АНТЕ от 1 до 50."),
    ("russian", "/ante 10 pp 0", "en", "This game has no side bet."),
    ("texas", "/ante 0", "en", "ANTE must be 1 to 100 at this table, not 0."),
], ids=["russian-ante-too-large", "caribbean-too-large", "caribbean-zero-ru", "caribbean-size", "caribbean-pairplus",
        "caribbean-pairplus-malformed", "three-card-bonus-ru", "three-card-bonus-malformed-ru", "three-card-too-large",
        "three-card-range", "three-card-range-ru", "three-card-ante-0", "three-card-ante-0-ru", "russian-none",
        "texas-ante-0"])
async def test_a_refused_side_bet_is_named_as_the_game_names_it(store: Store, game: str, text: str, language: str,
                                                               expected: str) -> None:
    """A refusal names the table's own side bet (Caribbean's BONUS, Three Card's PAIRPLUS); the other game's side bet
    (`pp` at Caribbean Poker, `bonus` at Three Card Poker) is refused as one this table does not take, never placed
    as its own, whatever amount came with it (a malformed one too: "The BONUS bet must be a whole number" for `pp x`
    only led to that refusal once the amount was mended); a game without one says it has none; and Three Card's ANTE
    of 0 is said to need its PAIRPLUS (RULES.md §5: "ANTE and/or PAIRPLUS"), not to be above zero."""
    service = await open_table(store, game, 1000, language)
    assert await refused_unchanged(service, text) == expected


MALFORMED_STAKES = {
    "/ante -3": {"en": "ANTE must be a whole number of chips, not “-3”.",
                 "ru": "АНТЕ: нужно целое число фишек, а не «-3»."},
    "/ante 1.5 box 2": {"en": "ANTE must be a whole number of chips, not “1.5”.",
                        "ru": "АНТЕ: нужно целое число фишек, а не «1.5»."},
}
"""A malformed ANTE, refused alike in every house game."""


@pytest.mark.parametrize("line", sorted(MALFORMED_STAKES))
@pytest.mark.parametrize("game", ["three-card", "caribbean", "russian", "texas"])
async def test_a_malformed_ante_is_not_said_to_need_to_be_above_zero(store: Store, game: str, line: str) -> None:
    """`/ante -3` at a Three Card table answered that ANTE must be above zero, while there an ANTE of 0 goes with a
    PAIRPLUS alone (`/ante 0 pp 5`; RULES.md §5: "ANTE and/or PAIRPLUS"). A malformed ANTE is asked only to be a whole
    number of chips, in every game: what a 0 needs is the table's to say (`/ante 0` above)."""
    service = await open_table(store, game, 1000)
    await refused_without_change(service, ANN, line, MALFORMED_STAKES[line])


@pytest.mark.parametrize(("game", "side", "name"), [("three-card", "pp", "The PAIRPLUS bet"),
                                                    ("caribbean", "bonus", "The BONUS bet")])
async def test_a_malformed_side_bet_is_not_said_to_need_to_be_above_zero(store: Store, game: str, side: str,
                                                                        name: str) -> None:
    """A side bet of 0 is read as none named (`pp 0`, where the table's range starts at 0): a malformed one is asked
    only to be a whole number of chips, like the ANTE it goes with."""
    service = await open_table(store, game, 1000)
    russian = {"three-card": "Ставка «Пара плюс»", "caribbean": "Ставка БОНУС"}[game]
    await refused_without_change(service, ANN, f"/ante 10 {side} -3", {
        "en": f"{name} must be a whole number of chips, not “-3”.",
        "ru": f"{russian}: нужно целое число фишек, а не «-3»."})


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_exchange_example_of_help_works_when_typed_in_every_game(store: Store, language: str) -> None:
    """`/help exchange` gave "e.g. 2 5": Texas Poker's box has two cards of its own, so it was refused there."""
    service = await open_table(store, "texas", 1000, language)
    usage = (await accepted(service, "/help exchange")).private["ann"][0].splitlines()[0]
    example = usage.rsplit(" ", 2)[-2:]
    assert usage.endswith(" ".join(example)) and all(word.isdigit() for word in example), usage
    await accepted(service, "/ante 10")
    await accepted(service, "/deal")
    await accepted(service, "/buy")
    exchanged = await accepted(service, "/exchange " + " ".join(example))
    assert exchanged.table is not None
    await ledger_ok(service)
