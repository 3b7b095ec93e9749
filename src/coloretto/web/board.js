// The board: status line, rows, players with their collections. Built only from what the
// server sends (a coloretto-observation/1 object, the seats, the legal actions); no rules
// are computed here. Shared by the live table (with action buttons) and the replay viewer.
import { agentName, h, seatLabel } from "./api.js";
import { card, drawPile, slot, COLORS, labelOf, letterOf } from "./cards.js";
import { exists, formatList, t } from "./i18n.js";

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
  const parts = [t("summary.players", { count: rules.players }), optionName("edition", rules.edition),
    t("summary.table", { table: optionName("table", rules.table) })];
  if (rules.starting_cards === "choose") parts.push(t("summary.choose_start"));
  if (rules.next_round_starter === "left_of_last_taker") parts.push(t("summary.left_of_last_taker"));
  if (rules.joker_any_color === false) parts.push(t("summary.jokers_held"));
  if (rules.match_games > 1) parts.push(t("summary.match", { count: rules.match_games }));
  if (rules.extra_card) parts.push(t("summary.extra", { card: optionName("extra_card", rules.extra_card) }));
  if (rules.row_capacities) parts.push(t("summary.rows", { capacities: rules.row_capacities.join("/") }));
  if (extra.hints) parts.push(t("summary.hints"));
  if (extra.rated === false) parts.push(t("summary.unrated"));
  return parts.join(" \u00b7 ");
}

/**
 * The name of a value of a rules option (docs/rules.md §7) in the page's language: catalog
 * `option.<option>.<value>` (e.g. option.edition.modern), else the value with spaces.
 */
export function optionName(option, value) {
  const key = `option.${option}.${value === null ? "none" : value}`;
  return exists(key) ? t(key) : String(value).replaceAll("_", " ");
}

function seatName(seats, s) {
  return seatLabel((seats || [])[s]) || t("seat.n", { n: s + 1 });
}

/** The text saying whose turn it is (and what they decide). */
export function turnText(obs, seats, mySeat, status) {
  if (status === "open") return t("turn.waiting");
  if (!obs || obs.decision === "over" || status === "finished") return t("turn.over");
  const mine = mySeat !== null && mySeat !== undefined && obs.to_move === mySeat;
  const known = ["turn", "place", "choose_start"].includes(obs.decision);
  if (!known) return obs.decision;
  return mine ? t(`turn.mine.${obs.decision}`) : t(`turn.other.${obs.decision}`, { name: seatName(seats, obs.to_move) });
}

/**
 * The status bar: round, cards left, Last Round warning, whose turn.
 */
export function statusBar(obs, seats, mySeat, status) {
  const mine = obs && status === "playing" && mySeat !== null && obs.to_move === mySeat && obs.decision !== "over";
  return h("section", { class: "statusbar" + (mine ? " my-turn" : ""), "aria-label": t("status.label") },
    obs && obs.rules && obs.rules.match_games > 1 ? h("span", { class: "stat", "data-testid": "match-game" },
      h("span", { class: "stat-label" }, t("status.game"), " "), h("b", {}, t("status.game_of", { n: obs.game, total: obs.rules.match_games }))) : null,
    obs ? h("span", { class: "stat" }, h("span", { class: "stat-label" }, t("status.round"), " "), h("b", {}, String(obs.round))) : null,
    obs && obs.decision !== "choose_start" ? h("span", { class: "stat stat-cards", title: t("status.cards_left_title") },
      h("span", { class: "stat-label" }, t("status.cards_left"), " "), h("b", { "data-testid": "cards-left" }, String(obs.draw_pile))) : null,
    obs && obs.last_round ? h("span", { class: "last-round", role: "alert", title: t("status.last_round_title") },
      "\u26a0 ", t("status.last_round"), h("span", { class: "sr-only" }, " ", t("status.last_round_title"))) : null,
    h("span", { class: "turn", "aria-live": "polite", "data-testid": "turn" }, turnText(obs, seats, mySeat, status)));
}

/** The texts of the rows and players panels (people see them), in the page's language. */
export const TEXT = {
  drew: (who) => t("board.drew", { name: who }),
  drawButton: () => t("board.draw"),
  startingColour: () => t("board.starting_colour"),
  placeHere: () => t("board.place_here"),
  takeRow: () => t("board.take_row"),
  row: (n) => t("board.row", { n }),
  rowsLabel: () => t("board.rows"),
  capTitle: () => t("board.cap_title"),
  takenBy: (who) => t("board.taken_by", { name: who }),
  rowsPanel: () => t("board.rows_panel"),
  revealSpot: () => t("board.reveal_spot"),
  lastRoundAside: () => t("board.last_round_aside"),
  lastRoundAsideTitle: () => t("board.last_round_aside_title"),
  noCards: () => t("board.no_cards"),
  you: () => t("badge.you"),
  toMove: () => t("badge.to_move"),
  out: () => t("badge.out"),
  outShort: () => t("badge.out_short"),
  outRest: () => t("badge.out_rest"),
  computer: () => t("badge.computer"),
  computerPlays: (agent) => t("badge.computer_plays", { agent: agentName(agent) }),
  disconnected: () => t("badge.disconnected"),
  disconnectedFor: (s) => t("badge.disconnected_for", { count: s }),
  waiting: () => t("badge.waiting"),
  liveScoreTitle: () => t("board.live_score_title"),
  points: (n) => t("board.points", { count: n }),
  players: () => t("board.players"),
  opponents: () => t("board.opponents"),
  yourSeat: () => t("board.your_seat"),
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
 * action) is highlighted. `extra` (a node, e.g. the live table's Hint button) ends the line
 * of the draw pile.
 */
export function rowsPanel(obs, seats, { legal = [], onAction = null, hint = null, pending = false, extra = null } = {}) {
  const btn = (a, label, key, shortcut) => {
    const ok = isLegal(legal, a) && !pending;
    return h("button", {
      class: "action" + (hint && sameAction(hint, a) ? " hinted" : ""),
      disabled: !ok, "data-key": key, "data-action": a.action, "data-testid": `action-${a.action}`,
      "aria-keyshortcuts": shortcut || null,
      onclick: () => ok && onAction(a),
    }, label, shortcut && typeof label === "string" ? " " : null, shortcut ? h("kbd", {}, shortcut) : null);
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
        h("span", { class: "drawn-name" }, labelOf(obs.drawn_card)))));
  } else if (onAction && obs.decision === "turn") {
    top.append(btn({ action: "draw" }, TEXT.drawButton(), "draw", "D"));
  } else if (obs.decision !== "choose_start") {
    top.append(h("div", { class: "reveal-spot", title: TEXT.revealSpot(), "aria-hidden": "true" }));
  }
  if (obs.last_round) {
    top.append(h("div", { class: "aside", title: TEXT.lastRoundAsideTitle() },
      card("last_round", { small: true }), h("span", { class: "aside-text" }, TEXT.lastRoundAside())));
  }
  if (onAction && obs.decision === "choose_start") {
    const colours = obs.colors || COLORS;
    top.append(h("div", { class: "choose" }, h("span", {}, TEXT.startingColour()),
      colours.map((c, i) => btn({ action: "choose_start", color: c }, [card(c, { small: true }), " ", labelOf(c), " "],
        `choose-${c}`, String(i + 1)))));
  }
  if (extra) top.append(extra);
  parts.push(top);
  const rows = h("ol", { class: "rows", "aria-label": TEXT.rowsLabel() });
  obs.rows.forEach((row, r) => {
    const taken = row.taken_by !== null && row.taken_by !== undefined;
    const cards = row.cards.map((c) => card(c));
    for (let i = row.cards.length; i < row.capacity; i++) cards.push(slot());
    const buttons = [];
    if (onAction && !taken && obs.decision === "place") {
      buttons.push(btn({ action: "place", row: r }, TEXT.placeHere(), `place-${r}`, String(r + 1)));
    } else if (onAction && !taken && obs.decision === "turn") {
      buttons.push(btn({ action: "take", row: r }, TEXT.takeRow(), `take-${r}`, String(r + 1)));
    }
    rows.append(h("li", { class: `row row-${rowKind(obs.rules, row)}` + (taken ? " taken" : ""), "data-row": r },
      h("div", { class: "row-head" },
        h("span", { class: "row-name" }, TEXT.row(r + 1)),
        h("span", { class: "row-cap", title: TEXT.capTitle() }, `${row.cards.length}/${row.capacity}`)),
      h("div", { class: "row-cards" }, cards),
      taken ? h("span", { class: "row-actions badge taken-by" }, TEXT.takenBy(seatName(seats, row.taken_by))) : null,
      buttons.length ? h("div", { class: "row-actions" }, buttons) : null));
  });
  parts.push(rows);
  return h("section", { class: "rows-panel", "aria-label": TEXT.rowsPanel() }, parts);
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
  if (!items.length) return h("p", { class: "collection-empty muted small" }, TEXT.noCards());
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
  if (s === mySeat) badges.push(h("span", { class: "badge you" }, TEXT.you()));
  if (toMove) badges.push(h("span", { class: "badge tomove" }, TEXT.toMove()));
  if (obs && obs.out && obs.out[s] && status === "playing") {
    badges.push(compact ? h("span", { class: "badge out", title: TEXT.out() }, TEXT.outShort(), h("span", { class: "sr-only" }, " ", TEXT.outRest()))
      : h("span", { class: "badge out" }, TEXT.out()));
  }
  // a computer's own seat is named "Computer 2 (easy)": the compact strip needs no badge
  if (seat.kind === "computer" && (handed || (!seat.handed_over && !compact))) {
    badges.push(h("span", { class: "badge computer" }, handed ? TEXT.computerPlays(seat.agent) : TEXT.computer()));
  }
  if (presence && seat.kind === "human" && !seat.connected) {
    const away = awayOf ? awayOf(s) : seat.away_seconds;
    badges.push(h("span", { class: "badge offline", "data-testid": "disconnected" },
      away !== null && away !== undefined ? TEXT.disconnectedFor(Math.floor(away)) : TEXT.disconnected()));
  }
  if (seat.kind === "open") badges.push(h("span", { class: "badge open" }, TEXT.waiting()));
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
      obs ? h("span", { class: "score", title: TEXT.liveScoreTitle() }, TEXT.points(obs.scores[s])) : null),
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
  const label = which === "mine" ? TEXT.yourSeat() : which === "others" && mySeat !== null && mySeat !== undefined ? TEXT.opponents() : TEXT.players();
  const list = h("ul", { class: "players", "aria-label": TEXT.players() },
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
  return h("section", { class: "match-standing", "aria-label": t("standing.label"), "data-testid": "match-standing" },
    h("h2", {}, over ? t("standing.totals") : t("standing.heading", { n: obs.game, total: obs.rules.match_games })),
    h("ol", { class: "standing" }, order.map((s) => h("li", { "data-seat": s, class: s === mySeat ? "me" : "" },
      h("span", { class: "rank" }, `${1 + totals.filter((t) => t > totals[s]).length}.`), " ",
      h("span", { class: "player-name" }, seatName(seats, s)), " ",
      h("b", { class: "match-total" }, String(totals[s])),
      over ? null : h("span", { class: "small muted" }, " ",
        t("standing.parts", { count: finished, done: obs.match_totals[s], now: obs.scores[s] }))))));
}

/** The score table of `rules.table` as a small legend (docs/rules.md §6). */
export function scoreLegend(rules) {
  const values = SCORE_TABLES[rules && rules.table] || SCORE_TABLES.brown;
  return h("details", { class: "legend", "data-keep": "legend" },
    h("summary", { "data-testid": "legend" }, t("legend.summary", { table: optionName("table", (rules && rules.table) || "brown") })),
    h("table", {},
      h("tr", {}, h("th", {}, t("legend.cards")), ["1", "2", "3", "4", "5", "6+"].map((x) => h("td", {}, x))),
      h("tr", {}, h("th", {}, t("legend.points")), values.map((x) => h("td", {}, String(x))))),
    h("p", { class: "small" }, t("legend.text")),
    h("p", { class: "small" }, t("legend.letters", { letters: formatList(
      [...COLORS, "joker", "golden_joker", "plus2", "last_round"].map((c) => `${letterOf(c)} ${labelOf(c)}`)) })));
}
