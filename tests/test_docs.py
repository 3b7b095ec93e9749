"""The code blocks of README.md, docs/*.md and examples/README.md, run as tests: a doc
example that fails is a failing test.

Every fenced block names its language, and is checked by it:

- ``python``: run as written, in a fresh interpreter, in a temporary folder.
- ``json``: parsed. In a schematic sample an upper-case name (``TABLE``, ``OBSERVATION``,
  ``SEAT``, ``RESULT``) stands for an object described elsewhere and ``...`` for "more of the
  same"; they become ``null`` / nothing before parsing. A ``coloretto-record/1`` sample must
  also replay as valid.
- ``text``: output shown to people (boards, messages); not run.
- ``js``: browser-side examples of the web client's modules: parsed by Node as an ES module
  (``node --check``; they need a browser to run), and every name imported from a ``./X.js``
  module must be exported by ``src/coloretto/web/X.js``.
- ``nginx``: a reverse-proxy configuration for the deployment guide; not run (it configures
  nginx, which the project does not ship or need).
- ``sh``: each command line (``\\`` continuations joined, the ``# comment`` and a final ``&``
  taken off) is checked by its first word:

  ``coloretto``
      1. Optional parts ``[...]`` give two variants: none of them, and all of them (of
         alternatives ``a|b`` the first).
      2. Placeholders: ``game.json`` is a real record (``tests/data/records``); a
         ``--resume`` file is first saved by ``coloretto play --save FILE``;
         ``examples/random_engine.py`` and ``my_bot.py`` are the example engine; ``S`` is 1,
         ``N`` is 2, ``PATH`` the shipped limit.c.
      3. Scaling, so that every example runs in seconds: ``--games N`` becomes at most 8
         (``train value``: 16, its least);
         a time ``--budget`` becomes 20 iterations; ``--seconds S`` at most 0.2;
         ``train policy`` trains at most 0.02 minutes, one update of 16 games x 4 decisions;
         ``analyze`` without ``--budget`` gets ``--budget 20``.
      4. The line is parsed by the real parser (``build_parser``): an unknown option or a
         bad value fails the test.
      5. It runs with the installed ``coloretto`` in a temporary folder, standard input
         ``q`` (``play`` saves and quits at its first prompt): exit status 0, no traceback;
         the files it was asked to write (``--json FILE``, ``--csv``, ``--plot``,
         ``--records``, ``--engine-log``, ``--save``, ``--save-records``) exist; a comment
         that is only a number must appear in the output.
      6. ``serve`` starts for real on a free port (``--port`` replaced; a SQLite path becomes
         a file in the temporary folder, a PostgreSQL URL a fresh PostgreSQL database, a
         Redis URL the local Redis), must answer ``/api/health`` (saying which database and
         whether Redis is used), and is stopped. Lines ending in ``&`` run side by side.
      7. ``connect`` is parsed only: it needs a table with an open seat whose other players
         play on, which ``tests/server/test_connect.py`` sets up to run it end to end.

  ``make T``: ``make -n T`` succeeds (the target exists and its recipe is well formed).
  ``python``/``python3 benchmarks/X.py ARGS``: the script exists and every option of ARGS
  is one its ``--help`` lists (benchmarks run for minutes; they print figures, never
  assertions). ``python3 examples/X.py`` followed by lines starting with ``{``: run with
  those lines as standard input; exit 0 and every output line is JSON.
  ``curl URL``: a GET against a ``coloretto serve`` started by the test; the JSON keys of
  the comment must be in the answer. ``export NAME=VALUE`` sets NAME for the rest of the
  block (values replaced as for ``serve``). ``createdb NAME`` stands for the fresh
  PostgreSQL database the block's ``serve`` gets.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from coloretto.arena.bench import LIMIT_C_DEFAULT
from coloretto.cli.main import build_parser
from coloretto.cli.tournament import REPORT_OPTIONS
from coloretto.engine import replay

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "examples" / "README.md"]
RECORD = REPO / "tests" / "data" / "records" / "legal_2p_full.json"
EXAMPLE_ENGINE = REPO / "examples" / "random_engine.py"
LANGUAGES = {"sh", "python", "json", "text", "nginx", "js"}
WEB = REPO / "src" / "coloretto" / "web"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
MAX_GAMES = 8
TRAIN_GAMES = 16
SCALED_BUDGET = "20"
MAX_SECONDS = 0.2
TRAIN_MINUTES = 0.02
TRAIN_POLICY_SIZES = (("--envs", "16"), ("--horizon", "4"), ("--max-updates", "1"))
WRITES = ("json", "csv", "plot", "records", "engine_log", "save", "save_records")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def blocks() -> list[Block]:
    out = []
    for path in DOCS:
        text = path.read_text()
        for m in FENCE.finditer(text):
            out.append(Block(path, text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2)))
    return out


BLOCKS = blocks()


def of(lang: str) -> list[Any]:
    return [pytest.param(b, id=b.where) for b in BLOCKS if b.lang == lang]


# ----- languages ----------------------------------------------------------------------------
def test_every_block_names_a_known_language() -> None:
    assert len(BLOCKS) > 20
    unnamed = [f"{b.where}: {b.lang or '(none)'}" for b in BLOCKS if b.lang not in LANGUAGES]
    assert not unnamed, f"label these blocks with one of {sorted(LANGUAGES)}:\n" + "\n".join(unnamed)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COLORETTO_", "PYTEST_"))}
    env.update(NO_COLOR="1", COLUMNS="120")
    return env


@pytest.mark.parametrize("block", of("python"))
def test_python_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", block.text], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{block.where}:\n{done.stderr}"


@pytest.mark.parametrize("block", of("js"))
def test_js_block_parses_and_imports_exist(block: Block, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed (make test installs it)"
    source = tmp_path / "example.mjs"
    source.write_text(block.text)
    done = subprocess.run([node, "--check", str(source)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, f"{block.where}:\n{done.stderr}"
    imports = re.findall(r"import\s*\{([^}]*)\}\s*from\s*\"\./([\w-]+\.js)\"", block.text)
    assert imports, f"{block.where}: imports nothing from the web client"
    for names, module in imports:
        exported = (WEB / module).read_text()
        for name in (n.strip() for n in names.split(",") if n.strip()):
            assert re.search(rf"export\s+(async\s+)?(function|const|let|class)\s+{name}\b", exported) or re.search(
                rf"export\s*\{{[^}}]*\b{name}\b", exported
            ), f"{block.where}: {module} exports no {name}"


SCHEMATIC = re.compile(r"\b(TABLE|OBSERVATION|SEAT|RESULT)\b")


def parse_json_sample(text: str) -> Any:
    """Parse a JSON sample, schematic parts replaced (module docstring)."""
    text = SCHEMATIC.sub("null", text)
    text = re.sub(r",\s*\.\.\.(?=\s*[\]}])", "", text)  # [SEAT, ...] -> [null]
    text = re.sub(r":\s*\.\.\.(?=\s*[,}])", ": null", text)  # "id": ...
    return json.loads(text)


@pytest.mark.parametrize("block", of("json"))
def test_json_block_parses(block: Block) -> None:
    data = parse_json_sample(block.text)
    if isinstance(data, dict) and data.get("format") == "coloretto-record/1":
        result = replay(data)
        assert result.valid, f"{block.where}: {result.error}"


# ----- sh blocks: lines ---------------------------------------------------------------------
@dataclass
class Line:
    words: list[str]
    comment: str
    background: bool
    stdin: list[str] = field(default_factory=list)


def sh_lines(text: str) -> list[Line]:
    """The command lines of an ``sh`` block (module docstring)."""
    joined = re.sub(r"\\\n\s*", " ", text)
    out: list[Line] = []
    for raw in joined.splitlines():
        raw = raw.strip()
        if not raw:
            continue
        if raw.startswith("{") and out:
            out[-1].stdin.append(raw)
            continue
        m = re.search(r"(?:^|\s)#(.*)$", raw)
        comment = m.group(1).strip() if m else ""
        words = shlex.split(raw[: m.start()] if m else raw)
        background = bool(words) and words[-1] == "&"
        out.append(Line(words[:-1] if background else words, comment, background))
    return out


def variants(words: list[str]) -> list[list[str]]:
    """Without the optional ``[...]`` parts, and with all of them (first alternatives)."""
    without: list[str] = []
    with_all: list[str] = []
    depth = 0
    for w in words:
        opens = w.startswith("[")
        if opens:
            depth += 1
            w = w[1:]
        closes = w.endswith("]")
        if closes:
            w = w[:-1]
        w = w.split("|")[0]
        if depth == 0:
            without.append(w)
        with_all.append(w)
        if closes:
            depth -= 1
    assert depth == 0, f"unbalanced [ ] in {' '.join(words)}"
    return [without] if without == with_all else [without, with_all]


def _is_time(budget: str) -> bool:
    return bool(re.fullmatch(r"[0-9.]+(s|ms)", budget))


def scaled(argv: list[str]) -> list[str]:
    """Placeholders and scaling of the module docstring, applied to ``coloretto ARGV``."""
    out = list(argv)
    for i, w in enumerate(out):
        prev = out[i - 1] if i else ""
        if w == "S" and prev == "--seed":
            out[i] = "1"
        elif w == "N" and prev == "--workers":
            out[i] = "2"
        elif w == "PATH" and prev == "--limit-c":
            out[i] = str(LIMIT_C_DEFAULT)
        elif prev == "--games":
            # ``train value`` needs 16 self-play games at least (held-out games for its figures)
            out[i] = str(min(int(w), TRAIN_GAMES if out[:2] == ["train", "value"] else MAX_GAMES))
        elif prev == "--budget" and _is_time(w):
            out[i] = SCALED_BUDGET
        elif prev == "--seconds":
            out[i] = str(min(float(w), MAX_SECONDS))
        elif prev == "--minutes" and out[:2] == ["train", "policy"]:
            out[i] = str(min(float(w), TRAIN_MINUTES))
        elif w.startswith("cmd:"):
            out[i] = w.replace("my_bot.py", "examples/random_engine.py")
    if out and out[0] == "analyze" and "--budget" not in out:
        out += ["--budget", SCALED_BUDGET]
    if out[:2] == ["train", "policy"]:
        for option, value in TRAIN_POLICY_SIZES:
            if option not in out:
                out += [option, value]
    return out


def coloretto_command() -> list[str]:
    script = Path(sys.executable).with_name("coloretto")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "coloretto.cli.main"]


def parse(argv: list[str], where: str) -> Any:
    try:
        return build_parser().parse_args(argv)
    except SystemExit as exc:
        pytest.fail(f"{where}: the parser refuses `coloretto {' '.join(argv)}` (exit {exc.code})")


def prepare(cwd: Path) -> None:
    """The files the examples name (placeholders of the module docstring)."""
    shutil.copy(RECORD, cwd / "game.json")
    (cwd / "examples").mkdir(exist_ok=True)
    shutil.copy(EXAMPLE_ENGINE, cwd / "examples" / EXAMPLE_ENGINE.name)
    shutil.copy(EXAMPLE_ENGINE, cwd / "my_bot.py")


def run_coloretto(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if env is None:
        env = _env()
        env["HOME"] = str(cwd)  # saved games land in the run's own data folder
        env.pop("XDG_DATA_HOME", None)
    return subprocess.run([*coloretto_command(), *argv], cwd=cwd, env=env, input="q\n",
                          capture_output=True, text=True, timeout=600, check=False)


def _remove_reports(argv: list[str], cwd: Path) -> None:
    """Delete the files ``coloretto tournament`` would refuse to write over (its
    ``REPORT_OPTIONS`` without ``--overwrite``) that ``argv`` names."""
    if argv[0] != "tournament":
        return
    for option, name in itertools.pairwise(argv):
        if option in REPORT_OPTIONS and name != "-":
            (cwd / name).unlink(missing_ok=True)


def check_run(argv: list[str], line: Line, cwd: Path, where: str) -> None:
    # The temporary folder is the home folder of the run, as a shell would expand ``~``.
    argv = [str(cwd) + word[1:] if word == "~" or word.startswith("~/") else word for word in argv]
    args = parse(argv, where)
    if argv[0] == "play" and args.resume and not (cwd / args.resume).exists():
        (cwd / args.resume).parent.mkdir(parents=True, exist_ok=True)
        saved = run_coloretto(["play", "--opponents", "easy", "--seed", "1", "--save", args.resume], cwd)
        assert saved.returncode == 0 and (cwd / args.resume).is_file(), saved.stderr
    done = run_coloretto(argv, cwd)
    both = done.stdout + done.stderr
    assert "Traceback" not in both, f"{where}: {both[-3000:]}"
    assert done.returncode == 0, f"{where}: `coloretto {' '.join(argv)}` exited {done.returncode}:\n{both[-3000:]}"
    for dest in WRITES:
        value = getattr(args, dest, None)
        if isinstance(value, str) and value != "-":
            assert (cwd / value).exists(), f"{where}: --{dest.replace('_', '-')} {value} was not written"
    if re.fullmatch(r"-?[0-9]+", line.comment):
        assert re.search(rf"\b{line.comment}\b", done.stdout), f"{where}: expected {line.comment}:\n{done.stdout}"


# ----- serve ------------------------------------------------------------------------------------
SERVER_TESTS = REPO / "tests" / "server"


def _server_tests_importable() -> None:
    """``tests/server`` is a folder of test modules, not a package: put it on the path."""
    if str(SERVER_TESTS) not in sys.path:
        sys.path.insert(0, str(SERVER_TESTS))


def _server_support() -> ModuleType:
    """The server tests' helpers (PostgreSQL, Redis), loaded from ``tests/server/conftest.py``."""
    _server_tests_importable()
    server_dir = SERVER_TESTS
    spec = importlib.util.spec_from_file_location("_coloretto_server_support", server_dir / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Databases:
    """Real stand-ins for the databases a block names; dropped at the end."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.pg: dict[str, str] = {}
        self.made: list[str] = []
        self.support: ModuleType | None = None

    def _support(self) -> ModuleType:
        if self.support is None:
            self.support = _server_support()
        return self.support

    def database(self, url: str) -> str:
        """A PostgreSQL URL: a fresh database, one per database name; anything else: a SQLite
        file of that name in the block's folder."""
        if url.startswith("postgresql"):
            key = url.rsplit("/", 1)[-1]
            if key not in self.pg:
                made, name = self._support().fresh_pg_database()
                self.pg[key] = made
                self.made.append(name)
            return self.pg[key]
        return f"sqlite:///{self.cwd / Path(url.removeprefix('sqlite:///')).name}"

    def redis(self) -> str:
        support = self._support()
        support.ensure_redis()
        return str(support.REDIS_URL)

    def close(self) -> None:
        for name in self.made:
            self._support().drop_pg_database(name)


def serve_argv(argv: list[str], env: dict[str, str], dbs: Databases, port: int) -> list[str]:
    out = list(argv)
    for i, w in enumerate(out):
        prev = out[i - 1] if i else ""
        if prev == "--port":
            out[i] = str(port)
        elif prev == "--database-url":
            out[i] = dbs.database(w)
        elif prev == "--redis-url":
            out[i] = dbs.redis()
    if "--port" not in out:
        out += ["--port", str(port)]
    return out


@dataclass
class Shell:
    """What the lines of one ``sh`` block share: the folder, the environment (``export``),
    the databases and the servers started."""

    cwd: Path
    env: dict[str, str]
    dbs: Databases
    servers: list[tuple[subprocess.Popen[str], str, Path, str]] = field(default_factory=list)
    curl_base: str | None = None


def start_serve(argv: list[str], sh: Shell, where: str) -> tuple[subprocess.Popen[str], str, Path]:
    _server_tests_importable()
    from serverproc import free_port

    port = free_port()
    log = sh.cwd / f"serve-{port}.log"
    full = serve_argv(argv, sh.env, sh.dbs, port)
    parse(full, where)
    with open(log, "w") as fh:
        proc = subprocess.Popen([*coloretto_command(), *full], cwd=sh.cwd, env=sh.env, stdout=fh,
                                stderr=subprocess.STDOUT, text=True)
    return proc, f"http://127.0.0.1:{port}", log


def wait_healthy(proc: subprocess.Popen[str], url: str, log: Path, where: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{where}: coloretto serve exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            r = httpx.get(url + "/api/health", timeout=1)
            if r.status_code == 200:
                health: dict[str, Any] = r.json()
                return health
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{where}: coloretto serve did not answer within 60 s:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


# ----- sh blocks: the test ------------------------------------------------------------------------
@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    prepare(tmp_path)
    sh = Shell(tmp_path, _env(), Databases(tmp_path))
    try:
        yield sh
    finally:
        for proc, *_ in sh.servers:
            stop(proc)
        sh.dbs.close()


def _check_benchmark(words: list[str], where: str) -> None:
    script = REPO / words[1]
    assert script.is_file(), f"{where}: {words[1]} does not exist"
    helped = subprocess.run([sys.executable, str(script), "--help"], cwd=REPO, env=_env(),
                            capture_output=True, text=True, timeout=120, check=False)
    assert helped.returncode == 0, f"{where}: {words[1]} --help: {helped.stderr}"
    for variant in variants(words[2:]):
        for w in variant:
            if w.startswith("--"):
                assert w in helped.stdout, f"{where}: {words[1]} has no option {w}"


def _check_example(line: Line, cwd: Path, where: str) -> None:
    done = subprocess.run([sys.executable, *line.words[1:]], cwd=cwd, env=_env(),
                          input="\n".join(line.stdin) + "\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, f"{where}: {done.stderr}"
    answers = [json.loads(x) for x in done.stdout.splitlines() if x.strip()]
    assert answers, f"{where}: no answer on standard output"


@pytest.mark.parametrize("block", of("sh"))
def test_sh_block_runs(block: Block, shell: Shell) -> None:
    sh = shell
    for n, line in enumerate(sh_lines(block.text), 1):
        where = f"{block.where} line {n}"
        words = line.words
        head = words[0]
        if head == "coloretto":
            for k, argv in enumerate(variants(words[1:])):
                argv = scaled(argv)
                if k:  # another form of the same line: as a person trying it again would, with
                    # the reports of the first form out of the way (tournament keeps them)
                    _remove_reports(argv, sh.cwd)
                if argv[0] == "serve":
                    proc, url, log = start_serve(argv, sh, where)
                    sh.servers.append((proc, url, log, where))
                    if not line.background:
                        _check_servers(sh)
                elif argv[0] == "connect":
                    parse(argv, where)
                else:
                    check_run(argv, line, sh.cwd, where)
        elif head == "make":
            done = subprocess.run(["make", "-n", *words[1:]], cwd=REPO, capture_output=True,
                                  text=True, timeout=60, check=False)
            assert done.returncode == 0, f"{where}: {done.stderr}"
        elif head in ("python", "python3") and words[1].startswith("benchmarks/"):
            _check_benchmark(words, where)
        elif head in ("python", "python3") and words[1].startswith("examples/"):
            _check_example(line, sh.cwd, where)
        elif head == "export":
            name, _, value = words[1].partition("=")
            if name.endswith("DATABASE_URL"):
                value = sh.dbs.database(value)
            elif name.endswith("REDIS_URL"):
                value = sh.dbs.redis()
            sh.env[name] = value
        elif head == "createdb":
            sh.dbs.database(f"postgresql://{words[1]}")  # the block's PostgreSQL database
        elif head == "curl":
            _check_curl(words[1], line.comment, sh, where)
        else:
            pytest.fail(f"{where}: no rule for `{head}` lines (see this module's docstring)")
    _check_servers(sh)


def _check_servers(sh: Shell) -> None:
    """Every server started so far answers ``/api/health`` as its options say."""
    for proc, url, log, where in sh.servers:
        health = wait_healthy(proc, url, log, where)
        assert health["status"] == "ok"
        args = proc.args
        assert isinstance(args, list)
        db_url = args[args.index("--database-url") + 1] if "--database-url" in args else sh.env.get(
            "COLORETTO_DATABASE_URL", "")
        assert health["database"] == ("postgresql" if db_url.startswith("postgresql") else "sqlite"), health
        assert health["redis"] is ("--redis-url" in args or "COLORETTO_REDIS_URL" in sh.env), health


def _check_curl(url: str, comment: str, sh: Shell, where: str) -> None:
    if sh.curl_base is None:  # one `coloretto serve` answers every curl line of the block
        proc, sh.curl_base, log = start_serve(["serve"], sh, where)
        sh.servers.append((proc, sh.curl_base, log, where))
        wait_healthy(proc, sh.curl_base, log, where)
    base = sh.curl_base
    path = "/" + url.split("/", 3)[3]
    r = httpx.get(base + path, timeout=10)
    assert r.status_code == 200, f"{where}: GET {path}: {r.status_code}"
    body = r.json()
    assert body, where
    for key in re.findall(r'"([a-z_]+)":', comment):
        assert key in body, f"{where}: {path} has no {key!r}: {body}"


# ----- the rules themselves ----------------------------------------------------------------------
def test_line_rules() -> None:
    """The parsing and scaling rules do what the module docstring says."""
    lines = sh_lines("coloretto a \\\n    --b c  # 41\ncoloretto serve --port 8001 &\npython3 x.py\n{\"type\": 1}\n")
    assert [ln.words for ln in lines] == [["coloretto", "a", "--b", "c"], ["coloretto", "serve", "--port", "8001"],
                                         ["python3", "x.py"]]
    assert lines[0].comment == "41" and lines[1].background and lines[2].stdin == ['{"type": 1}']
    assert variants(["replay", "game.json", "[--json]"]) == [["replay", "game.json"], ["replay", "game.json", "--json"]]
    assert variants(["x", "[--workers", "N]", "[--agents", "random|greedy]"])[1] == ["x", "--workers", "N", "--agents", "random"]
    assert scaled(["tournament", "--games", "400", "--budget", "0.5s", "--seed", "S"]) == [
        "tournament", "--games", "8", "--budget", "20", "--seed", "1"]
    assert scaled(["analyze", "game.json"])[-2:] == ["--budget", "20"]
    assert parse_json_sample('{"a": TABLE, "b": [SEAT, ...], "id": ...}') == {"a": None, "b": [None], "id": None}


def test_readme_names_every_extra() -> None:
    """The README's list of extras is pyproject's: each extra is named as `name`, `all` too."""
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    text = (REPO / "README.md").read_text()
    section = text[text.index("**Installing with pip.**") :].split("\n\n")[0]
    named = set(re.findall(r"`([a-z]+)`", section))
    assert set(extras) <= named, f"README misses extras {sorted(set(extras) - named)}"
    members = re.search(r"\[(.*)\]", extras["all"][0])
    assert members is not None and set(members.group(1).split(",")) == set(extras) - {"all"}
