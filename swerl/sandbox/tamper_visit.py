"""The tamper scan's AST visitor: every name, attribute, import and call a file uses, judged by the allowlists."""

from __future__ import annotations

import ast
import builtins
import contextlib
import re
import time
import types
from collections import Counter
from collections.abc import Iterable

from swerl.sandbox import tamper_allow as A
from swerl.sandbox.tamper_context import (
    MISSING,
    ScanContext,
    bound_in,
    chain,
    classes_with_getattr,
    forwarded_name,
    named,
    params,
    real,
    step_finding,
    walk_real,
)
from swerl.sandbox.tamper_names import (
    assigned_attributes,
    begins,
    bound_anywhere,
    computed,
    declared_names,
    dispatch_prefix,
    factory_names,
    guard_container,
    literal_container,
    literal_declarations,
    main_block,
    module_constants,
    module_functions,
    module_whitelists,
    only_named,
    only_tested,
    template_steps,
    unbound_parameter,
    words_of,
)

_SKIPPED = frozenset({"__pycache__", "*.pyc", "*.py[co]", "*.py[cod]", "*.pyo"})
_STRINGS = re.compile(r"/proc\b|^proc$|^fd$|/dev/fd|\.pyc\b|__pycache__|SWERL_|/dev/stdout|_pytest|pytest|\bPASSED\b|\bFAILED\b|junit|\.git\b|"
                      r"\bgit\s+(?:diff|apply|show|log|checkout|stash|reset|cat-file|archive|format-patch)\b|"
                      r"conftest|site-packages|sitecustomize|\bpassed in\b|::test|\btest_\w+\.py\b|\b\w+_test\.py\b")
# words a docstring may say (prose, not a forged report: the verdict reads the signed record, never the output)
_PROSE = re.compile(r"passed in|PASSED|FAILED|pytest|_pytest|conftest", re.IGNORECASE)
# str.format reaches attributes: "{0.__init__.__globals__}".format(obj)
def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


_FIELD = re.compile(r"\{([^{}!:]*)")  # the field name of each replacement field of a template
_PRIVATE = ("_", "f_", "tb_", "gi_", "cr_", "co_")


def format_reach(text: str) -> bool:
    """A replacement field that walks past an object's public face (`{0._module.sys}`, `{0.f_globals}`). A
    repr's own fields are not walks (R61-FP-f3repr): one attribute, not a dunder, with nothing after it
    (`{0._x!r}`: text of the object handed in), and its class's name (`{0.__class__.__name__}`)."""
    for m in _FIELD.finditer(text):
        name = m.group(1)
        steps = re.findall(r"\.([A-Za-z_]\w*)", name)
        if not steps or steps in (["__class__", "__name__"], ["__class__", "__qualname__"]):
            continue
        if len(steps) == 1 and not steps[0].startswith("__") and re.fullmatch(r"[^.\[]*\.\w+", name):
            continue
        if any(step.startswith(_PRIVATE) for step in steps):
            return True
    return False


_BUILTINS = frozenset(dir(builtins)) | {"__builtins__", "__loader__", "__spec__", "__build_class__"}



def _brace_template_not_literal(node: ast.Call) -> bool:
    """A call with `style=` other than a literal "%"/"$" (logging.Formatter, its Style classes, dictConfig-like
    helpers) whose template (first argument or `fmt=`) is not a string literal: `{`-style fields walk
    attributes by name, so a template built or passed in at run time reaches whatever it names."""
    style = next((k.value for k in node.keywords if k.arg == "style"), None)
    if style is None or (isinstance(style, ast.Constant) and style.value in ("%", "$")):
        return False
    template = next((k.value for k in node.keywords if k.arg == "fmt"), node.args[0] if node.args else None)
    return not (template is None or (isinstance(template, ast.Constant) and isinstance(template.value, str)))



ROUTE_STEPS = frozenset({"sys", "builtins"})  # attribute names that are modules wherever they appear on an object
FIELD_FACTORIES = frozenset({"dataclasses.make_dataclass", "collections.namedtuple", "typing.NamedTuple",
                             "attr.make_class", "attrs.make_class", "typing.TypedDict"})


# names a dispatch word must not begin: frames, code objects, tracebacks, modules as attributes and `sys`'s hubs
# (the runtime guard hears those reads too; the scan keeps the word clear of them)
_ROUTE_NAMES = A.FRAME_ATTRS | A.ROUTE_STEPS | {"modules", "meta_path", "path_hooks", "path_importer_cache"}


def _dispatch(node: ast.AST) -> bool:
    """`getattr(self, f"visit_{kind}")` (R65-FP-visit): a read by a name that starts with a literal word of two or
    more characters, a letter first, that no route name starts with. The rest of the name is the program's
    (a node's class, a command), but it can only ever name `visit_...`: no dunder, no private member, no frame
    attribute, no module reached as an attribute. A test module read by such a name is the guard's finding
    (`Guard.unspelled`: its source does not spell the name)."""
    word = dispatch_prefix(node)
    return word is not None and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]+", word) is not None and not any(
        name.startswith(word) for name in _ROUTE_NAMES)


_MEMBER_PREDICATES = frozenset(f"inspect.{p}" for p in ("ismethod", "isfunction", "isclass", "iscoroutinefunction",
                                                          "isgeneratorfunction"))
# calls judged by where their descriptor came from (R75-FP): the name it is read from is bound in this file only from
# a call of these (an open the guard judges), never a number (1, 2, the launcher's record) or a parameter
_FD_OPENERS = {"os.write": ("os.open",), "mmap.mmap": ("open", "io.open")}
# judged at the call by its arguments, never passed
_CALLED_ONLY = A.STRING_RESOLVERS | {"inspect.getmembers", "pkgutil.get_data"} | _FD_OPENERS.keys()


def _other_bindings(n: ast.AST) -> list[str]:
    """Names a node binds other than by a plain assignment: a parameter, a def or class, `except ... as`, a match
    capture, an import, a `global`/`nonlocal` declaration."""
    if isinstance(n, ast.arg):
        return [n.arg]
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [n.name]
    if isinstance(n, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [n.name] if n.name else []
    if isinstance(n, ast.MatchMapping):
        return [n.rest] if n.rest else []
    if isinstance(n, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in n.names]
    return list(n.names) if isinstance(n, (ast.Global, ast.Nonlocal)) else []


def _private(step: str) -> bool:
    return step.startswith("_") and not (step.startswith("__") and step.endswith("__"))


class ScanTooCostly(Exception):
    """The changed files are too large (bytes per file, in total) or too slow to audit: the agent's failure (an
    unauditable change is never paid), raised past the scan's own parse-error handling."""


class Features(ast.NodeVisitor):
    """Collects findings: everything a file uses that the allowlists do not name."""

    def __init__(self, ctx: ScanContext) -> None:
        self.found: Counter[str] = Counter()
        self.ctx = ctx
        self.alias: dict[str, str] = {}  # bound name -> dotted origin, for every absolute import in the file
        self.scopes: list[tuple[str, set[str]]] = []
        self.called: set[int] = set()  # ids of nodes that are the function of a call the call check vetted
        self.done: set[int] = set()  # ids of Name nodes a call check already judged
        self.vetted: set[int] = set()  # ids of `sys.modules` in a membership test of a literal name
        # per enclosing function: the name parameter of a forwarding `__getattr__`, else None (`_forwards`)
        self.forwarding: list[str | None] = []
        self.receivers: list[str | None] = []  # per enclosing function: a method's first parameter (`self`)
        self.getattr_names: set[str] = set(ctx.getattr_classes)  # classes with a forwarding `__getattr__`
        self.renames = False  # does any statement bind `__name__` or `__package__` (`_own_name`)
        self.stored: frozenset[str] = frozenset()  # attribute names the file stores (`assigned_attributes`)
        self.constants: dict[str, list[str]] = {}  # module names bound once to literal names (`module_constants`)
        self.docstrings: set[int] = set()  # ids of the file's docstring constants (`_PROSE`)
        self.functions: list[ast.AST] = []  # the enclosing function definitions and lambdas, innermost last
        self.module: ast.Module | None = None  # the file's module (`_fd_from`, the whitelist rules)
        self.whitelists: dict[str, tuple[list[str], bool]] = {}  # `module_whitelists`
        self.hooks: set[str] = set()  # `module_functions`: top-level functions nothing else binds
        self.main_block: set[int] = set()  # `main_block`: nodes under `if __name__ == "__main__":`
        self.imported: set[str] = set()  # every name an import statement of the file binds ("*" for a star import)
        self.sort_keys: set[int] = set()  # ids of the `key=` values of builtin sorted/min/max calls


    def add(self, finding: str | None) -> None:
        if finding:
            self.found[finding] += 1

    # ------------------------------------------------------------------ scopes and names

    def _scoped(self, kind: str, names: set[str], nodes: Iterable[ast.AST]) -> None:
        for name in sorted(names & A.IMPORT_METADATA if kind == "module" else ()):  # by any binding syntax: an
            self.add(f"rebinds or mutates the module's import metadata {name}")  # import alias, `except ... as`
        self.scopes.append((kind, names))
        for n in nodes:
            self.visit(n)
        self.scopes.pop()

    def _is_builtin(self, name: str) -> bool:
        if name not in _BUILTINS:
            return False
        for i, (kind, names) in enumerate(reversed(self.scopes)):
            if name in names and (kind != "class" or i == 0):
                return False
        return True

    def _origin(self, node: ast.AST) -> str | None:
        """The dotted import origin of a Name bound by an absolute import (`np` -> `numpy`)."""
        return self.alias.get(node.id) if isinstance(node, ast.Name) else None

    def _local(self, node: ast.AST) -> bool:
        """A plain local object: a Name that is neither an import nor a builtin."""
        return isinstance(node, ast.Name) and node.id not in self.alias and not self._is_builtin(node.id)

    def _check_origin(self, dotted: str, attrs: list[str]) -> str | None:
        """A finding for `dotted` (an import origin) followed by `attrs`: resolved on the real objects for the
        allowed standard library, by name for the project's own modules and the pristine tree's dependencies."""
        parts = dotted.split(".") + attrs
        own = self.ctx.is_own(dotted)
        if not own and self.ctx.import_kind(parts[0]) == "stdlib":
            return walk_real(parts)
        head = next((".".join(parts[:i]) for i in range(len(parts), 1, -1) if ".".join(parts[:i]) in A.STDLIB_ALLOWED),
                    None)
        if not own and head is not None:  # an allowed submodule of a denied package (`importlib.metadata.version`)
            return walk_real([head, *parts[head.count(".") + 1:]])
        if not own and self.ctx.import_kind(dotted) is None:
            return f"uses {'.'.join(parts)}"
        for i, step in enumerate(parts[1:], 1):
            found = step_finding(step) or (f"introspects .{step}" if step in A.DUNDER_LOOKUPS else None)
            if found:
                return found
            if step in A.ROUTE_STEPS:
                return walk_real(parts[i:]) if step in A.STDLIB_ALLOWED else f"reaches module {step} via {dotted}"
            if (step in A.UNSAFE_NAMES or ".".join(parts[:i + 1]) in A.UNSAFE_DOTTED) and not own:
                return f"uses {'.'.join(parts[:i + 1])}"
        return None

    # ------------------------------------------------------------------ imports

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if self.ctx.import_kind(a.name) is None:
                self.add(f"import {a.name}")
            elif self.ctx.import_kind(a.name) == "stdlib":  # from its top package, or whole where only it is allowed
                top = self.ctx.import_kind(a.name.split(".")[0]) == "stdlib"
                self.add(walk_real(a.name.split(".") if top else [a.name]))
            self.alias[(a.asname or a.name).split(".")[0]] = a.name if a.asname else a.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if node.level:  # relative: the project's own package, but not its tests (`from .tests import test_x`: the
            words = [*mod.split("."), *(a.name for a in node.names)]  # module pytest already imported, R48s-2)
            if any(w in ("tests", "testing", "conftest") for w in words):
                self.add(f"imports test code ({'.' * node.level}{mod})")
            return
        kind = self.ctx.import_kind(mod)
        for a in node.names:
            if kind is None and a.name != "*" and self.ctx.import_kind(f"{mod}.{a.name}") == "stdlib":
                self.alias[a.asname or a.name] = f"{mod}.{a.name}"  # `from importlib import resources`: the module
                continue
            if kind is None:
                self.add(f"import {mod}")
            if a.name == "*":
                members = getattr(real(mod), "__all__", None) if kind == "stdlib" else []
                if members is None or any(walk_real([*mod.split("."), m]) for m in members):
                    self.add(f"import * from {mod}")
                continue
            self.alias[a.asname or a.name] = f"{mod}.{a.name}"
            if kind is not None:
                self.add(self._check_origin(mod, [a.name]))

    # ------------------------------------------------------------------ scopes

    def visit_Module(self, node: ast.Module) -> None:
        self.getattr_names = classes_with_getattr(node, self.ctx.getattr_classes)
        self.renames = bool({"__name__", "__package__"} & bound_anywhere(node))  # any statement, any scope
        self.stored = assigned_attributes(node)
        self.constants = module_constants(node)
        self.module, self.whitelists, self.hooks = node, module_whitelists(node), module_functions(node)
        self.main_block = main_block(node) if not self.renames else set()
        self.imported = {a.asname or a.name.split(".")[0] for n in ast.walk(node)
                         if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        classes = [n.name for n in node.body if isinstance(n, ast.ClassDef)]  # bound once, by their class statement
        self.own_classes = {c for c in classes if classes.count(c) == 1 and c not in bound_in(
            [n for n in node.body if not isinstance(n, ast.ClassDef)])}
        self.docstrings = {id(b[0].value) for n in ast.walk(node) if isinstance(n, (
            ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and (b := n.body) and isinstance(
            b[0], ast.Expr) and isinstance(b[0].value, ast.Constant) and isinstance(b[0].value.value, str)}
        self._scoped("module", bound_in(node.body), node.body)

    def _annotation(self, node: ast.AST | None) -> None:
        """Annotations are code: `typing.get_type_hints` and `functools.singledispatch` evaluate the strings in
        them, so a string annotation is parsed and scanned like the rest."""
        if node is None:
            return
        self.visit(node)
        if isinstance(node, (ast.Call, ast.JoinedStr)) or (isinstance(node, ast.BinOp) and any(
                isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node))):
            # text built at definition time: the string singledispatch/get_type_hints evaluate is never seen here
            self.add("computes an annotation at definition time (evaluated later as code)")
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
                    self.visit(ast.parse(sub.value.strip(), mode="eval"))

    def _arguments(self, args: ast.arguments) -> None:
        for d in [*args.defaults, *args.kw_defaults]:
            if d is not None:
                self.visit(d)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]:
            self._annotation(a.annotation)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node.name.startswith("pytest_"):
            self.add(f"defines hook {node.name}")
        for d in node.decorator_list:
            self.visit(d)
        self._arguments(node.args)
        self._annotation(node.returns)
        self.forwarding.append(forwarded_name(node))
        first = (node.args.posonlyargs + node.args.args)[:1]
        method = bool(self.scopes) and self.scopes[-1][0] == "class"
        self.receivers.append(first[0].arg if first and method else None)
        self.functions.append(node)
        self._scoped("function", params(node.args) | bound_in(node.body), node.body)
        self.functions.pop()
        self.receivers.pop()
        self.forwarding.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._arguments(node.args)
        self.forwarding.append(None)
        self.functions.append(node)
        self._scoped("function", params(node.args), [node.body])
        self.functions.pop()
        self.forwarding.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for n in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(n)
        if any(isinstance(stmt, (ast.Import, ast.ImportFrom)) for stmt in node.body):
            self.add(f"imports inside the body of class {node.name}")  # `Cls.os.system`: a module no alias follows
        own, matched = declared_names(node)
        forwarding = node.name in self.getattr_names
        if forwarding:  # a forwarding `__getattr__` hands a library's lookup (`dataclasses.replace`, `copy`) of each
            self._literal_names(f"a field of {node.name}", [n for n in own if n not in self.stored])  # unset
        self._literal_names("__match_args__", matched)  # declared name to another object (R58-3); a class
        if not literal_declarations(node, forwarding):  # pattern reads these from any object it matches
            self.add(f"class {node.name} declares __match_args__ or __slots__ that are not literal names")
        self._scoped("class", bound_in(node.body), node.body)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        self._literal_names("a class pattern", node.kwd_attrs)  # `case object(_module=m)` is `m = x._module`
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        self._crash_printer(node)
        if isinstance(node.value, ast.Attribute) and self._dotted(node.value) in A.MUTABLE_STATE:
            self.add(f"aliases {self._dotted(node.value)} (writes through the alias are not followed)")
        for target in node.targets:  # `f.__annotations__[k] = text`: code that singledispatch/inspect evaluate
            inner = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(inner, ast.Attribute) and inner.attr == "__annotations__":
                self.add("writes __annotations__ (annotation strings are evaluated as code)")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._annotation(node.annotation)
        for n in (node.target, node.value):
            if n is not None:
                self.visit(n)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        names = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        self._scoped("function", names, list(ast.iter_child_nodes(node)))

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension  # type: ignore[assignment]

    def visit_Global(self, node: ast.Global) -> None:
        if "__builtins__" in node.names:
            self.add("global __builtins__")
        for name in sorted(set(node.names) & A.IMPORT_METADATA):  # a function that rebinds it for the module
            self.add(f"rebinds or mutates the module's import metadata {name}")

    # ------------------------------------------------------------------ attributes and names

    def _attr_chain(self, base: ast.AST, parts: list[str], *, store: bool, vetted_last: bool = False) -> None:
        """Judge `base.parts...`: through the import it starts from, or step by step on any other object."""
        origin = self._origin(base)
        if origin is not None:
            self.add(self._check_origin(origin, parts))
            if store and not self.ctx.is_own(origin):
                self.add(f"patches {'.'.join([origin, *parts])}")  # another library's object (monkeypatching)
        else:
            local = self._local(base)
            maker = self._dotted(base.func) if isinstance(base, ast.Call) else None
            for i, step in enumerate(parts):
                if (step == "__dict__" and i == 0 and local) or (vetted_last and i == len(parts) - 1):
                    continue
                found = step_finding(step) or (f"introspects .{step}" if step in A.DUNDER_LOOKUPS else None)
                if not found and step in ROUTE_STEPS:  # a module reached as some object's attribute
                    found = f"reaches .{step} of an object that is no imported module"
                if not found and i == 0 and _private(step) and maker is not None and not self.ctx.is_own(maker):
                    found = f"reads private .{step} of what {maker}() returned"  # a library object's internals
                if found:
                    self.add(found)
                    break
            self.visit(base)
        last = parts[-1] if parts else ""
        if (store and last in A.STORE_WORDS) or (store and last.startswith("__") and last.endswith("__") and last not in A.DUNDERS_STORABLE):
            self.add(f"assigns .{last}")

    def _literal_module_read(self, node: ast.AST, key: ast.AST | None) -> None:
        """`"numpy" in sys.modules` (is a library already loaded?) is a yes or no, nothing reachable: allowed. Any
        read that returns a module (`.get`, `[...]`) stays a finding: `sys.modules["os"].system` and
        `sys.modules.get("calc").f = g` are a process and a monkeypatch by another name."""
        if self._dotted(node) == "sys.modules" and isinstance(key, ast.Constant) and isinstance(key.value, str) \
                and not key.value.startswith("_"):
            self.vetted.add(id(node))

    def visit_Compare(self, node: ast.Compare) -> None:
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            self._literal_module_read(node.comparators[0], node.left)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if id(node) in self.vetted:
            return
        base, parts = chain(node)
        dotted = self._dotted(node)
        if dotted in _CALLED_ONLY and id(node) not in self.called:
            self.add(f"passes {dotted} around")
        elif dotted in A.STRICT_ATTRS and not self.ctx.is_own(dotted) and real(dotted) is not MISSING:
            self.add(f"passes module {dotted} around")  # `R = urllib.request`: `R.urlopen` is past STRICT_ATTRS
        self._attr_chain(base, parts, store=isinstance(node.ctx, (ast.Store, ast.Del)),
                         vetted_last=id(node) in self.called)

    def _dotted(self, node: ast.AST) -> str | None:
        base, parts = chain(node)
        origin = self._origin(base)
        return ".".join([origin, *parts]) if origin is not None else None

    def _is_module(self, origin: str) -> bool:
        if self.ctx.is_own(origin):
            return self.ctx.is_own_module(origin)
        obj = real(origin.split(".")[0])
        for step in origin.split(".")[1:]:
            child = getattr(obj, step, MISSING)
            obj = real(f"{obj.__name__}.{step}") if child is MISSING and isinstance(obj, types.ModuleType) else child
        return isinstance(obj, types.ModuleType)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in A.PYTEST_WORDS:
            self.add(f"pytest internals {node.id}")
        if node.id in A.IMPORT_METADATA and id(node) not in self.done and (
                node.id == "__path__" or not isinstance(node.ctx, ast.Load)):
            self.add(f"rebinds or mutates the module's import metadata {node.id}")  # where its code loads from
        if id(node) in self.done or not isinstance(node.ctx, ast.Load):
            return
        origin = self.alias.get(node.id)
        if origin is not None:
            self.add(self._check_origin(origin, []))
            if origin in _CALLED_ONLY:
                self.add(f"passes {origin} around")
            elif self._is_module(origin):
                self.add(f"passes module {origin} around")  # its attributes could no longer be followed
        elif self._is_builtin(node.id):
            if node.id not in A.BUILTINS_ALLOWED:
                self.add(f"uses builtin {node.id}")
            elif node.id in A.CALL_ONLY:
                self.add(f"passes {node.id} around")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            dotted = self._dotted(node.value)
            if dotted is not None and not self.ctx.is_own(dotted):
                self.add(f"mutates {dotted}")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
        if isinstance(value, str):
            kind = "bytes" if isinstance(node.value, bytes) else "string"
            for m in set(_STRINGS.findall(value)) if value not in _SKIPPED else ():  # a directory name or glob to
                # skip (R66-FP-pycache: an `os.walk` prune; R72-FP3: `ignore_patterns("*.pyc")`); a path into one, or
                # a `.pyc` file, stays a finding
                if not (id(node) in self.docstrings and _PROSE.fullmatch(m.strip())):  # a docstring's words
                    self.add(f"{kind} {m.strip()!r}")  # ("a value passed in wins", R67-FP2) are prose
            if format_reach(value):
                self.add(f"{kind} reaches attributes in a format field")
            elif "{" in value:
                self._literal_names("a format field", list(template_steps(value)))

    # ------------------------------------------------------------------ calls

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("sorted", "min", "max") and self._is_builtin(func.id):
            self.sort_keys.update(id(k.value) for k in node.keywords if k.arg == "key")  # `sorted(rows, key=...)`
        if any(k.arg == "eval_str" for k in node.keywords):  # evaluates annotation strings: an eval by another name
            self.add("passes eval_str= (annotation strings evaluated as code)")
        if isinstance(func, ast.Name) and func.id not in self.alias and self._is_builtin(func.id) and \
                func.id in ("getattr", "setattr", "delattr", "hasattr", "vars", "type", "open"):
            self.done.add(id(func))
            self._builtin_call(func.id, node)
        dotted = self._dotted(func)
        self._honest_idiom(node, func, dotted)
        if dotted in A.STRING_RESOLVERS:
            self.called.add(id(func))
            self.done.add(id(func))
            names = self._resolver_names(node.args if dotted.endswith("attrgetter") else node.args[:1])
            names = names or (self._guarded_names(node, dotted) if dotted != "importlib.import_module" else None)
            if dotted == "importlib.import_module":
                self.add(self._own_import(node))
            elif not names and not self._sealed_sort_key(node, dotted):
                self.add(f"calls {dotted}() with a computed name")
            else:
                self._literal_names(dotted, names or [])
        elif dotted == "io.open":
            self._open(node)
        elif dotted == "importlib.util.find_spec" and not (node.args and isinstance(node.args[0], ast.Constant)):
            # whether a named dependency is installed; a computed name asks about anything: the test runner
            # itself ("py" + "test", R76-21), which every grading run has and a user's runtime may not
            self.add("calls importlib.util.find_spec() with a computed name")
        elif dotted == "inspect.getmembers":
            self.called.add(id(func))
            self.done.add(id(func))
            self.add(self._members(node))
        elif dotted in _FD_OPENERS or dotted == "pkgutil.get_data":
            self.called.add(id(func))
            self.done.add(id(func))
            self.add(self._own_data(node) if dotted == "pkgutil.get_data" else self._fd_from(node, dotted))

        elif dotted in A.NAME_LIST_COPIERS:
            self._copied_names(dotted, node)
        if isinstance(func, ast.Attribute) and func.attr in A.DUNDER_LOOKUPS - {"__dict__"}:
            self._lookup(func, node)
        if isinstance(func, ast.Attribute) and func.attr in A.REDUCERS and not _is_super(func.value):
            self.add(f"calls .{func.attr}() (hands out a callable and its arguments: getattr under another name)")
        if isinstance(func, ast.Attribute) and func.attr in ("format", "format_map") and computed(func.value):
            self.add(f"calls .{func.attr}() on a computed template")  # format fields reach attributes by name
        if dotted in FIELD_FACTORIES:
            self._factory(node, dotted)
        if _brace_template_not_literal(node):
            self.add("passes a non-literal `{`-style template to a formatter")  # logging's `{` style is str.format
        self.generic_visit(node)

    def _factory(self, node: ast.Call, dotted: str) -> None:
        """A class made by a factory: its field names are literal (R59-3: computed names and a forwarding base made
        `dataclasses.replace` a `getattr` by any name), and judged like attributes on a forwarding base."""
        names = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg in ("fields", "field_names", "attrs")), None)
        if names is None:
            return
        literal = factory_names(names)
        if literal is None:
            self.add(f"calls {dotted}() with field names that are not literal")
            return
        bases = next((k.value for k in node.keywords if k.arg == "bases"), None)
        if bases is not None and any(named(b) in self.getattr_names for b in ast.walk(bases)):
            self._literal_names(f"a field of a {dotted}() class", literal)

    def _literal_names(self, what: str, names: list[str]) -> None:
        """Names reached through a string cross any object's boundary unseen: private members and modules reached
        as attributes are findings there (code that needs its own private attribute writes `obj._x`)."""
        for name in names:
            for step in name.split("."):
                found = step_finding(step) or (f"introspects .{step}" if step in A.DUNDER_LOOKUPS else None)
                if not found and (_private(step) or step in ROUTE_STEPS):
                    found = f"reaches .{step} through a string"
                if found:
                    self.add(f"{found} (via {what})")

    def _lookup(self, func: ast.Attribute, node: ast.Call) -> None:
        """`super().__getattr__(name)` is ordinary; `object.__getattribute__(x, name)` is getattr by another name."""
        base = func.value
        if _is_super(base) and not base.args and not base.keywords:  # zero-argument super(): the method's own object
            self.called.add(id(func))
            return
        if _is_super(base):  # super(T, obj) reads any object's attributes: a literal name only, checked like getattr
            own = base.args[1:2] and isinstance(base.args[1], ast.Name) and self.receivers and \
                base.args[1].id == self.receivers[-1]
            if func.attr in A.DUNDER_LOOKUPS and not own:  # the base slot itself, on another object: past any
                self.add(f"calls super(...).{func.attr} on an object not its own")  # class's reader (R64-3)
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                self.called.add(id(func))
                self._literal_names(func.attr, [node.args[0].value])
            return
        builtin_base = isinstance(base, ast.Name) and base.id in ("object", "type") and self._is_builtin(base.id)
        if builtin_base and func.attr in A.DUNDER_LOOKUPS and not (
                node.args and isinstance(node.args[0], ast.Name) and self.receivers and
                node.args[0].id == self.receivers[-1]):  # the generic slot on another object: past its class's own
            self.add(f"calls {base.id}.{func.attr} on an object not its own")  # reader (R65-14: a watched module)
        args = node.args[1:] if builtin_base else node.args
        if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            self.called.add(id(func))
            self._literal_names(func.attr, [args[0].value])
            if builtin_base and node.args:  # object.__getattribute__(os, "sys") is os.sys
                receiver = node.args[0]
                if isinstance(receiver, ast.Name) and receiver.id in self.alias:
                    self.done.add(id(receiver))
                base, parts = chain(receiver)
                self._attr_chain(base, [*parts, args[0].value], store=func.attr in ("__setattr__", "__delattr__"))

    def _open(self, node: ast.Call) -> None:
        first = node.args[0] if node.args else None
        fd = isinstance(first, ast.Constant) and isinstance(first.value, int) and not isinstance(first.value, bool)
        fd = fd or (isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and first.func.attr == "fileno")
        if fd or any(k.arg in ("opener", "closefd") for k in node.keywords):
            self.add("calls open() on a file descriptor")

    def _own_import(self, node: ast.Call) -> str | None:
        """`importlib.import_module` of one of the project's own modules: the name starts with a literal
        `own_package.` (`"pkg.lang_%s" % lang`, `f"pkg.plugins.{name}"`), or is relative to `__package__`. Any other
        name may be any module (`"o" + "s"`): a finding (R54-FP5)."""
        args = node.args
        first = args[0] if args else None
        if isinstance(first, ast.BinOp):  # `a + b + c` is `(a + b) + c`: its two leftmost terms
            while isinstance(first.left, ast.BinOp) and isinstance(first.op, ast.Add):
                first = first.left
            first, second = first.left, first.right
        elif isinstance(first, ast.JoinedStr) and first.values:
            first, second = first.values[0], first.values[1] if len(first.values) > 1 else None
        else:
            second = None
        text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
        anchor = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
        # relative to this module's own package or name (`import_module("." + name, __name__)` in a package's
        # `__init__`, R58-FP2), or `f"{__name__}.{name}"` (R58-FP3): neither name rebound anywhere in scope
        if text is not None and text.startswith(".") and self._own_name(anchor) and ".." not in text:
            return None
        if isinstance(first, ast.FormattedValue):
            first = first.value
        if self._own_name(first) and isinstance(second, ast.Constant) and str(second.value).startswith(".") \
                and not str(second.value).startswith(".."):
            return None
        if text is not None and "." in text and self.ctx.is_own(text) and not any(
                part in ("tests", "testing", "conftest") for part in text.split(".")):
            return None
        return "calls importlib.import_module() with a name that is not the project's own module"

    def _fd_from(self, node: ast.Call, dotted: str) -> str | None:
        """`os.write(fd, ...)` with `fd = os.open(...)`, `mmap.mmap(f.fileno(), ...)` with `open(...) as f` (R75-FP):
        the name is bound in this file by such calls only, so the descriptor is one whose open the guard judged.
        A number, a parameter or another object's `.fileno()` may be stdout or the launcher's record: a finding."""
        first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "fileno"), None)
        if dotted == "mmap.mmap" and isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and \
                first.func.attr == "fileno" and not first.args and not first.keywords:
            first = first.func.value
        elif dotted == "mmap.mmap":
            first = None
        if isinstance(first, ast.Name) and self._bound_only_by(first.id, _FD_OPENERS[dotted]):
            return None
        return f"calls {dotted}() on a descriptor not bound from {' or '.join(_FD_OPENERS[dotted])}() in this file"

    def _bound_only_by(self, name: str, openers: tuple[str, ...]) -> bool:
        """Every binding of `name` anywhere in the file is `name = opener(...)` or `with opener(...) as name`."""
        if self.module is None:
            return False

        def opener(value: ast.AST) -> bool:
            if not isinstance(value, ast.Call):
                return False
            f = value.func
            if isinstance(f, ast.Name) and f.id == "open" and f.id not in self.alias:
                return "open" in openers and "open" not in bound_anywhere(self.module)
            return self._dotted(f) in openers

        good, stores = 0, 0
        for n in ast.walk(self.module):
            target, value = (n.targets[0], n.value) if isinstance(n, ast.Assign) and len(n.targets) == 1 else (
                (n.optional_vars, n.context_expr) if isinstance(n, ast.withitem) else (None, None))
            if isinstance(target, ast.Name) and target.id == name and opener(value):
                good += 1
            elif isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
                stores += 1
            elif name in _other_bindings(n):
                return False
        return good > 0 and good == stores

    def _own_data(self, node: ast.Call) -> str | None:
        """`pkgutil.get_data("pkg", "data.json")` (R75-FP): it imports the package it is given, so a literal name of
        the project's own (or `__name__`/`__package__`), never its tests; the resource literal, without `..`."""
        args = node.args
        pkg = args[0] if args else next((k.value for k in node.keywords if k.arg == "package"), None)
        res = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "resource"), None)
        own = self._own_name(pkg) or (
            isinstance(pkg, ast.Constant) and isinstance(pkg.value, str) and self.ctx.is_own(pkg.value) and
            not any(part in ("tests", "testing", "conftest") for part in pkg.value.split(".")))
        plain = isinstance(res, ast.Constant) and isinstance(res.value, str) and not res.value.startswith("/") and \
            ".." not in res.value.replace("\\", "/").split("/")
        return None if own and plain else "calls pkgutil.get_data() with a package or resource not literally its own"

    def _own_name(self, node: ast.AST | None) -> bool:
        """`__name__` or `__package__`, bound by the import system and by no statement of this file."""
        return isinstance(node, ast.Name) and node.id in ("__name__", "__package__") and not self.renames

    def _resolver_names(self, args: list[ast.expr]) -> list[str] | None:
        """The names handed to a resolver: literal strings, or a module constant of them (`*ORDER`)."""
        out: list[str] = []
        for a in args:
            inner = a.value if isinstance(a, ast.Starred) else a
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str) and inner is a:
                out.append(inner.value)
            elif isinstance(inner, ast.Name) and inner.id in self.constants and (
                    isinstance(a, ast.Starred) or len(self.constants[inner.id]) == 1):
                self.done.add(id(inner))
                out += self.constants[inner.id]
            else:
                return None
        return out or None

    def _members(self, node: ast.Call) -> str | None:
        """`inspect.getmembers(obj)` is a getattr by every name `dir()` lists, dunders among them; with a
        predicate that keeps only functions, methods or classes it hands back code the runtime guard watches
        (`__globals__`, `__self__` reads are heard) and no slot wrapper (R65-FP-members: a handler's commands)."""
        pred = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "predicate"),
                                                            None)
        if pred is not None and self._dotted(pred) in _MEMBER_PREDICATES and len(node.args) + len(node.keywords) == 2:
            return None
        return "calls inspect.getmembers() without a function, method or class predicate (a getattr of every name)"

    def _copied_names(self, dotted: str, node: ast.Call) -> None:
        """`functools.update_wrapper`/`wraps` read each `assigned` name off the wrapped object and set it on the
        wrapper: a getattr/setattr by the names handed in. Literal tuples of names are judged as those attributes
        are (R65-FP-wraps: `assigned=("__module__", "__name__", "__doc__")`); names built at run time are not."""
        lists = [*node.args[2 if dotted.endswith("update_wrapper") else 1:],
                 *(k.value for k in node.keywords if k.arg in ("assigned", "updated"))]
        names: list[str] = []
        for value in lists:
            if not (isinstance(value, (ast.Tuple, ast.List)) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)):
                self.add(f"calls {dotted}() with its own attribute names (getattr/setattr under another name)")
                return
            names += [e.value for e in value.elts]  # type: ignore[attr-defined]
        self._literal_names(dotted, names)

    def _local_method_result(self, node: ast.AST) -> bool:
        """What a method of a plain local object returned (`vars(parser.parse_args(argv))`, the argparse
        documentation's idiom, R64-FP2): no module of an import and no builtin's result (a module a library call
        hands back keeps `vars()` refused: `vars(getattr(os, "path"))` is every member past the allowlist). A test
        module reached that way is heard at run time (its `__dict__` read)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return False
        while isinstance(node, (ast.Call, ast.Attribute)):  # `make_parser().parse_args(argv)`: calls and public
            if isinstance(node, ast.Attribute) and (step_finding(node.attr) or node.attr.startswith("_")):
                return False  # attributes down to a plain local name
            node = node.func if isinstance(node, ast.Call) else node.value
        return self._local(node)

    def _honest_idiom(self, node: ast.Call, func: ast.AST, dotted: str | None) -> None:
        """Round 74's honest idioms of otherwise refused names, each in the one shape that reads nothing more:
        `json.dumps(x, default=vars)` (FP33), `typing.get_type_hints(C)` of a class the module defines (its
        annotations are scanned here: FP6), `globals().get(f"op_{name}")` by a dispatch name (FP41),
        `string.Formatter().parse(template)` (parsing only: no field is looked up, FP48) and
        `pkgutil.iter_modules(__path__)` (the package's own modules, FP49)."""
        vet = []
        if dotted in ("json.dump", "json.dumps", "json.JSONEncoder"):
            vet = [k.value for k in node.keywords if k.arg == "default" and isinstance(k.value, ast.Name) and
                   k.value.id == "vars" and self._is_builtin("vars")]
        elif dotted == "typing.get_type_hints" and len(node.args) == 1 and not node.keywords and isinstance(
                node.args[0], ast.Name) and node.args[0].id in getattr(self, "own_classes", ()):
            vet = [func]
        elif dotted == "pkgutil.iter_modules" and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and \
                node.args[0].id == "__path__" and not node.keywords:
            vet = [func, node.args[0]]
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and not func.value.args and \
                not func.value.keywords:
            inner = func.value.func
            if (func.attr == "parse" and self._dotted(inner) == "string.Formatter") or (func.attr == "get" and isinstance(inner, ast.Name) and inner.id == "globals" and \
                    self._is_builtin("globals") and node.args and _dispatch(node.args[0])):
                vet = [inner]
        for n in vet:
            self.done.add(id(n))
            self.vetted.add(id(n))

    def _guarded_names(self, node: ast.Call, dotted: str) -> list[str] | None:
        """The names a resolver (`operator.attrgetter`/`methodcaller`) handed a computed name can ever get, where
        the name is checked against a whitelist first (FP29: `if op not in ALLOWED: raise ValueError(op)` then
        `methodcaller(op)`): each name argument is a parameter of the enclosing function that nothing in it
        rebinds, and a statement of the function's own body before the call leaves it (`raise`/`return`) unless
        the name is in a literal container of strings - written in the check itself, or a module-level name bound
        once to one that nothing can add to (`_whitelist`). Those names are then judged as literal ones are: a
        whitelist holding `"__class__"` is a finding. A name that is no whitelisted one never reaches the
        resolver, so a name built at run time (`"_" * 2 + "globals__"`) gains nothing. (A `str` subclass that
        answers `in` for any text is a finding of its own: `_answering_values`.) A plain parameter without such a
        check is a computed name - whoever calls the function chooses it, the patch's own code included - unless
        only the tests can call the function (`_sealed_sort_key`, FP23)."""
        fn = self.functions[-1] if self.functions else None
        args = node.args if dotted.endswith("attrgetter") else node.args[:1]
        if not args or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        out: list[str] = []
        for arg in args:
            if not (isinstance(arg, ast.Name) and unbound_parameter(fn, arg.id)):
                return None
            names = self._whitelist(guard_container(fn, arg.id, node))
            if names is None:
                return None
            out += names
        return out or None

    def _sealed_sort_key(self, node: ast.Call, dotted: str) -> bool:
        """FP23: `sorted(rows, key=operator.attrgetter(column))` in `def sort_by(rows, column)`, a function only the
        tests can call. Where the patch's code can call the function it chooses the name (a computed one, built at
        run time), and a row of its own whose attribute compares with the others' (`__lt__`) hands it what the
        others hold under that name; so the function must be out of the patch's reach: a top-level function of
        this file, undecorated, bound once, whose name this file never reads and no other changed file, no other
        code of the project and no test (other than by calling it: `_handed_of`) spells, with no string beginning
        its name (a dispatch lookup) and no whole-namespace read (`vars()`, `__dict__`, `globals()`,
        `inspect.getmembers`) in any changed file, nor one in the project's other code (a registry of a module's
        functions would hand it on unnamed). The name is a parameter nothing rebinds, and what the getter
        reads goes only to the builtin sort's comparisons (`key=` of sorted/min/max), never to code of the patch's
        (a `.sort` method may be the patch's own). So a name the tests hand in reads what the tests' rows hold."""
        fn = self.functions[-1] if len(self.functions) == 1 else None
        arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if not (dotted == "operator.attrgetter" and id(node) in self.sort_keys and isinstance(arg, ast.Name)
                and isinstance(fn, ast.FunctionDef) and not fn.decorator_list and fn.name in self.hooks
                and [kind for kind, _ in self.scopes] == ["module", "function"] and unbound_parameter(fn, arg.id)):
            return False
        assert self.module is not None
        name = fn.name
        words, _ = words_of(self.module)
        return not (not only_named(self.module, name) or {"vars", "__dict__", "globals", "getmembers"} & words
                    or self.ctx.wholesale or name in self.ctx.shared or {name, "**"} & self.ctx.reached
                    or {name, "*"} & self.ctx.handed or self._spelled_begins(name))

    def _whitelist(self, container: ast.expr | None) -> list[str] | None:
        """The names of a whitelist: a literal container written in the check itself (evaluated afresh each
        time), or a module-level name bound once to one - immutable (a tuple, a frozenset), or a set or list
        no code can reach but the check (`_sealed_whitelist`). A local or parameter of that name is no whitelist."""
        found = literal_container(container)
        if found is not None:
            return found[0]
        if not isinstance(container, ast.Name) or container.id not in self.whitelists or any(
                container.id in names for kind, names in self.scopes if kind != "module"):
            return None
        names, frozen = self.whitelists[container.id]
        return names if frozen or self._sealed_whitelist(container.id) else None

    def _sealed_whitelist(self, name: str) -> bool:
        """A mutable module-level whitelist no code of the patch can add a name to: no code reaches the set
        object but the file's own `in` tests. Reaching it takes its name (this file's reads other than `in`
        tests: `only_tested`; an identifier another changed file spells, `strops.ALLOWED.add(...)`; one the
        project's other code reaches as an attribute or import), a string that begins its name (`getattr(m,
        "ALL" + x)`, `vars(m)["ALLOWED"]`), or a whole namespace read (`vars(m)`, `m.__dict__`, `globals()`:
        walking every value, a set among them) in any changed file."""
        assert self.module is not None
        names, _ = words_of(self.module)
        return only_tested(self.module, name) and not ({"vars", "__dict__", "globals"} & names) and not (
            self.ctx.wholesale or name in self.ctx.shared or name in self.ctx.reached or self._spelled_begins(name))

    def _spelled_begins(self, name: str) -> bool:
        """A string of a changed file, or of the project's other code (`'word` in `ScanContext.reached`), that
        can name `name` for a lookup (`begins`): the project's unchanged `getattr(table, "sort_" + how)` hands a
        caller's arguments to whatever it finds."""
        return any(begins(name, t) for t in self.ctx.texts) or any(
            w.startswith("'") and begins(name, w[1:]) for w in self.ctx.reached)

    def _own_module_dispatch(self, target: ast.AST, key: ast.AST) -> bool:
        """`getattr(<one of the project's own modules>, f"area_{kind}", None)` (FP30: dispatch by name in the
        project's module, `import a23lib.shapes as me`). The dispatch word (`_dispatch`) keeps the name off
        dunders, private members, frames and modules reached as attributes; what else a project module holds
        under `area_...` is its own functions and values, which the same chain spelled (`me.area_square`) reaches
        too, judged by name (`_check_origin`). A module no import of the project's own names (a test module: an
        import of one is a finding) is never the target. One condition: no import of this file binds a name
        starting with the word (`import os as area_os` would hand out a module whose attributes are no longer
        followed), nor a star import (names it binds are unknown)."""
        origin = self._origin(target)
        word = dispatch_prefix(key)
        return origin is not None and word is not None and self.ctx.is_own_module(origin) and \
            "*" not in self.imported and not any(n.startswith(word) for n in self.imported)

    def _crash_printer(self, node: ast.Assign) -> None:
        """`sys.excepthook = _hook` in a command-line `main()` (FP32: short "error: ..." lines for users instead of
        a traceback), or under `if __name__ == "__main__":`. The interpreter calls `sys.excepthook` only for an
        exception nothing caught at a program's top: the launcher catches every exception and ends with
        `os._exit`, and `threading` calls it only when its own hook (pytest's) fails, with that failure. So in the
        tests' process the hook never runs, and in a program the tests start it prints that program's own crash,
        which the patch's code decides anyway. Conditions: the hook is a top-level function of this file that
        nothing else binds (its body is scanned like the rest; a lambda or another module's callable stays a
        finding), and it is installed by the program's entry point, not at import (every importer's process would
        carry it). `threading.excepthook` and `sys.unraisablehook` stay findings: both run in the tests' process,
        where a hook would hear (and could swallow) a test's failure on another thread."""
        target, value = (node.targets[0], node.value) if len(node.targets) == 1 else (None, None)
        if target is None or self._dotted(target) != "sys.excepthook" or not isinstance(value, ast.Name):
            return
        fn = self.functions[-1] if self.functions else None
        in_main = id(node) in self.main_block or (isinstance(fn, ast.FunctionDef) and fn.name == "main" and [
            kind for kind, _ in self.scopes] == ["module", "function"])  # the module's own `main`, not a method
        local = any(value.id in names for kind, names in self.scopes if kind != "module")
        if in_main and value.id in self.hooks and not local:
            self.vetted.add(id(target))

    def _builtin_call(self, name: str, node: ast.Call) -> None:
        """getattr/setattr/delattr with literal names only (judged like the attribute); vars() of a local object;
        type() with one argument; open() of a path, never of a file descriptor."""
        args = node.args
        if name == "open":
            self._open(node)
        elif name == "type" and len(args) == 3:
            self.add("calls type() with three arguments")
        elif name == "vars" and (len(args) != 1 or not (self._local(args[0]) or self._local_method_result(args[0]))):
            self.add("calls vars() on a module or the caller's scope")
        elif name in ("getattr", "setattr", "delattr", "hasattr"):
            if len(args) < 2 or not (isinstance(args[1], ast.Constant) and isinstance(args[1].value, str)):
                forwards = name == "getattr" and len(args) >= 2 and isinstance(args[1], ast.Name) \
                    and self.forwarding and args[1].id == self.forwarding[-1]
                own = name in ("setattr", "delattr") and isinstance(args[0], ast.Name) and args[0].id == "self" and \
                    bool(self.receivers) and self.receivers[-1] == "self"  # a method setting its own instance's
                # fields by name (`for k, v in {**DEFAULTS, **kw}.items(): setattr(self, k, v)`: round 74's FP3)
                if name != "hasattr" and not forwards and not own and not (name == "getattr" and _dispatch(args[1])):
                    self.add(f"calls {name}() with a computed name")
                elif name == "getattr" and _dispatch(args[1]) and self._own_module_dispatch(args[0], args[1]):
                    self.done.add(id(args[0]))  # the module is no value passed around here
                return
            if isinstance(args[0], ast.Name) and args[0].id in self.alias:
                self.done.add(id(args[0]))  # judged with its attribute below, not as a module passed around
            if name != "hasattr":
                base, parts = chain(args[0])
                self._attr_chain(base, [*parts, args[1].value], store=name != "getattr")


class TimedFeatures(Features):
    """Features with the scan's time bound checked every 4096 nodes: used for large files only (the check costs
    a Python call per node), so a file built to be slow to walk cannot hold the host past the bound."""

    def __init__(self, ctx: ScanContext, deadline: float) -> None:
        super().__init__(ctx)
        self.deadline = deadline
        self._visits = 0

    def visit(self, node: ast.AST) -> None:
        self._visits += 1
        if not self._visits & 4095 and time.monotonic() > self.deadline:
            raise ScanTooCostly("the changed files took longer than the scan's time bound to audit")
        super().visit(node)
