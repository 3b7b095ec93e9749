"""The test tree itself: pytest imports test modules by basename where a folder has no
``__init__.py``, so two such files with one name stop the whole run at collection."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_test_module_basenames_are_unique_outside_packages() -> None:
    seen: dict[str, list[Path]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if not (path.parent / "__init__.py").exists():
            seen[path.name].append(path.relative_to(TESTS))
    clashes = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not clashes, f"rename one of each: {clashes}"
