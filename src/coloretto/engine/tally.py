"""A collection counted by people at a physical table: labelled counts in, the scoring report
out (docs/rules.md §6).

People name the colours as they like (the rules' seven colours, or ``red``, ``Rot``, ...)
and count jokers, the golden joker and "+2" cards apart. This module checks such a tally
against what one collection can hold (docs/rules.md §1) and builds the one JSON object that
both ``coloretto score --json`` and ``POST /api/score`` answer::

    {"total": 41, "table": "brown", "extra": null,
     "positive": {"green": 21, "yellow": 15, "red": 6}, "negative": {"blue": -3},
     "jokers": {"yellow": 1}, "plus2": 2, "plus2_cards": 1,
     "counts": {"green": 6, "yellow": 5, "red": 3, "blue": 2}, "placements": 7}

Jokers (the golden one too) may go to any of the seven colours of the game, also to one the
tally does not name: such a colour is reported as ``"another colour"`` (``"another colour 2"``
for a second one).
"""

from __future__ import annotations

import difflib
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .cards import CARDS_PER_COLOR, NUM_COLORS, NUM_PLUS2
from .fold import fold
from .record import unprintable
from .rules import TABLES, Rules
from .scoring import ScoringError, optimal_score

__all__ = [
    "LOOKALIKE_PARTS",
    "MAX_GOLDEN_JOKERS",
    "MAX_JOKERS",
    "MAX_LABEL_LENGTH",
    "SCORING_EXTRAS",
    "TOO_MANY",
    "UNNAMED",
    "EmptyTallyError",
    "Tally",
    "TallyError",
    "card_name",
    "cards_report",
    "check_tally",
    "pairs_report",
    "scoring_rules",
    "split_cards",
    "tally_report",
]

MAX_JOKERS: Final = 3
"""Jokers in one game, the golden joker included (docs/rules.md §1)."""
MAX_GOLDEN_JOKERS: Final = 1
"""The modern edition has one golden joker (docs/rules.md §1)."""
MAX_LABEL_LENGTH: Final = 40
"""Longest colour label, in characters."""
SCORING_EXTRAS: Final = ("single_three", "triple_three", "triple_minus")
"""The Extrakarten cards that change scoring (docs/rules.md §7); ``first_out_draws`` changes
play only."""
TOO_MANY: Final = 10**6
"""Counts from here on are too many for any kind of card and are not written out in
messages (a caller may pass this for a count too long to convert)."""
UNNAMED: Final = "another colour"
"""Label of a colour the tally does not name but a joker went to."""
_LAST_ROUND: Final = ("lastround", "lastroundcard")
"""Squashed spellings (see ``_squash``) of the Last Round card, which never scores
(docs/rules.md §5.1): refused as a colour label."""

_RESERVED: Final = {"joker": "joker", "golden_joker": "golden_joker", "plus2": "plus2", "+2": "plus2"}
"""Card names (``card_name`` keys) -> the kind they count; also the names a look-alike
colour label is compared with to suggest one."""

LOOKALIKE_PARTS: Final = ("joker", "plus", "+", "golden")
"""A colour label containing one of these (in any case, also with spaces, ``_`` or ``-``
between the letters: ``+ 2``, ``gold-en``) is refused: it is almost certainly a mistyped
joker, golden joker or "+2" card, and counted as a colour it would score wrong."""

JOKER_WORDS: Final = ("jolly", "джокер")
"""The joker's name where it is not "Joker" in the languages the game is played in here
(Italian ``Jolly``, Ukrainian ``Джокер``; German, Dutch and French say ``Joker``): a colour
label containing one is read as containing ``joker`` (``Jolly d'oro``, ``Джокери``)."""

GOLDEN_WORDS: Final = ("gouden", "doré", "d'oro", "золот")
""""Golden" in Dutch, French, Italian and Ukrainian (German ``Goldener`` contains it):
beside a joker word, read as ``golden``, so that the suggestion is the golden joker."""


def card_name(label: str) -> str | None:
    """The card a tally label names, ``"joker"``, ``"golden_joker"`` or ``"plus2"``, or None
    for a colour label: any letter case (full-width letters too), ``-`` or a space for
    ``_``, ``+2`` for ``plus2`` (``"Golden-Joker"`` -> ``"golden_joker"``). The one reading
    of card names shared by ``coloretto score`` and ``POST /api/score``.

    >>> card_name("Golden Joker"), card_name("+2"), card_name("green")
    ('golden_joker', 'plus2', None)
    """
    return _RESERVED.get(fold(label).replace("-", "_").replace(" ", "_"))


Field = Literal["cards", "table", "extra"]


class TallyError(ScoringError):
    """A tally, score table or Extrakarten card that cannot be scored.

    Attributes:
        field: what was wrong: ``"cards"`` (a count or a label), ``"table"`` or ``"extra"``.
    """

    def __init__(self, message: str, field: Field = "cards") -> None:
        super().__init__(message)
        self.field: Field = field


class EmptyTallyError(TallyError):
    """A tally without a single card: there is no collection to score (field ``"cards"``)."""

    def __init__(self) -> None:
        super().__init__("no cards given; a collection to score holds at least one card")


def scoring_rules(table: object = "brown", extra: object = None, *, no_card: str = "null") -> Rules:
    """Rules carrying the score table and the Extrakarten scoring card (docs/rules.md §6, §7).

    Args:
        table: ``"brown"`` or ``"violet"``, in any letter case (``"Violet"``).
        extra: ``None`` (also written ``"none"``) or one of ``SCORING_EXTRAS``, in any
            letter case (``"Triple_Minus"``).
        no_card: how the caller's input writes "no scoring card", listed with the cards in
            messages: ``"null"`` in JSON (``POST /api/score``), ``"none"`` on the command line.

    Raises:
        TallyError: ``table`` is not a score table (field ``"table"``), or ``extra`` is not a
            scoring card (field ``"extra"``; ``first_out_draws`` is named as a card that
            changes play, not scoring).
    """
    if isinstance(table, str) and table.casefold() in TABLES:
        table = table.casefold()
    if isinstance(extra, str) and extra.casefold() == "none":
        extra = None
    elif isinstance(extra, str) and extra.casefold() in (*SCORING_EXTRAS, "first_out_draws"):
        extra = extra.casefold()
    if not isinstance(table, str) or table not in TABLES:
        raise TallyError(
            f"table {table!r} is not a score table; choose {' or '.join(TABLES)}", "table"
        )
    if extra == "first_out_draws":
        raise TallyError(
            "extra 'first_out_draws' is not a scoring card (it changes play, not scoring); "
            f"scoring cards: {', '.join(SCORING_EXTRAS)}, or {no_card}",
            "extra",
        )
    if extra is not None and extra not in SCORING_EXTRAS:
        raise TallyError(
            f"extra {extra!r} is not an Extrakarten scoring card; "
            f"choose {', '.join(SCORING_EXTRAS)}, or {no_card}",
            "extra",
        )
    return Rules(table=table, extra_card=extra)


def _count(what: str, n: object, limit: int, reason: str) -> int:
    """``n`` checked as a count from 0 to ``limit``; ``reason`` says where the limit comes from."""
    if type(n) is not int:
        raise TallyError(f"{what}: the count {n!r} is not a whole number")
    if n < 0:
        raise TallyError(f"{what}: the count {n} is negative")
    if n > limit:
        shown = str(n) if n < TOO_MANY else "a million or more"
        raise TallyError(f"{what}: {shown} is too many; {reason} (give 0 to {limit})")
    return n


def check_tally(colors: Mapping[str, int], jokers: int, golden_jokers: int, plus2: int) -> None:
    """Check that a tally is one collection of the game (docs/rules.md §1).

    Args:
        colors: colour label -> cards of that colour.
        jokers: regular jokers; ``golden_jokers``: 0 or 1; ``plus2``: "+2" cards.

    Raises:
        TallyError: a label that is not a string, is empty, holds a control character
            (``str.isprintable``, as seat names) or is longer than ``MAX_LABEL_LENGTH``,
            names the Last Round card or a card (``card_name``), looks like a card name
            (contains one of ``LOOKALIKE_PARTS``, e.g. ``jokers``, ``plus``, ``+ 2``,
            ``goldenjoker``; the message suggests the name), mixes Latin, Greek or Cyrillic
            letters (``_check_one_alphabet``), or repeats another label
            (as ``fold`` compares them: any case, full-width letters as letters); more
            than seven colours; a count that is not
            a whole number, is negative, or is more than the game has (9 per colour, 10 "+2"
            cards, one golden joker, 3 jokers in all).
        EmptyTallyError: every count is 0 (or nothing is given): not a collection.
    """
    if not isinstance(colors, Mapping):
        raise TallyError(f"colours must be a mapping of label to count, not {type(colors).__name__}")
    seen: dict[str, str] = {}
    for label, n in colors.items():
        if not isinstance(label, str):
            raise TallyError(f"colour label {label!r} is not a string")
        name = label.strip()
        if not name:
            raise TallyError("a colour label is empty")
        if not name.isprintable():
            raise TallyError(f"colour label {label!r} {unprintable(name)}")
        if len(name) > MAX_LABEL_LENGTH:
            raise TallyError(
                f"colour label {name[:MAX_LABEL_LENGTH]!r}... is longer than "
                f"{MAX_LABEL_LENGTH} characters"
            )
        key = fold(name)
        if _squash(key) in _LAST_ROUND:
            raise TallyError(
                f"{label!r}: the Last Round card never scores (docs/rules.md §5.1); leave it out"
            )
        _check_lookalike(label, key)
        _check_one_alphabet(label, key)
        if key in seen:
            raise TallyError(f"colour {label!r} is given twice (also as {seen[key]!r})")
        seen[key] = label
        _count(repr(label), n, CARDS_PER_COLOR, f"a colour has {CARDS_PER_COLOR} cards")
    if len(colors) > NUM_COLORS:
        raise TallyError(
            f"{len(colors)} colours given ({', '.join(map(repr, colors))}); "
            f"the game has at most {NUM_COLORS}"
        )
    _count("'joker'", jokers, MAX_JOKERS, f"the game has at most {MAX_JOKERS} jokers")
    _count("'golden_joker'", golden_jokers, MAX_GOLDEN_JOKERS, "the game has one golden joker")
    _count("'plus2'", plus2, NUM_PLUS2, f'the game has {NUM_PLUS2} "+2" cards')
    if jokers + golden_jokers > MAX_JOKERS:
        raise TallyError(
            f"{jokers + golden_jokers} jokers given; the game has {MAX_JOKERS} "
            "(golden joker included)"
        )
    if sum(colors.values()) + jokers + golden_jokers + plus2 == 0:
        raise EmptyTallyError()


ALPHABETS: Final = ("LATIN", "GREEK", "CYRILLIC")
"""Alphabets with letters that look alike (Latin ``o``, Greek ``ο``, Cyrillic ``о``): a
colour label may use one of them, never two."""


def _check_one_alphabet(label: str, key: str) -> None:
    """Refuse a colour label ``label`` (``key``: as folded by ``fold``) with letters of two of
    ``ALPHABETS``: ``jοker`` with a Greek omicron would be a colour, not a joker, and
    ``grееn`` with Cyrillic e's a second green. Unicode names the alphabet of each letter.

    Raises:
        TallyError: the message names the two alphabets.
    """
    used = sorted({unicodedata.name(ch, "").split(" ")[0] for ch in key if ch.isalpha()} & set(ALPHABETS))
    if len(used) > 1:
        raise TallyError(
            f"colour label {label!r} mixes {' and '.join(a.title() for a in used)} letters "
            "(a look-alike letter?); write it in one alphabet"
        )


def _check_lookalike(label: str, key: str) -> None:
    """Refuse a colour label ``label`` (``key``: as folded by ``fold``) that names a card or
    looks like a card name (``LOOKALIKE_PARTS``).

    Raises:
        TallyError: the label names a card, or contains ``joker``, ``plus``, ``+`` or
            ``golden`` (or a word of ``JOKER_WORDS``) with spaces, ``_`` and ``-`` left
            out; the message suggests the closest card name.
    """
    kind = card_name(label)
    if kind is not None:
        raise TallyError(f"{label!r} is a card, not a colour; count it as {kind!r}")
    squashed = "".join(ch for ch in key if ch not in " _-")
    for word in JOKER_WORDS:
        squashed = squashed.replace(word, "joker")
    if "joker" in squashed:
        for word in GOLDEN_WORDS:
            squashed = squashed.replace(word, "golden")
    if not any(part in squashed for part in LOOKALIKE_PARTS):
        return
    if "joker" in squashed and "golden" in squashed:
        name = "golden_joker"  # in either order: "Jolly d'oro"
    else:
        close = difflib.get_close_matches(squashed, list(_RESERVED), n=1, cutoff=0.0)
        name = _RESERVED[close[0]] if close else "joker"
    raise TallyError(
        f"{label!r} is not a card name; did you mean {name}? (card names: joker, "
        "golden_joker, plus2 or +2; a colour label must not contain joker, plus, + or golden, "
        "nor Jolly or Джокер)"
    )


def _squash(label: str) -> str:
    """``label`` casefolded without spaces, ``_`` and ``-``, and without a plural ``s``:
    ``"Golden Jokers"`` -> ``"goldenjoker"``."""
    squashed = "".join(ch for ch in fold(label) if ch not in " _-")
    return squashed.removesuffix("s")


def _all_labels(named: list[str]) -> list[str]:
    """The named labels followed by labels for the unnamed colours, seven in all."""
    taken = {fold(label) for label in named}
    labels = list(named)
    k = 1
    while len(labels) < NUM_COLORS:
        label = UNNAMED if k == 1 else f"{UNNAMED} {k}"
        k += 1
        if fold(label) not in taken:
            labels.append(label)
    return labels


def tally_report(
    colors: Mapping[str, int],
    jokers: int = 0,
    golden_jokers: int = 0,
    plus2: int = 0,
    table: object = "brown",
    extra: object = None,
) -> dict[str, Any]:
    """The optimal score of a tally with its explanation, as a JSON-ready dict (docs/rules.md §6).

    Every joker (golden ones too) is placed on one of the seven colours of the game to reach
    the highest total; the three colours worth most count positive, every other colour held
    counts negative (three times with ``triple_minus``); each "+2" card adds 2.

    Args:
        colors: colour label -> cards (labels as given, stripped of surrounding spaces; in
            the order given).
        jokers, golden_jokers, plus2: cards of those kinds.
        table: ``"brown"`` or ``"violet"`` (any letter case); extra: ``None`` or one of
            ``SCORING_EXTRAS``.

    Returns:
        ``{"total", "table", "extra", "positive": {label: points}, "negative": {label:
        negative points}, "jokers": {label: jokers placed there}, "plus2": points,
        "plus2_cards": n, "counts": {label: cards after the jokers}, "placements": number of
        joker placements tried}``. ``positive`` is best first, ``negative`` largest loss first;
        ``counts`` holds every named colour and each unnamed colour that received a joker.
        Ties between placements are broken as :func:`~coloretto.engine.scoring.optimal_score`
        documents, so the same tally always gives the same object.

    Raises:
        TallyError: as :func:`check_tally` and :func:`scoring_rules`.
    """
    rules = scoring_rules(table, extra)
    check_tally(colors, jokers, golden_jokers, plus2)
    named = [label.strip() for label in colors]
    labels = _all_labels(named)
    counts = list(colors.values()) + [0] * (NUM_COLORS - len(named))
    placed = jokers + golden_jokers
    result = optimal_score(
        counts, placed, plus2, table=rules.score_table, negative_factor=rules.negative_factor
    )
    return {
        "total": result.total,
        "table": rules.table,
        "extra": rules.extra_card,
        "positive": {labels[i]: p for i, p in result.positive.items()},
        "negative": {labels[i]: p for i, p in result.negative.items()},
        "jokers": {labels[i]: n for i, n in result.jokers.items()},
        "plus2": result.plus2,
        "plus2_cards": plus2,
        "counts": {
            labels[i]: c for i, c in enumerate(result.counts) if i < len(named) or c > 0
        },
        "placements": math.comb(NUM_COLORS + placed - 1, placed),
    }


@dataclass
class Tally:
    """A collection as counted: colour labels with their counts (in the order given), and
    the jokers, golden jokers and "+2" cards (counts as given, checked by
    :func:`check_tally`)."""

    colors: dict[str, Any] = field(default_factory=dict)
    jokers: Any = 0
    golden_jokers: Any = 0
    plus2: Any = 0


def split_cards(pairs: Iterable[tuple[Any, Any]]) -> Tally:
    """Sort ``(label, count)`` pairs into colours and cards (:func:`card_name`), counts
    unchecked: ``[("green", 3), ("Joker", 1)]`` -> ``Tally({"green": 3}, jokers=1)``.

    Raises:
        TallyError: a card is given twice (``joker`` and ``Joker``, ``+2`` and ``plus2``), or
            a colour label twice exactly (repeats in another case are
            :func:`check_tally`'s).
    """
    tally = Tally()
    given: dict[str, str] = {}
    for label, n in pairs:
        kind = card_name(label) if isinstance(label, str) else None
        if kind is None:
            if label in tally.colors:
                raise TallyError(f"colour {label!r} is given twice")
            tally.colors[label] = n
            continue
        if kind in given:
            raise TallyError(f"{label!r} is given twice (also as {given[kind]!r})")
        given[kind] = label
        setattr(tally, {"joker": "jokers", "golden_joker": "golden_jokers"}.get(kind, kind), n)
    return tally


def cards_report(cards: Mapping[str, Any], table: object = "brown", extra: object = None) -> dict[str, Any]:
    """:func:`tally_report` of one mapping of card names to counts (the body of ``POST
    /api/score``).

    Args:
        cards: label -> count. ``joker``, ``golden_joker`` and ``plus2`` (also written ``+2``;
            case-insensitive) count those cards; every other key is a colour label.

    Raises:
        TallyError: ``cards`` is not a mapping, a card name is given twice (e.g. ``joker`` and
            ``Joker``), or as :func:`tally_report`.
    """
    if not isinstance(cards, Mapping):
        raise TallyError(f"cards must be an object of label to count, not {type(cards).__name__}")
    return pairs_report(cards.items(), table, extra)


def pairs_report(
    pairs: Iterable[tuple[Any, Any]], table: object = "brown", extra: object = None
) -> dict[str, Any]:
    """:func:`tally_report` of ``(label, count)`` pairs sorted by :func:`split_cards` (the
    words of ``coloretto score``, the items of :func:`cards_report`'s mapping).

    Raises:
        TallyError: as :func:`split_cards` and :func:`tally_report`.
    """
    tally = split_cards(pairs)
    return tally_report(tally.colors, tally.jokers, tally.golden_jokers, tally.plus2, table, extra)
