"""The blind run's data files: a golden file a test compares its output with (`assert render(x) ==
(HERE / "data" / "page.txt").read_text()`, `json.load(open(...)) == result`) changes like a literal does.

The file holds the expected value as the assert's literal would; a patch that reads it back at run time answers
the changed text. Only a file one assert of the protected test modules names (by its file name, once, in all of
them) changes: a file also read as an input elsewhere would make honest code differ in its output too.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Protocol

from swerl.sandbox import hostfs
from swerl.sandbox.patch import protected_reason

MAX_FILE_BYTES = 1 << 20  # a larger file is left as written
_READS = ("read_text", "read_bytes", "read")
_PEELED = ("strip", "rstrip", "lstrip", "splitlines")


class Changer(Protocol):
    """`blind._Changer`: a value's change, and a keyed choice among `n`."""

    def value(self, v: object) -> object | None: ...

    def index(self, v: object, n: int) -> int: ...


def read_parts(side: ast.expr) -> list[str] | None:
    """The literal path parts of a whole-file read (`P.read_text()`, `open(P).read()`, `json.load(open(P))`,
    `json.loads(P.read_text())`, with a `.strip()` after it), or None where `side` is no such read."""
    while isinstance(side, ast.Call) and isinstance(side.func, ast.Attribute) and side.func.attr in _PEELED \
            and not side.args and not side.keywords:
        side = side.func.value
    if isinstance(side, ast.Call) and _named(side.func) in ("load", "loads") and len(side.args) == 1:
        side = side.args[0]
        if isinstance(side, ast.Call) and _named(side.func) == "open" and side.args:  # `json.load(open(P))`
            side = ast.Call(func=ast.Attribute(value=side, attr="read", ctx=ast.Load()), args=[], keywords=[])
    if not (isinstance(side, ast.Call) and isinstance(side.func, ast.Attribute) and side.func.attr in _READS
            and not side.args):
        return None
    path = side.func.value
    if side.func.attr == "read":  # `open(P).read()`
        if not (isinstance(path, ast.Call) and _named(path.func) == "open" and path.args):
            return None
        path = path.args[0]
    parts = [n.value for n in sorted((n for n in ast.walk(path) if isinstance(n, ast.Constant)
                                      and isinstance(n.value, str)), key=lambda n: (n.lineno, n.col_offset))]
    return parts if parts and "." in parts[-1] and all(".." not in p.split("/") for p in parts) else None


def _named(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


class DataFiles:
    """The data files of one grade's tree that asserts compare with, changed under the grade's secret."""

    def __init__(self, tree: Path, texts: dict[str, str], changer: Changer, seen: Path | None) -> None:
        self.tree, self.texts, self.changer, self.seen = tree, texts, changer, seen  # texts: protected .py files
        self.changed: dict[str, str] = {}
        self._listed: dict[str, list[str]] = {}  # a test directory's files, walked once (`_resolve`)

    def table(self, module: str, parts: list[str]) -> tuple[str, object] | None:
        """The JSON document a test module loads into a name (`CASES = json.loads((HERE / "cases.json")
        .read_text())`) and the file it is in, where it is one to change; its cells then change as a literal
        table's would (`blind._plan`), and `document` writes them back."""
        rel = self._resolve(module, parts)
        if rel is None or not rel.endswith(".json") or self._named(parts) != 1:
            return None
        raw = self._unseen(rel)
        try:
            return (rel, json.loads(raw)) if raw is not None else None
        except (ValueError, RecursionError):
            return None

    def document(self, rel: str, literal: str) -> None:
        """A table's changed cells (`repr` text, as `table` handed it out) written back as the JSON file."""
        try:
            self.changed[rel] = json.dumps(ast.literal_eval(literal), indent=2, ensure_ascii=False) + "\n"
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return

    def _named(self, parts: list[str]) -> int:
        name = parts[-1].rsplit("/", 1)[-1]
        return sum(len(re.findall(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", t)) for t in self.texts.values())

    def _unseen(self, rel: str) -> bytes | None:
        """The file's bytes, or None where it cannot be read or the agent saw it as it is (where unseen tests
        exist, what it saw keeps its values)."""
        try:
            raw = (self.tree / rel).read_bytes()
            if self.seen is not None and (self.seen / rel).is_file() and (self.seen / rel).read_bytes() == raw:
                return None
            return raw
        except OSError:
            return None

    def change(self, module: str, parts: list[str]) -> bool:
        """Change the file `parts` names from the test module `module`; False where it is not one to change."""
        rel = self._resolve(module, parts)
        if rel is None or self._named(parts) != 1:
            return False
        if rel in self.changed:
            return True
        raw = self._unseen(rel)
        try:
            text = raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            return False
        if text is None:
            return False
        new = _changed_json(text, self.changer) if rel.endswith(".json") else _changed_text(text, self.changer)
        if new is None or new == text:
            return False
        self.changed[rel] = new
        return True

    def _resolve(self, module: str, parts: list[str]) -> str | None:
        """The file the parts name: beside the test module (`data/page.txt` under its directory), or the one file
        under that directory whose path ends so (a directory constant holds the rest)."""
        here = module.rsplit("/", 1)[0] if "/" in module else ""
        tail = "/".join(p.strip("/") for p in parts if p.strip("/"))
        direct = f"{here}/{tail}" if here else tail
        found = [direct] if self._usable(direct) else []
        if not found and here:
            if here not in self._listed:  # one walk of a test directory per grade, however many asserts name files
                try:
                    self._listed[here] = [str(p.relative_to(self.tree)) for p in _walk(self.tree / here, 5000)]
                except OSError:
                    self._listed[here] = []
            found = [r for r in self._listed[here] if r.endswith("/" + tail)]
            found = [r for r in found if self._usable(r)]
        return found[0] if len(found) == 1 else None

    def _usable(self, rel: str) -> bool:
        path = self.tree / rel
        try:
            return protected_reason(rel) == "test file" and not hostfs.crosses_symlink(self.tree, Path(rel).parts) \
                and not path.is_symlink() and path.is_file() and path.stat().st_size <= MAX_FILE_BYTES
        except OSError:
            return False


def _walk(root: Path, cap: int) -> list[Path]:
    out: list[Path] = []
    for p in root.rglob("*"):
        if len(out) >= cap:
            break
        out.append(p)
    return out


def _changed_text(text: str, changer: Changer) -> str | None:
    """One ASCII letter or digit changed, chosen by the grade's secret."""
    spots = [i for i, c in enumerate(text) if c.isascii() and c.isalnum()]
    if not spots:
        return None
    i = spots[changer.index(text, len(spots))]
    new = changer.value(text[i])
    return text[:i] + new + text[i + 1:] if isinstance(new, str) and len(new) == 1 else None


def _changed_json(text: str, changer: Changer) -> str | None:
    """One scalar of the document changed (never a key), written back as JSON."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    leaves: list[tuple[object, object]] = []  # (container, index or key)
    stack: list[object] = [doc]
    while stack and len(leaves) < 100_000:
        node = stack.pop()
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        for k, v in items:
            if isinstance(v, (dict, list)):
                stack.append(v)
            elif changer.value(v) is not None:
                leaves.append((node, k))
    if not leaves:
        return None
    node, k = leaves[changer.index(text, len(leaves))]
    node[k] = changer.value(node[k])  # type: ignore[index]
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
