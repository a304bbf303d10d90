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
