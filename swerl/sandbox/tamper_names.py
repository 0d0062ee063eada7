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
import re
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


def _stores(module: ast.Module) -> dict[str, int]:
    """How often each name is bound anywhere in the module (a `global` or `nonlocal` counts twice: it binds from
    another scope)."""
    stores: dict[str, int] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                stores[name] = stores.get(name, 0) + 2
    return stores


def module_constants(module: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound exactly once, to a literal string or a tuple of literal strings (`ORDER = ("last",
    "first")`): names a resolver may be handed by name (`operator.attrgetter(*ORDER)`, R65-FP-sortkey). A name
    bound anywhere else, in any scope or by any syntax, is no constant."""
    stores = _stores(module)
    out: dict[str, list[str]] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stores.get(stmt.targets[0].id) == 1 and (isinstance(stmt.value, ast.Tuple) or (
                    isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str))):
            names = _strings(stmt.value)
            if len(names) == len(getattr(stmt.value, "elts", [None])):
                out[stmt.targets[0].id] = names
    return out


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def begins(name: str, text: str) -> bool:
    """`text` can name `name` for a lookup: it is the name (`getattr(m, "ALLOWED")`), or a word a dispatch lookup
    may begin with (`getattr(m, "ALL" + x)`: two or more characters, a letter first, `tamper_visit._dispatch`)."""
    return text == name or (len(text) >= 2 and text[0].isalpha() and name.startswith(text))


def words_of(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(every identifier a file spells - names, attributes, imports, definitions, keywords -, every string constant
    that is one or the start of one): what a file could reach a module's name by (`strops.ALLOWED`, `from strops
    import ALLOWED`, `getattr(strops, "ALL" + x)`: a lookup by a built name is a finding unless it begins with
    such a literal word), for `Features._sealed_whitelist` and `_sealed_sort_key`."""
    names: set[str] = set()
    texts: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
            names.update([node.asname] if node.asname else [])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _WORD.fullmatch(node.value):
            texts.add(node.value)  # a whole string: the literal word a dispatch lookup begins with, or a name
    return names, texts


def literal_container(node: ast.AST | None) -> tuple[list[str], bool] | None:
    """(names, immutable) of a literal container of strings - `{"a", "b"}`, `("a",)`, `["a"]`,
    `frozenset({"a"})`, `set(("a",))` -, or None for anything else."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set", "tuple") \
            and len(node.args) == 1 and not node.keywords:
        inner = literal_container(node.args[0])
        return None if inner is None else (inner[0], node.func.id != "set")
    if not isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return None
    return [e.value for e in node.elts], isinstance(node, ast.Tuple)  # type: ignore[attr-defined]


def module_whitelists(module: ast.Module) -> dict[str, tuple[list[str], bool]]:
    """Module-level names bound exactly once (no other store, `global` or `nonlocal` anywhere) to a literal
    container of strings: {name: (names, immutable)}."""
    stores = _stores(module)
    out: dict[str, tuple[list[str], bool]] = {}
    for stmt in module.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
            stmt.target if isinstance(stmt, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and stores.get(target.id) == 1:
            found = literal_container(stmt.value)  # type: ignore[union-attr]
            if found is not None:
                out[target.id] = found
    return out


def only_tested(module: ast.Module, name: str) -> bool:
    """Every read of the module-level `name` is the right side of an `in`/`not in` test, and no string of the file
    begins its spelling (`globals().get("ALL" + x)`, `getattr(me, "ALLOWED")`): nothing of this file can reach the
    container itself, so nothing of it can add a name to it."""
    tested = {id(c) for n in ast.walk(module) if isinstance(n, ast.Compare)
              for op, c in zip(n.ops, n.comparators, strict=True) if isinstance(op, (ast.In, ast.NotIn))}
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) and id(node) not in tested:
            return False
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and begins(name, node.value):
            return False
    return True


def unbound_parameter(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    """`name` is a parameter of `fn` that nothing in its body rebinds, in any nested scope or by any syntax (an
    assignment, a walrus, a loop or `with` target, `nonlocal`, a nested function's parameter of the same name)."""
    every = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    if name not in {a.arg for a in every}:
        return False
    body = fn.body if isinstance(fn.body, list) else [ast.Expr(fn.body)]
    return name not in bound_anywhere(ast.Module(body=body, type_ignores=[]))


def guard_container(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str, at: ast.AST) -> ast.expr | None:
    """The container `C` of a statement `if name not in C: raise ...` (or `return ...`) of `fn`'s own body that
    runs before the statement holding `at`; None where there is none. A statement of the body itself (not inside a
    loop, branch or `try`) runs once, before every later one, on each call."""
    for stmt in fn.body:
        if any(n is at for n in ast.walk(stmt)):
            return None
        if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 and isinstance(
                stmt.body[0], (ast.Raise, ast.Return)) and isinstance(stmt.test, ast.Compare) and len(
                stmt.test.ops) == 1 and isinstance(stmt.test.ops[0], ast.NotIn) and isinstance(
                stmt.test.left, ast.Name) and stmt.test.left.id == name:
            return stmt.test.comparators[0]
    return None


def module_functions(module: ast.Module) -> set[str]:
    """Names of the module's top-level functions that nothing else in the file binds (no assignment, import,
    `global`, second definition or parameter of the same name, in any scope): the name is that function wherever
    the file reads it."""
    defs = [n.name for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    rest = [n for n in module.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    inner = [s for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for s in n.body]
    args = {a.arg for n in ast.walk(module) if isinstance(n, ast.arguments)
            for a in [*n.posonlyargs, *n.args, *n.kwonlyargs, *(x for x in (n.vararg, n.kwarg) if x)]}
    other = bound_anywhere(ast.Module(body=rest + inner, type_ignores=[])) | args
    return {d for d in defs if defs.count(d) == 1 and d not in other}


def main_block(module: ast.Module) -> set[int]:
    """Ids of every node under the module's own `if __name__ == "__main__":` blocks: code that runs only when the
    file is the program, never when a test imports it."""
    out: set[int] = set()
    for stmt in module.body:
        test = stmt.test if isinstance(stmt, ast.If) else None
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" and len(
                test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and isinstance(test.comparators[0], ast.Constant) \
                and test.comparators[0].value == "__main__":
            out.update(id(n) for s in stmt.body for n in ast.walk(s))  # type: ignore[union-attr]
    return out


def only_named(module: ast.Module, name: str) -> bool:
    """The file spells `name` only where it defines it: no read of it (`sort_by`, `x.sort_by`) and no string that
    begins it (`getattr(me, "sort_" + how)`, `globals().get("sort_by")`)."""
    for node in ast.walk(module):
        if (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name):
            return False
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and begins(name, node.value):
            return False
    return True
