"""Caribbean Poker (RULES.md §4) and Three Card Poker (§5) through the service, rule by rule, on stacked decks: each
paytable line, the dealer's qualifying hand, ties and the bonus and Pair Plus bets, by the exact chips Ann's wallet
gains or loses and the box's exact settlement line. Ann's box is dealt first, the dealer's cards next, then what an
exchange draws."""

from __future__ import annotations

import pytest

from bot.output import Actor, Place
from bot.render import cards_text
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import ledger_ok, press_label, stack_house_deck
from tests.bot.test_house_wallet import accepted, open_table
from tests.bot.test_service_games import wallets

QUALIFIED = "As Kd 8c 6s 3d"
"""A Caribbean dealer with ace-king, the lowest hand that qualifies."""


async def ann_plays(service: Service, monkeypatch: pytest.MonkeyPatch, game: str, cards: str, bets: str,
                    *decisions: str, setting: str = "") -> tuple[int, str]:
    """Ann alone (after the organizer's `setting`, if any) bets `bets` on a deck stacked with `cards`, has it dealt
    and takes `decisions`: what the round won or lost her wallet, and her box's settlement line."""
    stack_house_deck(monkeypatch, cards)
    await service.handle(PLACE, ANN, f"/game {game}")
    for line in filter(None, (setting, bets, "/deal", *decisions)):
        reply = await service.handle(PLACE, ANN, line)
        assert reply.error is None, (line, reply.error)
    await ledger_ok(service)
    lines = reply.public[-1].split("\n")
    assert lines[-1].startswith(("Round over: Ann ", "Раунд окончен: Ann "))  # `setting` may be a `/lang`
    return (await wallets(service))["ann"] - 1000, lines[-2]


@pytest.mark.parametrize(("hand", "name", "bet", "bonus"), [
    ("9h 9d 2c 4s 7h", "a pair of nines, seven kicker", 1, 0),
    ("9h 9d 4c 4h 7h", "two pair, nines and fours, seven kicker", 2, 0),
    ("9h 9d 9c 4h 7h", "three of a kind, nines, seven kicker", 3, 0),
    ("5h 6d 7c 8s 9h", "a straight to the nine", 4, 5),
    ("2h 5h 7h 9h Jh", "a flush, jack high", 5, 7),
    ("9h 9d 9c 4h 4c", "a full house, nines full of fours", 7, 10),
    ("9h 9d 9c 9s 4h", "four of a kind, nines, four kicker", 20, 50),
    ("5h 6h 7h 8h 9h", "a straight flush to the nine", 50, 100),
    ("Th Jh Qh Kh Ah", "royal flush", 100, 500),
], ids=["pair", "two-pair", "trips", "straight", "flush", "full-house", "quads", "straight-flush", "royal"])
async def test_caribbean_pays_the_bet_by_its_paytable_and_the_bonus_by_the_dealt_hand(
        service: Service, monkeypatch: pytest.MonkeyPatch, hand: str, name: str, bet: int, bonus: int) -> None:
    """RULES.md §4: against a qualified dealer a higher hand wins ANTE 1:1 and BET by the paytable (pair 1, two pair
    2, three of a kind 3, straight 4, flush 5, full house 7, four of a kind 20, straight flush 50, royal 100); the
    bonus bet of 10 pays on the dealt hand from a straight up (5, 7, 10, 50, 100, 500 to 1) and is lost below."""
    net = 10 + 20 * bet + (10 * bonus if bonus else -10)
    bonus_line = f"BONUS +{10 * bonus:,} ({name}, ×{bonus})" if bonus else "BONUS −10"
    settled = (f"Ann, box 1: wins (+{net:,}) — {name}: {cards_text(hand.split())}; ANTE +10 · BET +{20 * bet:,} "
               f"({name}, ×{bet}) · {bonus_line}.")
    assert await ann_plays(service, monkeypatch, "caribbean", f"{hand}  {QUALIFIED}", "/ante 10 bonus 10",
                           "/play") == (net, settled)


@pytest.mark.parametrize(("language", "boxes"), [
    ("en", ["  Ann · box 1 · ANTE 10 · BONUS 10 (+50) · BET 20 · settled +140",
            "  Ann · box 2 · ANTE 10 · BONUS 10 (−10) · BET 20 · settled +20",
            "  Ann · box 3 · ANTE 10 · BONUS 10 (−10) · settled −20"]),
    ("ru", ["  Ann · бокс 1 · АНТЕ 10 · БОНУС 10 (+50) · БЕТ 20 · рассчитан +140",
            "  Ann · бокс 2 · АНТЕ 10 · БОНУС 10 (−10) · БЕТ 20 · рассчитан +20",
            "  Ann · бокс 3 · АНТЕ 10 · БОНУС 10 (−10) · рассчитан −20"]),
])
async def test_the_settled_caribbean_table_shows_every_boxs_bonus_result(
        service: Service, monkeypatch: pytest.MonkeyPatch, language: str, boxes: list[str]) -> None:
    """Once the round is settled, the table shows what each box's bonus bet did, on the boxes that played (a
    straight dealt wins it 5:1, a pair loses it) as on the one that folded."""
    stack_house_deck(monkeypatch, f"5h 6d 7c 8s 9h  9c 9d 2c 4s 7h  Jc Td 3c 4h 7d  {QUALIFIED}")
    await service.handle(PLACE, ANN, "/game caribbean")
    await service.handle(PLACE, ANN, f"/lang {language}")
    for line in ("/ante 10 bonus 10", "/ante 10 box 2 bonus 10", "/ante 10 box 3 bonus 10", "/deal", "/play",
                 "/play"):
        assert (await service.handle(PLACE, ANN, line)).error is None, line
    settled = await service.handle(PLACE, ANN, "/fold")
    assert settled.table is not None
    assert settled.table.text.splitlines()[2:5] == boxes
    await ledger_ok(service)


@pytest.mark.parametrize(("cards", "bets", "net", "settled"), [
    ("2h 2d 5c 7s 9h  Qs Jd 8c 6s 3d", "/ante 10", 10,
     "Ann, box 1: dealer does not qualify (+10) — a pair of twos, nine kicker: 2♥ 2♦ 5♣ 7♠ 9♥; ANTE +10 · BET 0."),
    ("5h 6d 7c 8s 9h  As Qd 8c 6s 3d", "/ante 10 bonus 10", 10 + 50,
     "Ann, box 1: dealer does not qualify (+60) — a straight to the nine: 5♥ 6♦ 7♣ 8♠ 9♥; ANTE +10 · BET 0 · BONUS "
     "+50 (a straight to the nine, ×5)."),
    ("Ah Qd 9c 5s 2h  " + QUALIFIED, "/ante 10", -30,
     "Ann, box 1: loses (−30) — ace high: A♥ Q♦ 9♣ 5♠ 2♥; ANTE −10 · BET −20."),
    ("9h 9d 2c 4s 7h  As Ad 8c 6s 3d", "/ante 10", -30,
     "Ann, box 1: loses (−30) — a pair of nines, seven kicker: 9♥ 9♦ 2♣ 4♠ 7♥; ANTE −10 · BET −20."),
], ids=["not-qualified", "not-qualified-bonus", "ace-king-qualifies", "dealer-higher"])
async def test_caribbean_dealer_qualifies_with_ace_king(service: Service, monkeypatch: pytest.MonkeyPatch, cards: str,
                                                       bets: str, net: int, settled: str) -> None:
    """RULES.md §4: the dealer qualifies with ace-king or better (ace-queen does not); not qualified pays the ANTE 1:1
    and returns the BET, whatever the box holds (the bonus is still paid on the dealt hand); a qualified dealer who
    is higher takes ANTE and BET."""
    assert await ann_plays(service, monkeypatch, "caribbean", cards, bets, "/play") == (net, settled)


@pytest.mark.parametrize(("cards", "net", "settled"), [
    ("Ah Kd 8c 6s 3d  As Kc 8d 6h 3c", 30,
     "Ann, box 1: wins on the suit of the highest card, ♥ > ♣ > ♦ > ♠ (+30) — ace-king: A♥ K♦ 8♣ 6♠ 3♦; ANTE +10 · "
     "BET +20 (ace-king, ×1)."),
    ("As Kd 8c 6h 3d  Ac Kc 8d 6s 3c", -30,
     "Ann, box 1: loses on the suit of the highest card, ♥ > ♣ > ♦ > ♠ (−30) — ace-king: A♠ K♦ 8♣ 6♥ 3♦; ANTE −10 · "
     "BET −20."),
    ("As Kd 9c 6h 3d  Ah Kc 8d 6s 3c", 30,
     "Ann, box 1: wins (+30) — ace-king: A♠ K♦ 9♣ 6♥ 3♦; ANTE +10 · BET +20 (ace-king, ×1)."),
    ("5h 4d 3c 2s As  5s 4c 3d 2h Ad", 10 + 20 * 4,
     "Ann, box 1: wins on the suit of the highest card, ♥ > ♣ > ♦ > ♠ (+90) — a straight to the five: 5♥ 4♦ 3♣ 2♠ "
     "A♠; ANTE +10 · BET +80 (a straight to the five, ×4)."),
    ("9h 9s Kd 5c 3h  9c 9d Kc 5d 3s", 30,
     "Ann, box 1: wins on the suit of the highest card, ♥ > ♣ > ♦ > ♠ (+30) — a pair of nines, king kicker: 9♥ 9♠ K♦ "
     "5♣ 3♥; ANTE +10 · BET +20 (a pair of nines, king kicker, ×1)."),
], ids=["hearts-over-clubs", "spades-under-clubs", "card-by-card-first", "wheel-five-is-highest", "pair-first"])
async def test_caribbean_ties_go_by_the_suit_of_the_highest_card(service: Service, monkeypatch: pytest.MonkeyPatch,
                                                                cards: str, net: int, settled: str) -> None:
    """RULES.md §4: equal hands compare card by card; only when every rank is equal does the suit of the highest card
    decide, hearts > clubs > diamonds > spades (a five-high straight's highest card is its five, not the ace; a
    pair's is the better of its pair, compared first, as `engine.hands.caribbean_key` reads it: not the king kicker,
    where Ann's K♦ is under the dealer's K♣)."""
    assert await ann_plays(service, monkeypatch, "caribbean", cards, "/ante 10", "/play") == (net, settled)


@pytest.mark.parametrize(("setting", "decisions", "net", "settled"), [
    ("", ("/exchange 2 3", "/play"), 10 + 20 * 3 - 2 * 10,
     "Ann, box 1: wins (+50) — three of a kind, twos, jack kicker: 2♥ J♠ 3♥ 2♣ 2♠; ANTE +10 · BET +60 (three of a "
     "kind, twos, jack kicker, ×3) · exchange fee −20."),
    ("", ("/exchange 2 3", "/fold"), -10 - 2 * 10, "Ann, box 1: folded (−30); ANTE −10 · exchange fee −20."),
    ("/set re_exchange on", ("/exchange 2", "/exchange 2", "/play"), 10 + 20 * 3 - 10 - 2 * 10,
     "Ann, box 1: wins (+40) — three of a kind, twos, jack kicker: 2♥ J♠ 3♥ 2♣ 2♠; ANTE +10 · BET +60 (three of a "
     "kind, twos, jack kicker, ×3) · exchange fee −10 · second exchange fee −20."),
], ids=["exchange-then-play", "exchange-then-fold", "re-exchange"])
async def test_caribbean_exchanges_cost_an_ante_a_card_and_a_re_exchange_two(
        service: Service, monkeypatch: pytest.MonkeyPatch, setting: str, decisions: tuple[str, ...], net: int,
        settled: str) -> None:
    """RULES.md §4: an exchange costs 1×ANTE per card; the table option allows one card again for 2×ANTE; after each
    the box continues (BET 2×ANTE) or folds (ANTE lost); the fees are never returned. Ann's 5♦ 9♣ go for 2♣ 2♠."""
    assert await ann_plays(service, monkeypatch, "caribbean", "2h 5d 9c Js 3h  As Kd 8c 6s 4d  2c 2s", "/ante 10",
                           *decisions, setting=setting) == (net, settled)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Swap again takes 1 card, not 2."),
    ("ru", "Ещё обмен: можно выбрать только 1 карту, а не 2."),
])
async def test_caribbean_re_exchange_of_two_cards_is_refused_saying_it_takes_one(
        store: Store, monkeypatch: pytest.MonkeyPatch, language: str, said: str) -> None:
    """RULES.md §4: the re-exchange swaps a single card. Two cards typed, or marked on the card buttons, are refused
    saying how many it takes (not "You may not choose 2 cards for that", nor a second mark that leaves the table
    without an exchange button and no reason), and nothing moves."""
    stack_house_deck(monkeypatch, "2h 5d 9c Js 3h  As Kd 8c 6s 4d  2c 2s")
    service = await open_table(store, "caribbean", 1000, language)
    for line in ("/set re_exchange on", "/ante 10", "/deal", "/exchange 2"):
        await accepted(service, line)
    assert await refused_alike(service, [(ANN, "/exchange 1 2"), (ANN, "/select 1 2")]) == [said, said]


@pytest.mark.parametrize(("cards", "decisions", "net", "settled"), [
    ("5h 6d 7c 8s 9h  " + QUALIFIED + "  2c", ("/exchange 1", "/play"), -10 - 20 - 10 + 50,
     "Ann, box 1: loses to the dealer, but ends up (+10) — nine high: 6♦ 7♣ 8♠ 9♥ 2♣; ANTE −10 · BET −20 · "
     "BONUS +50 (a straight to the nine, ×5) · exchange fee −10."),
    ("9h 9d 2c 4s 7h  " + QUALIFIED + "  9c 9s 4h", ("/exchange 3 4 5", "/play"), 10 + 20 * 20 - 10 - 30,
     "Ann, box 1: wins (+370) — four of a kind, nines, four kicker: 9♥ 9♦ 9♣ 9♠ 4♥; ANTE +10 · BET +400 (four of a "
     "kind, nines, four kicker, ×20) · BONUS −10 · exchange fee −30."),
], ids=["straight-broken", "quads-drawn"])
async def test_caribbean_bonus_is_settled_on_the_hand_dealt_before_any_exchange(
        service: Service, monkeypatch: pytest.MonkeyPatch, cards: str, decisions: tuple[str, ...], net: int,
        settled: str) -> None:
    """RULES.md §4: the bonus pays when the dealt hand, before any exchange, is a straight or better: a straight
    broken by an exchange is still paid, four of a kind drawn to a pair is not."""
    assert await ann_plays(service, monkeypatch, "caribbean", cards, "/ante 10 bonus 10", *decisions) == (
        net, settled)


async def test_caribbean_caps_every_payment_of_a_box_at_the_maximum_payout(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §4: the maximum payout per box (default 10,000) caps every payment: a royal flush on an ANTE of 100
    with the bonus bet would win 100 + 20,000 + 5,000; the BET's line is cut first."""
    assert await ann_plays(service, monkeypatch, "caribbean", f"Th Jh Qh Kh Ah  {QUALIFIED}", "/ante 100 bonus 10",
                           "/play") == (10_000, (
        "Ann, box 1: wins (+10,000) — royal flush: T♥ J♥ Q♥ K♥ A♥; ANTE +100 · BET +4,900 (royal flush, ×100) · BONUS "
        "+5,000 (royal flush, ×500); payout capped at the table's maximum of 10,000."))


THREE_CARD_QUALIFIED = "Qs 8d 3c"
"""A Three Card dealer with queen high, the lowest hand that qualifies."""


@pytest.mark.parametrize(("hand", "net", "settled"), [
    ("9h 8h 7h", 5 * 40, "wins (+200) — a straight flush to the nine: 9♥ 8♥ 7♥; PAIRPLUS +200 (a straight flush to "
                         "the nine, ×40)."),
    ("9h 9d 9c", 5 * 20, "wins (+100) — three of a kind, nines: 9♥ 9♦ 9♣; PAIRPLUS +100 (three of a kind, nines, "
                         "×20)."),
    ("9h 8c 7c", 5 * 5, "wins (+25) — a straight to the nine: 9♥ 8♣ 7♣; PAIRPLUS +25 (a straight to the nine, ×5)."),
    ("2h 7h Jh", 5 * 4, "wins (+20) — a flush, jack high: 2♥ 7♥ J♥; PAIRPLUS +20 (a flush, jack high, ×4)."),
    ("9h 9d 5c", 5 * 1, "wins (+5) — a pair of nines, five kicker: 9♥ 9♦ 5♣; PAIRPLUS +5 (a pair of nines, five "
                        "kicker, ×1)."),
    ("Ah Kd 9c", -5, "loses (−5) — ace high: A♥ K♦ 9♣; PAIRPLUS −5."),
], ids=["straight-flush", "trips", "straight", "flush", "pair", "ace-high"])
async def test_three_card_pairplus_is_paid_on_the_deal_by_its_paytable(
        service: Service, monkeypatch: pytest.MonkeyPatch, hand: str, net: int, settled: str) -> None:
    """RULES.md §5: PAIRPLUS is settled on the deal, whatever the dealer holds (here queen high): straight flush 40,
    three of a kind 20, straight 5, flush 4, pair 1, lower hands lose it. A box with PAIRPLUS alone ends the round
    with the deal."""
    assert await ann_plays(service, monkeypatch, "three-card", f"{hand}  {THREE_CARD_QUALIFIED}",
                           "/ante 0 pp 5") == (net, f"Ann, box 1: {settled}")


@pytest.mark.parametrize(("cards", "decision", "net", "settled"), [
    ("4s 5d 6c  2h 7h 9h", "/play", 10 + 10 + 10,
     "wins (+30) — a straight to the six: 4♠ 5♦ 6♣; ANTE +10 · PLAY +10 (a straight to the six, ×1) · ANTE bonus +10 "
     "(a straight to the six, ×1)."),
    ("Kh 5d 2c  " + THREE_CARD_QUALIFIED, "/play", 10 + 10,
     "wins (+20) — king high: K♥ 5♦ 2♣; ANTE +10 · PLAY +10 (king high, ×1)."),
    ("Jh 5d 2c  " + THREE_CARD_QUALIFIED, "/play", -20, "loses (−20) — jack high: J♥ 5♦ 2♣; ANTE −10 · PLAY −10."),
    ("Th 5d 2c  Js 9d 3c", "/play", 10,
     "dealer does not qualify (+10) — ten high: T♥ 5♦ 2♣; ANTE +10 · PLAY 0."),
    ("Kh 8c 3d  Ks 8d 3c", "/play", 0, "push (0) — king high: K♥ 8♣ 3♦; ANTE 0 · PLAY 0."),
    ("Kh 5d 2c  " + THREE_CARD_QUALIFIED, "/fold", -10, "folded (−10); ANTE −10."),
    ("Ah 2d 3c  Kh Qd 9s", "/play", 10 + 10 + 10,
     "wins (+30) — a straight to the three: A♥ 2♦ 3♣; ANTE +10 · PLAY +10 (a straight to the three, ×1) · ANTE bonus "
     "+10 (a straight to the three, ×1)."),
    ("As Kd Qc  Ah 2d 3c", "/play", 10 + 10 + 10,
     "wins (+30) — a straight to the ace: A♠ K♦ Q♣; ANTE +10 · PLAY +10 (a straight to the ace, ×1) · ANTE bonus +10 "
     "(a straight to the ace, ×1)."),
    ("Ah 2d 3c  2h 3d 4s", "/play", -20,
     "loses (−20) — a straight to the three: A♥ 2♦ 3♣; ANTE −10 · PLAY −10."),
], ids=["straight-beats-flush", "queen-high-qualifies", "dealer-higher", "jack-high-does-not-qualify", "push",
        "fold", "ace-two-three-is-a-straight", "ace-king-queen-tops-ace-two-three", "ace-two-three-is-lowest"])
async def test_three_card_plays_against_a_dealer_who_qualifies_with_queen_high(
        service: Service, monkeypatch: pytest.MonkeyPatch, cards: str, decision: str, net: int, settled: str) -> None:
    """RULES.md §5: play puts 1×ANTE on PLAY, fold loses the ANTE; the dealer qualifies with queen high; not
    qualified pays the ANTE 1:1 and returns PLAY; qualified, the higher hand wins ANTE and PLAY 1:1 and equal is a
    push; a straight beats a flush, A-K-Q is the top straight and A-2-3 the lowest."""
    assert await ann_plays(service, monkeypatch, "three-card", cards, "/ante 10", decision) == (
        net, f"Ann, box 1: {settled}")


@pytest.mark.parametrize(("cards", "net", "settled"), [
    ("4s 5s 6s  " + THREE_CARD_QUALIFIED, 10 + 10 + 10 * 4,
     "wins (+60) — a straight flush to the six: 4♠ 5♠ 6♠; ANTE +10 · PLAY +10 (a straight flush to the six, ×1) · "
     "ANTE bonus +40 (a straight flush to the six, ×4)."),
    ("9h 9d 9c  " + THREE_CARD_QUALIFIED, 10 + 10 + 10 * 3,
     "wins (+50) — three of a kind, nines: 9♥ 9♦ 9♣; ANTE +10 · PLAY +10 (three of a kind, nines, ×1) · ANTE bonus "
     "+30 (three of a kind, nines, ×3)."),
    ("4s 5d 6c  Js 9d 3c", 10 + 10,
     "dealer does not qualify (+20) — a straight to the six: 4♠ 5♦ 6♣; ANTE +10 · PLAY 0 · ANTE bonus +10 (a "
     "straight to the six, ×1)."),
    ("4s 5d 6c  4h 5c 6d", 10,
     "push (+10) — a straight to the six: 4♠ 5♦ 6♣; ANTE 0 · PLAY 0 · ANTE bonus +10 (a straight to the six, ×1)."),
], ids=["straight-flush", "trips", "dealer-not-qualified-counts-as-a-win", "tie"])
async def test_three_card_ante_bonus_pays_when_the_box_wins_or_ties(
        service: Service, monkeypatch: pytest.MonkeyPatch, cards: str, net: int, settled: str) -> None:
    """RULES.md §5: the ante bonus (straight flush 4, three of a kind 3, straight 1 on the ANTE) pays when the player
    wins or ties, whatever the dealer holds; a dealer who does not qualify counts as a win. (A loss: see
    test_three_card_ante_bonus_pays_whenever_the_box_plays_as_a_table_option.)"""
    assert await ann_plays(service, monkeypatch, "three-card", cards, "/ante 10", "/play") == (
        net, f"Ann, box 1: {settled}")


@pytest.mark.parametrize(("tier", "refused"), [
    ("lite", [("/ante 51", "ANTE must be 1 to 50 at this table, not 51."),
              ("/ante 10 pp 26", "The PAIRPLUS bet must be 1 to 25 at this table, not 26.")]),
    ("respect", [("/ante 4", "ANTE must be 5 to 500 at this table, not 4."),
                 ("/ante 501", "ANTE must be 5 to 500 at this table, not 501."),
                 ("/ante 5 pp 101", "The PAIRPLUS bet must be 1 to 100 at this table, not 101.")]),
    ("vip", [("/ante 24", "ANTE must be 25 to 2,000 at this table, not 24."),
             ("/ante 2001", "ANTE must be 25 to 2,000 at this table, not 2,001."),
             ("/ante 25 pp 501", "The PAIRPLUS bet must be 1 to 500 at this table, not 501.")]),
])
async def test_three_card_tiers_set_the_ante_and_pairplus_ranges(service: Service, tier: str,
                                                                 refused: list[tuple[str, str]]) -> None:
    """RULES.md §5: LITE ANTE 1–50, PAIRPLUS 0–25; RESPECT 5–500, 0–100; VIP 25–2000, 0–500 (a PAIRPLUS of 0 is no
    PAIRPLUS). A bet outside them is refused and moves nothing."""
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, f"/set tier {tier}")).error is None
    before = dump(service.store.location)
    assert [(line, (await service.handle(PLACE, ANN, line)).error) for line, _ in refused] == refused
    assert dump(service.store.location) == before


async def refused_alike(service: Service, lines: list[tuple[Actor, str]], place: Place = PLACE) -> list[str]:
    """Each line's refusal at `place`, having checked that none was said at the table or moved a chip (the database
    and every wallet as they were)."""
    before, chips = dump(service.store.location), await wallets(service)
    said = []
    for actor, line in lines:
        reply = await (service.press(place, actor, line.removeprefix("press ")) if line.startswith("press ")
                       else service.handle(place, actor, line))
        assert reply.public == [] and reply.table is None, line
        said.append(reply.error or "")
    assert dump(service.store.location) == before and await wallets(service) == chips
    return said


BETS_REFUSED = {
    ("caribbean", "en"): [
        "/raise is not used in Caribbean Poker.", "No round is in play: an ANTE (/ante chips) opens the next one.",
        "ANTE must be a whole number of chips, not “-5”.", "ANTE must be 1 to 100 at this table, not 0.",
        "ANTE must be a whole number of chips, not “1O”.",
        "ANTE must be 1 to 100 at this table, not 101.",
        "The BONUS bet must be a whole number of chips, not “-3”.",
        "The BONUS bet is 10 at this table, not 0.",
        "The BONUS bet must be a whole number of chips, not “x”.",
        "The BONUS bet is 10 at this table, not 26.", "The box must be 1, 2 or 3, not “4”.",
        "That needs 45 chips but you have 40.",
        "Not enough chips for an ANTE on box 1: with the bets still to follow (BET or PLAY) your boxes need 60, you "
        "have 40.",
        "This table takes no PAIRPLUS bet: its side bet is BONUS."],
    ("caribbean", "ru"): [
        "/raise не используется в этой игре: Карибский покер.",
        "Сейчас раунда нет: АНТЕ (/ante фишки) открывает следующий.",
        "АНТЕ: нужно целое число фишек, а не «-5».", "АНТЕ за этим столом — от 1 до 100, а не 0.",
        "АНТЕ: нужно целое число фишек, а не «1O».", "АНТЕ за этим столом — от 1 до 100, а не 101.",
        "Ставка БОНУС: нужно целое число фишек, а не «-3».",
        "Ставка БОНУС за этим столом — ровно 10, а не 0.",
        "Ставка БОНУС: нужно целое число фишек, а не «x».",
        "Ставка БОНУС за этим столом — ровно 10, а не 26.", "Бокс — это 1, 2 или 3, а не «4».",
        "Нужно 45 фишек, а у вас 40.",
        "Для АНТЕ на боксе 1 не хватит фишек: вместе с последующими ставками (БЕТ или ИГРА) вашим боксам нужно 60, а "
        "у вас 40.",
        "Ставки «Пара плюс» за этим столом нет: дополнительная ставка здесь — БОНУС."],
    ("three-card", "en"): [
        "/raise is not used in Three Card Poker.", "No round is in play: an ANTE (/ante chips) opens the next one.",
        "ANTE must be a whole number of chips, not “-5”.",
        "An ANTE of 0 is for a box with the PAIRPLUS bet alone: add it, or bet an ANTE of 1 to 50.",
        "ANTE must be a whole number of chips, not “1O”.", "ANTE must be 1 to 50 at this table, not 51.",
        "The PAIRPLUS bet must be a whole number of chips, not “-3”.",
        "An ANTE of 0 is for a box with the PAIRPLUS bet alone: add it, or bet an ANTE of 1 to 50.",
        "The PAIRPLUS bet must be a whole number of chips, not “x”.",
        "The PAIRPLUS bet must be 1 to 25 at this table, not 26.", "The box must be 1, 2 or 3, not “4”.",
        "That needs 45 chips but you have 40.",
        "Not enough chips for an ANTE on box 1: with the bets still to follow (BET or PLAY) your boxes need 50, you "
        "have 40.",
        "This table takes no BONUS bet: its side bet is PAIRPLUS."],
    ("three-card", "ru"): [
        "/raise не используется в этой игре: Трёхкарточный покер.",
        "Сейчас раунда нет: АНТЕ (/ante фишки) открывает следующий.",
        "АНТЕ: нужно целое число фишек, а не «-5».",
        "АНТЕ 0 — для бокса только со ставкой «Пара плюс»: добавьте её или поставьте АНТЕ от 1 до 50.",
        "АНТЕ: нужно целое число фишек, а не «1O».", "АНТЕ за этим столом — от 1 до 50, а не 51.",
        "Ставка «Пара плюс»: нужно целое число фишек, а не «-3».",
        "АНТЕ 0 — для бокса только со ставкой «Пара плюс»: добавьте её или поставьте АНТЕ от 1 до 50.",
        "Ставка «Пара плюс»: нужно целое число фишек, а не «x».",
        "Ставка «Пара плюс» за этим столом — от 1 до 25, а не 26.", "Бокс — это 1, 2 или 3, а не «4».",
        "Нужно 45 фишек, а у вас 40.",
        "Для АНТЕ на боксе 1 не хватит фишек: вместе с последующими ставками (БЕТ или ИГРА) вашим боксам нужно 50, а "
        "у вас 40.",
        "Ставки БОНУС за этим столом нет: дополнительная ставка здесь — «Пара плюс»."],
}
"""What Ann is told, in turn, for each line of the test below."""


@pytest.mark.parametrize(("game", "language"), sorted(BETS_REFUSED))
async def test_bad_bets_are_refused_in_the_players_language_and_move_no_chip(store: Store, game: str,
                                                                            language: str) -> None:
    """RULES.md "Chips, balances and limits": a bet over the wallet, outside the table's limits or malformed is
    refused with the reason, in the player's language, and changes nothing; so is a command of another game, the
    other game's side bet (`pp` at Caribbean Poker, `bonus` at Three Card Poker) or a decision before any ANTE. Ann's
    wallet: 40. (A PAIRPLUS of 0 is none: refused only with an ANTE of 0.)"""
    service = await open_table(store, game, 40, language)
    side, top, short, zero = ("bonus", 101, 20, "10") if game == "caribbean" else ("pp", 51, 25, "0")
    lines = ["/raise 20", "/play", "/ante -5", "/ante 0", "/ante 1O", f"/ante {top}", f"/ante 10 {side} -3",
             f"/ante {zero} {side} 0", f"/ante 10 {side} x", f"/ante 10 {side} 26", "/ante 10 box 4",
             "/ante 45", f"/ante {short}", f"/ante 10 {'pp' if game == 'caribbean' else 'bonus'} 5"]
    assert await refused_alike(service, [(ANN, line) for line in lines]) == BETS_REFUSED[game, language]


IN_ROUND_REFUSED = {
    "en": ["This round is over.", "It's not your turn: waiting for Ann.", "It's not your turn: waiting for Ann.",
           "You have no box in this round: place an ANTE (/ante chips) before the next one is dealt.",
           "/raise is not used in {game}.", "A round is in play: wait for the next one to bet."],
    "ru": ["Этот раунд уже закончился.", "Сейчас не ваш ход: ходит Ann.", "Сейчас не ваш ход: ходит Ann.",
           "У вас нет бокса в этом раунде: поставьте АНТЕ (/ante фишки) до сдачи следующего.",
           "/raise не используется в этой игре: {game}.", "Идёт раунд: ставьте в следующем."],
}
"""What each refused line of the test below is told, by language ({game}: the game's name in it)."""

GAME_NAMES = {("caribbean", "en"): "Caribbean Poker", ("caribbean", "ru"): "Карибский покер",
              ("three-card", "en"): "Three Card Poker", ("three-card", "ru"): "Трёхкарточный покер"}


@pytest.mark.parametrize(("game", "language"), sorted(GAME_NAMES))
async def test_decisions_out_of_turn_without_a_box_or_from_an_earlier_round_move_no_chip(
        store: Store, game: str, language: str) -> None:
    """RULES.md: a bet out of turn is refused with the reason; a button acts only on the box and decision it was
    drawn for. In round 2, Ann's fold button of round 1, Bob's /play and his press of Ann's button while Ann decides,
    Cat's /play with no box and a late ANTE are refused in the player's language and move no chip."""
    service = await open_table(store, game, 40, language)
    await accepted(service, "/ante 5")
    old = press_label(await accepted(service, "/deal"), "fold")
    await accepted(service, "/fold")
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/ante 5")).error is None
    current = press_label(await accepted(service, "/deal"), "fold")
    assert await refused_alike(service, [(ANN, f"press {old}"), (BOB, "/play"), (BOB, f"press {current}"),
                                         (CAT, "/play"), (CAT, "/raise 10"), (ANN, "/ante 5 box 2")]) == [
        said.format(game=GAME_NAMES[game, language]) for said in IN_ROUND_REFUSED[language]]


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "The BONUS bet is 10 at this table, not 0."),
    ("ru", "Ставка БОНУС за этим столом — ровно 10, а не 0."),
])
async def test_a_pairplus_of_0_is_none_where_its_range_starts_at_0_and_a_bonus_of_0_is_refused(
        service: Service, language: str, refusal: str) -> None:
    """RULES.md §5: PAIRPLUS is 0–25 at a LITE table, so `/ante 10 pp 0` is an ANTE without PAIRPLUS, where it was
    refused as "not a whole number of chips above zero"; §4's bonus has one size (10), so `bonus 0` is refused with
    that size, and nothing moves."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/ante 10 pp 0")).error is None
    assert (await wallets(service))["ann"] == 1000 - 10 - 10  # the ANTE, and the PLAY kept for it
    placed = await service.handle(PLACE, ANN, "/table")
    assert placed.table is not None and placed.table.text.splitlines()[2] == (
        "  Ann · box 1 · ANTE 10 · waiting" if language == "en" else "  Ann · бокс 1 · АНТЕ 10 · ждёт")
    other = Place(PLACE.chat_id, "chat/other")
    await service.handle(other, ANN, "/game caribbean")
    assert await refused_alike(service, [(ANN, "/ante 10 bonus 0")], other) == [refusal]
