"""Table pictures: a golden picture checked pixel by pixel in a few regions, the view models holding only public
cards, and the `pictures` setting."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import random
import threading
from dataclasses import astuple

import pytest
from PIL import Image, ImageChops, ImageDraw

import bot.service as service_module
from bot.clock import FakeClock
from bot.i18n import text
from bot.output import Reply
from bot.render import Voice
from bot.render.house import table_text
from bot.render.picture import (
    CARD_BACK,
    CARD_FACE,
    FELT,
    HIGHLIGHT,
    MARGIN,
    WIDTH,
    HandView,
    SeatView,
    TableView,
    draw_table,
    font,
    layout,
    render_hand,
    render_table,
)
from bot.render.picture_views import holdem_view, house_view
from bot.service import Service
from bot.terminal import TerminalAdapter
from engine import holdem as engine
from engine.betting import HOME_LIMIT, POT_LIMIT
from engine.cards import Deck
from engine.house import GAMES
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import play_out

GOLDEN = TableView(
    title="Hold'em — hand #7",
    board=("Ah", "7c", "Td"),
    pot=120,
    pot_label="Pot",
    seats=(
        SeatView("Ann", stack=380, bet=20, is_button=True),
        SeatView("Bob", stack=0, note="all-in", is_to_act=True),
        SeatView("Cat", stack=150, is_folded=True, note="folded"),
    ),
    footer="Bob to act",
)


def image_of(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def count(image: Image.Image, box: tuple[int, int, int, int], test) -> int:
    colours = image.crop(box).getcolors(1 << 20) or []
    return sum(number for number, pixel in colours if test(pixel))


def near(pixel: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    """Within a few steps of a colour: pictures are saved with a palette, which may shift a colour slightly."""
    return all(abs(a - b) <= 12 for a, b in zip(pixel, colour, strict=True))


def is_red(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 150 and g < 90 and b < 90


def test_the_golden_picture() -> None:
    spots = layout(GOLDEN)
    image = image_of(render_table(GOLDEN))
    assert image.size == spots.size and image.size[0] == 720
    width, height = image.size
    for corner in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        assert near(image.getpixel(corner), FELT)
    ace = spots.board[0]  # the ace of hearts: a white face with red on it
    assert near(image.getpixel((ace[2] - 9, ace[1] + 9)), CARD_FACE)
    assert count(image, ace, is_red) > 150
    club = spots.board[1]  # the seven of clubs: white, and no red at all
    assert near(image.getpixel((club[2] - 9, club[1] + 9)), CARD_FACE)
    assert count(image, club, is_red) == 0
    assert count(image, spots.board[2], is_red) > 100  # the ten of diamonds
    for empty in spots.board[3:]:  # turn and river not dealt: empty places on the felt
        middle = ((empty[0] + empty[2]) // 2, (empty[1] + empty[3]) // 2)
        assert near(image.getpixel(middle), FELT)
    for index, spot in enumerate(spots.seats):  # a highlight around the player to act only
        top_edge = ((spot.frame[0] + spot.frame[2]) // 2, spot.frame[1] + 1)
        assert near(image.getpixel(top_edge), HIGHLIGHT) == GOLDEN.seats[index].is_to_act
    button_seat = spots.seats[0].frame  # the dealer button: a white disc in Ann's corner
    assert count(image, (button_seat[0] + 14, button_seat[1] + 10, button_seat[0] + 37, button_seat[1] + 33),
                 lambda pixel: near(pixel, (250, 250, 250))) > 100


def test_face_down_cards_and_a_dealer_row() -> None:
    view = TableView(title="Russian Poker — round 1", board_slots=0, dealer=(None, None, None, None, "Qs"),
                     dealer_label="Dealer", seats=(SeatView("Ann · box 1", bet=10, note="deciding", is_to_act=True),))
    spots = layout(view)
    image = image_of(render_table(view))
    assert len(spots.dealer) == 5 and spots.board == ()
    for hidden in spots.dealer[:4]:
        assert near(image.getpixel(((hidden[0] + hidden[2]) // 2, (hidden[1] + hidden[3]) // 2)), CARD_BACK)
    queen = spots.dealer[4]
    assert near(image.getpixel((queen[2] - 9, queen[1] + 9)), CARD_FACE)
    assert count(image, queen, is_red) == 0


def test_a_private_picture_of_own_cards() -> None:
    image = image_of(render_hand(HandView("Your cards", (("Hand", ("Kh", "Kd")), ("Board", ("2c", "3c", "4c"))))))
    assert near(image.getpixel((0, 0)), FELT)
    assert count(image, (0, 0, image.size[0], image.size[1]), is_red) > 200


def test_names_that_do_not_fit_are_cut() -> None:
    view = TableView(title="x" * 300, seats=(SeatView("Ω" * 200, stack=10**12, bet=10**9, note="n" * 200,
                                                      cards=("As", "Ks")),))
    assert image_of(render_table(view)).size == layout(view).size


def test_a_long_title_name_and_note_stay_in_their_places() -> None:
    """Drawn with 200-character texts and with one-character ones, the two pictures differ only inside the boxes
    the layout gives the title, the first seat's name and its note; each long text is cut to end inside its seat
    (short of the bet's pill on its line); the neighbouring seat is untouched."""
    def view(title: str, name: str, note: str) -> TableView:
        return TableView(title=title, seats=(SeatView(name, stack=10, bet=30, note=note),
                                             SeatView("Bob", stack=5, bet=20, cards=("As", "Ks"))))

    long, short = view("x" * 300, "Ω" * 200, "n" * 200), view("x", "Ω", "n")
    spots, small = layout(long), layout(short)
    assert spots.size == small.size and spots.seats[1] == small.seats[1]
    seat = spots.seats[0]
    assert seat.name.text.endswith("…") and seat.note is not None and seat.note.text.endswith("…")
    assert seat.bet is not None and seat.note.box[2] < seat.bet[0]
    assert spots.title.box[2] <= WIDTH - MARGIN and seat.name.box[2] <= seat.frame[2] - 14
    difference = ImageChops.difference(draw_table(long), draw_table(short))  # before the palette: exact colours
    outside = difference.copy()
    for spot in (spots, small):
        for drawn in (spot.title, spot.seats[0].name, spot.seats[0].note):
            assert drawn is not None
            x0, y0, x1, y1 = drawn.box
            ImageDraw.Draw(outside).rectangle((x0, y0, x1 - 1, y1 - 1), fill=(0, 0, 0))
    assert difference.getbbox() is not None
    assert outside.getbbox() is None, "a long text spilled out of its place"


# --- worst-case lengths: nothing overlaps ---------------------------------------------------------------------

NAMES = {  # 24 characters: the widest letters of each alphabet, and real names
    "en": ("W" * 24, "Maximilian Worthington-S", "Player number 10"),
    "ru": ("Ш" * 24, "Александра Константинова", "Игорь"),
}
NOTES = {"en": ("W" * 20, "settled +10000", "folded"), "ru": ("Щ" * 20, "рассчитан +10000", "пас")}
BOX = {"en": " · box 3", "ru": " · бокс 3"}


def intersect(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def worst_case_views(language: str, stack: int = 1_000_000_000, bet: int = 100_000_000) -> list[TableView]:
    """A house round and a Hold'em hand with the longest names and notes (and by default absurdly large chips)."""
    house = TableView(
        title=("Русский покер — раунд 123456" if language == "ru" else "Russian Poker — round 123456"),
        board_slots=0, dealer=("9s", "Jd", "Qc", "Kh", "2s", None), dealer_label=text(language, "picture.dealer"),
        seats=tuple(SeatView(name + BOX[language], bet=1_000_000, note=note, is_to_act=index == 0,
                             cards=("As", "Ad", "Kc", "Kh", "3s", "2d"))
                    for index, (name, note) in enumerate(zip(NAMES[language], NOTES[language], strict=True))),
        footer="▶ " + NAMES[language][0], language=language)
    holdem = TableView(
        title="Hold'em — hand #123456 · blinds 50000/100000 · no-limit", board=("Ah", "Kd", "7c", "Ts", "2h"),
        pot=123_456_789, pot_label=text(language, "picture.pot"),
        seats=tuple(SeatView(name, stack=stack, bet=bet, note=note, is_button=True,
                             is_to_act=True, cards=("Ah", "Kh", "Qh", "Jh"))
                    for name, note in zip(NAMES[language], NOTES[language], strict=True)),
        footer=text(language, "picture.winners", players=", ".join(NAMES[language]), hand="Ш" * 20),
        language=language)
    return [house, holdem]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_worst_case_names_and_notes_never_overlap(language: str) -> None:
    """Names of 24 characters (plus the box) and notes of 20, in the widest letters of each alphabet, with the
    largest numbers, the button and six cards: no two parts of a seat overlap, each stays in its seat, and no text,
    card or seat overlaps another or leaves the picture."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for view in worst_case_views(language):
        spots = layout(view)
        picture = (0, 0, *spots.size)
        assert image_of(render_table(view)).size == spots.size
        for drawn in spots.texts():  # each box is the one Pillow gives for the text drawn there
            assert drawn.box == measure.textbbox(drawn.xy, drawn.text, font=font(drawn.size), anchor=drawn.anchor)
        for seat in spots.seats:
            parts = seat.parts()
            assert {"name", "note", "bet", "card 1", "card 6" if len(seat.cards) == 6 else "card 4"} <= set(parts)
            for what, box in parts.items():
                assert inside(box, seat.frame), f"{what} {box} leaves its seat {seat.frame}"
            for first, second in itertools.combinations(parts.items(), 2):
                assert not intersect(first[1], second[1]), f"{first} overlaps {second}"
            assert seat.bet_text is not None and inside(seat.bet_text.box, seat.bet)
        outer = [(drawn.role, drawn.box) for drawn in (spots.title, spots.dealer_label, spots.pot, spots.footer)
                 if drawn is not None]
        outer += [("pot chip", spots.pot_chip)] if spots.pot_chip else []
        outer += [("card", box) for box in (*spots.dealer, *spots.board)]
        outer += [("seat", seat.frame) for seat in spots.seats]
        for what, box in outer:
            assert inside(box, picture), f"{what} {box} leaves the picture"
        for first, second in itertools.combinations(outer, 2):
            assert not intersect(first[1], second[1]), f"{first} overlaps {second}"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_24_letter_name_and_a_20_letter_note_are_shown_whole(language: str) -> None:
    """Real names of 24 letters with the box, and notes like "settled +10000", are drawn whole (smaller if need
    be) beside a stack and a bet of six digits; only texts wider than any real name are cut."""
    for view in worst_case_views(language, stack=250_000, bet=100_000):
        for seat, spot in zip(view.seats[1:], layout(view).seats[1:], strict=True):
            assert (spot.name.text, spot.note.text if spot.note else None) == (seat.name, seat.note)


def test_each_part_is_drawn_inside_its_box_and_apart() -> None:
    """Drawn alone on a seat, the name, the note, the bet and the cards each change pixels only inside the box the
    layout gives it, and no two of them touch the same pixels."""
    name, note = NAMES["ru"][1] + BOX["ru"], NOTES["ru"][1]
    cards = ("As", "Ad", "Kc", "Kh", "3s", "2d")

    def view(seat: SeatView) -> TableView:  # a second seat with cards: every variant has the same size
        return TableView(title="t", board_slots=0, seats=(seat, SeatView("x", cards=("2c",))))

    empty = draw_table(view(SeatView("")))
    full = layout(view(SeatView(name, bet=1_000_000, note=note, cards=cards))).seats[0]
    assert full.note is not None and full.bet is not None
    drawn = {}
    for what, seat, allowed in (("name", SeatView(name), full.name.box),
                                ("note", SeatView("", note=note), full.note.box),
                                ("bet", SeatView("", bet=1_000_000), full.bet),
                                ("cards", SeatView("", cards=cards), (*full.cards[0][:2], *full.cards[-1][2:]))):
        changed = ImageChops.difference(draw_table(view(seat)), empty).getbbox()
        assert changed is not None and inside(changed, allowed), f"the {what} is drawn at {changed}, not {allowed}"
        drawn[what] = changed
    for (first, a), (second, b) in itertools.combinations(drawn.items(), 2):
        assert not intersect(a, b), f"the {first} ({a}) and the {second} ({b}) touch"


def test_cyrillic_is_drawn_with_real_letters() -> None:
    """The font the pictures use has Cyrillic letters: Ж and Щ come out as two different shapes, neither the box
    a font draws for a letter it lacks."""
    used = font(18)
    masks = {letter: bytes(used.getmask(letter)) for letter in ("Ж", "Щ", "\U000e0ffe")}
    assert len(set(masks.values())) == 3


# --- only public information ----------------------------------------------------------------------------------


def talk(language: str = "en") -> Voice:
    """The two things the view builders ask of an action: text in a language (English by default) and a player's
    name (his id in title case)."""
    return Voice(language, str.title)


def strings_of(view: TableView) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    walk(astuple(view))
    return found


def test_a_holdem_view_shows_no_hole_cards_until_the_showdown() -> None:
    players = [engine.SeatPlayer(name, 200) for name in ("ann", "bob", "cat")]
    hand, _ = engine.Hand.start(players, 0, 20, HOME_LIMIT, Deck(random.Random(3)), 1)
    hole = {player: {str(card) for card in hand.hole_cards(player)} for player in hand.players}
    secret = set().union(*hole.values())
    streets = 0
    while not hand.is_over:
        view = holdem_view(talk(), hand)
        assert not strings_of(view) & secret, "a hole card in the public picture"
        assert all(seat.cards == () for seat in view.seats)
        assert view.board == tuple(str(card) for card in hand.board)
        assert [seat.is_to_act for seat in view.seats].count(True) == 1
        legal = hand.legal_actions()
        player = hand.to_act
        assert player is not None
        events = hand.act(player, engine.Check() if legal.can_check else engine.Call())
        streets += sum(isinstance(event, engine.BoardDealt) for event in events)
    assert streets == 3
    final = holdem_view(talk(), hand)
    assert hand.result is not None and hand.result.went_to_showdown
    for seat, player in zip(final.seats, hand.players, strict=True):
        assert set(seat.cards) == hole[player]  # shown at the showdown: public now
    assert final.pot == 60 and all(seat.bet == 0 for seat in final.seats)


@pytest.mark.parametrize(("language", "seed"), [("en", 3), ("ru", 3), ("en", 11), ("ru", 11)])
def test_the_showdown_picture_shows_every_hand_and_names_the_winning_one(language: str, seed: int) -> None:
    """At the showdown every player still in has his cards on his seat; the winner's seat and the footer name the
    winning hand (in the chat's language), and the seats' parts still do not overlap."""
    players = [engine.SeatPlayer(name, 200) for name in ("ann", "bob", "cat")]
    hand, _ = engine.Hand.start(players, 0, 20, HOME_LIMIT, Deck(random.Random(seed)), 1)
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        hand.act(player, engine.Check() if hand.legal_actions().can_check else engine.Call())
    voice = talk(language)
    view = holdem_view(voice, hand)
    assert hand.result is not None and hand.result.went_to_showdown
    main = hand.result.pots[0]
    assert main.category is not None
    name = text(language, "hand." + main.category.replace(" ", "_"))
    assert name != main.category or language == "en"
    for seat, player in zip(view.seats, hand.players, strict=True):
        assert seat.cards == tuple(str(card) for card in hand.hole_cards(player))
        assert seat.note.endswith(f" · {name}") == (player in main.winners), seat.note
    winners = ", ".join(voice.name(player) for player in main.winners)
    key = "picture.winner" if len(main.winners) == 1 else "picture.winners"
    assert view.footer == text(language, key, players=winners, hand=name)
    spots = layout(view)
    for seat in spots.seats:
        assert len(seat.cards) == 2
        for first, second in itertools.combinations(seat.parts().values(), 2):
            assert not intersect(first, second)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_omaha_showdown_picture_shows_four_cards_a_seat_apart(language: str) -> None:
    """Omaha: the title names the game, each seat still in shows its four cards, and nothing overlaps."""
    players = [engine.SeatPlayer(name, 200) for name in ("ann", "bob", "cat", "dan", "eve", "fay")]
    hand, _ = engine.Hand.start(players, 0, 20, POT_LIMIT, Deck(random.Random(5)), 1, variant=engine.Variant.OMAHA)
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        hand.act(player, engine.Check() if hand.legal_actions().can_check else engine.Call())
    view = holdem_view(talk(language), hand)
    assert view.title == text(language, "holdem.title_omaha", number=1, small=10, big=20,
                              structure=text(language, "structure.pot-limit"))
    assert [len(seat.cards) for seat in view.seats] == [4] * 6
    spots = layout(view)
    parts = [(index, part) for index, seat in enumerate(spots.seats) for part in seat.parts().values()]
    for (one, first), (other, second) in itertools.combinations(parts, 2):
        assert one == other or not intersect(first, second)
    for seat in spots.seats:
        assert len(seat.cards) == 4
        for first, second in itertools.combinations(seat.parts().values(), 2):
            assert not intersect(first, second)
        assert all(seat.frame[0] <= card[0] and card[2] <= seat.frame[2] for card in seat.cards)


def test_a_folded_hand_shows_nobody_s_cards() -> None:
    players = [engine.SeatPlayer(name, 200) for name in ("ann", "bob")]
    hand, _ = engine.Hand.start(players, 0, 20, HOME_LIMIT, Deck(random.Random(5)), 1)
    player = hand.to_act
    assert player is not None
    hand.act(player, engine.Fold())
    view = holdem_view(talk(), hand)
    secret = {str(card) for player in hand.players for card in hand.hole_cards(player)}
    assert hand.is_over and not strings_of(view) & secret


def test_a_russian_view_shows_one_dealer_card_and_no_box_cards_until_the_end() -> None:
    round_ = GAMES["russian"].new()  # type: ignore[attr-defined]
    for player in ("ann", "bob"):
        round_.place_bets(player, 1, 10, balance=500)
    round_.deal(Deck(random.Random(9)))
    view = house_view(talk(), "russian", round_, 1)
    secret = {str(card) for box in round_.boxes for card in box.cards} | {str(card) for card in round_.dealer[:-1]}
    assert not strings_of(view) & secret
    assert view.dealer == (None, None, None, None, str(round_.dealer[-1]))
    assert all(seat.cards == () for seat in view.seats)
    while not round_.is_over:
        player, _ = round_.to_act
        names = round_.legal_actions().names
        round_.act(player, next(name for name in ("play", "bet", "decline", "fold") if name in names))
    final = house_view(talk(), "russian", round_, 1)
    assert None not in final.dealer and len(final.dealer) == 5


def test_russian_dealer_game_shows_all_five_dealer_cards_in_the_text_and_the_picture() -> None:
    round_ = GAMES["russian"].new()  # type: ignore[attr-defined]
    round_.place_bets("ann", 1, 10, balance=500)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  Qs Jd 9d 5c 3s  Kd"))
    dealer_line = "Dealer: ▢ ▢ ▢ ▢ 3♠"
    assert dealer_line in table_text(talk(), "russian", round_, 1).splitlines()
    assert house_view(talk(), "russian", round_, 1).dealer == (None, None, None, None, "3s")
    round_.act("ann", "play")  # the dealer has no game: his five cards are shown and the player may buy him one
    assert "Dealer: Q♠ J♦ 9♦ 5♣ 3♠" in table_text(talk(), "russian", round_, 1).splitlines()
    view = house_view(talk(), "russian", round_, 1)
    assert view.dealer == ("Qs", "Jd", "9d", "5c", "3s")


def test_a_three_card_box_shows_its_pairplus_in_the_picture_after_the_deal_settled_it() -> None:
    """The picture's bet is what the box bet this round, as the text table shows it: Ann's PAIRPLUS 5, settled (lost)
    when the cards are dealt, still counts beside her ANTE 10; Bob bet PAIRPLUS 10 alone."""
    round_ = GAMES["three-card"].new()  # type: ignore[attr-defined]
    round_.place_bets("ann", 1, 10, side=5, balance=500)
    round_.place_bets("bob", 1, 0, side=10, balance=500)
    round_.deal(Deck.stacked("7s 4d 2c  9h 5c 3d  Ah Kh Qh"))  # no pair for either: both PAIRPLUS bets lose at once
    view = house_view(talk(), "three-card", round_, 1)
    assert [seat.bet for seat in view.seats] == [15, 10]


def test_texas_text_and_picture_show_the_open_community_cards_and_the_places_of_the_others() -> None:
    round_ = GAMES["texas"].new()  # type: ignore[attr-defined]
    round_.place_bets("ann", 1, 10, balance=500)
    round_.deal(Deck.stacked("Ah Ad  Ks Qd  Kc 7d 2s Ac 3h"))
    assert table_text(talk(), "texas", round_, 1).splitlines() == [
        "Texas Poker — round 1", "Dealer: ▢ ▢", "Board: K♣ 7♦ 2♠ 🂠 🂠", "▶ Ann · box 1 · ANTE 10 · deciding",
        "▶ Ann, box 1: your decision."]
    view = house_view(talk(), "texas", round_, 1)
    assert (view.board, view.board_slots, view.dealer) == (("Kc", "7d", "2s"), 5, (None, None))


# --- the setting, through the service --------------------------------------------------------------------------


async def play_a_hand(service: Service) -> list[Reply]:
    players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
    for actor in players.values():
        await service.handle(PLACE, actor, "/join 200")
    reply = await service.handle(PLACE, ANN, "/deal")
    return await play_out(service, PLACE, players, reply, preference=("check", "call"))


async def test_a_picture_is_sent_at_the_showdown_by_default(service: Service) -> None:
    replies = await play_a_hand(service)  # the table message tells the streets: no picture of each
    captions = [picture.caption for reply in replies for picture in reply.pictures]
    assert captions == ["Hand #1 · showdown"]
    assert replies[-1].pictures and replies[-1].table is not None and replies[-1].table.to_act is None
    assert all(picture.to is None for reply in replies for picture in reply.pictures)


async def test_pictures_streets_sends_one_at_each_street_and_the_showdown(service: Service) -> None:
    await service.handle(PLACE, ANN, "/join 200")
    assert (await service.handle(PLACE, ANN, "/set pictures streets")).error is None
    replies = await play_a_hand(service)
    captions = [picture.caption for reply in replies for picture in reply.pictures]
    assert captions == ["Hand #1 · flop", "Hand #1 · turn", "Hand #1 · river", "Hand #1 · showdown"]
    assert all(picture.to is None for reply in replies for picture in reply.pictures)


async def test_pictures_off_sends_none(service: Service) -> None:
    await service.handle(PLACE, ANN, "/join 200")
    turned_off = await service.handle(PLACE, ANN, "/set pictures off")
    assert turned_off.error is None
    replies = await play_a_hand(service)
    assert [reply.pictures for reply in replies] == [[]] * len(replies)
    cards = await service.handle(PLACE, BOB, "/cards")
    assert cards.private[BOB.user_id] and cards.pictures == []


async def test_a_bad_pictures_value_is_refused(service: Service) -> None:
    await service.handle(PLACE, ANN, "/join 200")
    refused = await service.handle(PLACE, ANN, "/set pictures maybe")
    assert refused.error == "“maybe” is not a valid value for “pictures” (/set pictures takes on, streets, off)."


async def test_my_cards_comes_as_a_picture_for_the_asker_only(service: Service) -> None:
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 200")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.pictures == []  # hole cards come as text; a picture only when asked
    mine = await service.press(PLACE, BOB, next(b.payload for b in dealt.table.buttons if b.private))
    assert [picture.to for picture in mine.pictures] == [BOB.user_id]
    await service.handle(PLACE, CAT, "/balance")
    nothing = await service.handle(PLACE, CAT, "/cards")
    assert nothing.pictures == []


@pytest.mark.parametrize("setting", ["on", "streets", "off"])
async def test_a_house_table_shows_the_reveal_and_the_deal_with_streets(service: Service, setting: str) -> None:
    await service.handle(PLACE, ANN, "/game russian")
    changed = await service.handle(PLACE, ANN, f"/set pictures {setting}")
    assert changed.error is None
    players = {actor.user_id: actor for actor in (ANN, BOB)}
    for actor in players.values():
        await service.handle(PLACE, actor, "/ante 10")
    dealt = await service.handle(PLACE, BOB, "/deal")
    replies = await play_out(service, PLACE, players, dealt)
    captions = [picture.caption for reply in replies for picture in reply.pictures]
    if setting == "off":
        assert captions == []
    elif setting == "on":  # only the dealer's reveal (here with the settlement): the deal is told in the table
        assert captions == ["Russian Poker — round 1 · settled"]
    else:
        assert captions[0] == "Russian Poker — round 1 · the deal"
        assert captions[-1] == "Russian Poker — round 1 · settled"


async def test_the_terminal_only_names_the_pictures(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "ann: /set pictures streets", "bob: /join", "ann: /deal", "bob: /cards"):
        assert await terminal.say(line)
    for _ in range(8):  # check or call until the flop is dealt
        if "[picture: Hand #1 · flop]" in out.getvalue() or terminal.table is None:
            break
        press = next(i for i, b in enumerate(terminal.buttons, 1) if b.label.split()[0] in ("Check", "Call"))
        await terminal.say(str(press))
    text = out.getvalue()
    assert "[private to bob] [picture: Your cards]" in text.splitlines()
    assert "[table] [picture: Hand #1 · flop]" in text.splitlines()
    assert "\x89PNG" not in text


@pytest.mark.parametrize(("language", "stack", "bet", "pot"), [
    ("en", "12,500", "1,500", "Pot 25,000"),
    ("ru", "12\u00a0500", "1\u00a0500", "Банк 25\u00a0000"),
])
def test_numbers_in_a_picture_are_written_as_the_chats_language_writes_them(language: str, stack: str, bet: str,
                                                                             pot: str) -> None:
    """Stacks, bets and the pot in a picture are grouped as in the chat's messages, not printed bare (12500)."""
    view = TableView(title="t", pot=25_000, pot_label=text(language, "picture.pot"), language=language,
                     seats=(SeatView("Ann", stack=12_500, bet=1_500), SeatView("Bob", stack=1)))
    drawn = layout(view)
    seat = drawn.seats[0]
    assert seat.stack is not None and seat.bet_text is not None and drawn.pot is not None
    assert (seat.stack.text, seat.bet_text.text, drawn.pot.text) == (stack, bet, pot)


async def test_a_press_whose_caller_is_cancelled_while_its_picture_is_drawn_still_arms_the_next_turn(
        service: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flop's picture is drawn after the commit, in a thread; the press that dealt the flop is cancelled there
    (its adapter stopping). The action is kept, so the flop's first player's turn timer must be armed all the same:
    armed only after the drawing, it was left at the preflop turn's deadline and the table would wait for ever."""
    entered, release = threading.Event(), threading.Event()

    def slow_draw(drawings: object) -> list[object]:
        entered.set()
        release.wait(10)
        return []

    monkeypatch.setattr(service_module, "draw", slow_draw)
    players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
    for actor in players.values():
        await service.handle(PLACE, actor, "/join 200")
    assert (await service.handle(PLACE, ANN, "/set pictures streets")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    while True:  # everyone calls or checks preflop; the last one deals the flop, drawn by `slow_draw`
        assert reply.table is not None and reply.table.to_act is not None
        clock.advance(5)  # each action's turn timer is armed 5 s later than the one before
        press = asyncio.create_task(service.handle(PLACE, players[reply.table.to_act], "/call"))
        while not press.done() and not entered.is_set():
            await asyncio.sleep(0.01)
        if entered.is_set():
            break
        reply = press.result()
        if reply.error is not None:  # the big blind owes nothing: he checks
            reply = await service.handle(PLACE, players[reply.table.to_act], "/check")
    press.cancel()
    release.set()
    with contextlib.suppress(asyncio.CancelledError):
        await press
    table = await service.view(PLACE, ANN)
    assert table.table is not None and table.table.to_act is not None  # the flop is dealt: someone to act on it
    turns = [timer for timer in service.scheduler.armed if timer.table_id == PLACE.table_id]
    assert [timer.due_at for timer in turns] == [clock.now() + 60]  # a Hold'em table's turn: 60 s by default
