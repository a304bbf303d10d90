"""Table pictures: a small view model of what everyone may see, drawn as a PNG with Pillow (cards drawn by code).

The drawing functions are pure: a `TableView` (or a `HandView` for one player's own cards) in, PNG bytes out. The
view models are built from the games' data in `bot.render.picture_views`, which holds every rule about what is
public; this module only lays out and draws.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Box = tuple[int, int, int, int]

FELT = (22, 96, 56)
FELT_DARK = (14, 66, 38)
SLOT = (44, 124, 80)
CARD_FACE = (255, 255, 255)
CARD_EDGE = (70, 70, 70)
CARD_BACK = (150, 32, 44)
RED = (204, 28, 40)
BLACK = (22, 22, 22)
TEXT = (240, 240, 232)
DIM = (150, 170, 156)
HIGHLIGHT = (255, 204, 36)
CHIP = (236, 196, 60)
BUTTON_DISC = (250, 250, 250)

WIDTH = 720
MARGIN = 16
CARD = (64, 90)
SMALL_CARD = (30, 42)
CARD_GAP = 10
SEAT_HEIGHT = 64
SEAT_GAP = 12
SEAT_COLUMNS = 2

FONT_FILES = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
"""Fonts tried before Pillow's built-in one (whose glyphs are Latin only): DejaVu, when the system has it, draws
Cyrillic names. Nothing is shipped: without it Pillow's scalable default font (Pillow >= 10.1) is used."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat (or house-game box) as everyone sees it. `cards` only ever holds cards shown to the table."""

    name: str
    stack: int | None = None
    bet: int = 0
    note: str = ""
    is_button: bool = False
    is_to_act: bool = False
    is_folded: bool = False
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table: a title, the dealer's cards (None = face down), the board, the pot, seats, a footer.

    Cards are their text forms (`As`, `Td`). `board_slots` places to draw on the board: cards beyond `board` are
    drawn face down when `board_hidden` says they are dealt, else as empty places.
    """

    title: str
    board: tuple[str, ...] = ()
    board_slots: int = 5
    board_hidden: bool = False
    pot: int | None = None
    pot_label: str = ""
    seats: tuple[SeatView, ...] = ()
    dealer: tuple[str | None, ...] = ()
    dealer_label: str = ""
    footer: str = ""


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's own cards for a private picture: a title and labelled rows of cards."""

    title: str
    rows: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of a `TableView` is drawn (tests read it to check pixels in the right places)."""

    size: tuple[int, int]
    title_y: int
    dealer: tuple[Box, ...]
    board: tuple[Box, ...]
    pot_y: int
    seats: tuple[Box, ...]
    footer_y: int


# --- layout -------------------------------------------------------------------------------------------------


def _card_row(count: int, y: int, size: tuple[int, int] = CARD, left: int | None = None) -> tuple[Box, ...]:
    width = count * size[0] + max(count - 1, 0) * CARD_GAP
    x = (WIDTH - width) // 2 if left is None else left
    return tuple((x + i * (size[0] + CARD_GAP), y, x + i * (size[0] + CARD_GAP) + size[0], y + size[1])
                 for i in range(count))


def layout(view: TableView) -> Layout:
    """The boxes of the dealer's cards, the board's places and the seats, and the picture's size."""
    y = MARGIN
    title_y = y
    y += 34
    dealer: tuple[Box, ...] = ()
    if view.dealer:
        dealer = _card_row(len(view.dealer), y)
        y += CARD[1] + 14
    board: tuple[Box, ...] = ()
    if view.board_slots:
        board = _card_row(view.board_slots, y)
        y += CARD[1] + 10
    pot_y = y
    if view.pot is not None:
        y += 30
    seat_width = (WIDTH - 2 * MARGIN - (SEAT_COLUMNS - 1) * SEAT_GAP) // SEAT_COLUMNS
    seats = []
    for index in range(len(view.seats)):
        row, column = divmod(index, SEAT_COLUMNS)
        x = MARGIN + column * (seat_width + SEAT_GAP)
        top = y + row * (SEAT_HEIGHT + SEAT_GAP)
        seats.append((x, top, x + seat_width, top + SEAT_HEIGHT))
    rows = -(-len(view.seats) // SEAT_COLUMNS)
    y += rows * (SEAT_HEIGHT + SEAT_GAP)
    footer_y = y
    if view.footer:
        y += 28
    return Layout((WIDTH, y + MARGIN - SEAT_GAP // 2), title_y, dealer, board, pot_y, tuple(seats), footer_y)


# --- drawing ------------------------------------------------------------------------------------------------


@cache
def font(size: int) -> Font:
    """A scalable font of this pixel size (DejaVu Sans when installed, else Pillow's built-in one)."""
    for name in FONT_FILES:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def _suit_colour(card: str) -> tuple[int, int, int]:
    return RED if card[1] in "hd" else BLACK


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float,
              colour: tuple[int, int, int]) -> None:
    """A suit symbol drawn from circles and polygons, `size` pixels high, centred on (cx, cy)."""
    h = size / 2
    q = size / 4
    if suit == "d":
        draw.polygon([(cx, cy - h), (cx + 0.75 * h, cy), (cx, cy + h), (cx - 0.75 * h, cy)], fill=colour)
    elif suit == "h":
        for dx in (-q, q):
            draw.ellipse((cx + dx - q, cy - h, cx + dx + q, cy - h + 2 * q), fill=colour)
        draw.polygon([(cx - 2 * q + 0.5, cy - q), (cx + 2 * q - 0.5, cy - q), (cx, cy + h)], fill=colour)
    elif suit == "s":
        draw.polygon([(cx, cy - h), (cx - 2 * q, cy + 0.2 * q), (cx + 2 * q, cy + 0.2 * q)], fill=colour)
        for dx in (-q, q):
            draw.ellipse((cx + dx - q, cy - 0.6 * q, cx + dx + q, cy + 1.4 * q), fill=colour)
        draw.polygon([(cx, cy), (cx - 0.7 * q, cy + h), (cx + 0.7 * q, cy + h)], fill=colour)
    else:  # clubs
        r = 0.9 * q
        for dx, dy in ((0, -h + r), (-q * 1.05, 0.15 * q), (q * 1.05, 0.15 * q)):
            draw.ellipse((cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r), fill=colour)
        draw.polygon([(cx, cy - q), (cx - 0.7 * q, cy + h), (cx + 0.7 * q, cy + h)], fill=colour)


def draw_card(draw: ImageDraw.ImageDraw, box: Box, card: str | None) -> None:
    """A card face (rank in the corner, a large suit), or its back when `card` is None."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    radius = max(3, width // 10)
    if card is None:
        draw.rounded_rectangle(box, radius, fill=CARD_BACK, outline=CARD_FACE, width=2)
        inset = max(3, width // 8)
        draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), max(2, radius // 2),
                               outline=(200, 90, 100), width=1)
        return
    draw.rounded_rectangle(box, radius, fill=CARD_FACE, outline=CARD_EDGE, width=1)
    colour = _suit_colour(card)
    rank = "10" if card[0] == "T" else card[0]
    rank_font = font(max(10, int(height * 0.26)))
    draw.text((x0 + width * 0.1, y0 + height * 0.05), rank, font=rank_font, fill=colour)
    symbol = height * 0.42
    draw_suit(draw, card[1], x0 + width * 0.55, y0 + height * 0.64, symbol, colour)


def _empty_slot(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.rounded_rectangle(box, max(3, (box[2] - box[0]) // 10), outline=SLOT, width=2)


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float) -> None:
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=CHIP, outline=(120, 90, 10), width=1)


def _seat(draw: ImageDraw.ImageDraw, box: Box, seat: SeatView) -> None:
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, 10, fill=FELT_DARK, outline=HIGHLIGHT if seat.is_to_act else FELT_DARK, width=4)
    colour = DIM if seat.is_folded else TEXT
    name_font, small = font(18), font(15)
    left = x0 + 14
    if seat.is_button:
        draw.ellipse((left, y0 + 10, left + 22, y0 + 32), fill=BUTTON_DISC, outline=BLACK)
        draw.text((left + 11, y0 + 21), "D", font=font(14), fill=BLACK, anchor="mm")
        left += 30
    draw.text((left, y0 + 10), _fit(seat.name, name_font, (x1 - 110) - left), font=name_font, fill=colour)
    line = x0 + 14
    if seat.stack is not None:
        _chip(draw, line + 7, y0 + 46, 7)
        draw.text((line + 20, y0 + 38), str(seat.stack), font=small, fill=colour)
        line += 34 + int(draw.textlength(str(seat.stack), font=small))
    if seat.note:
        draw.text((line, y0 + 38), _fit(seat.note, small, (x1 - 100) - line), font=small, fill=DIM)
    right = x1 - 12
    if seat.cards:
        boxes = _card_row(len(seat.cards), y0 + (SEAT_HEIGHT - SMALL_CARD[1]) // 2, SMALL_CARD,
                          left=right - len(seat.cards) * (SMALL_CARD[0] + CARD_GAP) + CARD_GAP)
        for card_box, card in zip(boxes, seat.cards, strict=True):
            draw_card(draw, card_box, card)
        right = boxes[0][0] - 8
    if seat.bet:
        label = str(seat.bet)
        width = int(draw.textlength(label, font=small)) + 30
        draw.rounded_rectangle((right - width, y0 + 20, right, y0 + 44), 12, fill=(40, 40, 40))
        _chip(draw, right - width + 12, y0 + 32, 7)
        draw.text((right - width + 24, y0 + 24), label, font=small, fill=CHIP)


def _fit(text: str, used: Font, width: int) -> str:
    """The text, cut with an ellipsis to fit `width` pixels."""
    if width <= 0:
        return ""
    if used.getlength(text) <= width:
        return text
    while text and used.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


PALETTE_COLOURS = 64
"""Pictures are saved with a palette of this many colours: flat felt, cards and anti-aliased text need no more, and
a palette image compresses in a fraction of the time (and bytes) of a full-colour one."""


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def draw_table(view: TableView) -> Image.Image:
    """The table picture as a Pillow image."""
    spots = layout(view)
    image = Image.new("RGB", spots.size, FELT)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, spots.title_y), _fit(view.title, font(22), WIDTH - 2 * MARGIN), font=font(22), fill=TEXT)
    if spots.dealer:
        label_x = spots.dealer[0][0] - 12
        draw.text((label_x, (spots.dealer[0][1] + spots.dealer[0][3]) // 2), view.dealer_label, font=font(18),
                  fill=TEXT, anchor="rm")
        for box, card in zip(spots.dealer, view.dealer, strict=True):
            draw_card(draw, box, card)
    for index, box in enumerate(spots.board):
        if index < len(view.board):
            draw_card(draw, box, view.board[index])
        elif view.board_hidden:
            draw_card(draw, box, None)
        else:
            _empty_slot(draw, box)
    if view.pot is not None:
        label = f"{view.pot_label} {view.pot}".strip()
        width = draw.textlength(label, font=font(20)) + 26
        x = (WIDTH - width) / 2
        _chip(draw, x + 9, spots.pot_y + 12, 9)
        draw.text((x + 26, spots.pot_y + 1), label, font=font(20), fill=TEXT)
    for box, seat in zip(spots.seats, view.seats, strict=True):
        _seat(draw, box, seat)
    if view.footer:
        draw.text((MARGIN, spots.footer_y), _fit(view.footer, font(18), WIDTH - 2 * MARGIN), font=font(18),
                  fill=HIGHLIGHT)
    return image


def render_table(view: TableView) -> bytes:
    """The table picture as PNG bytes."""
    return _png(draw_table(view))


def render_hand(view: HandView) -> bytes:
    """A player's own cards as PNG bytes: the title, then each labelled row of cards."""
    label_font = font(18)
    label_width = max((int(label_font.getlength(label)) for label, _ in view.rows), default=0) + MARGIN
    longest = max((len(cards) for _, cards in view.rows), default=0)
    width = max(2 * MARGIN + label_width + longest * (CARD[0] + CARD_GAP), 320)
    height = MARGIN + 34 + len(view.rows) * (CARD[1] + 12) + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), view.title, font=font(22), fill=TEXT)
    y = MARGIN + 34
    for label, cards in view.rows:
        draw.text((MARGIN, y + CARD[1] // 2), label, font=label_font, fill=TEXT, anchor="lm")
        for box, card in zip(_card_row(len(cards), y, left=MARGIN + label_width), cards, strict=True):
            draw_card(draw, box, card)
        y += CARD[1] + 12
    return _png(image)
