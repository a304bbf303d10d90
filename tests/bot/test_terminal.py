"""The terminal table: named players at one keyboard, public and private output marked, buttons by number.

The deal is known (`tests.bot.terminal_helpers`): hand #1 deals the first player to sit down 7♠ 2♠, the second
4♦ 8♦."""

import io
import re
from pathlib import Path

import pytest

from bot.output import File, Picture, Reply
from bot.service import Service
from bot.terminal import TerminalAdapter, run_terminal
from tests.bot.helpers import Overriding
from tests.bot.terminal_helpers import ANN_CALLED, HAND_DEALT, ROOT, ann_folded, said


async def test_players_take_turns_at_one_keyboard(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join"):
        assert await terminal.say(line)
    assert "[table] Ann sits down with 400 chips." in out.getvalue().splitlines()
    start = len(out.getvalue())
    assert await terminal.say("ann: /deal")
    assert out.getvalue()[start:] == ("[private to bob] Your cards: 4♦ 8♦\n"
                                      "[private to ann] Your cards: 7♠ 2♠\n" + HAND_DEALT)
    assert terminal.to_act == "ann", "heads-up, the button (Ann) acts first preflop"
    assert terminal.prompt() == "ann> ", "the prompt follows the player to act"
    assert [button.label for button in terminal.buttons] == [
        "🂠 My cards", "Fold", "Call 10", "Raise to 40", "⏩ Check/fold", "⏩ Check", "⏩ Call any"]
    start = len(out.getvalue())
    assert await terminal.say("2")  # Fold
    assert out.getvalue()[start:] == ann_folded()
    assert not await terminal.say("/quit")


async def test_a_showdown_is_printed_once_then_its_picture(service: Service) -> None:
    """The showdown's notice (on Discord and Telegram a message of its own, beside the edited table message) told
    the same lines as the table message printed right below it."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal", "call", *["check"] * 6):
        assert await terminal.say(line)
    start = len(out.getvalue())
    assert await terminal.say("check")  # Ann checks the river behind
    assert out.getvalue()[start:] == (
        "[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "        Board: J♥ 6♣ J♠ 4♠ 8♣ · Pot: 0\n"
        "          Ann · 380 Ⓓ\n"
        "          Bob · 420\n"
        "\n"
        "        River: 8♣ (board J♥ 6♣ J♠ 4♠ 8♣)\n"
        "        Bob checks.\n"
        "        Ann checks.\n"
        "        Showdown — Bob: 4♦ 8♦ (two pair, jacks and eights, six kicker)\n"
        "        Ann mucks.\n"
        "        Bob wins the main pot (40) with two pair, jacks and eights, six kicker.\n"
        "        The hand is over.\n"
        "[table] [picture: Hand #1 · showdown]\n")


async def test_a_look_at_ones_cards_does_not_print_the_table_again(service: Service) -> None:
    """`/cards` and the "My cards" button answer with the cards alone: the table message, unchanged, was printed
    again below them, all ten lines; `/table` asks for it and prints it."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    start = len(out.getvalue())
    assert await terminal.say("bob: /cards")
    assert out.getvalue()[start:] == "[private to bob] [picture: Your cards]\n[private to bob] Your cards: 4♦ 8♦\n"
    start = len(out.getvalue())
    assert await terminal.say("ann: 1")  # 🂠 My cards
    assert out.getvalue()[start:] == "[private to ann] [picture: Your cards]\n[private to ann] Your cards: 7♠ 2♠\n"
    assert terminal.to_act == "ann" and len(terminal.buttons) == 7, "the buttons shown are still the table's"
    start = len(out.getvalue())
    assert await terminal.say("bob: /table")
    assert out.getvalue()[start:] == HAND_DEALT


async def test_a_line_without_a_name_is_said_by_the_player_to_act(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    assert terminal.to_act == "ann", "heads-up, the button (Ann) acts first preflop"
    assert await terminal.say("bob: /balance")  # Bob spoke last, but it is still Ann's turn
    assert terminal.prompt() == "ann> "
    start = len(out.getvalue())
    assert await terminal.say("call")
    assert out.getvalue()[start:] == ANN_CALLED
    assert terminal.to_act == "bob"


async def test_when_nobody_is_to_act_the_last_speaker_speaks(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal", "fold"):  # Ann folds: the hand is over
        assert await terminal.say(line)
    assert terminal.to_act is None
    assert await terminal.say("bob: /table")
    assert terminal.prompt() == "bob> "
    start = len(out.getvalue())
    assert await terminal.say("/balance")
    assert out.getvalue()[start:] == "[private to bob] Your wallet: 600 chips.\n"


async def test_a_line_said_by_the_player_to_act_makes_him_the_last_speaker(service: Service) -> None:
    """Bob deals and Ann, to act, folds with a line without a name: Ann spoke last, but the prompt went back to
    `bob> ` (the last name written), so the next line without a name was Bob's."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "bob: /deal", "fold"):  # Ann folds: the hand is over
        assert await terminal.say(line)
    assert terminal.to_act is None
    assert terminal.prompt() == "ann> "
    start = len(out.getvalue())
    assert await terminal.say("/balance")
    assert out.getvalue()[start:] == "[private to ann] Your wallet: 600 chips.\n"
    assert await terminal.say("")  # an empty line says nothing, and changes nobody's voice
    assert terminal.prompt() == "ann> "


async def test_a_named_quit_leaves_like_quit(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("ann: /join")
    assert not await terminal.say("ann: /quit")
    assert not await terminal.say("bob: quit")
    assert "[private to" not in out.getvalue(), "no “I don't know the command /quit”"


async def test_quit_with_words_after_it_says_to_type_it_alone(service: Service) -> None:
    """`/quit now` was answered “I don't know the command “/quit””, though the introduction and /help name /quit: it
    is the terminal's own command, which takes nothing after it. The answer now says so, in the player's language,
    and the table goes on."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "ann: /quit now", "bob: /lang ru me", "bob: exit please"):
        assert await terminal.say(line)
    assert out.getvalue().splitlines()[-3:] == [
        "[private to ann] /quit takes nothing after it: to leave the terminal, type /quit alone.",
        "[private to bob] Язык ваших личных сообщений теперь: русский (ru); у чата остаётся свой.",
        "[private to bob] Команда exit пишется одна: чтобы выйти из терминала, введите просто exit."]
    assert terminal.prompt() == "bob> "


async def test_quit_with_words_before_anyone_is_named_says_to_type_it_alone(service: Service) -> None:
    """Leaving is nobody's move, so `/quit now` at `?>` gets the same answer as a player's (it was told to write
    `name: command`, e.g. `ann: /join`, as if /quit needed a name)."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("/quit now")
    assert out.getvalue() == "/quit takes nothing after it: to leave the terminal, type /quit alone.\n"
    assert terminal.prompt() == "?> "


async def test_a_name_may_be_written_in_any_alphabet(service: Service) -> None:
    """The Russian introduction says «пишите `имя: команда`»: `аня: /join` was answered «I don't know the command
    “аня:”», a name having to start with a Latin letter."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("аня: /join", "боря: /join", "аня: /deal"):
        assert await terminal.say(line)
    assert "I don't know" not in out.getvalue()
    assert "[table] Аня sits down with 400 chips." in out.getvalue()
    assert "[private to боря] Your cards: 4♦ 8♦" in out.getvalue().splitlines()
    assert terminal.prompt() == "аня> ", "the player to act, as written"


async def test_a_player_reads_the_name_he_first_gave_throughout(service: Service) -> None:
    """`Bob: /join` showed the prompt `Bob> `, then `bob> ` once his turn came (the table's id for him), and marked
    his private lines `[private to bob]`: he now reads `Bob` throughout, however he writes his name later."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("Bob: /join")
    assert terminal.prompt() == "Bob> "
    assert await terminal.say("ann: /join")
    assert (await said(terminal, out, "ann: /deal")).splitlines()[:2] == ["[private to ann] Your cards: 4♦ 8♦",
                                                                          "[private to Bob] Your cards: 7♠ 2♠"]
    assert terminal.prompt() == "Bob> ", "heads-up, the button (Bob) acts first preflop"
    assert await said(terminal, out, "BOB: /balance") == "[private to Bob] Your wallet: 600 chips.\n"
    assert terminal.prompt() == "Bob> "
    called = await said(terminal, out, "bob: call")
    assert "        Bob calls 10." in out.getvalue().splitlines()
    # the whole table message as when Ann, the button, calls (ANN_CALLED), with Bob the button here
    assert called == ANN_CALLED.replace("Ann", "ANN").replace("Bob", "Ann").replace("ANN", "Bob")
    assert terminal.prompt() == "ann> "


def readme_example() -> list[str]:
    """The lines of the README's "A first hand at the terminal" example, as the README shows them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A first hand at the terminal", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


README_DECK = "Ks Qs 2h Ts 3c Jh 6c Js"
"""The top of the deck the README's hand is dealt from: one card at a time from the player left of the button, Bob
K♠ 2♥ and Ann Q♠ T♠, then a burn and the flop J♥ 6♣ J♠."""


def _shows(expected: list[str], printed: list[str]) -> bool:
    """Whether `printed` is `expected` line by line, where a line `…` in `expected` stands for any number of lines."""
    if not expected:
        return not printed
    if expected[0] == "…":
        return any(_shows(expected[1:], printed[skip:]) for skip in range(len(printed) + 1))
    return bool(printed) and expected[0].rstrip() == printed[0].rstrip() and _shows(expected[1:], printed[1:])


async def test_the_readme_example_is_what_the_terminal_prints(service: Service, decks: list[str]) -> None:
    """Each `name> line` of the README's example is typed at that prompt; what follows it up to the next one is what
    the terminal printed, `…` standing for lines the README leaves out. The hand is dealt from `README_DECK`, so the
    private lines show the README's cards, to the letter."""
    decks.append(README_DECK)
    steps: list[tuple[str, str, list[str]]] = []
    for line in readme_example():
        step = re.fullmatch(r"(\?|[a-z]\w*)> (.*)", line)
        if step:
            steps.append((f"{step.group(1)}> ", step.group(2), []))
        else:
            assert steps, f"the example starts with output: {line!r}"
            steps[-1][2].append(line)
    assert len(steps) >= 4, "the README's example is missing"
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for prompt, typed, shown in steps:
        assert terminal.prompt() == prompt, f"before {typed!r}"
        start = len(out.getvalue())
        assert await terminal.say(typed)
        printed = out.getvalue()[start:].splitlines()
        assert _shows(shown, printed), f"after {prompt}{typed}, the README shows\n" + "\n".join(
            shown) + "\nbut the terminal printed\n" + "\n".join(printed)


async def test_unknown_speaker_and_bad_commands_get_a_short_answer(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    await terminal.say("/join")
    assert out.getvalue() == "Who is speaking? Write `name: command`, e.g. `ann: /join`.\n"
    await terminal.say("cat: /flop")
    assert out.getvalue() == ("Who is speaking? Write `name: command`, e.g. `ann: /join`.\n"
                              "[private to cat] I don't know the command “/\u2060flop”. Type /help for the list.\n")
    await terminal.say("cat: hello there")  # quoted as typed: the line never said /hello
    assert out.getvalue().splitlines()[-1] == (
        "[private to cat] I don't know the command “hello”. Type /help for the list.")


async def test_a_command_before_anyone_is_named_is_shown_again_with_a_name(service: Service) -> None:
    """The introduction says /help lists the commands, but `/help` typed at `?> ` was told to write, e.g., `ann:
    /join`: the example is now the line typed with a name, when it is a command or a button's number."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("/help", "2", "call", "hello there", "ann /join"):
        assert await terminal.say(line)
    assert out.getvalue().splitlines() == [
        "Who is speaking? Write `name: command`, e.g. `ann: /help`.",
        "Who is speaking? Write `name: command`, e.g. `ann: 2`.",
        "Who is speaking? Write `name: command`, e.g. `ann: call`.",
        "Who is speaking? Write `name: command`, e.g. `ann: /join`.",
        "Who is speaking? Write `name: command`, e.g. `ann: /join`."]
    assert await terminal.say("ann: /lang ru")
    russian = io.StringIO()
    assert await TerminalAdapter(service, out=russian).say("/help")
    assert russian.getvalue() == "Кто говорит? Пишите `имя: команда`, например `ann: /help`.\n"


async def test_a_refusal_names_the_player_it_was_said_by(service: Service) -> None:
    """A refusal reaches only the player who acted (on Discord an ephemeral message): it was marked `[only you]`,
    which at one keyboard did not say whom the bot took a line without a name for."""
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    start = len(out.getvalue())
    for line in ("bob: 3", "zed: call"):
        assert await terminal.say(line)
    assert out.getvalue()[start:] == ("[private to bob] It's not your turn: waiting for Ann.\n"
                                      "[private to zed] You are not seated at this table: /join first.\n")


async def test_a_number_without_a_button_says_which_buttons_there_are(service: Service, tmp_path: Path) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    assert await terminal.say("ann: 2")
    assert out.getvalue() == "[private to ann] There is no button 2: no buttons are shown now.\n"
    for line in ("ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    count, before = len(terminal.buttons), terminal.table
    start = len(out.getvalue())
    assert await terminal.say(str(count + 2))
    assert out.getvalue()[start:] == (
        f"[private to ann] There is no button {count + 2}: the buttons are 1 to {count}.\n")
    assert terminal.table == before and terminal.to_act == "ann"
    assert await terminal.say("ann: /lang ru")
    start = len(out.getvalue())
    assert await terminal.say("0")
    assert out.getvalue()[start:] == f"[лично: ann] Кнопки 0 нет: есть кнопки с 1 по {count}.\n"
    terminal.buttons = terminal.buttons[:1]
    assert terminal.no_button(21) == "Кнопки 21 нет: есть только кнопка 1."


async def test_a_file_is_written_next_to_the_database(service: Service, tmp_path: Path) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out, files_dir=tmp_path)
    for line in ("ann: /tournament create", "ann: /join", "bob: /join", "ann: /tournament start"):
        assert await terminal.say(line)
    for _ in range(40):  # check or call until the first hand is over
        labels = {button.label.split()[0]: index for index, button in enumerate(terminal.buttons, 1)}
        if "Check" not in labels and "Call" not in labels:
            break
        assert await terminal.say(str(labels.get("Check") or labels["Call"]))
    start = len(out.getvalue())
    assert await terminal.say("bob: /history tournament")
    assert out.getvalue()[start:] == (
        "[private to bob] Tournament #1: 1 hand in PokerStars format (your hole cards and the hands shown down).\n"
        f"[private to bob] file saved: {tmp_path / 'tournament-1.txt'}\n")
    assert (tmp_path / "tournament-1.txt").read_text().splitlines() == [
        "PokerStars Hand #1: Tournament #1, 50+0 Hold'em Limit - Level I (10/20) - 2027/01/15 03:00:00 ET",
        "Table '1 1' 10-max Seat #1 is the button",
        "Seat 1: Ann (300 in chips)",
        "Seat 2: Bob (300 in chips)",
        "Ann: posts small blind 5",
        "Bob: posts big blind 10",
        "*** HOLE CARDS ***",
        "Dealt to Bob [4d 8d]",
        "Ann: calls 5",
        "Bob: checks",
        "*** FLOP *** [Jh 6c Js]",
        "Bob: checks",
        "Ann: checks",
        "*** TURN *** [Jh 6c Js] [4s]",
        "Bob: checks",
        "Ann: checks",
        "*** RIVER *** [Jh 6c Js 4s] [8c]",
        "Bob: checks",
        "Ann: checks",
        "*** SHOW DOWN ***",
        "Bob: shows [4d 8d] (two pair, Jacks and Eights)",
        "Ann: mucks hand",
        "Bob collected 20 from pot",
        "*** SUMMARY ***",
        "Total pot 20 | Rake 0",
        "Board [Jh 6c Js 4s 8c]",
        "Seat 1: Ann (button) (small blind) mucked",
        "Seat 2: Bob (big blind) showed [4d 8d] and won (20) with two pair, Jacks and Eights",
    ]


async def test_pre_actions_by_number_and_away_at_one_keyboard(service: Service) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in ("ann: /join", "bob: /join", "cat: /join", "ann: /deal"):
        assert await terminal.say(line)
    assert terminal.to_act == "ann"
    check_fold = next(i for i, b in enumerate(terminal.buttons, 1) if b.label == "⏩ Check/fold")
    start = len(out.getvalue())
    assert await terminal.say(f"cat: {check_fold}")  # the big blind chooses before his turn
    assert out.getvalue()[start:] == "[private to cat] You will check or fold.\n"  # no table printed again
    assert await terminal.say("call")  # Ann
    start = len(out.getvalue())
    assert await terminal.say("call")  # Bob: Cat's turn comes, and he checks at once
    assert out.getvalue()[start:] == (
        "[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "        Board: J♠ 6♠ 4♠ · Pot: 60\n"
        "          Ann · 380 Ⓓ\n"
        "        ▶ Bob · 380\n"
        "          Cat · 380\n"
        "\n"
        "        Bob posts the small blind 10.\n"
        "        Cat posts the big blind 20.\n"
        "        Ann calls 20.\n"
        "        Bob calls 10.\n"
        "        Cat checks.\n"
        "        Flop: J♠ 6♠ 4♠\n"
        "        ▶ Bob to act (⏱ 60\xa0s).\n"
        "        (1) 🂠 My cards  (2) Check  (3) Bet 20  (4) ⏩ Check/fold  (5) ⏩ Check  (6) ⏩ Call any\n")
    start = len(out.getvalue())
    assert await terminal.say("cat: /away")
    assert out.getvalue()[start:].splitlines()[0] == (
        "[table] Cat is away and sits out from the next hand, keeping the seat: /back to return.")


async def test_the_terminals_own_labels_follow_the_chats_language(service: Service, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out, files_dir=tmp_path)
    for line in ("ann: /lang ru", "ann: /join", "bob: /join", "ann: /deal", "ann: /flop"):
        assert await terminal.say(line)
    terminal.show(Reply(pictures=[Picture(b"", "Раздача №1", to="term:ann")], files=[File("hands.txt", b"")]))
    printed = out.getvalue().split("Язык чата: русский (ru).\n", 1)[1]
    assert "[стол] Ann садится за стол с 400 фишками." in printed.splitlines()
    assert "[лично: bob] Ваши карты: 4♦ 8♦" in printed.splitlines()
    assert "[лично: ann] Не знаю команды «/\u2060flop». Список команд: /help." in printed.splitlines()
    assert "[лично: ann] [картинка: Раздача №1]" in printed.splitlines()
    assert f"[стол] файл сохранён: {tmp_path / 'hands.txt'}" in printed.splitlines()
    assert not re.search(r"\[(table|private|only|picture)|file saved", printed), printed
    fresh = io.StringIO()
    assert await TerminalAdapter(service, out=fresh).say("/join")  # nobody named yet: asked in Russian too
    assert fresh.getvalue() == "Кто говорит? Пишите `имя: команда`, например `ann: /join`.\n"

    async def broken(*args: object) -> Reply:
        raise RuntimeError("a bug")

    lines = iter(["ann: /balance"])

    def read_line(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    await run_terminal(Overriding(service, handle=broken), read_line, files_dir=tmp_path)
    shown = capsys.readouterr().out
    assert shown.startswith(  # the introduction names the private lines' label as they are printed
        "pokerbot за терминалом. За этой клавиатурой сидят несколько игроков: пишите `имя: команда`, например\n"
        "  ann: /join      bob: /join      ann: /deal\n"
        "Дальше приглашение называет того, чей ход; строку без имени говорит он\n"
        "(а когда ходить некому — тот, кто говорил последним).\n"
        "Кнопки пронумерованы: чтобы нажать, введите номер. /help — список команд, /quit — выход.\n"
        "Строки с пометкой [стол] видят все; [лично: ann] в Discord или Telegram дошло бы только до Ann.\n"
        "\n")
    assert "[только вам] Что-то пошло не так с нашей стороны; ничего не изменилось." in shown.splitlines()


@pytest.mark.parametrize(("language", "label"), [("en", "[table] "), ("ru", "[стол] ")])
async def test_the_button_row_lines_up_with_the_table_text(service: Service, language: str, label: str) -> None:
    out = io.StringIO()
    terminal = TerminalAdapter(service, out=out)
    for line in (f"ann: /lang {language}", "ann: /join", "bob: /join", "ann: /deal"):
        assert await terminal.say(line)
    rows = [row for row in out.getvalue().splitlines() if "(1) " in row]
    assert rows and all(row.startswith(" " * len(label) + "(1) ") for row in rows), "\n".join(rows)
