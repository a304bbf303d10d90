"""Texas Poker (RULES.md §2) and Russian Poker (§3) rule by rule through the service, from stacked decks: each
decision's cost, each line of the settlement and of the paytable, the dealer's game, the payout cap, in exact texts and
chips; and bad input, refused in the player's language with no chip moved.

Deck order (`Deck.stacked`): Texas deals each box two cards, the dealer two, then the five community cards (the first
three open on the deal, the fourth after the first decisions, the fifth with the dealer's cards), then the draws;
Russian deals each box five cards, the dealer five (the last open), then the draws (the dealer's own draw last)."""

import pytest

from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import ledger_ok, press_label, stack_house_deck
from tests.bot.test_house_wallet import accepted, open_table
from tests.bot.test_service_games import wallets

WALLET = 1_000


def settled(reply: Reply, box: int) -> str:
    """The public line that settles Ann's box `box` (at the round's end)."""
    lines = [line for message in reply.public for line in message.splitlines()]
    return next(line for line in lines if line.startswith(f"Ann, box {box}: ") and "; " in line)


async def chips_moved(service: Service) -> tuple[int, int]:
    """What Ann's wallet and the house gained in the round."""
    house = await service.store.read(lambda tx: tx.balance(f"house:{PLACE.chat_id}"))
    return (await wallets(service))["ann"] - WALLET, house


TEXAS = [
    # (id, the deck's top, bets, decisions, Ann's net, her settlement line per box)
    ("fold-loses-ante", "As Ad  2c 2d  Kh 9c 7s 5d 3h", ["/ante 10"], ["/fold"], -10, (
        "Ann, box 1: folded (−10); ANTE −10.",
    )),
    ("early-bet-is-hole-and-three-open", "Ah Kh  4c 4d  Qh Jh 2c Th 3d", ["/ante 10"], ["/bet"], -30, (
        "Ann, box 1: loses (−30) — ace high: A♥ K♥ Q♥ J♥ 2♣; ANTE −10 · BET −20.",
    )),
    ("pair-pays-1", "As Ad  2c 2d  Kh 9c 7s 5d 3h", ["/ante 10"], ["/bet"], 30, (
        "Ann, box 1: wins (+30) — a pair of aces, king kicker: A♠ A♦ K♥ 9♣ 7♠; ANTE +10 · BET +20 (a pair of aces, "
        "king kicker, ×1).",
    )),
    ("two-pair-pays-1", "As Ks  2c 2d  Ad Kh 7s 5d 3h", ["/ante 10"], ["/bet"], 30, (
        "Ann, box 1: wins (+30) — two pair, aces and kings, seven kicker: A♠ A♦ K♠ K♥ 7♠; ANTE +10 · BET +20 (two "
        "pair, aces and kings, seven kicker, ×1).",
    )),
    ("three-of-a-kind-pays-2", "As Ad  2c 2d  Ah 9c 7s 5d 3h", ["/ante 10"], ["/bet"], 50, (
        "Ann, box 1: wins (+50) — three of a kind, aces, nine kicker: A♠ A♥ A♦ 9♣ 7♠; ANTE +10 · BET +40 (three of a "
        "kind, aces, nine kicker, ×2).",
    )),
    ("straight-pays-3", "9s 8d  2c 2d  7h 6c 5s Kd 3h", ["/ante 10"], ["/bet"], 70, (
        "Ann, box 1: wins (+70) — a straight to the nine: 9♠ 8♦ 7♥ 6♣ 5♠; ANTE +10 · BET +60 (a straight to the nine, "
        "×3).",
    )),
    ("flush-pays-4", "As 9s  2c 2d  Ks 7s 4s Qd Jh", ["/ante 10"], ["/bet"], 90, (
        "Ann, box 1: wins (+90) — a flush, ace high: A♠ K♠ 9♠ 7♠ 4♠; ANTE +10 · BET +80 (a flush, ace high, ×4).",
    )),
    ("full-house-pays-6", "As Ad  2c 2d  Ah Kc Ks 7d 3h", ["/ante 10"], ["/bet"], 130, (
        "Ann, box 1: wins (+130) — a full house, aces full of kings: A♠ A♥ A♦ K♠ K♣; ANTE +10 · BET +120 (a full "
        "house, aces full of kings, ×6).",
    )),
    ("four-of-a-kind-pays-15", "As Ad  2c 2d  Ah Ac Ks 7d 3h", ["/ante 10"], ["/bet"], 310, (
        "Ann, box 1: wins (+310) — four of a kind, aces, king kicker: A♠ A♥ A♦ A♣ K♠; ANTE +10 · BET +300 (four of a "
        "kind, aces, king kicker, ×15).",
    )),
    ("straight-flush-pays-50", "9s 8s  2c 2d  7s 6s 5s Kd 3h", ["/ante 10"], ["/bet"], 1010, (
        "Ann, box 1: wins (+1,010) — a straight flush to the nine: 9♠ 8♠ 7♠ 6♠ 5♠; ANTE +10 · BET +1,000 (a straight "
        "flush to the nine, ×50).",
    )),
    ("royal-flush-pays-100", "As Ks  2c 2d  Qs Js Ts 3d 4h", ["/ante 10"], ["/bet"], 2010, (
        "Ann, box 1: wins (+2,010) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE +10 · BET +2,000 (royal flush, ×100).",
    )),
    ("dealer-without-a-pair-pays-ante-returns-bet", "As Ad  Qc Jd  Kh 9c 7s 5d 3h", ["/ante 10"], ["/bet"], 10, (
        "Ann, box 1: dealer does not qualify (+10) — a pair of aces, king kicker: A♠ A♦ K♥ 9♣ 7♠; ANTE +10 · BET 0.",
    )),
    ("lower-hand-loses-ante-and-bet", "Qs Jd  2c 2d  Kh 9c 7s 5d 3h", ["/ante 10"], ["/bet"], -30, (
        "Ann, box 1: loses (−30) — king high: K♥ Q♠ J♦ 9♣ 7♠; ANTE −10 · BET −20.",
    )),
    ("same-five-cards-stand-off", "As Qd  Ac Qh  Ah Kc Kd 7s 5h", ["/ante 10"], ["/bet"], 0, (
        "Ann, box 1: push (0) — two pair, aces and kings, queen kicker: A♠ A♥ K♦ K♣ Q♦; ANTE 0 · BET 0.",
    )),
    ("bought-card-best-five-of-seven", "As Ks  2c 2d  Qs Js 2h 3h Ts", ["/ante 10"], ["/buy", "/bet"], 2000, (
        "Ann, box 1: wins (+2,000) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE +10 · BET +2,000 (royal flush, ×100) · card "
        "fee −10.",
    )),
    ("exchange-after-buy", "2c 7d  4c 4d  Kh Qh Jh Th 3d  Ah 9s", ["/ante 10"], ["/buy", "/exchange 1 2", "/bet"],
     1990, (
        "Ann, box 1: wins (+1,990) — royal flush: A♥ K♥ Q♥ J♥ T♥; ANTE +10 · BET +2,000 (royal flush, ×100) · card "
        "fee −10 · exchange fee −10.",
    )),
    ("fold-after-buy-keeps-fee", "2c 7d  4c 4d  Kh Qh Jh Th 3d", ["/ante 10"], ["/buy", "/fold"], -20, (
        "Ann, box 1: folded (−20); ANTE −10 · card fee −10.",
    )),
    ("half-payout-dealer-without-a-pair", "As Ks  2c 7d  Qs Js Ts 3h 4d", ["/ante 10"], ["/bet"], 1005, (
        "Ann, box 1: half payout (+1,005) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE 0 · BET 0 · half payout +1,005 (half of "
        "2,010: royal flush, ANTE 1:1 and BET ×100).",
    )),
    ("half-payout-dealer-higher-keeps-ante-and-bet", "7h 8h  2c 3d  9h Th Jh Qh Kh", ["/ante 10"], ["/bet"], 505, (
        "Ann, box 1: half payout (+505) — a straight flush to the jack: J♥ T♥ 9♥ 8♥ 7♥; ANTE 0 · BET 0 · half payout "
        "+505 (half of 1,010: a straight flush to the jack, ANTE 1:1 and BET ×50).",
    )),
    ("payout-capped-per-box", "As Ks  2c 2d  Qs Js Ts 3d 4h", ["/ante 100"], ["/bet"], 10000, (
        "Ann, box 1: wins (+10,000) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE +100 · BET +9,900 (royal flush, ×100); payout "
        "capped at the table's maximum of 10,000.",
    )),
    ("half-payout-capped-per-box", "As Ks  2c 7d  Qs Js Ts 3h 4d", ["/ante 100"], ["/bet"], 10000, (
        "Ann, box 1: half payout (+10,000) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE 0 · BET 0 · half payout +10,000 (half "
        "of 20,100: royal flush, ANTE 1:1 and BET ×100); payout capped at the table's maximum of 10,000.",
    )),
]

RUSSIAN = [
    # the dealer: ace-king (Ac Ks 7d 4d 3c), kings (Kc Kd 8h 5d 3c) or no game (2c 4d 7d 9h Jc)
    ("fold-loses-ante", "Qs Qd 9c 7h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/fold"], -10, (
        "Ann, box 1: folded (−10); ANTE −10.",
    )),
    ("ace-king-pays-1", "Ah Kd Qc Js 9h  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 20, (
        "Ann, box 1: wins (+20) — ace-king: A♥ K♦ Q♣ J♠ 9♥; ANTE 0 · BET +20 (ace-king, ×1).",
    )),
    ("pair-pays-1", "Qs Qd 9c 7h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 20, (
        "Ann, box 1: wins (+20) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE 0 · BET +20 (a pair of queens, "
        "×1).",
    )),
    ("two-pair-pays-2", "Qs Qd 9c 9h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 40, (
        "Ann, box 1: wins (+40) — two pair, queens and nines, five kicker: Q♠ Q♦ 9♣ 9♥ 5♠; ANTE 0 · BET +40 (two "
        "pair, queens and nines, ×2).",
    )),
    ("three-of-a-kind-pays-3", "Qs Qd Qc 7h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 60, (
        "Ann, box 1: wins (+60) — three of a kind, queens, seven kicker: Q♠ Q♦ Q♣ 7♥ 5♠; ANTE 0 · BET +60 (three of a "
        "kind, queens, ×3).",
    )),
    ("straight-pays-4", "9s 8d 7c 6h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 80, (
        "Ann, box 1: wins (+80) — a straight to the nine: 9♠ 8♦ 7♣ 6♥ 5♠; ANTE 0 · BET +80 (a straight to the nine, "
        "×4).",
    )),
    ("flush-pays-5", "Qs Ts 8s 6s 2s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 100, (
        "Ann, box 1: wins (+100) — a flush, queen high: Q♠ T♠ 8♠ 6♠ 2♠; ANTE 0 · BET +100 (a flush, queen high, ×5).",
    )),
    ("full-house-pays-7", "Qs Qd Qc 9h 9s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 140, (
        "Ann, box 1: wins (+140) — a full house, queens full of nines: Q♠ Q♦ Q♣ 9♥ 9♠; ANTE 0 · BET +140 (a full "
        "house, queens full of nines, ×7).",
    )),
    ("four-of-a-kind-alone-pays-20", "As Ad Ac Ah 9s  Kc Kd 8h 5d 3c", ["/ante 10"], ["/play"], 400, (
        "Ann, box 1: wins (+400) — four of a kind, aces, nine kicker: A♠ A♦ A♣ A♥ 9♠; ANTE 0 · BET +400 (four of a "
        "kind, aces, ×20).",
    )),
    ("straight-flush-pays-50", "9s 8s 7s 6s 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], 1000, (
        "Ann, box 1: wins (+1,000) — a straight flush to the nine: 9♠ 8♠ 7♠ 6♠ 5♠; ANTE 0 · BET +1,000 (a straight "
        "flush to the nine, ×50).",
    )),
    ("royal-flush-pays-100", "As Ks Qs Js Ts  Kc Kd 8h 5d 3c", ["/ante 10"], ["/play"], 2000, (
        "Ann, box 1: wins (+2,000) — royal flush: A♠ K♠ Q♠ J♠ T♠; ANTE 0 · BET +2,000 (royal flush, ×100).",
    )),
    ("lower-hand-loses-everything", "Qs Jd 9c 7h 5s  Ac Ks 7d 4d 3c", ["/ante 10"], ["/play"], -30, (
        "Ann, box 1: loses (−30) — no game: Q♠ J♦ 9♣ 7♥ 5♠; ANTE −10 · BET −20.",
    )),
    ("equal-hand-pushes", "Qs Qd 9c 7h 5s  Qh Qc 9d 7s 5c", ["/ante 10"], ["/play"], 0, (
        "Ann, box 1: push (0) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE 0 · BET 0.",
    )),
    ("pair-and-ace-king-pay-2", "Ah Ad Kc 8s 9h  Qc Qs 7h 5d 3c", ["/ante 10"], ["/play"], 40, (
        "Ann, box 1: wins (+40) — a pair of aces, king kicker: A♥ A♦ K♣ 8♠ 9♥; ANTE 0 · BET +40 (a pair of aces + "
        "second combination: ace-king, ×2).",
    )),
    ("bought-sixth-card-best-five-of-six", "Qs Qd 9c 7h 5s  Ac Ks 7d 4d 3c  Qc", ["/ante 10"], ["/buy", "/play"], 50, (
        "Ann, box 1: wins (+50) — three of a kind, queens, nine kicker: Q♠ Q♦ 9♣ 7♥ Q♣; ANTE 0 · BET +60 (three of a "
        "kind, queens, ×3) · card fee −10.",
    )),
    ("four-of-a-kind-and-full-house-pay-27", "As Ad Ac Ah 7s  Kc Kd 8h 5d 3c  7d", ["/ante 10"], ["/buy", "/play"],
     530, (
        "Ann, box 1: wins (+530) — four of a kind, aces, seven kicker: A♠ A♦ A♣ A♥ 7♠ 7♦; ANTE 0 · BET +540 (four of "
        "a kind, aces + second combination: a full house, aces full of sevens, ×27) · card fee −10.",
    )),
    ("two-straights-pay-8", "Ad Kc Qh Js Td  Kd Ks 8h 5d 3c  9c", ["/ante 10"], ["/buy", "/play"], 150, (
        "Ann, box 1: wins (+150) — a straight to the ace: A♦ K♣ Q♥ J♠ T♦ 9♣; ANTE 0 · BET +160 (a straight to the ace "
        "+ second combination: a straight to the king, ×8) · card fee −10.",
    )),
    ("royal-and-straight-flush-pay-150", "As Ks Qs Js Ts  Kc Kd 8h 5d 3c  9s", ["/ante 10"], ["/buy", "/play"], 2990, (
        "Ann, box 1: wins (+2,990) — royal flush: A♠ K♠ Q♠ J♠ T♠ 9♠; ANTE 0 · BET +3,000 (royal flush + second "
        "combination: a straight flush to the king, ×150) · card fee −10.",
    )),
    ("exchange-of-five-cards", "2s 4h 6h 8s Th  Ac Ks 7d 4d 3c  Qs Qd Qc 9h 9s", ["/ante 10"],
     ["/exchange 1 2 3 4 5", "/play"], 130, (
        "Ann, box 1: wins (+130) — a full house, queens full of nines: Q♠ Q♦ Q♣ 9♥ 9♠; ANTE 0 · BET +140 (a full "
        "house, queens full of nines, ×7) · exchange fee −10.",
    )),
    ("dealer-no-game-pays-ante", "Qs Qd 9c 7h 5s  2c 4d 7d 9h Jc", ["/ante 10"], ["/play", "/decline"], 10, (
        "Ann, box 1: dealer has no game (+10) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE +10 · BET 0.",
    )),
    ("dealer-game-bought-qualifies", "Ah Ad Kc 8s 9h  2c 5d 7h 9c Kh  5s", ["/ante 10"], ["/play", "/dealergame"], 30, (
        "Ann, box 1: wins (+30) — a pair of aces, king kicker: A♥ A♦ K♣ 8♠ 9♥; ANTE 0 · BET +40 (a pair of aces + "
        "second combination: ace-king, ×2) · dealer's game fee −10.",
    )),
    ("dealer-game-bought-still-no-game", "Qs Qd 9c 7h 5s  2c 4d 7d 9h Jc  3s", ["/ante 10"], ["/play", "/dealergame"],
     -10, (
        "Ann, box 1: dealer still has no game, bets back (−10) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE "
        "0 · BET 0 · dealer's game fee −10.",
    )),
    ("dealer-game-bought-per-box", "Ah Ad Kc 8s 9h  Qs Qd 9c 7h 5s  2c 5d 7c 9d Kh  5h",
     ["/ante 10", "/ante 10 box 2"], ["/play", "/play", "/dealergame", "/decline"], 40, (
        "Ann, box 1: wins (+30) — a pair of aces, king kicker: A♥ A♦ K♣ 8♠ 9♥; ANTE 0 · BET +40 (a pair of aces + "
        "second combination: ace-king, ×2) · dealer's game fee −10.",
        "Ann, box 2: dealer has no game (+10) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE +10 · BET 0.",
    )),
    ("third-box-plays-blind", "Qs Qd 9c 7h 5s  2c 3d 4h 6s 8c  Ks Kd Kc 7s 5c  Ac Kh 7d 4d 3c",
     ["/ante 10", "/ante 10 box 2", "/ante 10 box 3"], ["/play", "/fold"], 70, (
        "Ann, box 1: wins (+20) — a pair of queens, nine kicker: Q♠ Q♦ 9♣ 7♥ 5♠; ANTE 0 · BET +20 (a pair of queens, "
        "×1).",
        "Ann, box 2: folded (−10); ANTE −10.",
        "Ann, box 3: wins (+60) — three of a kind, kings, seven kicker: K♠ K♦ K♣ 7♠ 5♣; ANTE 0 · BET +60 (three of a "
        "kind, kings, ×3).",
    )),
]


@pytest.mark.parametrize(("game", "cards", "bets", "decisions", "net", "lines"),
                         [("texas", *case[1:]) for case in TEXAS] + [("russian", *case[1:]) for case in RUSSIAN],
                         ids=[f"texas-{case[0]}" for case in TEXAS] + [f"russian-{case[0]}" for case in RUSSIAN])
async def test_each_box_is_settled_by_the_rules(store: Store, monkeypatch: pytest.MonkeyPatch, game: str, cards: str,
                                                bets: list[str], decisions: list[str], net: int,
                                                lines: tuple[str, ...]) -> None:
    """Texas Poker (RULES.md §2): a fold, an early BET on the hole and three open cards, a card bought for the best
    five of seven and an exchange after it; the paytable, the dealer's pair, the stand-off, the half payout and the
    cap per box. Russian Poker (§3): fold, play, a sixth card bought, an exchange; the paytable (no ANTE paid), the
    second combination, the dealer's game bought or not, the blind third box. The house gains what Ann loses."""
    stack_house_deck(monkeypatch, cards)
    service = await open_table(store, game, WALLET)
    for bet in bets:
        await accepted(service, bet)
    reply = await accepted(service, "/deal")
    for decision in decisions:
        reply = await accepted(service, decision)
    assert tuple(settled(reply, box) for box in range(1, len(lines) + 1)) == lines
    assert await chips_moved(service) == (net, -net)
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "board"), [("en", "Board"), ("ru", "Борд")])
async def test_the_texas_board_shows_its_face_down_cards_in_their_places(store: Store, monkeypatch: pytest.MonkeyPatch,
                                                                         language: str, board: str) -> None:
    """The table's board line lists the community cards still face down as 🂠 after the open ones, as the picture
    draws them, until each is turned: three open on the deal, the fourth after a card bought, all five at the end."""
    stack_house_deck(monkeypatch, "As Ad  2c 2d  Kh 9c 7s 5d 3h")
    service = await open_table(store, "texas", WALLET, language)
    await accepted(service, "/ante 10")
    replies = [await accepted(service, line) for line in ("/deal", "/buy", "/bet")]
    assert [reply.table.text.splitlines()[2] for reply in replies if reply.table is not None] == [  # under the dealer
        f"{board}: K♥ 9♣ 7♠ 🂠 🂠", f"{board}: K♥ 9♣ 7♠ 5♦ 🂠", f"{board}: K♥ 9♣ 7♠ 5♦ 3♥"]


REFUSED = {
    "en": {
        "/ante 0": "ANTE must be 1 to 100 at this table, not 0.",
        "/ante -5": "ANTE must be a whole number of chips, not “-5”.",
        "/ante 101": "ANTE must be 1 to 100 at this table, not 101.",
        "/ante ten": "ANTE must be a whole number of chips, not “ten”.",
        "/ante 60": "That needs 60 chips but you have 50.",
        "/ante 20": "Not enough chips for an ANTE on box 1: with the bets still to follow (BET or PLAY) your boxes "
                    "need 60, you have 50.",
        "/play": "No round is in play: an ANTE (/ante chips) opens the next one.",
        "out of turn": "It's not your turn: waiting for Ann.",
        "no box": "You have no box in this round: place an ANTE (/ante chips) before the next one is dealt.",
        "texas: a second box": "There is no box 2 at this table.",
        "russian: a fourth box": "The box must be 1, 2 or 3, not “4”.",
        "texas: exchange before the fourth card": "Not possible now. You may: Bet, Fold, Buy card.",
        "texas: exchange of three cards": "There is no card 3: choose 1 to 2.",
        "texas: three cards named": "Swap takes 1 to 2 cards, not 3.",
        "texas: not a card": "“x” is not a card: give its position (1-2) or rank and suit, like As or Td.",
        "russian: a second draw": "Not possible now. You may: Play, Fold.",
        "stale": "This round is over.",
    },
    "ru": {
        "/ante 0": "АНТЕ за этим столом — от 1 до 100, а не 0.",
        "/ante -5": "АНТЕ: нужно целое число фишек, а не «-5».",
        "/ante 101": "АНТЕ за этим столом — от 1 до 100, а не 101.",
        "/ante ten": "АНТЕ: нужно целое число фишек, а не «ten».",
        "/ante 60": "Нужно 60 фишек, а у вас 50.",
        "/ante 20": "Для АНТЕ на боксе 1 не хватит фишек: вместе с последующими ставками (БЕТ или ИГРА) вашим боксам "
                    "нужно 60, а у вас 50.",
        "/play": "Сейчас раунда нет: АНТЕ (/ante фишки) открывает следующий.",
        "out of turn": "Сейчас не ваш ход: ходит Ann.",
        "no box": "У вас нет бокса в этом раунде: поставьте АНТЕ (/ante фишки) до сдачи следующего.",
        "texas: a second box": "Бокса 2 за этим столом нет.",
        "russian: a fourth box": "Бокс — это 1, 2 или 3, а не «4».",
        "texas: exchange before the fourth card": "Сейчас так нельзя. Можно: БЕТ, Пас, Прикуп.",
        "texas: exchange of three cards": "Карты 3 нет: выберите от 1 до 2.",
        "texas: three cards named": "Обмен: можно выбрать от 1 до 2 карт, а не 3.",
        "texas: not a card": "«x» — это не карта: укажите её номер (1–2) или ранг и масть, например As или Td.",
        "russian: a second draw": "Сейчас так нельзя. Можно: Играть, Пас.",
        "stale": "Этот раунд уже закончился.",
    },
}
"""Each refusal of the bad-input test in each language: ANTEs out of the table's limits, unreadable or over the
wallet (50 chips), on a box the game does not have, decisions with no round, out of turn, with no box, not offered
now, and a button of a round over."""
BOX_REFUSED = {"texas": ("/ante 10 box 2", "texas: a second box"),  # one box a player (RULES.md §2)
               "russian": ("/ante 10 box 4", "russian: a fourth box")}  # up to three (§3)
GAME_REFUSED = {
    "texas": [(ANN, "/exchange 1", "texas: exchange before the fourth card"),  # RULES.md §2.3: after a buy
              (ANN, "/buy", None), (BOB, "/fold", None),
              (ANN, "/exchange 1 2 3", "texas: exchange of three cards"),  # §2.3: one or two of his two cards
              (ANN, "/exchange x", "texas: not a card"),  # his box has two cards, not five
              (ANN, "/exchange As Ks Qs", "texas: three cards named"),  # by name: the count is said first
              (ANN, "/fold", None)],
    "russian": [(ANN, "/exchange 1", None), (ANN, "/buy", "russian: a second draw"),  # one draw a box (§3)
                (ANN, "/fold", None), (BOB, "/fold", None)],
}
"""Per game, once the round is dealt: Ann's and Bob's lines in order, each refused for its reason or (None)
accepted, to the round's end."""


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("game", ["texas", "russian"])
async def test_bad_input_is_refused_in_the_players_language_and_moves_no_chip(store: Store, game: str,
                                                                               language: str) -> None:
    """RULES.md, Chips: a bet over the wallet, out of the table's limits or out of turn is refused with the reason,
    and every refusal leaves the database (every wallet, box and the house) as it was."""
    service = await open_table(store, game, 50, language)
    said = REFUSED[language]

    async def refused(actor: Actor, line: str, reason: str, *, button: str | None = None) -> None:
        before, chips = dump(service.store.location), await wallets(service)
        reply = await (service.press(PLACE, actor, button) if button else service.handle(PLACE, actor, line))
        assert (reply.error, reply.public, reply.table) == (said[reason], [], None), line
        assert (dump(service.store.location), await wallets(service)) == (before, chips)

    for line in ("/ante 0", "/ante -5", "/ante 101", "/ante ten", "/ante 60", "/ante 20", "/play"):
        await refused(ANN, line, line)
    await accepted(service, "/ante 10")
    await refused(ANN, *BOX_REFUSED[game])
    await service.handle(PLACE, BOB, "/ante 10")
    dealt = await accepted(service, "/deal")
    old_fold = press_label(dealt, "fold")
    await refused(BOB, "/fold", "out of turn")
    await refused(CAT, "/fold", "no box")
    await refused(CAT, "", "no box", button=old_fold)
    for actor, line, reason in GAME_REFUSED[game]:
        if reason is None:
            assert (await service.handle(PLACE, actor, line)).error is None, line
        else:
            await refused(actor, line, reason)
    await accepted(service, "/ante 10")
    await accepted(service, "/deal")
    await refused(ANN, "", "stale", button=old_fold)
    await ledger_ok(service)
