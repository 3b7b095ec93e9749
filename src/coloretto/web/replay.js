// The replay viewer: step through a finished game move by move (GET /api/tables/{id}/replay).
// The link /replay/{id}#N opens it at move N. A replay shows no live state of the seats
// (who is connected now, who handed a seat over): only what happened in the game.
import { api, h, setChildren, copyText, keepOpen } from "./api.js";
import { statusBar, rowsPanel, playersPanel, matchStanding, scoreLegend, rulesSummary } from "./board.js";
import { logItems, logText, resultPanel } from "./gamelog.js";

/** Show the replay of finished table `tableId` in `root`. */
export async function replayView(root, tableId) {
  setChildren(root, h("p", { class: "muted" }, "Loading replay\u2026"));
  let data;
  try {
    data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (e) {
    setChildren(root, h("section", { class: "panel" },
      h("h2", {}, e.code === "game_not_over" ? "This game is not over yet" : "The replay cannot be loaded"),
      h("p", {}, e.message),
      e.code === "game_not_over" ? h("p", {}, h("a", { href: `/table/${encodeURIComponent(tableId)}`, "data-testid": "watch-live" }, "Watch it live")) : null,
      h("p", {}, h("a", { href: "/", "data-testid": "back-to-lobby" }, "Back to the lobby"))));
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
  const slider = h("input", { type: "range", min: 0, max: last, value: i, "aria-label": "move", id: "replay-slider" });
  const counter = h("span", { class: "counter" });
  const board = h("div", {});
  const logEl = h("ol", { class: "log", "aria-label": "Moves" });
  const playBtn = h("button", { type: "button", onclick: () => toggle(), title: "play / pause (Space)", "data-testid": "play" }, "\u25b6 Play");
  const go = (n) => {
    i = Math.max(0, Math.min(last, n));
    history.replaceState(null, "", `#${i}`);
    draw();
  };
  const toggle = () => {
    if (timer) { clearInterval(timer); timer = null; playBtn.textContent = "\u25b6 Play"; return; }
    if (i >= last) go(0);
    playBtn.textContent = "Pause";
    timer = setInterval(() => { if (i >= last) toggle(); else go(i + 1); }, 700);
  };
  slider.addEventListener("input", () => go(Number(slider.value)));

  const draw = () => {
    const step = steps[i];
    const obs = step.observation;
    slider.value = String(i);
    counter.textContent = i === 0 ? `start (${last} moves)` : `move ${i} of ${last}`;
    caption.textContent = i === 0 ? "The start of the game" : `${i}. ${logText(step, seats)}`;
    setChildren(board,
      statusBar(obs, seats, null, i === last ? "finished" : "playing"),
      h("div", { class: "layout" },
        h("div", { class: "main-col" }, rowsPanel(obs, seats), scoreLegend(obs.rules)),
        h("div", { class: "side-col" }, matchStanding(obs, seats, null, i === last ? "finished" : "playing"),
          playersPanel(obs, seats, null, { status: i === last ? "finished" : "playing", presence: false }))),
      i === last && data.result ? resultPanel(data.result, seats, null, [
        h("a", { class: "button", href: data.result.record_url, download: `coloretto-${tableId}.json`, "data-testid": "record" }, "Download record")]) : null);
    keepOpen(board, openBoxes);
    const entries = steps.slice(1, i + 1).map((s) => ({ ...s, i: s.i - 1 }));
    logEl.replaceChildren(...entries.flatMap((e, k) => logItems(e, k > 0 ? entries[k - 1] : null, seats)));
    logEl.scrollTop = logEl.scrollHeight;
  };

  const link = () => new URL(`/replay/${encodeURIComponent(tableId)}#${i}`, location.origin).href;
  setChildren(root, h("div", { class: "replay", id: "replay-view" },
    h("header", { class: "table-head" },
      h("div", { class: "title-line" }, h("h1", {}, `Replay: ${data.table.title || `table ${tableId}`}`)),
      h("p", { class: "small muted" }, rulesSummary(data.table.rules, data.table))),
    h("div", { class: "replay-controls panel", role: "group", "aria-label": "Replay controls" },
      h("button", { type: "button", onclick: () => go(0), title: "first (Home)", "data-testid": "first" }, "\u00ab First"),
      h("button", { type: "button", onclick: () => go(i - 1), title: "previous (\u2190)", "data-testid": "prev" }, "\u25c0 Back"),
      h("button", { type: "button", onclick: () => go(i + 1), title: "next (\u2192)", "data-testid": "next" }, "Next \u25b6"),
      h("button", { type: "button", onclick: () => go(last), title: "last (End)", "data-testid": "last" }, "Last \u00bb"),
      playBtn, slider, counter,
      h("button", { type: "button", onclick: () => copyText(link()), "data-testid": "copy-move-link" }, "Copy link to this move")),
    caption, board,
    h("section", { class: "log-panel" }, h("h2", {}, "Moves so far"), logEl)));
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
