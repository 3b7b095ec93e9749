// The guided first game (docs/web-client.md, "Learn to play"): a table of three, the
// newcomer against two easy computer players, where a panel above the board explains the
// game at the moments it matters: the choice between drawing and taking, placing a drawn
// card, why a small row can be worth taking, sitting out the rest of a round, the Last
// Round card, and at the end how the score was counted (from the server's real breakdown).
// A moment is noted with every state the server sends (noteMoments), also those a burst of
// fast computer moves leaves undrawn, and its explanation stays until "Got it"; the small-row
// explanation names a row you may take, so it shows only while you may. "Skip the guide"
// ends it at any time. What was explained, and the end, are remembered in localStorage.
import { api, h } from "./api.js";
import { labelOf } from "./cards.js";
import { formatList, formatNumber, t } from "./i18n.js";

/** localStorage key: {table, due: [step...], seen: [step...], done} of the guided game. */
export const GUIDE_KEY = "coloretto.guide";

/** The steps in the order they usually come; each has its catalog texts guide.<step>.*. */
export const STEPS = ["welcome", "turn", "place", "small_row", "out", "last_round", "score"];

/** The computer players of the guided game (the easiest the server offers). */
const OPPONENT = "easy";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(GUIDE_KEY) || "null");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(data) {
  try { localStorage.setItem(GUIDE_KEY, JSON.stringify(data)); } catch { /* private mode: not kept */ }
}

/** True once the person finished or skipped the guided game. */
export function guideDone() {
  return Boolean(load().done);
}

/** True when table `id` is the guided game and it is neither finished nor skipped. */
export function guideActive(id) {
  const g = load();
  return g.table === id && !g.done;
}

/** Mark the guided game as done (skipped, or read to the end). */
export function finishGuide() {
  save({ ...load(), done: true });
}

/**
 * Create the guided game's table (you in seat 1, two easy computer players, the standard
 * rules for three) and open it. `name`: your name ("" gives the catalog's default name).
 * Throws ApiError when the server refuses.
 */
export async function startGuide(name) {
  const body = {
    name: name || t("guide.default_name"),
    seats: [{ kind: "human" }, { kind: "computer", agent: OPPONENT }, { kind: "computer", agent: OPPONENT }],
    seat: 0, rules: {}, preset: null, hints: false, rated: false, title: t("guide.table_title"),
  };
  const r = await api("/api/tables", body);
  save({ table: r.table.id, due: [], seen: [], done: false });
  return r;
}

/** The steps whose moment `view` ({obs, status, mySeat, legal, result}) is. */
function moments(view) {
  const { obs, status, mySeat, legal, result } = view;
  if (status === "finished") return result ? ["score"] : [];
  if (!obs || status !== "playing" || mySeat === null || mySeat === undefined) return [];
  const mine = legal.length > 0 && obs.to_move === mySeat;
  const now = {
    welcome: true,
    turn: mine && obs.decision === "turn",
    place: mine && obs.decision === "place",
    small_row: mine && obs.decision === "turn" && smallRow(obs) !== null,
    out: Boolean(obs.out && obs.out[mySeat]),
    last_round: Boolean(obs.last_round),
  };
  return STEPS.filter((s) => now[s]);
}

/**
 * Note the moments of a state of table `tableId` (call it with every state received, drawn
 * or not): their explanations become due and stay until seen. The small-row moment is not
 * kept (it is about the rows of that moment).
 */
export function noteMoments(tableId, view) {
  if (!guideActive(tableId)) return;
  const g = load();
  const due = Array.isArray(g.due) ? g.due : [];
  const fresh = moments(view).filter((s) => s !== "small_row" && s !== "score" && !due.includes(s));
  if (fresh.length) save({ ...g, due: [...due, ...fresh] });
}

/**
 * The step to explain now, or null: the first step (in STEPS order) not yet seen that is due
 * or whose moment it is; the score only once every other due step was seen.
 * `view`: {obs, status, mySeat, legal, result}; `g`: the stored guide state.
 */
export function currentStep(view, g) {
  const seen = Array.isArray(g.seen) ? g.seen : [];
  const due = new Set([...(Array.isArray(g.due) ? g.due : []), ...moments(view)]);
  return STEPS.find((s) => due.has(s) && !seen.includes(s)) || null;
}

/** The first row that may be taken with fewer cards than its capacity (index), or null. */
function smallRow(obs) {
  const r = obs.rows.findIndex((row) => (row.taken_by === null || row.taken_by === undefined)
    && row.cards.length > 0 && row.cards.length < row.capacity);
  return r >= 0 ? r : null;
}

/** The explanation of `step` as paragraphs (strings), from the observation and result. */
export function stepTexts(step, view) {
  const { obs, result, mySeat } = view;
  if (step === "small_row") {
    const r = smallRow(obs);
    if (r === null) return [t("guide.small_row.why")];
    const row = obs.rows[r];
    return [t("guide.small_row.text", { n: r + 1, count: row.cards.length,
      cards: formatList(row.cards.map(labelOf)) }), t("guide.small_row.why")];
  }
  if (step === "score") return scoreTexts(result, mySeat);
  return [t(`guide.${step}.text`), t(`guide.${step}.more`)];
}

function scoreTexts(result, seat) {
  const b = (result.breakdowns || [])[seat] || {};
  const counts = b.counts || {};
  const part = (obj) => formatList(Object.entries(obj || {}).map(([c, p]) =>
    t("guide.score.colour", { colour: labelOf(c), count: counts[c] || 0, points: formatNumber(p) })));
  const texts = [t("guide.score.intro")];
  if (Object.keys(b.positive || {}).length) texts.push(t("guide.score.positive", { list: part(b.positive) }));
  if (Object.keys(b.negative || {}).length) texts.push(t("guide.score.negative", { list: part(b.negative) }));
  const jokers = Object.entries(b.jokers || {});
  if (jokers.length) {
    texts.push(t("guide.score.jokers", { list: formatList(jokers.map(([c, n]) =>
      t("guide.score.joker_to", { count: n, colour: labelOf(c) }))) }));
  }
  if (b.plus2) texts.push(t("guide.score.plus2", { points: b.plus2 }));
  const rank = (result.ranks || [])[seat];
  texts.push(t("guide.score.total", { total: result.scores[seat] }),
    rank === 1 ? t("guide.score.won") : t("guide.score.rank", { n: rank }));
  return texts;
}

/**
 * The guide's panel for the table view's state `view` ({obs, status, mySeat, legal,
 * result}), or null when it has nothing to say. `redraw()` is called after a button.
 */
export function guidePanel(tableId, view, redraw) {
  if (!guideActive(tableId)) return null;
  const g = load();
  const seen = Array.isArray(g.seen) ? g.seen : [];
  const step = currentStep(view, g);
  const skip = h("button", { type: "button", class: "guide-skip", "data-testid": "guide-skip",
    onclick: () => { finishGuide(); redraw(); } }, t("guide.skip"));
  if (!step) return null;
  const last = step === "score";
  const next = last
    ? h("button", { type: "button", class: "primary", "data-testid": "guide-finish",
      onclick: () => { finishGuide(); redraw(); } }, t("guide.finish"))
    : h("button", { type: "button", class: "primary", "data-testid": "guide-next",
      onclick: () => { save({ ...load(), seen: [...seen, step] }); redraw(); } }, t("guide.next"));
  return h("section", { class: "guide panel", role: "region", "aria-label": t("guide.label"),
    "aria-live": "polite", "data-testid": "guide", "data-step": step },
  h("p", { class: "guide-count small muted" }, t("guide.count", { n: STEPS.indexOf(step) + 1, total: STEPS.length })),
  h("h2", {}, t(`guide.${step}.title`)),
  stepTexts(step, view).map((text) => h("p", {}, text)),
  h("div", { class: "guide-buttons" }, next, last ? null : skip));
}
