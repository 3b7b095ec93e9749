"""Setup of a game (docs/rules.md §2) and the setup check of records (docs/rules.md §7, last paragraph)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from engine_helpers import stacked_setup

from coloretto.engine import ConfigurationError, GameState, Rules, Setup, deal, new_game
from coloretto.engine.cards import GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2
from coloretto.engine.setup import check_setup, pile_composition


@pytest.mark.parametrize("edition", ["classic", "modern"])
@pytest.mark.parametrize(("players", "size"), [(2, 54), (3, 64), (4, 72), (5, 71)])
def test_draw_pile_sizes_and_last_round_depth(players: int, size: int, edition: str) -> None:
    rules = Rules(players=players, edition=edition)
    for seed in range(5):
        setup = deal(rules, seed)
        pile = setup.draw_pile
        assert pile is not None
        assert len(pile) - 1 == size
        assert pile.count(LAST_ROUND) == 1
        k = 15 if edition == "classic" else 16
        assert len(pile) - 1 - pile.index(LAST_ROUND) == k  # K cards under it (top first)
        check_setup(rules, setup)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_removed_colours_and_starting_cards(players: int) -> None:
    rules = Rules(players=players)
    removed_seen: set[int] = set()
    for seed in range(30):
        setup = deal(rules, seed)
        assert len(setup.removed_colors) == {2: 2, 3: 1}.get(players, 0)
        removed_seen.update(setup.removed_colors)
        starting = setup.starting_cards
        assert starting is not None and len(starting) == players
        flat = [c for cards in starting for c in cards]
        assert all(len(cards) == rules.starting_cards_each for cards in starting)
        assert len(set(flat)) == len(flat)  # 2 players: all four differ
        assert not set(flat) & set(setup.removed_colors)
        pile = Counter(setup.draw_pile)
        for c in range(7):
            if c in setup.removed_colors:
                assert pile[c] == 0  # all 9 cards of a removed colour are out
            else:
                assert pile[c] == (8 if c in flat else 9)
        assert pile[JOKER] == 3 and pile[PLUS2] == 10 and pile[GOLDEN_JOKER] == 0
    if players <= 3:
        assert len(removed_seen) >= 4  # chosen at random from the seed


def test_deal_is_deterministic_in_its_seed_and_first_player_random() -> None:
    rules = Rules(players=4)
    assert deal(rules, 3) == deal(rules, 3)
    assert deal(rules, 3) != deal(rules, 4)
    assert {deal(rules, s).first_player for s in range(40)} == {0, 1, 2, 3}
    assert deal(rules, 3, first_player=2).first_player == 2
    st = new_game(rules, 3)
    assert st.to_move == st.setups[0].first_player  # type: ignore[union-attr]


def test_named_removed_colours() -> None:
    assert deal(Rules(players=2), 1, removed_colors=[6, 0]).removed_colors == (0, 6)
    for bad, players in (([1], 2), ([1, 1], 2), ([], 3), ([9], 3), ([2], 4)):
        with pytest.raises(ConfigurationError):
            deal(Rules(players=players), 1, removed_colors=bad)
    with pytest.raises(ConfigurationError):
        deal(Rules(players=3), 1, first_player=3)


def test_pile_composition_sizes() -> None:
    for players, size in ((2, 54), (3, 64), (4, 72), (5, 71)):
        rules = Rules(players=players, edition="modern")
        setup = deal(rules, 0)
        comp = pile_composition(rules, setup.removed_colors, setup.starting_cards or ())
        assert sum(comp.values()) == size and comp[GOLDEN_JOKER] == 1 and comp[JOKER] == 2


def test_choose_mode_setup_has_no_pile_until_choices() -> None:
    rules = Rules(players=3, starting_cards="choose")
    setup = deal(rules, 2)
    assert setup.starting_cards is None and setup.draw_pile is None and setup.shuffle_seed is not None
    st = GameState(rules, [setup])
    assert st.decision == "choose_start"
    # The same choices give the same pile; the seed decides the shuffle.
    def chosen(s: Setup) -> list[int]:
        g = GameState(rules, [s])
        for _ in range(3):
            g.apply(g.legal_codes()[-1])
        return g.pile

    assert chosen(setup) == chosen(setup)
    assert chosen(setup) != chosen(replace(setup, shuffle_seed=setup.shuffle_seed + 1))  # type: ignore[operator]


# ----- the setup check ------------------------------------------------------------------------
def _bad(setup: Setup, rules: Rules, words: str) -> None:
    with pytest.raises(ConfigurationError, match=words):
        GameState(rules, [setup])


def test_setup_check_rejects_wrong_piles() -> None:
    rules = Rules(players=4)
    good = stacked_setup(rules)
    GameState(rules, [good])
    pile = list(good.draw_pile)  # type: ignore[arg-type]
    # A missing card.
    _bad(replace(good, draw_pile=tuple(pile[1:])), rules, "holds")
    # An extra card.
    _bad(replace(good, draw_pile=(PLUS2, *pile)), rules, "plus2")
    # A card of the starting colour too many (starting cards leave 8).
    start = good.starting_cards[0][0]  # type: ignore[index]
    swapped = pile[:]
    swapped[swapped.index(PLUS2)] = start
    _bad(replace(good, draw_pile=tuple(swapped)), rules, "holds")
    # The Last Round card at the wrong depth, missing, twice.
    moved = pile[:]
    i = moved.index(LAST_ROUND)
    moved[i], moved[i + 1] = moved[i + 1], moved[i]
    _bad(replace(good, draw_pile=tuple(moved)), rules, "under it")
    _bad(replace(good, draw_pile=tuple(c for c in pile if c != LAST_ROUND)), rules, "Last Round")
    _bad(replace(good, draw_pile=(LAST_ROUND, *pile)), rules, "Last Round")
    _bad(replace(good, draw_pile=(11, *pile)), rules, "card code")
    # A golden joker in a classic game.
    _bad(replace(good, draw_pile=tuple(GOLDEN_JOKER if c == JOKER else c for c in pile)), rules, "joker")


def test_setup_check_depth_follows_edition() -> None:
    classic = stacked_setup(Rules(players=4))
    with pytest.raises(ConfigurationError):
        # same cards, but the modern edition has a golden joker and K = 16
        GameState(Rules(players=4, edition="modern"), [classic])
    modern = Rules(players=4, edition="modern")
    GameState(modern, [stacked_setup(modern)])


def test_setup_check_rejects_bad_starting_cards_and_seats() -> None:
    rules = Rules(players=2)
    good = stacked_setup(rules)
    GameState(rules, [good])
    s = good.starting_cards
    assert s is not None
    _bad(replace(good, starting_cards=((s[0][0], s[0][0]), s[1])), rules, "different")
    _bad(replace(good, starting_cards=(s[0],)), rules, "seats")
    _bad(replace(good, starting_cards=((s[0][0],), s[1])), rules, "starting card")
    _bad(replace(good, starting_cards=((5, s[0][1]), s[1])), rules, "not a colour in play")  # pink removed
    _bad(replace(good, starting_cards=None), rules, "no starting cards")
    _bad(replace(good, first_player=2), rules, "first player")
    _bad(replace(good, removed_colors=(5,)), rules, "remove 2")
    _bad(replace(good, draw_pile=None), rules, "neither")


def test_setup_check_choose_mode() -> None:
    rules = Rules(players=3, starting_cards="choose")
    fixed = stacked_setup(rules.replace(starting_cards="random"))
    _bad(fixed, rules, "chosen by the players")
    # A given pile in choose mode must fit some choice; choices are checked against it.
    setup = replace(fixed, starting_cards=None)
    st = GameState(rules, [setup])
    assert fixed.starting_cards == ((0,), (1,), (2,))
    st.apply(13 + 0)
    st.apply(13 + 1)
    before = st.to_dict()
    from coloretto.engine import IllegalActionError

    with pytest.raises(IllegalActionError) as info:
        st.apply(13 + 3)  # the pile has 9 green: green can't be a starting card
    assert "§7" in info.value.rule and st.to_dict() == before
    st.apply(13 + 2)
    assert st.decision == "turn" and st.pile[::-1] == list(fixed.draw_pile)  # type: ignore[arg-type]
    # A pile that fits no choice is refused at once.
    pile = list(fixed.draw_pile)  # type: ignore[arg-type]
    pile.remove(3)
    pile.append(PLUS2)
    _bad(replace(setup, draw_pile=tuple(pile)), rules, "lacks one card")


def test_every_setup_of_a_match_is_checked_at_the_start() -> None:
    rules = Rules(players=4, match_games=2)
    good = stacked_setup(rules)
    GameState(rules, [good, good])
    bad = replace(good, draw_pile=good.draw_pile[1:])  # type: ignore[index]
    with pytest.raises(ConfigurationError, match="game 2"):
        GameState(rules, [good, bad])
    with pytest.raises(ConfigurationError, match="needs that many setups"):
        GameState(rules, [good])
