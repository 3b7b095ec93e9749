"""One seed scheme end to end: the batch simulator plays the games the engine path of
``arena.simulate`` plays for the same root seed, so the per-game scores are equal (random,
greedy and easy players, every player count, both editions, matches, chosen starting
cards, Extrakarten), and the playout benchmark's games are the engine benchmark's."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from coloretto.agents import make_agent
from coloretto.arena.bench import bench_playout
from coloretto.arena.driver import play_out, start_game
from coloretto.arena.simulate import (
    ENGINE_PATH,
    FAST_PATH,
    agent_seed,
    game_seed,
    play_game,
    simulate,
)
from coloretto.engine.rules import Rules, preset
from coloretto.fastcore.batch import bga_removed, simulate_batch
from coloretto.fastcore.bench import fast_playout_bench

CASES: list[tuple[str, Rules, list[str], int]] = [
    ("2p-classic", Rules(players=2), ["random", "greedy"], 40),
    ("2p-modern", Rules(players=2, edition="modern"), ["easy", "random"], 40),
    ("3p-classic", Rules(players=3), ["greedy", "random", "easy"], 30),
    ("3p-modern", Rules(players=3, edition="modern"), ["random", "random", "random"], 30),
    ("4p-classic", Rules(players=4), ["random"] * 4, 30),
    ("4p-modern", Rules(players=4, edition="modern"), ["greedy", "random", "random", "greedy"], 25),
    ("5p-classic", Rules(players=5), ["greedy"] * 5, 20),
    (
        "5p-modern",
        Rules(players=5, edition="modern"),
        ["easy", "random", "greedy", "random", "random"],
        20,
    ),
    (
        "4p-violet-triple-minus",
        Rules(players=4, table="violet", extra_card="triple_minus"),
        ["greedy", "random"] * 2,
        20,
    ),
    (
        "3p-first-out-draws",
        Rules(players=3, edition="modern", extra_card="first_out_draws"),
        ["greedy"] * 3,
        20,
    ),
    ("2p-choose", Rules(players=2, starting_cards="choose"), ["greedy", "random"], 30),
    (
        "5p-choose-modern",
        Rules(players=5, edition="modern", starting_cards="choose"),
        ["random", "greedy"] * 2 + ["easy"],
        15,
    ),
    ("abacus2003-3p", preset("abacus2003", 3), ["greedy", "random", "random"], 10),
    (
        "left-of-last-taker-4p",
        Rules(players=4, next_round_starter="left_of_last_taker", joker_any_color=False),
        ["greedy"] * 4,
        15,
    ),
]


@pytest.mark.parametrize("name,rules,specs,games", CASES, ids=[c[0] for c in CASES])
def test_both_paths_play_the_same_games(
    name: str, rules: Rules, specs: list[str], games: int
) -> None:
    seed = 100 + len(name)
    fast = simulate(rules, specs, games, seed)
    engine = simulate(rules, specs, games, seed, engine_only=True)
    assert fast.path == FAST_PATH and engine.path == ENGINE_PATH
    assert fast.scores == engine.scores
    assert len({tuple(s) for s in fast.scores}) > games // 2  # different games, not one repeated


def test_any_game_reruns_alone_and_negative_and_huge_seeds_agree() -> None:
    rules = Rules(players=3, edition="modern")
    specs = ["greedy", "random", "easy"]
    for seed in (-7, 2**64 + 5, 2**70):
        batch = simulate_batch(rules, specs, 6, seed, first_game=3)
        assert batch == [play_game(rules, specs, seed, i) for i in range(3, 9)]


def test_fixed_removed_colours_and_first_player_follow_deal() -> None:
    """The bga preset's gray at 3 players (the engine path deals it) and a fixed first
    player (``new_game(..., first_player=1)`` played by the driver)."""
    rules = Rules(players=3)
    specs = ["greedy", "random", "random"]
    assert bga_removed(rules) == [2]
    engine = simulate(rules, specs, 10, 5, preset_name="bga", engine_only=True)
    assert simulate_batch(rules, specs, 10, 5, removed_colors=[2]) == engine.scores
    got = simulate_batch(rules, specs, 8, 5, first_player=1)
    for i, scores in enumerate(got):
        gseed = game_seed(5, i)
        game = start_game(rules, gseed, specs, first_player=1)
        play_out(
            game, [make_agent(spec, agent_seed(gseed, seat)) for seat, spec in enumerate(specs)]
        )
        assert game.state.setups[0].first_player == 1
        assert scores == game.state.totals()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_playout_benchmark_plays_the_engine_benchmarks_games(players: int) -> None:
    for seed in (0, 9):
        engine = bench_playout(players, 150, seed)
        fast = fast_playout_bench(players, 150, seed)
        assert fast["mean_winner_score"] == engine["mean_winner_score"]
