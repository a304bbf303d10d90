"""Buttons say what they do: no-limit bets in the order min, ½ pot, pot, all-in with their totals; a call or raise
that puts in the whole stack says so on one button; house-game toggles name the exchange and show the card."""

from bot.output import Reply
from bot.service import Service
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import everything_public, ledger_ok


def shown(reply: Reply) -> list[tuple[str, str]]:
    """The public buttons of the player to act as (label, command): not "my cards", not the others' pre-actions."""
    assert reply.table is not None
    commands = [(button.label, button.payload.rsplit("|", 1)[1]) for button in reply.table.buttons
                if not button.private]
    return [(label, command) for label, command in commands if not command.startswith("pre ")]


async def heads_up_no_limit(service: Service) -> Reply:
    """Ann (600, the button and small blind) against Bob (200) at blinds 10/20, no limit; Ann to act."""
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor, chips in ((ANN, 600), (BOB, 200)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    return dealt


async def test_no_limit_bets_come_as_min_half_pot_pot_and_all_in_with_their_totals(service: Service) -> None:
    dealt = await heads_up_no_limit(service)
    # Preflop the pot-sized raise is the call (10) plus the pot after it (40): to 60; half the pot is the min-raise.
    assert shown(dealt) == [("Fold", "fold"), ("Call 10", "call"), ("Raise to 40", "raise 40"), ("Pot: 60", "raise 60"),
                            ("All-in 590", "allin")]
    raised = await service.handle(PLACE, ANN, "/raise 80")
    # Pot 100, call 60: ½ pot is 80 + 160 / 2; the pot raise (to 240) is beyond Bob's 200 and left to All-in.
    assert shown(raised) == [("Fold", "fold"), ("Call 60", "call"), ("Raise to 140", "raise 140"),
                             ("½ pot: 160", "raise 160"), ("All-in 180", "allin")]
    assert (await service.handle(PLACE, BOB, "/call")).error is None
    checked = await service.handle(PLACE, BOB, "/check")
    assert shown(checked) == [("Check", "check"), ("Bet 20", "bet 20"), ("½ pot: 80", "bet 80"),
                              ("Pot: 160", "bet 160"), ("All-in 520", "allin")]
    await service.handle(PLACE, ANN, "/lang ru")
    again = await service.handle(PLACE, ANN, "/table")
    assert [label for label, _ in shown(again)] == ["Чек", "Бет 20", "½ банка: 80", "Банк: 160", "Олл-ин 520"]
    pot = next(button.payload for button in checked.table.buttons if button.label == "Pot: 160")  # type: ignore[union-attr]
    pressed = await service.press(PLACE, ANN, pot)
    assert pressed.error is None and pressed.table is not None and pressed.table.to_act == "bob"
    # A raise that takes the whole stack is one button saying so, with no All-in beside it.
    assert shown(pressed) == [("Пас", "fold"), ("Колл 120 (олл-ин)", "call")]
    await ledger_ok(service)


async def test_a_short_stack_calls_all_in_on_one_button_and_the_story_says_it_once(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set run_it_twice off")).error is None  # the board runs out at once
    await heads_up_no_limit(service)
    raised = await service.handle(PLACE, ANN, "/raise 260")
    assert shown(raised) == [("Fold", "fold"), ("Call 180 (all-in)", "call")]  # the bet is 240 more: he has 180
    called = await service.press(PLACE, BOB, raised.table.buttons[2].payload)  # type: ignore[union-attr]
    assert called.error is None
    assert called.public == [
        "Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker); Ann: 7♠ 2♠ (a pair of jacks, eight kicker)\n"
        "Bob wins the main pot (400) with two pair, jacks and eights, six kicker."]
    assert called.table is not None and called.table.text == (  # the story says all-in once
        "Hold'em — hand #1 · blinds 10/20 · no-limit\n"
        "Board: J♥ 6♣ J♠ 4♠ 8♣ · Pot: 0\n"
        "  Ann · 400 Ⓓ\n"
        "  Bob · 400\n"
        "\n"
        "Bob calls 180, all-in.\n"
        "60 uncalled chips returned to Ann.\n"
        "Flop: J♥ 6♣ J♠\n"
        "Turn: 4♠ (board J♥ 6♣ J♠ 4♠)\n"
        "River: 8♣ (board J♥ 6♣ J♠ 4♠ 8♣)\n"
        "Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker); Ann: 7♠ 2♠ (a pair of jacks, eight kicker)\n"
        "Bob wins the main pot (400) with two pair, jacks and eights, six kicker.\n"
        "The hand is over.")
    await ledger_ok(service)


async def test_a_raise_short_of_the_minimum_that_takes_the_whole_stack_is_one_button(service: Service) -> None:
    await heads_up_no_limit(service)
    await service.handle(PLACE, ANN, "/raise 80")
    await service.handle(PLACE, BOB, "/call")
    await service.handle(PLACE, BOB, "/check")
    bet = await service.handle(PLACE, ANN, "/bet 100")
    assert shown(bet) == [("Fold", "fold"), ("Call 100", "call"), ("Raise to 120 (all-in)", "raise 120")]
    raised = await service.press(PLACE, BOB, bet.table.buttons[3].payload)  # type: ignore[union-attr]
    assert raised.error is None and raised.public == [] and raised.table is not None
    assert raised.table.text == ("Hold'em — hand #1 · blinds 10/20 · no-limit\n"
                                 "Board: J♥ 6♣ J♠ · Pot: 380\n"
                                 "▶ Ann · 420 Ⓓ bet 100\n"
                                 "  Bob · 0 all-in bet 120\n"
                                 "\n"
                                 "Ann raises to 80.\n"
                                 "Bob calls 60.\n"
                                 "Flop: J♥ 6♣ J♠\n"
                                 "Bob checks.\n"
                                 "Ann bets 100.\n"
                                 "Bob raises to 120, all-in.\n"
                                 "▶ Ann to act: 20 to call (⏱ 60\xa0s).")


async def test_the_card_toggles_say_they_choose_the_exchange_without_showing_the_cards(service: Service) -> None:
    await service.handle(PLACE, ANN, "/game russian")
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    toggles = [(label, command) for label, command in shown(dealt) if command.startswith("select")]
    assert toggles == [("Swap: ☐ 1", "select 1"), ("☐ 2", "select 2"), ("☐ 3", "select 3"), ("☐ 4", "select 4"),
                       ("☐ 5", "select 5")]
    cards = dealt.private["ann"][0].split(": ", 1)[1].split()  # Ann's box, told to her alone
    assert len(cards) == 5 and not any(card in label for card in cards for label, _ in shown(dealt))
    assert dealt.table is not None
    second = next(button.payload for button in dealt.table.buttons if button.label == "☐ 2")
    picked = await service.press(PLACE, ANN, second)
    assert [label for label, command in shown(picked) if command.startswith("select")][:2] == ["Swap: ☐ 1", "☑ 2"]
    await service.handle(PLACE, ANN, "/lang ru")
    again = await service.handle(PLACE, ANN, "/table")
    assert next(label for label, command in shown(again) if command.startswith("select")) == "Обмен: ☐ 1"


async def test_cards_marked_for_an_exchange_stay_marked_whoever_redraws_the_table(service: Service) -> None:
    """Bob pressing "My cards" (or anyone's /table) redraws the shared message: Ann's marks and her Swap button
    stay until her decision is taken; the next decision starts unmarked."""
    await service.handle(PLACE, ANN, "/game caribbean")
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/ante 10")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    for label in ("☐ 2", "☐ 5"):
        assert reply.table is not None
        reply = await service.press(PLACE, ANN, next(b.payload for b in reply.table.buttons if b.label == label))
        assert reply.error is None

    def marks(reply: Reply) -> list[str]:
        return [label for label, command in shown(reply) if command.startswith(("select", "exchange"))]

    expected = ["Swap: ☐ 1", "☑ 2", "☐ 3", "☐ 4", "☑ 5", "Swap 2 5 (20)"]
    assert marks(reply) == expected
    assert marks(await service.handle(PLACE, BOB, "/cards")) == expected
    assert marks(await service.handle(PLACE, BOB, "/table")) == expected
    folded = await service.handle(PLACE, ANN, "/fold")
    assert folded.error is None and folded.table is not None and folded.table.to_act == "bob"
    assert "☑" not in " ".join(marks(folded)), "Bob's box starts with nothing marked"


async def test_the_private_view_numbers_the_cards_the_public_toggles_name_by_position(service: Service) -> None:
    await service.handle(PLACE, ANN, "/game russian")
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    cards = dealt.private["ann"][0].split(": ", 1)[1].split()  # Ann's box, told to her alone
    mine = (await service.view(PLACE, ANN)).private["ann"][0]
    numbered = " · ".join(f"{position} {card}" for position, card in enumerate(cards, 1))
    assert mine.endswith(f"Box 1, the card buttons' numbers: {numbered}")
    assert not any(card in everything_public(dealt) for card in cards)
    exchanged = await service.handle(PLACE, ANN, "/exchange 1")
    assert exchanged.error is None
    assert "numbers" not in (await service.view(PLACE, ANN)).private["ann"][0]  # the exchange is behind her


async def test_a_house_buttons_chips_are_written_as_the_tables_lines_write_them(service: Service) -> None:
    """A VIP Three Card box of 2,000: its Play button says 2,000 (Russian «2 000»), as its line and story do."""
    for text in ("/game three-card", "/set tier vip", "/grant @Ann 5000"):
        assert (await service.handle(PLACE, ANN, text)).error is None
    assert (await service.handle(PLACE, ANN, "/ante 2000")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert shown(dealt) == [("Play (2,000)", "play"), ("Fold", "fold")]
    await service.handle(PLACE, ANN, "/lang ru")
    assert shown(await service.handle(PLACE, ANN, "/table"))[0] == ("Играть (2\u00a0000)", "play")
