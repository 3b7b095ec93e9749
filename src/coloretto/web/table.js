// The live table: one WebSocket (docs/web-api.md), the board, actions, hints, hand-over,
// reconnect with backoff, the end-of-game breakdown and the rematch.
import { agentName, api, errorText, h, setChildren, toast, copyText, getName, setName, getToken, setToken, seatLabel, keepOpen } from "./api.js";
import { statusBar, rowsPanel, playersPanel, matchStanding, scoreLegend, rulesSummary, isLegal, turnText } from "./board.js";
import { actionText, logItems, logText, resultPanel } from "./gamelog.js";
import { capture, play as playMotion } from "./motion.js";
import { play as playSound, setSound, soundOn } from "./sound.js";
import { clockLine, timeControlText } from "./clock.js";
import { ChatBox } from "./chat.js";
import { language, t } from "./i18n.js";
import { guidePanel, noteMoments } from "./guide.js";

const MIN_RETRY_MS = 1000;
const MAX_RETRY_MS = 5000;
const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 50000;
// Keys pressed while an action is on its way to the server wait for its answer (at most
// this many); each is then read against the new decision. A key that names no legal
// action then is dropped, and so is every waiting key once it is no longer your decision.
const MAX_QUEUED_KEYS = 4;
// The log is open beside the board on wide screens, collapsed to its newest line on phones.
const WIDE = "(min-width: 860px)";

/** The texts of the table view that are not in board.js or gamelog.js (people see them). */
export const TEXT = {
  log: () => t("table.log"),
  sound: () => t("table.sound"),
  soundOnTitle: () => t("table.sound_on_title"),
  soundOffTitle: () => t("table.sound_off_title"),
};

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A hint reply's explanation in the page's language, built from its best option with how
 * sure the advisor is ("take row 2: chance to win 41% (95% interval 33% to 50%), expected
 * margin +3.2 points (+2.1 to +4.3), 120 samples"); the server's English `explanation` when
 * the reply has no options.
 */
function hintExplanation(msg) {
  const best = (msg.options || [])[0];
  if (!msg.action) return t("table.no_advice");
  if (!best || typeof best.win_prob !== "number" || typeof best.margin !== "number") {
    return msg.explanation || actionText(msg.action);
  }
  const lang = language();
  const percent = new Intl.NumberFormat(lang, { style: "percent" });
  const points = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" });
  const interval = (ci, format) => (Array.isArray(ci) && ci.length === 2
    ? ` (${t("table.hint_interval", { low: format.format(ci[0]), high: format.format(ci[1]) })})` : "");
  const win = percent.format(best.win_prob) + interval(best.win_ci95, percent);
  const margin = points.format(best.margin) + interval(best.margin_ci95, points);
  const text = t("table.hint_explain", { action: actionText(best.action || msg.action), win, margin });
  return typeof best.samples === "number" ? `${text}, ${t("table.hint_samples", { count: best.samples })}` : text;
}

/** A connection state ("open", "connecting", "reconnecting", "gone") in the page's language. */
function connName(state) {
  return ["open", "connecting", "reconnecting", "gone"].includes(state) ? t(`table.conn.${state}`) : state;
}

/** A small speaker icon (with waves when `on`, crossed out when off). */
function speaker(on) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<path d="M3 7.5h3l4-3.5v12l-4-3.5H3z" fill="currentColor"/>' + (on
    ? '<path d="M13 7a4 4 0 0 1 0 6M15.2 4.8a7 7 0 0 1 0 10.4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>'
    : '<path d="M13 7.5l5 5M18 7.5l-5 5" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>');
  return svg;
}

/**
 * Show table `tableId` in `root`: sit at the seat whose token this browser keeps, offer to
 * join an open seat, or watch as a spectator.
 */
export async function tableView(root, tableId) {
  const view = new TableView(root, tableId);
  await view.start();
  return view;
}

class TableView {
  constructor(root, tableId) {
    this.root = root;
    this.id = tableId;
    this.token = getToken(tableId);
    this.table = null;
    this.mySeat = null;
    this.role = null;
    this.obs = null;
    this.legal = [];
    this.seats = [];
    this.seatsAt = performance.now();
    this.status = "open";
    this.version = -1;
    this.log = [];
    this.result = null;
    this.hint = null;
    this.hintText = "";
    this.pending = false; // or {id, version} of the action on its way to the server
    this.joining = null; // the seat being asked for by this page's join, until the answer
    this.keyQueue = [];
    this.expectFull = true; // the next state starting at 0 holds the whole log
    this.autoMoves = new Map(); // log index -> the computer player that played it for a person
    this.rematchId = null;
    this.ws = null;
    this.conn = "connecting";
    this.attempt = 0;
    this.retryAt = 0;
    this.retryTimer = null;
    this.msgId = 0;
    this.lastHeard = Date.now();
    this.handoverAfter = 15;
    this.hintsAvailable = true;
    this.stopped = false;
    this.agentPick = {};
    this.openBoxes = {};
    this.clock = null; // state.clock, received at clockAt (performance.now())
    this.clockAt = 0;
    this.turnAt = performance.now(); // when the current decision began (seen from here)
    this.chat = new ChatBox((msg) => this.send(msg));
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "muted" }, t("table.loading")));
    try {
      this.table = await api(`/api/tables/${encodeURIComponent(this.id)}`);
    } catch (e) {
      setChildren(this.root, h("section", { class: "panel" },
        h("h2", {}, e.code === "not_found" ? t("table.no_such") : t("table.cannot_load")),
        h("p", {}, errorText(e)), h("p", {}, h("a", { href: "/", "data-testid": "back-to-lobby" }, t("app.back_to_lobby")))));
      return;
    }
    api("/api/options").then((o) => {
      this.handoverAfter = o.handover_after_seconds ?? 15;
      this.hintsAvailable = o.hints_available !== false;
      this.agents = o.difficulties || ["easy", "medium", "hard", "expert"];
    }).catch(() => {});
    this.seats = this.table.seats;
    this.status = this.table.status;
    this.build();
    this.render();
    this.connect();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    window.addEventListener("online", () => this.retryNow());
    setInterval(() => this.tick(), 1000);
  }

  // ----- layout ---------------------------------------------------------------------------
  build() {
    this.el = {
      head: h("header", { class: "table-head" }),
      banner: h("div", { class: "conn-banner", role: "status", "aria-live": "polite" }),
      join: h("div", { class: "join-area" }),
      status: h("div", { class: "status-area" }),
      guide: h("div", { class: "guide-area" }),
      clock: h("div", { class: "clock-area", "aria-live": "off" }),
      others: h("div", { class: "others-area" }),
      rows: h("div", { class: "rows-area" }),
      hint: h("div", { class: "hint-area", "aria-live": "polite" }),
      mine: h("div", { class: "mine-area" }),
      standing: h("div", { class: "standing-area" }),
      log: h("ol", { class: "log", "aria-label": TEXT.log() }),
      logLast: h("span", { class: "log-last", "aria-hidden": "true" }),
      live: h("div", { class: "sr-only", "aria-live": "polite" }),
      result: h("div", { class: "result-area" }),
      help: h("div", { class: "help-area" }),
    };
    const wide = typeof matchMedia === "function" && matchMedia(WIDE).matches;
    this.logBox = h("details", { class: "log-panel", open: wide },
      h("summary", { "data-testid": "log-toggle" }, h("span", { class: "log-title" }, TEXT.log()), this.el.logLast),
      this.el.log);
    this.logBox.addEventListener("toggle", () => { if (this.logBox.open) this.el.log.scrollTop = this.el.log.scrollHeight; });
    this.root.replaceChildren(h("div", { id: "table-view", class: "table-view" },
      this.el.head, this.el.banner, this.el.join, this.el.result,
      h("div", { class: "layout" },
        h("div", { class: "main-col" }, this.el.status, this.el.guide, this.el.clock, this.el.others, this.el.rows, this.el.hint, this.el.mine),
        h("div", { class: "side-col" }, this.el.standing, this.logBox, this.chat.el, this.el.help)),
      this.el.live));
    this.viewEl = this.root.querySelector("#table-view");
  }

  render() {
    if (!this.viewEl) return;
    const focusKey = document.activeElement && this.viewEl.contains(document.activeElement)
      ? document.activeElement.dataset.key : null;
    const blocked = this.pending || this.conn !== "open"; // no actions while offline
    const mine = this.legal.length > 0 && !blocked;
    Object.assign(this.viewEl.dataset, {
      version: String(this.version), status: this.status, conn: this.conn,
      mySeat: this.mySeat === null ? "" : String(this.mySeat),
      toMove: this.obs && this.status === "playing" ? String(this.obs.to_move) : "",
      decision: this.obs ? this.obs.decision : "", mine: mine ? "1" : "0",
    });
    document.title = (mine ? `\u25b6 ${t("table.your_turn_title")} \u2013 ` : "") + `Coloretto \u2013 ${this.table.title || this.id}`;
    this.renderHead();
    this.renderBanner();
    this.renderJoin();
    if (this.obs) {
      setChildren(this.el.status, statusBar(this.obs, this.seats, this.mySeat, this.status));
      setChildren(this.el.rows, rowsPanel(this.obs, this.seats, {
        legal: this.legal, hint: this.hint, pending: blocked,
        onAction: this.mySeat !== null ? (a) => this.act(a) : null, extra: this.hintButton(),
      }));
    } else {
      setChildren(this.el.status, statusBar(null, this.seats, this.mySeat, this.status));
      setChildren(this.el.rows);
    }
    this.renderGuide();
    this.renderClock();
    this.chat.setSeat(this.mySeat, this.seats);
    this.renderHint();
    this.renderPlayers();
    this.renderResult();
    this.renderHelp();
    let target = null;
    if (focusKey) target = this.viewEl.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    const lost = !document.activeElement || document.activeElement === document.body;
    if ((!target || target.disabled) && (focusKey || lost) && mine) {
      // keyboard players keep their place: the first action they may take gets the focus
      target = this.viewEl.querySelector("button.action:enabled");
    }
    if (target && !target.disabled && (focusKey || lost)) target.focus({ preventScroll: true });
  }

  renderHead() {
    const tb = this.table;
    // drawn again only when something in it changes (it keeps the focus of its buttons)
    const key = JSON.stringify([tb.title, tb.invite_url, this.status, this.role, this.mySeat, this.conn, soundOn(),
      this.obs ? this.obs.rules : tb.rules, tb.private, tb.time_control, tb.host]);
    if (key === this.headKey) return;
    this.headKey = key;
    setChildren(this.el.head,
      h("div", { class: "title-line" },
        h("h1", {}, tb.title || t("table.untitled", { id: this.id })),
        h("span", { class: `pill status-${this.status}` }, ["open", "playing", "finished"].includes(this.status) ? t(`table.status.${this.status}`) : this.status),
        this.mySeat === null && this.role === "spectator" ? h("span", { class: "pill" }, t("table.watching")) : null,
        h("span", { class: `conn-dot conn-${this.conn}`, title: t("table.connection", { state: connName(this.conn) }) }, this.conn === "open" ? t("table.live") : connName(this.conn))),
      // the table's options, then its rules (one line on a phone: style.css)
      h("div", { class: "table-info small muted" },
        h("div", { "data-testid": "table-options" }, timeControlText(tb.time_control),
          tb.private ? [" \u00b7 ", t("table.private")] : null,
          tb.host !== null && tb.host !== undefined && tb.host === this.mySeat ? [" \u00b7 ", t("host.you")] : null),
        h("p", {}, rulesSummary(this.obs ? this.obs.rules : tb.rules, tb))),
      this.soundSwitch(),
      this.status === "open" ? this.inviteLine() : null);
  }

  /** The invite link (while seats are open: in the header) or the link to watch (during
   * the game: beside the log). */
  inviteLine() {
    const invite = new URL(this.table.invite_url || `/table/${this.id}`, location.origin).href;
    return h("div", { class: "invite" },
      h("label", { for: "invite-url" }, this.status === "open" ? t("table.invite") : t("table.watch_link"), " "),
      h("input", { id: "invite-url", readonly: true, value: invite, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", "data-testid": "copy-invite", onclick: () => copyText(invite) }, t("table.copy")));
  }

  soundSwitch() {
    const on = soundOn();
    return h("button", {
      type: "button", class: "sound-switch", "data-testid": "sound", "data-key": "sound",
      "aria-pressed": on ? "true" : "false", title: on ? TEXT.soundOnTitle() : TEXT.soundOffTitle(),
      onclick: () => { setSound(!soundOn()); this.render(); },
    }, speaker(on), TEXT.sound());
  }

  renderBanner() {
    if (this.conn === "open" || this.conn === "connecting" && this.attempt === 0) {
      this.el.banner.className = "conn-banner hidden";
      setChildren(this.el.banner);
      return;
    }
    if (this.conn === "gone") {
      this.el.banner.className = "conn-banner";
      setChildren(this.el.banner, t("table.gone"));
      return;
    }
    const secs = Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000));
    this.el.banner.className = "conn-banner";
    setChildren(this.el.banner,
      this.conn === "reconnecting" ? (secs ? t("table.reconnecting_in", { count: secs, attempt: this.attempt })
        : t("table.reconnecting", { attempt: this.attempt }))
        : t("table.connecting"),
      " ", h("button", { type: "button", "data-testid": "retry", onclick: () => this.retryNow() }, t("table.retry")));
  }

  renderJoin() {
    if (this.status === "open" && this.mySeat !== null) {
      const taken = this.seats.filter((s) => s.kind !== "open").length;
      this.joinForm = null;
      setChildren(this.el.join, h("div", { class: "panel waiting", "data-testid": "waiting" },
        h("b", {}, t("table.waiting", { taken, total: this.seats.length })),
        " ", t("table.waiting_more")));
      return;
    }
    const canJoin = this.mySeat === null && this.status === "open" && this.seats.some((s) => s.kind === "open");
    if (!canJoin) {
      if (this.joinForm) { this.joinForm = null; setChildren(this.el.join); }
      if (this.mySeat === null && this.role === "spectator" && this.status === "playing") {
        setChildren(this.el.join, h("p", { class: "panel small" }, t("table.spectator")));
      } else if (!this.joinForm) setChildren(this.el.join);
      return;
    }
    const open = this.seats.filter((s) => s.kind === "open");
    if (this.joinForm) {
      // keep what the person typed; refresh the seat choices only
      const sel = this.joinForm.querySelector("select");
      const keep = sel.value;
      setChildren(sel, open.map((s) => h("option", { value: s.seat }, t("seat.n", { n: s.seat + 1 }))));
      if (open.some((s) => String(s.seat) === keep)) sel.value = keep;
      // our own join may be what took it (the table's news can come before the answer)
      else if (this.joining === null) toast(t("table.seat_just_taken", { n: Number(keep) + 1 }), "error");
      return;
    }
    const name = h("input", { id: "join-name", name: "name", maxlength: 24, required: true, value: getName(), autocomplete: "nickname" });
    const seat = h("select", { id: "join-seat", name: "seat" }, open.map((s) => h("option", { value: s.seat }, t("seat.n", { n: s.seat + 1 }))));
    this.joinForm = h("form", { class: "panel join", onsubmit: (ev) => { ev.preventDefault(); this.join(name.value.trim(), Number(seat.value)); } },
      h("h2", {}, t("table.join_heading")),
      h("div", { class: "field-row" },
        h("label", { for: "join-name" }, t("app.your_name")), name,
        h("label", { for: "join-seat" }, t("table.seat")), seat,
        h("button", { type: "submit", class: "primary", "data-testid": "join" }, t("table.join"))));
    setChildren(this.el.join, this.joinForm);
  }

  /** The guided first game's explanation of the moment (guide.js), on its own table only;
   * drawn again only when its text changes (it keeps the focus of its buttons). */
  renderGuide() {
    const panel = guidePanel(this.id, { obs: this.obs, status: this.status, mySeat: this.mySeat,
      legal: this.legal, result: this.result }, () => this.render());
    const key = panel ? `${panel.dataset.step}|${panel.textContent}` : "";
    if (key === this.guideKey) return;
    this.guideKey = key;
    setChildren(this.el.guide, panel);
  }

  /** The Hint button (on the felt, beside the draw pile) while you decide at a table that
   * allows hints; else null. */
  hintButton() {
    const canHint = this.table.hints && this.hintsAvailable && this.status === "playing" && this.legal.length > 0;
    return canHint ? h("button", { type: "button", class: "hint-btn", "data-key": "hint", "data-testid": "hint", "aria-keyshortcuts": "H", onclick: () => this.askHint() }, t("table.hint"), " ", h("kbd", {}, "H")) : null;
  }

  /** The advice asked for, under the felt. */
  renderHint() {
    setChildren(this.el.hint,
      this.hintText && this.legal.length ? h("p", { class: "hint-text" }, t("table.hint_text", { text: this.hintText })) : null);
  }

  renderClock() {
    setChildren(this.el.clock, this.status === "playing"
      ? clockLine(this.clock, this.seats, this.mySeat, performance.now() - this.clockAt) : null);
  }

  /** The host may replace seat `s`: a person's, not the host's own, absent or idle on their turn. */
  canReplace(s) {
    const seat = this.seats[s];
    if (!seat || seat.kind !== "human" || s === this.mySeat || this.mySeat === null || this.table.host !== this.mySeat) return false;
    if (!seat.connected) return true;
    return this.obs && this.obs.to_move === s && (performance.now() - this.turnAt) / 1000 >= this.handoverAfter;
  }

  awayOf(s) {
    const seat = this.seats[s];
    if (!seat || seat.away_seconds === null || seat.away_seconds === undefined) return null;
    return seat.away_seconds + (performance.now() - this.seatsAt) / 1000;
  }

  renderPlayers() {
    const opts = { status: this.status, awayOf: (s) => this.awayOf(s), controls: (s) => this.seatControls(s) };
    const seated = this.mySeat !== null && this.mySeat !== undefined;
    setChildren(this.el.others, playersPanel(this.obs, this.seats, this.mySeat, { ...opts, which: seated ? "others" : "all", compact: true }));
    setChildren(this.el.mine, seated ? playersPanel(this.obs, this.seats, this.mySeat, { ...opts, which: "mine" }) : null);
    setChildren(this.el.standing, matchStanding(this.obs, this.seats, this.mySeat, this.status));
    keepOpen(this.el.others, this.openBoxes);
    keepOpen(this.el.mine, this.openBoxes);
  }

  seatControls(s) {
    const seat = this.seats[s];
    if (!seat || this.mySeat === null || this.status !== "playing") return null;
    const agents = this.agents || ["easy", "medium", "hard", "expert"];
    // The panel is redrawn on every state and every second while someone is away: the
    // computer player picked for a seat and the open "Leaving?" box are kept across redraws.
    const pick = () => {
      const chosen = this.agentPick[s] || "medium";
      const sel = h("select", { class: "agent-pick", "aria-label": t("table.agent_label"), "data-testid": "agent-pick" },
        agents.map((a) => h("option", { value: a, selected: a === chosen }, agentName(a))));
      sel.addEventListener("change", () => { this.agentPick[s] = sel.value; });
      return sel;
    };
    if (s === this.mySeat) {
      if (seat.kind === "computer" && seat.handed_over) {
        return h("div", { class: "seat-ctl" }, h("button", { type: "button", "data-testid": "reclaim", onclick: () => this.send({ type: "reclaim" }) }, t("table.reclaim")));
      }
      const sel = pick();
      return h("details", { class: "seat-ctl", "data-keep": "leaving" }, h("summary", { "data-testid": "leaving" }, t("table.leaving")),
        h("p", { class: "small" }, t("table.leaving_text")),
        sel, " ", h("button", { type: "button", "data-testid": "hand-over-mine", onclick: () => {
          this.openBoxes.leaving = false;
          this.send({ type: "hand_over", seat: s, agent: sel.value });
        } }, t("table.hand_over_mine")));
    }
    if (this.canReplace(s)) {
      const sel = pick();
      return h("div", { class: "seat-ctl" }, sel, " ",
        h("button", { type: "button", "data-testid": "replace", title: t("host.replace_title"),
          onclick: () => this.send({ type: "replace", seat: s, agent: sel.value }) }, t("host.replace")));
    }
    if (seat.kind === "human" && !seat.connected) {
      const away = this.awayOf(s) ?? 0;
      const wait = Math.ceil(this.handoverAfter - away);
      const sel = pick();
      return h("div", { class: "seat-ctl" }, sel, " ",
        h("button", { type: "button", disabled: wait > 0, "data-testid": "hand-over",
          onclick: () => this.send({ type: "hand_over", seat: s, agent: sel.value }) },
        wait > 0 ? t("table.hand_over_in", { count: wait }) : t("table.hand_over")));
    }
    return null;
  }

  renderResult() {
    if (this.status !== "finished" || !this.result) { setChildren(this.el.result); return; }
    const r = this.result;
    const controls = [];
    // Once a rematch exists (asked for by anyone) there is only its link: never a second table.
    if (this.mySeat !== null && !this.rematchId) {
      controls.push(h("button", { type: "button", class: "primary", "data-testid": "rematch", onclick: () => this.send({ type: "rematch" }) }, t("table.rematch")));
    }
    if (this.rematchId) {
      controls.push(h("button", { type: "button", class: "primary", "data-testid": "join-rematch", onclick: () => this.joinRematch() },
        this.mySeat !== null ? t("table.join_rematch") : t("table.watch_rematch")));
    }
    controls.push(h("a", { class: "button", href: r.record_url, download: `coloretto-${this.id}.json`, "data-testid": "record" }, t("app.download_record")));
    controls.push(h("a", { class: "button", href: r.replay_url, "data-testid": "replay" }, t("table.replay")));
    setChildren(this.el.result, resultPanel(r, this.seats, this.mySeat, controls));
  }

  renderHelp() {
    setChildren(this.el.help, this.obs ? scoreLegend(this.obs.rules) : null,
      this.status === "playing" ? this.inviteLine() : null,
      h("details", { class: "keys", "data-keep": "keys" },
      h("summary", { "data-testid": "keys" }, t("keys.summary")),
      h("ul", { class: "small" },
        h("li", {}, h("kbd", {}, "D"), " ", t("keys.draw")),
        h("li", {}, h("kbd", {}, "1"), "\u2013", h("kbd", {}, "6"), " ", t("keys.rows")),
        h("li", {}, h("kbd", {}, "1"), "\u2013", h("kbd", {}, "7"), " ", t("keys.colours")),
        h("li", {}, h("kbd", {}, "H"), " ", t("keys.hint")),
        h("li", {}, h("kbd", {}, "Tab"), " ", t("keys.tab"), " ", h("kbd", {}, "Enter"), " ", t("keys.enter")))));
    keepOpen(this.el.help, this.openBoxes);
  }

  renderLog(reset, atBottom) {
    const el = this.el.log;
    if (reset) el.replaceChildren();
    const have = el.querySelectorAll(":scope > li[data-i]").length;
    for (let k = have; k < this.log.length; k++) {
      el.append(...logItems(this.entry(k), k > 0 ? this.log[k - 1] : null, this.seats));
    }
    if (atBottom || reset) el.scrollTop = el.scrollHeight;
    const last = this.log.length ? this.entry(this.log.length - 1) : null;
    const text = last ? logText(last, this.seats) : "";
    if (last) this.el.live.textContent = text;
    this.el.logLast.textContent = text;
  }

  /** Log entry k, with `agent` set when a computer player played it for a person. */
  entry(k) {
    const e = this.log[k];
    const agent = e.agent || this.autoMoves.get(e.i);
    return agent && !e.agent ? { ...e, agent } : e;
  }

  tick() {
    if (this.conn === "reconnecting") this.renderBanner();
    if (this.clock && this.status === "playing") this.renderClock();
    if (this.table.host === this.mySeat && this.mySeat !== null && this.status === "playing") this.renderPlayersKeepFocus();
    if (this.seats.some((s) => s.kind === "human" && !s.connected) && this.status === "playing") this.renderPlayersKeepFocus();
  }

  renderPlayersKeepFocus() {
    const a = document.activeElement;
    // do not pull a menu from under the person
    if (a && (this.el.others.contains(a) || this.el.mine.contains(a))) return;
    this.renderPlayers();
  }

  // ----- WebSocket ------------------------------------------------------------------------
  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(this.id)}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.send({ type: "hello", token: this.token || null });
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4404) { this.conn = "gone"; this.stopped = true; this.render(); return; }
      this.scheduleRetry();
    };
    ws.onerror = () => { /* a close event follows */ };
    if (!this.pinger) {
      this.pinger = setInterval(() => {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
        if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) { this.ws.close(); return; }
        this.send({ type: "ping" });
      }, PING_EVERY_MS);
    }
  }

  scheduleRetry() {
    this.attempt += 1;
    this.conn = "reconnecting";
    this.pending = false;
    this.keyQueue = [];
    const delay = Math.min(MAX_RETRY_MS, MIN_RETRY_MS * 1.5 ** (this.attempt - 1)) * (0.8 + 0.4 * Math.random());
    const wait = Math.max(MIN_RETRY_MS, Math.min(MAX_RETRY_MS, delay));
    this.retryAt = Date.now() + wait;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), wait);
    this.render();
  }

  retryNow() {
    if (this.ws || this.stopped) return;
    this.connect();
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      if (msg.type !== "ping") toast(t("table.not_connected"), "error");
      return false;
    }
    if (msg.id === undefined && msg.type !== "ping" && msg.type !== "hello") msg.id = ++this.msgId;
    if (msg.type === "hello" || msg.type === "sync") this.expectFull = true;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.conn = "open";
        this.attempt = 0;
        this.mySeat = msg.seat;
        this.role = msg.role;
        this.table = msg.table || this.table;
        if (msg.table && msg.table.rematch) this.rematchId = msg.table.rematch;
        this.seats = this.table.seats;
        this.seatsAt = performance.now();
        this.status = this.table.status;
        this.render();
        break;
      case "state": this.onState(msg); break;
      case "seats":
        this.seats = msg.seats;
        this.seatsAt = performance.now();
        if (msg.status && msg.status !== this.status) { this.status = msg.status; this.send({ type: "sync" }); }
        this.render();
        break;
      case "hint":
        this.hint = msg.action || null;
        this.hintText = hintExplanation(msg);
        this.render();
        break;
      case "rematch":
        setToken(msg.table_id, msg.token);
        location.href = `/table/${encodeURIComponent(msg.table_id)}`;
        break;
      case "rematch_offered":
        this.rematchId = msg.table_id;
        toast(t("table.rematch_offered"));
        this.render();
        break;
      case "chat": this.chat.add(msg); break;
      case "chat_history": this.chat.history(msg.messages || []); break;
      case "pong": break;
      case "error": this.onError(msg); break;
      default: break;
    }
  }

  onState(msg) {
    const wasMine = this.legal.length > 0;
    const wasStatus = this.status;
    // A full state (the answer to hello or sync) replaces the log; any other state adds the
    // entries played since the last one (`fresh`: seen as they happen). Both start at 0
    // while the game has no action yet.
    let fresh = [];
    const full = msg.log_from === undefined || (msg.log_from === 0 && this.expectFull);
    if (msg.log_from === 0) this.expectFull = false;
    if (full) {
      this.log = msg.log || [];
      this.renderLogReset = true;
    } else if (msg.log_from <= this.log.length) {
      if (msg.log_from < this.log.length) this.renderLogReset = true;
      else fresh = msg.log || [];
      this.log = this.log.slice(0, msg.log_from).concat(msg.log || []);
    } else {
      this.send({ type: "sync" }); // a gap: ask for everything again
    }
    // Actions seen as they happen in a seat handed to a computer player were played by it.
    for (const e of fresh) {
      const seat = (msg.seats || this.seats)[e.seat];
      if (seat && seat.kind === "computer" && seat.handed_over) this.autoMoves.set(e.i, seat.agent);
    }
    if (msg.version !== this.version) { this.hint = null; this.hintText = ""; this.turnAt = performance.now(); }
    this.clock = msg.clock || null;
    this.clockAt = performance.now();
    this.version = msg.version;
    this.status = msg.status;
    this.obs = msg.observation;
    this.legal = msg.legal || [];
    this.seats = msg.seats || this.seats;
    this.seatsAt = performance.now();
    this.result = msg.result;
    noteMoments(this.id, { obs: this.obs, status: this.status, mySeat: this.mySeat, legal: this.legal, result: this.result });
    const p = this.pending;
    if (p && (msg.id === p.id || msg.version > p.version || msg.status !== "playing")) this.pending = false;
    // The sound of the newest action now (sound.js leaves out those that follow too
    // closely), its movement with the next drawing of the page.
    const newest = fresh[fresh.length - 1];
    if (newest) {
      this.newest = newest;
      const kind = newest.action && newest.action.action;
      playSound(kind === "choose_start" ? "take" : kind, newest.seat === this.mySeat);
    }
    if (this.status === "finished" && wasStatus === "playing") playSound("end");
    else if (this.legal.length > 0 && !wasMine) playSound("turn");
    this.drainKeys();
    this.scheduleDraw();
  }

  /**
   * Draw the newest state once per frame: states that come in a burst (computer players
   * moving fast, a reconnect) are drawn together. A hidden tab, where frames do not come,
   * is drawn by a timer (its title says whose turn it is).
   */
  scheduleDraw() {
    if (this.drawQueued) return;
    this.drawQueued = true;
    const draw = () => {
      if (!this.drawQueued) return;
      this.drawQueued = false;
      this.draw();
    };
    if (!document.hidden && typeof requestAnimationFrame === "function") requestAnimationFrame(draw);
    setTimeout(draw, document.hidden ? 0 : 200);
  }

  /** Redraw the page for the states received since the last draw, then play the newest
   * action's movement (the page is already up to date when it starts). */
  draw() {
    const newest = this.newest;
    this.newest = null;
    const before = newest ? capture(this.viewEl) : null; // what the screen shows now
    const el = this.el.log;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    this.render();
    this.renderLog(this.renderLogReset, atBottom);
    this.renderLogReset = false;
    if (newest) playMotion(before, this.viewEl, newest);
  }

  onError(msg) {
    this.pending = false;
    this.keyQueue = [];
    if (msg.code === "bad_token" && this.token && this.mySeat === null) {
      // the kept token belongs to no seat here (e.g. a new database): watch instead
      setToken(this.id, null);
      this.token = null;
      toast(t("table.bad_saved_seat"), "error");
      this.send({ type: "hello", token: null });
      return;
    }
    if (msg.code === "stale") return; // a fresh state follows
    toast(errorText(msg), "error");
    this.render();
  }

  // ----- actions ----------------------------------------------------------------------------
  act(action) {
    if (this.pending || !isLegal(this.legal, action)) return;
    const msg = { type: "action", action, version: this.version };
    if (this.send(msg)) {
      this.pending = { id: msg.id, version: this.version };
      this.render();
    }
  }

  askHint() {
    if (!this.table.hints || !this.legal.length) return;
    this.hintText = t("table.thinking");
    this.renderHint();
    this.send({ type: "hint" });
  }

  async join(name, seat) {
    if (this.joining !== null) return; // a double click joins once
    if (!name) { toast(t("table.name_first"), "error"); return; }
    setName(name);
    this.joining = seat;
    try {
      const r = await api(`/api/tables/${encodeURIComponent(this.id)}/join`, { name, seat });
      setToken(this.id, r.token);
      this.token = r.token;
      this.table = r.table;
      this.joinForm = null;
      setChildren(this.el.join);
      this.send({ type: "hello", token: r.token });
    } catch (e) {
      toast(errorText(e), "error");
    } finally {
      this.joining = null;
    }
  }

  async joinRematch() {
    const id = this.rematchId;
    if (this.mySeat === null || getToken(id)) { location.href = `/table/${encodeURIComponent(id)}`; return; }
    // Seated here: the server seats us at our old seat, or gives it again if we hold it
    // already (an earlier reply that never arrived); its `rematch` reply opens the table.
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.send({ type: "rematch" }); return; }
    try {
      const me = this.seats[this.mySeat];
      const name = (me && me.name && !me.name.startsWith("computer:")) ? me.name : getName();
      const r = await api(`/api/tables/${encodeURIComponent(id)}/join`, { name, seat: this.mySeat });
      setToken(id, r.token);
    } catch (e) {
      if (e.code !== "seat_taken" && e.code !== "not_open") { toast(errorText(e), "error"); return; }
    }
    location.href = `/table/${encodeURIComponent(id)}`;
  }

  /** The action key `k` ("d", "1".."9") names in the current decision, or null. */
  keyAction(k) {
    const obs = this.obs;
    if (!obs || this.status !== "playing") return null;
    if (k === "d") return { action: "draw" };
    const n = Number(k) - 1;
    if (obs.decision === "place") return { action: "place", row: n };
    if (obs.decision === "turn") return { action: "take", row: n };
    if (obs.decision === "choose_start" && obs.colors[n]) return { action: "choose_start", color: obs.colors[n] };
    return null;
  }

  /** Play the keys pressed while the last action was on its way, in order (see MAX_QUEUED_KEYS). */
  drainKeys() {
    while (this.keyQueue.length && !this.pending) {
      if (!this.legal.length || this.conn !== "open") { this.keyQueue = []; return; }
      const a = this.keyAction(this.keyQueue.shift());
      if (a && isLegal(this.legal, a)) this.act(a);
    }
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    if (!this.obs || this.status !== "playing") return;
    const k = ev.key.toLowerCase();
    if (k === "h") {
      this.askHint();
    } else if (k === "d" || /^[1-9]$/.test(k)) {
      if (this.pending) {
        if (this.keyQueue.length < MAX_QUEUED_KEYS) this.keyQueue.push(k);
      } else {
        const a = this.keyAction(k);
        if (!a) return;
        this.act(a);
      }
    } else {
      return;
    }
    ev.preventDefault();
  }
}

export { turnText, seatLabel };
