"""What the tamper scan knows: the project's own modules, what its code already imports, and the real
standard-library objects an attribute chain reaches.

Read from the files only (parsed, never imported). The pristine tree's imports are computed once per pristine root
(the grader caches pristine trees by task, so a root is scanned once per process).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
import threading
import types
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from swerl.sandbox import tamper_allow as A
from swerl.sandbox.tamper_names import words_of

_SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "venv", "node_modules", ".tox", ".nox", "build", "dist",
                        ".eggs", "site-packages"})
_TEST_DIRS = frozenset({"tests", "test", "testing"})
_MAX_FILE = 2_000_000
_CACHE: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {}
_HANDED: dict[str, frozenset[str]] = {}
_HANDED_BYTES = 16 << 20  # the test files `_pristine_handed` reads at most (parsed at ~0.4 s per MiB)
_LOCK = threading.Lock()
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9_]+")  # a word a dispatch lookup may begin with (`tamper_visit._dispatch`)
MISSING = object()


@dataclass(frozen=True)
class ScanContext:
    """own: the project's top-level import names; modules: every dotted module name of the project (None when
    unknown); imports: modules the pristine tree's non-test code imports (a fix may import them too)."""

    own: frozenset[str]
    modules: frozenset[str] | None = None
    imports: frozenset[str] = frozenset()
    getattr_classes: frozenset[str] = frozenset()  # the project's classes with a forwarding `__getattr__`
    # what could reach a module's name from elsewhere (`Features._sealed_whitelist`, `_sealed_sort_key`):
    # identifiers spelled in two or more changed files, identifier-like strings of any changed file, the names the
    # pristine tree's non-test code reaches on a module or object (`mod.X`, `from m import X`), and what its tests
    # hand on
    shared: frozenset[str] = frozenset()
    texts: frozenset[str] = frozenset()
    reached: frozenset[str] = frozenset()
    handed: frozenset[str] = frozenset({"*"})  # names the tests use other than as a call's function; "*": unknown
    # a changed file reads some namespace whole (`vars()`, `.__dict__`, `globals()`, `inspect.getmembers`)
    wholesale: bool = False

    def is_own(self, dotted: str) -> bool:
        return dotted.split(".")[0] in self.own

    def is_own_module(self, dotted: str) -> bool:
        return self.modules is not None and dotted in self.modules

    def import_kind(self, module: str) -> str | None:
        """'own', 'stdlib' (resolvable on the host), 'known' (imported by the pristine tree) or None (not allowed)."""
        parts = module.split(".")
        prefixes = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        if parts[0] in self.own:
            return "own"
        if module in A.STDLIB_ALLOWED:  # before the denied prefixes: `importlib.resources`, not `importlib`
            return "stdlib"
        if prefixes & A.HARD_DENY:
            return None
        if prefixes & self.imports:
            return "known"
        return None


def _is_test(rel: Path) -> bool:
    name = rel.name
    return (bool(set(rel.parts[:-1]) & _TEST_DIRS) or name.startswith("test_") or name.endswith("_test.py")
            or name == "conftest.py")


def _py_files(root: Path) -> list[Path]:
    out: list[Path] = []
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            entries = list(d.iterdir())
        except OSError:
            continue
        for p in entries:
            if p.is_symlink():
                continue
            if p.is_dir() and p.name not in _SKIP_DIRS and not p.name.startswith("."):
                stack.append(p)
            elif p.suffix == ".py" and p.is_file():
                out.append(p)
    return out


def _facts_of(source: bytes) -> tuple[set[str], set[str], set[str]]:
    """(modules the file imports, its classes with a forwarding `__getattr__`, the names it reaches on a module
    or object: `x.name`, `from m import name`, every name of a file with a star import, which binds another
    module's names unspelled, `'word` for each string that is a word a lookup by name may begin with, and "**"
    for a file that walks a namespace: `_walks_namespace`), from one parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(), set(), set()
    found: set[str] = set()
    reached: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            reached.update(a.name for a in node.names)
            if node.level == 0 and node.module:
                found.add(node.module)
        elif isinstance(node, ast.Attribute):
            reached.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _WORDS.fullmatch(node.value):
            reached.add(f"'{node.value}")  # a word it may look a name up by (`getattr(table, "sort_" + how)`)
    if "*" in reached:
        reached.update(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    if any(_walks_namespace(n) for n in ast.walk(tree)):
        reached.add("**")  # what it finds there it may call with any arguments (a registry of a module's functions)
    return found, classes_with_getattr(tree) if b"__getattr__" in source else set(), reached


def _walks_namespace(node: ast.AST) -> bool:
    """A read of some object's whole namespace - `dir(m)`, `vars(m)`, `m.__dict__`, `globals()`,
    `inspect.getmembers(m)` - on anything but the method's own `self`."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return not (isinstance(node.value, ast.Name) and node.value.id == "self")
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(
        node.func, ast.Attribute) else ""
    first = node.args[0] if node.args else None
    own = isinstance(first, ast.Name) and first.id == "self"
    return name in ("getmembers", "globals") or (name in ("dir", "vars") and first is not None and not own)


def _handed_of(source: bytes) -> set[str]:
    """The names a test file uses other than as what it calls (`sort_by(rows, "age")` calls; `process(rows,
    sorter=sort_by)`, `f = table.sort_by` hand the function on to code that may call it with other arguments)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {"*"}  # unknown: every name may be handed on
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    out = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(tree) if id(n) not in called and (
        (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)) or isinstance(n, ast.Attribute))}
    renamed = {a.asname: a.name.rsplit(".", 1)[-1] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
               for a in n.names if a.asname}  # `from table import sort_by as sb`: handing `sb` hands `sort_by`
    return out | {renamed[n] for n in out & renamed.keys()}


def pristine_imports(pristine: Path) -> frozenset[str]:
    """Modules the pristine tree's non-test code imports, minus the ones no fix may import (cached per root)."""
    return _pristine_facts(pristine)[0]


def _pristine_facts(pristine: Path) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(`pristine_imports`, the names of its non-test classes with a `__getattr__`, the names its non-test code
    reaches on a module or object), read once per root."""
    key = str(pristine.resolve())
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    found: set[str] = set()
    proxies: set[str] = set()
    reached: set[str] = set()
    for p in _py_files(pristine):
        rel = p.relative_to(pristine)
        if _is_test(rel) or p.stat().st_size > _MAX_FILE:
            continue
        imports, forwarding, names = _facts_of(p.read_bytes())
        found |= imports
        proxies |= forwarding
        reached |= names
    allowed = frozenset(m for m in found if not {".".join(m.split(".")[:i]) for i in range(1, m.count(".") + 2)}
                        & A.HARD_DENY)
    with _LOCK:
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = (allowed, frozenset(proxies), frozenset(reached))
    return _CACHE[key]


def _pristine_handed(pristine: Path) -> frozenset[str]:
    """The names the pristine tree's test files hand on (`_handed_of`; "*" where a file cannot be read), read once
    per root and only when a changed file may need them (the tests' files are many: most grades never ask)."""
    key = str(pristine.resolve())
    with _LOCK:
        if key in _HANDED:
            return _HANDED[key]
    handed: set[str] = set()
    budget = _HANDED_BYTES
    for p in _py_files(pristine):
        if _is_test(p.relative_to(pristine)):
            budget -= p.stat().st_size
            if budget < 0:  # too many tests to read here: unknown, so every name may be handed on
                handed = {"*"}
                break
            handed |= {"*"} if p.stat().st_size > _MAX_FILE else _handed_of(p.read_bytes())
    with _LOCK:
        if len(_HANDED) > 256:
            _HANDED.clear()
        _HANDED[key] = frozenset(handed)
    return _HANDED[key]


def project_modules(tree: Path) -> tuple[frozenset[str], frozenset[str]]:
    """(top-level names, all dotted module names) of the project: packages and modules at the root or under src/,
    test directories excluded."""
    own: set[str] = set()
    modules: set[str] = set()
    for base in (tree, tree / "src"):
        if not base.is_dir():
            continue
        for p in _py_files(base):
            rel = p.relative_to(base)
            if rel.parts[0] in _TEST_DIRS or (base == tree and rel.parts[0] == "src") or _is_test(rel):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not parts or not all(x.isidentifier() for x in parts) or parts[0] in sys.stdlib_module_names:
                continue
            own.add(parts[0])
            modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(own), frozenset(modules)


def named(node: ast.AST | None) -> str:
    """The name a name, an attribute or a call spells (`AssertionError`, `self.fail`, `unittest.TestCase`), else ""."""
    if isinstance(node, ast.Call):
        node = node.func
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def forwarded_name(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The attribute-name parameter of a forwarding `__getattr__` (`def __getattr__(self, name): return
    getattr(self._inner, name)`, a proxy; a module's `__getattr__(name)`), if the body never rebinds it. The name is
    the one the proxy was asked for: a literal attribute in the source (which the scan judges), a library's lookup,
    a computed `getattr` on the proxy (a finding) or `hasattr` (a yes or no); explicit `.__getattr__(...)` calls are
    findings too (R54-FP2: click's pager stream proxy). Only a body that is that one `return`: a proxy that keeps
    what it fetched hands `hasattr`'s computed name a value (R55-2)."""
    positional = [*node.args.posonlyargs, *node.args.args]
    body = node.body[1:] if node.body and isinstance(node.body[0], ast.Expr) and isinstance(
        getattr(node.body[0], "value", None), ast.Constant) else node.body  # a docstring
    if node.name != "__getattr__" or not 1 <= len(positional) <= 2 or len(body) != 1:
        return None
    name = positional[-1].arg
    ret = body[0]
    # the whole body is `return getattr(<expr>, name[, default])`: the value goes back to whoever asked, and
    # `hasattr(proxy, computed)` learns a yes or no, never the value (R55-2 kept what it fetched)
    if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Call) and isinstance(ret.value.func, ast.Name)
            and ret.value.func.id == "getattr" and 2 <= len(ret.value.args) <= 3 and not ret.value.keywords
            and isinstance(ret.value.args[1], ast.Name) and ret.value.args[1].id == name):
        return None
    return None if name in bound_in(node.body) else name


def classes_with_getattr(source: bytes | str | ast.AST, known: Iterable[str] = ()) -> set[str]:
    """`known` and the classes of one file with a forwarding `__getattr__` (`forwarded_name`: the one the scan
    allows, which hands any name on to another object) or deriving (by name) from one of those."""
    try:
        tree = source if isinstance(source, ast.AST) else ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(known)
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    found = set(known) | {c.name for c in classes if any(
        isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and forwarded_name(f) for f in c.body)}
    grew = True
    while grew:
        new = {c.name for c in classes if c.name not in found and any(named(b) in found for b in c.bases)}
        found |= new
        grew = bool(new)
    return found


def context_for(pristine: Path, tree: Path, changed: Iterable[str] = (), budget: int = 1 << 26,
                max_file: int = _MAX_FILE) -> ScanContext:
    """The scan context of one grade: the patched tree's own modules, the pristine tree's imports, and the classes
    with a `__getattr__` of the pristine tree and of the changed files (a class declaring fields on top of one
    hands a library's lookup by field name to it, R58-3), and what could reach a module's name from elsewhere
    (`ScanContext.shared` ... `wholesale`). Reads at most `budget` bytes of changed files and parses none over
    `max_file`: the scan's own bounds (`ScanTooCostly`) stay its bounds."""
    own, modules = project_modules(tree)
    imports, proxies, reached = _pristine_facts(pristine)
    resolvers = False
    seen: Counter[str] = Counter()
    texts: set[str] = set()
    for rel in changed:
        p = tree / rel
        if not (rel.endswith((".py", ".pyw")) and p.is_file() and not p.is_symlink()):
            continue
        size = p.stat().st_size
        budget -= size
        if budget < 0:
            break
        if size > max_file:  # refused unparsed by the scan (`ScanTooCostly`)
            continue
        source = p.read_bytes()
        resolvers = resolvers or b"attrgetter" in source
        try:
            parsed = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # the scan reports it
        proxies |= classes_with_getattr(parsed)
        names, strings = words_of(parsed)
        seen.update(names | strings)
        texts |= strings
    return ScanContext(own=own, modules=modules, imports=imports, getattr_classes=frozenset(proxies),
                       shared=frozenset(w for w, n in seen.items() if n > 1), texts=frozenset(texts),
                       reached=reached, handed=_pristine_handed(pristine) if resolvers else frozenset({"*"}),
                       wholesale=bool({"vars", "__dict__", "globals", "getmembers"} & seen.keys()))


def chain(node: ast.AST) -> tuple[ast.AST, list[str]]:
    """`a.b.c` -> (Name a, ["b", "c"])."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return node, parts[::-1]


def bound_in(nodes: Iterable[ast.AST]) -> set[str]:
    """Names a scope binds (assignments, imports, defs, handlers), not entering nested scopes."""
    out: set[str] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            continue
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names if a.name != "*")
        elif (isinstance(n, ast.ExceptHandler) and n.name) or (isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name):
            out.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            out.add(n.rest)
        stack.extend(ast.iter_child_nodes(n))
    return out


def params(args: ast.arguments) -> set[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]
    return {a.arg for a in every}


def real(module: str) -> object:
    """An allowlisted standard-library module, imported on the host (never project code); `MISSING` otherwise."""
    if module not in A.STDLIB_ALLOWED:
        return MISSING
    try:
        return importlib.import_module(module)
    except ImportError:
        return MISSING


def step_finding(step: str) -> str | None:
    """A finding for an attribute name that no object may be asked for."""
    if step in A.FRAME_ATTRS:
        return f"introspects .{step}"
    if step.startswith("__") and step.endswith("__") and step not in A.DUNDERS_ALLOWED:
        return f"introspects .{step}"
    if step in A.PYTEST_WORDS:
        return f"pytest internals .{step}"
    return None


def walk_real(parts: list[str]) -> str | None:
    """Follow `parts` (`["os", "sys", "modules"]`) through the real standard-library objects: a finding when a step
    reaches a module that is not allowed, a denied or private member, or a member a strict module does not list."""
    obj, path = real(parts[0]), parts[0]
    if obj is MISSING:
        return f"reaches module {parts[0]}"
    for step in parts[1:]:
        found = step_finding(step) or (f"uses {path}.{step}" if step.startswith("_") and step not in A.DUNDERS_ALLOWED
                                       and f"{path}.{step}" not in A.PRIVATE_ALLOWED else None)
        if found or step in A.DUNDER_LOOKUPS:
            return found or f"introspects {path}.{step}"
        if (path in A.STRICT_ATTRS and step not in A.STRICT_ATTRS[path]) or f"{path}.{step}" in A.DENIED_MEMBERS:
            return f"uses {path}.{step}"
        child = getattr(obj, step, MISSING)
        if child is MISSING and isinstance(obj, types.ModuleType) and hasattr(obj, "__path__"):
            try:  # a submodule not imported yet: its spec says what it is without running it
                spec = importlib.util.find_spec(f"{obj.__name__}.{step}")
            except (ImportError, ValueError):
                spec = None
            if spec is not None:
                child = real(spec.name)
                if child is MISSING:
                    return f"reaches module {spec.name} via {path}.{step}"
        if child is MISSING:
            return None  # not on the real object: an attribute made at run time; nothing more to say
        if isinstance(child, types.ModuleType):
            if child.__name__ not in A.STDLIB_ALLOWED:
                return f"reaches module {child.__name__} via {path}.{step}"
            path = child.__name__
        else:
            path = f"{path}.{step}"
        obj = child
    return None
