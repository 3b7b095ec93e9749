// The facts behind the numbers of the rules page (/rules, rules.js): the cards, the setup by
// player count (docs/rules.md §1, §2), the two editions and the scoring examples (§6). The
// page's texts (the rules.* keys of the catalogs) hold no digits: every number the page shows
// comes from here or is computed by scoring.js. tests/web/test_rules_data.py checks these
// facts and every computed total against the engine (coloretto.engine).
import { optimalScore, scoringRules } from "./scoring.js";

/** The seven colours, in the order of docs/rules.md §1 (colour indices of scoring.js). */
export const COLOURS = Object.freeze(["blue", "brown", "gray", "green", "orange", "pink", "yellow"]);

/** The cards of one box (docs/rules.md §1). */
export const DECK = Object.freeze({
  colours: 7,          // colours of colour cards
  perColour: 9,        // cards of each colour
  plus2: 10,           // "+2" cards
  rowCapacity: 3,      // cards a brown row holds
  greenCapacities: Object.freeze([1, 2, 3]), // the green row cards of the two-player game
});

/**
 * Setup by number of players (docs/rules.md §2): colours in play, what each row holds (two
 * players: the green row cards, otherwise one brown row card per player), starting colour cards
 * each, and the draw pile before the Last Round card is added.
 */
export const SETUP = Object.freeze([
  { players: 2, colours: 5, capacities: [1, 2, 3], starting: 2, pile: 54 },
  { players: 3, colours: 6, capacities: [3, 3, 3], starting: 1, pile: 64 },
  { players: 4, colours: 7, capacities: [3, 3, 3, 3], starting: 1, pile: 72 },
  { players: 5, colours: 7, capacities: [3, 3, 3, 3, 3], starting: 1, pile: 71 },
]);

/** The two editions (docs/rules.md §1): jokers, golden jokers, cards under the Last Round card
 * (K) and the name of the second score table's side. */
export const EDITIONS = Object.freeze({
  classic: { jokers: 3, golden: 0, under: 15, side: "gray" },
  modern: { jokers: 2, golden: 1, under: 16, side: "violet" },
});

/** The rows of the turn illustration: cards in each row (capacity DECK.rowCapacity). */
export const TURN_ROWS = Object.freeze([["green", "joker", "blue"], ["plus2"], []]);

/**
 * The worked example of docs/rules.md §6 (the rulebook's: 41 points on the brown table; its
 * "red" is pink here): colour -> cards, most first, with one joker and one "+2" card.
 */
export const EXAMPLE = Object.freeze({
  colours: Object.freeze({ green: 6, yellow: 4, pink: 3, blue: 2 }),
  jokers: 1,
  plus2: 1,
});

/**
 * More collections of docs/rules.md §6 with the point each one makes (`note`: a catalog key).
 * `table`: the score table they are scored on.
 */
export const MORE_EXAMPLES = Object.freeze([
  { table: "brown", colours: { yellow: 5, green: 3, blue: 3, pink: 3, brown: 1 }, jokers: 0, plus2: 0, note: "rules.more.note_tie" },
  { table: "brown", colours: { green: 6, yellow: 6 }, jokers: 1, plus2: 0, note: "rules.more.note_new_colour" },
  { table: "brown", colours: { green: 4, yellow: 2 }, jokers: 3, plus2: 0, note: "rules.more.note_split" },
  { table: "brown", colours: { green: 8, yellow: 1 }, jokers: 0, plus2: 0, note: "rules.more.note_cap" },
  { table: "violet", colours: EXAMPLE.colours, jokers: EXAMPLE.jokers, plus2: EXAMPLE.plus2, note: "rules.more.note_violet" },
]);

/** The seven counts (by colour index) of `colours` (colour -> cards). */
export function countsOf(colours) {
  return COLOURS.map((c) => colours[c] || 0);
}

/**
 * The optimal score of a collection (docs/rules.md §6), with colour names.
 * @param {{colours: Record<string, number>, jokers: number, plus2: number}} example
 * @param {string} table "brown" or "violet"
 * @returns {{total: number, positive: Array<[string, number]>, negative: Array<[string, number]>,
 *   jokers: Array<[string, number]>, plus2: number, counts: Record<string, number>}}
 *   `positive` / `negative`: [colour, points] as scoring.js orders them; `jokers`: [colour,
 *   jokers placed there]; `counts`: cards of each colour held after the jokers.
 */
export function bestScore(example, table = "brown") {
  const s = optimalScore(countsOf(example.colours), example.jokers, example.plus2, scoringRules(table));
  const named = (pairs) => pairs.map(([i, v]) => [COLOURS[i], v]);
  const counts = {};
  s.counts.forEach((n, i) => { if (n > 0) counts[COLOURS[i]] = n; });
  return { total: s.total, positive: named(s.positive), negative: named(s.negative), jokers: named(s.jokers), plus2: s.plus2, counts };
}

/**
 * The worked example step by step (one joker): each colour's points without the joker, the
 * total with the joker on each colour (the held colours, most cards first, then the colours
 * not held), and the best score.
 * @param {{colours: Record<string, number>, jokers: number, plus2: number}} example one joker
 * @param {string} table "brown" or "violet"
 * @returns {{values: Array<{colour: string, cards: number, points: number}>,
 *   options: Array<{colour: string, held: boolean, total: number}>, best: ReturnType<typeof bestScore>}}
 * @throws {RangeError} the example has not exactly one joker
 */
export function workedExample(example, table = "brown") {
  if (example.jokers !== 1) throw new RangeError("the worked example places exactly one joker");
  const rules = scoringRules(table);
  const points = (n) => rules.values[Math.min(n, rules.values.length - 1)];
  const held = Object.entries(example.colours).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const values = held.map(([colour, cards]) => ({ colour, cards, points: points(cards) }));
  const order = [...held.map(([c]) => c), ...COLOURS.filter((c) => !example.colours[c])];
  const options = order.map((colour) => {
    const counts = countsOf(example.colours);
    counts[COLOURS.indexOf(colour)] += 1;
    return { colour, held: Boolean(example.colours[colour]), total: optimalScore(counts, 0, example.plus2, rules).total };
  });
  return { values, options, best: bestScore(example, table) };
}
