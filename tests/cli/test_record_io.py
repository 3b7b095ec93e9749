"""The commands that read or write record files (``analyze``, ``perft``, ``play``,
``replay``, ``show``, ``tournament``) do it through ``engine.record`` and hold no file
reading, JSON parsing or file writing of their own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "src" / "coloretto" / "cli"
RECORD_COMMANDS = ("analyze", "perft", "play", "replay", "show", "tournament")
FORBIDDEN_CALLS = {"read_text", "read_bytes", "write_text", "write_bytes", "writelines", "loads", "load", "dump"}


def _own_io(tree: ast.AST) -> list[str]:
    """Calls in ``tree`` that read or parse a file, or open one to write: ``x.read_text()``,
    ``json.loads()``, ``json.dump()``, ``open(p, "w")`` and the like (``open(p, "x")``, which
    only creates an empty file, is not I/O of a record)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in FORBIDDEN_CALLS:
            found.append(f"line {node.lineno}: .{func.attr}()")
        if isinstance(func, ast.Name) and func.id == "open":
            mode = node.args[1] if len(node.args) > 1 else None
            mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
            text = mode.value if isinstance(mode, ast.Constant) else "r"
            if text != "x":
                found.append(f"line {node.lineno}: open(..., {text!r})")
    return found


@pytest.mark.parametrize("command", RECORD_COMMANDS)
def test_record_commands_do_no_file_io_of_their_own(command: str) -> None:
    source = (CLI / f"{command}.py").read_text(encoding="utf-8")
    assert _own_io(ast.parse(source)) == [], f"cli/{command}.py: use engine.record's reader and writers"


def test_the_scan_sees_file_io() -> None:
    """The scan finds the kinds of I/O it forbids."""
    code = (
        "import json\ntext = path.read_text()\ndata = json.loads(text)\n"
        "with open(out, 'w') as fh:\n    fh.writelines(lines)\nwith open(p, 'x'):\n    pass\n"
    )
    assert [line.split(":")[0] for line in _own_io(ast.parse(code))] == ["line 2", "line 3", "line 4", "line 5"]
