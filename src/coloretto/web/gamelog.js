// Readable text of the public game log (docs/web-api.md, state.log) and the end-of-game
// breakdown (state.result). Display only: every number comes from the server.
import { h, seatLabel } from "./api.js";
import { card, cardText, LABELS } from "./cards.js";
import { t as tr } from "./i18n.js";

/** The texts of this module that mark a computer player's moves (people see them). */
export const TEXT = {
  byComputer: (agent) => `played by computer (${agent})`,
  byComputerTitle: "a computer player made this move for the person in this seat",
};

/**
 * True when log entry `entry` was played by a computer player for a person: it carries
 * `agent`, and its seat is not a computer's own seat.
 */
export function playedForPerson(entry, seats) {
  if (!entry || !entry.agent) return false;
  const seat = (seats || [])[entry.seat];
  return !(seat && seat.kind === "computer" && !seat.handed_over);
}

/**
 * A JSON action as people read it, rows counted from 1 (the JSON counts them from 0):
 * "draw a card", "place the card in row 3", "take row 3", "start with green".
 */
export function actionText(a) {
  if (!a) return "no action";
  if (a.action === "draw") return "draw a card";
  if (a.action === "place") return `place the card in row ${a.row + 1}`;
  if (a.action === "take") return `take row ${a.row + 1}`;
  if (a.action === "choose_start") return `start with ${LABELS[a.color] || a.color}`;
  return String(a.action);
}

/** One log entry as a list item: "Ann draws [E] green", "Bob takes row 2: [E][+2]". */
export function logLine(entry, seats) {
  const who = h("b", {}, entry.seat === null || entry.seat === undefined ? "?" : seatLabel((seats || [])[entry.seat]));
  const a = entry.action || {};
  let body;
  if (a.action === "draw") {
    body = [" draws ", entry.card ? cardText(entry.card) : "a card"];
  } else if (a.action === "place") {
    body = [" places ", entry.card ? cardText(entry.card) : "the card", ` in row ${a.row + 1}`];
  } else if (a.action === "take") {
    const cards = entry.cards || [];
    body = [` takes row ${a.row + 1}`, cards.length ? ": " : "", cards.map((c) => card(c, { small: true }))];
    const bonus = entry.bonus_cards || (entry.bonus ? [entry.bonus] : []);
    if (bonus.length) {
      body.push(bonus.length > 1 ? " and gets the bonus cards " : " and gets the bonus card ",
        bonus.flatMap((c, k) => (k ? [", ", cardText(c)] : [cardText(c)])));
    }
  } else if (a.action === "choose_start") {
    body = [" starts with ", cardText(a.color)];
  } else {
    body = [`: ${actionText(a)}`];
  }
  const auto = playedForPerson(entry, seats);
  return h("li", { "data-i": entry.i, class: auto ? "auto" : null }, h("span", { class: "log-i" }, `${entry.i + 1}.`), " ", who, body,
    auto ? [" ", h("span", { class: "badge computer log-auto", "data-testid": "log-auto", title: TEXT.byComputerTitle }, TEXT.byComputer(entry.agent))] : null,
    entry.timeout ? [" ", h("span", { class: "badge log-timeout", "data-testid": "log-timeout" }, tr("clock.timed_out"))] : null);
}

/** The round / game heading a log entry opens, or null ("Round 3", "Game 2 · Round 1"). */
export function separatorText(entry, prev) {
  if (!entry || entry.round === undefined) return null;
  const newGame = entry.game !== undefined && (!prev || prev.game !== entry.game);
  if (!newGame && prev && prev.round === entry.round) return null;
  return newGame ? `Game ${entry.game} \u00b7 Round ${entry.round}` : `Round ${entry.round}`;
}

/**
 * The list items of one log entry: a round/game separator when the entry opens a new round
 * (or game of a match), the entry's line, then notes: "The Last Round card came up" and,
 * on the action that ended a game of a match, that game's scores. `prev` is the entry
 * before (null for the first).
 */
export function logItems(entry, prev, seats) {
  const items = [];
  const sep = separatorText(entry, prev);
  if (sep) items.push(h("li", { class: "log-sep", "data-testid": "round-separator" }, sep));
  items.push(logLine(entry, seats));
  if (entry.last_round) {
    items.push(h("li", { class: "log-note last-round-note", "data-testid": "last-round-line" },
      card("last_round", { small: true }), " The Last Round card came up: this round is the last", entry.game !== undefined ? " of this game." : "."));
  }
  if (entry.game !== undefined && entry.game_scores) {
    items.push(h("li", { class: "log-note", "data-testid": "game-end-line" }, `Game ${entry.game} over: `,
      entry.game_scores.map((sc, s) => `${seatLabel((seats || [])[s])} ${sc}`).join(", ")));
  }
  return items;
}

/** The action of a log entry as plain text (for replay captions and screen readers). */
export function logText(entry, seats) {
  const who = (entry.seat === null || entry.seat === undefined ? "?" : seatLabel((seats || [])[entry.seat])) +
    (playedForPerson(entry, seats) ? ` (${TEXT.byComputer(entry.agent)})` : "") +
    (entry.timeout ? ` (${tr("clock.timed_out")})` : "");
  const a = entry.action || {};
  const c = entry.card ? LABELS[entry.card] || entry.card : "a card";
  if (a.action === "draw") return entry.last_round ? `${who} draws the Last Round card, then ${c}` : `${who} draws ${c}`;
  if (a.action === "place") return `${who} places ${c} in row ${a.row + 1}`;
  if (a.action === "take") {
    const bonus = entry.bonus_cards || (entry.bonus ? [entry.bonus] : []);
    return `${who} takes row ${a.row + 1}` + (bonus.length ? ` and gets the bonus card${bonus.length > 1 ? "s" : ""} ${bonus.map((b) => LABELS[b] || b).join(", ")}` : "") +
      (entry.last_round ? " (the Last Round card came up)" : "");
  }
  if (a.action === "choose_start") return `${who} starts with ${a.color}`;
  return `${who}: ${actionText(a)}`;
}

/** "2 jokers (1 golden) → green": `n` jokers (regular and golden) assigned to `colour`,
 * `golden` of them golden. */
export function jokerText(colour, n, golden) {
  const what = golden === n
    ? (n === 1 ? "golden joker" : `${n} golden jokers`)
    : `${n} joker${n === 1 ? "" : "s"}${golden ? ` (${golden} golden)` : ""}`;
  return `${what} \u2192 ${LABELS[colour] || colour}`;
}

function jokerItem(colour, n, golden) {
  return h("span", { class: "bd-item", "data-joker": colour },
    card(golden === n ? "golden_joker" : "joker", { small: true }), " ", jokerText(colour, n, golden));
}

function cardsOf(colour, n) {
  return `${LABELS[colour] || colour}: ${n} card${n === 1 ? "" : "s"}`;
}

function ordinal(n) {
  return { 1: "1st", 2: "2nd", 3: "3rd" }[n] || `${n}th`;
}

function colourList(obj, sign) {
  const entries = Object.entries(obj || {});
  if (!entries.length) return h("span", { class: "muted" }, "\u2014");
  return h("span", { class: "bd-list" }, entries.map(([colour, pts]) => h("span", { class: "bd-item" },
    card(colour, { small: true }), ` ${LABELS[colour] || colour} ${sign && pts > 0 ? "+" : ""}${pts}`)));
}

/**
 * The end-of-game panel: ranks and each player's full breakdown (positive and negative
 * colours with points, where the jokers went, "+2"), from `result` of docs/web-api.md.
 * `counts` (cards per colour, jokers included) are shown next to the points.
 */
export function resultPanel(result, seats, mySeat, controls = []) {
  const match = (result.match_games || 1) > 1;
  const games = match ? result.game_scores || [] : [];
  const order = result.scores.map((_, s) => s).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const body = h("tbody", {});
  for (const s of order) {
    const b = (result.breakdowns || [])[s] || {};
    const counts = b.counts || {};
    const pos = Object.fromEntries(Object.entries(b.positive || {}).map(([c, p]) => [c, p]));
    const jokers = Object.entries(b.jokers || {});
    body.append(h("tr", { class: (result.winners || []).includes(s) ? "winner" : "", "data-seat": s },
      h("td", { class: "rank" }, ordinal(result.ranks[s]), (result.winners || []).includes(s) ? [h("br", {}), h("span", { class: "badge winner" }, "\u2605 winner")] : ""),
      h("th", { scope: "row" }, seatLabel((seats || [])[s]), s === mySeat ? " (you)" : ""),
      h("td", { class: "total" }, String(result.scores[s])),
      games.map((g, k) => h("td", { class: "game-score", "data-label": `Game ${k + 1}: ` }, String(g[s]))),
      h("td", { class: "bd-pos" }, colourList(pos, true),
        Object.keys(pos).length ? h("div", { class: "small muted" },
          Object.keys(pos).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
      h("td", { class: "bd-neg" }, colourList(b.negative, false),
        Object.keys(b.negative || {}).length ? h("div", { class: "small muted" },
          Object.keys(b.negative).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
      h("td", { class: "bd-jokers" }, jokers.length
        ? jokers.map(([c, n]) => jokerItem(c, n, (b.golden_jokers || {})[c] || 0))
        : h("span", { class: "muted" }, "\u2014")),
      h("td", { class: "bd-plus2" }, b.plus2 ? h("span", { class: "bd-item" }, card("plus2", { small: true }), ` \u00d7${b.plus2 / 2} = +${b.plus2}`) : h("span", { class: "muted" }, "\u2014"))));
  }
  return h("section", { class: "result", "aria-label": "Final result", "data-testid": "result" },
    h("h2", {}, match ? `Match over (${result.match_games} games)` : "Game over"),
    match ? h("p", { class: "small", "data-testid": "match-note" }, "Ranks are by match totals (the sum of every game\u2019s score); the colour breakdown is of the last game.") : null,
    h("div", { class: "table-scroll" }, h("table", { class: "breakdown" },
      h("thead", {}, h("tr", {}, ["Rank", "Player", match ? "Match total" : "Total", ...games.map((_, g) => `Game ${g + 1}`), "Positive colours", "Negative colours", "Jokers went to", "\u201c+2\u201d"].map((t) => h("th", { scope: "col" }, t)))),
      body)),
    controls.length ? h("div", { class: "result-controls" }, controls) : null);
}
