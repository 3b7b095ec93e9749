// The board: status line, rows, players with their collections. Built only from what the
// server sends (a coloretto-observation/1 object, the seats, the legal actions); no rules
// are computed here. Shared by the live table (with action buttons) and the replay viewer.
import { h, seatLabel } from "./api.js";
import { card, drawPile, slot, COLORS, LABELS } from "./cards.js";

const SCORE_TABLES = { brown: [1, 3, 6, 10, 15, 21], violet: [1, 4, 8, 7, 6, 5] };

/** True when `legal` (list of JSON actions) holds an action equal to `a`. */
export function isLegal(legal, a) {
  return (legal || []).some((x) => sameAction(x, a));
}

/** Two JSON actions are the same action. */
export function sameAction(x, a) {
  if (!x || !a || x.action !== a.action) return false;
  if (a.action === "place" || a.action === "take") return x.row === a.row;
  if (a.action === "choose_start") return x.color === a.color;
  return true;
}

/** One line describing the rules of a table (the `rules` object of docs/rules.md §7). */
export function rulesSummary(rules, extra = {}) {
  if (!rules) return "";
  const parts = [`${rules.players} players`, rules.edition, `${rules.table} score table`];
  if (rules.starting_cards === "choose") parts.push("choose starting cards");
  if (rules.next_round_starter === "left_of_last_taker") parts.push("next round: left of last taker");
  if (rules.joker_any_color === false) parts.push("jokers only to held colours");
  if (rules.match_games > 1) parts.push(`match of ${rules.match_games} games`);
  if (rules.extra_card) parts.push(`extra: ${rules.extra_card.replaceAll("_", " ")}`);
  if (rules.row_capacities) parts.push(`rows ${rules.row_capacities.join("/")}`);
  if (extra.hints) parts.push("hints on");
  if (extra.rated === false) parts.push("unrated");
  return parts.join(" \u00b7 ");
}

function seatName(seats, s) {
  return seatLabel((seats || [])[s]) || `Seat ${s + 1}`;
}

/** The text saying whose turn it is (and what they decide). */
export function turnText(obs, seats, mySeat, status) {
  if (status === "open") return "Waiting for players\u2026";
  if (!obs || obs.decision === "over" || status === "finished") return "Game over";
  const mine = mySeat !== null && mySeat !== undefined && obs.to_move === mySeat;
  const who = mine ? "Your turn" : `${seatName(seats, obs.to_move)} to move`;
  const what = {
    turn: mine ? "draw a card or take a row" : "draw or take",
    place: mine ? "choose a row for the drawn card" : "placing the drawn card",
    choose_start: mine ? "choose your starting colour" : "choosing a starting colour",
  }[obs.decision] || obs.decision;
  return `${who}: ${what}`;
}

/**
 * The status bar: round, cards left, Last Round warning, whose turn.
 */
export function statusBar(obs, seats, mySeat, status) {
  const mine = obs && status === "playing" && mySeat !== null && obs.to_move === mySeat && obs.decision !== "over";
  return h("section", { class: "statusbar" + (mine ? " my-turn" : ""), "aria-label": "Game status" },
    obs && obs.rules && obs.rules.match_games > 1 ? h("span", { class: "stat", "data-testid": "match-game" },
      h("span", { class: "stat-label" }, "Game "), h("b", {}, `${obs.game} of ${obs.rules.match_games}`)) : null,
    obs ? h("span", { class: "stat" }, h("span", { class: "stat-label" }, "Round "), h("b", {}, String(obs.round))) : null,
    obs && obs.decision !== "choose_start" ? h("span", { class: "stat stat-cards", title: "cards left in the draw pile (Last Round card not counted)" },
      h("span", { class: "stat-label" }, "Cards left "), h("b", { "data-testid": "cards-left" }, String(obs.draw_pile))) : null,
    obs && obs.last_round ? h("span", { class: "last-round", role: "alert", title: "The Last Round card has been drawn." },
      "\u26a0 Last round!", h("span", { class: "sr-only" }, " The Last Round card has been drawn.")) : null,
    h("span", { class: "turn", "aria-live": "polite", "data-testid": "turn" }, turnText(obs, seats, mySeat, status)));
}

/** The texts of the rows and players panels (people see them). */
export const TEXT = {
  drew: (who) => `${who} drew`,
  drawButton: "Draw a card ",
  startingColour: "Starting colour: ",
  placeHere: "Place here ",
  takeRow: "Take row ",
  row: (n) => `Row ${n}`,
  rowsLabel: "Rows",
  capTitle: "cards / capacity",
  takenBy: (who) => `taken by ${who}`,
  rowsPanel: "Rows and draw pile",
  revealSpot: "the drawn card is shown here",
  lastRoundAside: "Last round",
  lastRoundAsideTitle: "The Last Round card has come up: this round is the last",
  noCards: "no cards yet",
  you: "you",
  toMove: "\u25b6 to move",
  out: "out this round",
  outShort: "out",
  outRest: " this round",
  computer: "computer",
  computerPlays: (agent) => `computer (${agent}) plays`,
  disconnected: "disconnected",
  disconnectedFor: (s) => `disconnected ${s}s`,
  waiting: "waiting for a player",
  liveScoreTitle: "live score (best joker assignment)",
  points: (n) => `${n} pts`,
  players: "Players",
  opponents: "Opponents",
  yourSeat: "Your seat",
};

/**
 * The kind of row card a row sits on: "brown" (the five capacity-3 row cards) or "green"
 * (the two-player row cards and the Extrakarten rows of other capacities), docs/rules.md §1, §2
 * and §7 (`row_capacities`).
 * Only the look depends on it.
 */
export function rowKind(rules, row) {
  return (rules && rules.players === 2) || row.capacity !== 3 ? "green" : "brown";
}

/**
 * The rows panel (the table's felt): the face-down draw pile with the cards left, the spot
 * where the drawn card is shown, the Last Round card once it has come up, and the rows on
 * their row cards; with the action buttons when `onAction` is given. Only actions in
 * `legal` are enabled; every button carries data-key for focus restoring. `hint` (an
 * action) is highlighted.
 */
export function rowsPanel(obs, seats, { legal = [], onAction = null, hint = null, pending = false } = {}) {
  const btn = (a, label, key, shortcut) => {
    const ok = isLegal(legal, a) && !pending;
    return h("button", {
      class: "action" + (hint && sameAction(hint, a) ? " hinted" : ""),
      disabled: !ok, "data-key": key, "data-action": a.action, "data-testid": `action-${a.action}`,
      "aria-keyshortcuts": shortcut || null,
      onclick: () => ok && onAction(a),
    }, label, shortcut ? h("kbd", {}, shortcut) : null);
  };
  const myTurn = (legal || []).length > 0;
  if (!myTurn) onAction = null; // buttons only for the person to move
  const parts = [];
  // The draw pile, the drawn card (shown before its row is chosen) and the draw button.
  const top = h("div", { class: "pile-area" });
  if (obs.decision !== "choose_start") top.append(drawPile(obs.draw_pile));
  if (obs.drawn_card) {
    top.append(h("div", { class: "drawn", "data-testid": "drawn-card" },
      card(obs.drawn_card, { big: true }),
      h("span", { class: "drawn-text" },
        h("span", { class: "drawn-label" }, TEXT.drew(seatName(seats, obs.to_move))),
        h("span", { class: "drawn-name" }, LABELS[obs.drawn_card] || obs.drawn_card))));
  } else if (onAction && obs.decision === "turn") {
    top.append(btn({ action: "draw" }, TEXT.drawButton, "draw", "D"));
  } else if (obs.decision !== "choose_start") {
    top.append(h("div", { class: "reveal-spot", title: TEXT.revealSpot, "aria-hidden": "true" }));
  }
  if (obs.last_round) {
    top.append(h("div", { class: "aside", title: TEXT.lastRoundAsideTitle },
      card("last_round", { small: true }), h("span", { class: "aside-text" }, TEXT.lastRoundAside)));
  }
  if (onAction && obs.decision === "choose_start") {
    const colours = obs.colors || COLORS;
    top.append(h("div", { class: "choose" }, h("span", {}, TEXT.startingColour),
      colours.map((c, i) => btn({ action: "choose_start", color: c }, [card(c, { small: true }), " ", c, " "],
        `choose-${c}`, String(i + 1)))));
  }
  parts.push(top);
  const rows = h("ol", { class: "rows", "aria-label": TEXT.rowsLabel });
  obs.rows.forEach((row, r) => {
    const taken = row.taken_by !== null && row.taken_by !== undefined;
    const cards = row.cards.map((c) => card(c));
    for (let i = row.cards.length; i < row.capacity; i++) cards.push(slot());
    const buttons = [];
    if (onAction && !taken && obs.decision === "place") {
      buttons.push(btn({ action: "place", row: r }, TEXT.placeHere, `place-${r}`, String(r + 1)));
    } else if (onAction && !taken && obs.decision === "turn") {
      buttons.push(btn({ action: "take", row: r }, TEXT.takeRow, `take-${r}`, String(r + 1)));
    }
    rows.append(h("li", { class: `row row-${rowKind(obs.rules, row)}` + (taken ? " taken" : ""), "data-row": r },
      h("div", { class: "row-head" },
        h("span", { class: "row-name" }, TEXT.row(r + 1)),
        h("span", { class: "row-cap", title: TEXT.capTitle }, `${row.cards.length}/${row.capacity}`)),
      h("div", { class: "row-cards" }, cards),
      taken ? h("span", { class: "row-actions badge taken-by" }, TEXT.takenBy(seatName(seats, row.taken_by))) : null,
      buttons.length ? h("div", { class: "row-actions" }, buttons) : null));
  });
  parts.push(rows);
  return h("section", { class: "rows-panel", "aria-label": TEXT.rowsPanel }, parts);
}

/**
 * A collection (observation `collections[s]`) grouped by colour: one card per colour with
 * its count, then jokers, golden jokers and "+2" cards. `opts.mini`: tiny chips (the
 * opponents' summaries); `opts.stacks`: each group drawn as a stack (your own seat).
 */
export function collectionView(coll, colours, opts = {}) {
  const items = [];
  const order = [...(colours || COLORS)];
  for (const c of Object.keys(coll.colors || {})) if (!order.includes(c)) order.push(c);
  const chip = (name, n) => h("li", { class: opts.stacks ? `stack stack-${Math.min(n, 4)}` : null, "data-card": name },
    card(name, { small: !opts.mini && !opts.stacks, mini: opts.mini, count: n }));
  for (const c of order) {
    const n = (coll.colors || {})[c] || 0;
    if (n > 0) items.push(chip(c, n));
  }
  if (coll.jokers) items.push(chip("joker", coll.jokers));
  if (coll.golden_jokers) items.push(chip("golden_joker", coll.golden_jokers));
  if (coll.plus2) items.push(chip("plus2", coll.plus2));
  if (!items.length) return h("p", { class: "collection-empty muted small" }, TEXT.noCards);
  return h("ul", { class: "collection" + (opts.mini ? " mini" : "") + (opts.stacks ? " stacks" : "") }, items);
}

/**
 * One seat: name, state badges, live score and collection. With `presence` false (the
 * replay) the seat shows no live state: no "disconnected" time, no hand-over.
 */
function seatItem(obs, seats, s, mySeat, { controls, awayOf, status, presence, compact }) {
  const seat = (seats || [])[s] || { seat: s, kind: "open" };
  const toMove = obs && status === "playing" && obs.decision !== "over" && obs.to_move === s;
  const handed = presence && seat.kind === "computer" && seat.handed_over;
  const badges = [];
  if (s === mySeat) badges.push(h("span", { class: "badge you" }, TEXT.you));
  if (toMove) badges.push(h("span", { class: "badge tomove" }, TEXT.toMove));
  if (obs && obs.out && obs.out[s] && status === "playing") {
    badges.push(compact ? h("span", { class: "badge out", title: TEXT.out }, TEXT.outShort, h("span", { class: "sr-only" }, TEXT.outRest))
      : h("span", { class: "badge out" }, TEXT.out));
  }
  // a computer's own seat is named "Computer 2 (easy)": the compact strip needs no badge
  if (seat.kind === "computer" && (handed || (!seat.handed_over && !compact))) {
    badges.push(h("span", { class: "badge computer" }, handed ? TEXT.computerPlays(seat.agent) : TEXT.computer));
  }
  if (presence && seat.kind === "human" && !seat.connected) {
    const away = awayOf ? awayOf(s) : seat.away_seconds;
    badges.push(h("span", { class: "badge offline", "data-testid": "disconnected" },
      away !== null && away !== undefined ? TEXT.disconnectedFor(Math.floor(away)) : TEXT.disconnected));
  }
  if (seat.kind === "open") badges.push(h("span", { class: "badge open" }, TEXT.waiting));
  const coll = obs ? obs.collections[s] : null;
  const cls = ["player", toMove ? "to-move" : "", s === mySeat ? "me" : "", handed ? "handed" : "",
    compact ? "compact" : ""].filter(Boolean).join(" ");
  // your own seat's controls ("Leaving?") sit in its head line, to keep the seat short
  // In the compact strip the badges open the line of cards under the name.
  const extra = controls ? controls(s) : null;
  const badgeList = badges.length ? h("span", { class: "badges" }, badges) : null;
  const collection = coll ? collectionView(coll, obs.colors, { mini: compact, stacks: !compact }) : null;
  return h("li", { class: cls, "data-seat": s },
    h("div", { class: "player-head" },
      h("span", { class: "player-name" }, seatLabel(seat)),
      compact ? null : badgeList,
      s === mySeat && !compact ? extra : null,
      obs ? h("span", { class: "score", title: TEXT.liveScoreTitle }, TEXT.points(obs.scores[s])) : null),
    compact ? (badgeList || collection ? h("div", { class: "player-body" }, badgeList, collection) : null) : collection,
    s === mySeat && !compact ? null : extra);
}

/**
 * The players panel: one item per seat with name, state badges, live score and collection.
 * `which`: "all" (every seat), "others" (every seat but `mySeat`: the opponents' strip,
 * compact) or "mine" (only `mySeat`, with its cards as stacks); null when it has no seat.
 * `controls(seatIndex)` may return extra nodes (hand-over buttons...); `presence` false
 * hides the live state (disconnected, handed over) for the replay.
 */
export function playersPanel(obs, seats, mySeat, { controls = null, awayOf = null, status = "playing",
  presence = true, which = "all", compact = false } = {}) {
  const n = obs ? obs.rules.players : seats.length;
  const seatsShown = [];
  for (let s = 0; s < n; s++) {
    if (which === "others" && s === mySeat) continue;
    if (which === "mine" && s !== mySeat) continue;
    seatsShown.push(s);
  }
  if (!seatsShown.length) return null;
  const label = which === "mine" ? TEXT.yourSeat : which === "others" && mySeat !== null && mySeat !== undefined ? TEXT.opponents : TEXT.players;
  const list = h("ul", { class: "players", "aria-label": TEXT.players },
    seatsShown.map((s) => seatItem(obs, seats, s, mySeat, { controls, awayOf, status, presence, compact: which === "others" || compact })));
  return h("section", { class: `players-panel players-${which}`, "aria-label": label }, list);
}

/**
 * The match standing (tables with `match_games` > 1; null otherwise): every seat's total of
 * the finished games (`obs.match_totals`) plus its live score in the current game, best
 * first, with shared ranks. At the end of the match the observation's live scores are those
 * of the last game, already counted in `match_totals`, so only the totals are shown.
 */
export function matchStanding(obs, seats, mySeat, status = "playing") {
  if (!obs || !obs.rules || !(obs.rules.match_games > 1)) return null;
  const over = obs.decision === "over" || status === "finished";
  const totals = obs.match_totals.map((t, s) => (over ? t : t + obs.scores[s]));
  const order = totals.map((_, s) => s).sort((a, b) => totals[b] - totals[a] || a - b);
  const finished = over ? obs.rules.match_games : obs.game - 1;
  return h("section", { class: "match-standing", "aria-label": "Match standing", "data-testid": "match-standing" },
    h("h2", {}, over ? "Match totals" : `Match standing \u2013 game ${obs.game} of ${obs.rules.match_games}`),
    h("ol", { class: "standing" }, order.map((s) => h("li", { "data-seat": s, class: s === mySeat ? "me" : "" },
      h("span", { class: "rank" }, `${1 + totals.filter((t) => t > totals[s]).length}.`), " ",
      h("span", { class: "player-name" }, seatName(seats, s)), " ",
      h("b", { class: "match-total" }, String(totals[s])),
      over ? null : h("span", { class: "small muted" },
        ` (${obs.match_totals[s]} from ${finished} finished game${finished === 1 ? "" : "s"} + ${obs.scores[s]} now)`)))));
}

/** The score table of `rules.table` as a small legend (docs/rules.md §6). */
export function scoreLegend(rules) {
  const values = SCORE_TABLES[rules && rules.table] || SCORE_TABLES.brown;
  return h("details", { class: "legend", "data-keep": "legend" },
    h("summary", { "data-testid": "legend" }, `Scoring (${(rules && rules.table) || "brown"} table)`),
    h("table", {},
      h("tr", {}, h("th", {}, "cards"), ["1", "2", "3", "4", "5", "6+"].map((x) => h("td", {}, x))),
      h("tr", {}, h("th", {}, "points"), values.map((x) => h("td", {}, String(x))))),
    h("p", { class: "small" }, "Three colours count positive, the others negative. Jokers join a colour of your choice (the best is counted). Each \u201c+2\u201d adds 2."),
    h("p", { class: "small" }, "Card letters: B blue, N brown, G gray, E green, O orange, P pink, Y yellow, J joker, * golden joker, +2."));
}
