"""`pokerbot odds`: text and JSON output, seeded reproducibility, argument errors."""

import io
import json
import sys

import pytest

from bot import odds_cli
from bot.__main__ import main


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, as a console's is."""

    def isatty(self) -> bool:
        return True


def test_three_card_json_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    bets = {report["bet"]: report for report in data["reports"]}
    assert set(bets) == {"pairplus", "ante"}
    assert all(report["method"] == "exact" and report["std_error"] == 0 for report in bets.values())
    # RULES.md's PAIRPLUS paytable 40-20-5-4-1 over the 22,100 three-card hands: 48 straight flushes, 52 trips,
    # 720 straights, 1,096 flushes, 3,744 pairs win; the other 16,440 lose. (2.32% is the 40-30-6-4-1 table's figure.)
    won = 48 * 40 + 52 * 20 + 720 * 5 + 1096 * 4 + 3744 * 1
    assert won - 16440 == -1752
    assert bets["pairplus"]["rounds"] == 22100
    assert bets["pairplus"]["house_edge"] == pytest.approx(100 * 1752 / 22100)


def test_three_card_text_prints_the_exact_pairplus_edge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card"]) == 0
    out = capsys.readouterr().out
    assert "three-card  pairplus  house edge   7.93% (exact)   22,100 deals" in out.splitlines()


def test_simulation_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert main(["odds", "caribbean", "--rounds", "2000", "--seed", "7", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out)["reports"])
    assert outputs[0] == outputs[1]
    (report,) = outputs[0]
    assert report["rounds"] == 2000 and report["std_error"] > 0


def test_text_output_names_the_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "texas", "--rounds", "500", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "house edge" in out and "strategy:" in out and "±" in out


def test_text_output_names_the_paytable_and_calls_the_error_a_standard_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "caribbean", "--rounds", "500", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("caribbean   ante      house edge") and lines[0].count("± ") == 1
    assert lines[0].split("± ")[1].split()[1:3] == ["(standard", "error)"]
    assert " ".join(lines[1].split()) == (
        "paytable, the bot's own (RULES.md): BET pays ace-king 1, pair 1, two pair 2, three of a kind 3, straight 4, "
        "flush 5, full house 7, four of a kind 20, straight flush 50, royal flush 100")
    assert main(["odds", "three-card", "--paytables", "standard"]) == 0
    out = capsys.readouterr().out
    assert ("paytable, standard casino (the published figures): PAIRPLUS pays straight flush 40, three of a kind 30, "
            "straight 6, flush 4, pair 1") in out
    assert "ANTE bonus pays straight flush 5, three of a kind 4, straight 1" in out


def test_help_says_plain_pokerbot_runs_the_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "pokerbot [--db DB]        run the bot" in out
    assert "Plain `pokerbot` (no tool) runs the bot" in out and "odds" in out


def test_a_progress_bar_on_a_terminal_s_stderr(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A run longer than the bar's delay (made 0 here) draws a bar of simulated rounds on a terminal's stderr; the
    report on stdout is the same as without it."""
    assert main(["odds", "texas", "--rounds", "25000", "--seed", "4", "--json"]) == 0
    quiet = json.loads(capsys.readouterr().out)["reports"]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(odds_cli, "BAR_DELAY", 0)
    assert main(["odds", "texas", "--rounds", "25000", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reports"] == quiet
    drawn = terminal.getvalue()
    assert drawn.startswith("\r  0%|") and "| 0.00/25.0k [" in drawn and "round/s]" in drawn
    assert drawn.endswith("\r") and drawn.splitlines()[-1].strip() == ""  # wiped when done: stdout reads clean


@pytest.mark.parametrize("delay", [None, 0])
def test_no_progress_bar_for_a_short_run_or_off_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str],
                                                           delay: float | None) -> None:
    """A run shorter than a second shows no bar on a terminal; a stderr that is no terminal (a pipe, a file, a test's
    capture) never gets one."""
    if delay is None:  # a terminal, and the run's 500 rounds take far less than the delay
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        assert main(["odds", "texas", "--rounds", "500"]) == 0
        assert terminal.getvalue() == ""
    else:  # no terminal: nothing, even at once
        monkeypatch.setattr(odds_cli, "BAR_DELAY", delay)
        assert main(["odds", "texas", "--rounds", "25000"]) == 0
        assert capsys.readouterr().err == ""


def test_unknown_game_is_an_argument_error() -> None:
    with pytest.raises(SystemExit):
        main(["odds", "blackjack"])


@pytest.mark.parametrize(("value", "reason"), [("0", "must be at least 1 (got 0)"),
                                               ("-5", "must be at least 1 (got -5)"),
                                               ("lots", "not a whole number: 'lots'")])
def test_rounds_below_one_are_an_argument_error_on_stderr(capsys: pytest.CaptureFixture[str], value: str,
                                                          reason: str) -> None:
    """`--rounds 0` printed '--rounds must be at least 1' on standard output (where --json's reader looks) with no
    usage: it is argparse's error on stderr now, with its usage and status 2, as `--rounds lots` is."""
    with pytest.raises(SystemExit) as stopped:
        main(["odds", "texas", "--json", "--rounds", value])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.endswith(f"pokerbot odds: error: argument --rounds: {reason}\n")


def test_standard_paytables_reproduce_the_published_three_card_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card", "--paytables", "standard", "--json"]) == 0
    bets = {report["bet"]: report for report in json.loads(capsys.readouterr().out)["reports"]}
    assert round(bets["pairplus"]["house_edge"], 2) == 2.32  # PAIRPLUS 40-30-6-4-1
    assert round(bets["ante"]["house_edge"], 2) == 3.37  # ANTE/PLAY, 5-4-1 ante bonus whenever the player plays
