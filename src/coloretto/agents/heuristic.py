"""``heuristic``: a rule-based player that judges rows the way a good player does.

Every judgement rests on **row gains** (``features.RowGains``): how much a seat's optimal
score (docs/rules.md §6) changes if it takes a row. The optimal score already encodes the
three-colour core (a fourth colour counts negative), "+2" cards and jokers (assigned to
their best colour), and the score table in use: under the violet table, whose values peak
at 3 cards, a fourth card of a colour has negative gain, so the player stops collecting it
and spreads over three colours instead of piling onto one. Under the violet table the gains
are also taken against the collection plus the cards the seat may still expect to take,
since what a card costs there depends on how many more will come. Our own expected intake
is **directed** (``directed_intake``): it first completes our three main colours to 3 cards
(a good player steers the rows it takes towards them), and only the rest is spread over
the unseen cards (``expected_intake``); a card of a main colour then saves a card still to
come instead of counting as a third one. Our gains are mixed with those against the
collection as it is (``plain_mix``), and the opponents' are taken against their
collections as they are (``opp_future_share``).

A position after our action is valued by a **settlement**: the seats still in the round
take the remaining rows one after another, each the row best for itself. Our value is our
own gain minus ``opp_weight`` times the best gain of an opponent. Two settlements are
mixed: one where we choose first (the rows stay for us) and one where every opponent
chooses before us (only the rows they leave remain). The weight of the pessimistic one
grows with how full the rows are and how many opponents are still in the round: that is
"take before only bad rows remain".

* **Take a row** ``r``: our gain of ``r`` (plus the expected bonus card of a golden joker
  or ``first_out_draws``), the others settling the rest: taking a row an opponent wants
  denies it (via ``opp_weight``).
* **Draw**: the expectation, over the unseen cards (public composition), of the best
  placement's value. Drawing is preferred when it beats the best take by ``draw_margin``;
  the last seat in the round (whose drawn cards all go to its own row, docs/rules.md §3)
  draws only when that beats the take by ``last_draw_margin`` (under the violet table).
* **Place** the drawn card in the row with the best value: cards we want go to rows we may
  get, cards an opponent wants (or that would spoil our row) go where they hurt the
  opponents most, e.g. a fourth colour into a row an opponent was waiting for.
* Colour switching comes free: when a new colour's row gain beats the core's, it is taken.

Costs one batch of at most seats x rows x card kinds scorings per decision (memoised);
well under a millisecond (``benchmarks/mcts_speed.py`` prints decisions per second).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.cards import GOLDEN_JOKER, JOKER
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..engine.state import CHOOSE, PLACE, TURN, UNTAKEN, GameState
from .base import Agent, Budget
from .features import RowGains, turn_order_after, unseen_counts

__all__ = [
    "HeuristicAgent",
    "HeuristicParams",
    "directed_intake",
    "expected_intake",
    "heuristic_code",
    "heuristic_scores",
    "intake_volume",
    "main_colors",
    "params_for",
    "params_for_rules",
]


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the heuristic (tuned against ``greedy`` and ``random``; see docs/agents.md).

    Attributes:
        opp_weight: weight of the best opponent's gain subtracted from ours.
        risk_base: weight of the "opponents choose first" settlement with empty rows.
        risk_fill: extra weight of that settlement as the open rows fill up (times the filled
            fraction of their capacity).
        draw_margin: points by which drawing must beat the best take.
        joker_bonus: points added per joker in a row while many cards remain (flexibility).
        future_share: our row gains are taken against our collection plus this share of
            the cards a seat may still expect to take (``expected_intake``); 0 = the
            collection as it is.
        opp_future_share: the same share for the opponents' row gains.
        plain_mix: share of our gains against the collection as it is, mixed into our gains
            against the collection plus the expected intake (with ``future_share`` > 0).
        directed: our expected intake first completes our three main colours to 3 cards
            (``directed_intake``) instead of following the unseen cards only
            (``expected_intake``).
        last_draw_margin: points by which drawing must beat the take when no opponent is
            left in the round; ``None``: ``draw_margin``.
    """

    opp_weight: float = 0.2
    risk_base: float = 0.2
    risk_fill: float = 0.5
    draw_margin: float = -0.3
    joker_bonus: float = 1.5
    future_share: float = 0.0
    opp_future_share: float = 0.0
    plain_mix: float = 0.0
    directed: bool = False
    last_draw_margin: float | None = None


DEFAULT_PARAMS = HeuristicParams()
VIOLET_PARAMS = HeuristicParams(
    opp_weight=0.2,
    risk_base=1.0,
    draw_margin=-0.3,
    future_share=1.0,
    opp_future_share=0.0,
    plain_mix=0.5,
    directed=True,
    last_draw_margin=3.0,
)
"""Weights under the violet table (values peak at 3 cards: every card beyond them costs;
rows go bad quickly, so the pessimistic settlement gets full weight). Our rows are judged
half against the collection plus the cards still to come, directed to our three main
colours (``directed_intake``), half against the collection as it is; the opponents' rows
against their collections as they are (what a seat sees of a row's worth now). The last
seat in the round takes its row unless drawing is worth 3 points more: every card it draws
is one more card for itself."""

VIOLET_V1_PARAMS = HeuristicParams(
    opp_weight=0.2,
    risk_base=1.0,
    draw_margin=0.15,
    future_share=1.0,
    opp_future_share=0.0,
    plain_mix=0.3,
)
"""The first violet weights (an undirected expected intake mixed 0.7 with the gains against
the collection as it is), kept unchanged as the heuristic of ``mcts-v1``'s priors."""

PARAMS_VERSIONS = ("current", "v1")
"""Versions of the tuned weights: ``current`` (``DEFAULT_PARAMS``, ``VIOLET_PARAMS``) and
the frozen ``v1`` (``DEFAULT_PARAMS``, ``VIOLET_V1_PARAMS``)."""


def params_for(st: GameState, version: str = "current") -> HeuristicParams:
    """The tuned weights for the rules of ``st`` (violet table or not) in ``version``, one of
    ``PARAMS_VERSIONS``.

    Raises:
        ValueError: an unknown version.
    """
    return params_for_rules(st.rules, version)


def params_for_rules(rules: Rules, version: str = "current") -> HeuristicParams:
    """``params_for`` by the rules alone: the weights depend only on the score table.

    Raises:
        ValueError: an unknown version.
    """
    if version not in PARAMS_VERSIONS:
        raise ValueError(f"unknown heuristic version {version!r}: one of {PARAMS_VERSIONS}")
    if rules.table != "violet":
        return DEFAULT_PARAMS
    return VIOLET_PARAMS if version == "current" else VIOLET_V1_PARAMS


def intake_volume(st: GameState, share: float) -> float:
    """``share`` times the cards a seat may still expect to take this game: the cards in the
    open rows and in the draw pile above its last 15 cards, divided by the seats (a number
    of cards, not rounded)."""
    in_rows = sum(len(st.rows[r]) for r in range(st.nrows) if st.row_taker[r] == UNTAKEN)
    return share * (max(0, st.cards_left() - 15) + in_rows) / st.n


def _spread(f: float, unseen: Sequence[int]) -> list[int]:
    """``round(f)`` card codes in proportion to the counts ``unseen`` (indexed by card code),
    by largest remainders; empty when no card is unseen."""
    total = sum(unseen)
    if total == 0 or f <= 0.0:
        return []
    quotas = [f * k / total for k in unseen]
    counts = [int(q) for q in quotas]
    rest = round(f) - sum(counts)
    for c in sorted(range(len(quotas)), key=lambda c: counts[c] - quotas[c])[: max(0, rest)]:
        counts[c] += 1
    return [c for c, k in enumerate(counts) for _ in range(k)]


def expected_intake(st: GameState, share: float) -> list[int]:
    """The cards a seat may still expect to take this game (``intake_volume``), as card codes
    in proportion to the unseen composition (largest remainders); empty for ``share`` 0."""
    if share <= 0.0:
        return []
    return _spread(intake_volume(st, share), unseen_counts(st))


def main_colors(st: GameState, seat: int, unseen: Sequence[int]) -> list[int]:
    """The three colours (codes) ``seat`` collects among those in play: most cards held
    first, then most cards unseen (``unseen``: counts by card code), then the lower code."""
    held = st.coll[seat]
    return sorted(st.in_play, key=lambda c: (-held[c], -unseen[c], c))[:3]


def directed_intake(st: GameState, seat: int, share: float) -> list[int]:
    """``seat``'s expected intake (``intake_volume``) directed to its main colours
    (``main_colors``): first the unseen cards that complete each of them to 3 cards, the
    colour with most cards first, as far as the volume allows and the seat's jokers (each
    completes one card, docs/rules.md §6.1) leave a need; the rest of the volume in proportion
    to the unseen cards left, as ``expected_intake``. Card codes; empty for ``share`` 0.

    The rule it implements: under the violet table (docs/rules.md §6) a colour is worth most
    at 3 cards and a player steers the rows it takes towards its three colours, so a card of a
    main colour taken now replaces one still to come rather than adding a third card."""
    if share <= 0.0:
        return []
    unseen = unseen_counts(st)
    volume = intake_volume(st, share)
    held = st.coll[seat]
    mains = main_colors(st, seat, unseen)
    need = sum(max(0, 3 - held[c]) for c in mains) - held[JOKER] - held[GOLDEN_JOKER]
    room = min(volume, max(0, need))
    fill: list[int] = []
    for c in mains:
        k = min(max(0, 3 - held[c]), unseen[c], int(room - len(fill) + 1e-9))
        fill += [c] * max(0, k)
    left = list(unseen)
    for c in fill:
        left[c] -= 1
    return fill + _spread(volume - len(fill), left)


def _settle(
    gains: dict[int, dict[int, float]], rows: list[int], order: Sequence[int], nonempty: set[int]
) -> dict[int, float]:
    """Each seat of ``order`` in turn takes its best remaining non-empty row; returns each
    seat's gain (0 when only empty rows are left for it)."""
    left = list(rows)
    got: dict[int, float] = {}
    for s in order:
        g = gains[s]
        best_r = -1
        best_v = -1e9
        for r in left:
            if r in nonempty:
                v = g[r]
                if v > best_v:
                    best_v = v
                    best_r = r
        if best_r < 0:
            got[s] = 0.0
        else:
            got[s] = best_v
            left.remove(best_r)
    return got


class _Judge:
    """Valuations of one decision for ``me`` (see the module docstring)."""

    def __init__(self, st: GameState, me: int, params: HeuristicParams) -> None:
        self.st = st
        self.me = me
        self.p = params
        self.opps = turn_order_after(st, me)
        # Row gains of each seat: ours against our expected intake, the opponents' against
        # theirs (one object for every seat when both are the same undirected intake).
        share = params.future_share
        if params.opp_future_share == share and not params.directed:
            self.rg = RowGains(st, [me] + self.opps, expected_intake(st, share))
            self.rg_of = {s: self.rg for s in [me] + self.opps}
        else:
            mine = directed_intake(st, me, share) if params.directed else expected_intake(st, share)
            self.rg = RowGains(st, [me], mine)
            rg_opp = RowGains(st, self.opps, expected_intake(st, params.opp_future_share))
            self.rg_of = {me: self.rg}
            self.rg_of.update({o: rg_opp for o in self.opps})
        # Our gains against the collection as it is, mixed in by ``plain_mix``.
        self.plain = RowGains(st, [me]) if params.plain_mix and share > 0.0 else None
        self.open = self.rg.open_rows
        st_rows = st.rows
        self.room = [r for r in self.open if len(st_rows[r]) < st.caps[r]]
        cap_total = sum(st.caps[r] for r in self.open) or 1
        fill = sum(len(st_rows[r]) for r in self.open) / cap_total
        many = 1.0 if st.cards_left() > 20 and not st.last_round else 0.0
        self.jb = params.joker_bonus * many
        opp_share = len(self.opps) / max(1, len(self.open) - 1) if self.opps else 0.0
        self.risk = (
            min(1.0, (params.risk_base + params.risk_fill * fill) * min(1.0, opp_share))
            if self.opps
            else 0.0
        )
        self.first_out = st.rules.extra_card == "first_out_draws" and st.takes == 0
        # Adjusted gains of the current rows.
        self.gains: dict[int, dict[int, float]] = {}
        for s in [me] + self.opps:
            gs = self.rg_of[s].gain[s]
            self.gains[s] = {
                r: self._mix(s, gs[r], r) + self._extra(s, st_rows[r]) for r in self.open
            }

    def _mix(self, seat: int, gain: float, r: int, card: int = -1) -> float:
        """``gain`` of ``seat`` for row ``r`` (with ``card`` added when given); for us, mixed
        by ``plain_mix`` with the gain against our collection as it is."""
        if self.plain is None or seat != self.me:
            return gain
        m = self.p.plain_mix
        plain = self.plain.gain[seat][r] if card < 0 else self.plain.gain_plus(seat, r, card)
        return (1.0 - m) * gain + m * plain

    def _extra(self, seat: int, cards: Sequence[int]) -> float:
        v = 0.0
        for c in cards:
            if c == JOKER or c == GOLDEN_JOKER:
                v += self.jb
            if c == GOLDEN_JOKER:
                v += self.rg_of[seat].card_bonus(seat)
        if self.first_out and cards:
            v += self.rg_of[seat].card_bonus(seat)
        return v

    def _value(self, gains: dict[int, dict[int, float]], nonempty: set[int]) -> float:
        """Value for ``me`` of the open rows with ``gains``, before anyone takes."""
        me = self.me
        opps = self.opps
        w = self.p.opp_weight
        first = _settle(gains, self.open, [me] + opps, nonempty)
        v_first = first[me] - (w * max(first[o] for o in opps) if opps else 0.0)
        if self.risk <= 0.0:
            return v_first
        last = _settle(gains, self.open, opps + [me], nonempty)
        v_last = last[me] - (w * max(last[o] for o in opps) if opps else 0.0)
        return (1.0 - self.risk) * v_first + self.risk * v_last

    def take_value(self, r: int) -> float:
        """Value of taking row ``r`` now."""
        me = self.me
        v = self.gains[me][r]
        if self.opps:
            rest = [x for x in self.open if x != r]
            nonempty = {x for x in rest if self.st.rows[x]}
            got = _settle(self.gains, rest, self.opps, nonempty)
            v -= self.p.opp_weight * max(got.values())
        return v

    def place_value(self, card: int, r: int) -> float:
        """Value of putting ``card`` into row ``r`` (then play goes on)."""
        row = self.st.rows[r]
        gains: dict[int, dict[int, float]] = {}
        for s, current in self.gains.items():
            g = dict(current)
            gain = self.rg_of[s].gain_plus(s, r, card)
            g[r] = self._mix(s, gain, r, card) + self._extra(s, row + [card])
            gains[s] = g
        nonempty = {x for x in self.open if self.st.rows[x]}
        nonempty.add(r)
        return self._value(gains, nonempty)

    def draw_value(self) -> float:
        """Expected value of drawing: mean over unseen cards of the best placement."""
        rg = self.rg
        tot = rg.total_unseen
        if tot == 0 or not self.room:
            return -1e9
        acc = 0.0
        for c, k in enumerate(rg.unseen):
            if k:
                acc += k * max(self.place_value(c, r) for r in self.room)
        margin = self.p.draw_margin
        if not self.opps and self.p.last_draw_margin is not None:
            margin = self.p.last_draw_margin
        return acc / tot - margin


def heuristic_scores(
    st: GameState, me: int, codes: Sequence[int], params: HeuristicParams | None = None
) -> dict[int, float]:
    """The heuristic's value (points, higher is better) of each legal action code of ``me``
    in ``st`` (a turn or place decision; other decisions get 0 each). ``params``: default
    ``params_for(st)`` (the current weights; ``params_for(st, "v1")`` the frozen ones)."""
    if params is None:
        params = params_for(st)
    if st.phase not in (TURN, PLACE) or len(codes) == 1:
        return {c: 0.0 for c in codes}
    j = _Judge(st, me, params)
    out: dict[int, float] = {}
    if st.phase == PLACE:
        for c in codes:
            out[c] = j.place_value(st.drawn, c - A.PLACE0)
        return out
    for c in codes:
        out[c] = j.draw_value() if c == A.DRAW else j.take_value(c - A.TAKE0)
    return out


def _choose_start(st: GameState, codes: Sequence[int]) -> int:
    """Starting colour (``starting_cards="choose"``): the colour fewest others hold."""
    held = [sum(col[c - A.CHOOSE0] for col in st.coll) for c in codes]
    return codes[min(range(len(codes)), key=lambda i: (held[i], codes[i]))]


def heuristic_code(
    st: GameState, me: int, codes: Sequence[int], params: HeuristicParams | None = None
) -> int:
    """The heuristic's action code for ``me`` among the legal ``codes`` of ``st``
    (deterministic: ties go to the lowest code)."""
    if len(codes) == 1:
        return codes[0]
    if st.phase == CHOOSE:
        return _choose_start(st, codes)
    scores = heuristic_scores(st, me, codes, params)
    best = codes[0]
    best_v = scores[best]
    for c in codes[1:]:
        if scores[c] > best_v:
            best, best_v = c, scores[c]
    return best


class HeuristicAgent(Agent):
    """Rule-based player (module docstring). Deterministic given the observation; the budget
    is ignored."""

    name = "heuristic"

    def __init__(
        self, seed: int = 0, budget: Budget | None = None, params: HeuristicParams | None = None
    ) -> None:
        super().__init__(seed, budget)
        self.params = params

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        st = observation.state
        codes = [a.code for a in legal]
        code = heuristic_code(st, observation.seat, codes, self.params)
        return legal[codes.index(code)]
