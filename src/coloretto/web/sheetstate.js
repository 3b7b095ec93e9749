// The score sheet's data: the players, the cards each holds in each game of the match, the
// score table and Extrakarten card, the colour names. Plain data, kept in localStorage so that
// a reload (also offline) finds the sheet as it was. No DOM here: web/score.js shows it.
import { optimalScore, ranks, scoringRules } from "./scoring.js";

/** localStorage key of the sheet. */
export const STORAGE_KEY = "coloretto.sheet";

/** The seven colours of the game, in docs/rules.md order (their names come from the catalogs). */
export const COLOURS = Object.freeze(["blue", "brown", "gray", "green", "orange", "pink", "yellow"]);

/** The other kinds of cards people count. */
export const SPECIAL = Object.freeze(["joker", "golden_joker", "plus2"]);

/** Most cards of a kind in one collection (docs/rules.md §1): 9 per colour, 10 "+2" cards,
 * one golden joker, 3 jokers in all (golden included). */
export const LIMITS = Object.freeze({ colour: 9, joker: 3, golden_joker: 1, plus2: 10, jokers: 3 });

/** Players at one table (docs/rules.md §2: 2 to 5; a sheet may start with one). */
export const MAX_PLAYERS = 5;
/** Games of a match sheet (the 2003 edition's match, docs/rules.md §5.4). */
export const MATCH_GAMES = 4;
/** Longest player name and colour name, in characters. */
export const MAX_NAME = 24;

const TABLES = ["brown", "violet"];
const EXTRAS = [null, "single_three", "triple_three", "triple_minus"];

/** No cards: the counts of one player in one game. */
export function emptyCards() {
  return { colours: COLOURS.map(() => 0), joker: 0, golden_joker: 0, plus2: 0 };
}

/** A new, empty sheet: brown table, no Extrakarten card, one game, no players. */
export function newSheet() {
  return { table: "brown", extra: null, games: 1, game: 0, labels: COLOURS.map(() => ""), players: [], nextId: 1 };
}

const isCount = (n, max) => Number.isInteger(n) && n >= 0 && n <= max;

function cleanCards(raw) {
  const cards = emptyCards();
  if (!raw || typeof raw !== "object") return cards;
  if (Array.isArray(raw.colours)) {
    COLOURS.forEach((_, i) => { if (isCount(raw.colours[i], LIMITS.colour)) cards.colours[i] = raw.colours[i]; });
  }
  if (isCount(raw.golden_joker, LIMITS.golden_joker)) cards.golden_joker = raw.golden_joker;
  if (isCount(raw.joker, LIMITS.jokers - cards.golden_joker)) cards.joker = raw.joker;
  if (isCount(raw.plus2, LIMITS.plus2)) cards.plus2 = raw.plus2;
  return cards;
}

/**
 * The sheet kept in `storage`, or a new one. Anything malformed in the stored copy (an older
 * or hand-edited value) is replaced by its default, so the page always gets a valid sheet.
 */
export function loadSheet(storage = globalThis.localStorage) {
  let raw = null;
  try { raw = JSON.parse(storage.getItem(STORAGE_KEY) || "null"); } catch { raw = null; }
  const sheet = newSheet();
  if (!raw || typeof raw !== "object") return sheet;
  if (TABLES.includes(raw.table)) sheet.table = raw.table;
  if (EXTRAS.includes(raw.extra)) sheet.extra = raw.extra;
  if (raw.games === 1 || raw.games === MATCH_GAMES) sheet.games = raw.games;
  if (Number.isInteger(raw.game) && raw.game >= 0 && raw.game < sheet.games) sheet.game = raw.game;
  if (Array.isArray(raw.labels)) {
    COLOURS.forEach((_, i) => {
      const label = raw.labels[i];
      if (typeof label === "string") sheet.labels[i] = label.slice(0, MAX_NAME);
    });
  }
  const ids = new Set();
  for (const p of Array.isArray(raw.players) ? raw.players : []) {
    if (sheet.players.length >= MAX_PLAYERS || !p || typeof p !== "object") continue;
    if (typeof p.id !== "string" || ids.has(p.id) || typeof p.name !== "string") continue;
    ids.add(p.id);
    const games = Array.isArray(p.cards) ? p.cards : [];
    sheet.players.push({
      id: p.id,
      name: p.name.slice(0, MAX_NAME),
      cards: Array.from({ length: MATCH_GAMES }, (_, g) => cleanCards(games[g])),
    });
  }
  if (Number.isInteger(raw.nextId) && raw.nextId > 0) sheet.nextId = raw.nextId;
  for (const p of sheet.players) {
    const n = Number.parseInt(p.id.replace(/^p/, ""), 10);
    if (n >= sheet.nextId) sheet.nextId = n + 1;
  }
  return sheet;
}

/** Keep `sheet` in `storage` (nothing happens where storage is unavailable). */
export function saveSheet(sheet, storage = globalThis.localStorage) {
  try { storage.setItem(STORAGE_KEY, JSON.stringify(sheet)); } catch { /* private mode: not kept */ }
}

/** Add a player named `name` with no cards in any game; returns the player. */
export function addPlayer(sheet, name) {
  const player = { id: `p${sheet.nextId}`, name, cards: Array.from({ length: MATCH_GAMES }, emptyCards) };
  sheet.nextId += 1;
  sheet.players.push(player);
  return player;
}

/**
 * How many cards of a kind the other players hold (colour `index` for "colour"; "jokers": the
 * jokers and golden jokers together).
 * @param {object[]} others the other players' cards in the same game
 */
export function heldByOthers(others, kind, index = 0) {
  if (kind === "jokers") return heldByOthers(others, "joker") + heldByOthers(others, "golden_joker");
  return others.reduce((n, c) => n + getCount(c, kind, index), 0);
}

/**
 * The highest count allowed for a kind of card, given the rest of the collection and what the
 * other players of the game hold: the game has 9 cards of each colour, 10 "+2" cards, one
 * golden joker and 3 jokers in all, golden joker included (docs/rules.md §1), so one player
 * may hold what the others leave of each; with no others: a colour 9, "+2" 10, the golden
 * joker 1 and jokers 3, with jokers and golden joker together at most 3. Never below 0.
 * @param {object} cards one player's cards in one game
 * @param {"colour"|"joker"|"golden_joker"|"plus2"} kind
 * @param {number} index the colour, for "colour"
 * @param {object[]} others the other players' cards in the same game
 */
export function maxCount(cards, kind, index = 0, others = []) {
  const jokersLeft = LIMITS.jokers - heldByOthers(others, "jokers");
  let max;
  if (kind === "joker") max = jokersLeft - cards.golden_joker;
  else if (kind === "golden_joker") {
    max = Math.min(LIMITS.golden_joker - heldByOthers(others, "golden_joker"), jokersLeft - cards.joker);
  } else max = LIMITS[kind] - heldByOthers(others, kind, index);
  return Math.max(0, max);
}

/** The count of `kind` (colour `index` for "colour"). */
export function getCount(cards, kind, index = 0) {
  return kind === "colour" ? cards.colours[index] : cards[kind];
}

/** Set a count if it is allowed (see maxCount; lowering a count is always allowed, so a sheet
 * whose counts add up to more than the game has can be put right); returns whether it was. */
export function setCount(cards, kind, index, value, others = []) {
  const current = getCount(cards, kind, index);
  if (!Number.isInteger(value) || value < 0) return false;
  if (value > current && value > maxCount(cards, kind, index, others)) return false;
  if (kind === "colour") cards.colours[index] = value;
  else cards[kind] = value;
  return true;
}

/** The cards of the players of `sheet` other than `player` in the sheet's current game. */
export function otherCards(sheet, player) {
  return sheet.players.filter((p) => p !== player).map((p) => p.cards[sheet.game]);
}

/** Whether any card was counted in `cards`. */
export function hasCards(cards) {
  return cards.colours.some((c) => c > 0) || cards.joker + cards.golden_joker + cards.plus2 > 0;
}

/** The scoring rules of the sheet's score table and Extrakarten card (scoring.js). */
export function sheetRules(sheet) {
  return scoringRules(sheet.table, sheet.extra);
}

/**
 * Every player's score in every game of the sheet, the totals over the games and the ranks.
 * @returns {{games: Array<{scores: object[], totals: number[], ranks: number[], winners: number[], started: boolean}>,
 *   totals: number[], ranks: number[], winners: number[], started: boolean}}
 *   Per game: each player's optimalScore() breakdown, totals, ranks (ties share a rank),
 *   the indices of the winners, and whether any card was counted. Overall: the sums over
 *   the sheet's games (one game: that game), their ranks and winners.
 */
export function standings(sheet) {
  const rules = sheetRules(sheet);
  const games = [];
  for (let g = 0; g < sheet.games; g++) {
    const scores = sheet.players.map((p) => {
      const c = p.cards[g];
      return optimalScore(c.colours, c.joker + c.golden_joker, c.plus2, rules);
    });
    const totals = scores.map((s) => s.total);
    const r = ranks(totals);
    games.push({
      scores, totals, ranks: r,
      winners: r.flatMap((k, i) => (k === 1 ? [i] : [])),
      started: sheet.players.some((p) => hasCards(p.cards[g])),
    });
  }
  const totals = sheet.players.map((_, i) => games.reduce((s, game) => s + game.totals[i], 0));
  const r = ranks(totals);
  return {
    games, totals, ranks: r,
    winners: r.flatMap((k, i) => (k === 1 ? [i] : [])),
    started: games.some((game) => game.started),
  };
}
