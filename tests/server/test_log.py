"""The public game log and the result of the web server (src/coloretto/server/live.py,
docs/web-api.md ``state.log`` and ``result``): rounds, games of a match, the Last Round card,
bonus cards, golden jokers in the breakdown. No entry may name a card that was not revealed.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from coloretto.engine import Rules, new_game
from coloretto.engine.actions import Action
from coloretto.engine.cards import CARD_NAMES, COLORS, GOLDEN_JOKER, JOKER, LAST_ROUND
from coloretto.engine.record import Game
from coloretto.engine.rules import preset
from coloretto.engine.state import GameState
from coloretto.server.live import breakdown_json, log_entry, result_json

RULES = [
    Rules(players=3, edition="modern", match_games=2, extra_card="first_out_draws"),
    Rules(players=4, edition="modern", match_games=3),
    Rules(players=2, edition="classic"),
    Rules(players=5, edition="modern", extra_card="first_out_draws"),
]


def play_logged(rules: Rules, seed: int) -> tuple[Game, list[dict[str, Any]], list[dict[str, Any]]]:
    """Play a random game through ``log_entry``; returns the game, its log, and per action
    the facts of the true state before and after it (for the checks)."""
    game = Game(new_game(rules, seed), [f"p{s}" for s in range(rules.players)])
    rng = random.Random(seed)
    log: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    while not game.state.is_over():
        st = game.state
        before = {"round": st.round, "game": st.game, "pile": st.pile[:], "last_round": st.last_round,
                  "coll": [c[:] for c in st.coll], "totals": st.match_totals[:]}
        log.append(log_entry(game, len(log), rng.choice(st.legal_codes())))
        st = game.state
        facts.append({"before": before, "game": st.game, "pile": st.pile[:], "last_round": st.last_round,
                      "coll": [c[:] for c in st.coll], "totals": st.match_totals[:]})
    return game, log, facts


def revealed_by(entry: dict[str, Any]) -> list[str]:
    """Cards an entry says came off the draw pile (Last Round card not included)."""
    if entry["action"]["action"] == "draw":
        return [entry["card"]] if entry["card"] else []
    return list(entry.get("bonus_cards", []))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.edition}-{r.match_games}g-{r.extra_card}")
def test_log_entries_name_only_revealed_cards_and_mark_rounds(rules: Rules) -> None:
    seen_bonus = seen_last_round_on_take = seen_two_bonus = False
    for seed in range(8):
        game, log, facts = play_logged(rules, seed)
        revealed: dict[int, list[str]] = {}
        last_round_marks: dict[int, int] = {}
        for e, f in zip(log, facts):
            b = f["before"]
            g = b["game"]
            # round and game are those the action was played in
            assert e["round"] == b["round"]
            assert e.get("game") == (g + 1 if rules.match_games > 1 else None)
            # the cards the entry reveals are exactly the cards that left the draw pile
            if f["game"] == g:
                gone = b["pile"][len(f["pile"]):][::-1]
            else:  # the take ended the game: the rest of the old pile is no longer visible
                gone = None
            named = revealed_by(e)
            if gone is not None:
                assert named == [CARD_NAMES[c] for c in gone if c != LAST_ROUND], (e, gone)
                assert e.get("last_round", False) == (LAST_ROUND in gone)
                assert e.get("last_round", False) == (f["last_round"] and not b["last_round"])
            revealed.setdefault(g, []).extend(named)
            if e.get("last_round"):
                last_round_marks[g] = last_round_marks.get(g, 0) + 1
                seen_last_round_on_take |= e["action"]["action"] == "take"
            # a bonus card goes into the taker's collection (checked within a game)
            if named and e["action"]["action"] == "take":
                seen_bonus = True
                seen_two_bonus |= len(named) == 2
                assert e["bonus"] == named[0]
                if f["game"] == g:
                    gained = [f["coll"][e["seat"]][c] - b["coll"][e["seat"]][c] for c in range(len(b["coll"][0]))]
                    for name in e["cards"] + named:
                        gained[CARD_NAMES.index(name)] -= 1
                    assert not any(gained), e
            # the action that ends a game carries that game's scores
            ended = f["game"] != g or (game.state.is_over() and e is log[-1])
            assert ("game_scores" in e) == ended
            if ended:
                assert e["game_scores"] == [a - c for a, c in zip(f["totals"], b["totals"])]
        # per game: what the log revealed is the top of that game's draw pile, in order
        for g, names in revealed.items():
            setup = game.state.setups[g]
            assert setup is not None and setup.draw_pile is not None
            top_first = [CARD_NAMES[c] for c in setup.draw_pile if c != LAST_ROUND]
            assert names == top_first[: len(names)]
            assert last_round_marks.get(g, 0) <= 1
        result = result_json(game.state, "T", log)
        assert len(result["game_scores"]) == rules.match_games
        assert [sum(col) for col in zip(*result["game_scores"])] == result["scores"]
        assert result["match_games"] == rules.match_games
    if rules.edition == "modern" or rules.extra_card:
        assert seen_bonus
    # these seeds do reach the rare cases (else the checks above would prove less)
    if rules.extra_card == "first_out_draws":
        assert seen_last_round_on_take, "no take revealed the Last Round card"
    if rules.players == 5:
        assert seen_two_bonus, "no take got two bonus cards (golden joker and first out)"


def test_last_round_card_on_a_draw_is_marked_once_per_game() -> None:
    rules = Rules(players=4, match_games=2)
    _, log, _ = play_logged(rules, 11)
    marks = [e for e in log if e.get("last_round")]
    assert [e["game"] for e in marks] == [1, 2]
    assert all(e["action"]["action"] == "draw" and e["card"] for e in marks)
    # the round separators a client draws: rounds go up by one within a game, restart at 1
    for prev, e in itertools.pairwise(log):
        if e["game"] == prev["game"]:
            assert e["round"] in (prev["round"], prev["round"] + 1)
        else:
            assert (e["game"], e["round"]) == (prev["game"] + 1, 1)


def test_breakdown_marks_golden_jokers_among_assigned_jokers() -> None:
    rules = Rules(players=3, edition="modern")
    found = 0
    for seed in range(40):
        game, _, _ = play_logged(rules, seed)
        st = game.state
        for seat in range(st.n):
            b = breakdown_json(st, seat)
            golden = st.coll[seat][GOLDEN_JOKER]
            assert set(b["golden_jokers"]) <= set(b["jokers"])
            assert all(0 < n <= b["jokers"][c] for c, n in b["golden_jokers"].items())
            assert set(b["jokers"]) <= set(COLORS)
            if b["jokers"]:
                assert sum(b["golden_jokers"].values()) == golden
                assert sum(b["jokers"].values()) == golden + st.coll[seat][JOKER]
            found += golden
    assert found > 0, "no game gave anyone the golden joker: the test proves nothing"


# ----- the log is the Steps' ------------------------------------------------------------------
STEP_RULES = [
    preset("modern", 2, match_games=3),  # golden joker, 2 players (a row of one card)
    preset("modern", 3, extra_card="first_out_draws", match_games=2),
    preset("classic", 4, extra_card="first_out_draws", match_games=4),
    preset("modern", 5, extra_card="first_out_draws", starting_cards="choose", match_games=2),
    preset("abacus2003", 3),
]

ENTRY_KEYS = {
    "draw": {"card", "last_round"},
    "place": {"card"},
    "take": {"cards", "bonus", "bonus_cards", "last_round"},
    "choose_start": set(),
}
"""Per action, the keys an entry may have besides ``i``, ``seat``, ``action``, ``round``,
``game`` (matches) and ``game_scores`` (docs/web-api.md "Log entries")."""


@pytest.mark.parametrize("rules", STEP_RULES, ids=lambda r: f"{r.players}p-{r.edition}-{r.match_games}g-{r.extra_card}")
def test_log_entries_say_what_the_steps_say(rules: Rules) -> None:
    """Each entry, played through ``log_entry``, says what the engine's ``Step`` of that
    action says, on a second game played alongside with ``GameState.apply``: the seat, round
    and game, the drawn or placed card, the taken row, the bonus cards in order, the Last
    Round card, and at the end of each game that game's scores (``GameState.results``),
    which add up to the match totals; and nothing else."""
    seen = {"bonus": 0, "two_bonus": 0, "last_round_take": 0, "last_round_draw": 0, "games": 0}
    for seed in range(12):
        game = Game(new_game(rules, seed), [f"p{s}" for s in range(rules.players)])
        twin = new_game(rules, seed)
        rng = random.Random(seed)
        ended: list[list[int]] = []
        i = 0
        while not game.state.is_over():
            code = rng.choice(game.state.legal_codes())
            entry = log_entry(game, i, code)
            step = twin.apply(code)
            kind = step.action.kind
            assert (entry["i"], entry["seat"], entry["action"], entry["round"]) == (i, step.seat, step.action.to_json(), step.round)
            assert entry.get("game") == (step.game + 1 if rules.match_games > 1 else None)
            assert set(entry) - {"i", "seat", "action", "round", "game", "game_scores"} <= ENTRY_KEYS[kind], entry
            if kind == "draw":
                assert step.drawn is not None and entry["card"] == CARD_NAMES[step.drawn]
            if kind == "place":
                assert step.placed is not None and entry["card"] == CARD_NAMES[step.placed]
            if kind == "take":
                assert entry["cards"] == [CARD_NAMES[c] for c in step.taken]
                assert entry.get("bonus_cards", []) == [CARD_NAMES[c] for c in step.bonus]
                assert entry.get("bonus") == (CARD_NAMES[step.bonus[0]] if step.bonus else None)
                seen["bonus"] += bool(step.bonus)
                seen["two_bonus"] += len(step.bonus) == 2
            assert entry.get("last_round", False) is step.last_round_revealed
            if step.last_round_revealed:
                seen["last_round_" + kind] += 1
            assert ("game_scores" in entry) is step.game_over
            if step.game_over:
                assert entry["game_scores"] == list(twin.results[step.game].scores)
                ended.append(entry["game_scores"])
                seen["games"] += 1
            i += 1
        assert twin.is_over() and game.state.to_dict() == twin.to_dict()
        assert len(ended) == rules.match_games
        assert [sum(col) for col in zip(*ended)] == game.state.totals()
    # the seeds reach the cases the log must tell (else the checks above prove less)
    assert seen["games"] == 12 * rules.match_games
    assert seen["last_round_draw"] > 0
    if rules.edition == "modern" or rules.extra_card:
        assert seen["bonus"] > 0
    if rules.extra_card == "first_out_draws":
        assert seen["last_round_take"] > 0, "no take revealed the Last Round card"
    if rules.edition == "modern" and rules.extra_card == "first_out_draws":
        assert seen["two_bonus"] > 0, "no take got two bonus cards"


def test_log_entries_never_copy_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """What an action did comes from its ``Step``: ``log_entry`` never copies a state to
    find out (a whole match with bonus cards, the Last Round card and game ends)."""
    rules = preset("modern", 5, extra_card="first_out_draws", match_games=2)
    game = Game(new_game(rules, 3), [f"p{s}" for s in range(5)])

    def no_copy(self: GameState) -> GameState:
        raise AssertionError("a state was copied")

    monkeypatch.setattr(GameState, "copy", no_copy)
    rng = random.Random(3)
    log = []
    while not game.state.is_over():
        log.append(log_entry(game, len(log), rng.choice(game.state.legal_codes())))
    assert any("bonus_cards" in e for e in log) and sum("game_scores" in e for e in log) == 2


@pytest.mark.parametrize("rules", STEP_RULES[:4], ids=lambda r: f"{r.players}p-{r.edition}-{r.match_games}g-{r.extra_card}")
def test_the_result_has_every_games_breakdown(rules: Rules) -> None:
    """``result.game_breakdowns`` holds each game's breakdown per seat: the breakdown of
    that game replayed alone from its setup (the same as ``breakdowns`` for the last game),
    its totals being the game's scores."""
    for seed in range(4):
        game, log, _ = play_logged(rules, seed)
        result = result_json(game.state, "T", log)
        per_game = result["game_breakdowns"]
        assert len(per_game) == rules.match_games == len(result["game_scores"])
        for g, seats in enumerate(per_game):
            alone = GameState(rules.replace(match_games=1), [game.state.setups[g]])
            for e in log:
                if e.get("game", 1) == g + 1:
                    alone.apply(Action.from_json(e["action"]))
            assert alone.is_over()
            assert seats == [breakdown_json(alone, s) for s in range(rules.players)]
            assert [b["total"] for b in seats] == result["game_scores"][g]
        assert per_game[-1] == result["breakdowns"]
