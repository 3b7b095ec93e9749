"""Setup of a game: removed colours, starting cards, first player, draw pile (docs/rules.md §2).

A ``Setup`` fixes all chance of one game: the draw pile is decided before the first turn (or,
with ``starting_cards="choose"``, right after the choices, from ``shuffle_seed``). Piles are
stored **top first**, as in records, with ``LAST_ROUND`` at its place.

>>> from coloretto.engine import Rules
>>> setup = deal(Rules(players=3), seed=4)
>>> len(setup.removed_colors), len(setup.draw_pile), setup.draw_pile.count(LAST_ROUND)
(1, 65, 1)
>>> deal(Rules(players=3), seed=4) == setup
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import (
    CARDS_PER_COLOR,
    COLORS,
    GOLDEN_JOKER,
    JOKER,
    LAST_ROUND,
    NUM_COLORS,
    NUM_PLUS2,
    PLUS2,
    card_name,
)
from .domain import Shuffler
from .errors import ConfigurationError
from .rules import PRESET_REMOVED_COLORS, Rules
from .seeds import DEAL, Rng, derive_seed


@dataclass(frozen=True)
class Setup:
    """The chance outcome of one game.

    Attributes:
        removed_colors: colour indices removed from the game (2 players: 2, 3 players: 1).
        starting_cards: per seat, the colour indices of its starting cards; ``None`` when the
            players choose them (``starting_cards="choose"``).
        first_player: the seat that moves first.
        draw_pile: card codes **top first**, including ``LAST_ROUND`` with K cards under it;
            ``None`` when it is shuffled only after the starting cards are chosen.
        shuffle_seed: seed of that later shuffle (``None`` when ``draw_pile`` is given).
        shuffler: how ``shuffle_seed`` shuffles: ``"coloretto-rng/1"`` (``build_pile`` with
            ``Rng(derive_seed(shuffle_seed, PILE))``, what ``deal`` gives) or
            ``"python-random"`` (``build_pile_python_random``, for records that name no
            shuffler; docs/record-format.md).
    """

    removed_colors: tuple[int, ...]
    starting_cards: tuple[tuple[int, ...], ...] | None
    first_player: int
    draw_pile: tuple[int, ...] | None
    shuffle_seed: int | None = None
    shuffler: Shuffler = "coloretto-rng/1"

    @property
    def colors_in_play(self) -> tuple[int, ...]:
        """Colour indices still in the game, ascending."""
        return tuple(c for c in range(NUM_COLORS) if c not in self.removed_colors)


def pile_composition(
    rules: Rules, removed_colors: Sequence[int], starting_cards: Sequence[Sequence[int]]
) -> Counter[int]:
    """The multiset of cards in the draw pile before the Last Round card is added.

    Shape: ``Counter`` card code -> number. Sizes in a standard game: 2p 54, 3p 64, 4p 72,
    5p 71 (docs/rules.md §2 step 4).
    """
    comp: Counter[int] = Counter()
    for c in range(NUM_COLORS):
        if c not in removed_colors:
            comp[c] = CARDS_PER_COLOR
    for cards in starting_cards:
        for c in cards:
            comp[c] -= 1
    comp[JOKER] = rules.jokers
    if rules.golden_jokers:
        comp[GOLDEN_JOKER] = rules.golden_jokers
    comp[PLUS2] = NUM_PLUS2
    return +comp


def build_pile(rules: Rules, composition: Counter[int], rng: Rng) -> tuple[int, ...]:
    """The draw pile, top first: the cards of ``composition`` in ascending code order,
    shuffled by ``rng.shuffle`` (Fisher-Yates from the end, ``engine.seeds``) and read from
    index 0 as the top, with the Last Round card inserted so that K cards
    (``rules.cards_under_last_round``) lie under it."""
    cards = sorted(composition.elements())
    rng.shuffle(cards)
    return _with_last_round(rules, cards)


def build_pile_python_random(rules: Rules, composition: Counter[int], seed: int) -> tuple[int, ...]:
    """The draw pile of a setup whose ``shuffler`` is ``"python-random"``: as ``build_pile``
    but shuffled by ``random.Random("coloretto-pile:<seed>").shuffle`` (Python's Mersenne
    Twister). Records that name no shuffler were written with it (docs/record-format.md)."""
    cards = sorted(composition.elements())
    random.Random(f"coloretto-pile:{seed}").shuffle(cards)
    return _with_last_round(rules, cards)


def _with_last_round(rules: Rules, cards: list[int]) -> tuple[int, ...]:
    at = max(len(cards) - rules.cards_under_last_round, 0)
    return tuple(cards[:at] + [LAST_ROUND] + cards[at:])


def deal(
    rules: Rules,
    seed: int,
    *,
    removed_colors: Sequence[int] | None = None,
    first_player: int | None = None,
    preset_name: str | None = None,
) -> Setup:
    """A random setup for ``rules`` from ``seed`` (docs/rules.md §2), deterministic in its inputs.

    Every random choice comes from one ``rng = Rng(derive_seed(seed, DEAL))``
    (``engine.seeds``), in this order, each only when it is not fixed by an argument:

    1. the removed colours: ``sorted(rng.sample(range(7), k))`` with ``k`` =
       ``rules.colors_removed`` (no call when ``k`` is 0);
    2. the first player: ``rng.below(players)``;
    3. with ``starting_cards="choose"``: ``shuffle_seed = rng.next_u64() >> 1``, and stop;
    4. the starting cards: ``picks = rng.sample(colours in play ascending, players * each)``;
       seat ``s`` gets ``picks[s * each:(s + 1) * each]``, sorted;
    5. the draw pile: ``build_pile`` with the same ``rng``.

    Args:
        removed_colors: colours to remove (2 players: two, 3 players: one); default at random,
            or the preset's (``bga`` removes gray at 3 players).
        first_player: default at random.
        preset_name: lets a preset fix the removed colours.

    Raises:
        ConfigurationError: wrong number of removed colours, an unknown colour, or a first
            player outside the seats.
    """
    rng = Rng(derive_seed(seed, DEAL))
    n = rules.players
    if (
        removed_colors is None
        and preset_name is not None
        and preset_name in PRESET_REMOVED_COLORS
        and rules.colors_removed
    ):
        names = PRESET_REMOVED_COLORS[preset_name][: rules.colors_removed]
        if len(names) == rules.colors_removed:
            removed_colors = [COLORS.index(x) for x in names]
    if removed_colors is None:
        removed = tuple(sorted(rng.sample(range(NUM_COLORS), rules.colors_removed)))
    else:
        removed = tuple(sorted(removed_colors))
        check_removed(rules, removed)
    in_play = [c for c in range(NUM_COLORS) if c not in removed]
    if first_player is None:
        first = rng.below(n)
    elif type(first_player) is int and 0 <= first_player < n:
        first = first_player
    else:
        raise ConfigurationError(f"first player must be a seat 0..{n - 1}, not {first_player!r}")
    if rules.starting_cards == "choose":
        return Setup(removed, None, first, None, rng.next_u64() >> 1)
    picks = rng.sample(in_play, n * rules.starting_cards_each)
    each = rules.starting_cards_each
    starting = tuple(tuple(sorted(picks[s * each : (s + 1) * each])) for s in range(n))
    pile = build_pile(rules, pile_composition(rules, removed, starting), rng)
    return Setup(removed, starting, first, pile)


def check_removed(rules: Rules, removed: Sequence[int]) -> None:
    """Check the removed colours: the right number, distinct, valid (docs/rules.md §2 step 1).

    Raises:
        ConfigurationError: what is wrong.
    """
    for c in removed:
        if not 0 <= c < NUM_COLORS:
            raise ConfigurationError(f"not a colour: {c!r}")
    names = [COLORS[c] for c in removed]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ConfigurationError(f"removed colours must differ: {', '.join(twice)} named twice")
    if len(removed) != rules.colors_removed:
        if rules.colors_removed == 0:
            raise ConfigurationError(
                f"{rules.players} players remove no colour (colours are removed with 2 or 3 "
                f"players), got {names}"
            )
        raise ConfigurationError(
            f"{rules.players} players remove {rules.colors_removed} colour(s), got {names}"
        )


def check_starting_cards(rules: Rules, removed: Sequence[int], starting: Sequence[Sequence[int]]) -> None:
    """Check starting cards: one list per seat, the right number each, all colours different
    and in play (docs/rules.md §2 step 2).

    Raises:
        ConfigurationError: what is wrong.
    """
    if len(starting) != rules.players:
        raise ConfigurationError(f"starting cards for {len(starting)} seats, expected {rules.players}")
    flat = [c for cards in starting for c in cards]
    for s, cards in enumerate(starting):
        if len(cards) != rules.starting_cards_each:
            raise ConfigurationError(
                f"seat {s} has {len(cards)} starting card(s), expected {rules.starting_cards_each}"
            )
    if len(set(flat)) != len(flat):
        raise ConfigurationError("every starting card must be a different colour")
    for c in flat:
        if not 0 <= c < NUM_COLORS or c in removed:
            raise ConfigurationError(f"starting card {c!r} is not a colour in play")


def check_pile(rules: Rules, pile: Sequence[int], composition: Counter[int]) -> None:
    """Check a given draw pile (top first): exactly ``composition`` plus one Last Round card
    with K cards under it (docs/rules.md §7, last paragraph).

    Raises:
        ConfigurationError: the first difference found (missing, extra card, or LR depth).
    """
    for code in pile:
        if type(code) is not int or not 0 <= code <= LAST_ROUND:
            raise ConfigurationError(f"the draw pile holds {code!r}, which is not a card code")
    if pile.count(LAST_ROUND) != 1:
        raise ConfigurationError(
            f"the draw pile must hold exactly one Last Round card, found {pile.count(LAST_ROUND)}"
        )
    have = Counter(c for c in pile if c != LAST_ROUND)
    for code in sorted(set(have) | set(composition)):
        if have[code] != composition[code]:
            raise ConfigurationError(
                f"the draw pile holds {have[code]} {card_name(code)} card(s), the rules and starting "
                f"cards leave {composition[code]}"
            )
    depth = len(pile) - 1 - pile.index(LAST_ROUND)
    k = rules.cards_under_last_round
    if depth != min(k, len(pile) - 1):
        raise ConfigurationError(f"the Last Round card has {depth} cards under it, the rules say {k}")


def check_setup(rules: Rules, setup: Setup) -> None:
    """Check a whole setup against ``rules`` (docs/rules.md §2 and the last paragraph of §7):
    removed colours, first player, starting cards (dealt) or their absence (chosen), and a
    given draw pile, which must hold exactly the cards the options and the starting cards
    leave, with the Last Round card at depth K. With chosen starting cards a given pile
    must fit some legal choice (every colour in play 9 or 8 times, as many 8s as starting
    cards); the choices themselves are checked against it when they are complete.

    Raises:
        ConfigurationError: the first problem found, in words.
    """
    check_removed(rules, setup.removed_colors)
    first = setup.first_player
    if type(first) is not int or not 0 <= first < rules.players:
        raise ConfigurationError(f"first player {first!r} is not a seat 0..{rules.players - 1}")
    if rules.starting_cards == "choose":
        if setup.starting_cards is not None:
            raise ConfigurationError("starting cards are chosen by the players, not given")
        if setup.draw_pile is not None:
            counts = Counter(setup.draw_pile)
            short = [
                c
                for c in range(NUM_COLORS)
                if c not in setup.removed_colors and counts[c] == CARDS_PER_COLOR - 1
            ]
            need = rules.players * rules.starting_cards_each
            if len(short) != need:
                raise ConfigurationError(
                    f"the draw pile lacks one card of {len(short)} colour(s); the {need} chosen "
                    f"starting cards must leave {need} colours with {CARDS_PER_COLOR - 1} cards"
                )
            check_pile(rules, setup.draw_pile, pile_composition(rules, setup.removed_colors, [short]))
        elif setup.shuffle_seed is None:
            raise ConfigurationError("the setup gives neither a draw pile nor a shuffle seed")
        return
    if setup.starting_cards is None:
        raise ConfigurationError("the setup gives no starting cards (rules say starting_cards: random)")
    check_starting_cards(rules, setup.removed_colors, setup.starting_cards)
    if setup.draw_pile is not None:
        comp = pile_composition(rules, setup.removed_colors, setup.starting_cards)
        check_pile(rules, setup.draw_pile, comp)
    elif setup.shuffle_seed is None:
        raise ConfigurationError("the setup gives neither a draw pile nor a shuffle seed")
