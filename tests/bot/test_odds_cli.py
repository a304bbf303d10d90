"""`pokerbot odds`: text and JSON output, seeded reproducibility, argument errors."""

import json

import pytest

from bot.__main__ import main


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


def test_unknown_game_is_an_argument_error() -> None:
    with pytest.raises(SystemExit):
        main(["odds", "blackjack"])


def test_standard_paytables_reproduce_the_published_three_card_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card", "--paytables", "standard", "--json"]) == 0
    bets = {report["bet"]: report for report in json.loads(capsys.readouterr().out)["reports"]}
    assert round(bets["pairplus"]["house_edge"], 2) == 2.32  # PAIRPLUS 40-30-6-4-1
    assert round(bets["ante"]["house_edge"], 2) == 3.37  # ANTE/PLAY, 5-4-1 ante bonus whenever the player plays
