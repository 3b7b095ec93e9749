// The lobby (open tables to join, games to watch, finished games to replay), the
// create-table form and the leaderboard.
import { agentName, api, errorText, h, setChildren, toast, getName, setName, getToken, setToken, seatLabel } from "./api.js";
import { optionName, rulesSummary } from "./board.js";
import { ratedBox } from "./account.js";
import { timeControlText } from "./clock.js";
import { formatNumber, t } from "./i18n.js";
import { guideDone, startGuide } from "./guide.js";

const REFRESH_MS = 4000;

/**
 * The lobby page: create form and live table lists, refreshed every few seconds. In a hidden
 * tab only "Your tables" is refreshed: the tab's title keeps telling whether it is your turn
 * (a turn-based game waits in a background tab); the lists follow when the tab shows again.
 */
export async function lobbyView(root) {
  let options;
  try {
    options = await api("/api/options");
  } catch (e) {
    setChildren(root, h("p", { class: "panel error" }, t("lobby.unreachable", { message: errorText(e) })));
    return;
  }
  const lists = h("div", { class: "lists" });
  const mine = h("div", { class: "my-tables" });
  setChildren(root, h("div", { class: "lobby" }, learnPanel(), createForm(options), h("div", {}, mine, lists)));
  const refresh = async () => {
    try {
      const [live, done, my] = await Promise.all([api("/api/tables"), api("/api/tables?status=finished&limit=15"), myTables()]);
      renderMine(mine, my);
      renderLists(lists, live.tables, done.tables);
    } catch (e) {
      setChildren(lists, h("p", { class: "panel error" }, t("lobby.cannot_load", { message: errorText(e) })));
    }
  };
  const refreshMine = async () => {
    try {
      renderMine(mine, await myTables());
    } catch { /* the next refresh tries again */ }
  };
  await refresh();
  const timer = setInterval(() => { if (document.hidden) refreshMine(); else refresh(); }, REFRESH_MS);
  const shown = () => { if (!document.hidden) refresh(); };
  document.addEventListener("visibilitychange", shown);
  return () => { clearInterval(timer); document.removeEventListener("visibilitychange", shown); };
}

/** The unfinished tables whose seat tokens this browser keeps (private ones too), each with
 * the seat and whether it is that seat's turn (POST /api/tables/mine). */
async function myTables() {
  const tokens = {};
  try {
    for (let i = 0; i < localStorage.length && Object.keys(tokens).length < 100; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("coloretto.token.")) tokens[key.slice("coloretto.token.".length)] = localStorage.getItem(key);
    }
  } catch { /* no storage: no tables of yours */ }
  if (!Object.keys(tokens).length) return [];
  return (await api("/api/tables/mine", { tokens })).tables;
}

/** "Your tables": where you sit, your turn first; the tab title counts your turns. */
function renderMine(el, mine) {
  const turns = mine.filter((m) => m.your_turn).length;
  document.title = turns ? `\u25b6 ${t("lobby.title_your_turn", { count: turns })} \u2013 Coloretto` : "Coloretto";
  if (!mine.length) { setChildren(el); return; }
  const sorted = [...mine].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  setChildren(el, h("section", { class: "panel", "data-testid": "my-tables" }, h("h2", {}, t("lobby.my_tables")),
    h("ul", { class: "table-list" }, sorted.map((m) => h("li", { class: "table-item", "data-table": m.table.id },
      h("div", {},
        h("b", {}, m.table.title || t("lobby.table", { id: m.table.id })), " ",
        m.your_turn ? h("span", { class: "badge your-turn", "data-testid": "your-turn" }, t("lobby.your_turn")) : null,
        m.table.private ? h("span", { class: "badge" }, t("table.private")) : null,
        h("div", { class: "small muted" }, timeControlText(m.table.time_control)),
        h("div", { class: "small" }, seatsText(m.table))),
      h("a", { class: "button" + (m.your_turn ? " primary" : ""), href: m.table.invite_url, "data-testid": "my-table" },
        t("lobby.to_your_seat")))))));
}

function seatsText(tb) {
  return tb.seats.map((s) => seatLabel(s)).join(", ");
}

function renderLists(el, live, done) {
  const open = live.filter((tb) => tb.status === "open");
  const playing = live.filter((tb) => tb.status === "playing");
  const item = (tb, action) => h("li", { class: "table-item", "data-table": tb.id },
    h("div", {},
      h("b", {}, tb.title || t("table.untitled", { id: tb.id })), " ",
      h("span", { class: "small muted" }, rulesSummary(tb.rules, tb)),
      h("div", { class: "small" }, seatsText(tb))),
    action);
  setChildren(el,
    h("section", { class: "panel" }, h("h2", {}, t("lobby.open")),
      open.length ? h("ul", { class: "table-list" }, open.map((tb) => item(tb, getToken(tb.id)
        ? h("a", { class: "button", href: tb.invite_url, "data-testid": "your-table" }, t("lobby.your_table"))
        : h("button", { type: "button", class: "primary", "data-testid": "quick-join", onclick: () => quickJoin(tb) },
          t("lobby.join", { count: tb.seats.filter((s) => s.kind === "open").length })))))
        : h("p", { class: "muted" }, t("lobby.no_open"))),
    h("section", { class: "panel" }, h("h2", {}, t("lobby.playing")),
      playing.length ? h("ul", { class: "table-list" }, playing.map((tb) => item(tb,
        h("a", { class: "button" + (getToken(tb.id) ? " primary" : ""), href: tb.invite_url, "data-testid": "watch" },
          getToken(tb.id) ? t("lobby.back_to_seat") : t("lobby.watch")))))
        : h("p", { class: "muted" }, t("lobby.no_playing"))),
    h("section", { class: "panel" }, h("h2", {}, t("lobby.finished")),
      done.length ? h("ul", { class: "table-list" }, done.map((tb) => item(tb,
        h("a", { class: "button", href: tb.replay_url || `/replay/${tb.id}`, "data-testid": "lobby-replay" }, t("lobby.replay")))))
        : h("p", { class: "muted" }, t("lobby.none_yet"))));
}

/** "Learn to play": the guided first game against two easy computer players (guide.js). */
function learnPanel() {
  const done = guideDone();
  const start = async () => {
    const field = document.getElementById("player-name");
    const name = (field ? field.value : getName()).trim();
    if (name) setName(name);
    try {
      const r = await startGuide(name);
      setToken(r.table.id, r.token);
      location.href = `/table/${encodeURIComponent(r.table.id)}`;
    } catch (e) {
      toast(t("lobby.cannot_create", { message: errorText(e) }), "error");
    }
  };
  return h("section", { class: "panel learn", "data-testid": "learn-panel", "data-done": done ? "1" : "0" },
    h("h2", {}, t("guide.lobby.heading")),
    h("p", {}, done ? t("guide.lobby.done") : t("guide.lobby.text")),
    h("button", { type: "button", class: done ? "" : "primary", "data-testid": "learn", onclick: start },
      done ? t("guide.lobby.again") : t("guide.lobby.start")));
}

async function quickJoin(tb) {
  const name = currentName();
  if (!name) return;
  try {
    const r = await api(`/api/tables/${encodeURIComponent(tb.id)}/join`, { name });
    setToken(tb.id, r.token);
    location.href = `/table/${encodeURIComponent(tb.id)}`;
  } catch (e) {
    toast(errorText(e), "error");
  }
}

/** The name in the header field (saved); asks for one when it is empty. */
export function currentName() {
  const field = document.getElementById("player-name");
  let name = (field ? field.value : getName()).trim();
  if (!name) {
    toast(t("lobby.name_first"), "error");
    if (field) field.focus();
    return "";
  }
  setName(name);
  return name;
}

function select(id, values, def, label = (v) => String(v)) {
  return h("select", { id, name: id },
    values.map((v) => h("option", { value: JSON.stringify(v), selected: v === def }, label(v))));
}

const SEAT_KINDS = (agents) => [
  ["me", t("lobby.seat_me")],
  ["human", t("lobby.seat_friend")],
  ...agents.map((a) => [`computer:${a}`, t("lobby.seat_computer", { agent: agentName(a) })]),
];

function createForm(options) {
  const agents = options.agents || options.difficulties || ["medium"];
  const def = options.default_agent || "medium";
  const R = options.rules || {};
  const kinds = SEAT_KINDS(agents);
  const seatCount = h("select", { id: "seat-count", name: "seat-count" },
    [2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === 4 }, t("lobby.seats_n", { count: n }))));
  const seatBox = h("ol", { class: "seat-choices" });
  const seatChoices = [];
  const drawSeats = () => {
    const n = Number(seatCount.value);
    while (seatChoices.length < n) {
      const i = seatChoices.length;
      const sel = h("select", { id: `seat-${i}`, "aria-label": t("seat.n", { n: i + 1 }), "data-seat": i },
        kinds.map(([v, l]) => h("option", { value: v, selected: i === 0 ? v === "me" : v === `computer:${def}` }, l)));
      sel.addEventListener("change", () => {
        if (sel.value === "me") seatChoices.forEach((o) => { if (o !== sel && o.value === "me") o.value = "human"; });
      });
      seatChoices.push(sel);
    }
    setChildren(seatBox, seatChoices.slice(0, n).map((s, i) => h("li", {}, h("label", { for: `seat-${i}` }, t("seat.n", { n: i + 1 })), s)));
  };
  seatCount.addEventListener("change", drawSeats);
  drawSeats();

  const opt = (key) => (R[key] || { values: [], default: null });
  const fields = {
    preset: select("preset", [null, ...(options.presets || [])], null, (v) => optionName("preset", v)),
    edition: select("edition", opt("edition").values, opt("edition").default, (v) => optionName("edition", v)),
    table: select("table", opt("table").values, opt("table").default, (v) => t(v === "violet" ? "lobby.table_violet" : "lobby.table_standard", { table: optionName("table", v) })),
    starting_cards: select("starting_cards", opt("starting_cards").values, opt("starting_cards").default, (v) => optionName("starting_cards", v)),
    next_round_starter: select("next_round_starter", opt("next_round_starter").values, opt("next_round_starter").default, (v) => optionName("next_round_starter", v)),
    joker_any_color: select("joker_any_color", opt("joker_any_color").values, opt("joker_any_color").default, (v) => optionName("joker_any_color", v)),
    match_games: select("match_games", opt("match_games").values, opt("match_games").default, (v) => formatNumber(v)),
    extra_card: select("extra_card", opt("extra_card").values, opt("extra_card").default, (v) => optionName("extra_card", v)),
  };
  const caps = h("input", { id: "row_capacities", name: "row_capacities", placeholder: t("lobby.caps_placeholder"), inputmode: "numeric" });
  const title = h("input", { id: "title", name: "title", maxlength: 60, placeholder: t("lobby.optional") });
  const hints = h("input", { id: "hints", type: "checkbox" });
  const tcs = options.time_controls || { move_seconds: [], agents: ["medium"], default_agent: "medium" };
  const timeControl = h("select", { id: "time-control", name: "time-control" },
    h("option", { value: "none" }, t("clock.none")),
    tcs.move_seconds.map((sec) => h("option", { value: `move:${sec}` }, t("clock.move", { seconds: sec }))),
    h("option", { value: "day" }, t("clock.day")));
  const clockAgent = h("select", { id: "clock-agent", name: "clock-agent" },
    tcs.agents.map((a) => h("option", { value: a, selected: a === tcs.default_agent }, t(`clock.agent.${a}`))));
  const isPrivate = h("input", { id: "private", type: "checkbox" });
  const { box: rated, note: ratedNote } = ratedBox(hints);
  const label = (id, text) => h("label", { for: id }, text);

  let creating = false; // one table per press: a double click creates once
  const submit = async (ev) => {
    ev.preventDefault();
    if (creating) return;
    // A new attempt: the messages of the last one no longer apply.
    document.querySelectorAll("#toasts .toast-error").forEach((t) => t.remove());
    const n = Number(seatCount.value);
    const chosen = seatChoices.slice(0, n).map((s) => s.value);
    const seats = chosen.map((v) => v.startsWith("computer:") ? { kind: "computer", agent: v.slice(9) } : { kind: "human" });
    const mine = chosen.indexOf("me");
    const anyHuman = seats.some((s) => s.kind === "human");
    const name = anyHuman ? currentName() : (document.getElementById("player-name")?.value.trim() || null);
    if (anyHuman && !name) return;
    // Only options changed from their default are sent, so that a preset keeps its values.
    const rules = {};
    for (const [k, el] of Object.entries(fields)) {
      if (k === "preset") continue;
      const v = JSON.parse(el.value);
      if (v !== opt(k).default) rules[k] = v;
    }
    if (caps.value.trim()) {
      const list = caps.value.split(/[\s,]+/).filter(Boolean).map(Number);
      if (list.some((x) => !Number.isInteger(x))) { toast(t("lobby.caps_bad"), "error"); return; }
      rules.row_capacities = list;
    }
    const body = {
      name, seats, seat: mine >= 0 ? mine : null, rules, preset: JSON.parse(fields.preset.value),
      hints: hints.checked, rated: rated.checked, title: title.value.trim(), private: isPrivate.checked,
    };
    if (timeControl.value !== "none") {
      const [kind, sec] = timeControl.value.split(":");
      body.time_control = kind === "move" ? { kind, seconds: Number(sec), agent: clockAgent.value } : { kind, agent: clockAgent.value };
    }
    creating = true;
    try {
      const r = await api("/api/tables", body);
      if (r.token) setToken(r.table.id, r.token);
      location.href = `/table/${encodeURIComponent(r.table.id)}`; // stays "creating" while the page changes
    } catch (e) {
      creating = false;
      toast(t("lobby.cannot_create", { message: errorText(e) }), "error");
    }
  };

  return h("form", { class: "panel create", id: "create-form", onsubmit: submit },
    h("h2", {}, t("lobby.new_table")),
    h("div", { class: "field-row" }, label("seat-count", t("lobby.seats")), seatCount, label("title", t("lobby.title")), title),
    seatBox,
    h("details", { class: "options" }, h("summary", { "data-testid": "rules-options" }, t("lobby.options")),
      h("div", { class: "grid-form" },
        label("preset", t("lobby.preset")), fields.preset,
        label("edition", t("lobby.edition")), fields.edition,
        label("table", t("lobby.score_table")), fields.table,
        label("starting_cards", t("lobby.starting_cards")), fields.starting_cards,
        label("next_round_starter", t("lobby.next_round_starter")), fields.next_round_starter,
        label("joker_any_color", t("lobby.joker_any_color")), fields.joker_any_color,
        label("match_games", t("lobby.match_games")), fields.match_games,
        label("extra_card", t("lobby.extra_card")), fields.extra_card,
        label("row_capacities", t("lobby.row_capacities")), caps),
      h("p", { class: "small muted" }, t("lobby.options_note"))),
    h("div", { class: "field-row" },
      label("time-control", t("clock.choose")), timeControl,
      label("clock-agent", t("clock.agent")), clockAgent),
    h("p", { class: "small muted" }, t("clock.explain")),
    h("div", { class: "field-row" },
      h("label", {}, isPrivate, " ", t("table.private_choice"))),
    h("div", { class: "field-row" },
      h("label", {}, hints, " ", t("lobby.hints"), options.hints_available === false ? ` (${t("lobby.no_advisor")})` : ""),
      h("label", {}, rated, " ", t("lobby.rated"), ratedNote)),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("lobby.create")));
}

/** The leaderboard page (OpenSkill ratings; with or without computer players). */
export async function leaderboardView(root) {
  const box = h("div", {});
  const withComputers = h("input", { type: "checkbox", id: "lb-computers" });
  const load = async () => {
    try {
      const b = await api(`/api/leaderboard?computers=${withComputers.checked}`);
      setChildren(box, b.players.length ? h("div", { class: "table-scroll" }, h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ["#", t("board.player"), t("board.rating"), "\u03bc", "\u03c3", t("board.games"), t("board.wins")].map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, b.players.map((p, i) => h("tr", {},
          h("td", {}, String(i + 1)), h("th", { scope: "row" }, p.name.startsWith("computer:") ? t("board.computer", { agent: agentName(p.name.slice(9)) }) : p.name),
          h("td", {}, p.rating.toFixed(1)), h("td", {}, p.mu.toFixed(1)), h("td", {}, p.sigma.toFixed(2)),
          h("td", {}, String(p.games)), h("td", {}, String(p.wins)))))))
        : h("p", { class: "muted" }, t("board.no_games")),
      h("p", { class: "small muted" }, t("board.rated_games", { count: b.games }), " ", t("board.rating_note")));
    } catch (e) {
      setChildren(box, h("p", { class: "error" }, errorText(e)));
    }
  };
  withComputers.addEventListener("change", load);
  setChildren(root, h("section", { class: "panel" }, h("h2", {}, t("nav.leaderboard")),
    h("label", {}, withComputers, " ", t("board.with_computers")), box));
  await load();
}
