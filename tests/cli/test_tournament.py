"""`condottiere tournament`: games on several processes, seats rotating, figures that add up,
reproducible for a seed, and clear errors for bad input."""

from __future__ import annotations

import json

import pytest

from condottiere.bots import Budget
from condottiere.cli.main import main
from condottiere.cli.tournament import TournamentSettings, play_game, render_report, run_tournament


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["tournament", *args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert isinstance(report, dict)
    return report


def test_a_short_tournament_on_two_processes_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--bots", "greedy,random,random", "--edition", "zman",
                      "--games", "6", "--jobs", "2", "--seed", "3")
    lines = {line["bot"]: line for line in report["lines"]}  # type: ignore[attr-defined]
    assert set(lines) == {"greedy", "random"}
    assert (lines["greedy"]["seats"], lines["random"]["seats"]) == (1, 2)
    assert report["games"] == 6 and report["jobs"] == 2
    wins = sum(line["wins"] for line in lines.values())
    assert wins + report["draws"] == pytest.approx(6)
    shares = sum(line["win_share"] * line["seats"] for line in lines.values())
    assert shares == pytest.approx(1 - report["draws"] / 6)  # type: ignore[operator]
    for line in lines.values():
        assert line["low"] <= line["win_share"] <= line["high"]
        assert line["moves"] > 0 and line["moves_per_second"] > 0
        assert line["regions_held"] >= 0 and line["battles_won"] >= 0


def test_the_game_and_its_default_edition_come_from_the_registry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = run_json(capsys, "--bots", "greedy,random", "--games", "1", "--jobs", "1")
    assert (report["game"], report["edition"]) == ("condottiere", "zman")


def test_a_tournament_of_captains_counts_provinces_held(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = run_json(capsys, "--game", "captains", "--bots", "greedy,random,random",
                      "--games", "3", "--jobs", "1")
    assert (report["game"], report["edition"]) == ("captains", "standard")
    lines = {line["bot"]: line for line in report["lines"]}  # type: ignore[attr-defined]
    assert sum(line["wins"] for line in lines.values()) == pytest.approx(3)
    assert lines["greedy"]["regions_held"] > lines["random"]["regions_held"]


def test_the_same_seed_plays_the_same_games_with_an_iteration_budget() -> None:
    settings = TournamentSettings("zman-duel", ("ismcts", "greedy"), games=2, seed=5,
                                  budget=Budget(iterations=8))
    first = [play_game(settings, index) for index in range(2)]
    again = [play_game(settings, index) for index in range(2)]
    assert [(r.shares, r.battles_won, r.moves) for r in first] == [
        (r.shares, r.battles_won, r.moves) for r in again
    ]


def test_seats_rotate_from_game_to_game() -> None:
    settings = TournamentSettings("zman", ("greedy", "random", "random"), games=3)
    assert [play_game(settings, index).seats for index in range(3)] == [
        (0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_battles_won_and_regions_held_agree_with_the_games() -> None:
    settings = TournamentSettings("zman-duel", ("greedy", "random"), games=4, seed=2)
    for index in range(4):
        result = play_game(settings, index)
        assert result.battles_won == result.regions  # a duel's regions are its battles won
        assert sum(result.shares) in (0.0, 1.0)
        assert result.drawn == (sum(result.shares) == 0.0)


def test_the_printed_table_names_every_figure_as_the_game_names_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # zman: its standing is the regions held (zman-duel's is the battles won)
    assert main(["tournament", "--bots", "greedy,random", "--edition", "zman",
                 "--games", "3", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    for heading in ("win share", "95% CI", "battles won", "regions held", "moves/s"):
        assert heading in out
    assert out.count("greedy") >= 2 and "random" in out
    assert main(["tournament", "--game", "captains", "--bots", "greedy,random",
                 "--games", "1", "--jobs", "1"]) == 0
    assert "provinces held" in capsys.readouterr().out


def test_a_report_renders_the_budget_of_searching_bots() -> None:
    settings = TournamentSettings("zman-duel", ("ismcts", "random"), games=1,
                                  budget=Budget(iterations=5, seconds=0.5))
    assert "ismcts budget: 5 iterations or 0.5 s a move" in render_report(run_tournament(settings))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,clever"], "unknown bot 'clever' (choose from greedy, ismcts, random)"),
        (["--bots", "greedy"], "1 bots given, but edition zman is played by 2 to 6 players"),
        (["--bots", "greedy,greedy,greedy", "--edition", "zman-duel"],
         "edition zman-duel is played by exactly 2 players"),
        (["--bots", "greedy,greedy", "--games", "0"], "must be 1 or more"),
        (["--bots", "greedy,greedy", "--seconds-per-move", "0"], "must be more than 0"),
        (["--bots", "greedy,greedy", "--options", "sieges"], "zman has no option 'sieges'"),
        (["--bots", "greedy,greedy", "--edition", "zman-2030"],
         "condottiere has no edition 'zman-2030' (choose from eurogames, ffg, zman, "),
        (["--bots", "greedy,greedy", "--game", "chess"], "invalid choice: 'chess'"),
        (["--games", "3"], "the following arguments are required: --bots"),
        (["--bots", "greedy,condottiere.bots.greedy:Greedy"],
         "module 'condottiere.bots.greedy' has no 'Greedy'"),
        (["--bots", "greedy,cmd:"], "cmd: needs a command"),
    ],
)
def test_bad_input_exits_2_saying_what_is_wrong(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", *args])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_help_describes_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "95% confidence" in " ".join(out.split())
    for option in ("--bots", "--game", "--edition", "--games", "--seed", "--jobs",
                   "--seconds-per-move", "--iterations", "--options", "--json"):
        assert option in out


def test_a_tournament_on_a_local_dask_cluster_of_two_workers_gives_the_local_figures() -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask's distributed is the optional extra 'cluster'"
    )
    settings = TournamentSettings("zman", ("ismcts", "greedy", "random"), games=4, seed=9,
                                  budget=Budget(iterations=6))
    local = run_tournament(settings)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        assert len(cluster.workers) == 2
        remote = run_tournament(settings, cluster=cluster.scheduler_address)
    assert remote.cluster == cluster.scheduler_address
    assert _same_but_speed(remote.lines, local.lines)
    assert (remote.games, remote.draws, remote.shared_victories) == (
        local.games, local.draws, local.shared_victories)


def _same_but_speed(first: object, second: object) -> bool:
    """Lines equal in everything but the moves per second (a matter of the machine)."""
    from dataclasses import replace

    assert isinstance(first, tuple) and isinstance(second, tuple)
    return [replace(line, moves_per_second=0.0) for line in first] == [
        replace(line, moves_per_second=0.0) for line in second
    ]


def test_a_cluster_nobody_answers_at_is_an_error_that_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed", reason="Dask's distributed is the optional extra 'cluster'")
    monkeypatch.setattr("condottiere.cli.tournament.CLUSTER_TIMEOUT", "2s")

    status = main(["tournament", "--bots", "greedy,random", "--games", "1",
                   "--cluster", "tcp://127.0.0.1:9"])
    assert status == 1
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err
