"""No English left behind in the browser client: every text people see comes from the
catalogs (``web/locales/<lang>.json`` through ``i18n.js``), so a literal English text in the
client's code or markup is a leftover that the other five languages would show in English.

The scan reads the string literals of every ``web/*.js`` module (comments removed; template
literals by their fixed parts) and the text and labelling attributes of every ``web/*.html``
page, and reports:

- a literal that reads as prose (two words of letters with a space between them, or one
  capitalised word such as "Copy"), wherever it stands;
- any literal with letters in a place that is always shown to people: ``textContent`` /
  ``innerText`` / ``title`` assignments, the ``title``, ``aria-label``, ``placeholder``,
  ``alt`` and ``label`` attributes, ``toast(...)``, ``prompt(...)`` and the first child of
  an element built by ``h(tag, {...}, ...)``;
- a text node or a labelling attribute of the HTML pages that is not filled from the
  catalogs (``data-i18n`` / ``data-i18n-attr``).

Literals that are not texts for people are skipped: class names (``class:``, ``className``,
``classList``), catalog keys, import paths, messages for developers (``console.*``,
``new ...Error(...)`` and the names checked values go by in them), SVG markup without text,
and the few proper names, key names and CSS values in ``ALLOWED``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from nodeutil import WEB

ALLOWED = {
    "Coloretto",  # the game's name, the same in every language
    "Content-Type",  # an HTTP header
    "application/json",
    "Nederlands",
    "English",
    "Українська",
    "Italiano",
    "Français",
    "Deutsch",  # i18n.js: each language named in itself
    "Tab",
    "Enter",  # key names on the keys of a keyboard (shown in <kbd>)
    "Escape",  # a key's name in KeyboardEvent.key (app.js: it closes the header's Menu)
    "top left",  # a CSS transform-origin (motion.js)
}
"""Literals that look like words but are no text to translate."""

SHOWN_ATTRS = ("title", "aria-label", "placeholder", "alt", "label")
PROSE = re.compile(r"[A-Za-z]{2,}[^\S\n]+[A-Za-z]{2,}|^[^a-z]*[A-Z][a-z]{2,}")
KEY = re.compile(r"^[a-z_0-9]+(?:\.[a-z_0-9]+)+\.?$")
IDENT = re.compile(r"^[a-z_][a-z0-9_:.-]*$")


def strip_comments(source: str) -> str:
    """``source`` with its ``//`` and ``/* */`` comments blanked (string, template and regular
    expression literals kept as they are)."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c in "\"'`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append(source[i : j + 1])
            i = j + 1
        elif source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "/" and re.search(r"[(,=:!&|?{};]\s*$", "".join(out[-3:]) if out else ""):
            # a regular expression literal: up to its closing slash
            j = i + 1
            while j < n and source[j] != "/":
                j += 2 if source[j] == "\\" else 1
            out.append(source[i : j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def template_end(source: str, start: int) -> int:
    """The offset of the backtick closing the template literal whose body starts at ``start``
    (its ``${...}`` places skipped, however deeply they nest braces, strings and templates)."""
    i = start
    while source[i] != "`":
        if source[i] == "\\":
            i += 2
        elif source.startswith("${", i):
            i = _place_end(source, i + 2) + 1
        else:
            i += 1
    return i


def _place_end(source: str, i: int) -> int:
    """The offset of the ``}`` closing a template's ``${`` place whose code starts at ``i``."""
    depth = 1
    while True:
        c = source[i]
        if c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            i = j + 1
        elif c == "`":
            i = template_end(source, i + 1) + 1
        else:
            depth += {"{": 1, "}": -1}.get(c, 0)
            if depth == 0:
                return i
            i += 1


def template_parts(source: str, start: int) -> list[str]:
    """The fixed parts of the template literal whose body starts at ``start``."""
    parts, current, i = [], [], start
    while source[i] != "`":
        if source[i] == "\\":
            current.append(source[i : i + 2])
            i += 2
        elif source.startswith("${", i):
            parts.append("".join(current))
            current = []
            i = _place_end(source, i + 2) + 1
        else:
            current.append(source[i])
            i += 1
    parts.append("".join(current))
    return parts


def literals(source: str) -> list[tuple[int, str]]:
    """``(offset, text)`` of every string literal of ``source`` (comments stripped); a template
    literal gives its fixed parts between its ``${...}`` places."""
    found: list[tuple[int, str]] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c in "\"'`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            if c == "`":
                found.extend((i, part) for part in template_parts(source, i + 1))
                j = template_end(source, i + 1)
            else:
                found.append((i, source[i + 1 : j]))
            i = j + 1
        else:
            i += 1
    return found


SKIP_BEFORE = re.compile(
    r"(?:\bclass\s*:|className\s*[+]?=|classList\.\w+\(|\bimport\b[^;]*|\bfrom|console\.\w+\(|"
    r"new\s+\w*Error\(|querySelector(?:All)?\(|closest\(|matchMedia\(|getElementById\(|"
    r"addEventListener\(|createElement(?:NS)?\(|setAttribute\(|getItem\(|setItem\(|removeItem\(|"
    r"\bh\(|svg\.innerHTML\s*[+]?=|\bt\(|check\w*\()\s*[^,;]*$"
)
SHOWN_BEFORE = re.compile(
    r"(?:\.textContent\s*=|\.innerText\s*=|\.title\s*=|\b(?:"
    + "|".join(re.escape(a) for a in SHOWN_ATTRS)
    + r")\"?\s*:|\"aria-label\"\s*:|\btoast\(|\bprompt\(|\bh\(\"\w+\",\s*\{[^{}]*\}\s*,)\s*(?:[^,;()]*\?\s*)?$"
)


def leftovers_js(source: str) -> list[str]:
    """The user-visible English literals of one JavaScript module (module docstring)."""
    code = strip_comments(source)
    bad = []
    for at, text in literals(code):
        words = re.sub(
            r"\\(?:u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)", " ", text
        ).strip()
        if not re.search(r"[A-Za-z]{2,}", words) or words in ALLOWED or KEY.match(words):
            continue
        if words.startswith("<") and not re.search(
            r"[A-Za-z]{2,}", re.sub(r"<[^>]*>?|^[^<]*>", "", words)
        ):
            continue  # SVG markup with no text in it
        line_start = code.rfind("\n", 0, at) + 1
        before = code[line_start:at]
        if SKIP_BEFORE.search(before):
            continue
        shown = SHOWN_BEFORE.search(before) is not None
        if shown or (PROSE.search(words) and not IDENT.match(words)):
            bad.append(words)
    return bad


class _Page(HTMLParser):
    """The untranslated texts and labelling attributes of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        translated = "data-i18n" in a or any(t for _, t in self.stack)
        covered = a.get("data-i18n-attr") or ""
        for name in SHOWN_ATTRS:
            value = a.get(name)
            if (
                value
                and re.search(r"[A-Za-z]{2,}", value)
                and f"{name}:" not in covered.replace(" ", "")
            ):
                self.bad.append(f"{tag}[{name}]={value!r}")
        if tag in ("noscript", "script", "style", "title"):
            translated = True
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append((tag, translated))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text or (self.stack and self.stack[-1][1]) or text in ALLOWED:
            return
        if re.search(r"[A-Za-z]{2,}", text):
            self.bad.append(text)


def leftovers_html(source: str) -> list[str]:
    """The untranslated English texts of one HTML page (module docstring)."""
    page = _Page()
    page.feed(source)
    return page.bad


def client_files(suffix: str) -> list[Path]:
    return sorted(p for p in WEB.glob(f"*{suffix}") if p.name != "score-sw.js")


def test_the_scan_finds_leftovers() -> None:
    """The scanner itself: each kind of leftover is reported, texts from the catalogs are not."""
    js = """
      import { t } from "./i18n.js";
      // a comment with Some Words is no text
      el.textContent = "ready";
      h("button", { class: "primary big", title: "Draw a card" }, t("board.draw"));
      h("p", {}, `Seat ${n + 1} was just taken`);
      toast("oops", "error");
      console.warn("a message for developers");
      h("b", {}, "Copy");
      h("span", { class: "pill" }, "watching");
      h("b", {}, t("table.copy"), " ", `${n}/${m}`);
    """
    assert leftovers_js(js) == [
        "ready",
        "Draw a card",
        "Seat",
        " was just taken".strip(),
        "oops",
        "Copy",
        "watching",
    ]
    html = (
        '<p data-i18n="x.y"></p><a href="/" title="Home">Lobby</a>'
        '<input data-i18n-attr="placeholder: a.b" placeholder="name"><noscript>Needs JavaScript</noscript>'
    )
    assert leftovers_html(html) == ["a[title]='Home'", "Lobby"]


def test_no_english_literal_in_the_client() -> None:
    found = {p.name: leftovers_js(p.read_text(encoding="utf-8")) for p in client_files(".js")}
    found |= {p.name: leftovers_html(p.read_text(encoding="utf-8")) for p in client_files(".html")}
    found = {name: bad for name, bad in found.items() if bad}
    assert not found, f"texts that do not come from the catalogs: {found}"
