"""A tournament's busted players: players out in one hand in the same place share it, said once as a range of places
(and so in the results); a player out while the rebuy period runs is out for now, told how to come back and until
when, his place given once it is final; a place once said stays in the results, a later cash-out leaving its own
place empty; a busted player who tries to play is told he is out, not to /join; and the button moves on one seat
past a seat a bust took away."""

import re
from collections.abc import Iterable
from datetime import UTC, datetime

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.render import Voice
from bot.render.tournament import narrate, out_of_play, results
from bot.service import Service
from bot.store import Store
from engine.schedule import PRESETS
from engine.tournament import Tournament, TournamentConfig
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    SIX_PM,
    all_text,
    at,
    deal_next,
    everything_said,
    listen,
    night_registered,
    play,
    press_label,
    shove_until,
    started_service,
)

NAMES = {"en": {"ann": "Ann", "bob": "Bob", "ivan": "Ivan", "peter": "Peter", "sasha": "Sasha"},
         "ru": {"ann": "Аня", "bob": "Боря", "ivan": "Иван", "peter": "Пётр", "sasha": "Саша"}}
SEED = 1
START = datetime.fromtimestamp(SIX_PM, UTC)
"""`SIX_PM` as the engine's tournament takes its times (a datetime): the tournaments here start then."""
BREAK = datetime(2026, 11, 29, 19, 0, 1, tzinfo=UTC)
PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


def _five_at_the_table(config: TournamentConfig) -> Tournament:
    """A home-night tournament (UTC) of ann, bob, ivan, peter and sasha, started at 18:00, 300 chips each."""
    tournament = Tournament(config, PRESETS["home-night"]("UTC"))
    for player in NAMES["en"]:
        tournament.register(player, START)
    tournament.start(START)
    return tournament


@pytest.mark.parametrize(("language", "shared", "said", "places"), [
    ("en", {"ivan": 300, "peter": 300, "sasha": 300}, ["Ivan, Peter, and Sasha share 3rd–5th place."],
     "Places: 1. Ann · 2. Bob · 3–5. Ivan, Peter, Sasha"),
    ("ru", {"ivan": 300, "peter": 300, "sasha": 300}, ["Иван, Пётр и Саша делят 3–5-е места."],
     "Места: 1. Аня · 2. Боря · 3–5. Иван, Пётр, Саша"),
    ("en", {"ivan": 100, "peter": 300, "sasha": 300}, ["Ivan is eliminated in 5th place.",
                                                       "Peter and Sasha share 3rd–4th place."],
     "Places: 1. Ann · 2. Bob · 3–4. Peter, Sasha · 5. Ivan"),
    ("ru", {"ivan": 100, "peter": 300, "sasha": 300}, ["Иван выбывает на 5-м месте.", "Пётр и Саша делят 3–4-е места."],
     "Места: 1. Аня · 2. Боря · 3–4. Пётр, Саша · 5. Иван"),
])
def test_players_out_in_one_hand_with_equal_stacks_share_their_places_said_once(
        language: str, shared: dict[str, int], said: list[str], places: str) -> None:
    """Three out in one hand read "Ivan is eliminated in 3rd place." three times, and "3. Ivan · 3. Peter · 3. Sasha"
    in the results. Whoever began the hand with fewer chips finishes lower; equal stacks share the places they
    span, said once for all of them as a card room says it, and shown as a range in the results."""
    tournament = _five_at_the_table(TournamentConfig())
    events = tournament.eliminate_busted(list(shared), shared)
    voice = Voice(language, NAMES[language].__getitem__)
    assert narrate(voice, tournament, events, now=START) == said
    tournament.finish(START, {"ann": 900, "bob": 600})
    assert results(voice, *tournament.standings()).splitlines()[1] == places


@pytest.mark.parametrize(("language", "said", "ended"), [
    ("en", ["Ivan is eliminated in 5th place.", "Peter is eliminated in 4th place."],
     "🏆 The tournament is over. Everyone still in cashed out, so nobody takes first place.\n"
     "Places: 4. Peter · 5. Ivan\nCashed out before the end (no place): Ann, Bob, Sasha"),
    ("ru", ["Иван выбывает на 5-м месте.", "Пётр выбывает на 4-м месте."],
     "🏆 Турнир окончен. Все, кто ещё играл, обменяли фишки и вышли, так что первого места нет.\n"
     "Места: 4. Пётр · 5. Иван\nДосрочный выход с фишками (без места): Аня, Боря, Саша"),
])
def test_the_results_give_the_places_said_at_the_busts_though_everyone_still_in_cashed_out(
        language: str, said: list[str], ended: str) -> None:
    """Cashing out takes no place and moves none said before: with everyone still in cashed out, Peter and Ivan keep
    the 4th and 5th places they were told (the results made them 1st and 2nd), and nobody takes first place."""
    tournament = _five_at_the_table(TournamentConfig())
    voice = Voice(language, NAMES[language].__getitem__)
    for player in ("ivan", "peter"):
        assert narrate(voice, tournament, tournament.eliminate_busted([player], {player: 300}), now=START) == [
            said.pop(0)]
    for player in ("ann", "bob", "sasha"):
        tournament.cash_out(player, 500)
    tournament.finish(START, {})
    assert results(voice, *tournament.standings()) == ended


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Ivan is out for now and may come back with /rebuy until 19:00.",
            "Peter is out for now and may come back with /rebuy until 19:00."]),
    ("ru", ["Иван выбывает, но пока не окончательно: вернуться можно командой /rebuy до 19:00.",
            "Пётр выбывает, но пока не окончательно: вернуться можно командой /rebuy до 19:00."]),
])
def test_players_out_during_the_rebuy_period_are_out_for_now_without_a_place(language: str, said: list[str]) -> None:
    """They read "Ivan is eliminated in 4th place." though a rebuy or a late entry moves that place: until the first
    break they are out for now, each told how to come back and until when."""
    tournament = _five_at_the_table(TournamentConfig(rebuys=1))
    events = tournament.eliminate_busted(["ivan", "peter"], {"ivan": 300, "peter": 300})
    assert narrate(Voice(language, NAMES[language].__getitem__), tournament, events, now=START) == said


@pytest.mark.parametrize(("language", "said", "told"), [
    ("en", "Ivan is out for now and may come back with /rebuy until the first break.",
     "You are out of the tournament for now: come back with /rebuy until the first break."),
    ("ru", "Иван выбывает, но пока не окончательно: вернуться можно командой /rebuy до первого перерыва.",
     "Вы выбыли из турнира, но пока не окончательно: вернуться можно командой /rebuy до первого перерыва."),
])
def test_while_the_clock_is_paused_a_player_out_for_now_may_come_back_until_the_first_break(
        language: str, said: str, told: str) -> None:
    """While the clock is paused the first break begins at 19:00 or at the resume, whichever comes later, so no clock
    time is known for the end of the rebuy period: he hears it runs until the first break."""
    tournament = _five_at_the_table(TournamentConfig(rebuys=1))
    tournament.clock.pause(START)
    events = tournament.eliminate_busted(["ivan"], {"ivan": 300})
    voice = Voice(language, NAMES[language].__getitem__)
    assert narrate(voice, tournament, events, now=START) == [said]
    assert out_of_play(voice, tournament, "ivan", START) == told


@pytest.mark.parametrize(("language", "said", "told"), [
    ("en", "Ivan is out for now and may come back with /rebuy until play resumes.",
     "You are out of the tournament for now: come back with /rebuy until play resumes."),
    ("ru", "Иван выбывает, но пока не окончательно: вернуться можно командой /rebuy до возобновления игры.",
     "Вы выбыли из турнира, но пока не окончательно: вернуться можно командой /rebuy до возобновления игры."),
])
def test_once_the_rebuy_periods_end_time_passed_in_a_pause_a_player_out_may_come_back_until_play_resumes(
        language: str, said: str, told: str) -> None:
    """Paused at 18:00, the clock stands at 20:05 past level 1's end (19:00) and the whole break: the rebuy period,
    held open by the pause, ends as play resumes and no break comes then, so he hears that, not "the first break"."""
    tournament = _five_at_the_table(TournamentConfig(rebuys=1))
    tournament.clock.pause(START)
    late = datetime(2026, 11, 29, 20, 5, tzinfo=UTC)
    events = tournament.eliminate_busted(["ivan"], {"ivan": 300})
    voice = Voice(language, NAMES[language].__getitem__)
    assert narrate(voice, tournament, events, now=late) == [said]
    assert out_of_play(voice, tournament, "ivan", late) == told


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Ivan is out; the place is given when the rebuy period ends."),
    ("ru", "Иван выбывает; место будет известно, когда кончится время ребаев."),
])
def test_a_player_out_of_rebuys_is_not_given_a_place_that_late_entries_may_still_move(language: str,
                                                                                      said: str) -> None:
    """With re-entry off and his one rebuy used, he cannot come back, but a late entrant would still push him down."""
    tournament = _five_at_the_table(TournamentConfig(rebuys=1))
    tournament.eliminate_busted(["ivan"], {"ivan": 300})
    tournament.rebuy("ivan", 0, START)
    events = tournament.eliminate_busted(["ivan"], {"ivan": 300})
    assert narrate(Voice(language, NAMES[language].__getitem__), tournament, events, now=START) == [said]


@pytest.mark.parametrize(("language", "alone", "sharing"), [
    ("en", "You are out of the tournament in 5th place.", "You are out of the tournament, sharing 3rd–4th place."),
    ("ru", "Вы выбыли из турнира на 5-м месте.", "Вы выбыли из турнира и делите 3–4-е места."),
])
def test_a_player_out_is_told_his_place_or_the_places_he_shares(language: str, alone: str, sharing: str) -> None:
    """Peter, out with Sasha on equal stacks, read "You are out of the tournament in 3rd place." though he shares
    3rd–4th with her, as the channel heard: he is told the places he shares; Ivan, out alone, his own."""
    tournament = _five_at_the_table(TournamentConfig())
    tournament.eliminate_busted(["ivan", "peter", "sasha"], {"ivan": 100, "peter": 300, "sasha": 300})
    voice = Voice(language, NAMES[language].__getitem__)
    assert out_of_play(voice, tournament, "ivan", START) == alone
    assert out_of_play(voice, tournament, "peter", START) == sharing
    assert out_of_play(voice, tournament, "ann", START) is None


async def _shove_until_one_busts(service: Service, reply: Reply, marker: str) -> Actor:
    """Ann and Bob go all-in (or call) hand after hand while Cat folds, until one of them is said to be out (`marker`
    after his name): who."""
    out = re.compile(f"(?:{ANN.name}|{BOB.name}){re.escape(marker)}")
    said = await shove_until(service, reply, PLAYERS, out, folding=CAT, dealer=CAT)
    return next(actor for actor in (ANN, BOB) if f"{actor.name}{marker}" in said)


async def _chips(service: Service) -> dict[str, int]:
    found = await service.store.read(lambda tx: tx.balances(""))
    return {name: chips for name, chips in found.items() if PLACE.table_id in name}


async def _started(store: Store, options: str, players: Iterable[Actor], language: str = "en",
                   ) -> tuple[Service, FakeClock, Reply]:
    """A no-limit home-night tournament with `options` (its rebuys, add-ons) of `players`, started at 18:00 with the
    chat speaking `language`: the service, its clock and the start's reply."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=SEED)
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    await night_registered(service, players, f"home-night {options}")
    return service, clock, await service.handle(PLACE, ANN, "/tournament start")


async def _next_hand(service: Service) -> Reply:
    reply = await service.handle(PLACE, CAT, "/deal")
    assert reply.error is None and reply.table is not None and reply.table.to_act is not None, reply.error
    return reply


@pytest.mark.parametrize(("language", "marker", "for_now", "final"), [
    ("en", " is out for now and may come back with /rebuy until 19:00.",
     "You are out of the tournament for now: come back with /rebuy until 19:00.",
     "You are out of the tournament in 3rd place."),
    ("ru", " выбывает, но пока не окончательно: вернуться можно командой /rebuy до 19:00.",
     "Вы выбыли из турнира, но пока не окончательно: вернуться можно командой /rebuy до 19:00.",
     "Вы выбыли из турнира на 3-м месте."),
])
async def test_a_busted_player_who_tries_to_play_is_told_he_is_out_and_how_he_may_come_back(
        store: Store, language: str, marker: str, for_now: str, final: str) -> None:
    """A busted player pressing a hand's button read "You are not seated at this table: /join first." (a command he
    cannot use), and /addon "You are not playing in this tournament.": he is now told he is out, how he may still
    come back while the rebuy period runs, and, once it is over, his place. Nothing moves."""
    service, clock, started = await _started(store, "rebuys 1 addon 1", PLAYERS.values(), language)
    busted = await _shove_until_one_busts(service, started, marker)

    hand = await _next_hand(service)
    before = await _chips(service)
    assert (await service.press(PLACE, busted, press_label(hand, "fold"))).error == for_now
    assert (await service.handle(PLACE, busted, "/call")).error == for_now
    assert (await service.handle(PLACE, busted, "/addon")).error == for_now
    assert await _chips(service) == before

    clock.advance(at(19, 0, 1) - clock.now())  # the break: rebuys over
    before = await _chips(service)
    assert (await service.handle(PLACE, busted, "/addon")).error == final
    assert (await service.press(PLACE, busted, press_label(hand, "fold"))).error == final
    assert await _chips(service) == before


@pytest.mark.parametrize("mid_hand", [False, True])
@pytest.mark.parametrize(("language", "final"), [
    ("en", "The rebuy period is over, so the places of those out are final: 3. {player}"),
    ("ru", "Время ребаев прошло, и места выбывших теперь окончательны: 3. {player}"),
])
async def test_the_places_of_players_out_for_now_are_said_when_the_rebuy_period_ends(
        store: Store, language: str, final: str, mid_hand: bool) -> None:
    """A player out during the rebuy period heard that his place is given when it ends, and nothing gave it until
    the results: at the break (or, when it comes during a hand, at that hand's end) the channel hears the places of
    those out, once."""
    service, clock, started = await _started(store, "rebuys 1", PLAYERS.values(), language)
    marker = " is out for now" if language == "en" else " выбывает, но пока не окончательно"
    busted = await _shove_until_one_busts(service, started, marker)
    hand = await _next_hand(service) if mid_hand else None

    heard = listen(service)
    clock.advance(at(19, 0, 1) - clock.now())  # the break
    await service.scheduler.fire_due()
    if hand is not None:
        assert hand.table is not None and hand.table.to_act is not None
        heard.append(await service.handle(PLACE, PLAYERS[hand.table.to_act], "/fold"))
    said = "\n".join(all_text(heard))
    assert said.count(final.format(player=busted.name)) == 1, said


async def test_a_player_out_in_the_hand_the_rebuy_period_ended_in_is_not_listed_again_with_the_final_places(
        store: Store) -> None:
    """Four at the table; Ann (or Bob) goes out for now during the rebuy period. The period ends during the next
    hand, in which another player goes out: his place is final, said in his own line, and the line giving the places
    of those out for now lists only them (it listed him again)."""
    dan = Actor("dan", "Dan")
    players = {**PLAYERS, dan.user_id: dan}
    service, clock, reply = await _started(store, "rebuys 1", players.values())
    said: list[Reply] = []
    heard = listen(service)
    for _ in range(200):  # Ann and Bob shove while the others fold; after the break's start, everyone shoves
        said.append(reply)
        if "eliminated in" in everything_said(said + heard):
            break
        if reply.table is not None and reply.table.to_act is not None:
            actor = players[reply.table.to_act]
            if " is out for now" in everything_said(said) and clock.now() < BREAK.timestamp():
                clock.advance(BREAK.timestamp() - clock.now())  # the first bust is in: the break comes mid-hand
                await service.scheduler.fire_due()
            shoves = actor in (ANN, BOB) or clock.now() >= BREAK.timestamp()
            reply = await service.handle(PLACE, actor, "/allin" if shoves else "/fold")
            if reply.error is not None:
                reply = await service.handle(PLACE, actor, "/call")
        else:
            answers = [await service.handle(PLACE, actor, "/run once") for actor in players.values()]
            said += answers
            ran = [answer for answer in answers if answer.error is None]
            reply = ran[0] if ran else await service.handle(PLACE, CAT, "/deal")
        assert reply.error is None, reply.error
    lines = [line for line in everything_said(said + heard).splitlines()
             if "out for now" in line or "eliminated in" in line or "are final" in line]
    assert list(dict.fromkeys(lines)) == [  # each reply's lines come again in its table message's edit
        "Ann is out for now and may come back with /rebuy until 19:00.",
        "Dan is eliminated in 3rd place.",
        "The rebuy period is over, so the places of those out are final: 4. Ann"]


@pytest.mark.parametrize(("language", "marker", "results"), [
    ("en", " is eliminated in 3rd place.",
     "🏆 The tournament is over. Winner: {winner}!\nPlaces: 1. {winner} · 3. {busted}\n"
     "Cashed out before the end (no place): Cat"),
    ("ru", " выбывает на 3-м месте.",
     "🏆 Турнир окончен. Победитель: {winner}!\nМеста: 1. {winner} · 3. {busted}\n"
     "Досрочный выход с фишками (без места): Cat"),
])
async def test_a_place_said_at_a_bust_is_the_place_the_results_give_after_a_cash_out(
        store: Store, language: str, marker: str, results: str) -> None:
    """Ann (or Bob) is out in 3rd place of three; Cat, still in, then cashes out and the last one left wins. The
    results moved the busted player up to 2nd, a place the table never told him: he keeps the 3rd he was told, and
    Cat, who takes no place, is listed apart."""
    service, _, started = await _started(store, "", PLAYERS.values(), language)
    busted = await _shove_until_one_busts(service, started, marker)
    winner = BOB if busted == ANN else ANN
    cashed = await service.handle(PLACE, CAT, "/cashout")
    assert cashed.error is None, cashed.error
    end = [message for message in cashed.public if message.startswith("🏆")]
    assert end == [results.format(winner=winner.name, busted=busted.name)], cashed.public


@pytest.mark.parametrize(("language", "marker", "final", "places"), [
    ("en", " is out for now", "The rebuy period is over, so the places of those out are final: 3. {busted}",
     "Places: 1. {winner} · 3. {busted}"),
    ("ru", " выбывает, но пока не окончательно",
     "Время ребаев прошло, и места выбывших теперь окончательны: 3. {busted}", "Места: 1. {winner} · 3. {busted}"),
])
async def test_places_said_at_the_end_of_the_rebuy_period_are_the_places_the_results_give_after_a_cash_out(
        store: Store, language: str, marker: str, final: str, places: str) -> None:
    """Out for now during the rebuy period, Ann (or Bob) hears at the break that her place is final, 3rd; Cat, still
    in, cashes out after: the results keep the 3rd (they gave 2nd)."""
    service, clock, started = await _started(store, "rebuys 1", PLAYERS.values(), language)
    busted = await _shove_until_one_busts(service, started, marker)
    winner = BOB if busted == ANN else ANN
    heard = listen(service)
    clock.advance(BREAK.timestamp() - clock.now())
    await service.scheduler.fire_due()
    names = {"winner": winner.name, "busted": busted.name}
    assert final.format(**names) in [message for reply in heard for message in reply.public]
    cashed = await service.handle(PLACE, CAT, "/cashout")
    assert cashed.error is None, cashed.error
    end = [message.splitlines()[1] for message in cashed.public if message.startswith("🏆")]
    assert end == [places.format(**names)], cashed.public


async def test_the_button_moves_one_seat_on_past_a_player_busted_before_it(store: Store, decks: list[str]) -> None:
    """RULES.md §1: the button moves one seat clockwise each hand. Ann, on the seat before the button (Bob's, hand
    #2), busts; her seat goes, and the button moves on from Bob to Cat, Dan posting the small blind and Bob the big."""
    dan = Actor("dan", "Dan")
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    await night_registered(service, (ANN, BOB, CAT, dan))
    await play(service, (ANN, "/set run_it_twice off"), (ANN, "/tournament start"), (dan, "/fold"), (ANN, "/fold"),
               (BOB, "/fold"))  # hand #1 (button Ann): Cat takes the blinds
    decks.append("Ah 3d 7h 2c Ad 5d 2h 4c 9s Kc Qd 8s 9c 6h 9d Js")  # hand #2: Cat, Dan, Ann, Bob; Cat's aces
    await deal_next(service, clock)
    await play(service, (ANN, "/allin"), (BOB, "/fold"), (CAT, "/call"))
    busted = await service.handle(PLACE, dan, "/fold")
    assert busted.public == ["Showdown — Cat: A♥ A♦ (a pair of aces, king kicker); Ann: 7♥ 2♥ (king high)\n"
                             "Cat wins the main pot (610) with a pair of aces, king kicker.",
                             "Ann is eliminated in 4th place."]
    third = await deal_next(service, clock)
    assert third.table is not None and third.table.text == (
        "Hold'em — hand #3 · blinds 5/10 · no-limit\n"
        "Board: — · Pot: 15\n"
        "  Bob · 285 bet 10\n"
        "▶ Cat · 615 Ⓓ\n"
        "  Dan · 285 bet 5\n"
        "\n"
        "Hand #3: button Cat, blinds 5/10. Cards are dealt — press “My cards” to see yours.\n"
        "Dan posts the small blind 5.\n"
        "Bob posts the big blind 10.\n"
        "▶ Cat to act: 10 to call (⏱ 60\xa0s).")
