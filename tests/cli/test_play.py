"""``coloretto play`` driven as a person drives it: through a pseudo-terminal with pexpect.

The "person" reads the legal keys from each prompt (``Your choice [d 1 3]:``) and answers
with the first one; along the way it types wrong keys, presses Ctrl-C and resumes.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from coloretto.engine.record import replay

PROMPT = re.compile(r"Your choice \[([^\]]*)\]: ")
FINISHED = "Record saved to"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain(text: str) -> str:
    """``text`` without ANSI escape codes (NO_COLOR keeps bold and dim)."""
    return ANSI.sub("", text)


def _env(color: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    if not color:
        env["NO_COLOR"] = "1"
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = "120"
    env["LINES"] = "50"
    return env


def spawn(args: list[str], cwd: Path, color: bool = False) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "coloretto.cli.main", "play", *args],
        cwd=str(cwd),
        env=_env(color),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [sys.executable, "-m", "coloretto.cli.main", *args],
        cwd=str(cwd),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def play_to_end(child: pexpect.spawn, max_prompts: int = 400) -> int:
    """Answer every prompt with its first legal key until the game ends; return the number
    of prompts answered."""
    for n in range(max_prompts):
        i = child.expect([PROMPT, FINISHED])
        if i == 1:
            return n
        keys = child.match.group(1).split()
        assert keys, "a prompt without choices"
        child.sendline(keys[0])
    raise AssertionError("the game did not end")


def test_complete_game_with_wrong_keys_ctrl_c_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn(["--opponents", "random", "--seed", "12", "--save", "game.json"], tmp_path)
    child.expect(PROMPT)
    keys = child.match.group(1).split()
    board_before = plain(child.before)
    # A wrong keystroke: refused, the same prompt comes back, nothing is played.
    child.sendline("x")
    child.expect("'x' is not a choice here")
    child.expect(PROMPT)
    assert child.match.group(1).split() == keys
    assert "put" not in child.before and "took" not in child.before
    # A row number that is not legal now (there are only 4 rows).
    child.sendline("9")
    child.expect("'9' is not a choice here")
    child.expect(PROMPT)
    assert child.match.group(1).split() == keys
    assert "draw pile:" in board_before and "row 1" in board_before

    # Play until a card has been drawn and waits for its row, then press Ctrl-C.
    for _ in range(200):
        if "Choose the row for" in plain(child.before):
            break
        child.sendline(child.match.group(1).split()[0])
        child.expect(PROMPT)
    else:
        pytest.fail("never asked to place a drawn card")
    drawn = re.search(r"Choose the row for \[(.)\]", plain(child.before))
    assert drawn is not None
    child.sendintr()
    child.expect("Game saved to")
    child.expect("Resume it with: coloretto play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130

    saved = json.loads(save.read_text())
    res = replay(saved)
    assert res.valid and not res.finished
    assert saved["human_seats"] == [0]
    assert saved["agents"] == [None, "random", "random", "random"]
    tail = saved["actions"][-1]
    assert tail == {"seat": 0, "action": "draw", "card": tail["card"]}  # drawn, not placed
    assert "pending_draw" not in saved
    n_saved = len(saved["actions"])

    # Resume: the same drawn card is shown again, then play on to the end.
    child = spawn(["--resume", "game.json"], tmp_path)
    child.expect(f"Resuming after {n_saved} recorded actions")
    child.expect(PROMPT)
    again = re.search(r"Choose the row for \[(.)\]", plain(child.before))
    assert again is not None and again.group(1) == drawn.group(1)
    child.sendline(child.match.group(1).split()[0])
    play_to_end(child)
    child.expect(pexpect.EOF)
    tail = child.before
    child.close()
    assert child.exitstatus == 0

    # The final breakdown and the winner were shown.
    final = json.loads(save.read_text())
    assert "result" in final and "pending_draw" not in final
    scores = final["result"]["scores"]
    checked = run_cli("replay", "--json", str(save), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    result = json.loads(checked.stdout)
    assert result["valid"] is True and result["finished"] is True
    assert result["scores"] == scores
    best = max(scores)
    assert result["winners"] == [s for s, v in enumerate(scores) if v == best]
    assert "coloretto replay" in tail


def test_final_screen_shows_breakdown_and_winner(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    child = spawn(
        ["--players", "3", "--opponents", "greedy,random", "--seed", "5", "--save", str(save)],
        tmp_path,
    )
    transcript: list[str] = []
    for _ in range(400):
        i = child.expect([PROMPT, pexpect.EOF])
        transcript.append(child.before)
        if i == 1:
            break
        child.sendline(child.match.group(1).split()[-1])  # the last legal key this time
    child.close()
    assert child.exitstatus == 0
    text = plain("".join(transcript))
    final = text[text.index("The game is over.") :]
    for heading in ("positive", "negative", "jokers to", '"+2"', "total", "rank"):
        assert heading in final
    rec = json.loads(save.read_text())
    totals = rec["result"]["scores"]
    names = rec["seats"]
    best = max(totals)
    winners = [names[s] for s, v in enumerate(totals) if v == best]
    expected = ("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners)
    assert expected in final
    for name, total in zip(names, totals):
        assert re.search(rf"{re.escape(name)}\s.*\s{total}\s+\d", final), (name, total)
    assert "random-2" in names[2] and rec["agents"] == [None, "greedy", "random"]


def test_choose_mode_match_modern_in_colour(tmp_path: Path) -> None:
    """Starting cards chosen, a match of two games, modern edition; colours on."""
    save = tmp_path / "m.json"
    child = spawn(
        [
            "--players",
            "3",
            "--edition",
            "modern",
            "--starting-cards",
            "choose",
            "--match-games",
            "2",
            "--opponents",
            "random",
            "--seed",
            "3",
            "--save",
            str(save),
            "--name",
            "Ann",
        ],
        tmp_path,
        color=True,
    )
    transcript: list[str] = []
    first = True
    for _ in range(600):
        i = child.expect([PROMPT, pexpect.EOF])
        transcript.append(child.before)
        if i == 1:
            break
        keys = child.match.group(1).split()
        if first:
            # the first decision of this seat is a starting colour: keys are colour letters
            assert all(k in "bngeopy" for k in keys), keys
            first = False
        child.sendline(keys[0])
    child.close()
    assert child.exitstatus == 0
    text = "".join(transcript)
    assert ANSI.search(text), "colours expected on a colour terminal"
    plain = ANSI.sub("", text)
    assert "choose your starting colour" in plain
    assert "game 1 of 2" in plain and "game 2 of 2" in plain
    assert "Game 1 of 2 is over" in plain
    assert "Match" in plain
    rec = json.loads(save.read_text())
    assert isinstance(rec["setup"], list) and len(rec["setup"]) == 2
    assert any(a["action"] == "choose_start" for a in rec["actions"])
    res = replay(rec)
    assert res.valid and res.finished


def test_piped_input_without_terminal(tmp_path: Path) -> None:
    """Input not from a terminal, NO_COLOR: plain letters, no escape codes; wrong lines are
    refused and the game still ends (answers cycle through keys, most of them illegal)."""
    answers = "\n".join(
        itertools.islice(itertools.cycle(["z", "5", "4", "3", "2", "1", "d"]), 5000)
    )
    save = tmp_path / "p.json"
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [
            sys.executable,
            "-m",
            "coloretto.cli.main",
            "play",
            "--opponents",
            "greedy",
            "--players",
            "2",
            "--seed",
            "9",
            "--save",
            str(save),
        ],
        input=answers,
        cwd=str(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout
    assert "'z' is not a choice here" in proc.stdout
    assert re.search(r"\[[BNGEOPY]\]", proc.stdout)
    assert "Winner" in proc.stdout or "Shared win" in proc.stdout
    assert replay(json.loads(save.read_text())).valid


def test_input_ends_early_saves(tmp_path: Path) -> None:
    save = tmp_path / "e.json"
    proc = subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [
            sys.executable,
            "-m",
            "coloretto.cli.main",
            "play",
            "--opponents",
            "random",
            "--seed",
            "1",
            "--save",
            str(save),
        ],
        input="",
        cwd=str(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Input ended" in proc.stdout and "--resume" in proc.stdout
    rec = json.loads(save.read_text())
    assert replay(rec).valid


def test_q_saves_and_quits(tmp_path: Path) -> None:
    save = tmp_path / "q.json"
    child = spawn(["--opponents", "random", "--seed", "4", "--save", str(save)], tmp_path)
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Resume it with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert replay(json.loads(save.read_text())).valid


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "oracle"], "oracle"),
        (["--opponents", "nobody"], "unknown agent"),
        (["--opponents", "random,random"], "3 other seats"),
        (["--players", "7"], "players"),
        (["--preset", "bga", "--players", "2"], "bga"),
        (["--seat", "4"], "--seat 4"),
        (["--row-capacities", "3,x"], "--row-capacities"),
        (["--removed-colors", "purple", "--players", "3"], "purple"),
        (["--resume", "missing.json"], "cannot read"),
        (["--resume", "x.json", "--players", "3"], "--players"),
        (["--opponents", "cmd:"], "empty command"),
        (["--opponents", "random,cmd: ,random"], "empty command"),
        (["--save", ""], "--save needs a file name"),
        (["--name", ""], "--name must not be empty"),
        (["--hint-budget=-1s"], "positive"),
        (["--hint-budget=0ms"], "positive"),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    proc = run_cli("play", *args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert message in proc.stderr


def test_resume_rejects_invalid_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "coloretto-record/1", "setup": {}}))
    proc = run_cli("play", "--resume", str(bad), cwd=tmp_path)
    assert proc.returncode == 2
    assert "not a valid record" in proc.stderr


def test_resume_finished_game_shows_result(tmp_path: Path) -> None:
    save = tmp_path / "f.json"
    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "4", "d"]), 3000))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "coloretto.cli.main",
            "play",
            "--opponents",
            "random",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        input=answers,
        cwd=str(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    proc = run_cli("play", "--resume", str(save), cwd=tmp_path)
    assert proc.returncode == 0
    assert "The game is over." in proc.stdout


def _play_piped(tmp_path: Path, *args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: PLW1510 (the exit status is asserted)
        [sys.executable, "-m", "coloretto.cli.main", "play", *args],
        input=answers,
        cwd=str(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_save_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    other = tmp_path / "notes.json"
    other.write_text("precious")
    proc = run_cli("play", "--opponents", "random", "--save", str(other), cwd=tmp_path)
    assert proc.returncode == 2
    assert "exists" in proc.stderr and "never overwritten" in proc.stderr
    assert other.read_text() == "precious"
    # a finished game's record is not replaced by a new game either
    answers = "\n".join(itertools.islice(itertools.cycle(["1", "2", "3", "4", "d"]), 3000))
    done = _play_piped(tmp_path, "--opponents", "random", "--seed", "2", "--save", "f.json", answers=answers)
    assert done.returncode == 0, done.stderr
    finished = (tmp_path / "f.json").read_text()
    again = _play_piped(tmp_path, "--opponents", "random", "--seed", "3", "--save", "f.json")
    assert again.returncode == 2 and "exists" in again.stderr
    assert (tmp_path / "f.json").read_text() == finished
    # resuming may update the resumed file (same file, also under another spelling) ...
    same = _play_piped(tmp_path, "--resume", "f.json", "--save", "./f.json")
    assert same.returncode == 0, same.stderr
    # ... but not write over a different existing file
    moved = _play_piped(tmp_path, "--resume", "f.json", "--save", str(other))
    assert moved.returncode == 2 and "exists" in moved.stderr
    assert other.read_text() == "precious"


def test_default_record_names_are_unique(tmp_path: Path) -> None:
    from coloretto.cli.play import _reserve_default

    unit = tmp_path / "unit"
    unit.mkdir()
    first = _reserve_default(unit, "20250101-120000")
    second = _reserve_default(unit, "20250101-120000")
    third = _reserve_default(unit, "20250101-120000")
    assert [first.name, second.name, third.name] == [
        "coloretto-20250101-120000.json",
        "coloretto-20250101-120000-2.json",
        "coloretto-20250101-120000-3.json",
    ]
    # End to end: every default name of the next minute is taken, so the game must add a
    # suffix instead of replacing the file of an earlier game of the same second.
    import datetime as dt

    now = dt.datetime.now()
    taken = {}
    for k in range(60):
        stamp = (now + dt.timedelta(seconds=k)).strftime("%Y%m%d-%H%M%S")
        path = tmp_path / f"coloretto-{stamp}.json"
        path.write_text(f"earlier game {k}")
        taken[path] = f"earlier game {k}"
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "1")
    assert proc.returncode == 1, proc.stderr  # the input ended: saved
    for path, text in taken.items():
        assert path.read_text() == text
    (saved,) = [p for p in tmp_path.glob("coloretto-*-2.json")]
    assert replay(json.loads(saved.read_text())).valid
    assert saved.name in proc.stdout


def test_resume_refuses_human_seats_that_are_not_seats(tmp_path: Path) -> None:
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "1", "--save", "g.json")
    assert proc.returncode == 1
    rec = json.loads((tmp_path / "g.json").read_text())
    for bad in ([7], [], [0, 0], "0", [True]):
        rec["human_seats"] = bad
        (tmp_path / "h.json").write_text(json.dumps(rec))
        resumed = _play_piped(tmp_path, "--resume", "h.json")
        assert resumed.returncode == 2, (bad, resumed.stdout)
        assert "human_seats" in resumed.stderr


def test_resume_without_a_seed_does_not_invent_one(tmp_path: Path) -> None:
    proc = _play_piped(tmp_path, "--opponents", "random", "--seed", "5", "--save", "g.json")
    assert proc.returncode == 1 and "Seed: 5" in proc.stdout
    rec = json.loads((tmp_path / "g.json").read_text())
    assert rec["seed"] == 5
    del rec["seed"]
    (tmp_path / "n.json").write_text(json.dumps(rec))
    resumed = _play_piped(tmp_path, "--resume", "n.json")
    assert resumed.returncode == 1, resumed.stderr
    assert "Resuming after" in resumed.stdout
    assert "Seed" not in resumed.stdout
    assert "seed" not in json.loads((tmp_path / "n.json").read_text())
