"""Codes defined once: every constant the fast core uses equals the engine's, both as Python
values (``layout``, ``kernels``) and as compiled into the machine code of the kernels."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.engine import actions as A
from coloretto.engine import cards as C
from coloretto.engine import rules as R
from coloretto.engine import seeds as S
from coloretto.engine import state as ST
from coloretto.engine.domain import EXTRA_CARDS, NEXT_ROUND_STARTERS, STARTING_CARDS, Phase
from coloretto.engine.rules import Rules, preset
from coloretto.engine.state import new_game
from coloretto.fastcore import encode, rules_template
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L

ENGINE = {
    "NUM_COLORS": C.NUM_COLORS,
    "CARDS_PER_COLOR": C.CARDS_PER_COLOR,
    "NUM_PLUS2": C.NUM_PLUS2,
    "JOKER": C.JOKER,
    "GOLDEN_JOKER": C.GOLDEN_JOKER,
    "PLUS2": C.PLUS2,
    "LAST_ROUND_CARD": C.LAST_ROUND,
    "COLLECTION_SIZE": C.COLLECTION_SIZE,
    "COLL_CELLS": C.COLLECTION_SIZE,
    "DRAW": A.DRAW,
    "PLACE0": A.PLACE0,
    "TAKE0": A.TAKE0,
    "CHOOSE0": A.CHOOSE0,
    "NUM_DISTINCT_ACTIONS": A.NUM_DISTINCT_ACTIONS,
    "TURN": Phase.TURN,
    "PLACE": Phase.PLACE,
    "CHOOSE": Phase.CHOOSE,
    "OVER": Phase.OVER,
    "UNTAKEN": ST.UNTAKEN,
    "NO_CARD": ST.NO_CARD,
    "MAX_ROWS": R.MAX_ROWS,
    "ROW_CELLS": R.MAX_CAPACITY,
    "MAX_SEATS": R.MAX_PLAYERS,
    "MIN_SEATS": R.MIN_PLAYERS,
    "TABLE_CELLS": len(R.BROWN_TABLE),
    "FIRST_OUT_DRAWS": EXTRA_CARDS.index("first_out_draws"),
    "STARTER_LAST_TAKER": NEXT_ROUND_STARTERS.index("last_taker"),
    "STARTING_CHOOSE": STARTING_CARDS.index("choose"),
}


def test_layout_codes_are_the_engines_as_plain_ints() -> None:
    for name, value in ENGINE.items():
        got = getattr(L, name)
        assert type(got) is int, f"layout.{name} is a {type(got).__name__}, not a plain int"
        assert got == value, f"layout.{name} = {got}, the engine says {value}"
    assert L.GAME_END not in {int(p) for p in Phase}
    assert L.EXTRA_CODES == {card: i for i, card in enumerate(EXTRA_CARDS)}
    assert L.STARTER_CODES == {name: i for i, name in enumerate(NEXT_ROUND_STARTERS)}
    assert L.STARTING_CODES == {name: i for i, name in enumerate(STARTING_CARDS)}
    assert L.ALL_COLORS == (1 << C.NUM_COLORS) - 1
    assert len(R.VIOLET_TABLE) == L.TABLE_CELLS
    assert C.NUM_COLORS * C.CARDS_PER_COLOR + 3 + C.NUM_PLUS2 + 1 <= L.MAX_PILE


def test_seed_constants_are_the_engines() -> None:
    assert int(K.STREAM_DEAL) == S.DEAL
    assert int(K.STREAM_PILE) == S.PILE
    assert int(K.STREAM_MATCH_GAME) == S.MATCH_GAME
    assert int(K.STREAM_GAME) == S.GAME
    assert int(K.STREAM_AGENT) == S.AGENT
    consts = K.constants()
    assert consts["_GOLDEN_GAMMA"] == S.GOLDEN_GAMMA
    assert consts["_MIX1"] == S.MIX1
    assert consts["_MIX2"] == S.MIX2
    assert consts["_MUL"] == S.XORSHIFT_MULTIPLIER


def test_the_machine_code_holds_the_engine_values() -> None:
    """A stale Numba cache (compiled with other values) would fail here."""
    out = np.zeros(len(K.CHECKED_NAMES) + 4, np.int64)
    k = K.compiled_constants(out)
    assert k == len(K.CHECKED_NAMES) + 4
    compiled = dict(zip(K.CHECKED_NAMES, out[: len(K.CHECKED_NAMES)].tolist()))
    assert compiled == {name: ENGINE[name] for name in K.CHECKED_NAMES}
    assert out[len(K.CHECKED_NAMES) :].tolist() == [
        v >> 1 for v in (S.GOLDEN_GAMMA, S.MIX1, S.MIX2, S.XORSHIFT_MULTIPLIER)
    ]


FASTCORE = Path(L.__file__).parent

OWN_NUMBERS = {
    "heuristic": r"H_\w+|_(OPEN|ROOM|FULL|LEFT|TRIAL|BASE|BONUS|GOT|JB|FIRST_OUT|W|RISK|TOTAL)"
    r"|_(ROW_FLAGS|SEAT_VALUES|CTX|MANY_CARDS)",
    "kernels": r"_SMALL_N|NO_CHOICE",
    "search": r"NODE_(SEAT|NACTS|TOTAL|CODES)|EVAL_\w+|P_\w+|F_PARAMS|I_PARAMS|R_\w+|_NO_ROW"
    r"|PRIORS_\w+",
    "selfplay": r"SELFPLAY_\w+",
    "value": r"HIDDEN_CELLS|SEATS_AT|[SRG]_(PRESENT|CARDS_LEFT)",
    "vector": r"EXTERNAL|OBS_\w+|REWARD_\w+|NO_ERROR",
}
"""Per module of compiled code, the names it may bind to an integer literal: its own numbers
(cell indices of its own arrays, modes, table sizes, "none" results), never a code or a size
of the engine's (those come from ``layout``)."""

ENGINE_SIZES = {
    L.NUM_COLORS,
    L.CARDS_PER_COLOR,
    L.NUM_PLUS2,
    L.COLLECTION_SIZE,
    L.MAX_SEATS,
    L.MAX_ROWS,
    L.ROW_CELLS,
    L.TABLE_CELLS,
    L.NUM_DISTINCT_ACTIONS,
    L.MAX_PILE,
}
"""The engine's sizes (colours, seats, rows, cards of a kind, actions...): written as a
number where a loop bound, an array size or a comparison needs one, they hide a code."""

LAYOUT_ARRAYS = {"TABLE", "CAPS", "ROW_LEN", "ROW_TAKER", "ROWS", "OUT", "COLL", "TOTALS", "CHOSEN", "PILE", "REMOVED"}


def compiled_modules() -> list[Path]:
    """The modules of ``coloretto.fastcore`` that hold compiled (``@njit``) functions."""
    found = []
    for path in sorted(FASTCORE.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(
                "njit" in ast.unparse(d) for d in node.decorator_list
            ):
                found.append(path)
                break
    return found


def _int(node: ast.AST) -> int | None:
    """The value of an integer literal (``7``, ``-1``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def code_literals(source: str, own: str) -> list[str]:
    """Where ``source`` writes an engine code or size as a number: a module-level integer
    literal bound to a name not matching ``own``; a comparison with ``-1`` (``UNTAKEN``,
    ``NO_CARD``); an engine size (``ENGINE_SIZES``) as a loop bound, array size, slice
    bound or in an order comparison; a layout array indexed with a number as its stride
    (``COLL + 10 * seat``)."""
    tree = ast.parse(source)
    found = []
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            targets = [node.target.id]
        value = getattr(node, "value", None)
        if value is not None and _int(value) is not None:
            found += [f"line {node.lineno}: {t} = {_int(value)}" for t in targets if not re.fullmatch(own, t)]
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}: {ast.unparse(node)}"
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:]):
                values = {_int(left), _int(right)}
                if isinstance(op, (ast.Eq, ast.NotEq)) and -1 in values:
                    found.append(where)
                if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and values & ENGINE_SIZES:
                    found.append(where)
        elif isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name in ("range", "np.empty", "np.zeros", "np.full", "np.ones") and node.args:
                args = node.args if name == "range" else [node.args[0]]
                shapes = [e for a in args for e in (a.elts if isinstance(a, ast.Tuple) else [a])]
                if {_int(a) for a in shapes} & ENGINE_SIZES:
                    found.append(where)
        elif isinstance(node, ast.Slice):
            if {_int(b) for b in (node.lower, node.upper) if b is not None} & ENGINE_SIZES:
                found.append(where)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for base, other in ((node.left, node.right), (node.right, node.left)):
                if (
                    isinstance(base, ast.Name)
                    and base.id in LAYOUT_ARRAYS
                    and isinstance(other, ast.BinOp)
                    and isinstance(other.op, ast.Mult)
                    and (_int(other.left) is not None or _int(other.right) is not None)
                ):
                    found.append(where)
    return found


def test_every_compiled_module_is_scanned() -> None:
    names = [p.stem for p in compiled_modules()]
    assert names == sorted(OWN_NUMBERS), names


@pytest.mark.parametrize("module", sorted(OWN_NUMBERS))
def test_the_compiled_modules_hold_no_code_literals(module: str) -> None:
    """Card, colour, action, phase and layout codes and sizes come from the engine through
    ``layout``: no literal stands for one in any module of compiled code."""
    source = (FASTCORE / f"{module}.py").read_text()
    assert code_literals(source, OWN_NUMBERS[module]) == []


def test_the_scan_finds_code_literals() -> None:
    """Each kind of literal the scan forbids is found (as the fast core once wrote them)."""
    code = """
SEAT_SLOTS: Final = 5
_OWN: Final = 3
def f(s, key, r, c, p, card):
    for c in range(7):
        key[c] = s[COLL + 10 * p + c]
    x = s[ROWS + 6 * r]
    if card < 7 and s[ROW_TAKER + r] == -1:
        pass
    key = np.zeros((7, 3), np.int64)
    cnt = np.empty(10, np.int64)
    half = key[5:10]
    for i in range(3):
        ok = i < 2 and s[OUT + 1] != 0 and s[COLL + COLL_CELLS * p] == NO_CARD
"""
    lines = sorted({int(hit.split(":")[0].split()[1]) for hit in code_literals(code, "_OWN")})
    assert lines == [2, 5, 6, 7, 8, 10, 11, 12]
    layout_source = Path(L.__file__).read_text()
    for name in ("TURN", "PLACE", "CHOOSE", "OVER", "MAX_ROWS", "JOKER", "TAKE0"):
        assert not re.search(rf"^{name}: Final = \d", layout_source, re.MULTILINE), name


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=2),
        Rules(players=3, edition="modern", table="violet"),
        preset("abacus2003", 5),
        Rules(players=4, extra_card="triple_minus", next_round_starter="left_of_last_taker"),
        Rules(players=2, starting_cards="choose", joker_any_color=False, match_games=3),
    ],
)
def test_rule_cells_are_the_rules_properties(rules: Rules) -> None:
    a = rules_template(rules)
    assert a[L.N] == rules.players
    assert a[L.JOKERS] == rules.jokers
    assert a[L.GOLDEN_JOKERS] == rules.golden_jokers
    assert a[L.UNDER] == rules.cards_under_last_round
    assert a[L.COLORS_REMOVED] == rules.colors_removed
    assert a[L.EACH] == rules.starting_cards_each
    assert a[L.NEG] == rules.negative_factor
    assert a[L.MATCH_GAMES] == rules.match_games
    assert EXTRA_CARDS[a[L.EXTRA]] == rules.extra_card
    assert NEXT_ROUND_STARTERS[a[L.STARTER]] == rules.next_round_starter
    assert STARTING_CARDS[a[L.STARTING]] == rules.starting_cards
    assert tuple(a[L.TABLE : L.TABLE + L.TABLE_CELLS]) == rules.score_table
    assert tuple(a[L.CAPS : L.CAPS + len(rules.capacities)]) == rules.capacities
    # an encoded state holds the same rule cells (INPLAY: the colours of its own deal)
    encoded = encode(new_game(rules, 1)).a.copy()
    encoded[L.INPLAY] = a[L.INPLAY]
    assert np.array_equal(encoded[L.EXTRA : L.ROW_LEN], a[L.EXTRA : L.ROW_LEN])


def test_the_fingerprint_covers_the_constants() -> None:
    fp = K.constants_fingerprint()
    assert re.fullmatch(r"[0-9a-f]{16}", fp)
    consts = K.constants()
    assert consts["JOKER"] == C.JOKER and consts["PILE"] == L.PILE
    assert consts["STREAM_GAME"] == S.GAME


PROBE = """
import numpy as np
from coloretto.fastcore import kernels as K
index = K.compiled_constants._cache._cache_file._load_index()
print(len(index))
K.compiled_constants(np.zeros(len(K.CHECKED_NAMES) + 4, np.int64))
"""


def test_machine_code_of_other_constants_is_not_loaded(tmp_path: Path) -> None:
    """Numba checks only ``kernels.py`` for changes: when the fingerprint of the engine
    constants beside the cache differs (a constant changed), the cached machine code is
    dropped at import and compiled again (in a private cache directory here)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def probe() -> int:
        done = subprocess.run(
            [sys.executable, "-c", PROBE],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return int(done.stdout.split()[0])

    assert probe() == 0  # a fresh cache: nothing to load; the kernel is compiled and cached
    assert probe() == 1  # the next process finds its machine code
    (fingerprint,) = tmp_path.rglob("coloretto-fastcore-constants.txt")
    assert fingerprint.read_text().strip() == K.constants_fingerprint()
    fingerprint.write_text("0123456789abcdef\n")  # as if compiled with other constants
    assert probe() == 0  # dropped at import
    assert fingerprint.read_text().strip() == K.constants_fingerprint()
    assert probe() == 1
