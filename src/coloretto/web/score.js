// The score sheet for a physical table (/score): people add the players, tap each player's
// cards, and see every total with its explanation, the ranks and the winner, at each tap.
// Scores are computed here (scoring.js), the sheet is kept in localStorage (sheetstate.js),
// every string comes from the catalogs (i18n.js), and a service worker (/score-sw.js) keeps
// the page working without a network. docs/web-client.md, "Score sheet".
import { h } from "./api.js";
import { formatList, formatNumber, initI18n, languageSelect, onLanguageChange, t, translateDom } from "./i18n.js";
import { SCORE_TABLES, SCORING_EXTRAS } from "./scoring.js";
import {
  COLOURS, LIMITS, MATCH_GAMES, MAX_NAME, MAX_PLAYERS, SPECIAL, addPlayer, emptyCards, getCount, loadSheet,
  heldByOthers, maxCount, newSheet, otherCards, saveSheet, setCount, standings,
} from "./sheetstate.js";

const main = document.getElementById("main");
const live = document.getElementById("sheet-live");
let sheet = loadSheet();
let liveTimer = null;
let settingsOpen = null; // the settings and colour-name panels, once opened or closed by hand
let namesOpen = null;

// ----- small helpers ------------------------------------------------------------------------
/** A number with its sign: +21, −3, 0. */
function signed(n) {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

/** The name shown for colour `i`: the table's own label, else the colour's name. */
function colourName(i) {
  return sheet.labels[i].trim() || t(`colour.${COLOURS[i]}`);
}

/** A colour chip: the colour with its letter (for colour-blind players); decorative. */
function swatch(kind, index = 0) {
  const name = kind === "colour" ? COLOURS[index] : kind;
  return h("span", { class: `card card-sm swatch c-${name}`, "aria-hidden": "true" },
    h("span", { class: "card-letter" }, t(`letter.${name}`)));
}

function kindName(kind, index) {
  return kind === "colour" ? colourName(index) : t(`card.${kind}`);
}

/** The part of a counter's ids that names the player and the card: "p1-colour-3", "p1-joker". */
function fieldId(player, kind, index) {
  return kind === "colour" ? `${player.id}-colour-${index}` : `${player.id}-${kind}`;
}

/**
 * Make `button` ask for a second tap (within 5 s) before doing something it cannot undo.
 * @param {HTMLButtonElement} button built by the caller (with its id)
 * @returns {HTMLButtonElement} the same button, labelled
 */
function confirmButton(button, labelKey, confirmKey, params, action) {
  button.textContent = t(labelKey, params);
  let timer = null;
  button.addEventListener("click", () => {
    if (button.dataset.armed) {
      clearTimeout(timer);
      action();
      return;
    }
    button.dataset.armed = "1";
    button.textContent = t(confirmKey, params);
    timer = setTimeout(() => { delete button.dataset.armed; button.textContent = t(labelKey, params); }, 5000);
  });
  return button;
}

function save() {
  saveSheet(sheet);
}

/** Rebuild the page, keeping the focus on the same control. */
function render() {
  const focused = document.activeElement && document.activeElement.id;
  document.title = t("sheet.page_title");
  translateDom(document);
  main.replaceChildren(
    h("h1", { id: "sheet-title" }, t("sheet.title")),
    h("p", { class: "muted sheet-intro" }, t("sheet.intro"), " ", t("sheet.last_round_hint")),
    settingsPanel(),
    standingsPanel(),
    playersPanel(),
    actionsPanel(),
    h("p", { id: "offline-status", class: "muted small", "data-state": offlineState }, offlineText()),
  );
  update(null);
  if (focused) document.getElementById(focused)?.focus();
}

// ----- settings -------------------------------------------------------------------------------
/** A fieldset of radio buttons: `radio(v)` builds the input of option `v` (with its id). */
function radioGroup(legendKey, options, value, radio, onChange) {
  return h("fieldset", { class: "choice" },
    h("legend", {}, t(legendKey)),
    options.map(([v, labelText]) => {
      const input = radio(v);
      input.value = String(v);
      input.defaultChecked = v === value;
      input.addEventListener("change", () => onChange(v));
      return h("label", { class: "choice-item" }, input, " ", labelText);
    }));
}

function settingsPanel() {
  const tables = ["brown", "violet"].map((v) => [v, t(`settings.table.${v}`, { values: SCORE_TABLES[v].slice(1).join(", ") })]);
  const extra = h("select", {
    id: "extra",
    onchange: (e) => { sheet.extra = e.target.value || null; save(); render(); },
  },
  h("option", { value: "" }, t("settings.extra.none")),
  SCORING_EXTRAS.map((x) => h("option", { value: x }, t(`settings.extra.${x}`))));
  extra.value = sheet.extra || "";
  const games = sheet.games > 1 ? t("settings.games.match", { count: sheet.games }) : t("settings.games.single");
  const summary = [tables.find(([v]) => v === sheet.table)[1],
    sheet.extra ? t(`settings.extra.${sheet.extra}`) : t("settings.no_extra"), games].join(" \u00b7 ");
  // Open on a new sheet; later folded away (it keeps its state while the page is open).
  const details = h("details", { class: "panel sheet-settings", open: settingsOpen ?? sheet.players.length === 0 },
    h("summary", { "data-testid": "sheet-settings" }, h("h2", { id: "settings-heading" }, t("settings.heading")),
      h("span", { class: "settings-summary muted small" }, summary)),
    radioGroup("settings.table", tables, sheet.table, (v) => h("input", { type: "radio", name: "table", id: `table-${v}` }),
      (v) => { sheet.table = v; save(); render(); }),
    h("div", { class: "field" },
      h("label", { for: "extra" }, t("settings.extra")), extra,
      h("p", { class: "muted small" }, t("settings.extra.hint"))),
    radioGroup("settings.games", [[1, t("settings.games.single")], [MATCH_GAMES, t("settings.games.match", { count: MATCH_GAMES })]],
      sheet.games, (v) => h("input", { type: "radio", name: "games", id: `games-${v}` }),
      (v) => { sheet.games = v; sheet.game = Math.min(sheet.game, v - 1); save(); render(); }),
    colourNames());
  // A click on the summary (also Enter or Space) is a person's choice; a "toggle" event also
  // fires when the panel is built open, so it cannot tell.
  details.querySelector("summary").addEventListener("click", () => { settingsOpen = !details.open; });
  return details;
}

function colourNames() {
  const error = h("p", { id: "colour-name-error", class: "error small", role: "alert" });
  const rows = COLOURS.map((c, i) => h("div", { class: "colour-name" },
    swatch("colour", i),
    h("label", { for: `label-${c}` }, t(`colour.${c}`)),
    h("input", {
      id: `label-${c}`, maxlength: String(MAX_NAME), value: sheet.labels[i], placeholder: t(`colour.${c}`),
      autocomplete: "off", "aria-describedby": "colour-name-error",
      onchange: (e) => {
        const label = e.target.value.trim();
        const clash = COLOURS.findIndex((_, j) => j !== i && colourName(j).toLocaleLowerCase() === label.toLocaleLowerCase());
        if (label && clash >= 0) {
          error.textContent = t("colours.duplicate", { name: label });
          e.target.setAttribute("aria-invalid", "true");
          return;
        }
        error.textContent = "";
        sheet.labels[i] = label;
        save();
        render();
      },
    })));
  const details = h("details", { class: "colour-names", open: namesOpen ?? sheet.labels.some((l) => l.trim()) },
    h("summary", { "data-testid": "colour-names" }, t("colours.heading")),
    h("p", { class: "muted small" }, t("colours.hint")),
    h("div", { class: "colour-name-grid" }, rows), error);
  details.querySelector("summary").addEventListener("click", () => { namesOpen = !details.open; });
  return details;
}

// ----- standings ------------------------------------------------------------------------------
function gameTabs() {
  if (sheet.games === 1) return null;
  return h("div", { class: "game-tabs", role: "group", "aria-label": t("games.choose") },
    Array.from({ length: sheet.games }, (_, g) => h("button", {
      type: "button", id: `game-tab-${g + 1}`, class: g === sheet.game ? "game-tab current" : "game-tab",
      "aria-pressed": g === sheet.game ? "true" : "false",
      onclick: () => { sheet.game = g; save(); render(); },
    }, t("games.tab", { n: g + 1 }))));
}

function standingsPanel() {
  const head = [h("th", { scope: "col" }, t("standings.rank")), h("th", { scope: "col" }, t("standings.player"))];
  if (sheet.games > 1) {
    for (let g = 0; g < sheet.games; g++) {
      // narrow screens show the game's number only; the full heading stays for screen readers
      head.push(h("th", { scope: "col", class: "num" },
        h("span", { class: "long" }, t("games.tab", { n: g + 1 })),
        h("span", { class: "short", "aria-hidden": "true" }, formatNumber(g + 1))));
    }
  }
  head.push(h("th", { scope: "col", class: "num" }, t(sheet.games > 1 ? "standings.match_total" : "standings.total")));
  return h("section", { class: "panel sheet-standings", "aria-labelledby": "standings-heading" },
    h("h2", { id: "standings-heading" }, t(sheet.games > 1 ? "standings.match_heading" : "standings.heading")),
    sheet.players.length === 0 ? h("p", { class: "muted" }, t("players.empty")) : h("div", { class: "table-scroll" },
      h("table", { class: "standings", "data-testid": "standings" },
        h("thead", {}, h("tr", {}, head)),
        h("tbody", { id: "standings-body" }))),
    h("p", { id: "winner-line", class: "winner-line", "data-testid": "winner" }));
}

// ----- players --------------------------------------------------------------------------------
function playersPanel() {
  const input = h("input", { id: "new-player", maxlength: String(MAX_NAME), autocomplete: "off", "aria-describedby": "new-player-error" });
  const error = h("p", { id: "new-player-error", class: "error small", role: "alert" });
  const full = sheet.players.length >= MAX_PLAYERS;
  const form = h("form", {
    class: "add-player",
    onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim() || t("players.default_name", { n: sheet.players.length + 1 });
      if (sheet.players.some((p) => p.name.toLocaleLowerCase() === name.toLocaleLowerCase())) {
        error.textContent = t("players.name_taken", { name });
        return;
      }
      addPlayer(sheet, name);
      save();
      render();
      document.getElementById("new-player")?.focus();
    },
  },
  h("label", { for: "new-player" }, t("players.add_label")),
  h("div", { class: "add-row" }, input,
    h("button", { type: "submit", class: "primary", id: "add-player", disabled: full }, t("players.add"))),
  full ? h("p", { class: "muted small" }, t("players.max", { count: MAX_PLAYERS })) : null,
  error);
  if (full) input.disabled = true;
  const heading = sheet.games > 1
    ? t("players.heading_game", { n: sheet.game + 1, total: sheet.games })
    : t("players.heading");
  return h("section", { class: "sheet-players", "aria-labelledby": "players-heading" },
    h("h2", { id: "players-heading" }, heading),
    gameTabs(),
    h("ol", { class: "player-list" }, sheet.players.map(playerCard)),
    form);
}

function counter(player, kind, index = 0) {
  const field = fieldId(player, kind, index);
  const id = `count-${field}`;
  const name = kindName(kind, index);
  const cards = () => player.cards[sheet.game];
  const others = () => otherCards(sheet, player);
  const input = h("input", {
    id: `count-${field}`, type: "number", inputmode: "numeric", min: "0", max: String(maxCount(cards(), kind, index, others())), step: "1",
    class: "count", "aria-describedby": `${id}-error`,
    value: String(getCount(cards(), kind, index)),
  });
  const error = h("span", { id: `${id}-error`, class: "error small count-error" });
  const change = (value, announce = true) => {
    if (!setCount(cards(), kind, index, value, others())) return false;
    save();
    update(announce ? player : null);
    return true;
  };
  // The highest count the field takes now: what maxCount allows, or the count already there
  // when the sheet holds more than the game has (lowering it is always allowed). The input's
  // max attribute and the + button follow the same limit (update()).
  const most = () => Math.max(maxCount(cards(), kind, index, others()), getCount(cards(), kind, index));
  // The count when typing began: a typed number that ends refused (12 where 9 is the most)
  // puts it back, so the keystrokes on the way (the 1 of 12) leave nothing behind.
  let before = getCount(cards(), kind, index);
  input.addEventListener("focus", () => { before = getCount(cards(), kind, index); });
  input.addEventListener("input", () => {
    const text = input.value.trim();
    const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (text === "") return; // still typing
    if (change(value)) {
      input.removeAttribute("aria-invalid");
      error.textContent = "";
    } else {
      // marked first, so that putting the count back leaves the typed number in the field
      input.setAttribute("aria-invalid", "true");
      if (getCount(cards(), kind, index) !== before) change(before);
      error.textContent = limitMessage(kind, index, others(), most());
    }
  });
  // Leaving the field: a refused number becomes the nearest count the field takes (12 where
  // 2 is the most becomes 2, -1 becomes 0), and the message stays, saying what was typed and
  // what it became, so the change is seen; an emptied field shows the count again.
  input.addEventListener("change", () => {
    const text = input.value.trim();
    const typed = text === "" ? NaN : Number(text);
    let note = "";
    if (Number.isFinite(typed) && typed !== getCount(cards(), kind, index)) {
      const nearest = Math.min(Math.max(Math.round(typed), 0), most());
      if (nearest !== getCount(cards(), kind, index)) change(nearest);
      const kept = getCount(cards(), kind, index);
      note = `${t("count.clamped", { typed, value: kept })} ${limitMessage(kind, index, others(), most())}`;
    }
    before = getCount(cards(), kind, index);
    input.value = String(before);
    input.removeAttribute("aria-invalid");
    error.textContent = note;
  });
  const step = (button, delta, key) => {
    button.setAttribute("aria-label", t(key, { card: name, name: player.name }));
    button.addEventListener("click", () => {
      if (change(getCount(cards(), kind, index) + delta)) {
        error.textContent = "";
        input.removeAttribute("aria-invalid");
      }
    });
    return button;
  };
  return h("div", { class: `counter counter-${kind}`, dataset: { kind, index: String(index) } },
    swatch(kind, index),
    h("label", { for: id, class: "counter-label" }, name,
      h("span", { class: "sr-only" }, ` (${player.name})`)),
    step(h("button", { type: "button", class: "step minus", id: `minus-${field}` }, "\u2212"), -1, "count.minus"),
    input,
    step(h("button", { type: "button", class: "step plus", id: `plus-${field}` }, "+"), +1, "count.plus"),
    error);
}

/** Why a typed count was refused: the counts the field takes (0 to `max`, the field's own
 * limit), for jokers the limit of 3 in all, and, when the other players hold some, how many
 * of the game's cards of that kind they have. */
function limitMessage(kind, index, others, max) {
  const jokers = kind === "joker" || kind === "golden_joker";
  const parts = [max > 0 ? t("count.range", { max }) : t("count.zero")];
  if (jokers) parts.push(t("count.joker_limit", { count: LIMITS.jokers }));
  const held = heldByOthers(others, jokers ? "jokers" : kind, index);
  if (held > 0) parts.push(t("count.others_hold", { total: jokers ? LIMITS.jokers : LIMITS[kind], held }));
  return parts.join(" ");
}

function playerCard(player) {
  const nameInput = h("input", {
    id: `name-${player.id}`, class: "player-name-input", maxlength: String(MAX_NAME), value: player.name, autocomplete: "off",
    "aria-label": t("players.name_field"),
    onchange: (e) => {
      const name = e.target.value.trim();
      if (!name || sheet.players.some((p) => p !== player && p.name.toLocaleLowerCase() === name.toLocaleLowerCase())) {
        e.target.value = player.name;
        return;
      }
      player.name = name;
      save();
      render();
    },
  });
  return h("li", { class: "sheet-player", id: `player-${player.id}`, dataset: { player: player.id } },
    h("div", { class: "sp-head" },
      nameInput,
      h("div", { class: "sp-score" },
        h("span", { class: "sp-total", "data-testid": "total" }),
        h("span", { class: "sp-rank", "data-testid": "rank" }))),
    h("div", { class: "counters" },
      COLOURS.map((_, i) => counter(player, "colour", i)),
      SPECIAL.map((kind) => counter(player, kind))),
    h("div", { class: "reason", "data-testid": "reason" }),
    confirmButton(h("button", { type: "button", class: "remove-player", id: `remove-${player.id}` }),
      "players.remove", "players.remove_confirm",
      { name: player.name }, () => {
        sheet.players = sheet.players.filter((p) => p !== player);
        save();
        render();
      }));
}

// ----- the explanation of a score --------------------------------------------------------------
function reasonItems(player, score) {
  const cards = player.cards[sheet.game];
  const jokersAt = new Map(score.jokers);
  let golden = cards.golden_joker;
  const colourItem = ([i, points]) => {
    const held = cards.colours[i];
    const added = jokersAt.get(i) || 0;
    const detail = [t("reason.cards", { count: held })];
    if (added) detail.push(t("reason.with_jokers", { count: added }));
    if (held + added > 6) detail.push(t("reason.capped"));
    return h("li", { class: "reason-colour" }, swatch("colour", i), " ",
      h("span", { class: "reason-name" }, colourName(i)), " ",
      h("strong", {}, signed(points)), " ",
      h("span", { class: "muted" }, `(${detail.join(", ")})`));
  };
  const parts = [];
  if (score.positive.length === 0 && score.plus2 === 0) {
    return [h("p", { class: "muted" }, t("reason.none"))];
  }
  if (score.positive.length) {
    parts.push(h("h4", {}, t("reason.positive")), h("ul", { class: "reason-list" }, score.positive.map(colourItem)));
  }
  if (score.negative.length) {
    parts.push(h("h4", {}, t(sheet.extra === "triple_minus" ? "reason.negative_triple" : "reason.negative")),
      h("ul", { class: "reason-list" }, score.negative.map(colourItem)));
  } else if (score.positive.length) {
    parts.push(h("p", { class: "muted small" }, t("reason.all_positive")));
  }
  if (score.jokers.length) {
    const items = [];
    for (const [i, n] of score.jokers) {
      let regular = n;
      if (golden > 0) {
        items.push(h("li", {}, t("reason.golden_to", { colour: colourName(i) })));
        golden -= 1;
        regular -= 1;
      }
      if (regular > 0) items.push(h("li", {}, t("reason.jokers_to", { count: regular, colour: colourName(i) })));
    }
    parts.push(h("h4", {}, t("reason.jokers")), h("ul", { class: "reason-list" }, items));
  }
  if (cards.plus2) {
    parts.push(h("p", { class: "reason-plus2" }, swatch("plus2"), " ",
      t("reason.plus2", { count: cards.plus2, points: signed(score.plus2) })));
  }
  return parts;
}

// ----- updating the numbers ---------------------------------------------------------------------
function rankText(rank, winner, started) {
  if (!started) return "";
  return winner ? t("result.winner") : t("result.rank", { rank });
}

/** Refresh every number, explanation and limit; announce `changed` player's total. */
function update(changed) {
  const st = standings(sheet);
  const game = st.games[sheet.game];
  sheet.players.forEach((player, i) => {
    const card = document.getElementById(`player-${player.id}`);
    if (!card) return;
    const score = game.scores[i];
    const cards = player.cards[sheet.game];
    card.querySelector(".sp-total").textContent = t("result.points", { count: score.total });
    card.querySelector(".sp-total").dataset.total = String(score.total);
    const rank = card.querySelector(".sp-rank");
    rank.textContent = rankText(game.ranks[i], game.winners.includes(i), game.started);
    rank.dataset.rank = String(game.ranks[i]);
    rank.classList.toggle("winner", game.started && game.winners.includes(i));
    card.querySelector(".reason").replaceChildren(...reasonItems(player, score));
    for (const el of card.querySelectorAll(".counter")) {
      const kind = el.dataset.kind;
      const index = Number(el.dataset.index);
      const value = getCount(cards, kind, index);
      const input = el.querySelector("input");
      if (document.activeElement !== input || input.getAttribute("aria-invalid") !== "true") input.value = String(value);
      const max = maxCount(cards, kind, index, otherCards(sheet, player));
      input.max = String(Math.max(max, value));
      el.querySelector(".minus").disabled = value <= 0;
      el.querySelector(".plus").disabled = value >= max;
    }
  });
  const body = document.getElementById("standings-body");
  if (body) {
    const order = sheet.players.map((_, i) => i).sort((a, b) => st.ranks[a] - st.ranks[b] || a - b);
    body.replaceChildren(...order.map((i) => {
      const cells = [h("td", { class: "rank" }, st.started ? formatNumber(st.ranks[i]) : "\u2013"),
        h("th", { scope: "row" }, sheet.players[i].name)];
      if (sheet.games > 1) {
        st.games.forEach((g) => cells.push(h("td", { class: "num" }, g.started ? formatNumber(g.totals[i]) : "\u2013")));
      }
      cells.push(h("td", { class: "num total", "data-testid": "match-total" }, formatNumber(st.totals[i])));
      return h("tr", { class: st.started && st.winners.includes(i) ? "winner" : null, dataset: { player: sheet.players[i].id } }, cells);
    }));
  }
  const winner = document.getElementById("winner-line");
  if (winner) {
    const names = st.winners.map((i) => sheet.players[i].name);
    winner.textContent = !st.started || names.length === 0 ? ""
      : t(sheet.games > 1 ? "standings.match_winner" : "standings.winner", { count: names.length, names: formatList(names) });
  }
  if (changed) announce(changed, game);
}

function announce(player, game) {
  const i = sheet.players.indexOf(player);
  if (i < 0) return;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const parts = [t("live.player", { name: player.name, points: t("result.points", { count: game.totals[i] }), rank: game.ranks[i] })];
    if (game.started) {
      parts.push(t("standings.winner", { count: game.winners.length, names: formatList(game.winners.map((w) => sheet.players[w].name)) }));
    }
    live.textContent = parts.join(" ");
  }, 250);
}

// ----- sheet-wide actions ----------------------------------------------------------------------
function actionsPanel() {
  return h("section", { class: "panel sheet-actions", "aria-label": t("actions.heading") },
    confirmButton(h("button", { type: "button", id: "clear-game" }), "actions.clear_game", "actions.clear_game_confirm",
      { n: sheet.game + 1 }, () => {
        for (const p of sheet.players) p.cards[sheet.game] = emptyCards();
        save();
        render();
      }),
    confirmButton(h("button", { type: "button", id: "new-sheet" }), "actions.new_sheet", "actions.new_sheet_confirm", {}, () => {
      sheet = newSheet();
      settingsOpen = null;
      save();
      render();
    }));
}

// ----- offline ----------------------------------------------------------------------------------
let offlineState = "pending";

function offlineText() {
  if (offlineState === "ready") return t("offline.ready");
  if (offlineState === "unavailable") return t("offline.unavailable");
  return "";
}

async function registerWorker() {
  if (!("serviceWorker" in navigator)) {
    offlineState = "unavailable";
    return;
  }
  try {
    await navigator.serviceWorker.register("/score-sw.js", { scope: "/score" });
    await navigator.serviceWorker.ready;
    offlineState = "ready";
  } catch (err) {
    console.warn(`score sheet: no offline copy (${err.message})`);
    offlineState = "unavailable";
  }
  const status = document.getElementById("offline-status");
  if (status) {
    status.dataset.state = offlineState;
    status.textContent = offlineText();
  }
}

// ----- start ------------------------------------------------------------------------------------
async function start() {
  await initI18n();
  document.getElementById("language-slot").replaceChildren(languageSelect("language"));
  onLanguageChange(() => render());
  window.addEventListener("storage", (e) => {
    if (e.key === null || e.key === "coloretto.sheet") { sheet = loadSheet(); render(); }
  });
  render();
  main.dataset.ready = "1";
  registerWorker();
}

start();
