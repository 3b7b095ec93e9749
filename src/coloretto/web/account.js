// The account box of the page header (sign up, log in, log out) and the "rated" checkbox of
// the create-table form, which needs a signed-in player. The endpoints are docs/web-api.md,
// "Accounts"; the session lives in an HttpOnly cookie that scripts never see.
import { api, ApiError, h, setChildren, setName, toast } from "./api.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";

/** The signed-in account ({id, name}) or null; kept up to date by the header box. */
let current = null;
const listeners = new Set();

/** The signed-in account ({id, name}), or null for a guest. */
export function currentAccount() {
  return current;
}

/** Call `fn(account)` whenever someone signs in or out. Returns a function that stops it. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed(account) {
  current = account;
  if (account) setName(account.name);
  for (const fn of listeners) fn(account);
}

const ERRORS = {
  bad_login: "account.error.bad_login",
  name_taken: "account.error.name_taken",
  bad_password: "account.error.bad_password",
  bad_name: "account.error.bad_name",
};

function problem(e) {
  const key = e instanceof ApiError ? ERRORS[e.code] : undefined;
  return key ? t(key) : t("account.error.other", { message: e.message });
}

/**
 * Fill the header's account box `root`: "Log in / sign up" for a guest (opening a small
 * form), "Signed in as NAME" and "Log out" for an account holder.
 * @param {HTMLElement} root
 */
export async function accountBox(root) {
  await initI18n();
  let open = false;
  const draw = () => {
    if (current) {
      setChildren(root,
        h("span", { class: "small", "data-testid": "signed-in" }, t("account.signed_in", { name: current.name })), " ",
        h("button", { type: "button", "data-testid": "log-out", onclick: logOut }, t("account.log_out")));
      return;
    }
    if (!open) {
      setChildren(root, h("button", { type: "button", "data-testid": "account-open", onclick: () => { open = true; draw(); } },
        t("account.log_in_or_sign_up")));
      return;
    }
    const name = h("input", { id: "account-name", maxlength: 24, autocomplete: "username", required: true });
    const password = h("input", { id: "account-password", type: "password", minlength: 8, maxlength: 256,
      autocomplete: "current-password", required: true });
    let busy = false; // one request at a time: a double click sends once
    const send = async (path, what) => {
      if (busy) return;
      if (!name.value.trim() || !password.value) { toast(t("account.error.missing"), "error"); return; }
      busy = true;
      try {
        const r = await api(path, { name: name.value.trim(), password: password.value });
        open = false;
        changed(r.account);
        toast(t(what, { name: r.account.name }));
      } catch (e) {
        toast(problem(e), "error");
      } finally {
        busy = false;
      }
    };
    setChildren(root, h("form", { class: "account-form", "data-testid": "account-form",
      onsubmit: (ev) => { ev.preventDefault(); send("/api/session", "account.welcome_back"); } },
      h("label", { for: "account-name" }, t("account.name")), name,
      h("label", { for: "account-password" }, t("account.password")), password,
      h("button", { type: "submit", class: "primary", "data-testid": "log-in" }, t("account.log_in")),
      h("button", { type: "button", "data-testid": "sign-up", onclick: () => send("/api/accounts", "account.welcome") },
        t("account.sign_up")),
      h("button", { type: "button", "data-testid": "account-cancel", onclick: () => { open = false; draw(); } },
        t("account.cancel"))));
    name.focus();
  };
  const logOut = async () => {
    try {
      await fetch("/api/session", { method: "DELETE" });
      changed(null);
      toast(t("account.logged_out"));
    } catch (e) {
      toast(t("account.error.other", { message: e.message }), "error");
    }
  };
  onAccountChange(draw);
  onLanguageChange(draw);
  let account = null;
  try {
    account = (await api("/api/session")).account;
  } catch {
    account = null; // the server cannot be reached: a guest for now
  }
  changed(account);
}

/**
 * The create-table form's "rated" checkbox: usable only when signed in (a note says so
 * otherwise); checking it turns `hints` off, since rated games have no hints.
 * @param {HTMLInputElement} hints the form's "allow hints" checkbox
 * @returns {{box: HTMLInputElement, note: HTMLElement}}
 */
export function ratedBox(hints) {
  const box = h("input", { id: "rated", type: "checkbox" });
  const note = h("span", { class: "small muted", "data-testid": "rated-note" });
  const sync = () => {
    box.disabled = !current;
    if (!current) box.checked = false;
    note.textContent = current ? "" : ` (${t("account.rated_needs_account")})`;
    hints.disabled = box.checked;
    if (box.checked) hints.checked = false;
  };
  box.addEventListener("change", sync);
  onAccountChange(sync);
  onLanguageChange(sync);
  sync();
  return { box, note };
}
