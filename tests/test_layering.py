"""The layering in docs/architecture.md holds: lower rooms never import upper ones.

A gateway that imported the trainer would drag torch into every gateway process (and the
trainer's refactors into the gateway's behaviour); a sandbox that imported the rollout room
could not be audited on its own. The check reads every import statement, lazy ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "swerl"
# room -> rooms it must never import (directly or lazily inside a function)
FORBIDDEN = {
    "models": {"train", "rollout", "eval", "gateway", "sandbox", "data"},
    "tokens.py": {"train", "rollout", "eval", "gateway", "sandbox", "data", "models"},
    "events.py": {"train", "rollout", "eval", "gateway", "sandbox", "data", "models"},
    "gateway": {"train", "rollout", "eval", "sandbox", "data", "tasks"},
    "tasks": {"train", "rollout", "eval", "gateway", "sandbox", "data", "models"},
    "sandbox": {"train", "rollout", "eval", "gateway", "data"},
    "rollout": {"train", "eval", "data"},
    "data": {"train", "eval"},
}


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m.split(".")[1] for m in out if m.startswith("swerl.") and m.count(".") >= 1}


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_room_imports_no_upper_room(room: str) -> None:
    root = PKG / room
    files = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
    assert files, f"room {room} not found under {PKG}"
    bad = [f"{f.relative_to(PKG)} imports swerl.{m}" for f in files for m in sorted(_imports(f))
           if m.removesuffix(".py") in {r.removesuffix(".py") for r in FORBIDDEN[room]}]
    assert not bad, "\n".join(bad)
