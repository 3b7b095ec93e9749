// The board: status line, rows, players with their collections. Built only from what the
// server sends (a coloretto-observation/1 object, the seats, the legal actions); no rules
// are computed here. Shared by the live table (with action buttons) and the replay viewer.
import { h, seatLabel } from "./api.js";
import { card, slot, COLORS, LABELS } from "./cards.js";

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
    obs && obs.decision !== "choose_start" ? h("span", { class: "stat", title: "cards left in the draw pile (Last Round card not counted)" },
      h("span", { class: "stat-label" }, "Cards left "), h("b", { "data-testid": "cards-left" }, String(obs.draw_pile))) : null,
    obs && obs.last_round ? h("span", { class: "last-round", role: "alert" }, "\u26a0 Last round! The Last Round card has been drawn.") : null,
    h("span", { class: "turn", "aria-live": "polite", "data-testid": "turn" }, turnText(obs, seats, mySeat, status)));
}

/**
 * The rows panel, with the drawn card and (when `onAction` is given) the action buttons.
 * Only actions in `legal` are enabled; every button carries data-key for focus restoring.
 * `hint` (an action) is highlighted.
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
  // Drawn card (shown before its row is chosen) and the draw button.
  const top = h("div", { class: "pile-area" });
  if (obs.drawn_card) {
    top.append(h("div", { class: "drawn", "data-testid": "drawn-card" },
      h("span", { class: "drawn-label" }, `${seatName(seats, obs.to_move)} drew`),
      card(obs.drawn_card, { big: true }),
      h("span", { class: "drawn-name" }, LABELS[obs.drawn_card] || obs.drawn_card)));
  } else if (onAction && obs.decision === "turn") {
    top.append(btn({ action: "draw" }, "Draw a card ", "draw", "D"));
  }
  if (onAction && obs.decision === "choose_start") {
    const colours = obs.colors || COLORS;
    top.append(h("div", { class: "choose" }, h("span", {}, "Starting colour: "),
      colours.map((c, i) => btn({ action: "choose_start", color: c }, [card(c, { small: true }), " ", c, " "],
        `choose-${c}`, String(i + 1)))));
  }
  parts.push(top);
  const rows = h("ol", { class: "rows", "aria-label": "Rows" });
  obs.rows.forEach((row, r) => {
    const taken = row.taken_by !== null && row.taken_by !== undefined;
    const cards = row.cards.map((c) => card(c));
    for (let i = row.cards.length; i < row.capacity; i++) cards.push(slot());
    const buttons = [];
    if (onAction && !taken && obs.decision === "place") {
      buttons.push(btn({ action: "place", row: r }, "Place here ", `place-${r}`, String(r + 1)));
    } else if (onAction && !taken && obs.decision === "turn") {
      buttons.push(btn({ action: "take", row: r }, "Take row ", `take-${r}`, String(r + 1)));
    }
    rows.append(h("li", { class: "row" + (taken ? " taken" : ""), "data-row": r },
      h("div", { class: "row-head" },
        h("span", { class: "row-name" }, `Row ${r + 1}`),
        h("span", { class: "row-cap", title: "cards / capacity" }, `${row.cards.length}/${row.capacity}`),
        taken ? h("span", { class: "badge" }, `taken by ${seatName(seats, row.taken_by)}`) : null),
      h("div", { class: "row-cards" }, cards),
      buttons.length ? h("div", { class: "row-actions" }, buttons) : null));
  });
  parts.push(rows);
  return h("section", { class: "rows-panel", "aria-label": "Rows and draw pile" }, parts);
}

/** A collection (observation `collections[s]`) grouped by colour: chips with counts. */
export function collectionView(coll, colours) {
  const items = [];
  const order = [...(colours || COLORS)];
  for (const c of Object.keys(coll.colors || {})) if (!order.includes(c)) order.push(c);
  for (const c of order) {
    const n = (coll.colors || {})[c] || 0;
    if (n > 0) items.push(h("li", {}, card(c, { small: true, count: n })));
  }
  if (coll.jokers) items.push(h("li", {}, card("joker", { small: true, count: coll.jokers })));
  if (coll.golden_jokers) items.push(h("li", {}, card("golden_joker", { small: true, count: coll.golden_jokers })));
  if (coll.plus2) items.push(h("li", {}, card("plus2", { small: true, count: coll.plus2 })));
  if (!items.length) return h("p", { class: "muted small" }, "no cards yet");
  return h("ul", { class: "collection" }, items);
}

/**
 * The players panel: one card per seat with name, state badges, live score and collection.
 * `controls(seatIndex)` may return extra nodes (hand-over buttons...).
 */
export function playersPanel(obs, seats, mySeat, { controls = null, awayOf = null, status = "playing" } = {}) {
  const list = h("ul", { class: "players", "aria-label": "Players" });
  const n = obs ? obs.rules.players : seats.length;
  for (let s = 0; s < n; s++) {
    const seat = (seats || [])[s] || { seat: s, kind: "open" };
    const toMove = obs && status === "playing" && obs.decision !== "over" && obs.to_move === s;
    const badges = [];
    if (s === mySeat) badges.push(h("span", { class: "badge you" }, "you"));
    if (toMove) badges.push(h("span", { class: "badge tomove" }, "\u25b6 to move"));
    if (obs && obs.out && obs.out[s] && status === "playing") badges.push(h("span", { class: "badge out" }, "out this round"));
    if (seat.kind === "computer") badges.push(h("span", { class: "badge computer" }, seat.handed_over ? `computer (${seat.agent}) plays` : "computer"));
    if (seat.kind === "human" && !seat.connected) {
      const away = awayOf ? awayOf(s) : seat.away_seconds;
      badges.push(h("span", { class: "badge offline", "data-testid": "disconnected" },
        away !== null && away !== undefined ? `disconnected ${Math.floor(away)}s` : "disconnected"));
    }
    if (seat.kind === "open") badges.push(h("span", { class: "badge open" }, "waiting for a player"));
    const coll = obs ? obs.collections[s] : null;
    list.append(h("li", { class: "player" + (toMove ? " to-move" : "") + (s === mySeat ? " me" : ""), "data-seat": s },
      h("div", { class: "player-head" },
        h("span", { class: "player-name" }, seatLabel(seat)),
        obs ? h("span", { class: "score", title: "live score (best joker assignment)" }, `${obs.scores[s]} pts`) : null),
      h("div", { class: "badges" }, badges),
      coll ? collectionView(coll, obs.colors) : null,
      controls ? controls(s) : null));
  }
  return h("section", { class: "players-panel", "aria-label": "Players" }, list);
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
