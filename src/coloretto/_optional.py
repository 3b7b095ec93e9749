"""The one place that imports the optional parts of coloretto (the extras of
``pyproject.toml``) and, when one is missing, says which extra to install.

Extras: ``web`` (``coloretto serve``, ``coloretto connect``), ``arena`` (tournament ratings
and plots), ``ray`` (the Ray backend of tournaments), ``fast`` (Numba; part of the default
install, the extra only reinstalls it), ``rl`` (the PettingZoo, Gymnasium and OpenSpiel
environments of ``coloretto.envs``). Every import of one of their packages in ``src/``
goes through :func:`require` or :func:`optional`; the command line turns a
:class:`MissingExtra` into one line on standard error and exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Final

from .engine.errors import ConfigurationError

EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "psycopg",
        "redis",
        "websockets",
        "httpx",
        "openskill",
        "argon2",
        "itsdangerous",
        "confusables",
        "swagger_ui",
    ),
    "arena": ("choix", "matplotlib"),
    "ray": ("ray",),
    "fast": ("numba",),
    "train": ("torch",),
    "rl": ("pettingzoo", "gymnasium", "open_spiel", "pyspiel"),
}
"""Extra name -> the top-level modules it provides (as listed in ``pyproject.toml``, or in
``DISTRIBUTIONS`` when the module's name is not its distribution's)."""

DISTRIBUTIONS: Final[dict[str, str]] = {
    "pyspiel": "open_spiel",
    "argon2": "argon2-cffi",
    "swagger_ui": "swagger-ui-py",
}
"""Top-level module -> the distribution of ``pyproject.toml`` that installs it, where the
names differ (OpenSpiel's distribution ``open_spiel`` installs the module ``pyspiel``,
``argon2-cffi`` the module ``argon2``, ``swagger-ui-py`` the module ``swagger_ui``)."""


class MissingExtra(ConfigurationError):
    """A feature needs an extra that is not installed (or whose package cannot be imported).

    Attributes:
        feature: what needed it, as a person names it (``"coloretto serve"``).
        extra: the extra to install (a key of ``EXTRAS``).
        module: the module that could not be imported.
        reason: why, in one line (``"not installed"`` or the import error).

    ``str()`` is the whole one-line message, with the install command.
    """

    def __init__(self, feature: str, extra: str, module: str, reason: str) -> None:
        self.feature = feature
        self.extra = extra
        self.module = module
        self.reason = reason
        super().__init__(
            f"{feature} needs the {extra} extra ({module}: {reason}): "
            f"pip install 'coloretto[{extra}]'"
        )


def _reason(exc: ImportError) -> str:
    if isinstance(exc, ModuleNotFoundError):
        return "not installed"
    first = str(exc).strip().splitlines()
    return f"cannot be imported: {first[0]}" if first else "cannot be imported"


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module`` (a package of ``extra``) for ``feature``.

    Args:
        module: dotted module name, e.g. ``"uvicorn"`` or ``"websockets.sync.client"``.
        extra: the extra that provides it (a key of ``EXTRAS``).
        feature: what needs it, as a person names it (``"coloretto serve"``, ``"--plot"``).

    Returns:
        The module.

    Raises:
        MissingExtra: the module is not installed or fails to import.
        KeyError: ``extra`` is not a key of ``EXTRAS`` (a bug of the caller).
    """
    if module.split(".")[0] not in EXTRAS[extra]:
        raise KeyError(f"{module} is not a package of the {extra} extra")
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("coloretto"):
            raise
        raise MissingExtra(feature, extra, module, _reason(exc)) from None


def optional(module: str, extra: str) -> ModuleType | None:
    """Import ``module`` of ``extra`` if it can be imported, else ``None`` (for parts with a
    fallback, such as the engine path when Numba is unusable)."""
    try:
        return require(module, extra, module)
    except MissingExtra:
        return None


def missing(extra: str) -> str | None:
    """The first module of ``extra`` that is not installed, or ``None`` when all are
    (a cheap check: ``importlib.util.find_spec``, nothing is imported)."""
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            return module
    return None


def require_extra(extra: str, feature: str) -> None:
    """Check that every package of ``extra`` is installed before ``feature`` starts (so a
    long run does not fail at its end).

    Raises:
        MissingExtra: a package of ``extra`` is not installed.
    """
    module = missing(extra)
    if module is not None:
        raise MissingExtra(feature, extra, module, "not installed")
