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
    "eval": {"train"},
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


def test_no_two_rooms_import_each_other() -> None:
    """Any import cycle between rooms, not only the pairs listed above (data <-> rollout, data <-> sandbox and
    train <-> eval were all cycles once): a room must be importable, testable and auditable without its callers."""
    graph: dict[str, set[str]] = {}
    for f in PKG.rglob("*.py"):
        if "taskpack" in f.parts and "repos" in f.parts:
            continue
        room = f.relative_to(PKG).parts[0].removesuffix(".py")
        graph.setdefault(room, set()).update(m for m in _imports(f) if m.removesuffix(".py") != room)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph.get(start, ()))

    cycles = sorted(f"{a} -> {b} -> ... -> {a}" for a in graph for b in graph[a] if reaches(b, a, {b}))
    assert not cycles, "\n".join(cycles)


def test_no_function_over_60_lines() -> None:
    """A function a reader cannot see whole on one screen hides its algorithm: split it into named steps
    (bundled task repos excluded: they are data)."""
    long = []
    for f in sorted(PKG.rglob("*.py")):
        if "taskpack" in f.parts and "repos" in f.parts:
            continue
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 60:
                long.append(f"{f.relative_to(PKG)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert not long, "\n".join(long)


def _bound(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds anew: a `def`, a `class`, an assignment whose value does not read the
    name it binds (`X = X | {...}` extends X, it does not replace it)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [t.id for t in targets if isinstance(t, ast.Name) and t.id not in read]
    return []


def test_no_module_defines_a_name_twice() -> None:
    """A second top-level `def`, `class` or assignment of the same name silently replaces the first for every
    caller below it (ruff says nothing when the name is used in between): the witness once lost a whole round's
    rules that way, and later a list of classes met a tuple of the same name."""
    twice = []
    for f in sorted(PKG.rglob("*.py")):
        if "taskpack" in f.parts and "repos" in f.parts:
            continue
        seen: set[str] = set()
        for node in ast.parse(f.read_text(), str(f)).body:
            for name in _bound(node):
                if name in seen:
                    twice.append(f"{f.relative_to(PKG)}:{node.lineno} {name}")
                seen.add(name)
    assert not twice, "\n".join(twice)
