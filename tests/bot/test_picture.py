"""Table pictures: a golden picture checked pixel by pixel in a few regions, the view models holding only public
cards, and the `pictures` setting."""

from __future__ import annotations

import io
import random
from dataclasses import astuple

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n import text
from bot.output import Reply
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
    layout,
    render_hand,
    render_table,
)
from bot.render.picture_views import holdem_view, house_view
from bot.service import Service
from bot.terminal import TerminalAdapter
from engine import holdem as engine
from engine.betting import HOME_LIMIT
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
    for index, seat in enumerate(spots.seats):  # a highlight around the player to act only
        top_edge = ((seat[0] + seat[2]) // 2, seat[1] + 1)
        assert near(image.getpixel(top_edge), HIGHLIGHT) == GOLDEN.seats[index].is_to_act
    button_seat = spots.seats[0]  # the dealer button: a white disc in Ann's corner
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
    """Drawn with 200-character texts and with one-character ones, the two pictures differ only inside the title's
    line and the first seat's name and note places, each ending short of what the seat keeps for its chips and cards;
    the neighbouring seat is untouched."""
    def view(title: str, name: str, note: str) -> TableView:
        return TableView(title=title, seats=(SeatView(name, stack=10, note=note),
                                             SeatView("Bob", stack=5, bet=20, cards=("As", "Ks"))))

    long, short = view("x" * 300, "Ω" * 200, "n" * 200), view("x", "Ω", "n")
    spots = layout(long)
    assert spots == layout(short)
    difference = ImageChops.difference(draw_table(long), draw_table(short))  # before the palette: exact colours
    x0, y0, x1, y1 = spots.seats[0]
    places = {  # where each text may be drawn, and the right edge it must stop at (picture.py's seat layout)
        "title": ((MARGIN, spots.title_y, WIDTH - MARGIN, spots.title_y + 34), WIDTH - MARGIN),
        "name": ((x0 + 14, y0 + 4, x1 - 110, y0 + 36), x1 - 110),
        "note": ((x0 + 14, y0 + 36, x1 - 100, y1 - 4), x1 - 100),
    }
    for what, (box, limit) in places.items():
        changed = difference.crop(box).getbbox()
        assert changed is not None, f"the long {what} was not drawn"
        assert limit - 24 <= box[0] + changed[2] <= limit, f"the {what} does not run up to its limit: {changed}"
    outside = difference.copy()
    for box, _ in places.values():
        ImageDraw.Draw(outside).rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=(0, 0, 0))
    assert outside.getbbox() is None, "a long text spilled out of its place"


# --- only public information ----------------------------------------------------------------------------------


class Talk:
    """What the view builders ask of an action: text in English (and its language, for numbers) and a player's name."""

    language = "en"

    def t(self, key: str, /, **params: object) -> str:
        return text("en", key, **params)

    def name(self, user_id: str) -> str:
        return user_id.title()


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
        view = holdem_view(Talk(), hand)  # type: ignore[arg-type]
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
    final = holdem_view(Talk(), hand)  # type: ignore[arg-type]
    assert hand.result is not None and hand.result.went_to_showdown
    for seat, player in zip(final.seats, hand.players, strict=True):
        assert set(seat.cards) == hole[player]  # shown at the showdown: public now
    assert final.pot == 60 and all(seat.bet == 0 for seat in final.seats)


def test_a_folded_hand_shows_nobody_s_cards() -> None:
    players = [engine.SeatPlayer(name, 200) for name in ("ann", "bob")]
    hand, _ = engine.Hand.start(players, 0, 20, HOME_LIMIT, Deck(random.Random(5)), 1)
    player = hand.to_act
    assert player is not None
    hand.act(player, engine.Fold())
    view = holdem_view(Talk(), hand)  # type: ignore[arg-type]
    secret = {str(card) for player in hand.players for card in hand.hole_cards(player)}
    assert hand.is_over and not strings_of(view) & secret


def test_a_russian_view_shows_one_dealer_card_and_no_box_cards_until_the_end() -> None:
    round_ = GAMES["russian"].new()  # type: ignore[attr-defined]
    for player in ("ann", "bob"):
        round_.place_bets(player, 1, 10, balance=500)
    round_.deal(Deck(random.Random(9)))
    view = house_view(Talk(), "russian", round_, 1)  # type: ignore[arg-type]
    secret = {str(card) for box in round_.boxes for card in box.cards} | {str(card) for card in round_.dealer[:-1]}
    assert not strings_of(view) & secret
    assert view.dealer == (None, None, None, None, str(round_.dealer[-1]))
    assert all(seat.cards == () for seat in view.seats)
    while not round_.is_over:
        player, _ = round_.to_act
        names = round_.legal_actions().names
        round_.act(player, next(name for name in ("play", "bet", "decline", "fold") if name in names))
    final = house_view(Talk(), "russian", round_, 1)  # type: ignore[arg-type]
    assert None not in final.dealer and len(final.dealer) == 5


def test_russian_dealer_game_shows_all_five_dealer_cards_in_the_text_and_the_picture() -> None:
    round_ = GAMES["russian"].new()  # type: ignore[attr-defined]
    round_.place_bets("ann", 1, 10, balance=500)
    round_.deal(Deck.stacked("2s 3d 7h 9c Jh  Qs Jd 9d 5c 3s  Kd"))
    dealer_line = "Dealer: ▢ ▢ ▢ ▢ 3♠"
    assert dealer_line in table_text(Talk(), "russian", round_, 1).splitlines()  # type: ignore[arg-type]
    assert house_view(Talk(), "russian", round_, 1).dealer == (None, None, None, None, "3s")  # type: ignore[arg-type]
    round_.act("ann", "play")  # the dealer has no game: his five cards are shown and the player may buy him one
    assert "Dealer: Q♠ J♦ 9♦ 5♣ 3♠" in table_text(Talk(), "russian", round_, 1).splitlines()  # type: ignore[arg-type]
    view = house_view(Talk(), "russian", round_, 1)  # type: ignore[arg-type]
    assert view.dealer == ("Qs", "Jd", "9d", "5c", "3s")


def test_texas_text_and_picture_show_the_open_community_cards() -> None:
    round_ = GAMES["texas"].new()  # type: ignore[attr-defined]
    round_.place_bets("ann", 1, 10, balance=500)
    round_.deal(Deck.stacked("Ah Ad  Ks Qd  Kc 7d 2s Ac 3h"))
    assert "Board: K♣ 7♦ 2♠" in table_text(Talk(), "texas", round_, 1)  # type: ignore[arg-type]
    view = house_view(Talk(), "texas", round_, 1)  # type: ignore[arg-type]
    assert (view.board, view.board_slots, view.dealer) == (("Kc", "7d", "2s"), 5, (None, None))


# --- the setting, through the service --------------------------------------------------------------------------


async def play_a_hand(service: Service) -> list[Reply]:
    players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
    for actor in players.values():
        await service.handle(PLACE, actor, "/join 200")
    reply = await service.handle(PLACE, ANN, "/deal")
    return await play_out(service, PLACE, players, reply, preference=("check", "call"))


async def test_pictures_are_sent_at_the_streets_and_the_showdown(service: Service) -> None:
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
    assert refused.error is not None and "on, off" in refused.error


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


@pytest.mark.parametrize("setting", ["on", "off"])
async def test_a_house_table_shows_the_deal_and_the_settlement(service: Service, setting: str) -> None:
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
    else:
        assert captions[0] == "Russian Poker — round 1 · the deal"
        assert captions[-1] == "Russian Poker — round 1 · settled"


async def test_the_terminal_only_names_the_pictures(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal", "bob: /cards"):
        assert await terminal.say(line)
    for _ in range(8):  # check or call until the flop is dealt
        if "[picture: Hand #1 · flop]" in out.getvalue() or terminal.table is None:
            break
        press = next(i for i, b in enumerate(terminal.buttons, 1) if b.label.split()[0] in ("Check", "Call"))
        await terminal.say(str(press))
    text = out.getvalue()
    assert "[private to bob] [picture: Your cards]" in text
    assert "[table] [picture: Hand #1 · flop]" in text
    assert "\x89PNG" not in text
