// The lobby (open tables to join, games to watch, finished games to replay), the
// create-table form and the leaderboard.
import { api, h, setChildren, toast, getName, setName, getToken, setToken, seatLabel } from "./api.js";
import { rulesSummary } from "./board.js";
import { ratedBox } from "./account.js";
import { timeControlText } from "./clock.js";
import { t as tr } from "./i18n.js";

const REFRESH_MS = 4000;

/** The lobby page: create form and live table lists (refreshed every few seconds). */
export async function lobbyView(root) {
  let options;
  try {
    options = await api("/api/options");
  } catch (e) {
    setChildren(root, h("p", { class: "panel error" }, `The server cannot be reached: ${e.message}`));
    return;
  }
  const lists = h("div", { class: "lists" });
  const mine = h("div", { class: "my-tables" });
  setChildren(root, h("div", { class: "lobby" }, createForm(options), h("div", {}, mine, lists)));
  const refresh = async () => {
    try {
      const [live, done, my] = await Promise.all([api("/api/tables"), api("/api/tables?status=finished&limit=15"), myTables()]);
      renderMine(mine, my);
      renderLists(lists, live.tables, done.tables);
    } catch (e) {
      setChildren(lists, h("p", { class: "panel error" }, `Could not load the tables: ${e.message}`));
    }
  };
  await refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  return () => clearInterval(timer);
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
  document.title = turns ? `\u25b6 ${tr("lobby.title_your_turn", { count: turns })} \u2013 Coloretto` : "Coloretto";
  if (!mine.length) { setChildren(el); return; }
  const sorted = [...mine].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  setChildren(el, h("section", { class: "panel", "data-testid": "my-tables" }, h("h2", {}, tr("lobby.my_tables")),
    h("ul", { class: "table-list" }, sorted.map((m) => h("li", { class: "table-item", "data-table": m.table.id },
      h("div", {},
        h("b", {}, m.table.title || tr("lobby.table", { id: m.table.id })), " ",
        m.your_turn ? h("span", { class: "badge your-turn", "data-testid": "your-turn" }, tr("lobby.your_turn")) : null,
        m.table.private ? h("span", { class: "badge" }, tr("table.private")) : null,
        h("div", { class: "small muted" }, timeControlText(m.table.time_control)),
        h("div", { class: "small" }, seatsText(m.table))),
      h("a", { class: "button" + (m.your_turn ? " primary" : ""), href: m.table.invite_url, "data-testid": "my-table" },
        tr("lobby.to_your_seat")))))));
}

function seatsText(t) {
  return t.seats.map((s) => seatLabel(s)).join(", ");
}

function renderLists(el, live, done) {
  const open = live.filter((t) => t.status === "open");
  const playing = live.filter((t) => t.status === "playing");
  const item = (t, action) => h("li", { class: "table-item", "data-table": t.id },
    h("div", {},
      h("b", {}, t.title || `Table ${t.id}`), " ",
      h("span", { class: "small muted" }, rulesSummary(t.rules, t)),
      h("div", { class: "small" }, seatsText(t))),
    action);
  setChildren(el,
    h("section", { class: "panel" }, h("h2", {}, "Open tables"),
      open.length ? h("ul", { class: "table-list" }, open.map((t) => item(t, getToken(t.id)
        ? h("a", { class: "button", href: t.invite_url, "data-testid": "your-table" }, "Your table")
        : h("button", { type: "button", class: "primary", "data-testid": "quick-join", onclick: () => quickJoin(t) },
          `Join (${t.seats.filter((s) => s.kind === "open").length} open)`))))
        : h("p", { class: "muted" }, "No table is waiting for players. Create one!")),
    h("section", { class: "panel" }, h("h2", {}, "Games in progress"),
      playing.length ? h("ul", { class: "table-list" }, playing.map((t) => item(t,
        h("a", { class: "button" + (getToken(t.id) ? " primary" : ""), href: t.invite_url, "data-testid": "watch" },
          getToken(t.id) ? "Back to your seat" : "Watch"))))
        : h("p", { class: "muted" }, "No game is being played.")),
    h("section", { class: "panel" }, h("h2", {}, "Finished games"),
      done.length ? h("ul", { class: "table-list" }, done.map((t) => item(t,
        h("a", { class: "button", href: t.replay_url || `/replay/${t.id}`, "data-testid": "lobby-replay" }, "Replay"))))
        : h("p", { class: "muted" }, "None yet.")));
}

async function quickJoin(t) {
  const name = currentName();
  if (!name) return;
  try {
    const r = await api(`/api/tables/${encodeURIComponent(t.id)}/join`, { name });
    setToken(t.id, r.token);
    location.href = `/table/${encodeURIComponent(t.id)}`;
  } catch (e) {
    toast(e.message, "error");
  }
}

/** The name in the header field (saved); asks for one when it is empty. */
export function currentName() {
  const field = document.getElementById("player-name");
  let name = (field ? field.value : getName()).trim();
  if (!name) {
    toast("Pick a name first (top of the page)", "error");
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
  ["me", "You"],
  ["human", "A friend (invite link)"],
  ...agents.map((a) => [`computer:${a}`, `Computer: ${a}`]),
];

function createForm(options) {
  const agents = options.agents || options.difficulties || ["medium"];
  const def = options.default_agent || "medium";
  const R = options.rules || {};
  const kinds = SEAT_KINDS(agents);
  const seatCount = h("select", { id: "seat-count", name: "seat-count" },
    [2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === 4 }, `${n} seats`)));
  const seatBox = h("ol", { class: "seat-choices" });
  const seatChoices = [];
  const drawSeats = () => {
    const n = Number(seatCount.value);
    while (seatChoices.length < n) {
      const i = seatChoices.length;
      const sel = h("select", { id: `seat-${i}`, "aria-label": `Seat ${i + 1}`, "data-seat": i },
        kinds.map(([v, l]) => h("option", { value: v, selected: i === 0 ? v === "me" : v === `computer:${def}` }, l)));
      sel.addEventListener("change", () => {
        if (sel.value === "me") seatChoices.forEach((o) => { if (o !== sel && o.value === "me") o.value = "human"; });
      });
      seatChoices.push(sel);
    }
    setChildren(seatBox, seatChoices.slice(0, n).map((s, i) => h("li", {}, h("label", { for: `seat-${i}` }, `Seat ${i + 1}`), s)));
  };
  seatCount.addEventListener("change", drawSeats);
  drawSeats();

  const opt = (key) => (R[key] || { values: [], default: null });
  const fields = {
    preset: select("preset", [null, ...(options.presets || [])], null, (v) => v === null ? "none" : v),
    edition: select("edition", opt("edition").values, opt("edition").default),
    table: select("table", opt("table").values, opt("table").default, (v) => `${v}${v === "violet" ? " (gray, difficult)" : " (standard)"}`),
    starting_cards: select("starting_cards", opt("starting_cards").values, opt("starting_cards").default),
    next_round_starter: select("next_round_starter", opt("next_round_starter").values, opt("next_round_starter").default, (v) => v.replaceAll("_", " ")),
    joker_any_color: select("joker_any_color", opt("joker_any_color").values, opt("joker_any_color").default, (v) => v ? "yes" : "no (only colours held)"),
    match_games: select("match_games", opt("match_games").values, opt("match_games").default),
    extra_card: select("extra_card", opt("extra_card").values, opt("extra_card").default, (v) => v === null ? "none" : v.replaceAll("_", " ")),
  };
  const caps = h("input", { id: "row_capacities", name: "row_capacities", placeholder: "e.g. 3,3,2,4 (empty: standard)", inputmode: "numeric" });
  const title = h("input", { id: "title", name: "title", maxlength: 60, placeholder: "optional" });
  const hints = h("input", { id: "hints", type: "checkbox" });
  const tcs = options.time_controls || { move_seconds: [], agents: ["medium"], default_agent: "medium" };
  const timeControl = h("select", { id: "time-control", name: "time-control" },
    h("option", { value: "none" }, tr("clock.none")),
    tcs.move_seconds.map((sec) => h("option", { value: `move:${sec}` }, tr("clock.move", { seconds: sec }))),
    h("option", { value: "day" }, tr("clock.day")));
  const clockAgent = h("select", { id: "clock-agent", name: "clock-agent" },
    tcs.agents.map((a) => h("option", { value: a, selected: a === tcs.default_agent }, tr(`clock.agent.${a}`))));
  const isPrivate = h("input", { id: "private", type: "checkbox" });
  const { box: rated, note: ratedNote } = ratedBox(hints);
  const label = (id, text) => h("label", { for: id }, text);

  const submit = async (ev) => {
    ev.preventDefault();
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
      if (list.some((x) => !Number.isInteger(x))) { toast("Row capacities: whole numbers separated by commas", "error"); return; }
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
    try {
      const r = await api("/api/tables", body);
      if (r.token) setToken(r.table.id, r.token);
      location.href = `/table/${encodeURIComponent(r.table.id)}`;
    } catch (e) {
      toast(`Cannot create the table: ${e.message}`, "error");
    }
  };

  return h("form", { class: "panel create", id: "create-form", onsubmit: submit },
    h("h2", {}, "New table"),
    h("div", { class: "field-row" }, label("seat-count", "Seats"), seatCount, label("title", "Title"), title),
    seatBox,
    h("details", { class: "options" }, h("summary", { "data-testid": "rules-options" }, "Rules and options"),
      h("div", { class: "grid-form" },
        label("preset", "Preset"), fields.preset,
        label("edition", "Edition"), fields.edition,
        label("table", "Score table"), fields.table,
        label("starting_cards", "Starting cards"), fields.starting_cards,
        label("next_round_starter", "Next round starts"), fields.next_round_starter,
        label("joker_any_color", "Joker may take a colour you lack"), fields.joker_any_color,
        label("match_games", "Games in the match"), fields.match_games,
        label("extra_card", "Extra rule"), fields.extra_card,
        label("row_capacities", "Row capacities"), caps),
      h("p", { class: "small muted" }, "Options left at their default do not override the preset.")),
    h("div", { class: "field-row" },
      label("time-control", tr("clock.choose")), timeControl,
      label("clock-agent", tr("clock.agent")), clockAgent),
    h("p", { class: "small muted" }, tr("clock.explain")),
    h("div", { class: "field-row" },
      h("label", {}, isPrivate, " ", tr("table.private_choice"))),
    h("div", { class: "field-row" },
      h("label", {}, hints, " allow hints", options.hints_available === false ? " (no move advisor installed)" : ""),
      h("label", {}, rated, " rated (leaderboard)", ratedNote)),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, "Create table"));
}

/** The leaderboard page (OpenSkill ratings; with or without computer players). */
export async function leaderboardView(root) {
  const box = h("div", {});
  const withComputers = h("input", { type: "checkbox", id: "lb-computers" });
  const load = async () => {
    try {
      const b = await api(`/api/leaderboard?computers=${withComputers.checked}`);
      setChildren(box, b.players.length ? h("div", { class: "table-scroll" }, h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "\u03bc", "\u03c3", "Games", "Wins"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, b.players.map((p, i) => h("tr", {},
          h("td", {}, String(i + 1)), h("th", { scope: "row" }, p.name.startsWith("computer:") ? `Computer (${p.name.slice(9)})` : p.name),
          h("td", {}, p.rating.toFixed(1)), h("td", {}, p.mu.toFixed(1)), h("td", {}, p.sigma.toFixed(2)),
          h("td", {}, String(p.games)), h("td", {}, String(p.wins)))))))
        : h("p", { class: "muted" }, "No rated games yet."),
      h("p", { class: "small muted" }, `${b.games} rated game(s). Rating = \u03bc \u2212 3\u03c3 (OpenSkill, Plackett\u2013Luce).`));
    } catch (e) {
      setChildren(box, h("p", { class: "error" }, e.message));
    }
  };
  withComputers.addEventListener("change", load);
  setChildren(root, h("section", { class: "panel" }, h("h2", {}, "Leaderboard"),
    h("label", {}, withComputers, " include games against computer players"), box));
  await load();
}
