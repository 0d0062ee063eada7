"""The scan's rule for project tables a test loops over (`for name, (enc, dec) in CODECS.items(): assert ...`).

Such a test passes when the patch drops the entry the bug is in, or points it at other, working code: the loop
then never reaches the bug. A table is a module-level literal (`NAME = {...}`, `[...]`, `(...)`, `{a, b}`) or a
dict filled by module-level item assignments (`NAME["k"] = v`, `NAME.update({...})`); the tests' loops name it.
"""

from __future__ import annotations

import ast
import functools
import itertools
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from swerl.sandbox.tamper_context import named as _named

MAX_TEST_BYTES = 1 << 20
_SHRINKS = frozenset({"pop", "popitem", "remove", "clear", "discard", "__delitem__"})
PARSE_ERRORS = (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError)


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
    except PARSE_ERRORS:
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
    for name, literal in _inner_literals(body).items():
        tables.setdefault(name, literal)
    bound = set(edits)  # the names module-level code assigns
    for scope in [ast.Module(body=body, type_ignores=[]), *(n for n in ast.walk(ast.Module(body=body, type_ignores=[]))
                                                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        shrunk, refilled = _changes(scope, tables)
        for name in shrunk:  # a function that empties a table and fills it again (a reload) keeps it whole
            if (name in bound or name.lstrip("_").isupper()) and (isinstance(scope, ast.Module) or name not in refilled):
                edits[name] += shrunk[name]
    return tables, edits, made


_REFILLS = frozenset({"append", "add", "update", "setdefault", "extend", "insert", "__setitem__"})


def _inner_literals(body: list[ast.stmt]) -> dict[str, _Table]:
    """Tables a loop reads through a class or a function: a literal a top-level class body binds once
    (`Registry.CODECS`, by its attribute's name) and the one literal a top-level function returns (`codecs()`,
    by the function's name)."""
    out: dict[str, _Table] = {}
    for node in body:
        if isinstance(node, ast.ClassDef):
            counts = Counter(_named(t) for n in node.body if isinstance(n, ast.Assign) for t in n.targets)
            for n in node.body:
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and counts[_named(n.targets[0])] == 1:
                    literal = _literal_table(n.value)
                    if literal is not None and isinstance(n.targets[0], ast.Name):
                        out.setdefault(n.targets[0].id, literal)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returns = [r for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            literal = _literal_table(returns[0].value) if len(returns) == 1 else None
            if literal is not None:
                out.setdefault(node.name, literal)
    return out


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
    looped = {x for r in roots for x in _names(r)}
    fixtures = {f.name: f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                and any("fixture" in ast.unparse(d) for d in f.decorator_list)}
    for _ in range(3):  # a fixture returning the table; `registered = sorted(CODECS.items())`, then a loop over it
        looped |= {x for name in looped & set(fixtures) for r in ast.walk(fixtures[name])
                   if isinstance(r, (ast.Return, ast.Yield)) and r.value is not None for x in _names(r.value)}
        more = {x for n in ast.walk(tree) if isinstance(n, ast.Assign) and any(_named(t) in looped for t in n.targets)
                for x in _names(n.value)} - looped
        if not more:
            break
        looped |= more
    return looped


def tests_read(tree: Path, tests: Sequence[str]) -> frozenset[str]:
    """The names the test files loop over: the project tables whose entries a test's loop decides which code runs."""
    names: set[str] = set()
    for rel in tests:
        p = tree / rel
        try:
            if p.is_symlink() or not p.is_file() or not rel.endswith(".py") or p.stat().st_size > MAX_TEST_BYTES:
                continue
            names |= _facts(p.read_bytes(), rel)[0]
        except (OSError, *PARSE_ERRORS):
            continue
    return frozenset(names)


@functools.lru_cache(maxsize=512)
def _facts(data: bytes, rel: str) -> tuple[frozenset[str], frozenset[str], dict[str, tuple[str, str]],
                                           dict[str, list[str]]]:
    """(names it loops over, names it mutates, its imports: `_imported`) of a test file's source, read once per
    content: every grade of a task asks the same files again. Callers copy what they change."""
    parsed = ast.parse(data)
    names, modules = _imported(parsed, rel)
    return frozenset(_looped(parsed)), frozenset(_mutated_by_tests(parsed)), names, modules


# -- the tables as they must be when a test runs (the witness checks them; `swerl_witness._tables_held`) ------------
_ITERATORS = frozenset({"sorted", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "reversed", "len",
                        "iter", "map", "filter", "any", "all", "sum", "min", "max", "parametrize", "items", "keys",
                        "values"})


_MUTATORS = ("del", "set", "pop", "clear", "update", "patch", "remove", "discard", "append", "extend", "insert",
             "register", "reset", "restore", "replace", "swap", "add")


def _mutated_by_tests(tree: ast.AST) -> set[str]:
    """Names a test file changes or hands to a helper that may (`monkeypatch.delitem(CODECS, k)`, `patch.dict(...)`,
    `CODECS.pop(k)`, `del CODECS[k]`): a table the tests edit themselves is theirs to edit. A name only read
    (`isinstance(CODECS, dict)`, `repr(CODECS)`) is not."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            func = _named(n.func).lower()
            owner = _named(n.func.value) if isinstance(n.func, ast.Attribute) else ""
            words = [w for w in re.split(r"[_\W]+", func) if w]  # `set(CODECS)` reads; `setitem`, `reset_x` write
            if (func not in _ITERATORS and any(w.startswith(m) or w.endswith(m) for w in words for m in _MUTATORS)) \
                    or owner in ("monkeypatch", "mocker", "mock", "patch"):
                out |= {_named(a) for a in [*n.args, *(k.value for k in n.keywords)] if _named(a)}
            if isinstance(n.func, ast.Attribute) and (n.func.attr in _SHRINKS or n.func.attr in _REFILLS):
                out.add(_named(n.func.value))
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(_named(n.value))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.add(n.value.rsplit(".", 1)[-1])  # `patch.dict("pkg.mod.CODECS", ...)`
    return out


def _from_module(package: str, node: ast.ImportFrom) -> str:
    """The module a `from ... import` names, its relative levels resolved from `package`."""
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
    return ".".join(filter(None, [*base, node.module or ""]))


def _imported(tree: ast.AST, rel: str) -> tuple[dict[str, tuple[str, str]], dict[str, list[str]]]:
    """A test file's `from M import NAME [as L]` (L -> (M, NAME)) and `import M [as L]` (L -> [M]; `import a.b.c`
    binds `a`, through which `a.b.c.NAME` is read: a -> [a, a.b, a.b.c]), relative imports resolved from the file's
    own package."""
    names: dict[str, tuple[str, str]] = {}
    modules: dict[str, list[str]] = {}
    package = rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ""
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom):
            mod = _from_module(package, n)
            for a in n.names:
                names[a.asname or a.name] = (mod, a.name)
        elif isinstance(n, ast.Import):
            for a in n.names:
                parts = a.name.split(".")
                found = [a.name] if a.asname else [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
                modules.setdefault(a.asname or parts[0], [])
                modules[a.asname or parts[0]] += [m for m in found if m not in modules[a.asname or parts[0]]]
    return names, modules


def _module_file(root: Path, mod: str) -> str | None:
    for prefix in ("", "src/", "lib/"):
        for rel in (f"{prefix}{mod.replace('.', '/')}.py", f"{prefix}{mod.replace('.', '/')}/__init__.py"):
            p = root / rel
            if mod and p.is_file() and not p.is_symlink() and p.stat().st_size <= MAX_TEST_BYTES:
                return rel
    return None


def _class_body(source: bytes | None, cls: str) -> list[ast.stmt] | None:
    """The body of the module-level class `cls`, or None."""
    try:
        body = ast.parse(source).body if source is not None else []
    except PARSE_ERRORS:
        return None
    return next((n.body for n in body if isinstance(n, ast.ClassDef) and n.name == cls), None)


def _class_held(source: bytes, name: str, patched: bytes | None) -> list[Any] | None:
    """`_held_entries` of `Class.NAME`, a literal its class body binds once (`Registry.CODECS`), which no code of its
    module removes from or refills."""
    cls, _, attr = name.partition(".")
    body, now = _class_body(source, cls), _class_body(patched, cls) if patched is not None else None
    literal = _inner_literals([n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == cls])
    if body is None or attr not in literal:
        return None
    scopes = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef))]
    if any(attr in shrunk or attr in refilled for shrunk, refilled in (_changes(sc, literal) for sc in scopes)):
        return None
    table = literal[attr]
    if now is not None and (again := _inner_literals([ast.ClassDef(name=cls, bases=[], keywords=[], body=now,
                                                                     decorator_list=[])]).get(attr)):
        table, body = (again, now) if again.kind == table.kind else (table, body)
    constants, plain = _constants(ast.parse(patched or source).body), _plain_values(body, attr)
    keys = []
    for key, names in table.entries.items():
        key = constants.get(key, key)
        try:
            ast.literal_eval(key)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        word = _word(key)
        keys.append([key, word if len(word) > 2 and any(word in _word(n) for n in names) else "",
                     sorted(names) if key in plain else []])
    elements = _seq_names(body, attr) if table.kind == "seq" else []
    return [table.kind, keys, elements] if keys or elements else None


def _held_entries(source: bytes, name: str, patched: bytes | None = None) -> list[Any] | None:
    """[kind, [[key source, the word its value's code is named after or "", the names its value holds]], [names of
    the elements]] of a module-level literal table no code of its pristine module writes to; None for any other
    name. The entries are the patched literal's (`patched`): what the source says the loop reaches, down to which
    function object each entry holds; the static rule has compared that literal with the project's."""
    if "." in name:
        return _class_held(source, name, patched)
    tables, edits, _ = _tables(source)
    table = tables.get(name)
    if table is None or edits[name] != 1:
        return None
    nodes = list(ast.walk(ast.parse(source)))
    scopes = [n for n in nodes if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef))]
    changes = [_changes(s, tables) for s in scopes]
    if any(name in shrunk for shrunk, _ in changes):
        return None  # the module removes from its own table: the scan's rule covers it
    # a `register()`: entries may be added, and the keys the pristine module names again (its own `register("x",
    # ...)`) replaced; any other key's entry must still name its literal's code, however a patch reaches it
    filled = any(name in refilled for _, refilled in changes)
    strings = Counter(repr(c.value) for c in nodes if isinstance(c, ast.Constant) and isinstance(c.value, str))
    ordered_by_project = any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr in (
        "sort", "reverse") and _named(c.func.value) == name for c in nodes)  # the pristine module's own sort
    now = _tables(patched)[0].get(name) if patched is not None else None
    if now is not None and now.kind == table.kind:
        table, source = now, patched or source
    body = ast.parse(source).body
    constants, plain = _constants(body), _plain_values(body, name)
    keys = []
    for key, names in table.entries.items():
        held = sorted(names) if key in plain else []  # a bare name or a tuple of them: module globals
        key = constants.get(key, key)  # `{CAESAR: ...}` with `CAESAR = "caesar"` at module level
        try:
            ast.literal_eval(key)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        word = _word(key)
        relaxed = filled and strings[key] > 1
        keys.append([key, "", []] if relaxed else [key, word if len(word) > 2 and any(word in _word(n) for n in names)
                                                   else "", held, *([True] if filled else [])])  # see `_relax_registered`
    elements = _seq_names(body, name) if table.kind == "seq" else []
    kind = "bag" if table.kind == "seq" and ordered_by_project else table.kind  # the project orders it itself
    return [kind, keys, elements] if keys or elements else None


def _plain_values(body: list[ast.stmt], name: str) -> set[str]:
    """The keys (as written) of the module-level dict literal `name` whose value is a plain name or a tuple/list of
    plain names: the entry must then hold those very objects."""
    for node in body:
        if isinstance(node, ast.Assign) and any(_named(t) == name for t in node.targets) and isinstance(
                node.value, ast.Dict):
            return {ast.unparse(k) for k, v in zip(node.value.keys, node.value.values, strict=False) if k is not None
                    and (isinstance(v, ast.Name) or (isinstance(v, (ast.Tuple, ast.List))
                                                     and all(isinstance(e, ast.Name) for e in v.elts)))}
    return set()


def _constants(body: list[ast.stmt]) -> dict[str, str]:
    """Module-level names bound once to a str or int literal -> that literal's source."""
    seen: Counter[str] = Counter()
    out: dict[str, str] = {}
    for node in body:
        for t in node.targets if isinstance(node, ast.Assign) else []:
            pairs = list(zip(t.elts, node.value.elts, strict=False)) if isinstance(t, ast.Tuple) and isinstance(
                node.value, ast.Tuple) and len(t.elts) == len(node.value.elts) else [(t, node.value)]
            for target, value in pairs:  # `REV, CAESAR = "rev", "caesar"` too
                if isinstance(target, ast.Name):
                    seen[target.id] += 1
                    if isinstance(value, ast.Constant) and type(value.value) in (str, int):
                        out[target.id] = ast.unparse(value)
    return {k: v for k, v in out.items() if seen[k] == 1}


def _seq_names(body: list[ast.stmt], name: str) -> list[str]:
    """The plain names a module-level list/tuple/set literal `name` holds, in order (`[Rev, Caesar]`)."""
    for node in body:
        if isinstance(node, ast.Assign) and any(_named(t) == name for t in node.targets) and isinstance(
                node.value, (ast.List, ast.Tuple, ast.Set)):
            return [e.id for e in node.value.elts if isinstance(e, ast.Name)]
    return []


def _made_entries(source: bytes, name: str, made: frozenset[str]) -> list[Any] | None:
    """["made", [], names] of a table built at module level from one literal list of this module by a
    comprehension with no `if` (`{c.name: c() for c in _ALL}`): it holds an entry for every one of them."""
    body = ast.parse(source).body
    for node in body:
        if isinstance(node, ast.Assign) and any(_named(t) == name for t in node.targets) and any(
                g.ifs for g in ast.walk(node.value) if isinstance(g, ast.comprehension)):
            return None
    sources = [m for m in made if _held_entries(source, m) is not None and _seq_names(body, m)]
    return ["made", [], _seq_names(body, sources[0])] if len(sources) == 1 else None


def _py_files(root: Path) -> Iterator[str]:
    """The `.py` files under `root` (relative paths), hidden directories, `node_modules` and `__pycache__` left out."""
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
        yield from (os.path.relpath(os.path.join(top, f), root) for f in files if f.endswith(".py"))


def _test_files(tree: Path, cap: int = 20_000) -> list[str]:
    """The tree's other test modules and conftests (a patch cannot add one: the tree policy drops new test files)."""
    out: list[str] = []
    for rel in itertools.islice(_py_files(tree), 10 * cap):
        f = rel.rsplit("/", 1)[-1]
        if f.startswith("test") or f.endswith("_test.py") or f == "conftest.py":
            out.append(rel)
            if len(out) > cap:
                break
    return out


def held_tables(pristine: Path, tree: Path, tests: Sequence[str], depth: int = 3) -> dict[str, list[list[Any]]]:
    """rel -> [[name, kind, keys, elements]] of each project table a test file imports and loops over, as its
    module's literal defines it (followed through up to `depth` re-exports). The witness checks before and after
    every test, and at every assert, that the table still holds those entries, in that order, each still the code
    its key names: whatever the patch used to drop, repoint or reorder one (an alias, `getattr(T, "pop")`, a
    function called at import or from the loop), what the test loops over is what the source says. Tables that the
    module, another module of the project or the tests write to are left out."""
    out: dict[str, list[list[Any]]] = {}
    for mod, name in sorted(_wanted(pristine, tree, tests)):
        found = _defined(pristine, mod, name, depth, tree)
        if found is not None and all(t[0] != found[1][0] for t in out.get(found[0], [])):
            out.setdefault(found[0], []).append(found[1])
    written = _written_elsewhere(pristine, {(rel, row[0]) for rel, rows in out.items() for row in rows}, tests)
    kept = {rel: k for rel, rows in out.items() if (k := [r for r in rows if (rel, r[0]) not in written])}
    _relax_registered(pristine, kept, tests)
    return kept


def _project_sources(pristine: Path, skip: set[str], budget: int) -> Iterator[bytes | None]:
    """The pristine project's module sources outside `skip`; None, and no more, once `budget` bytes are read (the
    caller then assumes the worst of the rest)."""
    for rel in _py_files(pristine):
        if rel in skip:
            continue
        try:
            data = (pristine / rel).read_bytes()
        except OSError:
            continue
        budget -= len(data)
        if budget < 0:
            yield None
            return
        yield data


def _relax_registered(pristine: Path, rows: dict[str, list[list[Any]]], tests: Sequence[str],
                      budget: int = 64 << 20) -> None:
    """A key of a held dict its module refills (a `register()`) that another module of the pristine project names as
    a string (a speedups module's `register("caesar", fast_caesar)`) is held by presence only: where it points is
    the project's choice."""
    keys = {k[0] for rs in rows.values() for r in rs if r[1] == "dict" for k in r[2] if len(k) > 3}
    found: set[str] = set()
    for data in _project_sources(pristine, {*rows, *tests, *_test_files(pristine)}, budget) if keys else ():
        if data is None:
            found = keys
            break
        found |= {k for k in keys - found if k.encode() in data or k.replace("'", '"').encode() in data}
    for rs in rows.values():
        for r in rs:
            if r[1] == "dict":  # the marker of a refilled table's key goes: the witness reads (key, word, names)
                r[2] = [[k[0], "", []] if len(k) > 3 and k[0] in found else k[:3] for k in r[2]]


def _wanted(pristine: Path, tree: Path, tests: Sequence[str]) -> set[tuple[str, str]]:
    """(module, name) of every table a test file imports and loops over and no test file edits."""
    wanted: set[tuple[str, str]] = set()
    mutated: set[str] = set()  # by any test file: a test of one file may edit what another's loop reads
    others = [r for r in _test_files(tree) if r not in set(tests)]
    for rel in [*tests, *others]:
        p = tree / rel
        try:
            if p.is_symlink() or not p.is_file() or not rel.endswith(".py") or p.stat().st_size > MAX_TEST_BYTES:
                continue
            every, edits, names, held = _facts(p.read_bytes(), rel)
        except (OSError, *PARSE_ERRORS):
            continue
        looped = every if rel in tests else frozenset()
        mutated |= edits
        modules = {k: list(v) for k, v in held.items()}
        for local, (mod, attr) in list(names.items()):  # `from pkg import codecs`: a module, not a name in one
            if _module_file(pristine, f"{mod}.{attr}" if mod else attr):
                modules[local] = [f"{mod}.{attr}" if mod else attr]
        wanted |= {names[n] for n in looped if n in names and n not in modules}
        wanted |= {(names[n][0], f"{names[n][1]}.{a}") for n in looped if n in names and n not in modules
                   for a in looped if a != n and a not in _ITERATORS and a[:1].isupper()}  # `Registry.CODECS`
        wanted |= {(mod, n) for m in looped if m in modules for mod in modules[m] for n in looped if n not in modules}
    return {(m, n) for m, n in wanted if n not in mutated}


_WRITE = r"(?:\[[^\]\n]*\]\s*=[^=]|\.(?:pop|popitem|update|clear|setdefault|remove|discard|append|extend|insert|sort|" \
         r"reverse|__setitem__|__delitem__)\s*\()"


def _written_elsewhere(pristine: Path, tables: set[tuple[str, str]], tests: Sequence[str],
                       budget: int = 64 << 20) -> set[tuple[str, str]]:
    """The tables another module of the pristine project writes to (a speedups module that points an entry at its
    own code at import): that is the project's own doing, not the patch's. Past `budget` bytes every table counts
    as written (the scan's rule still applies)."""
    if not tables:
        return set()
    names = sorted({n for _, n in tables})
    pattern = re.compile(("(?:\\b(?:" + "|".join(map(re.escape, names)) + ")" + _WRITE + "|del\\s+[\\w.]*\\b(?:"
                          + "|".join(map(re.escape, names)) + ")\\[)").encode())
    found: set[tuple[str, str]] = set()
    for data in _project_sources(pristine, {*tests, *(rel for rel, _ in tables)}, budget):
        if data is None:
            return set(tables)
        for m in pattern.finditer(data):
            found |= {t for t in tables if re.search(rb"\b" + re.escape(t[1].encode()) + rb"\b", m.group(0))}
    return found


def _defined(pristine: Path, mod: str, name: str, depth: int, tree: Path | None = None) -> tuple[str, list[Any]] | None:
    """(file, [name, *entries]) of the table `mod.name` is, through up to `depth` re-exports (`from .impl import
    CODECS`, `from .impl import *`)."""
    for _ in range(depth):
        rel_file = _module_file(pristine, mod)
        try:
            source = (pristine / rel_file).read_bytes() if rel_file else None
            if source is None:
                return None
            patched = (tree / rel_file).read_bytes() if tree is not None and (tree / rel_file).is_file() else None
            entries = _held_entries(source, name, patched)
            if entries is None:
                _, _, made = _tables(source)
                entries = _made_entries(source, name, made.get(name, frozenset())) if name in made else None
            if entries is not None:
                return rel_file, [name, *entries]
            again = [n for n in ast.parse(source).body if isinstance(n, ast.ImportFrom)
                     and any((a.asname or a.name) in (name, "*") for a in n.names)]
        except (OSError, *PARSE_ERRORS):
            return None
        if not again:
            return None
        n = next((x for x in again if any((a.asname or a.name) == name for a in x.names)), again[0])
        package = mod if rel_file and rel_file.endswith("__init__.py") else mod.rpartition(".")[0]
        mod, name = _from_module(package, n), next((a.name for a in n.names if (a.asname or a.name) == name), name)
    return None
