"""The blind run's module walker: which asserts of a test module compare with an expected value, and which
literals (of the module, of a helper module it imports, of a JSON table or a golden file it reads) to change."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from swerl.sandbox import tamper_context
from swerl.sandbox.blind_ast import (
    _argnames,
    _args,
    _base,
    _binds,
    _cell,
    _comparisons,
    _field,
    _got,
    _is_in,
    _key,
    _leaves,
    _mappings,
    _one_apart,
    _rank,
    _records,
    _returned,
    _scalar,
    _single_literals,
    _stores,
    _target_names,
    _tolerance,
    _unwrapped,
    _written,
)
from swerl.sandbox.blind_files import DataFiles, read_parts
from swerl.sandbox.blind_values import _Changer, _text


@dataclass
class _Helper:
    """A helper module whose tables a test module reads: its text as lines, and the lines that keep their values."""

    lines: list[bytes]
    kept: set[int]
    tree: ast.Module


def _needle(v: object) -> bool:
    """A text an `in` looks for that, once changed, no honest output holds by chance: four characters or more with
    a letter, or eight or more (a short number, or a number in a list, may be there by chance: a hex dump holds
    most four-digit runs)."""
    text = v.decode("latin-1") if isinstance(v, bytes) else v
    return isinstance(text, str) and (len(text) >= 8 or (len(text) >= 4 and any(c.isalpha() for c in text)))


def _fixture_params(tree: ast.Module) -> dict[str, ast.expr]:
    """The module's fixtures that hand each test one row of their literal `params=` (`return request.param`)."""
    out: dict[str, ast.expr] = {}
    for f in tree.body:
        if not isinstance(f, ast.FunctionDef):
            continue
        deco = next((d for d in f.decorator_list if isinstance(d, ast.Call) and tamper_context.named(d.func)
                     == "fixture"), None)
        rows = next((k.value for k in deco.keywords if k.arg == "params"), None) if deco is not None else None
        ret = _returned(f)
        if isinstance(rows, (ast.List, ast.Tuple)) and _leaves(rows) is not None and isinstance(ret, ast.Attribute) \
                and ret.attr == "param" and isinstance(ret.value, ast.Name) and ret.value.id == "request":
            out[f.name] = rows
    return out


def _parameters(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return {a.arg for a in _args(func)}


class _Finder:
    """Walks a test module: which asserts compare with a literal, and which literals to change for them."""

    def __init__(self, tree: ast.Module, changer: _Changer, kept: set[int],
                 fixture_args: frozenset[str] = frozenset(), lines: list[bytes] | None = None,
                 shared: frozenset[str] = frozenset(), helpers: dict[str, _Helper] | None = None,
                 foreign: dict[str, tuple[str, ast.expr]] | None = None,
                 data: tuple[str, DataFiles] | None = None, changed_modules: frozenset[str] = frozenset()) -> None:
        self.tree, self.changer = tree, changer
        self.changed_modules = changed_modules  # dotted names of the modules the patch changed
        self.imported = {a.asname or a.name: n.module for n in tree.body if isinstance(n, ast.ImportFrom)
                         and n.module and not n.level for a in n.names}  # a name -> the module it comes from
        self.modules = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}
        self.data = data  # this module's path and the grade's data files: a golden file an assert reads
        self.shared = shared  # names other test modules import
        # per file ("" for this one, else a helper module's path): its lines, and those whose literals keep values
        self.lines: dict[str, list[bytes]] = {"": lines or [], **{h: v.lines for h, v in (helpers or {}).items()}}
        self.kept: dict[str, set[int]] = {"": kept, **{h: v.kept for h, v in (helpers or {}).items()}}
        self.foreign = {local: node for local, (_, node) in (foreign or {}).items()}  # imported helper tables
        self.owner = {id(n): h for h, node in (foreign or {}).values() for n in ast.walk(node)}
        self.edits: dict[tuple[str, int, int, int], str] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.module_names = _single_literals(tree, tree.body)
        self.module_names.update(self._zipped(tree))
        self.mappings = _mappings(tree)
        self.compared = list(_comparisons(tree))
        # each name at the bottom of a side of an `==` assert: a name read anywhere else is input, never changed
        self.expected_reads = {id(_base(_unwrapped(side))) for _, node, sides in self.compared
                               for side in (sides[:1] if _is_in(node) else sides)}  # `in`: what it looks for
        # an assert's message is read only when it fails, in either run: naming the expected value there is no input
        self.expected_reads |= {id(n) for a in ast.walk(tree) if isinstance(a, ast.Assert) and a.msg is not None
                                for n in ast.walk(a.msg) if isinstance(n, ast.Name)}
        # names a fixture may take (pytest hands a parametrize value to any fixture that asks for its name): such a
        # column is an input too (R60-FP2: `packed(text)` packs the very text the test expects back)
        self.fixture_args = set(fixture_args) | {a.arg for f in ast.walk(tree) if isinstance(
            f, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(tamper_context.named(d) == "fixture"
                                                                for d in f.decorator_list) for a in _args(f)}
        self.asks_params = any(isinstance(n, ast.Attribute) and n.attr in ("getfixturevalue", "callspec")
                               for n in ast.walk(tree))  # a test that reads its own row by name
        self._index(tree)
        for name in [n for n in self.foreign if n in self.defined]:  # the module's own fixture of that name wins
            del self.foreign[name]
        self._scoped: dict[int, dict[str, ast.expr]] = {}  # a function's or a class's single-literal names
        self.tol: tuple[float, float] | None = None  # the tolerance the comparison being planned allows
        self._only: dict[tuple[int, str], bool] = {}  # (scope, name): read only as an expected value there
        self._shares: dict[str, frozenset[int]] = {}
        self._turns = 0  # values built with a class the patch changed, so far (`_turn`)
        self.fixture_rows = _fixture_params(tree)
        self.records = _records(tree)  # record classes rows are built with (`Case(4, "IV")`, `case.numeral`)  # a module table several tests read: the columns that change

    def _index(self, tree: ast.Module) -> None:
        """Every read of a name and of an attribute; the functions and classes by name; the names assigned."""
        self.names: dict[str, list[ast.Name]] = {}
        self.attrs: dict[str, list[ast.Attribute]] = {}
        self.defined: dict[str, list[ast.AST]] = {}
        self.stored: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self.names.setdefault(node.id, []).append(node)
                else:
                    self.stored.add(node.id)
            elif isinstance(node, ast.Attribute):
                self.attrs.setdefault(node.attr, []).append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defined.setdefault(node.name, []).append(node)

    def _zipped(self, tree: ast.Module) -> dict[str, ast.expr]:
        """`EXPECTED = dict(zip(NAMES, HEXES))` (R62-3): the values' literal list is the table (indexed by name,
        so all of it changes), where nothing else reads that list; the keys stay."""
        out: dict[str, ast.expr] = {}
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and _stores(tree, node.targets[0].id) == 1 else None
            if not (isinstance(value, ast.Call) and tamper_context.named(value.func) == "dict" and len(value.args) == 1
                    and not value.keywords and isinstance(value.args[0], ast.Call)
                    and tamper_context.named(value.args[0].func) == "zip" and len(value.args[0].args) == 2
                    and not value.args[0].keywords):
                continue
            values = value.args[0].args[1]
            if isinstance(values, ast.Name):
                reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == values.id
                         and isinstance(n.ctx, ast.Load)]
                values = self.module_names.get(values.id) if reads == [values] else None
            if isinstance(values, (ast.List, ast.Tuple)) and _leaves(values) is not None:
                out[node.targets[0].id] = values  # type: ignore[union-attr]
        return out

    def run(self) -> tuple[dict[tuple[str, int, int, int], str], set[int]]:
        """The edits (file, line, start, end: text), and which comparisons (their order in `_comparisons`) they
        change."""
        changed: set[int] = set()
        for i, (stmt, node, (a, b)) in enumerate(self.compared):
            ta, tb = self._targets(stmt, a), self._targets(stmt, b)
            ra, rb = _rank(ta), _rank(tb)  # `Size("10MB") == 10_000_000`: the literal is the expected side
            targets = ta if ra > rb else tb if rb > ra else None
            if _is_in(node):  # `"Usage:" in out`: a text the output must hold
                targets = ta if ta and not tb and all(_needle(v) for n, _ in ta for v in map(_scalar, _leaves(n) or [n])) \
                    else None
            self.tol = _tolerance(a if targets is ta else b)
            if (targets and self._change(targets)) or (not targets and not _is_in(node) and self._golden(stmt, a, b)):
                changed.add(i)
        return self.edits, changed

    def _targets(self, stmt: ast.stmt, side: ast.expr) -> list[tuple[ast.expr, bool]] | None:
        """The literals that `side` reads if it is an expected value (with whether the test indexes into them), or
        None: a literal display, a name bound only to one (a local, a parametrize column, a loop's column, a
        helper's parameter, a module table) or a class attribute."""
        side = _unwrapped(side)
        base, every = _base(side), isinstance(side, ast.Subscript) or _got(side)
        if _leaves(base) is not None and base is side:
            return [(base, False)]
        func = self._function_of(stmt)
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and func is not None \
                and base.value.id not in ("self", "cls") and _binds(func, base.value.id):
            column = self._column(func, base.value.id) or self._loop_column(func, base.value.id)  # `case.numeral`
            return self._fields(func, base.value.id, column, side) if column else None
        if isinstance(base, ast.Attribute):  # `self.EXPECTED`, `TestX.EXPECTED`
            table = self._class_table(base)
            return [(table, every)] if table is not None and all(
                id(n) in self.expected_reads for n in self.attrs.get(base.attr, ())) else None
        if not isinstance(base, ast.Name):
            return None
        if func is not None and _binds(func, base.id):  # the test's own name: a local or a parameter
            local = self._scope_literals(func).get(base.id)
            column = None if local is not None else self._column(func, base.id) or self._loop_column(func, base.id) \
                or self._call_column(func, base.id) or self._fixture_rows(func, base.id) or self._unpacked(func, base.id)
            found = [(local, every)] if local is not None else None if column is None else [(v, every) for v in column]
            if found is None and base.id in self.foreign and base.id in _parameters(func) \
                    and base.id not in self.defined and _stores(func, base.id) == 1:
                found = [(self.foreign[base.id], every)]  # a conftest fixture's table, asked for by name
            if found and self._only_expected(func, base.id):
                return found
            return self._fields(func, base.id, column, side) if column else None
        table = self.module_names.get(base.id) or self.foreign.get(base.id)
        if table is not None and self._only_expected(self.tree, base.id):
            return [(table, every)]
        return self._mapping(base.id, side)

    def _fixture_rows(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
        """The rows a module's parametrized fixture hands a test that asks for it (`@pytest.fixture(params=[(4,
        "IV"), ...]) def case(request): return request.param`, R63-10)."""
        if name not in _parameters(func) or _stores(func, name) != 1 or name not in self.fixture_rows \
                or name in self.fixture_args:  # another fixture takes the row: an input there
            return None
        return list(self.fixture_rows[name].elts)  # type: ignore[attr-defined]

    def _unpacked(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
        """`n, want = case` over rows the test is handed (a parametrized fixture's): `want`'s column, where that
        line is the only read of `case`."""
        binds = [n for n in ast.walk(func) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and name in _target_names(n.targets[0]) and isinstance(n.value, ast.Name)]
        if len(binds) != 1 or _stores(func, name) != 1:
            return None
        names, src = _target_names(binds[0].targets[0]), binds[0].value
        reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == src.id  # type: ignore[attr-defined]
                 and isinstance(n.ctx, ast.Load)]
        rows = self._fixture_rows(func, src.id) if reads == [src] and len(names) > 1 else None  # type: ignore[attr-defined]
        cells = [_cell(row, names.index(name), len(names)) for row in rows or []]
        return None if not cells or any(c is None for c in cells) else cells  # type: ignore[misc]

    def _mapping(self, name: str, side: ast.expr) -> list[tuple[ast.expr, bool]] | None:
        """`SIZES[n]` where the test reads SIZES otherwise only for its keys (`parametrize("n", sorted(SIZES))`,
        `for n in SIZES`, `n in SIZES`, `SIZES.keys()`): its values are the expected ones, all changed (R62-14,
        R62-4: a comprehension's value changes in its written text)."""
        node = self.mappings.get(name) or self.foreign.get(name)
        if not isinstance(node, (ast.Dict, ast.DictComp)) or not (isinstance(side, ast.Subscript) or _got(side)):
            return None
        for read in self.names.get(name, ()):
            parent = self.parents.get(read)
            looked_up = (isinstance(parent, ast.Subscript) and parent.value is read) or (
                isinstance(parent, ast.Attribute) and parent.attr == "get")  # `SIZES[n]`, `SIZES.get(n)`
            if not (id(read) in self.expected_reads and looked_up) and not self._keys_only(read, parent):
                return None
        values = node.values if isinstance(node, ast.Dict) else [node.value]
        return [(v, True) for v in values] if all(_leaves(v) is not None or _written(v) for v in values) else None

    def _keys_only(self, read: ast.Name, parent: ast.AST | None) -> bool:
        """A read that takes only a mapping's keys."""
        if isinstance(parent, ast.Call) and parent.args == [read] and not parent.keywords:
            return tamper_context.named(parent.func) in ("sorted", "list", "set", "tuple", "len", "iter", "enumerate",
                                                         "frozenset")
        if isinstance(parent, ast.Call) and tamper_context.named(parent.func) == "parametrize" \
                and len(parent.args) >= 2 and parent.args[1] is read:
            return True  # iterating a dict gives its keys
        if isinstance(parent, ast.Attribute) and parent.attr == "keys":
            return True
        if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is read:
            return True
        return isinstance(parent, ast.Compare) and read in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)

    def _fields(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, rows: list[ast.expr],
                side: ast.expr) -> list[tuple[ast.expr, bool]] | None:
        """A row whose fields the test reads by constant key (`assert f(case["in"]) == case["want"]`): the fields
        it reads only as expected values change in every row, the ones it reads as input stay."""
        inner = side
        while isinstance(inner, ast.Subscript) and isinstance(inner.value, (ast.Subscript, ast.Attribute)):
            inner = inner.value  # `case["want"][0]`: the test indexes into the field
        key = _key(inner)
        reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        keys = [(_key(self.parents.get(n)), id(n) in self.expected_reads or id(self.parents.get(n)) in self.expected_reads)
                for n in reads]
        if key is None or any(k is None for k, _ in keys) or any(k == key and not expected for k, expected in keys):
            return None
        cells = [_field(row, key, self.records) for row in rows]
        return None if any(c is None for c in cells) else [(c, inner is not side) for c in cells if c is not None]

    def _golden(self, stmt: ast.stmt, a: ast.expr, b: ast.expr) -> bool:
        """One side reads a whole data file (`(HERE / "page.txt").read_text()`, or a name bound once to such a
        read and read only as expected), the other does not: the file changes (`blind_files`)."""
        if self.data is None:
            return False
        pa, pb = self._read_parts(stmt, a), self._read_parts(stmt, b)
        parts = pb if pb and not pa else pa if pa and not pb else None
        return parts is not None and self.data[1].change(self.data[0], parts)

    def _read_parts(self, stmt: ast.stmt, side: ast.expr) -> list[str] | None:
        direct = read_parts(side)
        if direct is not None or not isinstance(side, ast.Name):
            return direct
        func = self._function_of(stmt)
        scope: ast.AST = func if func is not None and _binds(func, side.id) else self.tree
        binds = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == side.id]
        if len(binds) != 1 or _stores(scope, side.id) != 1 or not self._only_expected(scope, side.id):
            return None
        return read_parts(binds[0].value)

    def _change(self, targets: list[tuple[ast.expr, bool]]) -> bool:
        """Change one constant of each target (every one where the test indexes into it, all or nothing; every one
    that can change where a class builds it: `Money(5, None)` changes its 5, R61-p4)."""
        edits: dict[tuple[str, int, int, int], str] = {}
        for node, indexed in targets:
            leaves = _leaves(node) or ([node] if _written(node) else [])
            calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
            # a class's fields: all that can change, so a class that compares only some of them still differs; but
            # one where the patch changed the class's module (R62-19: a constructor that drops the field the bug
            # is in collapses the expected value; R61-h8: an `__eq__` that skips it), so the skipped one shows
            every = indexed or (bool(calls) and not any(self._patched(c.func) for c in calls))
            usable = [edit for leaf in leaves if self.kept[self.owner.get(id(leaf), "")].isdisjoint(
                range(leaf.lineno, (leaf.end_lineno or 0) + 1)) for edit in [self._edit(leaf)] if edit is not None]
            if not usable or (indexed and len(usable) != len(leaves)):
                return False
            one = 0 if every else self._turn(len(usable)) if calls else self.changer.pick(node, len(usable))
            for where, text in usable if every else [usable[one]]:
                edits[where] = text
        self.edits.update(edits)
        return True

    def _turn(self, count: int) -> int:
        """Which field of a value built with a class the patch changed: the next one in turn from a start the
        grade's secret picks, so a module's values cover every field between them (R62-19: three asserts of a
        two-field class always change each field once at least)."""
        self._turns += 1
        return (self.changer.index("turn", 1 << 16) + self._turns) % count

    def _patched(self, func: ast.expr) -> bool:
        """The class a test builds a value with comes from a module the patch changed (`from pkg.money import
        Money`, `import pkg.money as m` then `m.Money`)."""
        if isinstance(func, ast.Name):
            return self.imported.get(func.id, "") in self.changed_modules
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and self.modules.get(func.value.id, "") in self.changed_modules

    def _edit(self, leaf: ast.expr) -> tuple[tuple[str, int, int, int], str] | None:
        """Where and how one constant changes: its new `repr` in place, or one character of a multi-line text or
        of an f-string's written text; a number under `approx(..., rel=, abs=)` only if it moves past that
        tolerance, twice over."""
        if isinstance(leaf, ast.JoinedStr):  # `{n: f"{n}th" ...}`'s values: its written part changes
            return self._inner_edit(leaf, self.owner.get(id(leaf), ""))
        old = _scalar(leaf)
        new = self.changer.value(old)
        if new is None:
            return None
        if self.tol is not None and type(old) in (int, float) and type(new) in (int, float) and \
                abs(new - old) <= 2 * max(self.tol[0] * max(abs(new), abs(old)), self.tol[1]):  # type: ignore[operator]
            return None
        rel = self.owner.get(id(leaf), "")
        if leaf.lineno == leaf.end_lineno:
            return (rel, leaf.lineno, leaf.col_offset, leaf.end_col_offset or leaf.col_offset), repr(new)
        return self._inner_edit(leaf, rel) if isinstance(leaf, ast.Constant) else None

    def _inner_edit(self, leaf: ast.Constant | ast.JoinedStr, rel: str) -> tuple[tuple[str, int, int, int], str] | None:
        """A multi-line text (or an f-string) changes one ASCII letter or digit in place, so no line below moves;
        the edited literal is read back and counts only as a value of its type one character apart (a changed
        prefix does not; an f-string's fields stay and its written text differs by one character)."""
        first, last, lines = leaf.lineno, leaf.end_lineno or leaf.lineno, self.lines[rel]
        if not (isinstance(leaf, ast.JoinedStr) or type(leaf.value) in (str, bytes)) or last > len(lines):
            return None
        spans = {ln: (leaf.col_offset if ln == first else 0,
                      (leaf.end_col_offset or 0) if ln == last else len(lines[ln - 1])) for ln in range(first, last + 1)}
        spots = [(ln, c) for ln, (a, b) in spans.items() for c in range(a, b)
                 if lines[ln - 1][c] < 128 and chr(lines[ln - 1][c]).isalnum()]
        h = self.changer._h(ast.dump(leaf) if isinstance(leaf, ast.JoinedStr) else leaf.value)
        for k in range(min(len(spots), 16)):
            ln, c = spots[(h + k * 7919) % len(spots)]
            new = _text(chr(lines[ln - 1][c]), h + k) or "x"
            edited = {i: lines[i - 1] if i != ln else lines[i - 1][:c] + new.encode() + lines[i - 1][c + 1:] for i in spans}
            try:
                text = "(" + b"".join(edited[i][a:b] for i, (a, b) in spans.items()).decode() + ")"
                if _one_apart(leaf, ast.parse(text, mode="eval").body if isinstance(leaf, ast.JoinedStr)
                              else ast.literal_eval(text)):
                    return (rel, ln, c, c + 1), new
            except (SyntaxError, ValueError, UnicodeDecodeError, MemoryError, RecursionError):
                continue
        return None

    def _function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    def _classes_of(self, node: ast.AST) -> list[ast.ClassDef]:
        """The classes `node` is written in, innermost first."""
        out: list[ast.ClassDef] = []
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.ClassDef):
                out.append(node)
        return out

    def _scope_literals(self, scope: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> dict[str, ast.expr]:
        if id(scope) not in self._scoped:
            self._scoped[id(scope)] = _single_literals(scope, scope.body if isinstance(scope, ast.ClassDef) else [scope])
        return self._scoped[id(scope)]

    def _class_table(self, node: ast.Attribute) -> ast.expr | None:
        """`self.EXPECTED`, `cls.EXPECTED`, `TestX.EXPECTED` in a test class: the literal its body binds once, where
        no other class of the module binds that name and nothing sets the attribute (`self.EXPECTED = ...`)."""
        classes = self._classes_of(node)
        owner = node.value.args[0] if isinstance(node.value, ast.Call) and tamper_context.named(node.value.func) \
            == "type" and len(node.value.args) == 1 else node.value  # `type(self).EXPECTED` too
        if not classes or not isinstance(owner, ast.Name) or owner.id not in ("self", "cls", classes[0].name):
            return None
        value = self._scope_literals(classes[0]).get(node.attr)
        binders = [c for c in ast.walk(self.tree) if isinstance(c, ast.ClassDef) and _binds(c, node.attr)]
        if value is None or binders != [classes[0]] or any(
                not isinstance(a.ctx, ast.Load) for a in self.attrs.get(node.attr, ())):
            return None
        return value if not any(self._classes_of(n)[:1] == classes[:1] for n in self.names.get(node.attr, ())) \
            else None  # the class body reads it as a name: an input there

    def _only_expected(self, scope: ast.AST, name: str) -> bool:
        """`name` is read only as an expected value of `==` asserts in `scope` (never as an input), and nothing
        there rebinds it through `global`/`nonlocal`."""
        key = (id(scope), name)
        if key not in self._only:
            self._only[key] = all(
                not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
                     and id(node) not in self.expected_reads)
                and not (isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names) for node in ast.walk(scope))
        return self._only[key]

    def _column(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
        """The values a parametrize decorator of `func` (or of its class) gives `name`: one per row, or None if not
        all literal."""
        classes = self._classes_of(func)
        for deco in [*func.decorator_list, *(d for c in classes for d in c.decorator_list)]:
            given = {k.arg: k.value for k in deco.keywords} if isinstance(deco, ast.Call) else {}
            spec = [*deco.args, *[given[k] for k in ("argnames", "argvalues") if k in given]][:2] \
                if isinstance(deco, ast.Call) else []  # `parametrize(argnames=..., argvalues=...)` too (R63-16)
            if not (isinstance(deco, ast.Call) and tamper_context.named(deco.func) == "parametrize" and len(spec) == 2):
                continue
            if "indirect" in given or name in self.fixture_args or self.asks_params:
                return None  # a fixture takes the value: it may be an input
            names = _argnames(spec[0])
            if names is None or name not in names:
                continue
            rows: ast.expr | None = spec[1]
            if isinstance(rows, ast.Name):  # a list of cases (module or class), read by this decorator alone (its
                ref, own = rows, {id(n) for n in ast.walk(deco)}  # `ids=` may read it too: R61-p7ids)
                rows = self.module_names.get(ref.id) or self.foreign.get(ref.id) or next(
                    (t for c in classes if (t := self._scope_literals(c).get(ref.id)) is not None), None)
                if any(id(n) not in own for n in self.names.get(ref.id, ())) \
                        and names.index(name) not in self._shared(ref.id):
                    return None
            if not isinstance(rows, (ast.List, ast.Tuple)):
                return None
            i = names.index(name)
            column = [_cell(row, i, len(names)) for row in rows.elts]
            return None if not column or any(c is None for c in column) else column  # type: ignore[misc]
        return None

    def _call_column(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
        """The values the module's calls of a helper give its parameter `name` (`def check(text, want): assert
        slug(text) == want`, called as `check("A b", "a-b")`, or `self.check(...)` in a test class): all literal,
        or None. The helper is no test, has no decorator, and its name is read only as the callee of a call
        (never passed on, never imported by another test module, whose calls this plan would not see)."""
        owner = self.parents.get(func)
        method = isinstance(owner, ast.ClassDef)
        positional = [a.arg for a in [*func.args.posonlyargs, *func.args.args]][1 if method else 0:]
        if func.name.startswith("test") or func.decorator_list or func.name in self.shared \
                or not (method or isinstance(owner, ast.Module)) or _stores(func, name) != 1 \
                or self.defined.get(func.name) != [func] or func.name in self.stored:
            return None
        refs: list[ast.expr] = [*self.names.get(func.name, ()), *self.attrs.get(func.name, ())]
        column: list[ast.expr] = []
        for ref in refs:
            call = self.parents.get(ref)
            if not (isinstance(call, ast.Call) and call.func is ref) or method != isinstance(ref, ast.Attribute) \
                    or (method and not (isinstance(ref.value, ast.Name) and ref.value.id in ("self", "cls"))) \
                    or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                return None
            given = [k.value for k in call.keywords if k.arg == name]
            i = positional.index(name) if name in positional else len(call.args)
            value = given[0] if given else call.args[i] if i < len(call.args) else None
            cells = [value] if value is not None and _leaves(value) is not None else self._passed_on(value)
            if cells is None:
                return None
            column += cells
        return column or None

    def _passed_on(self, value: ast.expr | None) -> list[ast.expr] | None:
        """A test's own column handed to a helper whole (`def test_slug(text, want): check(text, want)`): its
        cells, where that call is the only read of the name in the test."""
        caller = self._function_of(value) if isinstance(value, ast.Name) else None
        if caller is None or not isinstance(value, ast.Name) or [
                n for n in ast.walk(caller) if isinstance(n, ast.Name) and n.id == value.id
                and isinstance(n.ctx, ast.Load)] != [value]:
            return None
        return self._column(caller, value.id) or self._loop_column(caller, value.id)

    def _loop_column(self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr] | None:
        """The values a `for` of `func` gives `name` from a literal table read by that loop alone: `for x, want
        in CASES`, `for x, want in zip(XS, WANTS)`, `for k, want in TABLE.items()` (R60-1), `self.CASES` too."""
        loops = [n for n in ast.walk(func) if isinstance(n, ast.For) and name in _target_names(n.target)]
        if len(loops) != 1 or _stores(func, name) != 1:
            return None
        loop = loops[0]
        names = _target_names(loop.target)
        it, items = loop.iter, False
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" \
                and not it.args and len(names) == 2:
            it, items = it.func.value, True
        if isinstance(it, ast.Call) and tamper_context.named(it.func) == "zip" and isinstance(it.func, ast.Name) \
                and not it.keywords and len(it.args) == len(names):
            table = self._table(it.args[names.index(name)])
            return None if table is None or not isinstance(table, (ast.List, ast.Tuple)) else list(table.elts)
        table = self._table(it)
        if items:
            return list(table.values) if isinstance(table, ast.Dict) and name == names[1] else None
        if table is None and isinstance(it, ast.Name) and names.index(name) in self._shared(it.id):
            table = self.module_names.get(it.id) or self.foreign.get(it.id)  # a table other tests read too
        if not isinstance(table, (ast.List, ast.Tuple)):
            return None
        column = [_cell(row, names.index(name), len(names)) for row in table.elts]
        return None if not column or any(c is None for c in column) else column  # type: ignore[misc]

    def _shared(self, name: str) -> frozenset[int]:
        """The columns of a module table that several tests read (`for plain, cipher in PAIRS` in one, `for plain,
        cipher in PAIRS` again in another, or parametrize) that may change: each is only expected in some test,
        and no test that expects a changed column reads another changed column as its input (R62-8: encode's
        expected column is decode's input, so only one of them changes; decode then fails, and no assert of its
        is a site). Empty where any read of the table is another kind."""
        if name not in self._shares:
            self._shares[name] = self._choose(self._readers(name) or [])
        return self._shares[name]

    def _readers(self, name: str) -> list[tuple[set[int], set[int]]] | None:
        """Per read of a module table: (its expected columns, its input columns), or None where a read is not a
        flat `for` over it or a parametrize of it."""
        out: list[tuple[set[int], set[int]]] = []
        for read in self.names.get(name, ()):
            parent = self.parents.get(read)
            if isinstance(parent, ast.For) and parent.iter is read:
                names, func = _target_names(parent.target), self._function_of(parent)
            elif isinstance(parent, ast.Call) and tamper_context.named(parent.func) == "parametrize" \
                    and len(parent.args) >= 2 and parent.args[1] is read:
                names, func = _argnames(parent.args[0]) or [], self.parents.get(parent)
            else:
                return None
            if len(names) < 2 or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    or any(_stores(func, n) != 1 for n in names):
                return None
            used = {j for j, n in enumerate(names) if any(isinstance(x, ast.Name) and x.id == n and isinstance(
                x.ctx, ast.Load) for x in ast.walk(func))}
            expected = {j for j in used if self._only_expected(func, names[j])}
            out.append((expected, used - expected))
        return out

    @staticmethod
    def _choose(readers: list[tuple[set[int], set[int]]]) -> frozenset[int]:
        chosen: set[int] = set()
        for j in sorted(set().union(*(e for e, _ in readers)) if readers else ()):
            trial = chosen | {j}
            if all(not (e & trial and i & trial) for e, i in readers):
                chosen = trial
        return frozenset(chosen)

    def _table(self, node: ast.expr) -> ast.expr | None:
        """A literal display, a module table (single literal binding) or a class's (`self.CASES`) that nothing but
        this loop reads."""
        if _leaves(node) is not None:
            return node
        if isinstance(node, ast.Attribute):
            return self._class_table(node) if self.attrs.get(node.attr) == [node] else None
        table = self.module_names.get(node.id) or self.foreign.get(node.id) if isinstance(node, ast.Name) else None
        return table if table is not None and self.names.get(node.id) == [node] else None  # type: ignore[union-attr]
