"""``coloretto tournament``: every output file is checked before the first game, a report
that still cannot be written at the end is one line (no traceback), and a reader of
standard output that stops early loses none of the files."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

RUN = [sys.executable, "-m", "coloretto", "tournament", "--agents", "greedy,random",
       "--games", "2", "--workers", "1", "--quiet"]


def without_write_override() -> list[str]:
    """A command prefix under which file permissions hold as for any user: root without the
    capabilities that let it write (and read) any file; nothing for another user."""
    if sys.platform != "linux":
        pytest.skip("needs Linux")
    if os.geteuid() != 0:
        return []
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    if shutil.which("setpriv") is None or subprocess.run([*prefix, "true"], check=False).returncode:
        pytest.skip("running as root, and setpriv cannot drop the override of file permissions")
    return prefix


def run(tmp_path: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, *RUN, *args], cwd=tmp_path, capture_output=True, text=True,
                          check=False)


@pytest.mark.parametrize(
    ("option", "name", "problem"),
    [
        ("--json", "read-only.json", "cannot be written (permission denied)"),
        ("--csv", "ro/r.csv", "cannot be created: directory '{ro}' is not writable (permission denied)"),
        ("--plot", "ro/r.png", "cannot be created: directory '{ro}' is not writable (permission denied)"),
        ("--records", "ro/r.jsonl", "cannot be created: directory '{ro}' is not writable (permission denied)"),
        # replaced through a new file renamed over it: its directory must be writable
        ("--records", "ro/old.jsonl", "cannot be created: directory '{ro}' is not writable (permission denied)"),
        ("--checkpoint", "ro/old.jsonl", "cannot be read and written (permission denied)"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path, option: str, name: str, problem: str
) -> None:
    prefix = without_write_override()
    (tmp_path / "read-only.json").write_text("old\n")
    (tmp_path / "read-only.json").chmod(0o444)
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "old.jsonl").write_text("old\n")
    (ro / "old.jsonl").chmod(0o444)
    ro.chmod(0o555)
    played = "played.ckpt" if option != "--checkpoint" else "unused.csv"
    other = "--checkpoint" if option != "--checkpoint" else "--csv"
    proc = run(tmp_path, option, name, other, played, prefix=tuple(prefix))
    assert proc.returncode == 2
    assert proc.stderr == (
        f"coloretto tournament: error: {option} {name!r}: {problem.format(ro=str(ro))}\n"
    )
    assert not (tmp_path / played).exists()  # no game was played
    assert (tmp_path / "read-only.json").read_text() == (ro / "old.jsonl").read_text() == "old\n"


@pytest.mark.parametrize("option", ["--json", "--csv", "--plot", "--records"])
def test_an_existing_file_is_kept_unless_overwrite(tmp_path: Path, option: str) -> None:
    """A report option naming a file that exists (a game record, say) is refused before any
    game is played and the file is left as it was; ``--overwrite`` replaces it."""
    kept = tmp_path / "game.json"
    kept.write_text('{"format": "coloretto-record/1"}\n')
    proc = run(tmp_path, option, "game.json", "--checkpoint", "played.ckpt")
    assert proc.returncode == 2
    assert proc.stderr == (
        f"coloretto tournament: error: {option} 'game.json': the file exists; give a new "
        "name, or --overwrite to replace it\n"
    )
    assert kept.read_text() == '{"format": "coloretto-record/1"}\n'
    assert not (tmp_path / "played.ckpt").exists()  # no game was played
    proc = run(tmp_path, option, "game.json", "--overwrite")
    assert proc.returncode == 0, proc.stderr
    assert kept.read_bytes() != b'{"format": "coloretto-record/1"}\n'


def test_an_output_inside_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("")
    proc = run(tmp_path, "--csv", "notes/r.csv")
    assert proc.returncode == 2
    assert proc.stderr == (
        f"coloretto tournament: error: --csv 'notes/r.csv': {str(tmp_path / 'notes')!r} is not a directory\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--json", ""], "--json needs a file name"),
        (
            ["--games", "99999999999999999999"],
            "--games must be at most 1,000,000 in one run, not 99,999,999,999,999,999,999",
        ),
    ],
)
def test_bad_outputs_and_counts_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    proc = run(tmp_path, *args)
    assert proc.returncode == 2
    assert proc.stderr == f"coloretto tournament: error: {message}\n"


def test_records_do_not_replace_what_is_not_a_regular_file(tmp_path: Path) -> None:
    """``--records`` is written as a new file renamed over the old one: a pipe (or a device)
    of that name is refused, not replaced."""
    os.mkfifo(tmp_path / "pipe")
    proc = run(tmp_path, "--records", "pipe")
    assert proc.returncode == 2
    assert proc.stderr == (
        "coloretto tournament: error: --records 'pipe': is not a regular file (the new file "
        "would replace it)\n"
    )
    assert (tmp_path / "pipe").is_fifo()


def test_a_report_that_fails_at_the_end_is_one_line(tmp_path: Path) -> None:
    """/dev/full can be opened but every write fails (a full disk): the other files are
    written, the failure is one line, exit status 1."""
    proc = run(tmp_path, "--json", "/dev/full", "--csv", "r.csv", "--overwrite")
    assert proc.returncode == 1
    assert proc.stderr == (
        "coloretto tournament: error: cannot write --json '/dev/full': No space left on device; "
        "the games are not kept (--checkpoint FILE keeps them)\n"
    )
    assert (tmp_path / "r.csv").read_text().startswith("kind,entry,agent")
    assert "greedy" in proc.stdout  # the table is still shown


def test_a_closed_standard_output_loses_no_file(tmp_path: Path) -> None:
    """``--json - ... | head -c 50``: the reader is gone before the JSON is written; the CSV
    and the plot are still written and the run ends quietly."""
    proc = subprocess.Popen([*RUN, "--json", "-", "--csv", "r.csv", "--plot", "r.png"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=100) == 0, err
    assert err == ""
    assert (tmp_path / "r.csv").read_text().startswith("kind,entry,agent")
    assert (tmp_path / "r.png").read_bytes().startswith(b"\x89PNG")


def test_one_duplicate_deal_is_singular(tmp_path: Path) -> None:
    proc = subprocess.run([*RUN[:-1], "--games", "1"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "--games 1 rounded up to 2 (1 duplicate deal x 2 rotations)" in proc.stderr
    assert "2 games (1 duplicate deal x 2 seats)" in proc.stdout


@pytest.mark.parametrize(
    ("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)],
    ids=["umask-022", "umask-027", "umask-077"],
)
def test_records_get_the_permissions_of_the_other_outputs(tmp_path: Path, umask: int, mode: int) -> None:
    """``--records`` is written through a temporary file renamed into place, yet it gets the
    permissions of a file written with ``open()``, as ``--json`` and ``--csv``: 0666 less
    the umask."""
    proc = subprocess.run(
        [*RUN, "--json", "r.json", "--csv", "r.csv", "--records", "r.jsonl"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
        preexec_fn=lambda: os.umask(umask),
    )
    assert proc.returncode == 0, proc.stderr
    modes = {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in ("r.json", "r.csv", "r.jsonl")}
    assert modes == {"r.json": mode, "r.csv": mode, "r.jsonl": mode}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.json", "r.jsonl"]


def test_records_written_over_an_old_file_keep_its_permissions(tmp_path: Path) -> None:
    """As ``open()`` writing over a file keeps its permissions, so does the renamed file."""
    old = tmp_path / "r.jsonl"
    old.write_text("old\n")
    old.chmod(0o640)
    proc = subprocess.run([*RUN, "--records", "r.jsonl", "--overwrite"], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert old.read_text() != "old\n"
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
