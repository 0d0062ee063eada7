"""The blind run's reading of a test module's syntax: which sides of a comparison are literals, tables, columns.

Pure functions over `ast` nodes, shared by the planner (`blind.py`) and the module walker (`blind_finder.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from swerl.sandbox import tamper_context

_EQUAL_ASSERTS = frozenset({"assertEqual", "assertEquals", "assertListEqual", "assertTupleEqual", "assertDictEqual",
                            "assertSetEqual", "assertSequenceEqual", "assertMultiLineEqual"})
_MATCHERS = ("Is", "Has", "Any", "ANY", "Approx", "Contains", "Matches", "Close")
MAX_SOURCE_BYTES = 2 << 20  # a test file larger than this is run as written
Site = tuple[int, int, int]  # an `==` of the changed source: its first and last line, its column (-1: a call's line)


def _leaves(node: ast.expr) -> list[ast.expr] | None:
    """The scalar constants of a literal display (dict values, not keys), or None where `node` is no literal."""
    if isinstance(node, ast.Constant):
        return [node]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return [node]
    parts = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else \
        node.values if isinstance(node, ast.Dict) and None not in node.keys else \
        [*node.args, *(k.value for k in node.keywords)] if isinstance(node, ast.Call) and _built(node) else \
        list(node.args) if isinstance(node, ast.Call) and tamper_context.named(node.func) == "param" \
        and not any(isinstance(a, ast.Starred) for a in node.args) else None  # `pytest.param(4, "IV", id=...)`
    if parts is None:
        return None
    out: list[ast.expr] = []
    for p in parts:
        sub = _leaves(p)
        if sub is None:
            return None
        out += sub
    if isinstance(node, ast.Dict) and any(_leaves(k) is None for k in node.keys if k is not None):
        return None
    return out


def _built(call: ast.Call) -> bool:
    """A value the test builds from literals with a class (`Vec(1, 2)`, `Report("t", Tally({"a": 2}))`,
    `Decimal("1.5")`): its literals count as the expected value's, all changed together (`_change`), so an honest
    class that compares only some of its fields still differs. Not a matcher (`approx`, `IsInt`, `ANY`: equal
    to many values on purpose) nor a function (`len`, `type`, `round`: many inputs give one answer)."""
    name = tamper_context.named(call.func)
    return bool(name) and name[0].isupper() and not name.startswith(_MATCHERS) \
        and not any(isinstance(a, ast.Starred) for a in call.args) and all(k.arg is not None for k in call.keywords)


def _scalar(leaf: ast.expr) -> object:
    if isinstance(leaf, ast.UnaryOp):
        return -leaf.operand.value  # type: ignore[attr-defined, operator]
    return leaf.value  # type: ignore[attr-defined]



def _args(f: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.arg]:
    a = f.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]


def _unwrapped(side: ast.expr) -> ast.expr:
    """The expected value inside what the test does with it: `approx(want)` (the usual float assert; a tolerance
    given as literal `rel=`/`abs=` is honoured by `_Finder._edit`), `dedent(TEXT)`, `cleandoc(TEXT)` and a
    literal's `.strip()` family (what they keep of a changed letter still differs), and `sorted`, `set`, `list`,
    `tuple` or `frozenset` of it (a changed item still differs, R62-5)."""
    if not isinstance(side, ast.Call) or any(isinstance(a, ast.Starred) for a in side.args):
        return side
    name = tamper_context.named(side.func)
    if name == "approx" and len(side.args) == 1 and _tolerance(side) is not None:
        return side.args[0]
    if name in ("dedent", "cleandoc") and len(side.args) == 1 and not side.keywords:
        return side.args[0]
    if isinstance(side.func, ast.Name) and len(side.args) == 1 and (  # `sorted(got) == sorted(WANT)`: a changed
            name == "sorted" or (name in ("set", "frozenset", "list", "tuple") and not side.keywords)):  # item shows
        return side.args[0]
    if name in ("strip", "lstrip", "rstrip", "splitlines") and isinstance(side.func, ast.Attribute) \
            and isinstance(side.func.value, ast.Constant) and isinstance(side.func.value.value, (str, bytes)) \
            and not side.args and not side.keywords:
        return side.func.value
    return side


def _tolerance(side: ast.expr) -> tuple[float, float] | None:
    """`approx`'s (relative, absolute) tolerance where it is written as literals (its defaults otherwise); None
    for anything else, or for an approx with other options."""
    if not (isinstance(side, ast.Call) and tamper_context.named(side.func) == "approx"):
        return None
    given: dict[str, float] = {}
    for k in side.keywords:
        value = _leaves(k.value) if k.arg in ("rel", "abs") else None
        if not value or len(value) != 1 or type(_scalar(value[0])) not in (int, float) or k.value is not value[0]:
            return None
        given[str(k.arg)] = abs(float(_scalar(value[0])))  # type: ignore[arg-type]
    if "abs" in given and "rel" not in given:  # pytest: an absolute tolerance alone drops the relative one
        return 0.0, given["abs"]
    return given.get("rel", 1e-6), given.get("abs", 1e-12)


def _one_apart(leaf: ast.Constant | ast.JoinedStr, edited: object) -> bool:
    """The edited literal is the original with one character of its written text changed: a text of the same
    type and length, or an f-string whose fields are the same and whose written parts differ in one place."""
    if isinstance(leaf, ast.JoinedStr):
        if not (isinstance(edited, ast.JoinedStr) and len(edited.values) == len(leaf.values)):
            return False
        pairs = list(zip(leaf.values, edited.values, strict=True))
        if any(type(a) is not type(b) or (not isinstance(a, ast.Constant) and ast.dump(a) != ast.dump(b))
               for a, b in pairs):
            return False
        texts = [(a.value, b.value) for a, b in pairs if isinstance(a, ast.Constant) and isinstance(b, ast.Constant)]
        return sum(sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b)) for a, b in texts) == 1
    return type(edited) is type(leaf.value) and len(edited) == len(leaf.value) \
        and sum(a != b for a, b in zip(edited, leaf.value, strict=True)) == 1  # type: ignore[arg-type]


def _mappings(mod: ast.Module) -> dict[str, ast.expr]:
    """Module names bound once to a mapping whose values are literals (keys may be computed: `10 * 1024 ** 2`), or
    a dict comprehension whose value is a literal or an f-string with written text (`{n: f"{n}th" for n in
    ...}`): a test may read its keys as inputs and its values as expected (`_Finder._mapping`)."""
    out: dict[str, ast.expr] = {}
    for node in mod.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if not isinstance(target, ast.Name) or _stores(mod, target.id) != 1:
            continue
        value = node.value  # type: ignore[union-attr]
        if (isinstance(value, ast.Dict) and None not in value.keys and all(_leaves(v) is not None for v in value.values)) \
                or (isinstance(value, ast.DictComp) and (_leaves(value.value) is not None or _written(value.value))):
            out[target.id] = value
    return out


def _tables_of(mod: ast.Module) -> dict[str, ast.expr]:
    """A helper module's tables a test may import: literal displays, and mappings with literal values."""
    return {**_mappings(mod), **_single_literals(mod, mod.body)}


def _written(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.Constant) and any(
        c.isascii() and c.isalnum() for c in str(v.value)) for v in node.values)


def _key(node: ast.AST | None) -> str | int | None:
    """The constant key of `row["want"]` / `row[1]` (a `Subscript` straight on a name), `.want` for `row.want`,
    else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return "." + node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) \
            and type(node.slice.value) in (str, int):
        return node.slice.value  # type: ignore[return-value]
    return None


def _field(row: ast.expr, key: str | int, records: dict[str, list[str]] | None = None) -> ast.expr | None:
    """The literal a row holds at `key`: a dict's value (`pytest.param({...})` too), a tuple's or list's item, a
    record's field (`.numeral` of `Case(4, "IV")`, a namedtuple or dataclass the module declares: `records`)."""
    if isinstance(row, ast.Call) and tamper_context.named(row.func) == "param" and len(row.args) == 1:
        row = row.args[0]
    if isinstance(key, str) and key.startswith(".") and isinstance(row, ast.Call):
        fields = (records or {}).get(tamper_context.named(row.func), [])
        given = [k.value for k in row.keywords if k.arg == key[1:]]
        i = fields.index(key[1:]) if key[1:] in fields else len(row.args)
        cell = given[0] if given else row.args[i] if i < len(row.args) else None
        return cell if cell is not None and not isinstance(cell, ast.Starred) and _leaves(cell) is not None else None
    if isinstance(row, ast.Dict) and type(key) is str:
        found = [v for k, v in zip(row.keys, row.values, strict=True) if isinstance(k, ast.Constant) and k.value == key]
        return found[0] if len(found) == 1 and _leaves(found[0]) is not None else None
    if isinstance(row, (ast.Tuple, ast.List)) and type(key) is int and -len(row.elts) <= key < len(row.elts):
        cell = row.elts[key]
        return cell if not isinstance(cell, ast.Starred) and _leaves(cell) is not None else None
    return None


def _records(tree: ast.Module) -> dict[str, list[str]]:
    """The module's record classes and their fields in order: `Case = namedtuple("Case", "number numeral")`, a
    `NamedTuple` subclass, a `@dataclass` (annotated fields)."""
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and tamper_context.named(node.value.func) == "namedtuple" \
                and len(node.value.args) == 2:
            names = _argnames(node.value.args[1])
            if names is not None:
                out[node.targets[0].id] = [n for part in names for n in part.split()]
        elif isinstance(node, ast.ClassDef) and (any(tamper_context.named(b) == "NamedTuple" for b in node.bases)
                                                  or any(tamper_context.named(d) == "dataclass" for d in node.decorator_list)):
            out[node.name] = [a.target.id for a in node.body if isinstance(a, ast.AnnAssign)
                              and isinstance(a.target, ast.Name)]
    return out


def _returned(f: ast.FunctionDef) -> ast.expr | None:
    """What a function whose whole body (past its docstring) is one `return` returns: a fixture that hands over."""
    body = f.body[1:] if f.body and isinstance(f.body[0], ast.Expr) and isinstance(f.body[0].value, ast.Constant) \
        else f.body
    return body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None


def _is_in(node: ast.AST) -> bool:
    return isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)


def _comparisons(tree: ast.Module) -> Iterator[tuple[ast.stmt, ast.AST, tuple[ast.expr, ast.expr]]]:
    """(statement, the comparison, both sides) of each `==` or `in` an assert or an equal-assert call makes, in a
    fixed order: the same for the source and its changed copy, whose literals alone differ."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And) \
                else [node.test]
            for t in tests:
                if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], (ast.Eq, ast.In)):
                    yield node, t, (t.left, t.comparators[0])
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _EQUAL_ASSERTS \
                and len(node.value.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.value.args[:2]):
            yield node, node.value, (node.value.args[0], node.value.args[1])


def _site(stmt: ast.stmt, node: ast.AST) -> Site:
    """Where the witness reports a held `==`: a rewritten assert's own (line, column), or the lines of an
    `assertEqual` call (unittest's wrapper knows only the line)."""
    if isinstance(node, ast.Compare):
        return node.lineno, node.lineno, node.col_offset
    return stmt.lineno, stmt.end_lineno or stmt.lineno, -1


def _rank(targets: list[tuple[ast.expr, bool]] | None) -> int:
    """How surely a side is the expected value: written literals (2) over a value a class builds from them (1,
    which may be the class under test) over anything else (0)."""
    if not targets:
        return 0
    return 1 if any(isinstance(n, ast.Call) for node, _ in targets for n in ast.walk(node)) else 2


def _target_names(target: ast.expr) -> list[str]:
    """The names a flat `for` target binds, in order (`x, want` or `want`); [] for anything nested."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]  # type: ignore[attr-defined]
    return []


def _stores(scope: ast.AST, name: str) -> int:
    return sum(1 for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)) \
        + sum(1 for n in ast.walk(scope) if isinstance(n, ast.arg) and n.arg == name)


def _base(side: ast.expr) -> ast.expr:
    """What a side indexes into: `T[k][0]` and `T.get(k)` read `T` (R63-22)."""
    while isinstance(side, ast.Subscript) or _got(side):
        side = side.value if isinstance(side, ast.Subscript) else side.func.value  # type: ignore[attr-defined]
    return side


def _got(side: ast.expr) -> bool:
    """`T.get(k)` (or `T.get(k, default)`) on a name: a mapping's lookup, as `T[k]` is."""
    return isinstance(side, ast.Call) and isinstance(side.func, ast.Attribute) and side.func.attr == "get" \
        and isinstance(side.func.value, ast.Name) and 1 <= len(side.args) <= 2 and not side.keywords


def _binds(scope: ast.AST, name: str) -> bool:
    """`name` is a parameter of, or stored anywhere in, `scope`."""
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.arg) and node.arg == name:
            return True
    return False


def _single_literals(scope: ast.AST, body: list) -> dict[str, ast.expr]:
    """Names bound exactly once in `scope`, by `name = <literal display>` among `body`'s statements (a module's
    top level; anywhere in a function), never a parameter, an import, a def or a loop target."""
    stores: dict[str, int] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            stores[node.arg] = stores.get(node.arg, 0) + 2
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[node.name] = stores.get(node.name, 0) + 2
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                alias = (a.asname or a.name).split(".")[0]
                stores[alias] = stores.get(alias, 0) + 2
    out: dict[str, ast.expr] = {}
    statements = body if isinstance(scope, (ast.Module, ast.ClassDef)) else \
        [n for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.AnnAssign))]
    for node in statements:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None  # `WANT: Final = ...` too (R61-p5)
        if isinstance(target, ast.Name) and node.value is not None and _leaves(node.value) is not None \
                and stores.get(target.id) == 1:
            out[target.id] = node.value
    return out


def _argnames(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [p.strip() for p in node.value.split(",") if p.strip()]
    if isinstance(node, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                                       for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _cell(row: ast.expr, i: int, width: int) -> ast.expr | None:
    """Column `i` of one parametrize row (a tuple, a `pytest.param(...)`, or the value itself for one name)."""
    if isinstance(row, ast.Call) and tamper_context.named(row.func) == "param":
        values = row.args
    elif width == 1:
        values = [row]
    elif isinstance(row, (ast.Tuple, ast.List)):
        values = row.elts
    else:
        return None
    if len(values) != width or any(isinstance(v, ast.Starred) for v in values):
        return None
    cell = values[i]
    return cell if _leaves(cell) is not None else None
