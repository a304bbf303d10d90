"""The command parser: every adapter's text and button payloads become the same typed commands."""

import pytest

from bot import commands as cmd
from bot.command_parser import (
    MAX_AMOUNT,
    TOURNAMENT_BARE_WORDS,
    TOURNAMENT_REGISTER_WORDS,
    button_payload,
    parse,
    parse_amount,
    parse_payload,
    whole_number,
)
from bot.replay import command_entry, entry_command


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/join", cmd.Join()),
        ("join 200", cmd.Join(200)),
        ("/raise 40", cmd.Raise(40)),
        ("/RAISE@PokerBot 40", cmd.Raise(40)),
        ("/raise", cmd.Raise()),
        ("/ante 10", cmd.Ante(10, 1)),  # no side bet named
        ("/ante 10 pp 0", cmd.Ante(10, 1, 0, "pairplus")),  # one of 0: the table says whether it is none
        ("/ante 10 box 2 pp 5", cmd.Ante(10, 2, 5, "pairplus")),
        ("/ante 10 bonus 10 box 3", cmd.Ante(10, 3, 10, "bonus")),
        ("/ante 0 pp 5", cmd.Ante(0, 1, 5, "pairplus")),
        ("/ante 00 box 2 pairplus 5", cmd.Ante(0, 2, 5, "pairplus")),
        ("/ante 0", cmd.Ante(0, 1)),  # what an ANTE of 0 needs is the game's to say
        ("/ante 0 box 2", cmd.Ante(0, 2)),
        ("/ante 00000000000 pp 000000000005", cmd.Ante(0, 1, 5, "pairplus")),  # zeros past ten digits are 0 too
        ("/exchange 2 5", cmd.Exchange(("2", "5"))),
        ("/fold", cmd.Fold()),
        ("/clock", cmd.Clock()),
        ("/balance", cmd.Balance()),
        ("/grant @ann 500", cmd.Grant("@ann", 500)),
        ("/grant Ann (2) 500", cmd.Grant("Ann (2)", 500)),  # a label as the bot shows it, after the name
        ("/stats Ann (2) 30d", cmd.Stats("Ann (2)", 30)),
        ("/stats all Ann (12)", cmd.Stats("Ann (12)", None)),
        ("/grant Ann Lee 50", cmd.Grant("Ann Lee", 50)),  # a name with spaces: every word before the amount
        ("/grant Ann 2 50", cmd.Grant("Ann 2", 50)),
        ("/grant  Ann  Lee   50 ", cmd.Grant("Ann  Lee", 50)),  # the name's own spaces kept, as it may be shown
        ('/grant "Ann Lee" 50', cmd.Grant("Ann Lee", 50)),
        ("/grant «Анна Ли» 50", cmd.Grant("Анна Ли", 50)),
        ("/grant “Ann Lee” 50", cmd.Grant("Ann Lee", 50)),
        ("/grant dc:42 50", cmd.Grant("dc:42", 50)),  # Discord's /grant names the member by his id
        ("/stats", cmd.Stats()),
        ("/stats all", cmd.Stats()),
        ("/stats 30д", cmd.Stats(None, 30)),
        ("/stats Ann Lee", cmd.Stats("Ann Lee")),
        ("/stats Ann Lee 30d", cmd.Stats("Ann Lee", 30)),
        ("/stats 7D Ann Lee", cmd.Stats("Ann Lee", 7)),
        ("/stats Ann all Lee", cmd.Stats("Ann all Lee")),  # a period's word only at either end
        ('/stats "all"', cmd.Stats("all")),  # in quotes, a name like a period's word
        ('/stats "Ann 30d" all', cmd.Stats("Ann 30d")),
        ("/stats @ann 30d", cmd.Stats("@ann", 30)),
        # copied from the bot's quote of what was typed, word joiners and all: read as typed
        ("/\u2060raise 40", cmd.Raise(40)),
        ("/\u2060RAISE@\u2060PokerBot 40", cmd.Raise(40)),
        ("/help /\u2060raise", cmd.Help("raise")),
        ("/set timezone Europe/\u2060Moscow", cmd.Setting("timezone", "Europe/Moscow")),
        ("/stats @\u2060ann 30d", cmd.Stats("@ann", 30)),
        ("/tournament create 10/\u206020 20m; 20/\u206040", cmd.Tournament("create", "10/20 20m; 20/40")),
        ("/pawn silver ring", cmd.Pawn("silver ring")),
        ("/tournament create home-night", cmd.Tournament("create", "home-night")),
        ("/t create 10/20 20m; 20/40 20m", cmd.Tournament("create", "10/20 20m; 20/40 20m")),
        ("/tournament START", cmd.Tournament("start")),
        ("/tournament register 500", cmd.Tournament("register", "500")),  # answered with the fixed buy-in
        ("/tournament register 5 000", cmd.Tournament("register", "5000")),  # an amount written in groups
        ("/tournament minutes +5", cmd.Tournament("minutes", "+5")),
        ("/tournament redeem 2", cmd.Tournament("redeem", "2")),
        ("/help raise", cmd.Help("raise")),
        ("/lang ru", cmd.Lang("ru")),
        ("  /all-in  ", cmd.AllIn()),
        ("/pre checkfold", cmd.Pre("check_fold")),
        ("/pre call 40", cmd.Pre("call", 40)),
        ("/pre call", cmd.Pre("call")),
    ],
)
def test_parse(text: str, expected: cmd.Command) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("/frobnicate", "unknown_command"),
        ("/raise -5", "bad_amount"),
        ("/raise 0", "bad_amount"),
        ("/raise 4.5", "bad_amount"),
        ("/raise 1e9", "bad_amount"),
        ("/raise 99999999999", "amount_too_large"),
        ("/raise 10 20", "usage"),
        ("/ante", "usage"),
        ("/ante 10 box 4", "bad_box"),
        ("/ante 10 box", "usage"),
        ("/ante 10 colour 4", "usage"),
        ("/ante 10 pp 5 pp 20", "usage"),
        ("/ante 10 pp 5 bonus 7", "usage"),
        ("/ante 10 box 2 box 1", "usage"),
        ("/ante -3", "bad_stake"),  # not "above zero": an ANTE of 0 is read (`/ante 0 pp 5`)
        ("/ante 1.5 pp 5", "bad_stake"),
        ("/ante 10 pp -3", "bad_stake"),
        ("/ante 99999999999", "amount_too_large"),
        ("/exchange", "usage"),
        ("/exchange 1 2 3 4 5 6", "usage"),
        ("/fold now", "no_arguments"),
        ("/grant ann", "usage"),
        ("/grant 50", "usage"),
        ('/grant "" 50', "usage"),
        ("/grant Ann Lee", "bad_amount"),
        ("/grant Ann Lee -5", "bad_amount"),
        ("/stats 30d Ann all", "usage"),
        ("/stats all Ann Lee 30d all", "usage"),
        ("/stats 0d", "usage"),
        ("/stats Ann Lee 3651d", "usage"),
        ('/stats «» 30d', "usage"),
        ("/pawn", "usage"),
        ("/pre check 40", "usage"),
        ("/pre call 40 60", "usage"),
        ("/pre call forty", "bad_amount"),
        ("/tournament start foo", "no_arguments"),
        ("/t pause now", "no_arguments"),
        ("/tournament resume 5", "no_arguments"),
        ("/tournament skip level", "no_arguments"),
        ("/tournament status all", "no_arguments"),
        ("/tournament close now", "no_arguments"),
        ("/tournament settle up", "no_arguments"),
        ("/tournament cashout 300", "no_arguments"),
        ("/tournament rebuy 2", "no_arguments"),
        ("/tournament register foo", "no_arguments"),
        ("/tournament join 500 six", "no_arguments"),
        ("/tournament join 500 -600", "no_arguments"),
        ("???", "unknown_command"),
    ],
)
def test_bad_input_names_the_problem(text: str, code: str) -> None:
    with pytest.raises(cmd.CommandError) as error:
        parse(text)
    assert error.value.code == code


def test_button_payloads_round_trip_and_fit_telegram() -> None:
    payload = button_payload("h123", "raise 40")
    assert len(payload.encode()) <= 64
    pressed = parse_payload(payload)
    assert pressed == cmd.Pressed("h123", cmd.Raise(40))
    with pytest.raises(cmd.CommandError):
        parse_payload("no separator")
    with pytest.raises(ValueError):
        button_payload("h1", "exchange " + "x" * 80)


def test_a_decision_buttons_payload_names_its_box_and_step_and_still_fits() -> None:
    payload = button_payload("r123456789", "exchange 1 2 3 4 5", "b3s123456789")
    assert payload == "r123456789|b3s123456789|exchange 1 2 3 4 5" and len(payload.encode()) <= 64
    assert parse_payload(payload) == cmd.Pressed("r123456789", cmd.Exchange(("1", "2", "3", "4", "5")),
                                                     "b3s123456789")
    assert parse_payload("r1|cards") == cmd.Pressed("r1", cmd.Cards(), "")
    with pytest.raises(cmd.CommandError):
        parse_payload("r1||fold")


def test_a_card_buttons_select_says_it_came_from_a_button_and_a_typed_one_does_not() -> None:
    """A bare `select` unmarks the last card only from a card's button (`Select.by_button`, set where a payload is
    read); a typed /select never says so. A toggle an older version logged (no `by_button`) was applied as a press,
    so it replays as one; one logged now keeps how it came."""
    assert parse_payload("r2|b1s3|select") == cmd.Pressed("r2", cmd.Select((), by_button=True), "b1s3")
    assert parse_payload("r2|b1s3|select 2 5").command == cmd.Select((2, 5), by_button=True)
    assert parse("/select") == cmd.Select(()) and parse("/select 5 2") == cmd.Select((2, 5))
    assert entry_command({"t": "Select", "positions": []}) == cmd.Select((), by_button=True)
    typed = parse("/select")
    assert entry_command(command_entry(typed)) == typed == cmd.Select((), by_button=False)


def test_every_command_has_a_unique_word() -> None:
    words = [word for cls in cmd.COMMANDS for word in (cls.name, *cls.aliases)]
    assert len(words) == len(set(words))


@pytest.mark.parametrize("digits", ["４０", "٤٠", "۴۰", "४०", "4０", "²", "40\u0660"])
def test_only_ascii_digits_are_numbers(digits: str) -> None:
    assert whole_number(digits) is None
    assert whole_number("+" + digits, signed=True) is None
    with pytest.raises(cmd.CommandError) as error:
        parse_amount(digits)
    assert error.value.code == "bad_amount"
    assert whole_number("40") == 40 and whole_number("-5", signed=True) == -5


@pytest.mark.parametrize("amount", ["1000000001", "99999999999999999999", "9" * 5000, "00" + "1" * 11])
def test_an_amount_over_the_limit_is_too_large_not_malformed(amount: str) -> None:
    with pytest.raises(cmd.CommandError) as error:
        parse_amount(amount)
    assert error.value.code == "amount_too_large"
    assert error.value.params["limit"] == MAX_AMOUNT, "a number, written as the reader's language writes it"
    assert len(error.value.params["value"]) <= 41
    assert parse_amount("0001000000000") == MAX_AMOUNT
    assert parse_amount("007") == 7


@pytest.mark.parametrize(("text", "typed"), [
    ("//🃏", "/\u2060/\u2060🃏"), ("hello there", "hello"), ("/Frobnicate@bot now", "/\u2060Frobnicate@\u2060bot"),
    ("???", "???"), ("/" + "x" * 500, "/\u2060" + "x" * 39 + "…"),
])
def test_an_unknown_command_is_quoted_as_typed(text: str, typed: str) -> None:
    """As typed, and inert (a word joiner after each `/` and `@`): quoted back, it is no command a chat makes
    tappable."""
    with pytest.raises(cmd.CommandError) as error:
        parse(text)
    assert (error.value.code, error.value.params) == ("unknown_command", {"command": typed})


@pytest.mark.parametrize(("text", "typed", "meant"), [
    ("/jion", "/\u2060jion", "join"), ("/HLEP@bot", "/\u2060HLEP@\u2060bot", "help"),
    ("/tournamnet create", "/\u2060tournamnet", "tournament"), ("chek", "chek", "check"),
    ("/mycard", "/\u2060mycard", "mycards"),
    ("/\u2060jion", "/\u2060jion", "join"),  # copied from the answer to /jion
])
def test_a_typo_of_a_command_names_the_command_it_is_close_to(text: str, typed: str, meant: str) -> None:
    with pytest.raises(cmd.CommandError) as error:
        parse(text)
    assert (error.value.code, error.value.params) == ("did_you_mean", {"command": typed, "suggestion": meant})


@pytest.mark.parametrize("text", ["/pawn \ud800", "/\udcff", "/grant @a\ud83d 10", "h1|raise \ud800"])
def test_text_that_cannot_be_stored_is_bad_text(text: str) -> None:
    with pytest.raises(cmd.CommandError) as error:
        parse_payload(text) if "|" in text else parse(text)
    assert error.value.code == "bad_text"


def test_the_tournament_subcommands_that_take_nothing_are_tournament_subcommands() -> None:
    from bot.games import tournament

    assert set(tournament._SUBCOMMANDS) >= TOURNAMENT_BARE_WORDS | TOURNAMENT_REGISTER_WORDS
    # a subcommand added to the table must be sorted here too, or `/tournament new junk` would act on the junk
    taking_words = set(tournament._SUBCOMMANDS) - TOURNAMENT_BARE_WORDS - TOURNAMENT_REGISTER_WORDS
    assert taking_words == {"create", "minutes", "redeem"}


def test_an_ante_an_older_version_logged_replays_with_its_side_bet_whatever_word_named_it() -> None:
    """Before /ante kept which side bet was named, `bonus 10` at Three Card Poker was placed as its PAIRPLUS: the log
    row of such a bet (no `side_kind`) replays as it was applied, with no word to refuse it by; one logged now keeps
    the word, so its replay is refused as it was."""
    older = {"t": "Ante", "amount": 10, "box": 1, "side": 10}
    assert entry_command(older) == cmd.Ante(10, 1, 10, None)
    typed = parse("/ante 10 bonus 10")
    assert entry_command(command_entry(typed)) == typed == cmd.Ante(10, 1, 10, "bonus")
