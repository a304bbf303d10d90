"""Both languages: the catalogues match key for key, every key the code uses exists, every engine rule error has a
message, and whole hands in a Russian chat read in Russian."""

from __future__ import annotations

import ast
import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from bot import commands as cmd
from bot.clock import FakeClock
from bot.games import default_controllers, house_buttons, zones
from bot.games.exports import LEDGER_COLUMNS, LEDGER_REASONS, PLAYER_COLUMNS, TRANSFER_COLUMNS
from bot.games.holdem_settings import DEFAULTS as HOLDEM_SETTINGS
from bot.i18n import Plural, catalogue, languages, parse, placeholders, text
from bot.output import Actor, Place
from bot.render.hands import FORMS
from bot.service import Service
from bot.store import Store
from bot.web.view import LABELS as CLOCK_PAGE_LABELS
from engine.betting import STRUCTURES, Street
from engine.cards import RANK_CHARS, Deck
from engine.common import RuleError
from engine.hands import HandCategory, RussianCategory, ThreeCardCategory
from engine.house import GAMES
from engine.house.common import BoxStatus
from engine.house.odds import PAYTABLES
from engine.house.three_card import TIERS_LIMITS
from engine.preactions import PreAction
from tests.bot.conftest import ANN, BOB, PLACE
from tests.bot.helpers import all_text, everything_public, listen, play_out, started_service, table_showed
from tests.bot.words_helpers import render_action

ROOT = Path(__file__).resolve().parents[2]
EN, RU = catalogue("en"), catalogue("ru")


def _python_files(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package).rglob("*.py") if "__pycache__" not in path.parts)


# --- the catalogues ---------------------------------------------------------------------------------------------


def test_both_languages_are_offered() -> None:
    assert set(languages()) >= {"en", "ru"}


def test_every_english_file_has_a_russian_twin() -> None:
    english = {path.name for path in (ROOT / "bot/locales/en").glob("*.json")}
    russian = {path.name for path in (ROOT / "bot/locales/ru").glob("*.json")}
    assert english == russian


def test_both_catalogues_have_the_same_keys() -> None:
    assert sorted(set(EN) - set(RU)) == []
    assert sorted(set(RU) - set(EN)) == []


@pytest.mark.parametrize("key", sorted(EN))
def test_a_message_has_the_same_placeholders_in_both_languages(key: str) -> None:
    assert placeholders(RU[key]) == placeholders(EN[key])
    assert RU[key].strip(), "empty translation"


def test_russian_messages_are_translated() -> None:
    """A Russian message identical to the English one is a forgotten translation, unless it holds no words (or is
    a command as both languages' texts type it, which Discord shows otherwise: `discord.typed.*`)."""
    same = [key for key in EN if RU[key] == EN[key] and re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", EN[key]))
            and not key.startswith("discord.typed.")]
    # patterns made only of command words, and the limit tiers' names (RULES.md §5), the casino's in both languages
    assert sorted(same) == ["house.usage.bonus", "house.usage.box", "setting.value.tier.lite",
                            "setting.value.tier.respect", "setting.value.tier.vip", "usage.back", "usage.game",
                            "usage.pre", "usage.straddle"]


NAMES = ("player", "winner", "loser", "button", "owner")
"""Placeholders that hold a player's name, which Russian cannot decline: "у Аня", "за Катя" read wrong."""
_DECLINING = re.compile(r"(?:^|[\s(«])(?:у|для|за|к|от|о|об|с|со|без|против|после)\s+\{(" + "|".join(NAMES) + r")\}",
                        re.IGNORECASE)  # a sentence's first word too: "У {player} вышло время"


def test_russian_never_declines_a_players_name() -> None:
    """A name after a preposition that governs an oblique case would have to be declined ("баттон у Ани"): the
    messages put it where the nominative reads right ("баттон — Аня", "баунти игрока Аня", "[лично: ann]")."""
    declined = {key: RU[key] for key in RU if _DECLINING.search(RU[key])}
    assert declined == {}
    assert RU["term.private"] == "[лично: {name}]"


def test_hand_names_in_russian() -> None:
    assert RU["hand.full_house"] == "фулл-хаус"
    assert RU["hand.straight_flush"] == "стрит-флеш"
    assert RU["hand.two_pair"] == "две пары"


@pytest.mark.parametrize(("key", "params", "russian"), [
    ("holdem.sat_out", {"player": "Cat"},
     "Cat пропускает раздачи, дважды не уложившись во время хода: /back, чтобы вернуться."),
    ("holdem.away_tournament", {"player": "Cat"},
     "Cat отойдёт со следующей раздачи: блайнды будут ставиться сами, а карты — сбрасываться, когда дойдёт ход; "
     "/back, чтобы вернуться."),
    ("rule.over_pot_limit", {"max": 120, "amount": 500},
     "Пот-лимит: ставить или поднимать можно не больше чем до 120, а не до 500."),
    ("export.unfinished", {"number": 3}, "Турнир №3 ещё идёт: выгрузить его можно будет, когда его закроют."),
    ("rule.straddle_limit", {}, "Стрэддл ставят только в играх без лимита и с пот-лимитом."),
])
def test_russian_reads_as_a_card_room_says_it(key: str, params: dict[str, object], russian: str) -> None:
    """Messages no other test reads in Russian: the table's word for the structure (пот-лимит, as the games are
    named), a player's sitting out said without repeating «пропускает» and without a gendered pronoun (the name may
    be anyone's), an export that can be made once the tournament is closed (not "when it is closed"), and the
    tables a straddle is played at «без лимита и с пот-лимитом» (not «и пот-лимит», a noun left uninflected)."""
    assert text("ru", key, **params) == russian


TERMS = {
    r"\bboards?\b": "борд",
    r"\bstacks?\b": "стек",
    r"\bside bets?\b": "дополнительн",
    r"\badd-ons?\b": "аддон",
    r"\bbuy-ins?\b": "бай-ин",
    r"\bpot\b": "банк|пот-лимит",
}
"""The house's Russian word for each poker term (a player who reads «стол» for the board, or «побочная ставка» beside
«побочный банк», is left to guess)."""


def test_russian_uses_one_word_per_term() -> None:
    """Where an English message names a term outside its placeholders, the Russian one says the house's word for it."""
    stray = {key: RU[key] for key in EN for english, russian in TERMS.items()
             if re.search(english, re.sub(r"\{\w+\}", " ", EN[key]), re.IGNORECASE)
             and not re.search(russian, RU[key], re.IGNORECASE)}
    assert stray == {}
    assert RU["picture.board"] == "Борд" and RU["house.side_result"].startswith("дополнительная ставка")


def test_russian_says_bank_only_for_a_pot() -> None:
    """«Банк» is the pot's word, so a Russian message says it only where the English one says "pot": a tournament's
    chips going back «в банк» on unregistering, or its chips' worth «Банк по курсу», read as the table's pot."""
    elsewhere = {key: RU[key] for key in RU
                 if re.search("банк", RU[key], re.IGNORECASE) and not re.search(r"\bpots?\b", EN[key], re.IGNORECASE)}
    assert elsewhere == {}
    assert re.search("банк", RU["holdem.main_pot"]), "the scan finds the pot's word"


LABEL_LENGTH = 24
"""The longest label a phone shows whole when two or three buttons share a row: Telegram cuts longer ones short."""

LARGEST_ANTE = max(limits.max_ante for limits in (*TIERS_LIMITS.values(),
                                                  *(round_type.rules_type().limits for round_type in GAMES.values())))
"""The largest ANTE a table's rules name (Three Card Poker's VIP tier, 2,000): any house table may be `/set` to it."""

EVERY_DECISION = {"caribbean": {"re_exchange_limit": 1}}
"""Table options that add a decision, so its button is drawn too: Caribbean Poker's re-exchange."""

DEALT = "Ah Kd 8c 6s 3d 2c 4d 7d 9h Jc"
"""The top of every game's deck: the box's cards, then a dealer with no game (Russian Poker offers to buy him one)."""


def _house_labels(language: str, game: str) -> tuple[set[str], set[str]]:
    """Every label of a house round's buttons as drawn for one box on the largest ANTE, each decision taken in turn
    (an exchange with as many cards as it takes, the most it costs), and the decisions they were drawn for."""
    round_type = GAMES[game]
    defaults = round_type.rules_type().to_dict()
    rules = round_type.rules_type.from_dict({**defaults, **EVERY_DECISION.get(game, {}),
                                             "limits": {**defaults["limits"], "max_ante": LARGEST_ANTE}})
    act = render_action(language)
    betting = round_type.new(rules)
    betting.place_bets("ann", 1, LARGEST_ANTE, balance=10**9)
    labels = {button.label for button in house_buttons.buttons(act, betting, "key", 0, ())}
    betting.deal(Deck.stacked(DEALT))
    names: set[str] = set()
    pending = [betting]
    while pending:
        round_ = pending.pop()
        box, options = round_.current_box(), round_.legal_actions().options
        if box is None:
            continue
        for selected in {(), *(tuple(range(1, option.max_cards + 1)) for option in options)}:
            labels |= {button.label for button in house_buttons.buttons(act, round_, "key", 1, selected)}
        for option in options:
            names.add(option.name)
            following = type(round_).from_dict(round_.to_dict())
            following.act("ann", option.name, box.cards[:option.max_cards])
            pending.append(following)
    return labels, names


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_button_label_fits_a_phones_button(language: str) -> None:
    """Every label fits a phone's button: a Hold'em one with a five-digit amount, a house round's as it is drawn (its
    cost appended) on the largest ANTE a table takes, at every decision of every game."""
    sample = {"chips": 12345, "player": "Ann"}
    labels = {text(language, key, **{name: sample[name] for name in placeholders(EN[key])})
              for key in EN if key.startswith("button.")}
    decisions: set[str] = set()
    for game in GAMES:
        drawn, names = _house_labels(language, game)
        labels |= drawn
        decisions |= names
    assert {f"house.action.{name}" for name in decisions} == {key for key in EN if key.startswith("house.action.")}
    assert len(labels) > 40
    assert sorted(label for label in labels if len(label) > LABEL_LENGTH) == []


_RULE_CLASSES = {"RuleError", "IllegalAmount", "NotYourTurn"}


@cache
def _engine_rule_sites() -> dict[str, list[tuple[str, set[str]]]]:
    """Every rule code raised (or built) in engine/, with the params each site passes."""
    sites: dict[str, list[tuple[str, set[str]]]] = {}
    pattern = re.compile(r"\b(?:RuleError|IllegalAmount|NotYourTurn)\(\s*\"(\w+)\"")
    for path in _python_files("engine"):
        source = path.read_text(encoding="utf-8")
        regex_codes = set(pattern.findall(source))
        ast_codes = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in _RULE_CLASSES and node.args:
                code = node.args[0]
                assert isinstance(code, ast.Constant), f"{path}:{node.lineno}: a rule code must be a literal"
                ast_codes.add(code.value)
                params = {keyword.arg for keyword in node.keywords if keyword.arg}
                sites.setdefault(code.value, []).append((f"{path.relative_to(ROOT)}:{node.lineno}", params))
        assert regex_codes == ast_codes, path
    return sites


# --- keys the code uses -----------------------------------------------------------------------------------------

_KEY_ARGUMENT = {"t": 0, "say": 0, "refuse": 0, "tell": 1, "text": 1, "Told": 1}
"""The calls that take a message key, and the position of the key."""


def _keys_in(node: ast.expr) -> tuple[set[str], set[str]]:
    """The literal keys an expression may give, and the literal prefixes of f-string keys."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}, set()
    if isinstance(node, ast.IfExp):
        body, body_prefixes = _keys_in(node.body)
        other, other_prefixes = _keys_in(node.orelse)
        return body | other, body_prefixes | other_prefixes
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        prefix = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
        return set(), {prefix}
    return set(), set()


@cache
def _used_keys() -> tuple[dict[str, str], dict[str, str]]:
    """Every literal key (and f-string prefix) passed to t/say/tell/refuse/text in bot/, with where it is."""
    literal: dict[str, str] = {}
    dynamic: dict[str, str] = {}
    for path in _python_files("bot"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            position = _KEY_ARGUMENT.get(name or "")
            if position is None or len(node.args) <= position:
                continue
            if name == "text" and isinstance(node.func, ast.Attribute):
                continue  # `draw.text(...)` in the pictures is Pillow's, not the catalogue's `text(language, key)`
            keys, prefixes = _keys_in(node.args[position])
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            literal.update(dict.fromkeys(keys, where))
            dynamic.update(dict.fromkeys(prefixes, where))
    return literal, dynamic


def test_the_scan_finds_the_keys() -> None:
    literal, dynamic = _used_keys()
    assert {"holdem.to_act_owes", "holdem.to_act", "not_enough_chips", "tg.sorry", "discord.done",
            "house.side_settled"} <= set(literal)  # the last told by a renderer's `Told`
    assert {"house.action.", "hand.", "stake."} <= set(dynamic)


def test_every_literal_key_exists_in_english() -> None:
    literal, _ = _used_keys()
    missing = {key: where for key, where in literal.items() if key not in EN}
    assert missing == {}


@cache
def _strings_in_bot() -> frozenset[str]:
    """Every string constant in bot/'s code: a message key it says, whether passed at once or through a variable."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in _python_files("bot")]
    return frozenset(node.value for tree in trees for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and isinstance(node.value, str))


def test_every_telegram_message_is_said_somewhere() -> None:
    """A key of the Telegram catalogue that no code names is a text no player reads, kept in two languages for
    nothing."""
    keys = json.loads((ROOT / "bot/locales/en/telegram.json").read_text("utf-8"))
    assert sorted(set(keys) - _strings_in_bot()) == []


def _engine_house_names() -> dict[str, set[str]]:
    """Names the house games hand to the application: actions, outcomes, stakes (read from the engine's source)."""
    names: dict[str, set[str]] = {"action": set(), "outcome": set(), "stake": set()}
    for path in _python_files("engine/house"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Dict):
                outcome = node.elts[1]  # `return {"ante": …}, "won"` and `results, outcome = {…}, "push"`
                if isinstance(outcome, ast.Constant):
                    names["outcome"].add(outcome.value)
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            args = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
            if name == "ActionOption" and args:
                names["action"].add(args[0])
            elif name == "_settle" and len(node.args) >= 3 and isinstance(node.args[2], ast.Constant):
                names["outcome"].add(node.args[2].value)
            elif name == "_stake" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                names["stake"].add(node.args[1].value)
            elif name == "_play":  # `_play(box, action, multiple, stake="bet")` stakes BET unless told otherwise
                stake = next((kw.value for kw in node.keywords if kw.arg == "stake"), None)
                names["stake"].add(stake.value if isinstance(stake, ast.Constant) else "bet")
    for path in _python_files("engine/house"):
        found = re.findall(r'side_name = "(\w+)"', path.read_text(encoding="utf-8"))
        names["stake"].update(found)
    names["stake"].add("ante")
    return names


@cache
def _dynamic_keys() -> dict[str, set[str]]:
    """For each f-string prefix the code builds keys from, every key it can build."""
    house = _engine_house_names()
    hands = {category.name.lower() for enum in (HandCategory, RussianCategory, ThreeCardCategory) for category in enum}
    hands.add("royal_flush")
    return {
        "house.action.": house["action"],
        "house.acted.": house["action"],
        "house.outcome.": house["outcome"] | {"won_on_suit", "lost_on_suit"},  # Caribbean's SUIT_OUTCOMES
        "house.status.": {status.value for status in BoxStatus},
        # the lowest hand that qualifies, where the hand does not tell
        "house.no_game_below.": {"ace_king", "pair", "high_card"},
        "house.fee.": {"buy", "exchange", "re_exchange", "dealer_game", "fee"},  # what a fee bought; "fee": unknown
        "house.usage.": {round_type.side_name for round_type in GAMES.values()} - {""},
        "house.hint.": {round_type.side_name for round_type in GAMES.values()} - {""},
        "stake.": house["stake"],
        "structure.": set(STRUCTURES),
        "game.": set(default_controllers()),
        "about.": {command.name for command in cmd.COMMANDS},
        "holdem.blind_": {"small", "big", "straddle"},
        "holdem.back_": {"post", "wait"},
        "holdem.pre.": {pre.value for pre in PreAction},
        "button.pre.": {pre.value for pre in PreAction},
        "holdem.street.": {Street.FLOP.value, Street.TURN.value, Street.RIVER.value},
        "holdem.on_run.": {"1", "2"},
        "button.run_": {"once", "twice"},
        "hand.": hands,
        "hand.says.": {"high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                       "four_of_a_kind", "straight_flush"},
        "hand.what.": {"pair", "top_pair", "low_pair", "three", "four", "kicker_1", "kicker_2", "kicker_3", "card_1",
                       "card_2", "card_3", "card_4", "card_5"},
        "rank.": {f"{rank}.{form}" for rank in RANK_CHARS for form in FORMS},
        "rule.": set(_engine_rule_sites()),
        "schedule.": set(re.findall(r'ScheduleError\(\s*"(\w+)"', (ROOT / "engine/schedule.py").read_text("utf-8"))),
        "option.": set(re.findall(r'OptionError\(\s*"(\w+)"',
                                  (ROOT / "engine/tournament_options.py").read_text("utf-8"))),
        "parse.": {"empty", "bad_text", "unknown_command", "did_you_mean", "usage", "bad_amount", "bad_stake",
                   "amount_too_large", "bad_box", "stale_button"},
        "parse.what.": {"amount", "ante", "pp", "pairplus", "bonus"},
        "odds.bet.": {"ante", "pairplus"},
        "odds.strategy.": set(GAMES),
        "odds.pays.": {field for fields in PAYTABLES.values() for field in fields.values()},
        "picture.moment.": {"flop", "turn", "river", "showdown", "deal", "reveal", "settled"},
        "clock_page.": set(CLOCK_PAGE_LABELS),
        "export.column.": {*LEDGER_COLUMNS, *PLAYER_COLUMNS, *TRANSFER_COLUMNS},
        "export.reason.": set(LEDGER_REASONS.values()),
        "tournament.priced.": {"rebuy", "addon", "reentry"},
        # every name `/set` takes: a cash table's, a house table's (RULES.md's limits and options), the time zone
        "setting.name.": {*HOLDEM_SETTINGS, zones.SETTING, "min_ante", "max_ante", "max_payout", "bet_seconds", "tier",
                          "bonus", "ante_bonus", "re_exchange"},
        "tournament.out_": {"rebuy", "reentry", "pending"},  # how a player out for now may come back
        "tournament.you_are_out_": {"rebuy", "reentry", "pending"},
        "": set(),  # `act.t(f"{kind}.{name}")` in a helper: its callers' prefixes are listed here
    }


def test_every_dynamic_key_prefix_is_known() -> None:
    """A new f-string key must be listed in `_dynamic_keys`, so the next test checks what it can produce."""
    _, dynamic = _used_keys()
    assert set(dynamic) <= set(_dynamic_keys()), set(dynamic) - set(_dynamic_keys())


@pytest.mark.parametrize("prefix", sorted(_dynamic_keys()))
def test_every_dynamic_key_exists_in_both_languages(prefix: str) -> None:
    keys = {prefix + name for name in _dynamic_keys()[prefix]}
    assert sorted(keys - set(EN)) == []
    assert sorted(keys - set(RU)) == []


def test_the_engine_names_are_found() -> None:
    house = _engine_house_names()
    assert {"fold", "play", "bet", "buy", "exchange", "dealer_game", "decline"} <= house["action"]
    assert {"won", "lost", "push", "dealer_not_qualified", "half_payout"} <= house["outcome"]
    assert {"ante", "bet", "play", "pairplus", "bonus"} <= house["stake"]


def test_every_parse_error_code_has_a_message() -> None:
    source = (ROOT / "bot/command_parser.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'CommandError\(\s*"(\w+)"', source))
    assert "bad_amount" in codes
    for code in codes:
        assert f"parse.{code}" in EN and f"parse.{code}" in RU


# --- engine rule errors -----------------------------------------------------------------------------------------

def test_the_engine_raises_rule_errors() -> None:
    sites = _engine_rule_sites()
    assert {"not_your_turn", "amount_range", "over_balance", "bad_ante", "clock_started"} <= set(sites)


@pytest.mark.parametrize("code", sorted(_engine_rule_sites()))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_rule_code_has_a_message_that_formats_with_each_sites_params(language: str, code: str) -> None:
    messages = catalogue(language)
    keys = [key for key in (f"rule.{code}", f"rule.{code}.exact") if key in messages]
    assert keys, f"no rule.{code} in {language}"
    for where, params in _engine_rule_sites()[code]:
        for key in keys:
            assert placeholders(messages[key]) <= params, f"{key} needs more than {where} passes"
            formatted = text(language, key, **{name: f"<{name}>" for name in params})
            assert "{" not in formatted


def test_no_rule_message_without_an_engine_code() -> None:
    codes = set(_engine_rule_sites())
    stale = {key for key in EN if key.startswith("rule.") and key.removeprefix("rule.").removesuffix(".exact")
             not in codes}
    assert stale == set()


def test_a_rule_refusal_reads_in_the_chats_language() -> None:
    from bot.games.context import Action

    def refusal(language: str, error: RuleError) -> str:
        act = Action(tx=None, place=Place("chat", "table"), actor=None, language=language, config={}, state={},
                     now=0.0, rng=random.Random(0), chat_settings={})
        return act.rule_refusal(error).message

    wide = RuleError("amount_range", "english", amount=15, min=40, max=80)
    exact = RuleError("amount_range", "english", amount=15, min=40, max=40)
    assert refusal("ru", wide) == "Сейчас нельзя поставить или поднять до 15: выберите от 40 до 80."
    assert refusal("ru", exact) == "Сейчас нельзя поставить или поднять до 15: сумма — ровно 40."
    assert refusal("en", RuleError("no_such_code", "the engine's own words")) == "the engine's own words"


# --- whole hands in Russian ---------------------------------------------------------------------------------------

_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[♠♥♦♣]")


def _english_left(message: str, names: set[str]) -> list[str]:
    """Latin-letter words in a message other than player names, cards and the casino's stake words."""
    allowed = names | {"PAIRPLUS", "box", "pp", "bonus"}  # the last three: command words, typed as they are
    words = re.findall(r"/?[A-Za-z][A-Za-z'’_.-]*", _CARD.sub("", message))
    return [word for word in words if word.strip(".") not in allowed and not word.startswith("/")]


async def test_a_holdem_hand_in_a_russian_chat_reads_in_russian(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/lang ru")).public == ["Язык чата: русский (ru)."]
    replies = [await service.handle(PLACE, ANN, "/join"), await service.handle(PLACE, BOB, "/join")]
    start = await service.handle(PLACE, ANN, "/deal")
    replies += await play_out(service, PLACE, {"ann": ANN, "bob": BOB}, start, preference=("check", "call"))
    replies.append(await service.handle(PLACE, ANN, "/raise 10"))  # refused between hands
    shown = "\n".join(all_text(replies))
    assert "Флоп:" in shown and "Тёрн:" in shown and "Ривер:" in shown
    assert "Вскрытие" in shown
    openings = {RU[key].split("{")[0] for key in RU if key.startswith("hand.says.")} - {""} | {"старш"}
    assert any(f"({opening}" in shown for opening in openings), shown  # a hand said in Russian at the showdown
    assert "домашний лимит" in shown
    for message in all_text(replies):
        assert _english_left(message, {"Ann", "Bob"}) == [], message
        assert not any(key in message for key in EN if "." in key), message


@pytest.mark.parametrize("line", ["/odds", "/tournament status"])
async def test_a_private_answer_is_wholly_in_the_readers_own_language(service: Service, line: str) -> None:
    """An answer only Bob reads, with `/lang ru me` in an English chat: its parts too (the game's name, the paytable,
    the tournament's status) are in Russian, where they were written in the chat's language inside his sentence."""
    await service.handle(PLACE, ANN, "/balance")  # the chat's first player: English
    if line == "/odds":
        await service.handle(PLACE, ANN, "/game caribbean")
    else:
        await service.handle(PLACE, ANN, "/tournament create")
    await service.handle(PLACE, BOB, "/lang ru me")
    answer = await service.handle(PLACE, BOB, line)
    (said,) = answer.private["bob"]
    assert _english_left(said, {"Ann", "Bob", "UTC"}) == [], said


async def test_a_house_round_in_a_russian_chat_reads_in_russian(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/game russian")
    replies = [await service.handle(PLACE, ANN, "/ante 10"), await service.handle(PLACE, BOB, "/ante 10")]
    start = await service.handle(PLACE, ANN, "/deal")
    replies += await play_out(service, PLACE, {"ann": ANN, "bob": BOB}, start)
    shown = "\n".join(all_text(replies))
    assert "АНТЕ 10" in shown and "Раунд окончен" in shown
    for message in all_text(replies):
        assert _english_left(message, {"Ann", "Bob"}) == [], message


async def test_a_platform_locale_picks_russian_when_the_chat_has_no_language(service: Service) -> None:
    ivan = Actor("tg:7", "Ivan", language="ru")
    reply = await service.handle(PLACE, ivan, "/balance")
    assert reply.private == {"tg:7": ["В кошельке 1\xa0000 фишек."]}
    assert (await service.handle(PLACE, ivan, "/frobnicate")).error == text("ru", "parse.unknown_command",
                                                                             command="/\u2060frobnicate")
    mary = Actor("dc:8", "Mary", language="en")
    assert (await service.handle(PLACE, mary, "/balance")).private == {"dc:8": ["Your wallet: 1,000 chips."]}
    # a player whose platform gives no locale hears the locale of the chat's first player
    assert (await service.handle(PLACE, ANN, "/balance")).private == {"ann": ["В кошельке 1\xa0000 фишек."]}
    await service.handle(PLACE, ivan, "/lang en")  # Ivan spoke first: he organizes the chat
    assert (await service.handle(PLACE, ivan, "/balance")).private == {"tg:7": ["Your wallet: 1,000 chips."]}


async def test_a_group_table_keeps_its_first_players_language_whoever_acts(service: Service) -> None:
    """A mixed group with no /lang: the table speaks the first player's language to everyone, however the others'
    platforms are set, and each actor still reads his own refusals and cards in his platform's language."""
    anna = Actor("tg:1", "Anna", language="en")
    ivan = Actor("tg:2", "Ivan", language="ru")
    cyrillic = re.compile("[а-яё]", re.IGNORECASE)
    await service.handle(PLACE, anna, "/join")
    joined = await service.handle(PLACE, ivan, "/join")
    dealt = await service.handle(PLACE, ivan, "/deal")
    for reply in (joined, dealt):
        shown = everything_public(reply)
        assert "Ivan" in shown and not cyrillic.search(shown), shown  # the table in English, though Ivan acted
    assert dealt.private == {"tg:2": ["Ваши карты: 4♦ 8♦"], "tg:1": ["Your cards: 7♠ 2♠"]}  # the seed's deal
    refused = await service.handle(PLACE, ivan, "/raise -5")
    assert refused.error == "Сумма: нужно целое число фишек больше нуля, а не «-5»."


async def test_an_amount_name_is_translated_in_a_parse_error(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/game russian")  # a table where /ante is used
    assert (await service.handle(PLACE, ANN, "/ante x")).error == (
        "АНТЕ: нужно целое число фишек, а не «x».")


async def test_timers_speak_the_first_players_locale(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=7)
    ivan, olga = Actor("tg:1", "Ivan", language="ru"), Actor("tg:2", "Olga", language="ru")
    place = Place("group", "group/table")
    await service.handle(place, ivan, "/join")
    await service.handle(place, olga, "/join")
    await service.handle(place, ivan, "/set time_bank 0")  # the turn's time-out comes at once
    await service.handle(place, ivan, "/deal")
    heard = listen(service, "group/")
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    assert table_showed(heard).splitlines()[-5:] == [  # the time-out's lines of the table's story, in Russian
        "Ivan: время хода вышло.", "Ivan: пас.", "Olga получает обратно 10 неуравненных фишек.",
        "Olga забирает основной банк (20).", "Раздача окончена."]


def test_english_usage_messages_spell_the_parsers_patterns() -> None:
    """`usage.<command>` in English is the parser's own pattern, so the two never drift apart."""
    for command in cmd.COMMANDS:
        key = f"usage.{command.name}"
        assert EN.get(key, "") == command.usage, key
    assert {key for key in EN if key.startswith("usage.")} == {f"usage.{c.name}" for c in cmd.COMMANDS if c.usage}


async def test_help_and_usage_errors_in_russian(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    help_all = (await service.handle(PLACE, ANN, "/help")).private["ann"][0]
    assert "/grant игрок фишки — выдать фишки игроку (организатор)" in help_all
    assert (await service.handle(PLACE, ANN, "/grant")).error == "Как писать: /grant игрок фишки"
    # the total raised to, as Russian says it ("повысить до 40"): it read «[до-суммы]»
    assert (await service.handle(PLACE, ANN, "/raise 10 20")).error == "Как писать: /raise [до N фишек]"
    unknown = (await service.handle(PLACE, ANN, "/tournament foo")).error  # answered by the game, not the parser
    assert unknown is not None and unknown.startswith("Как писать: /tournament create [пресет или расписание]")
    history = (await service.handle(PLACE, ANN, "/history 0")).error
    assert history == "Как писать: /history [число раздач | tournament [номер]]"


# --- no English left in the Russian catalogue ------------------------------------------------------------------------

_TYPED = re.compile(r"`[^`]*`|/\w[\w-]*|https?://\S+|\.env\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b\d+[a-z]\b")
"""What a player types or reads as code: `quoted` text, commands, addresses, setting names, durations like 20m."""
_NAMES = {"PAIRPLUS", "pairplus", "LITE", "RESPECT", "VIP", "CSV", "PokerStars", "pokerbot", "Discord", "Telegram",
          "me", "VPIP", "PFR", "Europe", "Ann", "ann", "bob", "As", "Td"}
"""Latin words a Russian message may hold: the casino's names for the side bet (lowercase as Discord's option name)
and for the limit tiers (RULES.md §5), formats, the program and the platforms (and `me`, typed as it is in
`/lang ru me`), statistics kept as Russian poker writing keeps them, a time zone's name, and the examples (player
names, cards as typed)."""


def _plain(template: str) -> str:
    """A message's text without its plural syntax and placeholders (every branch kept)."""
    parts = [" ".join(_plain(branch) for branch in part.branches.values()) if isinstance(part, Plural) else part
             for part in parse(template)]
    return re.sub(r"\{[^{}]*\}", " ", " ".join(parts))


def _latin_words(template: str, typed: set[str]) -> list[str]:
    words = re.findall(r"[A-Za-z][A-Za-z'’_-]*", _TYPED.sub(" ", _plain(template)))
    return [word for word in words if word not in _NAMES and word.lower() not in typed]


def test_the_russian_catalogue_has_no_english_words() -> None:
    """Outside placeholders, commands and what is typed as it is (the words of a command's Russian usage line, such as
    `/tournament create` or `/ante 10 box 2`, and Discord's, such as `/season standings`), a Russian message holds no
    Latin word but a few names."""
    typed = {word for command in cmd.COMMANDS for word in (command.name, *command.aliases)}
    typed |= {word.lower() for key, template in RU.items() if key.startswith(("usage.", "discord.usage."))
              for word in re.findall(r"[A-Za-z][A-Za-z'’_-]*", _TYPED.sub(" ", _plain(template)))}
    assert _latin_words("{player} wins, /tournament start", typed) == ["wins"], "the scan finds English"
    english = {key: words for key, template in RU.items() if (words := _latin_words(template, typed))}
    assert english == {}
