"""``coloretto._optional``: the one helper every optional import goes through."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from coloretto._optional import (
    DISTRIBUTIONS,
    EXTRAS,
    MissingExtra,
    missing,
    optional,
    require,
    require_extra,
)
from coloretto.cli.main import main
from coloretto.engine.errors import ConfigurationError

SRC = Path(__file__).resolve().parents[1] / "src" / "coloretto"
OPTIONAL_MODULES = {m for mods in EXTRAS.values() for m in mods}

GUARDED_PACKAGE = SRC / "server"
"""The web server's package imports its framework directly: its ``__init__`` calls
``require_extra("web", ...)`` first, so nothing below it is reached without the extra."""


def test_extras_match_pyproject() -> None:
    import tomllib

    project = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text())["project"]
    declared = project["optional-dependencies"]
    for extra, modules in EXTRAS.items():
        names = {r.split("[")[0].split(">")[0].split("=")[0].strip().lower() for r in declared[extra]}
        for m in modules:
            dist = DISTRIBUTIONS.get(m, m)
            assert dist in names or dist.replace("_", "-") in names, (extra, m, names)
    assert any(r.startswith("numba") for r in project["dependencies"]), "numba is a default dependency"


def test_require_returns_the_module_and_names_a_missing_one() -> None:
    assert require("numba", "fast", "the fast core").__name__ == "numba"
    with pytest.raises(MissingExtra) as info:
        require("ray.no_such_module_here", "ray", "the Ray backend")
    exc = info.value
    assert isinstance(exc, ConfigurationError)
    assert (exc.extra, exc.module, exc.feature) == ("ray", "ray.no_such_module_here", "the Ray backend")
    assert str(exc) == (
        "the Ray backend needs the ray extra (ray.no_such_module_here: not installed): "
        "pip install 'coloretto[ray]'"
    )
    assert "\n" not in str(exc)


def test_require_refuses_a_module_of_another_extra() -> None:
    with pytest.raises(KeyError):
        require("numpy", "web", "x")


def test_a_broken_package_is_reported_with_its_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A package that is installed but fails to import (e.g. a Numba built for another
    NumPy) is named with the first line of its error."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now raises ImportError
    with pytest.raises(MissingExtra) as info:
        require("matplotlib", "arena", "--plot")
    assert "matplotlib" in str(info.value) and "pip install 'coloretto[arena]'" in str(info.value)
    assert optional("matplotlib", "arena") is None


def test_missing_and_require_extra_check_without_importing() -> None:
    for extra in EXTRAS:
        assert missing(extra) is None, f"the test environment has every extra ({extra})"
        require_extra(extra, "x")


def test_main_prints_one_line_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's side: ``serve`` without uvicorn (its real check, with the module
    made unimportable in this process; ``tests/install`` removes it for real)."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "coloretto serve needs the web extra (uvicorn: not installed): pip install 'coloretto[web]'\n"
    )


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def test_every_optional_import_goes_through_the_helper() -> None:
    """No ``import X`` of an extra's package anywhere in ``src/`` but in the guarded server
    package: the rest uses ``require`` / ``optional``."""
    direct = []
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(GUARDED_PACKAGE) and path != GUARDED_PACKAGE / "__init__.py":
            continue
        for line, module in _imports(ast.parse(path.read_text(), str(path))):
            if module.split(".")[0] in OPTIONAL_MODULES:
                direct.append(f"{path.relative_to(SRC)}:{line}: import {module}")
    assert not direct, "\n".join(direct)
    init = (GUARDED_PACKAGE / "__init__.py").read_text()
    assert init.index("require_extra(\"web\"") < init.index("from .config")
