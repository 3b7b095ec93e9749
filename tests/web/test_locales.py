"""The translation catalogs of the browser client (``web/locales/<lang>.json``, read by
``web/i18n.js``): every language has exactly the keys of ``en.json``, none empty, the plural
forms its language needs (as Intl.PluralRules defines them, asked of Node.js), the same
``{name}`` parameters as English, colour-blind letters that are unique within the language,
and Ukrainian in Cyrillic. The pages use only keys that exist, and every key is used."""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

import pytest
from nodeutil import WEB

LANGUAGES = ["en", "nl", "uk", "it", "fr", "de"]
COLOURS = ["blue", "brown", "gray", "green", "orange", "pink", "yellow"]
LETTER_KEYS = [f"letter.{c}" for c in COLOURS] + ["letter.joker", "letter.golden_joker", "letter.plus2"]
PARAM = re.compile(r"\{(\w+)\}")
USERS = ["score.js", "score.html", "i18n.js", "rules.js", "rules.html", "rulesdata.js", "clock.js", "chat.js",
         "table.js", "lobby.js", "gamelog.js", "account.js"]
"""Files whose strings come from the catalogs."""
DYNAMIC = {
    "colour.": COLOURS,
    "letter.": [*COLOURS, "joker", "golden_joker", "plus2"],
    "card.": ["joker", "golden_joker", "plus2"],
    "settings.table.": ["brown", "violet"],
    "settings.extra.": ["single_three", "triple_three", "triple_minus"],
    "clock.agent.": ["easy", "medium", "hard"],
}
"""Keys the code builds from a prefix and a name (e.g. t(`colour.${name}`))."""


def load(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def plural_categories(node: str) -> dict[str, list[str]]:
    script = ("const out = {}; for (const l of JSON.parse(process.argv[1])) "
              "out[l] = new Intl.PluralRules(l).resolvedOptions().pluralCategories; "
              "console.log(JSON.stringify(out));")
    done = subprocess.run([node, "-e", script, json.dumps(LANGUAGES)], capture_output=True, text=True,
                          timeout=60, check=True)
    cats: dict[str, list[str]] = json.loads(done.stdout)
    return cats


def forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_the_six_catalogs_exist_and_nothing_else() -> None:
    assert sorted(p.stem for p in (WEB / "locales").glob("*.json")) == sorted(LANGUAGES)
    i18n = (WEB / "i18n.js").read_text(encoding="utf-8")
    block = i18n.split("export const LANGUAGES = Object.freeze({", 1)[1].split("})", 1)[0]
    assert re.findall(r"^\s*(\w+):", block, re.MULTILINE) == LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_keys_none_empty(lang: str, plural_categories: dict[str, list[str]]) -> None:
    en, catalog = load("en"), load(lang)
    missing = sorted(set(en) - set(catalog))
    extra = sorted(set(catalog) - set(en))
    assert not missing, f"{lang}.json lacks {missing}"
    assert not extra, f"{lang}.json has keys en.json does not: {extra}"
    for key, value in catalog.items():
        if isinstance(en[key], dict):
            assert isinstance(value, dict), f"{lang} {key}: plural forms expected"
            assert set(value) == set(plural_categories[lang]), (
                f"{lang} {key}: forms {sorted(value)}, the language needs {plural_categories[lang]}")
        else:
            assert isinstance(value, str), f"{lang} {key}: a string expected"
        for text in forms(value):
            assert isinstance(text, str) and text.strip(), f"{lang} {key}: empty"
            assert text == text.strip(), f"{lang} {key}: spaces around {text!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_parameters_as_english(lang: str) -> None:
    en, catalog = load("en"), load(lang)
    for key, value in catalog.items():
        wanted = {p for text in forms(en[key]) for p in PARAM.findall(text)}
        for text in forms(value):
            used = set(PARAM.findall(text))
            assert used <= wanted, f"{lang} {key}: unknown parameter(s) {used - wanted} in {text!r}"
        if not isinstance(value, dict):
            assert set(PARAM.findall(value)) == wanted, f"{lang} {key}: parameters differ from English"
        else:
            assert {p for text in forms(value) for p in PARAM.findall(text)} == wanted, f"{lang} {key}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_colour_blind_letters_are_unique(lang: str) -> None:
    catalog = load(lang)
    letters = [catalog[k] for k in LETTER_KEYS]
    assert len(set(letters)) == len(letters), f"{lang}: letters repeat: {dict(zip(LETTER_KEYS, letters, strict=True))}"
    assert all(1 <= len(x) <= 2 for x in letters), letters
    names = [catalog[f"colour.{c}"].casefold() for c in COLOURS]
    assert len(set(names)) == 7, f"{lang}: colour names repeat: {names}"


def test_ukrainian_is_cyrillic() -> None:
    allowed_latin = {"Coloretto", "Extrakarten"}
    for key, value in load("uk").items():
        for text in forms(value):
            words = re.findall(r"[A-Za-z]+", PARAM.sub("", text))
            assert set(words) <= allowed_latin, f"uk {key}: Latin words {words} in {text!r}"
            if re.search(r"[^\W\d_]", PARAM.sub("", text)):
                assert re.search(r"[\u0400-\u04FF]", text), f"uk {key}: no Cyrillic in {text!r}"


def test_pages_use_existing_keys_and_every_key_is_used() -> None:
    en = load("en")
    used: set[str] = set()
    for name in USERS:
        source = (WEB / name).read_text(encoding="utf-8")
        for literal in re.findall(r"[\"'`]([a-z_0-9]+(?:\.[a-z_0-9]+)+)[\"'`]", source):
            if literal in en:
                used.add(literal)
        for call in re.findall(r"\bt(?:r)?\(\s*\"([^\"]+)\"", source):
            assert call in en, f"{name} asks for {call!r}, which en.json lacks"
        for attr in re.findall(r"data-i18n(?:-attr)?=\"([^\"]+)\"", source):
            for key in re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", attr):
                assert key in en, f"{name} names {key!r}, which en.json lacks"
                used.add(key)
        for prefix, names in DYNAMIC.items():
            if re.search(r"`" + re.escape(prefix) + r"\$\{", source):
                used.update(prefix + n for n in names)
    assert all(k in en for k in used)
    unused = sorted(set(en) - used)
    assert not unused, f"keys no page uses: {unused}"
