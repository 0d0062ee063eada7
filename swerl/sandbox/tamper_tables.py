"""The scan's rule for project tables a test loops over (`for name, (enc, dec) in CODECS.items(): assert ...`).

Such a test passes when the patch drops the entry the bug is in, or points it at other, working code: the loop
then never reaches the bug. A table is a module-level literal (`NAME = {...}`, `[...]`, `(...)`, `{a, b}`) or a
dict filled by module-level item assignments (`NAME["k"] = v`, `NAME.update({...})`); the tests' loops name it.
"""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_TEST_BYTES = 1 << 20
_SHRINKS = frozenset({"pop", "popitem", "remove", "clear", "discard", "__delitem__"})
_PARSE_ERRORS = (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError)


@dataclass
class _Table:
    kind: str  # "dict" | "seq"
    elements: Counter[frozenset[str]] = field(default_factory=Counter)  # seq: what each element that names code
    # (a class, a function) names; plain data (stop words) is not kept
    entries: dict[str, frozenset[str]] = field(default_factory=dict)  # dict key (source) -> names its value uses


def _names(node: ast.AST | None) -> frozenset[str]:
    if node is None:
        return frozenset()
    return frozenset(n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
                     if isinstance(n, (ast.Name, ast.Attribute)))


def _fill(table: _Table, keys: list[ast.expr | None], values: list[ast.expr]) -> None:
    for k, v in zip(keys, values, strict=False):
        if k is not None:
            table.entries[ast.unparse(k)] = _names(v)


_BUILDERS = frozenset({"dict", "list", "tuple", "set", "frozenset", "sorted", "OrderedDict"})


def _made_from(value: ast.AST | None) -> frozenset[str]:
    """The names a table built at module level is made from: `{c.name: c for c in _ALL}`, `dict(_PAIRS)`."""
    if isinstance(value, ast.Call) and (getattr(value.func, "id", None) or getattr(value.func, "attr", None)) in _BUILDERS:
        return frozenset().union(*(_made_from(a) if isinstance(a, (ast.ListComp, ast.SetComp, ast.DictComp,
                                                                   ast.GeneratorExp)) else _names(a)
                                   for a in value.args))
    if isinstance(value, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return frozenset().union(*(_names(g.iter) for g in value.generators))
    return frozenset()


def _literal_table(value: ast.AST | None) -> _Table | None:
    if isinstance(value, ast.Dict):
        table = _Table("dict")
        _fill(table, value.keys, value.values)
        return table
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return _Table("seq", elements=Counter(n for n in (_names(e) for e in value.elts) if n))
    return None


def _tables(source: bytes | None) -> tuple[dict[str, _Table], Counter[str], dict[str, frozenset[str]]]:
    """The module's tables, how often module-level code rebinds, deletes from or empties each name, and what each
    name built by a comprehension or a constructor is made from."""
    tables: dict[str, _Table] = {}
    edits: Counter[str] = Counter()
    made: dict[str, frozenset[str]] = {}
    try:
        body = ast.parse(source).body if source is not None else []
    except _PARSE_ERRORS:
        return {}, Counter(), {}
    for node in body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        literal = _literal_table(value) if any(isinstance(t, ast.Name) for t in targets) else None
        source = _made_from(value) if literal is None and any(isinstance(t, ast.Name) for t in targets) else None
        for t in targets:  # `A = B = {...}`: the value is read once, whatever the number of targets
            if isinstance(t, ast.Name):
                edits[t.id] += 1
                if literal is not None:
                    tables[t.id] = literal  # `A = B = {...}` is one object
                elif source:
                    made[t.id] = source
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in tables:
                _fill(tables[t.value.id], [t.slice], [value])  # `NAME["k"] = v`
        for sub in ast.walk(node) if isinstance(node, ast.Expr) else ():
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Name):
                name, method = sub.func.value.id, sub.func.attr
                if method == "update" and name in tables and sub.args and isinstance(sub.args[0], ast.Dict):
                    _fill(tables[name], sub.args[0].keys, sub.args[0].values)
    bound = set(edits)  # the names module-level code assigns
    for scope in [ast.Module(body=body, type_ignores=[]), *(n for n in ast.walk(ast.Module(body=body, type_ignores=[]))
                                                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        shrunk, refilled = _changes(scope, tables)
        for name in shrunk:  # a function that empties a table and fills it again (a reload) keeps it whole
            if (name in bound or name.lstrip("_").isupper()) and (isinstance(scope, ast.Module) or name not in refilled):
                edits[name] += shrunk[name]
    return tables, edits, made


_REFILLS = frozenset({"append", "add", "update", "setdefault", "extend", "insert", "__setitem__"})


def _named(node: ast.AST | None) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _changes(scope: ast.AST, tables: dict[str, _Table]) -> tuple[Counter[str], set[str]]:
    """What code directly in `scope` (not in the functions it defines) does to tables by name: shrinks (`NAME.pop`,
    `dict.pop(NAME, k)`, `del NAME[k]`, `NAME -= {...}`, a list's item replaced: `NAME[1] = x`) and refills."""
    shrunk: Counter[str] = Counter()
    refilled: set[str] = set()
    top = set(getattr(scope, "body", [])) if isinstance(scope, ast.Module) else set()  # counted by `_tables`
    todo = list(getattr(scope, "body", []))
    while todo:
        sub = todo.pop()
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        todo += list(ast.iter_child_nodes(sub))
        target: ast.AST | None = None
        if isinstance(sub, ast.Call) and isinstance(sub.func, (ast.Attribute, ast.Name)):
            owner = sub.func.value if isinstance(sub.func, ast.Attribute) else None
            if sub.args and (_named(owner) in ("dict", "list", "set", "operator") or owner is None):
                owner = sub.args[0]  # `dict.pop(CODECS, "caesar")`, `operator.delitem(CODECS, "caesar")`, `delitem(...)`
            method = _named(sub.func)
            if method in _SHRINKS or method == "delitem":
                target = owner
            elif method in _REFILLS or method == "setitem":
                refilled.add(_named(owner))
        elif isinstance(sub, ast.Assign) and top and sub not in top and any(_named(t) in tables for t in sub.targets):
            target = next(t for t in sub.targets if _named(t) in tables)  # rebound under an `if`/`try`/`for`
        elif isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Del):
            target = sub.value
        elif isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Store):
            name = _named(sub.value)
            refilled.add(name)  # a list's item replaced, or another module's table written: `textcodecs.CODECS[k] = v`
            target = sub.value if (name in tables and tables[name].kind == "seq") or isinstance(sub.value,
                                                                                             ast.Attribute) else None
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.op, (ast.Sub, ast.BitAnd)):
            target = sub.target
        if _named(target):
            shrunk[_named(target)] += 1
    return shrunk, refilled


def _word(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def _repointed(key: str, was: frozenset[str], now: frozenset[str]) -> bool:
    """An entry whose value named code after its key (`"caesar": (caesar_encode, caesar_decode)`) and names none
    now (`"caesar": (rev_encode, rev_decode)`): the loop reaches other code under the same key."""
    word = _word(key)
    named = {n for n in was if word and len(word) > 2 and word in _word(n)}
    return bool(named) and not any(word in _word(n) for n in now)


def shrunk_tables(rel: str, before: bytes | None, after: bytes, read: frozenset[str]) -> list[str]:
    """Findings for the tables of `rel` that the tests loop over (`read`): a key gone, a shorter list, module code
    added that rebinds, deletes from or empties the table, or an entry pointed away from the code its key names.
    The fix may change an entry's value otherwise, or add one."""
    if before is None or not read:
        return []
    (old, old_edits, made), (new, new_edits, _) = _tables(before), _tables(after)
    looped, todo = set(read), list(read)
    while todo:  # a table the looped one is built from (`CODECS = {c.name: c for c in _ALL}`) is looped over too
        for source in made.get(todo.pop(), ()):
            if source not in looped:
                looped.add(source)
                todo.append(source)
    out = []
    for name in sorted(looped & (set(old) | set(new_edits))):  # a table of this module, or one it edits by name
        was, now = old.get(name), new.get(name)
        same = was is not None and now is not None and was.kind == now.kind
        gone = [k for k in set(was.entries) - set(now.entries) if was.entries[k]] if same else []  # held code
        lost = bool(gone) if same and was.kind == "dict" else bool(was.elements - now.elements) if same else (
            was is not None and now is None and bool(was.elements or any(was.entries.values())))
        # fewer code elements, or a table of code that is no literal any more (`dict(...)`); data may be rebuilt
        if lost or new_edits[name] > old_edits[name]:
            out.append(f"{rel}: drops entries from {name}, a table the tests loop over (the loop would skip what was "
                       "dropped)")
        moved = sorted(k for k in was.entries if same and k in now.entries
                       and _repointed(k, was.entries[k], now.entries[k])) if was is not None and now is not None else []
        if moved:
            out.append(f"{rel}: points {name}[{moved[0][:60]}] away from the code its key names, in a table the "
                       "tests loop over")
    return out


def _looped(tree: ast.AST) -> set[str]:
    """Names a test file loops over: in a `for`/comprehension's iterable, or a `parametrize(...)` argument."""
    roots: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            roots.append(n.iter)
        elif isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) == "parametrize":
            roots += [*n.args, *(k.value for k in n.keywords)]
    return {x for r in roots for x in _names(r)}


def tests_read(tree: Path, tests: Sequence[str]) -> frozenset[str]:
    """The names the test files loop over: the project tables whose entries a test's loop decides which code runs."""
    names: set[str] = set()
    for rel in tests:
        p = tree / rel
        try:
            if p.is_symlink() or not p.is_file() or not rel.endswith(".py") or p.stat().st_size > MAX_TEST_BYTES:
                continue
            names |= _looped(ast.parse(p.read_bytes()))
        except (OSError, *_PARSE_ERRORS):
            continue
    return frozenset(names)


# -- the tables as they must be when a test runs (the witness checks them; `swerl_witness._tables_held`) ------------
_ITERATORS = frozenset({"sorted", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "reversed", "len",
                        "iter", "map", "filter", "any", "all", "sum", "min", "max", "parametrize", "items", "keys",
                        "values"})


def _mutated_by_tests(tree: ast.AST) -> set[str]:
    """Names a test file changes or hands to a helper that may (`monkeypatch.delitem(CODECS, k)`, `patch.dict(...)`,
    `CODECS.pop(k)`, `del CODECS[k]`): a table the tests edit themselves is theirs to edit."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            if _named(n.func) not in _ITERATORS:
                out |= {_named(a) for a in [*n.args, *(k.value for k in n.keywords)] if _named(a)}
            if isinstance(n.func, ast.Attribute) and (n.func.attr in _SHRINKS or n.func.attr in _REFILLS):
                out.add(_named(n.func.value))
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(_named(n.value))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.add(n.value.rsplit(".", 1)[-1])  # `patch.dict("pkg.mod.CODECS", ...)`
    return out


def _imported(tree: ast.AST, rel: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """A test file's `from M import NAME [as L]` (L -> (M, NAME)) and `import M [as L]` (L -> M), relative imports
    resolved from the file's own package."""
    names: dict[str, tuple[str, str]] = {}
    modules: dict[str, str] = {}
    package = rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ""
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (n.level - 1)] if n.level else []
            mod = ".".join(filter(None, [*base, n.module or ""]))
            for a in n.names:
                names[a.asname or a.name] = (mod, a.name)
        elif isinstance(n, ast.Import):
            for a in n.names:
                modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    return names, modules


def _module_file(root: Path, mod: str) -> str | None:
    for prefix in ("", "src/", "lib/"):
        for rel in (f"{prefix}{mod.replace('.', '/')}.py", f"{prefix}{mod.replace('.', '/')}/__init__.py"):
            p = root / rel
            if mod and p.is_file() and not p.is_symlink() and p.stat().st_size <= MAX_TEST_BYTES:
                return rel
    return None


def _held_entries(source: bytes, name: str) -> list[Any] | None:
    """[kind, [[key source, the word its value's code is named after, or ""]], [names of code elements]] of a
    module-level literal table no code of its module writes to; None for any other name."""
    tables, edits, _ = _tables(source)
    table = tables.get(name)
    if table is None or edits[name] != 1:
        return None
    scopes = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Module, ast.FunctionDef,
                                                                          ast.AsyncFunctionDef))]
    if any(name in shrunk or name in refilled for shrunk, refilled in (_changes(s, tables) for s in scopes)):
        return None  # the module edits its own table (a registry filled at import): the scan's rule covers it
    keys = []
    for key, names in table.entries.items():
        try:
            ast.literal_eval(key)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        word = _word(key)
        keys.append([key, word if len(word) > 2 and any(word in _word(n) for n in names) else ""])
    elements = sorted(next(iter(e)) for e in table.elements if len(e) == 1)
    return [table.kind, keys, elements] if keys or elements else None


def _test_files(tree: Path, cap: int = 20_000) -> list[str]:
    """The tree's other test modules and conftests (a patch cannot add one: the tree policy drops new test files)."""
    out: list[str] = []
    for n, (top, dirs, files) in enumerate(os.walk(tree)):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
        out += [os.path.relpath(os.path.join(top, f), tree) for f in files if f.endswith(".py") and (
            f.startswith("test") or f.endswith("_test.py") or f == "conftest.py")]
        if n > cap or len(out) > cap:
            break
    return out


def held_tables(pristine: Path, tree: Path, tests: Sequence[str], depth: int = 3) -> dict[str, list[list[Any]]]:
    """rel -> [[name, kind, keys, elements]] of each project table a test file imports and loops over, as its
    module's literal defines it (followed through up to `depth` re-exports). The witness checks before and after
    every test that the table still holds those entries and that each entry's code is still named after its key:
    whatever the patch used to drop or repoint one (an alias, `getattr(T, "pop")`, a function called at import),
    what the test loops over is what the source says. Tables the module or the tests write to are left out."""
    wanted: set[tuple[str, str]] = set()
    mutated: set[str] = set()  # by any test file: a test of one file may edit what another's loop reads
    others = [r for r in _test_files(tree) if r not in set(tests)]
    for rel in [*tests, *others]:
        p = tree / rel
        try:
            if p.is_symlink() or not p.is_file() or not rel.endswith(".py") or p.stat().st_size > MAX_TEST_BYTES:
                continue
            parsed = ast.parse(p.read_bytes())
        except (OSError, *_PARSE_ERRORS):
            continue
        looped = _looped(parsed) if rel in tests else set()
        mutated |= _mutated_by_tests(parsed)
        names, modules = _imported(parsed, rel)
        wanted |= {names[n] for n in looped if n in names}
        wanted |= {(modules[m], n) for m in looped if m in modules for n in looped if n not in modules}
    wanted = {(m, n) for m, n in wanted if n not in mutated}
    out: dict[str, list[list[Any]]] = {}
    for mod, name in sorted(wanted):
        found = _defined(pristine, mod, name, depth)
        if found is not None and all(t[0] != found[1][0] for t in out.get(found[0], [])):
            out.setdefault(found[0], []).append(found[1])
    return out


def _defined(pristine: Path, mod: str, name: str, depth: int) -> tuple[str, list[Any]] | None:
    """(file, [name, *entries]) of the literal table `mod.name` is, through up to `depth` re-exports."""
    for _ in range(depth):
        rel_file = _module_file(pristine, mod)
        try:
            source = (pristine / rel_file).read_bytes() if rel_file else None
            entries = _held_entries(source, name) if source is not None else None
            again = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)
                     and any((a.asname or a.name) == name for a in n.names)] if source and not entries else []
        except (OSError, *_PARSE_ERRORS):
            return None
        if entries is not None and rel_file is not None:
            return rel_file, [name, *entries]
        if not again:
            return None
        n = again[0]  # a re-export: `from .textcodecs import CODECS` in the package's __init__
        package = mod if rel_file and rel_file.endswith("__init__.py") else mod.rpartition(".")[0]
        base = package.split(".")[: len(package.split(".")) - (n.level - 1)] if n.level else []
        mod, name = ".".join(filter(None, [*base, n.module or ""])), next(a.name for a in n.names
                                                                           if (a.asname or a.name) == name)
    return None
