"""Table pictures: a small view model of what everyone may see, drawn as a PNG with Pillow (cards drawn by code).

The drawing functions are pure: a `TableView` (or a `HandView` for one player's own cards) in, PNG bytes out. The
view models are built from the games' data in `bot.render.picture_views`, which holds every rule about what is
public; this module only lays out and draws.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import DEFAULT_LANGUAGE, format_number

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
SMALL_CARD_GAP = 6
SEAT_HEIGHT = 64
"""A seat's height without cards: the name's line and the stack, note and bet line (shown cards add a row)."""
SEAT_PADDING = 14
NAME_SIZES = (18, 17, 16, 15, 14, 13)
"""A seat's name is drawn at the first of these sizes it fits at: a real 24-letter name with its box fits at 16 or
more; only a run of the widest letters (24 × "Ш") is cut, at the smallest."""
SMALL_SIZES = (15, 14, 13, 12, 11)
"""The same for the note; the stack and the bet always use the first."""
SEAT_GAP = 12
SEAT_COLUMNS = 2

FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf", "LiberationSans-Regular.ttf",
              "NotoSans-Regular.ttf", "FreeSans.ttf", "Arial.ttf", "arial.ttf")
"""Fonts tried in order (a bare name is looked up in the system's font folders), each with Cyrillic letters for
Russian names and notes. Pillow's built-in font, the last resort, has Latin letters only; `test_picture` checks the
font found draws Cyrillic. Debian's `fonts-dejavu-core` provides the first."""


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
    language: str = DEFAULT_LANGUAGE
    """How the numbers (stacks, bets, the pot) are written."""


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's own cards for a private picture: a title and labelled rows of cards."""

    title: str
    rows: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class Text:
    """One text as laid out: its role (`title`, `name`, `note`…), the string drawn (cut to fit), where and how large,
    and the box it covers (Pillow's `textbbox` at that place)."""

    role: str
    text: str
    xy: tuple[int, int]
    size: int
    box: Box
    anchor: str = "la"


@dataclass(frozen=True, slots=True)
class SeatLayout:
    """Where each part of one seat is drawn: its frame, the dealer button, name, stack (chip and number), note, bet
    (the chip pill and its number) and cards. Laid out so no two parts overlap and all stay inside the frame."""

    frame: Box
    name: Text
    button: Box | None = None
    stack_chip: Box | None = None
    stack: Text | None = None
    note: Text | None = None
    bet: Box | None = None
    bet_text: Text | None = None
    cards: tuple[Box, ...] = ()

    def texts(self) -> tuple[Text, ...]:
        """Every text of the seat."""
        return tuple(text for text in (self.name, self.stack, self.note, self.bet_text) if text is not None)

    def parts(self) -> dict[str, Box]:
        """The seat's parts that must not overlap one another: the bet's number lies inside its pill, so the pill
        stands for both."""
        parts = {"name": self.name.box}
        for role, box in (("button", self.button), ("stack_chip", self.stack_chip), ("bet", self.bet)):
            if box is not None:
                parts[role] = box
        for text in (self.stack, self.note):
            if text is not None:
                parts[text.role] = text.box
        parts.update((f"card {index}", box) for index, box in enumerate(self.cards, 1))
        return parts


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of a `TableView` is drawn (the drawing follows it; tests read it to check pixels and
    overlaps): the picture's size, the texts outside the seats, card places, and each seat's own layout."""

    size: tuple[int, int]
    title: Text
    dealer_label: Text | None
    dealer: tuple[Box, ...]
    board: tuple[Box, ...]
    pot: Text | None
    pot_chip: Box | None
    seats: tuple[SeatLayout, ...]
    footer: Text | None

    def texts(self) -> tuple[Text, ...]:
        """Every text of the picture, the seats' included."""
        own = tuple(text for text in (self.title, self.dealer_label, self.pot, self.footer) if text is not None)
        return own + tuple(text for seat in self.seats for text in seat.texts())


# --- layout -------------------------------------------------------------------------------------------------

def _card_row(count: int, y: int, size: tuple[int, int] = CARD, left: int | None = None,
              gap: int = CARD_GAP) -> tuple[Box, ...]:
    width = count * size[0] + max(count - 1, 0) * gap
    x = (WIDTH - width) // 2 if left is None else left
    return tuple((x + i * (size[0] + gap), y, x + i * (size[0] + gap) + size[0], y + size[1]) for i in range(count))


def _text(role: str, text: str, xy: tuple[int, int], size: int, anchor: str = "la") -> Text:
    """A text placed at `xy`, with the box it will cover (what `ImageDraw.textbbox` gives, measured once)."""
    if not text:
        return Text(role, text, xy, size, (xy[0], xy[1], xy[0], xy[1]), anchor)
    x0, y0, x1, y1 = font(size).getbbox(text, anchor=anchor)
    return Text(role, text, xy, size, (xy[0] + int(x0), xy[1] + int(y0), xy[0] + math.ceil(x1), xy[1] + math.ceil(y1)),
                anchor)


def _fitted(role: str, text: str, xy: tuple[int, int], sizes: tuple[int, ...], width: int) -> Text:
    """The text at the largest of `sizes` at which its box is at most `width` pixels wide; at the smallest, cut
    with an ellipsis."""
    largest = sizes[0]
    placed = _text(role, text, xy, largest)
    length = placed.box[2] - xy[0]
    if length <= width:
        return placed
    # a text's width grows about in proportion to its size: measure only the sizes that may fit (usually one)
    for size in sizes[1:]:
        if size * length <= 1.03 * width * largest:
            placed = _text(role, text, xy, size)
            if placed.box[2] - xy[0] <= width:
                return placed
    smallest = font(sizes[-1])
    cut = _fit(text, smallest, width)
    placed = _text(role, cut, xy, sizes[-1])
    while placed.box[2] - xy[0] > width and len(cut) > 1:  # a glyph reaching past its advance (rare)
        cut = cut[:-2] + "…"
        placed = _text(role, cut, xy, sizes[-1])
    return placed


def seat_layout(frame: Box, seat: SeatView, language: str = DEFAULT_LANGUAGE) -> SeatLayout:
    """One seat's parts. The name has the first line to itself (after the dealer button), shrinking before it is
    cut; the second line holds the stack on the left, the bet on the right and the note between them; shown cards
    get a row of their own below."""
    x0, y0, x1, _ = frame
    left, right = x0 + SEAT_PADDING, x1 - SEAT_PADDING
    button = None
    if seat.is_button:
        button = (left, y0 + 10, left + 22, y0 + 32)
        left += 30
    name = _fitted("name", seat.name, (left, y0 + 8), NAME_SIZES, right - left)
    line_y = y0 + 38
    left = x0 + SEAT_PADDING
    stack_chip = stack = None
    if seat.stack is not None:
        stack_chip = (left, line_y + 1, left + 14, line_y + 15)
        stack = _text("stack", format_number(language, seat.stack), (left + 20, line_y - 1), SMALL_SIZES[0])
        left = stack.box[2] + 12
    bet = bet_text = None
    if seat.bet:
        label = format_number(language, seat.bet)
        width = int(font(SMALL_SIZES[0]).getlength(label)) + 30
        bet = (right - width, line_y - 4, right, line_y + 20)
        bet_text = _text("bet_text", label, (right - width + 24, line_y - 1), SMALL_SIZES[0])
        right = bet[0] - 10
    note = _fitted("note", seat.note, (left, line_y - 1), SMALL_SIZES, right - left) if seat.note else None
    cards = _card_row(len(seat.cards), y0 + SEAT_HEIGHT - 2, SMALL_CARD, left=x0 + SEAT_PADDING,
                      gap=SMALL_CARD_GAP) if seat.cards else ()
    return SeatLayout(frame, name, button, stack_chip, stack, note, bet, bet_text, cards)


def layout(view: TableView) -> Layout:
    """Where everything goes, and the picture's size."""
    y = MARGIN
    title = _text("title", _fit(view.title, font(22), WIDTH - 2 * MARGIN), (MARGIN, y), 22)
    y += 34
    dealer: tuple[Box, ...] = ()
    dealer_label = None
    if view.dealer:
        dealer = _card_row(len(view.dealer), y)
        label_right = dealer[0][0] - 12
        dealer_label = _text("dealer_label", _fit(view.dealer_label, font(18), label_right - MARGIN),
                             (label_right, (dealer[0][1] + dealer[0][3]) // 2), 18, anchor="rm")
        y += CARD[1] + 14
    board: tuple[Box, ...] = ()
    if view.board_slots:
        board = _card_row(view.board_slots, y)
        y += CARD[1] + 10
    pot = pot_chip = None
    if view.pot is not None:
        amount = format_number(view.language, view.pot)
        label = _fit(f"{view.pot_label} {amount}".strip(), font(20), WIDTH - 2 * MARGIN - 26)
        x = (WIDTH - int(font(20).getlength(label)) - 26) // 2
        pot_chip = (x, y + 3, x + 18, y + 21)
        pot = _text("pot", label, (x + 26, y + 1), 20)
        y += 30
    seat_width = (WIDTH - 2 * MARGIN - (SEAT_COLUMNS - 1) * SEAT_GAP) // SEAT_COLUMNS
    seat_height = SEAT_HEIGHT + (SMALL_CARD[1] + 8 if any(seat.cards for seat in view.seats) else 0)
    seats = []
    for index, seat in enumerate(view.seats):
        row, column = divmod(index, SEAT_COLUMNS)
        x = MARGIN + column * (seat_width + SEAT_GAP)
        top = y + row * (seat_height + SEAT_GAP)
        seats.append(seat_layout((x, top, x + seat_width, top + seat_height), seat, view.language))
    rows = -(-len(view.seats) // SEAT_COLUMNS)
    y += rows * (seat_height + SEAT_GAP)
    footer = None
    if view.footer:
        footer = _text("footer", _fit(view.footer, font(18), WIDTH - 2 * MARGIN), (MARGIN, y), 18)
        y += 28
    return Layout((WIDTH, y + MARGIN - SEAT_GAP // 2), title, dealer_label, dealer, board, pot, pot_chip,
                  tuple(seats), footer)


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


def _inclusive(box: Box) -> Box:
    """A layout box (right and bottom edges excluded, as `textbbox` gives them) as Pillow's shapes take it."""
    return box[0], box[1], box[2] - 1, box[3] - 1


def draw_card(draw: ImageDraw.ImageDraw, box: Box, card: str | None) -> None:
    """A card face (rank in the corner, a large suit), or its back when `card` is None, filling `box`."""
    box = _inclusive(box)
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
    draw.rounded_rectangle(_inclusive(box), max(3, (box[2] - box[0]) // 10), outline=SLOT, width=2)


def _chip(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.ellipse(_inclusive(box), fill=CHIP, outline=(120, 90, 10), width=1)


def _draw_text(draw: ImageDraw.ImageDraw, text: Text | None, colour: tuple[int, int, int]) -> None:
    if text is not None and text.text:
        draw.text(text.xy, text.text, font=font(text.size), fill=colour, anchor=text.anchor)


def _seat(draw: ImageDraw.ImageDraw, spot: SeatLayout, seat: SeatView) -> None:
    outline = HIGHLIGHT if seat.is_to_act else FELT_DARK
    draw.rounded_rectangle(_inclusive(spot.frame), 10, fill=FELT_DARK, outline=outline, width=4)
    colour = DIM if seat.is_folded else TEXT
    if spot.button is not None:
        draw.ellipse(_inclusive(spot.button), fill=BUTTON_DISC, outline=BLACK)
        x0, y0, x1, y1 = spot.button
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), "D", font=font(14), fill=BLACK, anchor="mm")
    _draw_text(draw, spot.name, colour)
    if spot.stack_chip is not None:
        _chip(draw, spot.stack_chip)
    _draw_text(draw, spot.stack, colour)
    _draw_text(draw, spot.note, DIM)
    if spot.bet is not None:
        draw.rounded_rectangle(_inclusive(spot.bet), 12, fill=(40, 40, 40))
        middle = (spot.bet[1] + spot.bet[3]) // 2
        _chip(draw, (spot.bet[0] + 5, middle - 7, spot.bet[0] + 20, middle + 8))
        _draw_text(draw, spot.bet_text, CHIP)
    for card_box, card in zip(spot.cards, seat.cards, strict=True):
        draw_card(draw, card_box, card)


def _fit(text: str, used: Font, width: int) -> str:
    """The text, cut with an ellipsis to fit `width` pixels."""
    if width <= 0:
        return ""
    if used.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # the longest cut that fits lies in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        if used.getlength(text[:middle] + "…") <= width:
            low = middle
        else:
            high = middle
    return text[:low] + "…" if used.getlength(text[:low] + "…") <= width else ""


PALETTE_COLOURS = 64
"""Pictures are saved with a palette of this many colours: flat felt, cards and anti-aliased text need no more, and
a palette image compresses in a fraction of the time (and bytes) of a full-colour one."""


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def draw_table(view: TableView) -> Image.Image:
    """The table picture as a Pillow image, drawn where `layout` places each part."""
    spots = layout(view)
    image = Image.new("RGB", spots.size, FELT)
    draw = ImageDraw.Draw(image)
    _draw_text(draw, spots.title, TEXT)
    _draw_text(draw, spots.dealer_label, TEXT)
    for box, card in zip(spots.dealer, view.dealer, strict=True):
        draw_card(draw, box, card)
    for index, box in enumerate(spots.board):
        if index < len(view.board):
            draw_card(draw, box, view.board[index])
        elif view.board_hidden:
            draw_card(draw, box, None)
        else:
            _empty_slot(draw, box)
    if spots.pot_chip is not None:
        _chip(draw, spots.pot_chip)
    _draw_text(draw, spots.pot, TEXT)
    for spot, seat in zip(spots.seats, view.seats, strict=True):
        _seat(draw, spot, seat)
    _draw_text(draw, spots.footer, HIGHLIGHT)
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
