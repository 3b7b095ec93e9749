// Optimal scoring of one collection in the browser (docs/rules.md §6), so that the score
// sheet works without a network. The server answers the same question at POST /api/score;
// tests/web/test_scoring_js.py checks this module against the Python scorer.
//
// The rule: every joker (the golden one too) goes to one colour, several may share one, and
// a colour may be one the player holds no card of; a colour's points come from the score
// table (6 cards or more score as 6); the three colours worth most count positive, every
// other colour held counts negative (three times with the `triple_minus` card); each "+2"
// card adds 2. The score is the maximum over every joker placement. For one placement the
// three colours worth most are the best positive choice (table values are never negative),
// so only placements are searched: the multisets of colours the jokers go to (at most 84
// for 3 jokers and 7 colours).

/** Points for 0, 1, ..., 6 cards of one colour (docs/rules.md §6). */
export const SCORE_TABLES = Object.freeze({
  brown: Object.freeze([0, 1, 3, 6, 10, 15, 21]),
  violet: Object.freeze([0, 1, 4, 8, 7, 6, 5]),
});

/** The Extrakarten cards that change scoring (docs/rules.md §7); `first_out_draws` changes play only. */
export const SCORING_EXTRAS = Object.freeze(["single_three", "triple_three", "triple_minus"]);

/** Points of one "+2" card. */
export const PLUS2_POINTS = 2;

/**
 * The scoring parameters of a score table and an Extrakarten card (docs/rules.md §7):
 * `single_three` makes a colour of exactly 1 card worth 3, `triple_three` a colour of exactly
 * 3 cards worth 2, `triple_minus` counts negative colours three times.
 * @param {string} table "brown" or "violet"
 * @param {string|null} extra null or one of SCORING_EXTRAS
 * @returns {{table: string, extra: string|null, values: number[], negativeFactor: number}}
 * @throws {RangeError} an unknown table or card
 */
export function scoringRules(table = "brown", extra = null) {
  if (!Object.hasOwn(SCORE_TABLES, table)) throw new RangeError(`unknown score table ${table}`);
  if (extra !== null && !SCORING_EXTRAS.includes(extra)) throw new RangeError(`not a scoring card: ${extra}`);
  const values = SCORE_TABLES[table].slice();
  if (extra === "single_three") values[1] = 3;
  if (extra === "triple_three") values[3] = 2;
  return { table, extra, values, negativeFactor: extra === "triple_minus" ? 3 : 1 };
}

function checkCount(what, n) {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number >= 0, not ${n}`);
}

/** Number of joker placements searched: multisets of `jokers` among `colours` colours. */
export function placements(colours, jokers) {
  if (colours === 0) return 1;
  let r = 1;
  for (let k = 1; k <= jokers; k++) r = (r * (colours + k - 1)) / k;
  return Math.round(r);
}

/**
 * The optimal score of a collection and how it is reached (docs/rules.md §6).
 *
 * Ties are broken as the Python scorer documents them (coloretto.engine.scoring.optimal_score),
 * so the sheet and `coloretto score` explain a score the same way: among placements reaching
 * the maximum, the first in lexicographic order of the sorted colour indices the jokers go
 * to; among colours of equal points, the one with more cards, then the lower index, counts
 * positive.
 *
 * @param {number[]} counts cards per colour (every colour in play, held or not)
 * @param {number} jokers jokers, golden ones included
 * @param {number} plus2 "+2" cards
 * @param {{values: number[], negativeFactor: number}} rules from scoringRules()
 * @returns {{total: number, counts: number[], positive: Array<[number, number]>,
 *   negative: Array<[number, number]>, jokers: Array<[number, number]>, plus2: number}}
 *   `counts` after the jokers; `positive`: [colour index, points] best first; `negative`:
 *   [colour index, negative points] largest loss first; `jokers`: [colour index, jokers
 *   placed there] by colour index; `plus2`: points of the "+2" cards.
 * @throws {RangeError} a count that is not a whole number >= 0
 */
export function optimalScore(counts, jokers, plus2, rules) {
  counts.forEach((c, i) => checkCount(`count of colour ${i}`, c));
  checkCount("jokers", jokers);
  checkCount("plus2", plus2);
  const { values, negativeFactor } = rules;
  const cap = values.length - 1;
  const points = (c) => values[Math.min(c, cap)];
  const n = counts.length;
  const placed = n === 0 ? 0 : jokers; // with no colour at all, jokers count nothing

  // Walk the multisets of `placed` colour indices in lexicographic order:
  // [0,0,0], [0,0,1], ..., [0,0,n-1], [0,1,1], ...
  const combo = new Array(placed).fill(0);
  let best = null;
  let bestCounts = counts.slice();
  let bestCombo = [];
  for (;;) {
    const cur = counts.slice();
    for (const i of combo) cur[i] += 1;
    const sorted = cur.map(points).sort((a, b) => b - a);
    let top = 0;
    let rest = 0;
    sorted.forEach((v, k) => { if (k < 3) top += v; else rest += v; });
    const t = top - negativeFactor * rest;
    if (best === null || t > best) {
      best = t;
      bestCounts = cur;
      bestCombo = combo.slice();
    }
    let k = placed - 1;
    while (k >= 0 && combo[k] === n - 1) k--;
    if (k < 0) break;
    combo[k] += 1;
    for (let m = k + 1; m < placed; m++) combo[m] = combo[k];
  }

  const held = [];
  bestCounts.forEach((c, i) => { if (c > 0) held.push(i); });
  held.sort((a, b) => points(bestCounts[b]) - points(bestCounts[a]) || bestCounts[b] - bestCounts[a] || a - b);
  const positive = held.slice(0, 3).map((i) => [i, points(bestCounts[i])]);
  const negative = held.slice(3).map((i) => [i, -negativeFactor * points(bestCounts[i])]);
  const given = new Map();
  for (const i of bestCombo) given.set(i, (given.get(i) || 0) + 1);
  const jokersAt = [...given.entries()].sort((a, b) => a[0] - b[0]);
  const plus2Points = PLUS2_POINTS * plus2;
  const total = positive.reduce((s, [, p]) => s + p, 0) + negative.reduce((s, [, p]) => s + p, 0) + plus2Points;
  return { total, counts: bestCounts, positive, negative, jokers: jokersAt, plus2: plus2Points };
}

/**
 * Competition ranks of totals (docs/rules.md §6.5: tied players share the win): the highest
 * total has rank 1, equal totals share a rank, the next rank skips the shared places.
 * @param {number[]} totals
 * @returns {number[]} ranks, 1-based, in the order of `totals`
 */
export function ranks(totals) {
  return totals.map((t) => 1 + totals.filter((u) => u > t).length);
}
