"""A tournament night through the service: registration, the clock's announcements, pawns, cash-outs, settlement."""

import json

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from engine.clock import Clock
from engine.tournament import Tournament
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE, dump
from tests.bot.helpers import (
    SIX_PM,
    at,
    calls_to,
    counts_the_games_calls,
    deal_next,
    everything_said,
    ledger_ok,
    listen,
    night_registered,
    play,
    play_out,
    press_label,
    public_lines,
    refused_without_change,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


def hand_two_dealt(structure: str) -> str:
    """The table as the night's hand #2 is dealt (blinds 5/10, Bob to act), at this betting `structure`: two tests
    reach it from the same seed."""
    return (f"Hold'em — hand #2 · blinds 5/10 · {structure}\n"
            "Board: — · Pot: 15\n"
            "  Ann · 280 bet 10\n"
            "▶ Bob · 320 Ⓓ\n"
            "  Cat · 285 bet 5\n"
            "\n"
            "Hand #2: button Bob, blinds 5/10. Cards are dealt — press “My cards” to see yours.\n"
            "Cat posts the small blind 5.\n"
            "Ann posts the big blind 10.\n"
            "▶ Bob to act: 10 to call (⏱ 60\xa0s).")


@pytest.fixture
async def night(store: Store) -> tuple[Service, FakeClock]:
    return await night_of(store)


async def night_of(store: Store, options: str = "home-night") -> tuple[Service, FakeClock]:
    """Ann's tournament (`/tournament create` with `options`), Ann, Bob and Cat registered, not yet started."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    await night_registered(service, (ANN, BOB, CAT), options, structure=None)
    return service, clock


async def cat_short_of_the_call(service: Service, clock: FakeClock, decks: list[str]) -> None:
    """No-limit: Bob is out in the first hand (Ann 610, Cat 290); in the second Cat calls, Ann shoves, and Cat, to
    act, is short of the call."""
    await play(service, (ANN, "/set structure no-limit"), (ANN, "/set run_it_twice off"))
    decks.append("2d 3c Ah 7h 8s Ad Kh Ks 9c 4d Jh Qs")  # Bob, Cat, Ann twice: Ann's aces
    await service.handle(PLACE, ANN, "/tournament start")  # button Ann, blinds Bob and Cat
    await play(service, (ANN, "/allin"), (BOB, "/allin"), (CAT, "/fold"))
    dealt = await deal_next(service, clock)
    assert dealt.table is not None and dealt.table.to_act == "cat"  # the seats decide it: Cat acts first in this hand
    await play(service, (CAT, "/call"), (ANN, "/allin"))


CAT_SHORT = ("Hold'em — hand #2 · blinds 5/10 · no-limit\n"
             "Board: — · Pot: 620\n"
             "  Ann · 0 all-in bet 610\n"
             "▶ Cat · {stack} Ⓓ bet 10\n"
             "\n"
             "Hand #2: button Cat, blinds 5/10. Cards are dealt — press “My cards” to see yours.\n"
             "Cat posts the small blind 5.\n"
             "Ann posts the big blind 10.\n"
             "Cat calls 5.\n"
             "Ann raises to 610, all-in.\n"
             "{pawned}"
             "▶ Cat to act: call all-in for {stack} (⏱ 60\xa0s).{line}")
"""The table of `cat_short_of_the_call` with Cat's `stack`, the lines of the items he `pawned` and the `line` under
his turn."""
MAY_PAWN = ("\n🧥 Cat is short of the call: /pawn and an item (a jacket, say) adds 100 chips to the stack. Socks, "
            "belts, jewellery, accessories and watches are not taken.")


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "I can't read that schedule: the schedule is empty; write levels like 10/20 20m; 20/40 20m; 40/80."),
    ("ru", "Не могу разобрать расписание: расписание пустое; напишите уровни, например: 10/20 20 мин; 20/40 20 мин; "
           "40/80."),
])
@pytest.mark.parametrize("schedule", ["; ;", ";", " , ", "; ; rebuys 1"])
async def test_a_schedule_of_nothing_but_separators_is_refused_and_creates_nothing(
        store: Store, language: str, refusal: str, schedule: str) -> None:
    """`/tournament create ; ;` created the home-night tournament, as if no schedule had been written: the options'
    reader dropped the separators round the schedule, and an empty one meant the default. It is refused as empty,
    with what to write instead, as any schedule that cannot be read; no tournament is created."""
    service = await started_service(store, FakeClock(SIX_PM), seed=5)
    await service.handle(PLACE, ANN, f"/lang {language}")
    refused = await service.handle(PLACE, ANN, f"/tournament create {schedule}")
    assert refused.error == refusal
    assert refused.public == []
    no_tournament = {
        "en": "There is no tournament at this table: an organizer starts one with /tournament create.",
        "ru": "За этим столом нет турнира: организатор создаёт его командой /tournament create.",
    }[language]
    assert (await service.handle(PLACE, ANN, "/clock")).error == no_tournament, "no tournament was created"
    created = await service.handle(PLACE, ANN, "/tournament create")  # nothing written: the home night
    assert created.error is None, created.error


async def test_registration_issues_chips_from_the_bank(night) -> None:
    service, _ = night
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert sorted(stacks.values()) == [300, 300, 300]
    assert await service.store.read(lambda tx: tx.check_ledger()) == []
    assert (await service.handle(PLACE, BOB, "/tournament start")).error == "Only the organizer — Ann — can do that."


async def test_closed_before_the_start_nobody_played_and_every_buy_in_goes_back(night) -> None:
    service, _ = night
    left = await service.handle(PLACE, BOB, "/leave")
    assert left.error is None, left.error
    assert left.table is not None and left.table.text == (
        "Texas Hold'em — seats:\n"
        "  Ann — 300\n"
        "  Cat — 300\n"
        "Registration is open: /join to register; the organizer deals the first hand with /tournament start.")
    closed = await service.handle(PLACE, ANN, "/tournament close")
    assert closed.error is None, closed.error
    assert closed.public == [
        "Ann finishes with 300 chips, worth 50.",
        "Cat finishes with 300 chips, worth 50.",
        "The tournament was closed before it started: nobody played, every buy-in goes back.",
        "Settlement (money units):\n"
        "Ann: paid 50, cashed out 50, net 0\n"
        "Cat: paid 50, cashed out 50, net 0\n"
        "Nobody owes anybody anything."], "Bob left before the start: no buy-in, no place in the settlement"
    assert set((await service.store.read(lambda tx: tx.balances(f"bank:{PLACE.table_id}:"))).values()) == {0}
    assert await service.store.read(lambda tx: tx.check_ledger()) == []
    stats = await service.handle(PLACE, ANN, "/stats")
    assert stats.public == ["Ann: no hands played, no tournaments."], "a tournament never started was not played"


async def test_the_cash_tables_level_and_buy_in_are_not_set_during_a_tournament(night) -> None:
    """The tournament's schedule sets its limits and its buy-in is its own: `/set level 40` while it runs used to say
    "Setting changed: level = 40, from the next hand" and the next hand kept the schedule's blinds. It is refused,
    nothing changes; the settings a tournament does read are still set."""
    service, _ = night
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    before = await service.handle(PLACE, ANN, "/set")
    for line in ("/set level 40", "/set buy_in 1000"):
        name = line.split()[1]
        assert (await service.handle(PLACE, ANN, line)).error == (
            f"The tournament sets its own limits (its schedule) and buy-in: /set {name} is for the cash table, once"
            " the tournament is over.")
    assert (await service.handle(PLACE, ANN, "/set")).private == before.private
    assert (await service.handle(PLACE, ANN, "/set turn_seconds 30")).error is None  # the table's own, as before


async def test_a_full_table_takes_no_more_entrants(night) -> None:
    service, _ = night
    assert (await service.handle(PLACE, ANN, "/set max_seats 3")).error is None
    late = await service.handle(PLACE, DAN, "/join")
    assert late.error == "The table is full."
    assert sorted((await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))).values()) == [
        300, 300, 300]


async def test_the_clock_announces_the_break_and_the_new_limits(night) -> None:
    service, clock = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None
    assert started.public == ["⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."]
    assert started.table is not None and started.table.key == "h1"
    heard = listen(service)
    for hour, minute in ((18, 55), (18, 59), (19, 0), (19, 55), (19, 59), (20, 0)):  # each when its timer fires
        clock.current = at(hour, minute, 1)
        await service.scheduler.fire_due()
    assert public_lines(heard) == ["⏱ Break in 5 minutes.", "⏱ Break in 1 minute.", "⏸ Break until 20:00.",
                                   "⏱ Limits go up to 50/100 in 5 minutes.", "⏱ Limits go up to 50/100 in 1 minute.",
                                   "▶ Play resumes: limits 50/100."]
    clock_reply = await service.handle(PLACE, BOB, "/clock")
    assert clock_reply.public == [
        "⏱ Level 2: limits 50/100 (blinds 25/50), the last level: it plays until the tournament ends."]


@pytest.mark.parametrize("line", ["/fold", "/pre checkfold", "/muck", "/run once", "/deal"])
async def test_a_hand_s_command_on_the_break_says_the_break(night, line: str) -> None:
    """On the break, /fold answered "Break until 20:00." but /pre, /muck and /run said "No hand is in play: /deal to
    start one.", and /deal then answered the break: each says the break, in the player's language."""
    service, clock = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, ("fold", "check"))
    clock.current = at(19, 0, 1)
    await service.scheduler.fire_due()
    await refused_without_change(service, BOB, line, {"en": "Break until 20:00.", "ru": "Перерыв до 20:00."})


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "The tournament's buy-in is fixed: 300 chips for 50. Send /join without an amount."),
    ("ru", "Бай-ин в турнире фиксированный: 300 фишек за 50. Отправьте /join без суммы."),
])
async def test_an_amount_to_join_a_tournament_with_is_refused_with_its_terms(night, language: str,
                                                                            refusal: str) -> None:
    """`/join 500` (a cash table's buy-in) registered the player at the tournament's terms, 300 chips for 50, and
    said nothing of the 500. The tournament's buy-in is fixed: the amount is refused with the terms, and nothing
    changes; `/join` registers. An amount in several numbers (`5 000`, `5 5`) was told `/tournament register` takes
    nothing, where one number had the terms: it has them too."""
    service, _ = night
    await service.handle(PLACE, ANN, f"/lang {language}")
    before = await service.store.read(lambda tx: tx.balances(f"bank:{PLACE.table_id}:"))
    for line in ("/join 500", "/tournament register 500", "/tournament register 5 000", "/tournament join 5 5"):
        refused = await service.handle(PLACE, DAN, line)
        assert refused.error == refusal, line
        assert refused.public == [] and refused.table is None
    assert await service.store.read(lambda tx: tx.balances(f"bank:{PLACE.table_id}:")) == before
    assert (await service.handle(PLACE, DAN, "/join")).error is None
    seated = await service.handle(PLACE, DAN, "/join 500")
    already = {"en": "You are already seated: in a tournament, more chips come only from its /rebuy and /addon, when "
                     "it offers them.",
               "ru": "Вы уже сидите за столом: в турнире фишки можно докупить только командами /rebuy и /addon, если "
                     "турнир их предлагает."}[language]
    assert seated.error == already, "what matters most comes first, in the chat's language"


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "/tournament start takes nothing after it: write just /tournament start."),
    ("ru", "После /tournament start ничего не нужно: просто /tournament start."),
])
async def test_a_tournament_subcommand_that_takes_nothing_is_refused_with_words_after_it(
        night, language: str, refusal: str) -> None:
    """`/tournament start foo` started the tournament and dropped the word (so did pause, resume, close…): the
    subcommand is refused with its usage and nothing changes; `/tournament start` starts."""
    service, _ = night
    await service.handle(PLACE, ANN, f"/lang {language}")
    refused = await service.handle(PLACE, ANN, "/tournament start foo")
    assert refused.error == refusal
    assert refused.public == [] and refused.table is None
    registered = await service.handle(PLACE, DAN, "/tournament register me")
    assert registered.error == refusal.replace("start", "register")
    not_seated = {"en": "You are not seated at this table: /join first.",
                  "ru": "Вы не сидите за этим столом: сначала /join."}[language]
    assert (await service.handle(PLACE, DAN, "/leave")).error == not_seated, "Dan was not registered"
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None and started.table is not None and started.table.to_act, "it had not started"


@pytest.mark.parametrize("line", ["/fold", "/check", "/call", "/raise 40", "/allin", "/pre checkfold", "/muck",
                                  "/run once"])
async def test_a_hand_s_command_before_the_start_names_the_start_not_deal(night, line: str) -> None:
    """Before the tournament's start a hand's command said "No hand is in play: /deal to start one.", and /deal then
    said the tournament had not started: the refusal names what deals its first hand, in the player's language."""
    service, _ = night
    await refused_without_change(service, BOB, line, {
        "en": "No hand is in play: the organizer deals the first with /tournament start.",
        "ru": "Раздачи пока нет: первую раздачу организатор сдаёт командой /tournament start."})


@pytest.mark.parametrize(("when", "refusal"), [
    ("before the start", "No hand is in play: the organizer deals the first with /tournament start."),
    ("between hands", "No hand is in play: /deal to start one."),
    ("on the break", "Break until 20:00."),
])
@counts_the_games_calls
async def test_a_hand_s_command_with_no_hand_loads_the_tournament_once(night, monkeypatch: pytest.MonkeyPatch,
                                                                        when: str, refusal: str) -> None:
    """Why a hand's command finds no hand (`no_hand`) loaded the tournament twice, once to ask whether its clock
    stops play and again for the refusal: one load says it, as before."""
    service, clock = night
    if when != "before the start":
        started = await service.handle(PLACE, ANN, "/tournament start")
        await play_out(service, PLACE, PLAYERS, started, ("fold", "check"))
    if when == "on the break":
        clock.current = at(19, 0, 1)
        await service.scheduler.fire_due()
    loads = calls_to(monkeypatch, Tournament, "from_dict")  # each a load of the table's tournament
    refused = await service.handle(PLACE, BOB, "/fold")
    assert (refused.error, refused.public, refused.table) == (refusal, [], None)
    assert len(loads) == 1


async def test_a_join_with_an_amount_logged_during_a_hand_by_an_older_version_resumes_as_it_was_applied(
        night) -> None:
    """An older version registered `/join 500` at the tournament's terms: a crash before the next snapshot leaves
    it in the log, and the restart replays it as it was applied (it is not refused there)."""
    from tests.bot.helpers import logged_actions, resumed_table

    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.table is not None and started.table.to_act is not None  # a hand in play: the join is logged
    assert (await service.handle(PLACE, DAN, "/join")).error is None  # late registration
    assert await logged_actions(service.store) == 1

    def older(tx) -> None:  # the log row as the older version wrote it: the amount was kept with the command
        seq, entry = tx.db.execute("SELECT seq, entry FROM actions WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                                   (PLACE.table_id,)).fetchone()
        assert '"chips":null' in entry
        tx.db.execute("UPDATE actions SET entry = ? WHERE table_id = ? AND seq = ?",
                      (entry.replace('"chips":null', '"chips":500'), PLACE.table_id, seq))

    await service.store.transact(older, now=SIX_PM)
    stored = await service.store.read(lambda tx: resumed_table(service.store, tx, PLACE.table_id))
    assert stored is not None and [seat["id"] for seat in stored[1]["seats"]][-1] == "dan"


async def test_cash_out_between_hands_and_settlement(night) -> None:
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    refused = await service.handle(PLACE, PLAYERS[started.table.to_act], "/cashout")
    assert refused.error == "Cash out between hands: wait for this hand to end."
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    cashed = await service.handle(PLACE, CAT, "/cashout")
    assert cashed.error is None
    assert cashed.public == ["Cat cashes out 305 chips for 50.83."]
    assert (await service.handle(PLACE, BOB, "/tournament close")).error == "Only the organizer — Ann — can do that."
    closed = await service.handle(PLACE, ANN, "/tournament close")
    assert closed.error is None, closed.error
    assert closed.public == [
        "Ann finishes with 300 chips, worth 50.",
        "Bob finishes with 295 chips, worth 49.17.",
        "🏆 The tournament is over. Winner: Ann!\n"
        "Places: 1. Ann · 2. Bob\n"
        "Cashed out before the end (no place): Cat",
        "Settlement (money units):\n"
        "Ann: paid 50, cashed out 50, net 0\n"
        "Bob: paid 50, cashed out 49.17, net −0.83\n"
        "Cat: paid 50, cashed out 50.83, net +0.83\n"
        "Payments:\n"
        "Bob → Cat: 0.83"]
    results, settlement = closed.public[-2:]
    assert await service.store.read(lambda tx: tx.check_ledger()) == []
    bank = await service.store.read(lambda tx: tx.balances(f"bank:{PLACE.table_id}:"))
    assert set(bank.values()) == {0}, "every chip issued came back to the bank"
    again = await service.handle(PLACE, BOB, "/tournament close")
    assert again.public == [results, settlement], "once it is over, anyone may see the results again"
    for alias in ("settle", "end"):  # unlisted in /help, still understood
        assert (await service.handle(PLACE, BOB, f"/tournament {alias}")).public == again.public, alias


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Showdown — Cat: 4♥ 5♥ (royal flush)", "Showdown — Ann: 2♦ 3♦ (royal flush)",
            "Cat 13, Ann 12 split the main pot (25): the hands are equal, royal flush."]),
    ("ru", ["Вскрытие — Cat: 4♥ 5♥ (роял-флеш)", "Вскрытие — Ann: 2♦ 3♦ (роял-флеш)",
            "Cat 13, Ann 12 делят основной банк (25): комбинации равны, роял-флеш."]),
])
async def test_the_odd_chip_of_a_split_pot_goes_to_the_first_winner_left_of_the_button(
        night, decks: list[str], language: str, said: list[str]) -> None:
    """RULES.md §1: equal hands split the pot, the odd chip to the first winner left of the button. Ann (the button,
    seated first) and Cat (the big blind) play the royal flush on the board; Bob's small blind makes the pot odd (25),
    and Cat, left of the button, takes 13 of it, Ann 12."""
    service, _ = night
    await service.handle(PLACE, ANN, f"/lang {language}")
    decks.append("2c 4h 2d 3c 5h 3d 9c As Ks Qs 9d Js 8c Ts")  # Bob, Cat, Ann twice; the board: As Ks Qs Js Ts
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.table is not None and started.table.to_act == "ann"
    await play(service, (ANN, "/call"), (BOB, "/fold"), (CAT, "/check"), *[(CAT, "/check"), (ANN, "/check")] * 2,
               (CAT, "/check"))
    river = await service.handle(PLACE, ANN, "/check")
    assert river.error is None and river.table is not None
    assert river.table.text.splitlines()[-len(said) - 1:] == [*said, {"en": "The hand is over.",
                                                                       "ru": "Раздача окончена."}[language]]
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks == {f"stack:{PLACE.table_id}:ann": 302, f"stack:{PLACE.table_id}:bob": 295,
                      f"stack:{PLACE.table_id}:cat": 303}
    await ledger_ok(service)


async def test_a_turn_lasts_its_minute_then_the_time_bank_s_then_checks_if_free_else_folds(night) -> None:
    """RULES.md §1a with the defaults (a 60-second turn, a 60-second bank): when his turn time runs out the player's
    bank runs, shown on the table; when it is empty too, the time-out checks if checking is free, else folds. Ann,
    facing the big blind, folds; Cat, the big blind with nothing to call, checks; the flop comes."""
    service, clock = night
    heard = listen(service)
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.table is not None and started.table.text.splitlines()[-1] == "▶ Ann to act: 10 to call (⏱ 60\xa0s)."
    for seconds, to_act, last_line in ((60, "ann", "⏳ Ann is using the time bank: 60\xa0s."),
                                       (60, "bob", "▶ Bob to act: 5 to call (⏱ 60\xa0s).")):
        clock.advance(seconds)
        assert await service.scheduler.fire_due() == 1
        assert heard[-1].table is not None and heard[-1].table.to_act == to_act
        assert heard[-1].table.text.splitlines()[-1] == last_line
    await play(service, (BOB, "/call"))
    for _ in range(2):  # Cat's turn, then his bank
        clock.advance(60)
        assert await service.scheduler.fire_due() == 1
    assert heard[-1].table is not None and heard[-1].table.text == (
        "Hold'em — hand #1 · blinds 5/10 · home-limit\n"
        "Board: J♣ A♥ A♠ · Pot: 20\n"
        "  Ann · 300 Ⓓ folded\n"
        "▶ Bob · 290\n"
        "  Cat · 290\n"
        "\n"
        "Ann ran out of time.\n"
        "Ann folds.\n"
        "Bob calls 5.\n"
        "Cat ran out of time.\n"
        "Cat checks.\n"
        "Flop: J♣ A♥ A♠\n"
        "▶ Bob to act (⏱ 60\xa0s).")
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks == {f"stack:{PLACE.table_id}:ann": 300, f"stack:{PLACE.table_id}:bob": 290,
                      f"stack:{PLACE.table_id}:cat": 290}
    await ledger_ok(service)


async def test_late_registration_is_open_until_the_first_player_leaves(night) -> None:
    """RULES.md §1: players register before the start and during late registration when the tournament allows it;
    without rebuys or re-entry it is open until the first player leaves (a bust or a cash-out). Dan registers while
    hand #1 is played; once Cat has cashed out after it, Eve is refused in the chat's language and nothing changes;
    Dan is dealt hand #2 with the starting stack (300, 5 of it his small blind)."""
    service, clock = night
    await service.handle(PLACE, ANN, "/tournament start")
    late = await service.handle(PLACE, DAN, "/join")
    assert late.error is None and late.public == ["Dan registers: 300 chips for 50 (4 players)."]
    await play_out(service, PLACE, PLAYERS, await service.handle(PLACE, ANN, "/table"), preference=("fold", "check"))
    assert (await service.handle(PLACE, CAT, "/cashout")).error is None
    await refused_without_change(service, Actor("eve", "Eve"), "/join", {
        "en": "Registration is closed.", "ru": "Регистрация закрыта."})
    second = await deal_next(service, clock)
    assert second.table is not None and second.table.text == (
        "Hold'em — hand #2 · blinds 5/10 · home-limit\n"
        "Board: — · Pot: 15\n"
        "  Ann · 290 bet 10\n"
        "▶ Bob · 295 Ⓓ\n"
        "  Dan · 295 bet 5\n"
        "\n"
        "Hand #2: button Bob, blinds 5/10. Cards are dealt — press “My cards” to see yours.\n"
        "Dan posts the small blind 5.\n"
        "Ann posts the big blind 10.\n"
        "▶ Bob to act: 10 to call (⏱ 60\xa0s).")


async def test_a_cash_out_between_hands_takes_his_seat_off_the_table_at_once(night) -> None:
    """The table message went on showing the seat of a player who had cashed out (with his stack) until the next
    deal: the cash-out drew no table. It now redraws the seats without him."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    before = await service.handle(PLACE, ANN, "/table")
    assert before.table is not None and before.table.text == (
        "Texas Hold'em — seats:\n"
        "  Ann — 300\n"
        "  Bob — 295\n"
        "  Cat — 305\n"
        "Hand #1: Cat wins 10.\n"
        "Between hands: the next deal comes in a moment, or press Deal.")
    cashed = await service.handle(PLACE, CAT, "/cashout")
    assert cashed.error is None, cashed.error
    assert cashed.table is not None and cashed.table.key == before.table.key
    assert cashed.table.text == (  # the last hand's result, which Cat won, still names him
        "Texas Hold'em — seats:\n"
        "  Ann — 300\n"
        "  Bob — 295\n"
        "Hand #1: Cat wins 10.\n"
        "Between hands: the next deal comes in a moment, or press Deal.")


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Cat finishes with 305 chips, worth 50.83.", "Ann finishes with 300 chips, worth 50.",
            "Bob finishes with 295 chips, worth 49.17.",
            "🏆 The tournament is over. Winner: Cat!\nPlaces: 1. Cat · 2. Ann · 3. Bob",
            "Settlement (money units):\n"
            "Ann: paid 50, cashed out 50, net 0\n"
            "Bob: paid 50, cashed out 49.17, net −0.83\n"
            "Cat: paid 50, cashed out 50.83, net +0.83\n"
            "Payments:\n"
            "Bob → Cat: 0.83"]),
    ("ru", ["Cat заканчивает турнир с 305 фишками — это 50,83.", "Ann заканчивает турнир с 300 фишками — это 50.",
            "Bob заканчивает турнир с 295 фишками — это 49,17.",
            "🏆 Турнир окончен. Победитель: Cat!\nМеста: 1. Cat · 2. Ann · 3. Bob",
            "Расчёт (в деньгах):\n"
            "Ann: внесено 50, получено 50, итог 0\n"
            "Bob: внесено 50, получено 49,17, итог −0,83\n"
            "Cat: внесено 50, получено 50,83, итог +0,83\n"
            "Кто кому платит:\n"
            "Bob → Cat: 0,83"]),
])
async def test_the_end_says_the_chips_each_finishes_with_not_a_cash_out(night, language: str,
                                                                        said: list[str]) -> None:
    """Cashing out is leaving early with no place; at the end the winner and the others still in are placed, and
    their chips turn into money as they finish."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))  # Cat takes Bob's small blind
    await service.handle(PLACE, ANN, f"/lang {language}")
    closed = await service.handle(PLACE, ANN, "/tournament close")
    assert closed.public == said


async def shove_until_someone_pawns(service: Service, item: str) -> tuple[Actor, Reply]:
    """No-limit: play the first hand out, deal the second, and shove until someone is short of a call and pawns
    `item`; returns him and the accepted pawn's reply."""
    await service.handle(PLACE, ANN, "/set structure no-limit")
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("call", "check"))  # stacks now differ
    reply = await service.handle(PLACE, ANN, "/deal")
    for _ in range(6):  # shove until someone faces a bet bigger than his stack
        actor = PLAYERS[reply.table.to_act]
        attempt = await service.handle(PLACE, actor, f"/pawn {item}")
        if attempt.error is None:
            return actor, attempt
        assert attempt.error == "You can still call: pawn only when short of the call."
        reply = await service.handle(PLACE, actor, "/allin")
        assert reply.error is None
    pytest.fail("nobody was ever short of a call")


async def test_a_short_player_pawns_an_item_for_chips(night) -> None:
    service, _ = night
    actor, attempt = await shove_until_someone_pawns(service, "leather jacket")
    assert actor == CAT
    assert attempt.public == ["Item recorded: Cat pawned “leather jacket” for 100 chips (buy-back price 16.67)."], (
        "the price it is bought back for at the end, not bought back already")
    socks = await service.handle(PLACE, actor, "/pawn my lucky socks")
    assert socks.error == ("“my lucky socks” cannot be pawned (no socks, belts, jewellery, accessories or "
                           "watches).")  # the item as described, not the one word that refused it
    bowler = await service.handle(PLACE, actor, "/pawn Bowler")
    assert bowler.error == ("“bowler” reads as a hat, and hats are not accepted: if you mean something else, name it "
                            "in other words.")  # a bowler, or a pot: asked, not refused as jewellery or socks
    await service.handle(PLACE, ANN, "/lang ru")
    pot = await service.handle(PLACE, actor, "/pawn котелок")
    assert pot.error == ("«котелок» — похоже на шляпу, а шляпы в залог не принимают: если вы о другом, назовите вещь "
                         "иначе.")
    for item in ("серьги", "часы", "золотое кольцо"):  # plural or not, the same words fit
        refused = await service.handle(PLACE, actor, f"/pawn {item}")
        assert refused.error == (f"«{item}»: такое в залог не принимают (никаких носков, ремней, украшений, "
                                 "аксессуаров и часов).")
    assert await service.store.read(lambda tx: tx.check_ledger()) == []
    bank = await service.store.read(lambda tx: tx.balances(f"bank:{PLACE.table_id}:"))
    assert list(bank.values()) == [-1000], "900 chips bought in and 100 lent against the jacket"


async def test_the_table_tells_a_short_player_he_may_pawn(night) -> None:
    """RULES.md §1: a player short of the call may pawn an item and play on; the table says so under his turn, and
    only then (nobody learns the rule by being refused)."""
    service, _ = night
    await service.handle(PLACE, ANN, "/set structure no-limit")
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, preference=("call", "check"))
    reply = await service.handle(PLACE, ANN, "/deal")
    offered = []
    for _ in range(6):
        actor = PLAYERS[reply.table.to_act]
        short = (await service.handle(PLACE, actor, "/pawn jacket")).error != (
            "You can still call: pawn only when short of the call.")
        offered.append((actor.name, short, reply.table.text))
        if short:
            break
        reply = await service.handle(PLACE, actor, "/allin")
    assert offered == [
        ("Bob", False, hand_two_dealt("no-limit")),
        ("Cat", True, "Hold'em — hand #2 · blinds 5/10 · no-limit\n"
                      "Board: — · Pot: 335\n"
                      "  Ann · 280 bet 10\n"
                      "  Bob · 0 Ⓓ all-in bet 320\n"
                      "▶ Cat · 285 bet 5\n"
                      "\n"
                      "Hand #2: button Bob, blinds 5/10. Cards are dealt — press “My cards” to see yours.\n"
                      "Cat posts the small blind 5.\n"
                      "Ann posts the big blind 10.\n"
                      "Bob raises to 320, all-in.\n"
                      "▶ Cat to act: call all-in for 285 (⏱ 60\xa0s).\n"
                      "🧥 Cat is short of the call: /pawn and an item (a jacket, say) adds 100 chips to the stack. "
                      "Socks, belts, jewellery, accessories and watches are not taken.")]


async def test_a_pawned_item_is_redeemed_between_hands(night) -> None:
    service, _ = night
    actor, pawned = await shove_until_someone_pawns(service, "leather jacket")
    early = await service.handle(PLACE, actor, "/tournament redeem 1")
    assert early.error == "A hand is in play: wait for it to end."
    await play_out(service, PLACE, PLAYERS, pawned, preference=("fold", "check"))  # he folds: the 100 chips stay
    stack = await service.store.read(lambda tx: tx.balance(f"stack:{PLACE.table_id}:{actor.user_id}"))
    assert stack >= 100
    redeemed = await service.handle(PLACE, actor, "/tournament redeem 1")
    assert redeemed.error is None, redeemed.error
    after = await service.store.read(lambda tx: tx.balance(f"stack:{PLACE.table_id}:{actor.user_id}"))
    assert after == stack - 100
    # the table shows his stack less the price at once, not the stack he had until the next deal
    assert (actor, after) == (CAT, 285)
    assert redeemed.public == ["Cat redeems “leather jacket” for 100 chips."]
    assert redeemed.table is not None and redeemed.table.text == (
        "Texas Hold'em — seats:\n"
        "  Ann — 280\n"
        "  Bob — 335\n"
        "  Cat — 285\n"
        "Hand #2: Bob wins 25.\n"
        "Between hands: the next deal comes in a moment, or press Deal.")
    assert (await service.handle(PLACE, actor, "/tournament redeem 1")).error, "an item is redeemed once"
    assert await service.store.read(lambda tx: tx.check_ledger()) == []


async def test_the_organizer_runs_the_clock(night) -> None:
    service, _ = night
    await service.handle(PLACE, ANN, "/tournament start")
    assert (await service.handle(PLACE, BOB, "/tournament pause")).error == "Only the organizer — Ann — can do that."
    paused = await service.handle(PLACE, ANN, "/tournament pause")
    assert paused.error is None
    assert paused.public == ["⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break. (clock paused)"]
    before = dump(service.store.location)
    again = await service.handle(PLACE, ANN, "/tournament pause")
    assert again.error == "The clock is already paused." and again.public == [] and again.private == {}
    assert dump(service.store.location) == before, "pausing twice changed something"
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    assert resumed.error is None
    assert resumed.public == ["⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."]
    status = await service.handle(PLACE, CAT, "/tournament status")
    assert status.public == [] and status.private == {
        "cat": ["⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."]}
    before = dump(service.store.location)
    for odd in ("x", "+-5", "²", "99999999999999"):  # answered with a usage line, not an exception
        refused = await service.handle(PLACE, ANN, f"/tournament minutes {odd}")
        assert refused.error == "Usage: /tournament minutes +5 | -5", odd
        assert refused.public == [] and refused.private == {}, odd
    assert dump(service.store.location) == before, "a refused /tournament minutes changed something"
    assert (await service.handle(PLACE, ANN, "/tournament frobnicate")).error == (
        "Usage: /tournament create [preset or schedule] [rebuys N] [addon [N]] [reentry] [bounty M] [pawns N] | "
        "register | start | pause | resume | skip | minutes +N|-N | status | clock | cashout | redeem [item number] | "
        "rebuy | addon | close")
    skipped = await service.handle(PLACE, ANN, "/tournament skip")
    assert skipped.error is None, skipped.error
    assert skipped.public == ["⏸ Break until 20:00 (2h00m left)."]


async def test_an_absent_player_is_blinded_off_so_the_tournament_still_ends(store: Store) -> None:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=9)
    await night_registered(service, (ANN, BOB), structure=None)
    reply = await service.handle(PLACE, ANN, "/tournament start")
    heard = listen(service)
    for _ in range(100):  # Bob never answers: two time-outs sit him out (and his turns pass at once from then on)
        if "sitting out" in everything_said(heard):
            break
        if reply.table is not None and reply.table.to_act == "ann":
            reply = await service.press(PLACE, ANN, press_label(reply, "check", "call"))
            continue
        clock.advance(61)  # Bob's turn, then his time bank, runs out (or, between hands, the next is dealt)
        await service.scheduler.fire_due()
        reply = await service.handle(PLACE, ANN, "/table")
    else:
        pytest.fail("Bob was never sat out")
    for _ in range(2000):
        settled = await service.handle(PLACE, BOB, "/tournament close")  # refused to him until it is over
        if settled.error is None:
            break
        view = await service.handle(PLACE, ANN, "/table")
        if view.table is not None and view.table.to_act == "ann":
            await service.press(PLACE, ANN, press_label(view, "check", "call"))
        clock.advance(5)
        await service.scheduler.fire_due()
    else:
        pytest.fail("the tournament never ended with an absent player")
    assert settled.public == ["🏆 The tournament is over. Winner: Ann!\nPlaces: 1. Ann · 2. Bob",
                              "Settlement (money units):\n"
                              "Ann: paid 50, cashed out 100, net +50\n"
                              "Bob: paid 50, cashed out 0, net −50\n"
                              "Payments:\n"
                              "Bob → Ann: 50"]
    assert await store.read(lambda tx: tx.check_ledger()) == []


async def test_a_break_ending_half_a_minute_past_is_announced_at_its_real_minute(store: Store) -> None:
    clock = FakeClock(at(19, 40, 30))
    service = await started_service(store, clock, seed=5)
    assert (await service.handle(PLACE, ANN, "/tournament create 10/20 10m; break 10m; 20/40")).error is None
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    heard = listen(service)
    for minute, second in ((45, 30), (49, 30), (50, 30)):
        clock.current = at(19, minute, second)
        await service.scheduler.fire_due()
    assert public_lines(heard) == ["⏱ Break in 5 minutes.", "⏱ Break in 1 minute.", "⏸ Break until 20:00:30."]
    status = await service.handle(PLACE, BOB, "/clock")
    assert status.public == ["⏸ Break until 20:00:30 (10m left)."]


async def test_the_clock_names_the_break_next_when_a_level_s_end_time_will_have_passed(store: Store) -> None:
    """10/20 for 20 minutes from 18:45 ends at 19:05, after 20/40's end time (19:00): 20/40 never happens. `/clock`
    said "next: 20/40" while the clock announced the break five minutes later."""
    clock = FakeClock(at(18, 45))
    service = await started_service(store, clock, seed=5)
    created = await service.handle(PLACE, ANN, "/tournament create 10/20 20m; 20/40 until 19:00; break until 20:00; "
                                                "50/100")
    assert created.error is None, created.error
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/tournament start")).error is None
    clock.advance(5 * 60)
    status = await service.handle(PLACE, BOB, "/clock")
    assert status.public == ["⏱ Level 1: limits 10/20 (blinds 5/10), 15m left; next: break."]


async def test_a_time_zone_set_before_the_start_moves_the_tournament_s_times_and_after_it_is_said_to_wait(
        store: Store) -> None:
    """`/set timezone` after `/tournament create` said "Setting changed" while the tournament went on reading "until
    19:00" in the zone it was created in (UTC): the break came at 22:00 in Moscow. Before the start it moves the
    tournament's times; once the clock runs, its appointments stand and the table is told the new zone waits for
    the next tournament."""
    clock = FakeClock(at(15, 0))  # 18:00 in Moscow
    service = await started_service(store, clock, seed=5)
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    moved = await service.handle(PLACE, ANN, "/set timezone europe/moscow")
    assert moved.public == ["Setting changed: time zone — Europe/Moscow.",
                            "Tournament #1 now runs on Europe/Moscow time. Schedule: 10/20 until 19:00; break until "
                            "20:00; 50/100."]
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.public == ["⏱ Level 1: limits 10/20 (blinds 5/10), 1h00m left; next: break."]
    await service.handle(PLACE, ANN, "/lang ru")
    kept = await service.handle(PLACE, ANN, "/set timezone Asia/Tokyo")
    assert kept.public[-1] == ("Турнир №1 уже идёт: его часы остаются по времени Europe/Moscow; новый часовой пояс "
                               "будет у следующего турнира.")
    restarted = await started_service(store, clock, seed=6)
    assert (await restarted.handle(PLACE, BOB, "/clock")).public == [
        "⏱ Уровень 1: лимиты 10/20 (блайнды 5/10), осталось 1\xa0ч\xa000\xa0мин; дальше: перерыв."]
    await ledger_ok(restarted)


@counts_the_games_calls
async def test_a_tournament_deal_reads_the_clock_s_level_once(night, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit, the level's number for the hand's record and its index for the time banks come from one reading
    of the clock (they were three, each loading the tournament again), and the hand is dealt at that level."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, ("check", "call"))
    readings = calls_to(monkeypatch, Clock, "level_at")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None and dealt.table is not None and dealt.table.to_act
    assert len(readings) == 1
    assert dealt.table.text == hand_two_dealt("home-limit")  # level 1: limits 10/20


@counts_the_games_calls
async def test_a_tournament_deal_loads_the_tournament_once(night, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock's level and the pawn value a hand accepts come from one load of the tournament (the pawn rule loaded
    it a second time on every deal), and the hand still takes a pawn worth the tournament's value."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, ("check", "call"))
    loads = calls_to(monkeypatch, Tournament, "from_dict")  # each a load of the table's tournament
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None and dealt.table is not None and dealt.table.to_act
    assert len(loads) == 1
    live = service.live_state(PLACE.table_id)
    assert live is not None
    assert json.loads(live)[1]["hand"]["pawn_rules"]["value"] == 100, "a third of the 300 chips' starting stack"


@counts_the_games_calls
async def test_a_table_drawn_while_a_player_is_short_of_the_call_does_not_load_the_tournament(
        night, decks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The line that tells a player short of the call he may pawn loaded the tournament on every drawing of the table
    (every action at it while he was short): who has pawned all he may is kept with the deal, and with each pawn.
    The line still shows while he may pawn, and goes once his third item is pawned."""
    service, clock = night
    await cat_short_of_the_call(service, clock, decks)
    loads = calls_to(monkeypatch, Tournament, "from_dict")  # each a load of the table's tournament
    for _ in range(3):
        drawn = await service.handle(PLACE, CAT, "/table")
        assert drawn.table is not None and drawn.table.to_act == "cat" and drawn.table.text == CAT_SHORT.format(
            stack=280, pawned="", line=MAY_PAWN)
    assert loads == []
    await play(service, (CAT, "/pawn leather jacket"), (CAT, "/pawn wool coat"))
    drawn = await service.handle(PLACE, CAT, "/table")
    assert drawn.table is not None and drawn.table.text == CAT_SHORT.format(  # two items pawned: a third may be
        stack=480, pawned="Cat pawns “leather jacket” for 100 chips.\nCat pawns “wool coat” for 100 chips.\n",
        line=MAY_PAWN)
    await play(service, (CAT, "/pawn sweater"))
    drawn = await service.handle(PLACE, CAT, "/table")
    assert drawn.table is not None and drawn.table.to_act == "cat" and drawn.table.text == CAT_SHORT.format(
        stack=580, pawned="Cat pawns “leather jacket” for 100 chips.\nCat pawns “wool coat” for 100 chips.\n"
        "Cat pawns “sweater” for 100 chips.\n", line="")  # no more pawns; who posted the blinds still said


@pytest.mark.parametrize(("language", "created", "status"), [
    ("en", "Options: at most 1 item pawned per player.",
     "Registration open: Ann, Bob, Cat.\nOptions: at most 1 item pawned per player."),
    ("ru", "Опции: в залог — не больше 1 вещи на игрока.",
     "Идёт регистрация: Ann, Bob, Cat.\nОпции: в залог — не больше 1 вещи на игрока."),
])
async def test_the_organizer_sets_the_pawn_limit_and_a_player_at_it_is_refused_with_it(
        store: Store, decks: list[str], language: str, created: str, status: str) -> None:
    """RULES.md §1: at most three items per player per tournament, a setting: `pawns 1` at the creation says so,
    the status says so, and a second item is refused with the limit (the line offering a pawn goes with the first)."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    await service.handle(PLACE, ANN, f"/lang {language}")
    made = await night_registered(service, (ANN, BOB, CAT), "home-night pawns 1" if language == "en" else
                                  "home-night залоги 1", structure=None)
    assert made.public[1:] == [created]
    assert (await service.handle(PLACE, CAT, "/tournament status")).private == {"cat": [status]}
    await service.handle(PLACE, ANN, "/lang en")
    await cat_short_of_the_call(service, clock, decks)
    drawn = await service.handle(PLACE, CAT, "/table")
    assert drawn.table is not None and drawn.table.text == CAT_SHORT.format(stack=280, pawned="", line=MAY_PAWN)
    await play(service, (CAT, "/pawn leather jacket"))
    drawn = await service.handle(PLACE, CAT, "/table")
    assert drawn.table is not None and drawn.table.text == CAT_SHORT.format(
        stack=380, pawned="Cat pawns “leather jacket” for 100 chips.\n", line="")
    await refused_without_change(service, CAT, "/pawn wool coat", {
        "en": "You have pawned 1 item, the most this tournament allows per player.",
        "ru": "Вы уже заложили 1 вещь — больше в этом турнире нельзя."})
    await ledger_ok(service)


async def test_a_tournament_without_pawning_offers_none_and_refuses_a_pawn_from_anyone(
        store: Store, decks: list[str]) -> None:
    """`pawns 0`: no line offers a pawn to a player short of the call, and `/pawn` is refused with the reason,
    whoever asks and whenever (as at a cash table), changing nothing."""
    service, clock = await night_of(store, "home-night pawns 0")
    status = await service.handle(PLACE, CAT, "/tournament status")
    assert status.private == {"cat": ["Registration open: Ann, Bob, Cat.\nOptions: no pawning."]}
    await cat_short_of_the_call(service, clock, decks)
    drawn = await service.handle(PLACE, CAT, "/table")
    assert drawn.table is not None and drawn.table.text == CAT_SHORT.format(stack=280, pawned="", line="")
    for actor in (CAT, ANN):  # Cat to act and short, Ann all-in
        await refused_without_change(service, actor, "/pawn leather jacket", {
            "en": "This tournament takes no pawned items: the organizer created it without pawning.",
            "ru": "В этом турнире вещи в залог не принимают: организатор создал его без залогов."})
    await ledger_ok(service)


async def test_help_shows_the_add_on_count_as_optional(store: Store) -> None:
    """`/help tournament` showed "addon N", as if the count were needed: "addon" alone offers one add-on each."""
    service = await started_service(store, FakeClock(SIX_PM), seed=5)
    assert (await service.handle(PLACE, ANN, "/help tournament")).private == {"ann": [
        "/tournament create [preset or schedule] [rebuys N] [addon [N]] [reentry] [bounty M] [pawns N] | register | "
        "start | pause | resume | skip | minutes +N|-N | status | clock | cashout | redeem [item number] | rebuy | "
        "addon | close\n"
        "tournament commands (the organizer's: create, start, pause, resume, skip, minutes, close)"]}
    created = await service.handle(PLACE, ANN, "/tournament create home-night addon")
    assert created.error is None and created.public == [
        "Tournament #1 created. Schedule (UTC): 10/20 until 19:00; break until 20:00; 50/100. Buy-in 50 for 300 "
        "chips: /join to register; the organizer starts it with /tournament start.",
        "Options: 1 add-on per player at the first break; an add-on costs 50 for 300 chips."]
    assert created.error is None and created.public[-1].startswith("Options: 1 add-on per player at the first break;")


@counts_the_games_calls
async def test_the_seats_between_hands_load_the_tournament_once(night, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table message between hands (the seats, the Deal button, the rebuy and add-on offers, why no hand is
    dealt) reads the table's tournament once, where asking whether the clock stops play loaded it again."""
    service, _ = night
    started = await service.handle(PLACE, ANN, "/tournament start")
    await play_out(service, PLACE, PLAYERS, started, ("check", "call"))
    loads = calls_to(monkeypatch, Tournament, "from_dict")  # each a load of the table's tournament
    drawn = await service.handle(PLACE, ANN, "/table")
    assert drawn.error is None and drawn.table is not None and drawn.table.to_act is None
    assert len(loads) == 1
