"""Conformance harness in the spirit of OpenSpiel's random simulation test.

Thousands of seeded random games over every preset, player count and a set of option
combinations; after EVERY step the invariants of docs/rules.md are checked:

* every card of the game's setup is in exactly one place (draw pile, rows, collections,
  the drawn card, cards removed at round ends, the set-aside Last Round card);
* rows hold at most their capacity; taken rows are empty; the Last Round card is never in
  a row or collection;
* legal actions are non-empty until the end, empty after it;
* the player to move is still in the round; with 3 to 5 players and standard rows the
  untaken rows number the players still in the round;
* a round ends exactly when every player has taken a row or left (§4, §5.3), and the next
  one starts with the right player (§4, ``next_round_starter``);
* the game ends exactly at the end of the round of the Last Round card (§5.1), or when the
  pile is exhausted in a custom setup (§5.3); matches add the totals (§5.4);
* every ``Step`` that ``apply`` returns agrees with the states before and after it: the
  acting seat, game and round, the card a draw revealed, the cards placed and taken, the
  bonus cards and the Last Round card, seats leaving, cards removed, round, game and match
  ends, and the finished game's ``GameResult``;
* the record replays to the same state (every step of some games; a few steps and the end
  of every game), a draw waiting for its row included.

Scale with ``COLORETTO_CONFORMANCE_GAMES`` (games per configuration; default below).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from coloretto.engine import Game, GameState, Rules, Step, new_game, preset, replay
from coloretto.engine import actions as A
from coloretto.engine.cards import CARDS_PER_COLOR, GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2
from coloretto.engine.state import CHOOSE, OVER, PLACE, TURN

GAMES = int(os.environ.get("COLORETTO_CONFORMANCE_GAMES", "100"))
"""Games per configuration (29 configurations, some of them matches: about 3500 games by default)."""
FULL_REPLAY_EVERY = 50
"""Every this many games, the record is replayed after every step (quadratic; sampled)."""


def _configs() -> list[tuple[str, Rules, str | None]]:
    out: list[tuple[str, Rules, str | None]] = []
    for name in ("classic", "modern", "bga", "abacus2003"):
        low = 3 if name in ("bga", "abacus2003") else 2
        for players in range(low, 6):
            out.append((f"{name}-{players}p", preset(name, players), name))
    extra: list[dict[str, Any]] = [
        {"players": 2, "edition": "modern", "table": "violet"},
        {"players": 5, "edition": "modern", "table": "violet"},
        {"players": 2, "starting_cards": "choose"},
        {"players": 4, "starting_cards": "choose", "edition": "modern"},
        {"players": 3, "next_round_starter": "left_of_last_taker"},
        {"players": 5, "next_round_starter": "left_of_last_taker"},
        {"players": 4, "extra_card": "first_out_draws"},
        {"players": 5, "extra_card": "first_out_draws", "edition": "modern"},
        {"players": 4, "extra_card": "triple_minus", "joker_any_color": False},
        {"players": 4, "row_capacities": [3, 3, 2, 4]},
        {"players": 2, "row_capacities": [2, 2]},
        {"players": 3, "row_capacities": [6, 6, 6, 6, 6, 6]},
        {"players": 5, "row_capacities": [6, 6, 6, 6, 6, 6], "edition": "modern",
         "extra_card": "first_out_draws"},
        {"players": 2, "match_games": 3, "edition": "modern"},
        {"players": 4, "match_games": 2, "starting_cards": "choose"},
    ]
    for kw in extra:
        label = "-".join(f"{k}={v}" for k, v in kw.items()).replace(" ", "")
        out.append((label, Rules.from_dict(kw), None))
    return out


CONFIGS = _configs()


def full_deck(state: GameState) -> Counter[int]:
    """The cards of the current game, from the rules and the removed colours alone."""
    setup = state.setups[state.game]
    assert setup is not None
    rules = state.rules
    deck: Counter[int] = Counter()
    for c in range(7):
        if c not in setup.removed_colors:
            deck[c] = CARDS_PER_COLOR
    deck[JOKER] = 3 if rules.edition == "classic" else 2
    if rules.edition == "modern":
        deck[GOLDEN_JOKER] = 1
    deck[PLUS2] = 10
    deck[LAST_ROUND] = 1
    return deck


def check_invariants(st: GameState) -> None:
    """Everything that must hold in any reachable state."""
    legal = st.legal_codes()
    if st.phase == OVER:
        assert legal == [] and st.to_move == -1
        return
    assert legal, "no legal action before the end"
    assert 0 <= st.to_move < st.n
    if st.phase == CHOOSE:
        assert st.pile == [] and all(c >= A.CHOOSE0 for c in legal)
        assert sum(sum(c) for c in st.coll) == len(st.chosen)
        return
    # every card in exactly one place
    where: Counter[int] = Counter(st.pile)
    for row in st.rows:
        where.update(row)
    for col in st.coll:
        for code, k in enumerate(col):
            where[code] += k
    if st.drawn != -1:
        where[st.drawn] += 1
    where.update(st.removed)
    if st.last_round:
        assert LAST_ROUND not in st.pile
        where[LAST_ROUND] += 1
    else:
        assert st.pile.count(LAST_ROUND) == 1
    assert +where == full_deck(st)
    # rows and capacities
    for r, row in enumerate(st.rows):
        assert len(row) <= st.caps[r]
        assert LAST_ROUND not in row
        if st.row_taker[r] != -1:
            assert row == []
    # the player to move is in the round
    assert not st.out[st.to_move]
    assert st.active == st.n - sum(st.out) > 0
    if st.rules.row_capacities is None and st.n >= 3:
        assert sum(1 for t in st.row_taker if t == -1) == st.active
    if st.phase == PLACE:
        assert st.drawn != -1 and all(A.PLACE0 <= c < A.TAKE0 for c in legal)
    else:
        assert st.phase == TURN and st.drawn == -1
        can_draw = st.cards_left() > 0 and any(
            st.row_taker[r] == -1 and len(st.rows[r]) < st.caps[r] for r in range(st.nrows)
        )
        assert (A.DRAW in legal) == can_draw
        takeable = [A.TAKE0 + r for r in range(st.nrows) if st.row_taker[r] == -1 and st.rows[r]]
        assert [c for c in legal if c != A.DRAW] == takeable


def check_transition(prev: GameState, code: int, st: GameState) -> None:
    """What one step may change: rounds and games end exactly when they should."""
    same_game = st.game == prev.game and st.phase != OVER
    round_over = not same_game or st.round != prev.round
    if code < A.TAKE0 or code >= A.CHOOSE0:
        assert not round_over, "a round ended without a take"
        if code == A.DRAW:
            assert st.to_move == prev.to_move and st.phase == PLACE
            assert st.last_round == (prev.last_round or prev.pile[-1] == LAST_ROUND)
        return
    r = code - A.TAKE0
    others = any(
        prev.row_taker[q] == -1 and prev.rows[q] for q in range(prev.nrows) if q != r
    )
    pile_after = st.cards_left() if same_game else None
    # §4 / §5.3: the round ends when the last player takes, or when everybody left has only
    # empty rows and the pile is empty.
    expect_end = prev.active == 1 or (pile_after == 0 and not others)
    if not same_game:
        # the game ended, so the round did: by the last player's take or an empty pile
        assert prev.active == 1 or not others
        return
    assert round_over == expect_end, (prev.active, others, pile_after)
    if round_over:
        assert st.round == prev.round + 1 and not prev.last_round and not st.last_round
        expected = prev.to_move
        if prev.rules.next_round_starter == "left_of_last_taker":
            expected = (expected + 1) % prev.n
        if prev.active == 1:
            assert st.to_move == expected
        assert st.rows == [[] for _ in st.rows] and not any(st.out)
    else:
        assert st.out[prev.to_move] and st.row_taker[r] == prev.to_move


def expected_bonus(prev: GameState, code: int) -> tuple[list[int], bool]:
    """The bonus cards a take gets from the top of ``prev``'s pile and whether the Last Round
    card comes up under them (docs/rules.md §5.2, ``first_out_draws``)."""
    row = prev.rows[code - A.TAKE0]
    draws = (GOLDEN_JOKER in row) + (
        prev.rules.extra_card == "first_out_draws" and prev.takes == 0
    )
    pile = prev.pile[:]
    got: list[int] = []
    revealed = False
    for _ in range(draws):
        if pile and pile[-1] == LAST_ROUND:
            pile.pop()
            revealed = True
        if pile:
            got.append(pile.pop())
    return got, revealed


def check_step(prev: GameState, code: int, step: Step, st: GameState) -> None:
    """The ``Step`` of ``code`` agrees with the states before (``prev``) and after (``st``)."""
    assert step.seat == prev.to_move and step.action.code == code
    assert step.game == prev.game and step.round == prev.round
    same_game = st.game == prev.game and st.phase != OVER
    assert step.game_over == (not same_game)
    assert step.match_over == (st.phase == OVER)
    assert step.round_over == (not same_game or st.round != prev.round)
    leftover = [r[:] if prev.row_taker[i] == -1 else [] for i, r in enumerate(prev.rows)]
    gained = [0] * 10
    if code == A.DRAW:
        top = prev.pile[-1]
        assert step.last_round_revealed == (top == LAST_ROUND)
        assert step.drawn == (prev.pile[-2] if top == LAST_ROUND else top) == st.drawn
        assert step.placed is None and step.taken == () and step.bonus == ()
    elif code < A.TAKE0:
        assert step.drawn is None and step.placed == prev.drawn and step.taken == ()
        assert step.bonus == () and not step.last_round_revealed
        leftover[code - A.PLACE0].append(prev.drawn)
        if not step.round_over:
            assert st.rows[code - A.PLACE0] == leftover[code - A.PLACE0]
    elif code < A.CHOOSE0:
        r = code - A.TAKE0
        assert step.taken == tuple(prev.rows[r]) and step.drawn is None and step.placed is None
        bonus, revealed = expected_bonus(prev, code)
        assert list(step.bonus) == bonus and step.last_round_revealed == revealed
        leftover[r] = []
        for c in [*step.taken, *step.bonus]:
            gained[c] += 1
    else:
        assert step.drawn is None and step.placed is None and step.taken == () == step.bonus
        gained[code - A.CHOOSE0] += 1
    # seats leaving the round taking nothing (docs/rules.md §5.3)
    for s in step.left:
        assert not prev.out[s] and s != step.seat
        if not step.round_over:
            assert st.out[s] and s not in st.row_taker
    if not step.round_over and code != A.DRAW and code < A.CHOOSE0:
        newly_out = {s for s in range(st.n) if st.out[s] and not prev.out[s]}
        assert newly_out == set(step.left) | ({step.seat} if code >= A.TAKE0 else set())
    # cards removed at the end of the round: the rows nobody took
    expect_removed = [c for row in leftover for c in row] if step.round_over else []
    assert list(step.removed) == expect_removed
    if same_game and step.round_over:
        assert st.removed[len(st.removed) - len(step.removed):] == list(step.removed)
    # the acting seat's collection and the finished game's result
    mine = [a + b for a, b in zip(prev.coll[step.seat], gained)]
    if same_game:
        assert st.coll[step.seat] == mine and st.results == prev.results
    else:
        assert len(st.results) == len(prev.results) + 1
        result = st.results[-1]
        assert result.game == step.game and result.colors_in_play == prev.in_play
        assert list(result.collections[step.seat]) == mine
        for s in range(prev.n):
            if s != step.seat:
                assert list(result.collections[s]) == prev.coll[s]
        assert [a - b for a, b in zip(st.match_totals, prev.match_totals)] == list(result.scores)
        assert list(result.scores) == [
            result.breakdown(s, prev.rules).total for s in range(prev.n)
        ]


def play_one(rules: Rules, seed: int, preset_name: str | None, full_replay: bool) -> int:
    """Play one seeded random game checking everything; return the number of steps."""
    state = new_game(rules, seed, preset_name=preset_name)
    game = Game(state, [f"s{i}" for i in range(rules.players)])
    rng = random.Random(seed * 7919 + 1)
    if preset_name == "bga" and rules.players == 3:
        assert state.in_play == (0, 1, 3, 4, 5, 6)
    check_invariants(state)
    steps = 0
    replay_at = {rng.randrange(1, 120) for _ in range(2)}
    games_seen = {0}
    game_ends = 0
    while not game.state.is_over():
        prev = game.state.copy()
        legal = prev.legal_codes()
        code = legal[rng.randrange(len(legal))]
        step = game.play(code)
        st = game.state
        steps += 1
        check_invariants(st)
        check_transition(prev, code, st)
        check_step(prev, code, step, st)
        assert game.steps[-1] is step
        if st.game != prev.game or st.is_over():
            game_ends += 1
            # the game ended: its final round was the Last Round card's (or the pile ran out)
            assert (
                prev.last_round
                or _lr_revealed_by_bonus(prev, code)
                or (prev.rules.row_capacities is not None and prev.cards_left() <= 2)
            )
            games_seen.add(st.game)
        if full_replay or steps in replay_at:
            check_replay(game)
    assert game_ends == rules.match_games and games_seen == set(range(rules.match_games))
    assert game.state.totals() == game.state.match_totals
    check_replay(game)
    return steps


def _lr_revealed_by_bonus(prev: GameState, code: int) -> bool:
    """The Last Round card was on top and the final take's bonus revealed it (possible only
    with a bonus: golden joker or first_out_draws)."""
    if code < A.TAKE0 or prev.pile[-1] != LAST_ROUND:
        return False
    row = prev.rows[code - A.TAKE0]
    return GOLDEN_JOKER in row or (prev.rules.extra_card == "first_out_draws" and prev.takes == 0)


def check_replay(game: Game) -> None:
    """The record (through JSON) replays to the same state, a draw waiting for its row
    included, with the same Steps."""
    rec = json.loads(json.dumps(game.to_record()))
    res = replay(rec)
    assert res.valid, res.error
    assert res.game is not None
    again = res.game.state
    assert again == game.state
    assert again.results == game.state.results
    assert res.game.steps == game.steps
    if game.state.is_over():
        assert rec["result"]["scores"] == again.totals()


@pytest.mark.parametrize(("label", "rules", "preset_name"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games_keep_every_invariant(label: str, rules: Rules, preset_name: str | None) -> None:
    base = sum(map(ord, label)) * 100_003
    total_steps = 0
    for i in range(GAMES):
        total_steps += play_one(rules, base + i, preset_name, full_replay=i % FULL_REPLAY_EVERY == 0)
    assert total_steps > GAMES * 20


def test_configurations_cover_every_preset_and_player_count() -> None:
    covered = {(p, r.players) for _, r, p in CONFIGS if p}
    assert covered == {
        (name, n)
        for name in ("classic", "modern", "bga", "abacus2003")
        for n in range(2 if name in ("classic", "modern") else 3, 6)
    }
    assert GAMES * len(CONFIGS) >= 1000 or "COLORETTO_CONFORMANCE_GAMES" in os.environ
