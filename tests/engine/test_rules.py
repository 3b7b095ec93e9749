"""One test (at least) per rule and option of docs/rules.md, each failing if the rule is broken.

States are built with a chosen draw pile (``engine_helpers.stacked_state``) so that every
situation of the rules can be forced.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from engine_helpers import (
    above_lr,
    big_rows,
    card_total,
    drain_to,
    draw,
    full_deck,
    run_plan,
    simple_step,
    stacked_state,
    take,
    to_pile_exhaustion,
)

from coloretto.engine import (
    ConfigurationError,
    GameState,
    IllegalActionError,
    Rules,
    Setup,
    card_code,
    new_game,
    preset,
)
from coloretto.engine import actions as A
from coloretto.engine.cards import GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2
from coloretto.engine.rules import BROWN_TABLE, VIOLET_TABLE
from coloretto.engine.state import OVER, PLACE, TURN

G, Y, B = card_code("green"), card_code("yellow"), card_code("blue")


def assert_illegal(state: GameState, code: int, rule_part: str) -> IllegalActionError:
    """``code`` raises IllegalActionError naming ``rule_part`` and changes nothing."""
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as info:
        state.apply(code)
    assert rule_part in info.value.rule
    assert state.to_dict() == before
    return info.value


# ----- §1 components, §7 options ----------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "caps", "colors"),
    [(2, (1, 2, 3), 5), (3, (3, 3, 3), 6), (4, (3, 3, 3, 3), 7), (5, (3,) * 5, 7)],
)
def test_rows_and_colours_per_player_count(players: int, caps: tuple[int, ...], colors: int) -> None:
    rules = Rules(players=players)
    assert rules.capacities == caps
    assert rules.colors_in_play == colors
    assert rules.starting_cards_each == (2 if players == 2 else 1)
    st = new_game(rules, 1)
    assert st.caps == caps and len(st.rows) == len(caps)
    assert len(st.in_play) == colors


@pytest.mark.parametrize(("edition", "jokers", "golden", "k"), [("classic", 3, 0, 15), ("modern", 2, 1, 16)])
def test_editions(edition: str, jokers: int, golden: int, k: int) -> None:
    rules = Rules(edition=edition)
    assert (rules.jokers, rules.golden_jokers, rules.cards_under_last_round) == (jokers, golden, k)
    st = new_game(rules, 5)
    pile = Counter(st.pile)
    assert pile[JOKER] == jokers and pile[GOLDEN_JOKER] == golden and pile[PLUS2] == 10
    assert st.pile.index(LAST_ROUND) == k  # bottom first: k cards under it


def test_score_tables() -> None:
    assert Rules(table="brown").score_table == BROWN_TABLE == (0, 1, 3, 6, 10, 15, 21)
    assert Rules(table="violet").score_table == VIOLET_TABLE == (0, 1, 4, 8, 7, 6, 5)


@pytest.mark.parametrize(
    "bad",
    [
        {"players": 1}, {"players": 6}, {"players": "4"}, {"edition": "deluxe"}, {"table": "red"},
        {"starting_cards": "deal"}, {"next_round_starter": "right"}, {"joker_any_color": 1},
        {"match_games": 0}, {"match_games": 11}, {"extra_card": "double"},
        {"row_capacities": [3, 3, 3]}, {"row_capacities": [3, 3, 3, 0]},
        {"row_capacities": [3, 3, 3, 7]}, {"row_capacities": [3] * 7},
    ],
)
def test_bad_options_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError) as info:
        Rules.from_dict(bad)
    assert next(iter(bad)) in str(info.value)


def test_unknown_option_and_defaults() -> None:
    with pytest.raises(ConfigurationError, match="unknown"):
        Rules.from_dict({"colour_blind": True})
    assert Rules.from_dict({}) == Rules()
    assert Rules().to_dict() == {
        "players": 4, "edition": "classic", "table": "brown", "starting_cards": "random",
        "next_round_starter": "last_taker", "joker_any_color": True, "match_games": 1,
        "extra_card": None, "row_capacities": None,
    }
    custom = Rules.from_dict({"row_capacities": [3, 3, 2, 4]})
    assert custom.capacities == (3, 3, 2, 4)
    assert Rules.from_dict(custom.to_dict()) == custom


# ----- presets ------------------------------------------------------------------------------
def test_preset_bga_removes_gray_at_three_players() -> None:
    rules = preset("bga", 3)
    assert rules.edition == "classic" and rules.starting_cards == "random"
    for seed in range(20):
        st = new_game(rules, seed, preset_name="bga")
        assert st.in_play == (0, 1, 3, 4, 5, 6)  # all but gray
    # Without the preset the colour is random: some seed removes another one.
    assert any(new_game(Rules(players=3), s).in_play != (0, 1, 3, 4, 5, 6) for s in range(20))


def test_presets_player_ranges_and_abacus_match() -> None:
    for name in ("bga", "abacus2003"):
        with pytest.raises(ConfigurationError):
            preset(name, 2)
        assert preset(name, 5).players == 5
    assert preset("abacus2003", 4).match_games == 4
    assert preset("modern", 2).edition == "modern"
    assert preset("classic", 2).edition == "classic"
    with pytest.raises(ConfigurationError):
        preset("nope", 4)


# ----- §3 a turn ------------------------------------------------------------------------------
def test_draw_reveals_the_top_card_then_it_must_be_placed() -> None:
    st = stacked_state(Rules(players=4), top=["green", "plus2"])
    st.apply(A.DRAW)
    assert st.phase == PLACE and st.drawn == G and st.to_move == 0
    # The card can't be kept or discarded: only placements are legal.
    assert st.legal_codes() == [A.PLACE0 + r for r in range(4)]
    assert_illegal(st, A.DRAW, "§3")
    assert_illegal(st, A.TAKE0, "§3")
    st.apply(A.PLACE0 + 2)  # any row with room, wanted or not
    assert st.rows[2] == [G] and st.to_move == 1 and st.phase == TURN
    assert draw(st, 2) == PLUS2


def test_place_only_into_untaken_rows_with_room() -> None:
    st = stacked_state(Rules(players=4))
    run_plan(st, "d0 d0 d0 d1 t1")  # row 0 full; seat 0 takes row 1
    st.apply(A.DRAW)
    assert st.legal_codes() == [A.PLACE0 + 2, A.PLACE0 + 3]
    assert "full" in str(assert_illegal(st, A.PLACE0 + 0, "§3"))
    assert "taken" in str(assert_illegal(st, A.PLACE0 + 1, "§3"))
    assert_illegal(st, A.PLACE0 + 4, "§3")  # no fifth row


def test_empty_row_can_never_be_taken_and_all_empty_means_draw() -> None:
    st = stacked_state(Rules(players=4))
    assert st.legal_codes() == [A.DRAW]
    err = assert_illegal(st, A.TAKE0 + 0, "§3 take")
    assert "empty" in str(err)
    draw(st, 1)
    assert st.legal_codes() == [A.DRAW, A.TAKE0 + 1]
    assert_illegal(st, A.TAKE0 + 0, "§3 take")


def test_must_take_when_every_untaken_row_is_full() -> None:
    st = stacked_state(Rules(players=4))
    run_plan(st, " ".join(f"d{r}" for r in range(4) for _ in range(3)))
    assert st.legal_codes() == [A.TAKE0 + r for r in range(4)]
    assert "full" in str(assert_illegal(st, A.DRAW, "§3"))
    # Rows need not be full to be taken.
    st2 = stacked_state(Rules(players=4))
    run_plan(st2, "d0")
    take(st2, 0)
    assert st2.out[1] and st2.rows[0] == []


def test_take_moves_row_into_collection_jokers_unassigned_plus2_kept() -> None:
    st = stacked_state(Rules(players=4), top=["joker", "plus2", "green"])
    run_plan(st, "d0 d0 d0 t0")
    assert st.coll[3][JOKER] == 1 and st.coll[3][PLUS2] == 1
    assert st.coll[3][G] == 1 + (1 if st.setups[0].starting_cards[3] == (G,) else 0)  # type: ignore[index]
    assert st.rows[0] == [] and st.row_taker[0] == 3 and st.out[3]


def test_play_passes_left_skipping_players_out() -> None:
    st = stacked_state(Rules(players=4), first=2)
    assert st.to_move == 2
    run_plan(st, "d0")
    assert st.to_move == 3
    take(st, 0)  # seat 3 out
    assert st.to_move == 0
    run_plan(st, "d1")
    assert st.to_move == 1
    run_plan(st, "d1")
    assert st.to_move == 2
    run_plan(st, "d1")
    assert st.to_move == 0  # 3 is skipped
    assert_illegal(st, A.TAKE0 + 0, "§3 take")  # a taken row


def test_untaken_rows_equal_players_in_round_3_to_5() -> None:
    for players in (3, 4, 5):
        st = new_game(Rules(players=players), players)
        steps = 0
        while not st.is_over() and steps < 400:
            untaken = sum(1 for t in st.row_taker if t == -1)
            assert untaken == st.n - sum(st.out)
            simple_step(st)
            steps += 1


def test_last_player_may_keep_drawing_and_take_any_time() -> None:
    st = stacked_state(Rules(players=4))
    run_plan(st, "d0 t0 d1 t1 d2 t2")  # seats 1, 3, 1?  -> check who is left
    assert sum(st.out) == 3
    last = st.to_move
    assert not st.out[last]
    # Alone, seat keeps drawing while row 3 has room, and may take whenever it is non-empty.
    assert st.legal_codes() == [A.DRAW]
    draw(st, 3)
    assert st.to_move == last and st.legal_codes() == [A.DRAW, A.TAKE0 + 3]
    draw(st, 3)
    draw(st, 3)
    assert st.to_move == last and st.legal_codes() == [A.TAKE0 + 3]  # full: must take
    take(st, 3)
    assert st.round == 2


def test_last_player_in_two_player_round_keeps_drawing() -> None:
    st = stacked_state(Rules(players=2))
    run_plan(st, "d0 t0")  # seat 1 takes the 1-card row
    assert st.to_move == 0
    draw(st, 1)
    draw(st, 2)
    assert st.to_move == 0
    assert st.legal_codes() == [A.DRAW, A.TAKE0 + 1, A.TAKE0 + 2]


# ----- §4 end of a round -------------------------------------------------------------------
@pytest.mark.parametrize(("starter", "expected"), [("last_taker", 2), ("left_of_last_taker", 3)])
def test_next_round_starter(starter: str, expected: int) -> None:
    st = stacked_state(Rules(players=4, next_round_starter=starter))
    run_plan(st, "d0 t0 d1 t1")  # seats 1 and 3 out
    assert st.to_move == 0
    run_plan(st, "d2 d3 t2 t3")  # seat 0 places, 2 places, 0 takes, 2 takes last
    assert st.round == 2 and st.to_move == expected
    assert st.rows == [[], [], [], []] and st.row_taker == [-1] * 4 and not any(st.out)


def test_left_of_last_taker_wraps_around() -> None:
    st = stacked_state(Rules(players=3, next_round_starter="left_of_last_taker"))
    run_plan(st, "d0 t0 d1 t1 d2 t2")  # 0 d, 1 t, 2 d, 0 t, 2 d, 2 t
    assert st.round == 2 and st.to_move == 0
    st = stacked_state(Rules(players=3))
    run_plan(st, "d0 t0 d1 t1 d2 t2")
    assert st.round == 2 and st.to_move == 2


def test_two_players_third_row_removed_even_when_full() -> None:
    st = stacked_state(Rules(players=2), top=["green", "blue", "green", "orange", "plus2", "joker"])
    run_plan(st, "d2 d2 d2 d0 t0")  # row 2 full; seat 0 takes row 0 (cap 1)
    assert st.to_move == 1
    run_plan(st, "d1 t1")
    assert st.round == 2
    assert sorted(st.removed) == sorted([G, B, G])
    assert st.rows == [[], [], []]
    assert card_total(st) == full_deck(st)


def test_two_players_third_row_removed_when_empty_or_partial() -> None:
    st = stacked_state(Rules(players=2))
    run_plan(st, "d0 t0 d1 t1")
    assert st.round == 2 and st.removed == []
    st = stacked_state(Rules(players=2))
    run_plan(st, "d2 d0 t0 t2")  # row 1 was empty, row 2 taken, nothing removed
    assert st.round == 2 and st.removed == []
    st = stacked_state(Rules(players=2), top=["plus2", "joker"])
    run_plan(st, "d1 d2 t1 t2")
    assert st.removed == []
    st = stacked_state(Rules(players=2), top=["plus2", "joker", "green"])
    run_plan(st, "d1 d2 d0 t0 t1")
    assert st.removed == [card_code("joker")]


# ----- §5 end of the game -------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_last_round_card_set_aside_same_player_draws_again(players: int) -> None:
    st = stacked_state(Rules(players=players), after_lr=["plus2"])
    drain_to(st, 0)
    seat, round_ = st.to_move, st.round
    st.apply(A.DRAW)
    assert st.last_round and st.drawn == PLUS2 and st.to_move == seat and st.phase == PLACE
    assert LAST_ROUND not in st.pile
    assert st.cards_left() == st.rules.cards_under_last_round - 1
    # The round is played to its end, then the game ends (never before).
    while not st.is_over():
        assert st.round == round_
        if st.phase == PLACE:
            st.apply(st.legal_codes()[0])
        else:
            simple_step(st)
    assert st.phase == OVER and st.round == round_ and st.to_move == -1
    assert not any(LAST_ROUND in r for r in st.rows)
    assert all(len(c) == 10 for c in st.coll)  # the collection has no slot for it
    assert card_total(st) == full_deck(st)


def test_game_goes_on_while_last_round_card_unseen() -> None:
    st = new_game(Rules(players=4), 11)
    rounds = 0
    while not st.last_round:
        r = st.round
        simple_step(st)
        if st.round != r:
            rounds += 1
            assert not st.is_over()
    assert rounds >= 3


def test_golden_joker_bonus_card() -> None:
    rules = Rules(players=4, edition="modern")
    st = stacked_state(rules, top=["golden_joker", "pink", "orange"])
    run_plan(st, "d0")
    take(st, 0)  # seat 1 takes the golden joker; the top card (pink) is its bonus
    assert st.coll[1][GOLDEN_JOKER] == 1 and st.coll[1][card_code("pink")] == 1 + (
        st.setups[0].starting_cards[1] == (card_code("pink"),)  # type: ignore[index]
    )
    assert draw(st, 1) == card_code("orange")
    assert card_total(st) == full_deck(st)


def test_golden_joker_bonus_reveals_last_round_card() -> None:
    rules = Rules(players=4, edition="modern")
    st = stacked_state(rules, before_lr=["golden_joker"], after_lr=["plus2", "blue"])
    drain_to(st, 1)
    assert not st.last_round
    row = next(r for r in range(4) if st.row_taker[r] == -1 and len(st.rows[r]) < 3)
    draw(st, row)
    seat = st.to_move
    plus2_before = st.coll[seat][PLUS2]
    take(st, row)
    assert st.last_round  # set aside, as in §5.1
    assert st.coll[seat][PLUS2] == plus2_before + 1  # the next card is the bonus instead
    assert st.cards_left() == rules.cards_under_last_round - 1
    assert LAST_ROUND not in st.pile
    st.apply(A.DRAW)
    assert st.drawn == B
    assert card_total(st) == full_deck(st)


def test_classic_has_no_golden_joker_bonus() -> None:
    st = stacked_state(Rules(players=4), top=["joker", "pink"])
    run_plan(st, "d0 t0")
    assert st.coll[1][JOKER] == 1 and sum(st.coll[1]) == 2  # starting card + joker only


def test_empty_pile_drawing_illegal_players_with_empty_rows_leave() -> None:
    """docs/rules.md §5.3 in a custom setup whose draw pile empties."""
    st = stacked_state(big_rows(5))
    to_pile_exhaustion(st, 15)
    assert [len(r) for r in st.rows] == [6, 6, 3, 0, 0, 0]
    assert A.DRAW not in st.legal_codes()
    assert_illegal(st, A.DRAW, "§5.3")
    colls = [c[:] for c in st.coll]
    takers = []
    for r in range(3):
        takers.append(st.to_move)
        take(st, r)
    # The two players left have only empty rows: they leave taking nothing; the round and
    # the game end when nobody is left.
    assert st.is_over()
    for s in range(5):
        if s not in takers:
            assert st.coll[s] == colls[s]
    assert card_total(st) == full_deck(st)


def test_empty_pile_player_with_a_non_empty_row_must_take() -> None:
    st = stacked_state(big_rows(5))
    to_pile_exhaustion(st, 15)
    seat = st.to_move
    assert st.legal_codes() == [A.TAKE0 + 0, A.TAKE0 + 1, A.TAKE0 + 2]
    take(st, 2)
    assert st.out[seat] and not st.is_over()


def test_golden_joker_with_empty_pile_gives_no_bonus() -> None:
    rules = big_rows(5, edition="modern")
    st = stacked_state(rules, bottom=["golden_joker"])
    to_pile_exhaustion(st, 16)
    assert GOLDEN_JOKER in st.rows[2]
    seat = st.to_move
    before = sum(st.coll[seat])
    take(st, 2)
    assert sum(st.coll[seat]) == before + 4  # the row's cards, no bonus
    assert card_total(st) == full_deck(st)


def test_first_out_draws_bonus_each_round() -> None:
    rules = Rules(players=4, extra_card="first_out_draws")
    st = stacked_state(rules, top=["green", "plus2", "joker", "yellow"])
    run_plan(st, "d0")  # green into row 0
    take(st, 0)  # seat 1: first out this round -> also takes plus2
    assert st.coll[1][PLUS2] == 1
    draw(st, 1)  # joker
    take(st, 1)  # seat 3: not first -> no bonus
    assert st.coll[3][JOKER] == 1 and sum(st.coll[3]) == 2
    run_plan(st, "d2 t2 d3 t3")
    assert st.round == 2
    seat = st.to_move
    run_plan(st, "d0")
    n = sum(st.coll[(seat + 1) % 4])
    take(st, 0)
    assert sum(st.coll[(seat + 1) % 4]) == n + 2  # first out again in round 2
    assert card_total(st) == full_deck(st)


def test_first_out_draws_bonus_reveals_last_round_card() -> None:
    rules = Rules(players=4, extra_card="first_out_draws")
    # Find, over seeded random plays, a moment where the Last Round card is on top, nobody
    # has taken a row this round and a row can be taken; take it there.
    for seed in range(200):
        st = stacked_state(rules, after_lr=["plus2"], seed=seed)
        rng = random.Random(seed)
        while not st.last_round:
            legal = st.legal_codes()
            takeable = [c for c in legal if c >= A.TAKE0]
            if st.phase == TURN and above_lr(st) == 0 and st.takes == 0 and takeable:
                seat = st.to_move
                p = st.coll[seat][PLUS2]
                st.apply(takeable[0])
                assert st.last_round and st.coll[seat][PLUS2] == p + 1
                assert card_total(st) == full_deck(st)
                return
            st.apply(legal[rng.randrange(len(legal))])
    pytest.fail("no seed reached the situation")


# ----- §2 choose starting cards --------------------------------------------------------------
def test_choose_starting_cards_in_turn_order_all_different() -> None:
    rules = Rules(players=2, starting_cards="choose")
    st = new_game(rules, 4, first_player=1, removed_colors=[2, 5])
    assert st.decision == "choose_start" and st.to_move == 1 and st.pile == []
    assert st.legal_codes() == [A.CHOOSE0 + c for c in (0, 1, 3, 4, 6)]
    assert "not in play" in str(assert_illegal(st, A.CHOOSE0 + 2, "§2"))
    assert_illegal(st, A.DRAW, "§2.2")
    order = []
    for color in (6, 0, 3, 1):
        order.append(st.to_move)
        st.apply(A.CHOOSE0 + color)
        if color == 6:
            assert_illegal(st, A.CHOOSE0 + 6, "§2.2")  # all different
    assert order == [1, 0, 1, 0]
    assert st.phase == TURN and st.to_move == 1
    assert st.coll[1][6] == st.coll[1][3] == 1 and st.coll[0][0] == st.coll[0][1] == 1
    # The pile is shuffled after the choices and leaves 8 of each chosen colour.
    pile = Counter(st.pile)
    assert [pile[c] for c in (0, 1, 3, 4, 6)] == [8, 8, 8, 9, 8]
    assert len(st.pile) - 1 == 54
    assert card_total(st) == full_deck(st)


# ----- options that change scoring: the state uses them ------------------------------------------
def collect(rules: Rules, **counts: int) -> GameState:
    st = stacked_state(rules.replace(players=4))
    st.coll[0] = [0] * 10
    for name, k in counts.items():
        st.coll[0][card_code(name)] = k
    return st


def test_joker_any_color_option_reaches_the_state() -> None:
    counts = {"green": 6, "yellow": 6, "joker": 1}
    assert collect(Rules(), **counts).score(0) == 43  # joker to a colour not held
    st = collect(Rules(joker_any_color=False), **counts)
    assert st.score(0) == 42
    assert st.joker_targets(0) == (G, Y)


@pytest.mark.parametrize(
    ("kw", "counts", "total"),
    [
        ({}, {"green": 1}, 1),
        ({"extra_card": "single_three"}, {"green": 1}, 3),
        ({}, {"green": 3}, 6),
        ({"extra_card": "triple_three"}, {"green": 3}, 2),
        ({}, {"green": 3, "yellow": 3, "blue": 3, "pink": 1}, 17),
        ({"extra_card": "triple_minus"}, {"green": 3, "yellow": 3, "blue": 3, "pink": 1}, 15),
        ({"table": "violet"}, {"green": 3, "yellow": 4}, 15),
        ({}, {"green": 2, "plus2": 2}, 7),
    ],
)
def test_scoring_options_reach_the_state(kw: dict[str, str], counts: dict[str, int], total: int) -> None:
    assert collect(Rules(**kw), **counts).score(0) == total  # type: ignore[arg-type]


# ----- custom row capacities ---------------------------------------------------------------------
def test_custom_row_capacities_respected() -> None:
    rules = Rules(players=4, row_capacities=(3, 3, 2, 4))
    st = stacked_state(rules)
    assert st.caps == (3, 3, 2, 4)
    run_plan(st, "d2 d2")
    st.apply(A.DRAW)
    assert A.PLACE0 + 2 not in st.legal_codes()
    assert_illegal(st, A.PLACE0 + 2, "§3")
    st.apply(A.PLACE0 + 3)
    run_plan(st, "d3 d3 d3")
    st.apply(A.DRAW)
    assert st.legal_codes() == [A.PLACE0, A.PLACE0 + 1]


def test_more_rows_than_players_round_ends_when_all_took() -> None:
    rules = Rules(players=3, row_capacities=(3, 3, 3, 3))
    st = stacked_state(rules)
    run_plan(st, "d0 d1 d2 d3 t0 t1 t2")
    assert st.round == 2 and len(st.removed) == 1


# ----- §5.4 matches ------------------------------------------------------------------------------
def game_scores(rules: Rules, setup: Setup | None) -> list[int]:
    """Final scores of ``setup`` played alone with ``simple_step``."""
    single = GameState(rules.replace(match_games=1), [setup])
    while not single.is_over():
        simple_step(single)
    return single.totals()


@pytest.mark.parametrize("games", [2, 4])
def test_match_totals_are_the_sum_of_the_games(games: int) -> None:
    rules = Rules(players=3, match_games=games)
    st = new_game(rules, 7)
    assert len(st.setups) == games
    seen_games = {0}
    while not st.is_over():
        simple_step(st)
        seen_games.add(st.game)
    assert seen_games == set(range(games))
    expected = [0, 0, 0]
    for setup in st.setups:
        expected = [a + b for a, b in zip(expected, game_scores(rules, setup))]
    assert st.match_totals == st.totals() == expected
    assert st.winners() == [s for s in range(3) if expected[s] == max(expected)]


def test_match_second_game_starts_fresh_with_its_setup() -> None:
    rules = Rules(players=4, match_games=2)
    st = new_game(rules, 9)
    while st.game == 0:
        simple_step(st)
    second = st.setups[1]
    assert second is not None
    assert st.round == 1 and not st.last_round and st.removed == []
    assert st.to_move == second.first_player
    assert [sum(c) for c in st.coll] == [1, 1, 1, 1]
    assert st.pile[::-1] == list(second.draw_pile)  # type: ignore[arg-type]


# ----- illegal actions -----------------------------------------------------------------------------
def test_illegal_actions_name_the_rule_and_leave_state_unchanged() -> None:
    st = new_game(Rules(players=4), 3)
    for code in range(A.NUM_DISTINCT_ACTIONS):
        if code not in st.legal_codes():
            err = assert_illegal(st, code, "§")
            assert err.rule
    with pytest.raises(IllegalActionError):
        st.apply(A.Action("take", 6))  # would encode as a choose action
    with pytest.raises(IllegalActionError):
        st.apply(A.Action("place", 6))  # would encode as "take row 0"
    with pytest.raises(IllegalActionError):
        st.apply(99)
    with pytest.raises(IllegalActionError):
        st.apply(True)  # type: ignore[arg-type]
    while not st.is_over():
        simple_step(st)
    assert_illegal(st, A.DRAW, "§5")
    assert st.legal_codes() == []


@pytest.mark.parametrize(
    "rules",
    [Rules(players=2), Rules(players=5, edition="modern", extra_card="first_out_draws", starting_cards="choose", match_games=2)],
    ids=["2p-classic", "5p-modern-choose-match"],
)
def test_every_illegal_action_is_refused_before_anything_changes(rules: Rules) -> None:
    """At every moment of whole random games (starting choices, draws, placements, takes
    with bonus cards, the change of game in a match, the end), each action code that is not
    legal raises ``IllegalActionError`` naming a rule and leaves the state exactly as it
    was: hosts ask ``apply`` on the live state why an action is refused."""
    moments = 0
    for seed in range(3):
        st = new_game(rules, seed)
        rng = random.Random(seed)
        while True:
            legal = st.legal_codes()
            for code in range(A.NUM_DISTINCT_ACTIONS):
                if code not in legal:
                    assert assert_illegal(st, code, "").rule
            moments += 1
            if st.is_over():
                break
            st.apply(rng.choice(legal))
    assert moments > 300


@pytest.mark.parametrize("edition", ["classic", "modern"])
def test_pile_never_runs_out_in_standard_setups(edition: str) -> None:
    """§5.3: K covers 5 rows x 3 cards plus the golden joker's reveal. Worst case: five
    players, the Last Round card starts a round, every row is filled, the golden joker (the
    first card under the Last Round card) is taken last."""
    rules = Rules(players=5, edition=edition)
    st = stacked_state(rules, after_lr=["golden_joker"] if edition == "modern" else [])
    fill = " ".join(f"d{r}" for r in range(5) for _ in range(3))
    takes = "t0 t1 t2 t3 t4"
    while above_lr(st) >= 15 + 5:
        run_plan(st, fill + " " + takes)
    above = above_lr(st)
    assert 5 <= above < 15
    plan = [f"d{r}" for r in range(5)] + [f"d{r}" for r in range(5) for _ in range(2)]
    run_plan(st, " ".join(plan[:above]) + " " + takes)
    assert above_lr(st) == 0 and st.rows == [[]] * 5 and st.pile[-1] == LAST_ROUND
    run_plan(st, fill)  # every draw of the Last Round card's round is legal
    assert st.last_round and st.cards_left() == rules.cards_under_last_round - 15
    golden_row = next((r for r in range(5) if GOLDEN_JOKER in st.rows[r]), None)
    assert (golden_row is not None) == (edition == "modern")
    order = [r for r in range(5) if r != golden_row] + ([golden_row] if golden_row is not None else [])
    for r in order:
        seat = st.to_move
        n = sum(st.coll[seat])
        take(st, r)
        assert sum(st.coll[seat]) == n + 3 + (r == golden_row)  # the bonus card was there
    assert st.is_over() and st.cards_left() == 0
    assert card_total(st) == full_deck(st)
