// Translations of the browser client (docs/web-client.md, "Languages").
//
// One catalog per language, web/locales/<lang>.json, all with the same keys (en.json is the
// reference; tests/web/test_locales.py checks it). A key maps to a string, or, for a string
// that depends on a number, to its plural forms by Intl.PluralRules category
// ({"one": "{count} card", "other": "{count} cards"}). Strings take {name}-style parameters.
//
//   await initI18n();                 // pick the language, load its catalog
//   t("sheet.title")                  // "Score sheet"
//   t("result.points", {count: 41})   // "41 points" (plural form chosen by `count`)
//   onLanguageChange(render)          // re-render when the person switches language

/** The languages with a catalog, by code, each named in its own language. */
export const LANGUAGES = Object.freeze({
  en: "English",
  nl: "Nederlands",
  uk: "Українська",
  it: "Italiano",
  fr: "Français",
  de: "Deutsch",
});

/** The reference language: its catalog has every key; a key missing elsewhere falls back to it. */
export const DEFAULT_LANGUAGE = "en";

/** localStorage key of the language the person chose. */
export const STORAGE_KEY = "coloretto.lang";

let base = "/static/locales/";
let current = DEFAULT_LANGUAGE;
let catalog = {};
let fallback = {};
let plurals = new Intl.PluralRules(DEFAULT_LANGUAGE);
const cache = new Map();
const listeners = new Set();

async function fetchCatalog(lang) {
  if (!cache.has(lang)) {
    cache.set(lang, fetch(`${base}${lang}.json`).then((res) => {
      if (!res.ok) throw new Error(`no catalog for ${lang} (HTTP ${res.status})`);
      return res.json();
    }).catch((err) => { cache.delete(lang); throw err; }));
  }
  return cache.get(lang);
}

/**
 * The supported language that best matches a list of BCP 47 tags (e.g. navigator.languages):
 * the first tag whose language part has a catalog ("nl-BE" -> "nl"), else DEFAULT_LANGUAGE.
 * @param {readonly string[]} tags
 * @returns {string}
 */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (Object.hasOwn(LANGUAGES, code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

function storedLanguage() {
  try {
    const lang = localStorage.getItem(STORAGE_KEY);
    return lang && Object.hasOwn(LANGUAGES, lang) ? lang : null;
  } catch {
    return null;
  }
}

/**
 * Choose the language (the remembered choice, else the browser's languages) and load it.
 * Call once before the first t().
 * @param {{base?: string}} options `base`: URL of the locales folder (default /static/locales/)
 * @returns {Promise<string>} the language code in use
 */
export async function initI18n(options = {}) {
  if (options.base) base = options.base;
  fallback = await fetchCatalog(DEFAULT_LANGUAGE);
  const wanted = storedLanguage() || pickLanguage(navigator.languages || [navigator.language]);
  await use(wanted);
  return current;
}

async function use(lang) {
  try {
    catalog = lang === DEFAULT_LANGUAGE ? fallback : await fetchCatalog(lang);
    current = lang;
  } catch (err) {
    console.warn(`coloretto i18n: ${err.message}; using ${DEFAULT_LANGUAGE}`);
    catalog = fallback;
    current = DEFAULT_LANGUAGE;
  }
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
}

/**
 * Switch to `lang`, remember it (localStorage), and tell every onLanguageChange listener.
 * @param {string} lang a key of LANGUAGES
 * @throws {RangeError} an unsupported language
 */
export async function setLanguage(lang) {
  if (!Object.hasOwn(LANGUAGES, lang)) throw new RangeError(`unsupported language ${lang}`);
  await use(lang);
  try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* private mode: not remembered */ }
  for (const fn of listeners) fn(current);
}

/** The language code in use (a key of LANGUAGES). */
export function language() {
  return current;
}

/**
 * Call `fn(lang)` after every language switch. Returns a function that stops it.
 * @param {(lang: string) => void} fn
 */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function interpolate(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.hasOwn(params, name)) return whole;
    const v = params[name];
    return typeof v === "number" ? formatNumber(v) : String(v);
  });
}

/**
 * The string of `key` in the current language with `{name}` parameters filled in. A plural
 * entry picks its form by `params.count` (Intl.PluralRules of the language; "other" when the
 * form is missing). A key missing in the language falls back to English, then to the key.
 * @param {string} key e.g. "sheet.title"
 * @param {Record<string, string|number>} params e.g. {count: 3, name: "Ann"}
 * @returns {string}
 */
export function t(key, params = {}) {
  let entry = Object.hasOwn(catalog, key) ? catalog[key] : fallback[key];
  if (entry === undefined) {
    console.warn(`coloretto i18n: no string for ${key}`);
    return key;
  }
  if (typeof entry === "object" && entry !== null) {
    const form = typeof params.count === "number" ? plurals.select(params.count) : "other";
    entry = entry[form] ?? entry.other;
  }
  return interpolate(entry, params);
}

/** True when the catalogs have a string for `key` (e.g. a server error code's `error.<code>`). */
export function exists(key) {
  return Object.hasOwn(catalog, key) || Object.hasOwn(fallback, key);
}

/** `n` formatted for the current language (e.g. 1 000 in French), with a true minus sign. */
export function formatNumber(n) {
  return new Intl.NumberFormat(current).format(n).replace(/^-/, "\u2212");
}

/** `items` joined as a list in the current language ("A, B and C"; type "disjunction" for "or"). */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(current, { style: "long", type }).format(items.map(String));
}

/**
 * Translate static markup: every element under `root` with `data-i18n="key"` gets that text;
 * `data-i18n-attr="aria-label:key; placeholder:key2"` sets attributes.
 * @param {ParentNode} root
 */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/**
 * A labelled language selector (<label> + <select>) that switches and remembers the language.
 * @param {string} id the select's id
 * @returns {HTMLLabelElement}
 */
export function languageSelect(id = "language") {
  const label = document.createElement("label");
  label.className = "language-select";
  const text = document.createElement("span");
  text.dataset.i18n = "language.label";
  text.textContent = t("language.label");
  const select = document.createElement("select");
  select.id = id;
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = current;
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((lang) => { select.value = lang; text.textContent = t("language.label"); });
  label.append(text, " ", select);
  return label;
}
