// The replay viewer: step through a finished game move by move (GET /api/tables/{id}/replay).
// The link /replay/{id}#N opens it at move N. A replay shows no live state of the seats
// (who is connected now, who handed a seat over): only what happened in the game.
import { api, errorText, h, setChildren, copyText, keepOpen } from "./api.js";
import { t } from "./i18n.js";
import { statusBar, rowsPanel, playersPanel, matchStanding, scoreLegend, rulesSummary } from "./board.js";
import { logItems, logText, resultPanel } from "./gamelog.js";

/** Show the replay of finished table `tableId` in `root`. */
export async function replayView(root, tableId) {
  setChildren(root, h("p", { class: "muted" }, t("replay.loading")));
  let data;
  try {
    data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (e) {
    setChildren(root, h("section", { class: "panel" },
      h("h2", {}, e.code === "game_not_over" ? t("replay.not_over") : t("replay.cannot_load")),
      h("p", {}, errorText(e)),
      e.code === "game_not_over" ? h("p", {}, h("a", { href: `/table/${encodeURIComponent(tableId)}`, "data-testid": "watch-live" }, t("replay.watch_live"))) : null,
      h("p", {}, h("a", { href: "/", "data-testid": "back-to-lobby" }, t("app.back_to_lobby")))));
    return;
  }
  const steps = data.steps;
  const seats = data.table.seats;
  const last = steps.length - 1;
  const fromHash = Number.parseInt(location.hash.slice(1), 10);
  let i = Number.isInteger(fromHash) ? Math.max(0, Math.min(last, fromHash)) : 0;
  let timer = null;
  const openBoxes = {}; // the score legend stays open from move to move

  const caption = h("p", { class: "caption", "aria-live": "polite", "data-testid": "replay-caption" });
  const slider = h("input", { type: "range", min: 0, max: last, value: i, "aria-label": t("replay.move"), id: "replay-slider" });
  const counter = h("span", { class: "counter" });
  const board = h("div", {});
  const logEl = h("ol", { class: "log", "aria-label": t("replay.moves") });
  const playText = () => `\u25b6 ${t("replay.play")}`;
  const playBtn = h("button", { type: "button", onclick: () => toggle(), title: t("replay.play_title"), "data-testid": "play" }, playText());
  const go = (n) => {
    i = Math.max(0, Math.min(last, n));
    history.replaceState(null, "", `#${i}`);
    draw();
  };
  const toggle = () => {
    if (timer) { clearInterval(timer); timer = null; playBtn.textContent = playText(); return; }
    if (i >= last) go(0);
    playBtn.textContent = t("replay.pause");
    timer = setInterval(() => { if (i >= last) toggle(); else go(i + 1); }, 700);
  };
  slider.addEventListener("input", () => go(Number(slider.value)));

  const draw = () => {
    const step = steps[i];
    const obs = step.observation;
    slider.value = String(i);
    firstBtn.disabled = prevBtn.disabled = i === 0;
    nextBtn.disabled = lastBtn.disabled = i === last;
    counter.textContent = i === 0 ? t("replay.start", { count: last }) : t("replay.counter", { n: i, total: last });
    caption.textContent = i === 0 ? t("replay.start_caption") : `${i}. ${logText(step, seats)}`;
    setChildren(board,
      statusBar(obs, seats, null, i === last ? "finished" : "playing"),
      h("div", { class: "layout" },
        h("div", { class: "main-col" }, rowsPanel(obs, seats), scoreLegend(obs.rules)),
        h("div", { class: "side-col" }, matchStanding(obs, seats, null, i === last ? "finished" : "playing"),
          playersPanel(obs, seats, null, { status: i === last ? "finished" : "playing", presence: false }))),
      i === last && data.result ? resultPanel(data.result, seats, null, [
        h("a", { class: "button", href: data.result.record_url, download: `coloretto-${tableId}.json`, "data-testid": "record" }, t("app.download_record"))]) : null);
    keepOpen(board, openBoxes);
    const entries = steps.slice(1, i + 1).map((s) => ({ ...s, i: s.i - 1 }));
    logEl.replaceChildren(...entries.flatMap((e, k) => logItems(e, k > 0 ? entries[k - 1] : null, seats)));
    logEl.scrollTop = logEl.scrollHeight;
  };

  // The buttons that cannot move (back at the start, forward at the end) are disabled.
  const firstBtn = h("button", { type: "button", onclick: () => go(0), title: t("replay.first_title"), "data-testid": "first" }, `\u00ab ${t("replay.first")}`);
  const prevBtn = h("button", { type: "button", onclick: () => go(i - 1), title: t("replay.prev_title"), "data-testid": "prev" }, `\u25c0 ${t("replay.prev")}`);
  const nextBtn = h("button", { type: "button", onclick: () => go(i + 1), title: t("replay.next_title"), "data-testid": "next" }, `${t("replay.next")} \u25b6`);
  const lastBtn = h("button", { type: "button", onclick: () => go(last), title: t("replay.last_title"), "data-testid": "last" }, `${t("replay.last")} \u00bb`);
  const link = () => new URL(`/replay/${encodeURIComponent(tableId)}#${i}`, location.origin).href;
  setChildren(root, h("div", { class: "replay", id: "replay-view" },
    h("header", { class: "table-head" },
      h("div", { class: "title-line" }, h("h1", {}, t("replay.title", { title: data.table.title || t("table.untitled", { id: tableId }) }))),
      h("p", { class: "small muted" }, rulesSummary(data.table.rules, data.table))),
    h("div", { class: "replay-controls panel", role: "group", "aria-label": t("replay.controls") },
      firstBtn, prevBtn, nextBtn, lastBtn,
      playBtn, slider, counter,
      h("button", { type: "button", onclick: () => copyText(link()), "data-testid": "copy-move-link" }, t("replay.copy_link"))),
    caption, board,
    h("section", { class: "log-panel" }, h("h2", {}, t("replay.so_far")), logEl)));
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "SELECT"))) return;
    const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: last };
    if (ev.key in moves) { ev.preventDefault(); go(moves[ev.key]); }
    else if (ev.key === " " && t.tagName !== "BUTTON") { ev.preventDefault(); toggle(); }
  });
  window.addEventListener("hashchange", () => {
    const n = Number.parseInt(location.hash.slice(1), 10);
    if (Number.isInteger(n) && n !== i) go(n);
  });
  draw();
}
