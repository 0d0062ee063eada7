"""Names a file hands to a library to look up for it: format fields, field declarations, class patterns.

A library that reads attributes by name (`str.format`'s `{0.a.b}`, `dataclasses.replace` and `copy` by field or
slot, `match`'s class patterns by `__match_args__`) is a `getattr` whose names the file wrote somewhere other than
an attribute. The tamper scan judges those names as it judges `obj.name` (round 58), and a `.format` of a template
the file builds at run time is a finding, whatever it would have named.
"""

from __future__ import annotations

import _string  # type: ignore[import-not-found]  # the parser behind str.format's field names
import ast
import string
from collections.abc import Iterator

_FIELD_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "s", "attrs", "attributes"})
_FIELD_BASES = frozenset({"NamedTuple", "TypedDict"})
GETTEXT = frozenset({"_", "gettext", "ngettext", "pgettext", "gettext_lazy", "ugettext", "lazy_gettext"})


def _last(node: ast.AST) -> str | None:
    node = node.func if isinstance(node, ast.Call) else node
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


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


def declares_fields(cls: ast.ClassDef) -> bool:
    """A dataclass/attrs/NamedTuple class, or one with class-level annotations, `__slots__` or `__match_args__`:
    a library asks its instances for every name it declares."""
    return (any(_last(d) in _FIELD_DECORATORS for d in cls.decorator_list)
            or any(_last(b) in _FIELD_BASES for b in cls.bases)
            or any(isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) for s in cls.body)
            or bool(_strings(_class_assign(cls, "__slots__"))) or bool(_strings(_class_assign(cls, "__match_args__"))))


def declared_names(cls: ast.ClassDef) -> tuple[list[str], list[str]]:
    """(field and slot names: the class's own attributes; `__match_args__` names: read from any matched object)."""
    fields = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    return fields + _strings(_class_assign(cls, "__slots__")), _strings(_class_assign(cls, "__match_args__"))


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
    literal, other = _bindings(module)
    return frozenset(literal | other)


def _bindings(module: ast.Module) -> tuple[set[str], set[str]]:
    literal: set[str] = set()
    other: set[str] = set()
    skip: set[int] = set()
    for node in ast.walk(module):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and isinstance(node.value, ast.Constant):
                literal.add(targets[0].id)
                skip.add(id(targets[0]))
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in skip:
            other.add(node.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            other.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            other.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            other.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            other.add(node.rest)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            other.add(node.name)
    return literal, other


def computed(node: ast.AST) -> bool:
    """Text built at run time (`"{0." + x + "}"`, an f-string, `"".join(...)`, a subscript), not a literal, a
    plain name or a gettext call."""
    if isinstance(node, ast.Call):
        return not (isinstance(node.func, ast.Name) and node.func.id in GETTEXT)
    if isinstance(node, ast.IfExp):
        return computed(node.body) or computed(node.orelse)
    return isinstance(node, (ast.BinOp, ast.JoinedStr, ast.Subscript, ast.BoolOp))


def computed_bindings(module: ast.Module) -> frozenset[str]:
    """Names some statement of the file binds to text built at run time (`tpl = "{0" + "._x}"`, `tpl += ...`,
    `(tpl := ...)`): a `.format` on such a name formats a computed template (R58-2)."""
    def names(target: ast.AST) -> list[str]:  # `a`, `a, (b, *c)`; never the `self` of `self.x = ...`
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, ast.Starred):
            return names(target.value)
        return [n for e in target.elts for n in names(e)] if isinstance(target, (ast.Tuple, ast.List)) else []

    out: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and computed(node.value):
            out.update(n for tgt in node.targets for n in names(tgt))
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None and computed(node.value):
            out.update(names(node.target))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return frozenset(out)
