// Readable text of the public game log (docs/web-api.md, state.log) and the end-of-game
// breakdown (state.result). Display only: every number comes from the server.
import { h, seatLabel } from "./api.js";
import { card, cardText, LABELS } from "./cards.js";

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
    if (entry.bonus) body.push(" and gets the bonus card ", cardText(entry.bonus));
  } else if (a.action === "choose_start") {
    body = [" starts with ", cardText(a.color)];
  } else {
    body = [` ${JSON.stringify(a)}`];
  }
  return h("li", { "data-i": entry.i }, h("span", { class: "log-i" }, `${entry.i + 1}.`), " ", who, body);
}

/** The action of a log entry as plain text (for replay captions and screen readers). */
export function logText(entry, seats) {
  const who = entry.seat === null || entry.seat === undefined ? "?" : seatLabel((seats || [])[entry.seat]);
  const a = entry.action || {};
  const c = entry.card ? LABELS[entry.card] || entry.card : "a card";
  if (a.action === "draw") return `${who} draws ${c}`;
  if (a.action === "place") return `${who} places ${c} in row ${a.row + 1}`;
  if (a.action === "take") return `${who} takes row ${a.row + 1}`;
  if (a.action === "choose_start") return `${who} starts with ${a.color}`;
  return `${who}: ${JSON.stringify(a)}`;
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
      h("td", {}, colourList(pos, true),
        Object.keys(pos).length ? h("div", { class: "small muted" },
          Object.keys(pos).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
      h("td", {}, colourList(b.negative, false),
        Object.keys(b.negative || {}).length ? h("div", { class: "small muted" },
          Object.keys(b.negative).map((c) => cardsOf(c, counts[c] || 0)).join(", ")) : null),
      h("td", {}, jokers.length
        ? jokers.map(([c, n]) => h("span", { class: "bd-item" }, card("joker", { small: true }), ` \u2192 ${LABELS[c] || c}${n > 1 ? ` \u00d7${n}` : ""}`))
        : h("span", { class: "muted" }, "\u2014")),
      h("td", {}, b.plus2 ? h("span", { class: "bd-item" }, card("plus2", { small: true }), ` \u00d7${b.plus2 / 2} = +${b.plus2}`) : h("span", { class: "muted" }, "\u2014"))));
  }
  const match = result.breakdowns && result.breakdowns.length && result.scores.some((sc, s) => (result.breakdowns[s] || {}).total !== sc);
  return h("section", { class: "result", "aria-label": "Final result", "data-testid": "result" },
    h("h2", {}, "Game over"),
    match ? h("p", { class: "small" }, "Totals are match totals; the breakdown is of the last game.") : null,
    h("div", { class: "table-scroll" }, h("table", { class: "breakdown" },
      h("thead", {}, h("tr", {}, ["Rank", "Player", "Total", "Positive colours", "Negative colours", "Jokers went to", "\u201c+2\u201d"].map((t) => h("th", { scope: "col" }, t)))),
      body)),
    controls.length ? h("div", { class: "result-controls" }, controls) : null);
}
