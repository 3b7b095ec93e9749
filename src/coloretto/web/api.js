// HTTP helpers, local storage and small DOM helpers shared by every view.
// The contract of every endpoint is docs/web-api.md.
import { exists, language, t } from "./i18n.js";

/** Error raised for an HTTP error reply: `code` and `message` come from the server body. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Call the HTTP API. `body` (an object) is sent as JSON with POST.
 * Returns the parsed JSON reply; throws ApiError on an HTTP error (with the server's
 * `{"error": {"code", "message"}}`) or on a network failure (code "network").
 */
export async function api(path, body = undefined) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || "http_" + res.status, e.message || t("error.http", { status: res.status }));
  }
  return data;
}

// ----- browser storage --------------------------------------------------------------------
const NAME_KEY = "coloretto.name";

/** The player's name as last entered ("" if none). */
export function getName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

/** Remember the player's name, and show it in the page header's "Your name" field. */
export function setName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode: not kept */ }
  const field = typeof document !== "undefined" ? document.getElementById("player-name") : null;
  if (field && field.value.trim() !== name) field.value = name;
}

/** The secret seat token kept for table `id`, or null (docs/web-api.md: coloretto.token.{id}). */
export function getToken(id) {
  try { return localStorage.getItem(`coloretto.token.${id}`); } catch { return null; }
}

/** Keep (or with null forget) the seat token of table `id`. */
export function setToken(id, token) {
  try {
    if (token) localStorage.setItem(`coloretto.token.${id}`, token);
    else localStorage.removeItem(`coloretto.token.${id}`);
  } catch { /* private mode: the seat is lost on reload */ }
}

// ----- DOM --------------------------------------------------------------------------------
/**
 * Build an element: h("button", {class: "x", onclick: f, dataset: {row: 1}}, "text", child).
 * Strings become text nodes (never HTML), null/false children are skipped, arrays are flattened.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, val);
        else el.style[prop] = val;
      }
    }
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replace the children of `el`. */
export function setChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * Keep the open/closed state of the `<details data-keep="KEY">` boxes inside `el` across
 * redraws: `store` (an object kept by the view) maps KEY to true when the person opened it.
 * Call it after every redraw of `el`.
 */
export function keepOpen(el, store) {
  for (const box of el.querySelectorAll("details[data-keep]")) {
    const key = box.dataset.keep;
    box.open = Boolean(store[key]);
    box.addEventListener("toggle", () => { store[key] = box.open; });
  }
}

const toastTimers = new WeakMap();

/** Show a short message in the page's status area (`kind`: "info" | "error"). The same
 * message shown again while it is still there is not stacked: it moves to the end and
 * stays for its full time again. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const same = [...box.children].find((n) => n.classList.contains(`toast-${kind}`) && n.textContent === text);
  const note = same || h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  clearTimeout(toastTimers.get(note));
  box.appendChild(note);
  toastTimers.set(note, setTimeout(() => note.remove(), kind === "error" ? 6000 : 3500));
}

/** Copy `text` to the clipboard (falls back to selecting it in a prompt). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("app.link_copied"));
  } catch {
    window.prompt(t("app.copy_prompt"), text);
  }
}

/** The display name of a seat (`SEAT` of docs/web-api.md). */
export function seatLabel(seat) {
  if (!seat) return "?";
  if (seat.kind === "open") return t("seat.open", { n: seat.seat + 1 });
  const n = seat.name || t("seat.n", { n: seat.seat + 1 });
  if (n.startsWith("computer:")) return t("seat.computer", { n: seat.seat + 1, agent: agentName(n.slice(9)) });
  return n;
}

/** A computer player's name ("easy", "mcts"...) in the page's language (unknown: as sent). */
export function agentName(agent) {
  return exists(`agent.${agent}`) ? t(`agent.${agent}`) : agent;
}

/**
 * The text people see for a refusal (ApiError, or a WebSocket `error` message): in English
 * the server's own message (it names the row, seat or field); in the other languages the
 * translation of its code (`error.<code>` of the catalogs), with the server's message only
 * for a code the catalogs do not know.
 * @param {{code?: string, message?: string}} err
 * @returns {string}
 */
export function errorText(err) {
  const code = err && err.code;
  const known = code && exists(`error.${code}`);
  if (known && (language() !== "en" || !err.message)) return t(`error.${code}`);
  return (err && err.message) || (known ? t(`error.${code}`) : String(code || ""));
}
