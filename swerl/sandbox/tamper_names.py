"""Names a file hands to a library to look up for it: format fields, field declarations, class patterns.

A library that reads attributes by name (`str.format`'s `{0.a.b}`, `dataclasses.replace` and `copy` by field or
slot, `match`'s class patterns by `__match_args__`) is a `getattr` whose names the file wrote somewhere other than
an attribute. The tamper scan judges the names it can read as it judges `obj.name` (rounds 58-59): literal format
fields, class-pattern keywords, `__match_args__`, a factory's field names, and the declared names of a class with
a forwarding `__getattr__` that the file never sets. Names computed at run time are findings where they are the
route (`__match_args__`, a factory's fields). A template built elsewhere and formatted is not: that walk to the
tests' data by plain attribute reads is an open class, detected by canary tasks (docs/sandbox.md, round 59).
"""

from __future__ import annotations

import _string  # type: ignore[import-not-found]  # the parser behind str.format's field names
import ast
import string
from collections.abc import Iterator


def _strings(node: ast.AST | None) -> list[str]:
    """The literal names in `__slots__ = ("a", "b")` / `"a"` / `["a"]`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _class_assign(cls: ast.ClassDef, name: str) -> ast.AST | None:
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            return stmt.value
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            return stmt.value
    return None


def literal_declarations(cls: ast.ClassDef, forwarding: bool) -> bool:
    """`__match_args__` (and, on a class with a forwarding `__getattr__`, `__slots__`), where the class sets them,
    are literal names: a computed one is a `getattr` by a computed name for a class pattern or `copy` (R59-7)."""
    for name in ("__slots__", "__match_args__") if forwarding else ("__match_args__",):
        value = _class_assign(cls, name)
        if value is not None and factory_names(value) is None:
            return False
    return True


def assigned_attributes(module: ast.Module) -> frozenset[str]:
    """Attribute names the file stores (`self.x = ...`, `setattr(o, "x", ...)`, `object.__setattr__(o, "x",
    ...)`): a declared field the class sets is its own storage, never a lookup `__getattr__` forwards."""
    out: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and (
                (isinstance(node.func, ast.Name) and node.func.id == "setattr")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__")):
            key = node.args[1] if isinstance(node.func, ast.Name) or len(node.args) == 3 else node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                out.add(key.value)
    return frozenset(out)


def factory_names(node: ast.AST) -> list[str] | None:
    """The names of a literal name list - `"a b"`, `("a", "b")`, `[("a", int), ...]` (a factory's `(name, type)`
    pairs), `{"a": ...}` - or None where any name is computed."""
    if isinstance(node, ast.Constant):
        return node.value.replace(",", " ").split() if isinstance(node.value, str) else None
    if isinstance(node, ast.Dict):
        keys = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in node.keys]
        return None if None in keys else keys  # type: ignore[return-value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        names = [e.value if isinstance(e, ast.Constant) else e.elts[0].value if isinstance(e, ast.Tuple) and e.elts
                 and isinstance(e.elts[0], ast.Constant) else None for e in node.elts]
        return None if any(not isinstance(x, str) for x in names) else names  # type: ignore[return-value]
    return None


def declared_names(cls: ast.ClassDef) -> tuple[list[str], list[str]]:
    """(field and slot names: the class's own attributes; `__match_args__` names: read from any matched object)."""
    fields = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    slots = [s for s in _strings(_class_assign(cls, "__slots__")) if s not in ("__dict__", "__weakref__")]
    return fields + slots, _strings(_class_assign(cls, "__match_args__"))


def template_steps(text: str) -> Iterator[str]:
    """The attribute names a `str.format` template walks (`"{0.a[k].b:{1.c}}"` -> a, b, c); none for text that is
    no valid template (it cannot be formatted either)."""
    try:
        parsed = list(string.Formatter().parse(text))
    except (ValueError, TypeError):
        return
    for _, field, spec, _ in parsed:
        if field:
            try:
                _, rest = _string.formatter_field_name_split(field)
                yield from (key for is_attr, key in rest if is_attr)
            except (ValueError, TypeError):
                pass
        if spec and "{" in spec:
            yield from template_steps(spec)


def bound_anywhere(module: ast.Module) -> frozenset[str]:
    """Every name any statement of the file binds, in any scope (comprehensions and walruses included)."""
    out: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar, ast.ExceptHandler)) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
    return frozenset(out)


def computed(node: ast.AST) -> bool:
    """Text built in place (`("{0." + x + "}")`, an f-string, `"".join(...)`), not a literal, a name, a lookup in
    a table of messages (`MESSAGES[code]`, `.get(code)`: R59-FP1) or a gettext call. Only the spelling in place:
    a template built elsewhere reaches the same fields (round 59), an open class the canaries detect."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr in ("join", "replace", "format", "lower",
                                                                           "upper", "strip", "decode", "__add__")
    if isinstance(node, ast.IfExp):
        return computed(node.body) or computed(node.orelse)
    return isinstance(node, (ast.BinOp, ast.JoinedStr, ast.BoolOp))


def dispatch_prefix(node: ast.AST) -> str | None:
    """The literal word a computed attribute name starts with (`f"visit_{kind}"`, `"do_" + cmd`): the classic
    dispatch by name (`ast.NodeVisitor`, `cmd.Cmd`). None for any other spelling."""
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node = node.left
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def module_constants(module: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound exactly once, to a literal string or a tuple of literal strings (`ORDER = ("last",
    "first")`): names a resolver may be handed by name (`operator.attrgetter(*ORDER)`, R65-FP-sortkey). A name
    bound anywhere else, in any scope or by any syntax, is no constant."""
    stores: dict[str, int] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                stores[name] = stores.get(name, 0) + 2
    out: dict[str, list[str]] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stores.get(stmt.targets[0].id) == 1 and (isinstance(stmt.value, ast.Tuple) or (
                    isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str))):
            names = _strings(stmt.value)
            if len(names) == len(getattr(stmt.value, "elts", [None])):
                out[stmt.targets[0].id] = names
    return out
