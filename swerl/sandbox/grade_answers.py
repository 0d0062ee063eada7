"""Which `__len__`/`__bool__` answers the witness compares with the project's own (host side of `grade`).

A one-line lie in a `__len__` (`return sum(1 for _, n in self.items if n > LIMIT)`), or in a helper it calls, or
over a count its class caches, makes `len(report) == 0` pass while the report yields a problem. The witness tells
it from a fix by asking the project's own methods the same question (`swerl_witness._as_original`). It asks only
where the class's length or truth is meant to agree with its items: the project's `__len__` (through the methods
it calls and the attributes and constructor arguments those were computed from) reads what `__iter__` reads. A
table whose length counts rows while it yields columns is not asked. Decided on the project's class alone: a fix
that changes what a class's truth means (a response whose buggy truth was "has a body" and whose fixed truth is
"status < 400") is refused where the buggy answer agreed with the items; letting the patched code decide whether
it is asked would let a lie choose to read other state.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

ANSWERS = ("__len__", "__bool__")


@dataclass
class _Class:
    methods: dict[str, ast.FunctionDef] = field(default_factory=dict)  # plain methods and properties by name
    sources: dict[str, str] = field(default_factory=dict)
    deps: dict[str, set[str]] = field(default_factory=dict)  # self attribute -> the self attributes it was made of


def _self_attrs(fn: ast.FunctionDef, node: ast.AST) -> set[str]:
    me = fn.args.args[0].arg if fn.args.args else "self"
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == me}


MODULE = "<module>"  # the pseudo-class of a module's plain functions (`_count(items)` that a `__len__` returns)


def _classes(text: str, deps: bool = True) -> dict[str, _Class]:
    out: dict[str, _Class] = {MODULE: _Class()}
    # split once, where Python's parser ends a line (not `str.splitlines`, which also splits on \x1c, \x85, ...):
    # `ast.get_source_segment` re-splits the whole file at every call
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    todo: list[tuple[str, list[ast.stmt]]] = [("", ast.parse(text).body)]
    while todo:
        prefix, body = todo.pop()
        for node in body:
            if not prefix and isinstance(node, ast.FunctionDef) and not node.decorator_list:
                out[MODULE].methods[node.name] = node
                out[MODULE].sources[node.name] = "\n".join(lines[node.lineno - 1:node.end_lineno or node.lineno])
            if not isinstance(node, ast.ClassDef):
                continue
            cls = out.setdefault(prefix + node.name, _Class())
            todo.append((f"{prefix}{node.name}.", node.body))
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and (not fn.decorator_list or (len(fn.decorator_list) == 1 and (
                        getattr(fn.decorator_list[0], "id", None) or getattr(fn.decorator_list[0], "attr", None))
                        in ("property", "cached_property", *(() if fn.name.startswith("__") else (
                            "staticmethod", "classmethod"))))):  # a helper an `__eq__` calls (R76b-1)
                    cls.methods[fn.name] = fn
                    cls.sources[fn.name] = "\n".join(lines[fn.lineno - 1:fn.end_lineno or fn.lineno])
                    if deps:  # what attributes are made of: asked of the project's classes only
                        _assignments(cls, fn)
    return out


def _assignments(cls: _Class, fn: ast.FunctionDef) -> None:
    """What each `self.X = ...` of `fn` was made of: self attributes, and `fn`'s own parameters as `arg:NAME` (a
    count cached from the constructor's `items` belongs with the `self.items` made of the same argument)."""
    params = {a.arg for a in [*fn.args.args[1:], *fn.args.kwonlyargs]}
    def made_of(value: ast.AST) -> set[str]:
        return _self_attrs(fn, value) | {f"arg:{n.id}" for n in ast.walk(value) if isinstance(n, ast.Name)
                                         and n.id in params}

    for a in ast.walk(fn):
        if isinstance(a, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and a.value is not None:
            whole = made_of(a.value)  # once per statement: `self.a = self.b = ... = value` has many targets
            for t in a.targets if isinstance(a, ast.Assign) else [a.target]:
                pairs = list(zip(t.elts, a.value.elts, strict=True)) if isinstance(t, ast.Tuple) and isinstance(
                    a.value, ast.Tuple) and len(t.elts) == len(a.value.elts) else [(t, a.value)]
                for target, value in pairs:  # `self.rows, self.columns = rows, columns`: each from its own
                    for name in _self_attrs(fn, target):
                        cls.deps.setdefault(name, set()).update(whole if value is a.value else made_of(value))


def _reach(cls: _Class, name: str) -> set[str]:
    """`name` and the methods of the class it calls on self, transitively."""
    seen, todo = set(), [name]
    while todo:
        m = todo.pop()
        if m in seen or m not in cls.methods:
            continue
        seen.add(m)
        todo += list(_self_attrs(cls.methods[m], cls.methods[m]) & set(cls.methods))
    return seen


def _helpers(cls: _Class, module: _Class, methods: set[str]) -> set[str]:
    """The module's plain functions `methods` call by name, and those they call, transitively."""
    calls = [cls.methods[m] for m in methods]
    seen: set[str] = set()
    while calls:
        for n in ast.walk(calls.pop()):
            name = n.func.id if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) else None
            if name in module.methods and name not in seen:
                seen.add(name)
                calls.append(module.methods[name])
    return seen


def _state(cls: _Class, methods: set[str]) -> set[str]:
    """The attributes `methods` read, with what each was computed from in the class's assignments."""
    found = {a for m in methods for a in _self_attrs(cls.methods[m], cls.methods[m])} - set(cls.methods)
    todo = list(found)
    while todo:
        for d in cls.deps.get(todo.pop(), ()):
            if d not in found and d not in cls.methods:
                found.add(d)
                todo.append(d)
    return found


def answering_functions(old: bytes, new: bytes) -> list[list[str]]:
    """[qualname, the project's source] of every method the witness needs to ask a class's `__len__`/`__bool__` as
    the project wrote it: where the patch edited that method or one it calls, and the project's reads what
    `__iter__` reads; and its `__eq__`, where the patch's edits there serve equality alone (`_equality_only`).
    Decided on the project's class alone: what the patched one reads is the patch's choice."""
    try:
        before, after = _classes(old.decode("utf-8")), _classes(new.decode("utf-8"), deps=False)
    except (UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: dict[str, str] = {}
    module, module_now = before[MODULE], after[MODULE]
    for q, cls in before.items():
        now = after.get(q)
        items = "__iter__" if "__iter__" in cls.methods else "__getitem__"  # a `Sequence` iterates by index
        if now is None:
            continue
        for name in (*ANSWERS, "__eq__"):
            reach = _reach(cls, name)
            helpers = _helpers(cls, module, reach) if reach else set()
            if not reach or (all(cls.sources[m] == now.sources.get(m) for m in reach)
                             and all(module.sources[f] == module_now.sources.get(f) for f in helpers)):
                continue
            if (name == "__eq__" and _equality_only(cls, module, reach, helpers, now, module_now)) or (
                    items in cls.methods and items in now.methods
                    and _state(cls, reach) & _state(cls, _reach(cls, items))):
                out.update({f"{q}.{m}": textwrap.dedent(cls.sources[m]) for m in sorted(reach)})
                out.update({f"{MODULE}.{f}": module.sources[f] for f in sorted(helpers)})
    return [[q, src] for q, src in out.items()]


_EQUALITY = frozenset({"__eq__", "__ne__", "__hash__"})


def _equality_only(cls: _Class, module: _Class, reach: set[str], helpers: set[str], now: _Class,
                   module_now: _Class) -> bool:
    """The patch's edits in what the class's `__eq__` runs serve equality alone: `__eq__` itself, or a private
    method or module function that, in the project's code, only the equality methods (and what they call) call.
    A fix to a method the class computes with (round 76b's fp8: `kelvin()`, public, behind a unit-aware `__eq__`)
    changes equality as a side effect and is no widening to refuse; `_key()` (R76-19) exists for equality."""
    edited = {m for m in reach if cls.sources[m] != now.sources.get(m)}
    edited_helpers = {f for f in helpers if module.sources[f] != module_now.sources.get(f)}
    if "__eq__" in edited:
        return True
    own = reach | _EQUALITY
    for m in edited:
        callers = {k for k, fn in cls.methods.items() if m in _self_attrs(fn, fn)} - {m}
        if not m.startswith("_") or m.startswith("__") or not callers <= own:
            return False
    for f in edited_helpers:
        callers = {k for k, fn in cls.methods.items() if any(isinstance(n, ast.Name) and n.id == f for n in ast.walk(
            fn))} | {k for k, fn in module.methods.items() if k != f and any(
                isinstance(n, ast.Name) and n.id == f for n in ast.walk(fn))}
        if not f.startswith("_") or not callers <= own | helpers:
            return False
    return bool(edited or edited_helpers)


def _definitions(tree: ast.AST, prefix: str = "") -> dict[str, tuple[int, int]]:
    """qualname -> (first line with its decorators, last line) of every class and function, nested ones too."""
    out: dict[str, tuple[int, int]] = {}
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            q = f"{prefix}{node.name}"
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.setdefault(q, (first, node.end_lineno or node.lineno))
            out.update({k: v for k, v in _definitions(node, q + ".").items() if k not in out})
        elif not isinstance(node, ast.expr):  # definitions under `if`/`try`/`with` at the same level
            out.update({k: v for k, v in _definitions(node, prefix).items() if k not in out})
    return out


def new_definitions(old: bytes, new: bytes, written: Sequence[Sequence[int]] = ()) -> list[list[int]]:
    """Line spans (1-based, inclusive) the patch wrote whole, whatever lines a text diff aligned inside them (a blank
    line, a comment or a `pass` matched to the original's would make new code look like a line fixed): the patched
    file's classes and functions the pristine file has no definition of by that qualified name, and its lambdas
    that hold one of the `written` lines (a lambda is one expression: one the patch touched is one it wrote). The
    patched file is parsed once for both."""
    try:
        before, tree = _definitions(ast.parse(old)), ast.parse(new)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    after = _definitions(tree)
    spans = [[a, b] for q, (a, b) in sorted(after.items(), key=lambda kv: kv[1]) if q not in before]
    lambdas = [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree) if isinstance(n, ast.Lambda)] \
        if written else []
    return spans + [[a, b] for a, b in lambdas if b > a and any(x <= b and a <= y for x, y in written)]
