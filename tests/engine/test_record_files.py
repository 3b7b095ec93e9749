"""Records hold a draw as soon as it is made, chance outcomes are checked when stated, old
records (``pending_draw``, unnamed shuffler) still replay, and record files are read and
written in one place (``save_record``, ``save_records``, ``load_record``, ``read_record``,
``dumps_record``)."""

from __future__ import annotations

import copy
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import above_lr, first_room, stacked_setup

from coloretto.engine import (
    Game,
    GameState,
    InvalidRecordError,
    Rules,
    UnreadableRecordError,
    dumps_record,
    load_game,
    load_record,
    load_record_json,
    new_game,
    read_record,
    replay,
    save_record,
    save_records,
)
from coloretto.engine import actions as A
from coloretto.engine.cards import CARD_NAMES, COLORS, GOLDEN_JOKER
from coloretto.engine.record import dumps_record_lines, setup_to_json
from coloretto.engine.seeds import Rng
from coloretto.engine.setup import build_pile_python_random, pile_composition

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def play(rules: Rules, seed: int, steps: int) -> Game:
    game = Game(new_game(rules, seed), [f"s{i}" for i in range(rules.players)])
    rng = Rng(seed)
    for _ in range(steps):
        if game.state.is_over():
            break
        codes = game.state.legal_codes()
        game.play(codes[rng.below(len(codes))])
    return game


def stopped_after_a_draw(rules: Rules, seed: int, draws: int = 5) -> Game:
    game = Game(new_game(rules, seed), [f"s{i}" for i in range(rules.players)])
    done = 0
    while True:
        codes = game.state.legal_codes()
        if A.DRAW in codes:
            game.play(A.DRAW)
            done += 1
            if done == draws:
                return game
            game.play(game.state.legal_codes()[0])
        else:
            game.play(codes[-1])


# ----- a draw is recorded at once -------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [Rules(players=2), Rules(players=4, edition="modern"), Rules(players=3, match_games=2)],
    ids=str,
)
def test_a_trailing_unplaced_draw_round_trips(rules: Rules) -> None:
    for seed in range(4):
        game = stopped_after_a_draw(rules, seed, draws=3 + 4 * seed)
        rec = json.loads(json.dumps(game.to_record()))
        tail = rec["actions"][-1]
        assert tail == {
            "seat": game.steps[-1].seat,
            "action": "draw",
            "card": CARD_NAMES[game.state.drawn],
            **({"last_round": True} if game.steps[-1].last_round_revealed else {}),
        }
        loaded = load_game(rec)
        assert loaded.state == game.state and loaded.state.decision == "place"
        assert loaded.steps == game.steps and loaded.to_record() == rec
        # placing continues the same entry
        row = loaded.state.legal_codes()[0] - A.PLACE0
        loaded.play(A.PLACE0 + row)
        placed = {"seat": tail["seat"], "action": "draw", "card": tail["card"], "row": row}
        if "last_round" in tail:
            placed["last_round"] = True
        assert loaded.entries[-1] == placed and len(loaded.entries) == len(rec["actions"])


def test_a_draw_without_row_may_only_be_last() -> None:
    game = play(Rules(players=4), 3, 30)
    rec = json.loads(json.dumps(game.to_record()))
    i = next(k for k, e in enumerate(rec["actions"]) if e["action"] == "draw")
    del rec["actions"][i]["row"]
    res = replay(rec)
    assert not res.valid and res.action_index == i
    assert res.error == "a draw without its 'row' (drawn, not yet placed) may only be the last action"


def test_old_pending_draw_records_still_load() -> None:
    game = stopped_after_a_draw(Rules(players=4), 6)
    rec = json.loads(json.dumps(game.to_record()))
    tail = rec["actions"].pop()
    rec["pending_draw"] = {"seat": tail["seat"], "card": tail["card"]}
    loaded = load_game(rec)
    assert loaded.state == game.state and loaded.state.decision == "place"
    out = loaded.to_record()
    assert "pending_draw" not in out and out["actions"][-1] == tail
    # a pending draw that the pile contradicts makes the record invalid, after the actions
    wrong = copy.deepcopy(rec)
    wrong["pending_draw"]["card"] = "plus2" if tail["card"] != "plus2" else "blue"
    res = replay(wrong)
    assert not res.valid and res.action_index == len(rec["actions"])
    assert res.error is not None and res.error.startswith("pending_draw: the record says")
    # beside a trailing unplaced draw entry, pending_draw is not read again
    both = json.loads(json.dumps(game.to_record()))
    both["pending_draw"] = {"seat": tail["seat"], "card": tail["card"]}
    assert load_game(both).state == game.state


def test_replay_restores_the_game_after_a_bad_draw() -> None:
    game = play(Rules(players=3), 1, 40)
    rec = json.loads(json.dumps(game.to_record()))
    i = max(k for k, e in enumerate(rec["actions"]) if e["action"] == "draw")
    real = rec["actions"][i]["card"]
    rec["actions"][i]["card"] = "plus2" if real != "plus2" else "blue"
    res = replay(rec)
    assert not res.valid and res.action_index == i and res.game is not None
    prefix = json.loads(json.dumps(game.to_record()))
    prefix["actions"] = prefix["actions"][:i]
    prefix.pop("result", None)
    assert res.game.state == load_game(prefix).state
    assert res.game.entries == prefix["actions"] and len(res.game.steps) == len(load_game(prefix).steps)


# ----- chance outcomes in the record ----------------------------------------------------------
def drain(game: Game, above: int) -> None:
    """``engine_helpers.drain_to`` played through ``game``, so the record holds every action."""
    while above_lr(game.state) > above or A.DRAW not in game.state.legal_codes():
        legal = game.state.legal_codes()
        if A.DRAW in legal:
            game.play(A.DRAW)
            game.play(A.PLACE0 + first_room(game.state))
        else:
            game.play(legal[0])


def test_takes_record_their_bonus_and_last_round_and_replay_checks_them() -> None:
    rules = Rules(players=4, edition="modern")
    setup = stacked_setup(rules, before_lr=["golden_joker"], after_lr=["plus2", "blue"])
    game = Game(GameState(rules, [setup]), ["a", "b", "c", "d"])
    drain(game, 1)
    row = next(r for r in range(4) if game.state.row_taker[r] == -1 and len(game.state.rows[r]) < 3)
    game.play(A.DRAW)
    assert game.state.drawn == GOLDEN_JOKER
    game.play(A.PLACE0 + row)
    step = game.play(A.TAKE0 + row)
    assert step.bonus and step.last_round_revealed
    entry = game.entries[-1]
    assert entry == {
        "seat": step.seat, "action": "take", "row": row, "bonus": ["plus2"], "last_round": True
    }
    rec = json.loads(json.dumps(game.to_record()))
    assert replay(rec).valid
    i = len(rec["actions"]) - 1
    for key, value, words in [
        ("bonus", ["blue"], "the bonus cards were ['blue'], but the draw pile gives ['plus2']"),
        ("bonus", "plus2", "'bonus' must be a list of card names"),
        ("last_round", False, "the record says last_round false, but this action revealed"),
        ("last_round", "yes", "'last_round' must be true or false"),
    ]:
        bad = copy.deepcopy(rec)
        bad["actions"][i][key] = value
        res = replay(bad)
        assert not res.valid and res.action_index == i and words in (res.error or "")
        before = load_game({**rec, "actions": rec["actions"][:i]}).state
        assert res.game is not None and res.game.state == before
    # absent keys are optional
    plain = copy.deepcopy(rec)
    del plain["actions"][i]["bonus"], plain["actions"][i]["last_round"]
    assert replay(plain).valid
    # a draw that says it revealed the Last Round card must have
    said = copy.deepcopy(rec)
    first_draw = next(k for k, e in enumerate(said["actions"]) if e["action"] == "draw")
    said["actions"][first_draw]["last_round"] = True
    res = replay(said)
    assert not res.valid and res.action_index == first_draw
    assert "did not reveal the Last Round card" in (res.error or "")


def test_draws_that_reveal_the_last_round_card_say_so() -> None:
    for seed in range(3):
        game = play(Rules(players=3), seed, 10_000)
        marked = [e for e in game.entries if e.get("last_round")]
        assert len(marked) == 1 and marked[0]["action"] == "draw"
        assert [k for k in marked[0]] == ["seat", "action", "card", "row", "last_round"]
        assert replay(json.loads(json.dumps(game.to_record()))).valid


# ----- shufflers ------------------------------------------------------------------------------
def test_a_record_that_names_no_shuffler_replays_with_python_random() -> None:
    rules = Rules(players=3, starting_cards="choose")
    game = play(rules, 5, 12)
    rec = json.loads(json.dumps(game.to_record()))
    assert rec["setup"]["shuffler"] == "coloretto-rng/1"
    old = copy.deepcopy(rec)
    del old["setup"]["shuffler"]
    old["actions"] = [e for e in old["actions"] if e["action"] == "choose_start"]
    state = load_game(old).state
    setup = state.setups[0]
    assert setup is not None and setup.shuffler == "python-random"
    starting: list[list[int]] = [[] for _ in range(3)]
    for i, e in enumerate(old["actions"]):
        starting[(setup.first_player + i) % 3].append(COLORS.index(e["color"]))
    comp = pile_composition(rules, setup.removed_colors, starting)
    seed = rec["setup"]["shuffle_seed"]
    assert state.pile[::-1] == list(build_pile_python_random(rules, comp, seed))
    new = copy.deepcopy(old)
    new["setup"]["shuffler"] = "coloretto-rng/1"
    assert load_game(new).state.pile != state.pile  # the named shuffler decides the pile
    bad = copy.deepcopy(rec)
    bad["setup"]["shuffler"] = "mersenne"
    res = replay(bad)
    assert not res.valid and "setup.shuffler 'mersenne' is unknown" in (res.error or "")


def test_setup_json_names_its_shuffler_only_with_a_seed() -> None:
    seeded = new_game(Rules(players=3, starting_cards="choose"), 1).setups[0]
    dealt = new_game(Rules(players=3), 1).setups[0]
    assert seeded is not None and dealt is not None
    assert setup_to_json(seeded)["shuffler"] == "coloretto-rng/1"
    assert "shuffler" not in setup_to_json(dealt)


# ----- the one reader and writer ---------------------------------------------------------------
def test_save_and_load_round_trip_with_the_one_layout(tmp_path: Path) -> None:
    game = stopped_after_a_draw(Rules(players=4), 2)
    rec = game.to_record()
    path = tmp_path / "game.json"
    save_record(path, rec)
    text = path.read_text(encoding="utf-8")
    assert text == dumps_record(rec)
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}" and text.endswith("}\n")
    assert sum(1 for line in lines if line.startswith('    {"seat"')) == len(rec["actions"])
    assert load_record(path) == json.loads(json.dumps(rec))
    assert load_game(load_record(path)).state == game.state
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_save_replaces_atomically_and_leaves_nothing_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    save_record(path, {"format": "coloretto-record/1", "actions": []})
    first = path.read_text()
    rec = play(Rules(players=2), 1, 9).to_record()
    save_record(path, rec)
    assert path.read_text() != first and load_record(path) == json.loads(json.dumps(rec))
    with pytest.raises(OSError):
        save_record(tmp_path / "missing" / "g.json", rec)
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        try:
            with pytest.raises(OSError):
                save_record(locked / "g.json", rec)
            assert list(locked.iterdir()) == []
        finally:
            locked.chmod(0o700)
    assert sorted(p.name for p in tmp_path.iterdir()) in (["g.json"], ["g.json", "locked"])


def test_saved_files_get_the_permissions_open_would_give(tmp_path: Path) -> None:
    """A new file: 0666 less the process umask; a file replaced: its own permissions."""
    rec = {"format": "coloretto-record/1", "actions": []}
    old_umask = os.umask(0o027)
    try:
        save_record(tmp_path / "new.json", rec)
        save_records(tmp_path / "new.jsonl", [rec])
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o640
    (tmp_path / "new.json").chmod(0o604)
    save_record(tmp_path / "new.json", rec)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o604
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json", "new.jsonl"]


@pytest.mark.parametrize(
    ("content", "error", "words"),
    [
        (b"{\xff}", UnreadableRecordError, "is not a text (UTF-8) file"),
        (b"\xff\xfe{\x00}\x00", UnreadableRecordError, "is UTF-16 text; save it as UTF-8"),
        (b'{"seed": 11, "seed": 12}', UnreadableRecordError, "JSON object gives the key 'seed' twice"),
        (b"{not json", UnreadableRecordError, "is not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, UnreadableRecordError, "nested too deeply"),
        (b'{"a": ' + b"9" * 5000 + b"}", UnreadableRecordError, "a number in it is too large"),
        (b'{"format": "coloretto-record/1", "seed": NaN}', UnreadableRecordError, "NaN is not a JSON number"),
        (b'{"seed": -Infinity}', UnreadableRecordError, "-Infinity is not a JSON number"),
        (b'{"seed": 1e400}', UnreadableRecordError, "the number 1e400 is too large"),
        (b"[1, 2]", InvalidRecordError, "a record must be a JSON object, not array"),
        (b'{"format": "other/1"}', InvalidRecordError, "format must be 'coloretto-record/1', got 'other/1'"),
    ],
    ids=["not-utf8", "utf16", "duplicate-key", "not-json", "too-deep", "huge-number", "nan", "infinity", "huge-float", "not-object",
         "wrong-format"],
)
def test_read_errors_say_what_is_wrong(
    tmp_path: Path, content: bytes, error: type[Exception], words: str
) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(error, match=None) as info:
        load_record(path)
    assert words in str(info.value)
    if error is UnreadableRecordError:
        assert str(path) in str(info.value)
    else:
        assert not isinstance(info.value, UnreadableRecordError)
    with pytest.raises(error):
        read_record(content)


def test_missing_files_and_directories_are_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableRecordError, match="cannot read"):
        load_record(tmp_path / "nope.json")
    with pytest.raises(UnreadableRecordError, match="is a directory"):
        load_record(tmp_path)


def test_golden_records_read_through_the_one_reader() -> None:
    for path in sorted(RECORDS.glob("legal_*.json")):
        rec: dict[str, Any] = load_record(path)
        assert replay(rec).valid, path.name


def test_several_records_are_saved_as_json_lines_atomically(tmp_path: Path) -> None:
    """``save_records`` (``tournament --records``): one compact record per line, written
    through a temporary file renamed over the old one, so a reader holding the old file
    still reads it whole; nothing is left behind on failure."""
    recs = [play(Rules(players=p), p, 30).to_record() for p in (2, 3)]
    path = tmp_path / "games.jsonl"
    path.write_text("the old file\n")
    with path.open(encoding="utf-8") as old:
        save_records(path, recs)
        assert old.read() == "the old file\n"
    text = path.read_text(encoding="utf-8")
    assert text == dumps_record_lines(recs) and text.count("\n") == 2 and " " not in text
    assert [json.loads(line) for line in text.splitlines()] == json.loads(json.dumps(recs))
    assert all(replay(json.loads(line)).valid for line in text.splitlines())
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    with pytest.raises(OSError):
        save_records(tmp_path / "missing" / "games.jsonl", recs)
    with pytest.raises(TypeError):
        save_records(path, [{"format": "coloretto-record/1", "seats": {1, 2}}])
    assert path.read_text(encoding="utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


@pytest.mark.parametrize(
    ("content", "value"),
    [(b"[1, 2]", [1, 2]), (b'{"format": "other/1"}', {"format": "other/1"}), (b"null", None)],
)
def test_the_unchecked_reader_gives_any_json_value(tmp_path: Path, content: bytes, value: Any) -> None:
    """``load_record_json`` reads a file as ``load_record`` does but leaves the record
    checks to ``replay``; its read errors are ``load_record``'s."""
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert load_record_json(path) == value
    with pytest.raises(InvalidRecordError):
        load_record(path)
    for bad in (b"\xff", b"{"):
        path.write_bytes(bad)
        with pytest.raises(UnreadableRecordError) as unchecked:
            load_record_json(path)
        with pytest.raises(UnreadableRecordError) as checked:
            load_record(path)
        assert str(unchecked.value) == str(checked.value)
    with pytest.raises(UnreadableRecordError, match="is a directory"):
        load_record_json(tmp_path)


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    """Windows Notepad may start a saved UTF-8 file with a byte-order mark: the record reads
    as without it."""
    rec = play(Rules(players=3), 3, 20).to_record()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(rec).encode())
    assert load_record(path) == json.loads(json.dumps(rec))
    assert read_record("\ufeff" + json.dumps(rec)) == json.loads(json.dumps(rec))
