// The table chat (docs/web-api.md, chat): the players write, everyone reads. Messages are
// put on the page as text, never as markup. The mute switch hides the messages (and the
// count of unread ones keeps going); it is remembered in this browser.
import { h, seatLabel, setChildren } from "./api.js";
import { t } from "./i18n.js";

const MUTE_KEY = "coloretto.chat.muted";
const MAX_CHARS = 200;
const SHOWN = 50;

function mutedStored() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch { return false; }
}

export class ChatBox {
  /**
   * @param {(msg: object) => boolean} send sends a client message
   */
  constructor(send) {
    this.send = send;
    this.messages = [];
    this.muted = mutedStored();
    this.unread = 0;
    this.canWrite = false;
    this.seats = [];
    this.mySeat = null;
    this.list = h("ol", { class: "chat-list", "aria-live": "polite", "data-testid": "chat-list" });
    this.input = h("input", { id: "chat-text", maxlength: MAX_CHARS, autocomplete: "off" });
    this.form = h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.submit(); } },
      h("label", { for: "chat-text", class: "sr-only" }, t("chat.label")), this.input,
      h("button", { type: "submit", "data-testid": "chat-send" }, t("chat.send")));
    this.note = h("p", { class: "small muted chat-note" });
    this.muteBtn = h("button", { type: "button", class: "chat-mute", "data-testid": "chat-mute", onclick: () => this.toggleMute() });
    this.el = h("section", { class: "chat panel", "aria-label": t("chat.title"), "data-testid": "chat" },
      h("div", { class: "chat-head" }, h("h2", {}, t("chat.title")), this.muteBtn),
      this.list, this.note, this.form);
    this.draw();
  }

  /** Who is writing: `mySeat` (null: a spectator, who reads only). */
  setSeat(mySeat, seats) {
    this.mySeat = mySeat;
    this.seats = seats || [];
    const can = mySeat !== null && mySeat !== undefined;
    if (can !== this.canWrite) { this.canWrite = can; this.draw(); }
  }

  history(messages) {
    this.messages = messages.slice(-SHOWN);
    this.unread = 0;
    this.draw();
  }

  add(msg) {
    if (this.messages.some((m) => m.n === msg.n)) return;
    this.messages.push(msg);
    if (this.messages.length > SHOWN) this.messages.shift();
    if (this.muted && msg.seat !== this.mySeat) this.unread += 1;
    this.draw();
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.send({ type: "chat", text })) this.input.value = "";
  }

  toggleMute() {
    this.muted = !this.muted;
    this.unread = 0;
    try { localStorage.setItem(MUTE_KEY, this.muted ? "1" : "0"); } catch { /* not kept */ }
    this.draw();
  }

  draw() {
    this.muteBtn.textContent = this.muted ? t("chat.unmute") : t("chat.mute");
    this.muteBtn.setAttribute("aria-pressed", this.muted ? "true" : "false");
    this.list.hidden = this.muted;
    setChildren(this.list, this.muted ? [] : this.messages.map((m) => h("li", { class: "chat-msg" + (m.seat === this.mySeat ? " mine" : "") },
      h("b", { class: "chat-who" }, seatLabel(this.seats[m.seat] || { name: m.name, kind: "human" })), " ",
      h("span", { class: "chat-text" }, m.text))));
    this.list.scrollTop = this.list.scrollHeight;
    const notes = [];
    if (this.muted) notes.push(t("chat.muted", { count: this.unread }));
    if (!this.canWrite) notes.push(t("chat.spectators"));
    this.note.textContent = notes.join(" ");
    this.note.hidden = !notes.length;
    this.form.hidden = !this.canWrite;
  }
}
