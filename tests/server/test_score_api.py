"""``POST /api/score`` over HTTP on a real ``coloretto serve`` (docs/web-api.md, "Score
sheet"): the answer is exactly what ``coloretto score --json`` prints for the same cards, and
every kind of bad input gets 422 with a message that says what is wrong. Also the sheet's
page and service worker routes."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverproc import ServerProcess

from coloretto.cli.main import main

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "scoring-cases.json").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("score-api")
    server = ServerProcess(f"sqlite:///{tmp / 'coloretto.db'}", tmp / "server.log",
                           "--ip-rate", "1000", "--ip-burst", "1000")
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def cli_json(cards: dict[str, int], table: str, extra: str | None) -> dict[str, Any]:
    """What ``coloretto score LABEL=N ... --table T [--extra E] --json`` prints."""
    argv = ["score", *(f"{label}={n}" for label, n in cards.items()), "--table", table, "--json"]
    if extra is not None:
        argv += ["--extra", extra]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(argv) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def post(base: str, body: Any, **kw: Any) -> httpx.Response:
    if "content" in kw:
        return httpx.post(base + "/api/score", timeout=10, **kw)
    return httpx.post(base + "/api/score", json=body, timeout=10)


def random_cards(rng: random.Random) -> dict[str, int]:
    labels = rng.sample(["green", "yellow", "red", "blue", "Rot", "bleu", "pink", "grey", "orange"], rng.randint(0, 7))
    cards = {label: rng.randint(0, 9) for label in labels}
    golden = rng.randint(0, 1)
    if golden:
        cards["golden_joker"] = golden
    cards["joker"] = rng.randint(0, 3 - golden)
    cards["plus2"] = rng.randint(0, 10)
    if not any(cards.values()):
        cards["plus2"] = 1  # a collection holds at least one card
    rng_items = list(cards.items())
    rng.shuffle(rng_items)
    return dict(rng_items)


def test_answers_what_the_cli_prints(base: str) -> None:
    rng = random.Random(7)
    bodies = [{"cards": c["cards"], "table": c["table"], "extra": None} for c in CASES]
    for _ in range(120):
        bodies.append({"cards": random_cards(rng), "table": rng.choice(["brown", "violet"]),
                       "extra": rng.choice([None, "single_three", "triple_three", "triple_minus"])})
    for body in bodies:
        r = post(base, body)
        assert r.status_code == 200, r.text
        assert r.json() == cli_json(body["cards"], body["table"], body["extra"]), body
        # the same order of keys too: the answer is the same object
        assert list(r.json()) == list(cli_json(body["cards"], body["table"], body["extra"]))
    for case in CASES:
        assert post(base, {"cards": case["cards"], "table": case["table"]}).json()["total"] == case["total"]


def test_the_example_and_defaults(base: str) -> None:
    body = {"cards": {"green": 6, "yellow": 4, "red": 3, "blue": 2, "joker": 1, "golden_joker": 0, "plus2": 1},
            "table": "brown", "extra": None}
    r = post(base, body)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.json() == {
        "total": 41, "table": "brown", "extra": None,
        "positive": {"green": 21, "yellow": 15, "red": 6}, "negative": {"blue": -3},
        "jokers": {"yellow": 1}, "plus2": 2, "plus2_cards": 1,
        "counts": {"green": 6, "yellow": 5, "red": 3, "blue": 2}, "placements": 7,
    }
    # table and extra may be left out (brown, none); "+2" is another name of plus2
    assert post(base, {"cards": {"green": 6, "+2": 2}}).json()["total"] == 25
    assert post(base, {"cards": {"green": 3}, "table": "violet", "extra": "triple_three"}).json()["total"] == 2


@pytest.mark.parametrize(
    "cards, table",
    [({"green": 3}, "brown"), ({"green": 3}, "violet"), ({"green": 3}, "gray"), ({"green": 3}, "grey"),
     ({"green": 3}, "Violet"), ({}, "brown"), ({"green": 0, "joker": 0}, "violet"),
     # card names in any case, with - or a space for _
     ({"golden-joker": 1, "green": 2}, "brown"), ({"Golden Joker": 1, "green": 2}, "brown"),
     ({"PLUS2": 1, "Joker": 1, "red": 1}, "brown"),
     # a label that would write to the terminal
     ({"bad\x1b[31m": 2}, "brown"), ({"green\x00": 1}, "brown"), ({"red\nblue": 1}, "brown"),
     # look-alikes of card names, in any case and width; the Last Round card
     ({"Jokerfarbe": 2}, "brown"), ({"plus": 1}, "brown"), ({"jokers": 1}, "brown"), ({"+ 2": 1}, "brown"),
     ({"＋ ２": 1, "red": 1}, "brown"), ({"2+": 1}, "brown"),
     ({"Jolly": 1}, "brown"), ({"Золотий джокер": 1}, "brown"), ({"doré": 1}, "brown"),
     ({"j\u03bfker": 1}, "brown"), ({"зелений": 2, "Grün": 1}, "brown"),
     ({"ＪＯＫＥＲ": 1, "red": 1}, "brown"), ({"green": 1, "ＧＲＥＥＮ": 1}, "brown"),
     ({"Straße": 1, "STRASSE": 1}, "brown"), ({"Last Round": 1}, "brown"), ({"gold": 1}, "brown"),
     # counts the game does not have
     ({"green": 10}, "brown"), ({"joker": 4}, "brown"), ({"joker": 3, "golden_joker": 1}, "brown"),
     ({f"c{i}": 1 for i in range(8)}, "brown"), ({"plus2": 11}, "brown")],
)
def test_the_cli_and_the_api_accept_the_same_input(base: str, cards: dict[str, int], table: str) -> None:
    """A table name or a collection the API refuses, ``coloretto score`` refuses (exit 2), and
    the other way round, with the same message."""
    r = post(base, {"cards": cards, "table": table})
    argv = ["score", *(f"{label}={n}" for label, n in cards.items()), "--table", table, "--json"]
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(argv)
    assert (r.status_code == 200) == (status == 0), (r.text, err.getvalue())
    if status:
        assert status == 2 and r.status_code == 422
        assert r.json()["error"]["message"] in err.getvalue()


@pytest.mark.parametrize(
    "extra", ["none", "None", "triple_minus", "Triple_Minus", "SINGLE_THREE", "double", "null", "", "FIRST_OUT_DRAWS"]
)
def test_the_cli_and_the_api_take_the_same_extra(base: str, extra: str) -> None:
    """``none`` is no scoring card for both, a scoring card is named in any case by both; a
    card that is not one is refused by both, with the same message."""
    r = post(base, {"cards": {"green": 3, "red": 1}, "extra": extra})
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(["score", "green=3", "red=1", "--extra", extra, "--json"])
    assert (r.status_code == 200) == (status == 0), (r.text, err.getvalue())
    if status == 0:
        assert r.json()["extra"] == (None if extra.casefold() == "none" else extra.casefold())
    else:
        # the API lists null where the command line lists none
        assert r.json()["error"]["message"].removesuffix("or null") in err.getvalue()


@pytest.mark.parametrize(
    "body, code, message",
    [
        ({"cards": {"green": -1}}, "bad_cards", "negative"),
        ({"cards": {"green": 1.5}}, "bad_request", "cards.green: Input should be a valid integer"),
        ({"cards": {"green": 2.0}}, "bad_request", "cards.green: Input should be a valid integer"),
        ({"cards": {"green": "2"}}, "bad_request", "cards.green: Input should be a valid integer"),
        ({"cards": {"green": True}}, "bad_request", "cards.green: Input should be a valid integer"),
        ({"cards": {"green": None}}, "bad_request", "cards.green"),
        ({"cards": {"green": 10}}, "bad_cards", "a colour has 9 cards"),
        ({"cards": {"green": 10**40}}, "bad_cards", "too many"),
        ({"cards": {"plus2": 11}}, "bad_cards", '10 "+2" cards'),
        ({"cards": {"joker": 4}}, "bad_cards", "at most 3 jokers"),
        ({"cards": {"joker": 3, "golden_joker": 1}}, "bad_cards", "golden joker included"),
        ({"cards": {"golden_joker": 2}}, "bad_cards", "one golden joker"),
        ({"cards": {f"colour{i}": 1 for i in range(8)}}, "bad_cards", "at most 7"),
        ({"cards": {"green": 1, "last_round": 1}}, "bad_cards", "Last Round card never scores"),
        ({"cards": {"Last-Round": 0}}, "bad_cards", "Last Round card never scores"),
        ({"cards": {"red": 1, "Red": 2}}, "bad_cards", "given twice"),
        ({"cards": {"jokers": 1}}, "bad_cards", "'jokers' is not a card name; did you mean joker?"),
        ({"cards": {"": 1}}, "bad_cards", "empty"),
        ({"cards": {"\x1b[31m": 1}}, "bad_cards", "cannot hold control or invisible characters"),
        ({"cards": {}}, "bad_cards", "no cards given; a collection to score holds at least one card"),
        ({"cards": {"green": 0, "joker": 0, "+2": 0}}, "bad_cards", "no cards given"),
        ({"cards": {"green": 1}, "table": "gray"}, "bad_table", "not a score table; choose brown or violet"),
        ({"cards": {"green": 1}, "table": None}, "bad_request", "table: Input should be a valid string"),
        ({"cards": {"green": 1}, "extra": "first_out_draws"}, "bad_extra", "changes play, not scoring"),
        ({"cards": {"green": 1}, "extra": "double"}, "bad_extra", "not an Extrakarten scoring card"),
        ({"cards": {"green": 1}, "extra": 3}, "bad_request", "extra: Input should be a valid string"),
        ({"cards": [["green", 1]]}, "bad_request", "cards: Input should be a valid dictionary"),
        ({"table": "brown"}, "bad_request", "cards: Field required"),
        ({"cards": {}, "rules": {}}, "bad_request", "rules: Extra inputs are not permitted"),
        ([1, 2], "bad_request", "must be a JSON object, not array"),
        (3, "bad_request", "must be a JSON object, not number"),
        ("cards", "bad_request", "must be a JSON object, not string"),
    ],
)
def test_bad_input_gets_422(base: str, body: Any, code: str, message: str) -> None:
    r = post(base, body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert set(r.json()) == {"error"} and error["code"] == code, r.text
    assert message in error["message"], r.text


def test_bad_json_and_size(base: str) -> None:
    r = post(base, None, content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
    assert "JSON" in r.json()["error"]["message"]
    r = post(base, None, content=b"\xff\xfe", headers={"content-type": "application/json"})
    assert r.status_code == 422
    # a key given twice (which one counts?), a number no collection has
    r = post(base, None, content=b'{"cards": {"green": 1}, "cards": {"red": 2}}',
             headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == {
        "code": "bad_request", "message": "body: JSON object gives the key 'cards' twice"}
    r = post(base, None, content=b'{"cards": {"green": ' + b"9" * 5000 + b"}}",
             headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == {
        "code": "bad_request", "message": "body: JSON number with 5000 digits; at most 100"}
    r = post(base, None, content=b"x" * 20000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_openapi_describes_the_endpoint(base: str) -> None:
    spec = httpx.get(base + "/openapi.json", timeout=10).json()
    op = spec["paths"]["/api/score"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"cards", "table", "extra"}
    assert "422" in op["responses"]


def test_sheet_page_and_service_worker(base: str) -> None:
    page = httpx.get(base + "/score", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<link rel="manifest" href="/static/score.webmanifest">' in page.text
    sw = httpx.get(base + "/score-sw.js", timeout=10)
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"
    assert "__SHEET_VERSION__" not in sw.text
    # every file the worker caches is served
    precached = json.loads(sw.text.split("const PRECACHE = ", 1)[1].split(";", 1)[0])
    assert "/score" in precached and "/static/locales/uk.json" in precached
    for url in precached:
        assert httpx.get(base + url, timeout=10).status_code == 200, url
    manifest = httpx.get(base + "/static/score.webmanifest", timeout=10).json()
    assert manifest["start_url"] == "/score" and manifest["display"] == "standalone"
    assert manifest["scope"] == "/score"
    for icon in manifest["icons"]:
        assert icon["src"] in precached
        svg = httpx.get(base + icon["src"], timeout=10)
        assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
