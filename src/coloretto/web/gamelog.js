// Readable text of the public game log (docs/web-api.md, state.log) and the end-of-game
// breakdown (state.result). Display only: every number comes from the server.
import { agentName, h, seatLabel } from "./api.js";
import { card, cardText, labelOf } from "./cards.js";
import { formatList, formatNumber, t } from "./i18n.js";

/** The texts of this module that mark a computer player's moves (people see them). */
export const TEXT = {
  byComputer: (agent) => t("log.by_computer", { agent: agentName(agent) }),
  byComputerTitle: () => t("log.by_computer_title"),
};

/**
 * A text of the catalogs with some parameters as nodes (cards drawn as chips): `key`'s
 * string is cut at its `{name}` places and `nodes[name]` put there; other parameters are
 * filled in as text. Returns a list of strings and nodes for h().
 */
function rich(key, params, nodes) {
  const marked = {};
  for (const name of Object.keys(nodes)) marked[name] = `\u0000${name}\u0000`;
  const text = t(key, { ...params, ...marked });
  return text.split("\u0000").map((part, k) => (k % 2 ? nodes[part] : part)).filter((x) => x !== "");
}

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
  if (!a) return t("action.none");
  if (a.action === "draw") return t("action.draw");
  if (a.action === "place") return t("action.place", { n: a.row + 1 });
  if (a.action === "take") return t("action.take", { n: a.row + 1 });
  if (a.action === "choose_start") return t("action.choose_start", { colour: labelOf(a.color) });
  return String(a.action);
}

/** One log entry as a list item: "Ann draws [E] green", "Bob takes row 2: [E][+2]". */
export function logLine(entry, seats) {
  const who = h("b", {}, entry.seat === null || entry.seat === undefined ? "?" : seatLabel((seats || [])[entry.seat]));
  const a = entry.action || {};
  let body;
  const someCard = () => t("log.a_card");
  if (a.action === "draw") {
    body = rich("log.draws", {}, { name: who, card: entry.card ? cardText(entry.card) : someCard() });
  } else if (a.action === "place") {
    body = rich("log.places", { n: a.row + 1 }, { name: who, card: entry.card ? cardText(entry.card) : someCard() });
  } else if (a.action === "take") {
    const cards = entry.cards || [];
    body = rich(cards.length ? "log.takes_cards" : "log.takes", { n: a.row + 1 },
      { name: who, cards: h("span", { class: "log-cards" }, cards.map((c) => card(c, { small: true }))) });
    const bonus = entry.bonus_cards || (entry.bonus ? [entry.bonus] : []);
    if (bonus.length) {
      body.push(" ", ...rich("log.bonus", { count: bonus.length },
        { cards: h("span", {}, bonus.flatMap((c, k) => (k ? [", ", cardText(c)] : [cardText(c)]))) }));
    }
  } else if (a.action === "choose_start") {
    body = rich("log.starts", {}, { name: who, card: cardText(a.color) });
  } else {
    body = [who, `: ${actionText(a)}`];
  }
  const auto = playedForPerson(entry, seats);
  return h("li", { "data-i": entry.i, class: auto ? "auto" : null }, h("span", { class: "log-i" }, `${entry.i + 1}.`), " ", body,
    auto ? [" ", h("span", { class: "badge computer log-auto", "data-testid": "log-auto", title: TEXT.byComputerTitle() }, TEXT.byComputer(entry.agent))] : null,
    entry.timeout ? [" ", h("span", { class: "badge log-timeout", "data-testid": "log-timeout" }, t("clock.timed_out"))] : null);
}

/** The round / game heading a log entry opens, or null ("Round 3", "Game 2 · Round 1"). */
export function separatorText(entry, prev) {
  if (!entry || entry.round === undefined) return null;
  const newGame = entry.game !== undefined && (!prev || prev.game !== entry.game);
  if (!newGame && prev && prev.round === entry.round) return null;
  return newGame ? t("log.game_round", { game: entry.game, round: entry.round }) : t("log.round", { round: entry.round });
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
      card("last_round", { small: true }), " ", t(entry.game !== undefined ? "log.last_round_game" : "log.last_round")));
  }
  if (entry.game !== undefined && entry.game_scores) {
    items.push(h("li", { class: "log-note", "data-testid": "game-end-line" }, t("log.game_over", { game: entry.game,
      scores: entry.game_scores.map((sc, s) => `${seatLabel((seats || [])[s])} ${formatNumber(sc)}`).join(", ") })));
  }
  return items;
}

/** The action of a log entry as plain text (for replay captions and screen readers). */
export function logText(entry, seats) {
  const who = (entry.seat === null || entry.seat === undefined ? "?" : seatLabel((seats || [])[entry.seat])) +
    (playedForPerson(entry, seats) ? ` (${TEXT.byComputer(entry.agent)})` : "") +
    (entry.timeout ? ` (${t("clock.timed_out")})` : "");
  const a = entry.action || {};
  const c = entry.card ? labelOf(entry.card) : t("log.a_card");
  if (a.action === "draw") return t(entry.last_round ? "log.text.draws_last" : "log.text.draws", { name: who, card: c });
  if (a.action === "place") return t("log.text.places", { name: who, card: c, n: a.row + 1 });
  if (a.action === "take") {
    const bonus = entry.bonus_cards || (entry.bonus ? [entry.bonus] : []);
    return t("log.text.takes", { name: who, n: a.row + 1 }) +
      (bonus.length ? " " + t("log.bonus", { count: bonus.length, cards: bonus.map(labelOf).join(", ") }) : "") +
      (entry.last_round ? " " + t("log.text.last_round") : "");
  }
  if (a.action === "choose_start") return t("log.text.starts", { name: who, card: labelOf(a.color) });
  return `${who}: ${actionText(a)}`;
}

/** "2 jokers (1 golden) → green": `n` jokers (regular and golden) assigned to `colour`,
 * `golden` of them golden. */
export function jokerText(colour, n, golden) {
  const what = golden === n ? t("end.golden_jokers", { count: n })
    : golden ? t("end.jokers_golden", { count: n, golden }) : t("end.jokers", { count: n });
  return `${what} \u2192 ${labelOf(colour)}`;
}

function jokerItem(colour, n, golden) {
  return h("span", { class: "bd-item", "data-joker": colour },
    card(golden === n ? "golden_joker" : "joker", { small: true }), " ", jokerText(colour, n, golden));
}

function cardsOf(colour, n) {
  return t("end.colour_cards", { colour: labelOf(colour), count: n });
}

function ordinal(n) {
  return n >= 1 && n <= 5 ? t(`end.rank.${n}`) : `${n}.`;
}

function colourList(obj, sign) {
  const entries = Object.entries(obj || {});
  if (!entries.length) return h("span", { class: "muted" }, "\u2014");
  return h("span", { class: "bd-list" }, entries.map(([colour, pts]) => h("span", { class: "bd-item" },
    card(colour, { small: true }), ` ${labelOf(colour)} ${sign && pts > 0 ? "+" : ""}${pts}`)));
}

/**
 * The game of a match whose breakdown the end-of-match panel shows, by table (the result's
 * `record_url`), so that the choice stays while the page redraws. Absent: the last game.
 */
const shownGame = new Map();

/** One player's breakdown cells (positive colours, negative colours, jokers, "+2"). */
function breakdownCells(b) {
  const counts = b.counts || {};
  const pos = b.positive || {};
  const jokers = Object.entries(b.jokers || {});
  return [
    h("td", { class: "bd-pos" }, colourList(pos, true),
      Object.keys(pos).length ? h("div", { class: "small muted" },
        Object.keys(pos).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
    h("td", { class: "bd-neg" }, colourList(b.negative, false),
      Object.keys(b.negative || {}).length ? h("div", { class: "small muted" },
        Object.keys(b.negative).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
    h("td", { class: "bd-jokers" }, jokers.length
      ? jokers.map(([c, n]) => jokerItem(c, n, (b.golden_jokers || {})[c] || 0))
      : h("span", { class: "muted" }, "\u2014")),
    h("td", { class: "bd-plus2" }, b.plus2 ? h("span", { class: "bd-item" }, card("plus2", { small: true }), ` \u00d7${b.plus2 / 2} = +${b.plus2}`) : h("span", { class: "muted" }, "\u2014")),
  ];
}

/**
 * The end-of-game panel: ranks and each player's full breakdown (positive and negative
 * colours with points, where the jokers went, "+2"), from `result` of docs/web-api.md.
 * `counts` (cards per colour, jokers included) are shown next to the points. After a
 * match: a column per game and the match total; the breakdown is of one game, chosen with
 * the "Game N" buttons (`result.game_breakdowns`; the last game at first), whose score
 * column is marked.
 */
export function resultPanel(result, seats, mySeat, controls = []) {
  const match = (result.match_games || 1) > 1;
  const games = match ? result.game_scores || [] : [];
  const perGame = match ? result.game_breakdowns || [] : [];
  const key = result.record_url || "";
  const shown = perGame.length ? Math.min(shownGame.get(key) ?? perGame.length - 1, perGame.length - 1) : games.length - 1;
  const breakdowns = perGame.length ? perGame[shown] : result.breakdowns || [];
  const order = result.scores.map((_, s) => s).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  const body = h("tbody", {});
  for (const s of order) {
    body.append(h("tr", { class: (result.winners || []).includes(s) ? "winner" : "", "data-seat": s },
      h("td", { class: "rank" }, ordinal(result.ranks[s]), (result.winners || []).includes(s) ? [h("br", {}), h("span", { class: "badge winner" }, "\u2605 ", t("end.winner"))] : ""),
      h("th", { scope: "row" }, seatLabel((seats || [])[s]), s === mySeat ? ` (${t("badge.you")})` : ""),
      h("td", { class: "total" }, String(result.scores[s])),
      games.map((g, k) => h("td", { class: k === shown ? "game-score shown" : "game-score", "data-label": `${t("end.game", { n: k + 1 })}: ` }, String(g[s]))),
      breakdownCells(breakdowns[s] || {})));
  }
  const heads = [t("end.col.rank"), t("end.col.player"), match ? t("end.col.match_total") : t("end.col.total"),
    ...games.map((_, g) => t("end.game", { n: g + 1 })), t("end.col.positive"), t("end.col.negative"),
    t("end.col.jokers"), t("end.col.plus2")];
  const gameCols = new Set(games.map((_, g) => 3 + g));
  const panel = h("section", { class: "result", "aria-label": t("end.label"), "data-testid": "result", "data-shown-game": match ? shown : null },
    h("h2", {}, match ? t("end.match_over", { count: result.match_games }) : t("end.game_over")),
    match ? h("p", { class: "small", "data-testid": "match-note" }, t("end.match_note")) : null,
    perGame.length > 1 ? h("div", { class: "result-games", role: "group", "aria-label": t("end.breakdown_game") },
      h("span", { class: "small" }, t("end.breakdown_game")),
      perGame.map((_, g) => h("button", {
        type: "button", "data-testid": "result-game", "data-game": g, "aria-pressed": String(g === shown),
        class: g === shown ? "primary" : null,
        onclick: () => {
          shownGame.set(key, g);
          const again = resultPanel(result, seats, mySeat, controls);
          panel.replaceWith(again);
          again.querySelector(`[data-testid=result-game][data-game="${g}"]`)?.focus();
        },
      }, t("end.game", { n: g + 1 })))) : null,
    h("div", { class: "table-scroll" }, h("table", { class: "breakdown" },
      h("thead", {}, h("tr", {}, heads.map((text, k) => h("th", { scope: "col", class: gameCols.has(k) && k - 3 === shown ? "shown" : null }, text)))),
      body)),
    controls.length ? h("div", { class: "result-controls" }, controls) : null);
  return panel;
}
