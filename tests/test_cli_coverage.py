"""Every command and option of ``coloretto`` runs in at least one test.

The real parser (``coloretto.cli.main.build_parser``) is walked: every subcommand path
(``bench playout``...) and every option string of it. Then the tests are read (their source,
not run) and an option counts as exercised when some **test that runs the command line**
names the command and the option:

- a *test* is a ``test_*`` function with its decorators (``parametrize`` values), the
  module-level helpers, constants and fixtures it uses (from its module, the test modules it
  imports from and the ``conftest.py`` files above it), followed transitively;
- it *runs the command line* when it calls ``coloretto.cli.main.main`` or starts the program
  (``coloretto`` / ``python -m coloretto.cli.main``);
- it *names the command* when the command's first word is a command argument: the first string
  of a list, tuple or call, or the string right after ``coloretto`` /
  ``coloretto.cli.main``; the further words of the path (``playout``) and the option (or
  ``--option=value``) may be anywhere in it.

The ``coloretto`` lines of the docs' code blocks count too: ``tests/test_docs.py`` runs each
of them end to end (``connect`` lines are only parsed there, so they do not count).

``EXCEPTIONS`` lists what no test has to name, each with its reason.
"""

from __future__ import annotations

import argparse
import ast
import functools
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from coloretto.cli.main import SUBCOMMANDS, build_parser

TESTS = Path(__file__).resolve().parent

EXCEPTIONS: dict[tuple[str, str], str] = {}
"""``(command path, option) -> reason`` for options no test names. ``-h``/``--help`` of
every command is run by ``test_every_command_prints_its_help`` below, which walks the same
tree (so its names are not in the source)."""


def option_tree() -> list[tuple[tuple[str, ...], str]]:
    """``(path, option string)`` for every option of every command (``()`` is the top)."""
    out: list[tuple[tuple[str, ...], str]] = []

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))
            else:
                out.extend((path, o) for o in action.option_strings)

    walk(build_parser(), ())
    return out


def command_paths() -> list[tuple[str, ...]]:
    return sorted({p for p, _ in option_tree() if p})


def test_the_walk_sees_every_subcommand() -> None:
    """Every subcommand module is in the parser (an import error is an error, not a
    smaller tree), so the checks below cover all of them."""
    assert {p[0] for p in command_paths()} == set(SUBCOMMANDS)


# ----- reading the tests ----------------------------------------------------------------------
def words_of(text: str) -> list[str]:
    """The shell words of ``text`` (its whitespace-separated words if it does not parse)."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def names_option(words: tuple[str, ...], option: str) -> bool:
    """``option`` is among ``words``, alone or as ``--option=value``."""
    return any(w == option or w.startswith(option + "=") for w in words)


@dataclass(frozen=True)
class Seq:
    """The string words of one list, tuple, call or command string, in order; ``open`` when
    it also holds values known only when the test runs (``*argv``, a variable)."""

    words: tuple[str, ...]
    open: bool


@dataclass
class Unit:
    """What one test (with everything it reaches) names."""

    seqs: set[Seq] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    runs_cli: bool = False


LAUNCHERS = {"coloretto", "coloretto.cli.main"}


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))]
    return []


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and _strings(body[0].value):
            out.add(id(body[0].value))
    return out


def scan(node: ast.AST) -> Unit:
    unit = Unit()
    skip = _docstrings(node)
    for sub in ast.walk(node):
        if id(sub) in skip:
            continue
        for s in _strings(sub):
            ws = words_of(s)
            if any(w.split("/")[-1] in LAUNCHERS for w in ws):
                unit.runs_cli = True
            if len(s.split()) > 1:
                unit.seqs.add(Seq(tuple(ws), False))
        items: list[ast.expr] | None = None
        if isinstance(sub, ast.List | ast.Tuple | ast.Set):
            items = list(sub.elts)
        elif isinstance(sub, ast.Call):
            items = list(sub.args)
        if items:
            words: list[str] = []
            is_open = False
            for item in items:
                found = _strings(item)
                if not found:
                    is_open = is_open or isinstance(item, ast.Starred | ast.Name | ast.Attribute | ast.Subscript)
                for text in found:
                    words += words_of(text) if " " in text.strip() else [text]
            if words:
                unit.seqs.add(Seq(tuple(words), is_open))
        if isinstance(sub, ast.Name):
            unit.names.add(sub.id)
        elif isinstance(sub, ast.arg):
            unit.names.add(sub.arg)
        elif isinstance(sub, ast.Attribute):
            unit.names.add(sub.attr)
    return unit


def command_of(seq: Seq, commands: set[str]) -> tuple[str, tuple[str, ...]] | None:
    """``(command, the words after it)`` when ``seq`` runs a command: its first word is a
    command, or the word after ``coloretto`` / ``coloretto.cli.main`` is."""
    ws = seq.words
    for i, w in enumerate(ws):
        if (i == 0 and w in commands) or (i > 0 and ws[i - 1].split("/")[-1] in LAUNCHERS and w in commands):
            return w, ws[i + 1 :]
    return None


@dataclass
class Module:
    path: Path
    defs: dict[str, list[ast.AST]]
    tests: list[ast.FunctionDef | ast.AsyncFunctionDef]
    imports: dict[str, str]  # local name -> test module name it comes from
    calls_main: bool


def read_module(path: Path) -> Module:
    tree = ast.parse(path.read_text(), str(path))
    defs: dict[str, list[ast.AST]] = {}
    tests: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    imports: dict[str, str] = {}
    calls_main = False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defs.setdefault(node.name, []).append(node)
            if node.name.startswith("test_"):
                assert not isinstance(node, ast.ClassDef)
                tests.append(node)
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                tests += [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for name in ast.walk(t):
                    if isinstance(name, ast.Name):
                        defs.setdefault(name.id, []).append(node)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "coloretto.cli.main" and any(a.name == "main" for a in node.names):
                calls_main = True
            for a in node.names:
                imports[a.asname or a.name] = node.module.lstrip(".").split(".")[-1]
    return Module(path, defs, tests, imports, calls_main)


class Corpus:
    """Every test module and conftest under ``tests/``, read once."""

    def __init__(self) -> None:
        self.modules = {p: read_module(p) for p in sorted(TESTS.rglob("*.py"))}
        self.by_name = {p.stem: m for p, m in self.modules.items() if p.name != "conftest.py"}

    def conftests(self, path: Path) -> list[Module]:
        return [m for p, m in self.modules.items() if p.name == "conftest.py" and path.is_relative_to(p.parent)]

    def unit(self, module: Module, test: ast.AST) -> Unit:
        """The test's own unit joined with every definition it reaches."""
        total = Unit()
        seen: set[tuple[Path, str]] = set()
        stack: list[tuple[Module, ast.AST]] = [(module, test)]
        while stack:
            mod, node = stack.pop()
            u = scan(node)
            total.seqs |= u.seqs
            total.runs_cli |= u.runs_cli or (mod.calls_main and "main" in u.names)
            for name in u.names:
                for owner in self._owners(mod, name):
                    key = (owner.path, name)
                    if key in seen:
                        continue
                    seen.add(key)
                    stack += [(owner, d) for d in owner.defs[name]]
        return total

    def _owners(self, mod: Module, name: str) -> Iterator[Module]:
        if name in mod.defs:
            yield mod
        source = mod.imports.get(name)
        if source in self.by_name and name in self.by_name[source].defs:
            yield self.by_name[source]
        for conf in self.conftests(mod.path):
            if name in conf.defs:
                yield conf


def doc_units() -> list[Unit]:
    """The ``coloretto`` lines that ``tests/test_docs.py`` runs (connect is only parsed)."""
    import test_docs  # tests/ is on the path for its modules

    out = []
    for block in test_docs.BLOCKS:
        if block.lang != "sh":
            continue
        for line in test_docs.sh_lines(block.text):
            if line.words[0] != "coloretto":
                continue
            for argv in test_docs.variants(line.words[1:]):
                if argv[0] == "connect":
                    continue
                out.append(Unit(seqs={Seq(tuple(argv), False)}, runs_cli=True))
    return out


@functools.cache
def cli_units() -> list[Unit]:
    """Every test that runs the command line, and the docs' lines (read once per session)."""
    corpus = Corpus()
    units = []
    for path, module in corpus.modules.items():
        if path.name in ("test_cli_coverage.py", "test_docs.py"):
            continue  # this file; the docs' lines are counted by doc_units
        for test in module.tests:
            u = corpus.unit(module, test)
            if u.runs_cli:
                units.append(u)
    return units + doc_units()


def covered(path: tuple[str, ...], option: str, units: list[Unit]) -> bool:
    """A unit runs ``coloretto PATH ... OPTION``: one of its command sequences for ``path[0]``
    holds the rest of the path and the option, or it is open (``main(["simulate", *argv])``)
    and the option is in one of the unit's other sequences (the ``argv`` values)."""
    commands = {p[0] for p, _ in option_tree() if p}
    if not path:  # an option of `coloretto` itself: main(["--version"]), "coloretto --version"
        return any(
            s.words[0] == option or any(a.split("/")[-1] in LAUNCHERS and b == option for a, b in zip(s.words, s.words[1:]))
            for u in units for s in u.seqs
        )
    for u in units:
        runs = [(c, rest, s) for s in u.seqs if (found := command_of(s, commands)) for c, rest in [found]]
        for command, rest, seq in runs:
            if command != path[0] or not all(p in rest for p in path[1:]):
                continue
            if names_option(rest, option):
                return True
            if seq.open and any(names_option(s.words, option) for s in u.seqs if command_of(s, commands) is None):
                return True
    return False


# ----- the tests --------------------------------------------------------------------------
def test_every_option_of_every_command_runs_in_a_test() -> None:
    units = cli_units()
    assert len(units) > 50
    missing = []
    for path, option in option_tree():
        if option in ("-h", "--help") or (" ".join(path), option) in EXCEPTIONS:
            continue
        if not covered(path, option, units):
            missing.append(f"coloretto {' '.join(path)} {option}".replace("  ", " "))
    assert not missing, "no test runs these (add an end-to-end test, or an exception with its reason):\n" + "\n".join(missing)


def test_every_command_runs_in_a_test() -> None:
    units = cli_units()
    commands = {p[0] for p in command_paths()}
    runs = [found for u in units for s in u.seqs if (found := command_of(s, commands))]
    idle = [" ".join(p) for p in command_paths() if not any(c == p[0] and all(w in rest for w in p[1:]) for c, rest in runs)]
    assert not idle, idle


def test_exceptions_are_still_options() -> None:
    tree = {(" ".join(p), o) for p, o in option_tree()}
    stale = [k for k in EXCEPTIONS if k not in tree]
    assert not stale, f"exceptions for options that no longer exist: {stale}"


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_command_prints_its_help(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    from coloretto.cli.main import main

    with pytest.raises(SystemExit) as done:
        main([*path, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: coloretto " + " ".join(path))
    options = {o for p, o in option_tree() if p == path}
    assert all(o in out for o in options), sorted(o for o in options if o not in out)


def test_the_scanner_sees_the_forms_tests_use() -> None:
    """A check of the reading rules on small samples (the scanner itself can be wrong)."""
    sample = ast.parse(
        '@pytest.mark.parametrize("argv", [["--players", "9"]])\n'
        'def test_a(argv):\n    main(["simulate", "--games", "2", *argv])\n'
        'def test_b():\n    subprocess.run([sys.executable, "-m", "coloretto.cli.main", "play", "--hints"])\n'
        'def test_c():\n    """coloretto score --table violet"""\n    venv.run("bench", "playout", "--fast=1")\n'
        'def run(*args):\n    return subprocess.run([sys.executable, "-m", "coloretto.cli.main", *args])\n'
        '@pytest.mark.parametrize("argv", [["warmup"], ["simulate", "--json"]])\n'
        'def test_d(argv):\n    run(*argv)\n'
    )
    a, b, c, helper, d = (scan(f) for f in sample.body)
    assert helper.runs_cli and b.runs_cli and "main" in a.names
    assert covered(("simulate",), "--games", [a]) and covered(("simulate",), "--players", [a])
    assert covered(("play",), "--hints", [b]) and not covered(("simulate",), "--hints", [a, b])
    assert covered(("bench", "playout"), "--fast", [c]) and not covered(("bench", "score"), "--fast", [c])
    assert not covered(("score",), "--table", [c]), "docstrings do not run anything"
    assert covered(("simulate",), "--json", [d]) and not covered(("warmup",), "--json", [d])
    top = scan(ast.parse('def test_e():\n    assert main(["--version"]) == 0\n').body[0])
    assert covered((), "--version", [top]) and not covered((), "--version", [a, b, c, d])
