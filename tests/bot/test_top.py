"""`/top` ranks by the net result in the chat's cash games (wallet chips won or lost against the grants), never by
wallet size; tournaments are ranked apart, in money from their settlements, never added to the cash chips."""

from bot.output import Place
from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE

TOURNAMENT = Place(PLACE.chat_id, "chat/tournament")
CASH_TITLE = "Leaderboard, cash tables (chips won or lost, grants not counted):"


async def test_top_ranks_by_net_result_not_by_wallet(service: Service) -> None:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/grant bob 5000")).error is None  # Bob's wallet is now the biggest
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    for _ in range(2):  # everyone folds to the big blind, who wins the small blind
        await service.handle(PLACE, ANN, "/fold")
        await service.handle(PLACE, BOB, "/fold")
        await service.handle(PLACE, CAT, "/fold")
    top = (await service.handle(PLACE, CAT, "/top")).public
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    nets = {name: stacks[f"stack:{PLACE.table_id}:{name.lower()}"] - 400 for name in ("Ann", "Bob", "Cat")}
    assert sorted(nets.values()) == [-10, 0, 10], "the small blind lost 10 to the big blind"
    ranked = sorted(nets.items(), key=lambda item: (-item[1], item[0]))
    assert ranked[-1][0] == "Bob", "the small blind (button Ann, then Bob) lost: last, whatever his wallet"
    signs = {10: "+10", 0: "0", -10: "−10"}
    assert top == [CASH_TITLE + "\n" + "\n".join(f"{place}. {name} — {signs[net]}"
                                                  for place, (name, net) in enumerate(ranked, start=1))]
    assert (await service.handle(PLACE, BOB, "/leave")).error is None  # back in his wallet: the same result
    assert (await service.handle(PLACE, CAT, "/top")).public == top


async def test_house_game_boxes_count_while_the_round_is_open(service: Service) -> None:
    await service.handle(PLACE, ANN, "/game texas")
    assert (await service.handle(PLACE, BOB, "/ante 10")).error is None
    assert (await service.handle(PLACE, ANN, "/top")).public == [CASH_TITLE + "\n1. Bob — 0"], \
        "an ANTE on a box is not lost yet (and Ann, who only chose the game, played none)"
    for line in ("/deal", "/fold"):
        assert (await service.handle(PLACE, BOB, line)).error is None, line
    assert (await service.handle(PLACE, ANN, "/top")).public == [CASH_TITLE + "\n1. Bob — −10"], \
        "the round is over: he played it and lost his ANTE"


async def test_tournaments_are_ranked_apart_in_money(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/balance")).error is None
    for actor, line in ((ANN, "/tournament create"), (ANN, "/join"), (BOB, "/join"), (ANN, "/tournament start")):
        assert (await service.handle(TOURNAMENT, actor, line)).error is None
    assert (await service.handle(TOURNAMENT, ANN, "/fold")).error is None  # Ann gives Bob her small blind
    during = (await service.handle(PLACE, ANN, "/top")).public
    assert during == [CASH_TITLE + "\n—"], "tournament chips are no cash result, and nobody played a cash game"
    finished = await service.handle(TOURNAMENT, BOB, "/cashout")  # Ann is left: the tournament is over
    assert any(message.startswith("Settlement") for message in finished.public)
    assert (await service.handle(PLACE, ANN, "/top")).public == [
        "Tournaments, money won or lost:\n1. Bob — +0.83\n2. Ann — −0.83",
    ], "no cash leaderboard of players who never played a cash game"
    assert (await service.handle(PLACE, CAT, "/join")).error is None  # Cat sits down at a cash table
    assert (await service.handle(PLACE, ANN, "/top")).public == [
        CASH_TITLE + "\n1. Cat — 0",
        "Tournaments, money won or lost:\n1. Bob — +0.83\n2. Ann — −0.83",
    ]


async def test_the_leaderboard_in_russian(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, BOB, "/join")
    assert (await service.handle(PLACE, BOB, "/top")).public == [
        "Таблица лидеров, кэш-столы (выигрыш или проигрыш без учёта выданных фишек):\n1. Bob — 0"]


async def test_a_tournament_closed_before_it_started_is_on_no_leaderboard(service: Service) -> None:
    """Closed before its start, a tournament refunds every buy-in and was played by nobody: as in /stats and the
    season's standings, it counts for no one, and /top shows the board of a chat where nothing was played."""
    for actor, line in ((ANN, "/tournament create"), (ANN, "/join"), (BOB, "/join"), (ANN, "/tournament close")):
        assert (await service.handle(TOURNAMENT, actor, line)).error is None, line
    assert (await service.handle(PLACE, CAT, "/top")).public == [CASH_TITLE + "\n—"]
