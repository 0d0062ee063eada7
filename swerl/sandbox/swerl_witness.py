"""The launcher's witness plugin and type-strict assertions (loaded by path beside `swerl_guard.py`; stdlib only).

The witness is the outermost wrapper of `pytest_pyfunc_call` and `pytest_runtest_makereport`: it
sees whether the test function really ran and raised, and the final report of each phase, and
sends each outcome out at once as a signed record line. Between collection and the end of the
session the runner must stay as it was: the namespaces of pytest's, pluggy's and unittest's modules
and classes (a fingerprint), and every hook implementation's function (checked at every report),
so a report rewritten by a swapped hook, a test that "passed" although its function raised or never
ran, or a runner object changed in between is tampering.

Asserts in test files are rewritten so `==`/`!=`, orderings, `in`/`not in` and chained comparisons are decided
here (`compare`, `order`, `contains`, `chain`): a value commits to its own builtin value before it is asked, and a
value that equals two different values (random probes, or the other side and a changed copy of it) is a cheat no
honest result can be; so is a builtin subclass whose comparison the patch defined.
"""

import ast
import enum
import sys

_ENUM = enum.Enum
_getframe = sys._getframe  # bound before any test runs: a test may take `sys._getframe` away (attrs' own do)
_EXACT = (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset, bytearray, range)
_STATE: dict = {}  # "guard": the Guard; "local": per-thread left operand


_METHOD = type((lambda: None).__get__(0))  # a bound method
_ModuleType = type(ast)  # (`type(sys)` is the guard's watched class once it is installed)
# the classes a module has here: the plain one, and the guard's watched classes of `sys` and the test modules (whose
# attribute reads it hears); exact classes, as `type(m) is ModuleType` was: a subclass the patch wrote is no module
_MODULE_CLASSES = tuple(getattr(sys.modules.get("_swerl_guard") or sys.modules.get("swerl.sandbox.swerl_guard"),
                                "MODULE_CLASSES", None) or (_ModuleType,))


def _space(obj, _dict=_ModuleType.__dict__["__dict__"].__get__, _classes=_MODULE_CLASSES):
    """A module's namespace read through the descriptor itself (the guard hears `vars()` of a test module from
    whatever code is on the stack: the witness's own reads are no one's), else `vars()`."""
    return _dict(obj) if type(obj) in _classes else vars(obj)


def _among(t, types: tuple) -> bool:
    """`t` is one of `types`, by identity: `t in types` asks `==`, which a metaclass the patch wrote answers (a
    class equal to `float` made the comparison take any value for a builtin)."""
    return any(t is e for e in types)
# Library types whose whole point is to equal many values (a test may compare with them): never probed.
# pytest's approx base moved: `_pytest.python_api.ApproxBase` up to 8.x, `_pytest.approx.Approx` from 9 (shown as
# `pytest.Approx`); every name any task's pytest may carry is listed, a name missing from one version is skipped
_CARRIED: dict = {}  # id(class) -> (a weak reference to it, {dunder: (the witness's wrapper, the class's own)})


def _ns(c, _raw=type.__dict__["__dict__"].__get__):
    """A class's own namespace as its code made it: a comparison the witness carries (`_carry`) reads as the
    function the class holds under it, so every rule judges the class's code, never the witness's wrapper."""
    own = _raw(c)
    held = _CARRIED.get(id(c))
    if held is None or held[0]() is not c:
        return own
    out = dict(own)
    for k, (wrapper, fn) in held[1].items():
        if out.get(k) is wrapper:
            out[k] = fn
            if fn is None:  # a slot the witness added (an identity `__hash__`): the class holds none
                del out[k]
    return out


_MATCHERS = (("unittest.mock", "_ANY"), ("_pytest.python_api", "ApproxBase"), ("_pytest.approx", "ApproxBase"),
             ("_pytest.approx", "Approx"))
CRITICAL_HOOKS = ("pytest_runtest_makereport", "pytest_pyfunc_call", "pytest_runtest_call", "pytest_runtest_protocol",
                  "pytest_runtest_logreport", "pytest_report_teststatus", "pytest_runtest_setup",
                  "pytest_runtest_teardown", "pytest_sessionfinish")


def _arm(_audit=getattr(sys, "audit", None)) -> None:
    """Tell the guard's hook (its private state) that collection began."""
    if _audit is not None:
        _audit("swerl.arm")


def _record(guard, text: str, _audit=getattr(sys, "audit", None)) -> None:
    """A finding, sent straight to the guard's hook as an audit event (bound when the launcher loaded this file):
    no attribute of any object the tests can reach stands between a finding and the record. Below Python 3.8
    (no hook) it goes through the guard."""
    if _audit is not None:
        _audit("swerl.finding", text)
    else:
        guard.record(text)


# -- the runner must not change -----------------------------------------------------------------------------------
def fingerprint(watch: tuple, known=None) -> dict:
    """Every namespace entry of the runner's modules and of the classes they define, held as the objects themselves
    and compared by identity: no `id()` per entry (each is an audit event), and a rebound entry's old object stays
    alive, so its address cannot be reused by the replacement."""
    fp: dict = {}
    for name, mod in list(sys.modules.items()):
        if mod is None or (known and name in known) or not any(name == w or name.startswith(w + ".") for w in watch):
            continue
        space = dict(_space(mod))
        fp[name] = (mod, space)
        for k, v in space.items():
            if isinstance(v, type) and getattr(v, "__module__", None) == name:
                fp[f"{name}:{k}"] = (v, dict(vars(v)))
    return fp


_ABSENT = object()


def _xfail_by_test(call, guard) -> bool:
    """`pytest.xfail()` called by the protected test file itself (or a fixture of it), not by project code: the
    frame that called pytest's `xfail` is the test's."""
    tb = getattr(getattr(call, "excinfo", None), "tb", None)
    frames = []
    while tb is not None and len(frames) < 500:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for i, f in enumerate(frames):
        home = _space_file(f.f_globals)
        if i and type(home) is str and home.replace("\\", "/").endswith("_pytest/outcomes.py"):
            caller = _space_file(frames[i - 1].f_globals)
            return type(caller) is str and guard.kind(caller) == "test"
    return False


def fingerprint_changes(before: dict, after: dict) -> list:
    """What differs between two fingerprints, ignoring submodules that appeared and pytest's private flags."""
    out = []
    for key, (obj, space) in before.items():
        if key not in after:
            out.append(f"{key} was removed")
            continue
        obj2, space2 = after[key]
        if obj2 is not obj:
            out.append(f"{key} was replaced")
        for attr in set(space) | set(space2):
            if space.get(attr, _ABSENT) is space2.get(attr, _ABSENT) or attr.startswith(("__", "_pytest_")):
                continue
            if (key, attr) in _LAZY and space.get(attr) is None and _made_by(space2.get(attr), obj):
                continue
            if (key, attr) == ("linecache", "getlines") and _doctest_swap(space2.get(attr)):
                continue
            if attr not in space and ":" not in key and (f"{key}.{attr}" in sys.modules or _own_submodule(
                    obj, attr, space2.get(attr))):
                continue  # a submodule imported later (pytester's inner session imports and then forgets one)
            out.append(f"{key}.{attr} was {'added' if attr not in space else 'changed'}")
    return out[:20]


def _own_submodule(pkg, attr: str, value) -> bool:
    """`value` is the package's own submodule `attr`, loaded from the package's own directory."""
    if type(value) not in _MODULE_CLASSES or _space(value).get("__name__") != f"{_space(pkg).get('__name__')}.{attr}":
        return False
    here, there = _module_file(pkg), _module_file(value)
    return type(here) is str and type(there) is str and there.startswith(here.rsplit("/", 1)[0] + "/")


# module globals pytest fills the first time it needs them (`--doctest-modules` makes its doctest runner and
# checker classes inside functions of `_pytest/doctest.py`), after the fingerprint was taken
_LAZY = frozenset({("_pytest.doctest", "RUNNER_CLASS"), ("_pytest.doctest", "CHECKER_CLASS")})


def _doctest_swap(fn) -> bool:
    """doctest's runner puts its own `linecache.getlines` in place while an example runs (and back after): a bound
    method whose function was compiled from the standard library's `doctest.py`."""
    home = _module_file(sys.modules.get("doctest"))
    func = getattr(fn, "__func__", None)
    return bool(home) and type(fn) is _METHOD and getattr(getattr(func, "__code__", None), "co_filename", None) == home


def _made_by(cls, mod) -> bool:
    """`cls` is a class whose own functions were all compiled from `mod`'s file (not one the patch put there)."""
    home = _module_file(mod)
    fns = [v for v in vars(cls).values() if type(v) is type(_among)] if isinstance(cls, type) else []
    return bool(home and fns) and all(f.__code__.co_filename == home for f in fns)


def hook_impls(pm) -> dict:
    """(hook, implementation) -> the function it calls, for the hooks that make a verdict (objects compared by
    identity: no `id()` audit event per implementation at every report)."""
    out = {}
    for name in CRITICAL_HOOKS:
        caller = getattr(pm.hook, name, None)
        for impl in (caller.get_hookimpls() if caller is not None else ()):
            out[(name, impl)] = (impl.function, impl)
    return out


def hook_changes(before: dict, pm, guard) -> list:
    """Implementations swapped since collection began; new ones only from conftest files or libraries."""
    out = []
    now = hook_impls(pm)
    for key, (function, _) in before.items():
        if key not in now:
            out.append(f"hook implementation of {key[0]} removed")
        elif now[key][0] is not function:
            out.append(f"hook implementation of {key[0]} swapped")
    for key, (_, impl) in now.items():
        if key in before:  # checked above; reading `__code__` is an audit event, paid only for new ones
            continue
        code = getattr(impl.function, "__code__", None)
        if code is not None and guard.kind(code.co_filename) in ("changed", "project"):
            out.append(f"hook implementation of {key[0]} registered from {code.co_filename}")
    return out


_CASE_RUNNERS = ("run", "__call__", "debug", "_callTestMethod", "_callSetUp", "_callTearDown", "_callCleanup")


def _home(obj, guard) -> str:
    """The kind of code an object is: a plain function by its module's file, a class (or any other object, by its
    class) by its module's; a class that claims a module without being found there is the patch's."""
    fn = _defined_in(obj)
    if fn is not None:
        return guard.kind(fn)
    t = obj if issubclass(type(obj), type) else type(obj)
    if t in _PROXIES:  # forwards every question (`==`, `len`, `__class__`) to a referent no one here can see
        return "changed"
    if t is type(type.__dict__) and obj is not t:  # a mapping proxy forwards `==`, `len`, `in` to its mapping
        inner = _referents(obj)
        return "lib" if len(inner) == 1 and type(inner[0]) is dict else "changed"
    if not type.__dict__["__flags__"].__get__(t) & (1 << 9):  # a static type: C code made it, no patch did
        return "lib"
    made = _CLASSES.get(id(t))
    if made is not None and made[0]() is t:  # the code whose `class` statement built it, not the module it names
        return made[1]
    name = type.__dict__["__module__"].__get__(t) or ""
    mod = sys.modules.get(name) if type(name) is str else None
    home = _module_file(mod)
    if not isinstance(home, str):
        return "changed"
    found = guard.kind(home)
    if found == "lib":
        return found if _genuine_lib(t, guard) else "changed"
    return _held_code(t, guard, found)


def _has(t: type, name: str) -> bool:
    """`t` or a base defines `name` itself (not its metaclass: an Enum class answers `hasattr(C, "__len__")`)."""
    return any(name in _ns(c) for c in type.__dict__["__mro__"].__get__(t))


def _held_code(t: type, guard, claim: str) -> str:
    """Where a class no `class` statement built (`type(name, bases, ns)`, a namedtuple) lives, by the code its own
    dict holds rather than by the module it names: a function of a changed file makes it changed, one of a test
    file a test's; C code stored for a value question (`__eq__` a set's `__contains__`) was put there by someone
    unknown, so by the patch."""
    kinds, stored = set(), False
    for key, v in list(_ns(t).items())[:200]:
        for _ in range(4):  # staticmethod, classmethod, partialmethod, property, `__wrapped__`
            inner = _unwrapped(v)
            if inner is None:
                break
            v = inner
        home = _defined_in(v)
        if home is not None:
            kinds.add(guard.kind(home))
        elif key in _VALUE_DUNDERS and key != "__hash__" and callable(v) and not issubclass(type(v), type):
            stored = True
    for base in type.__dict__["__mro__"].__get__(t)[1:]:  # what it inherits (a patch base, a rebuilt dataclass)
        if base is not object and type.__dict__["__flags__"].__get__(base) & (1 << 9):
            kinds.add(_home(base, guard))
    if "changed" in kinds:
        return "changed"
    if claim in kinds or "project" in kinds or "test" in kinds:
        return claim if claim in kinds else ("test" if "test" in kinds else "project")
    return "changed" if stored else claim


def _unwrapped(v):
    """The code a library wrapper holds (`__func__`, `.func`, a property's getter, `__wrapped__`), or None."""
    if type(v) is type(_among):
        return None
    for a in ("__func__", "func", "fget", "__wrapped__"):
        try:
            inner = getattr(v, a, None)
        except Exception:
            inner = None
        if inner is not None:
            return inner
    return None


def _code_span(fn):
    """(file, first line, last line) of a plain function's own code, None for anything else. Not one of the frozen
    comparison functions on purpose: its frame belongs to no operand, so the `__code__` read here is the witness's
    own (the guard refuses such a read only where the innermost frame is the patch's)."""
    if type(fn) is not type(_among):
        return None
    return _code_lines(fn.__code__)


def _code_lines(code):
    """(file, first line, last line) of a code object (`co_lines`, or the line table on Pythons before 3.10)."""
    if hasattr(code, "co_lines"):
        lines = [n for _, _, n in code.co_lines() if n is not None]
    else:
        lines, n, tab = [], code.co_firstlineno, code.co_lnotab
        for i in range(1, len(tab), 2):
            n += tab[i] - 256 if tab[i] >= 128 else tab[i]
            lines.append(n)
    return code.co_filename, code.co_firstlineno, max([code.co_firstlineno, *lines])


def _patch_wrote(obj, guard, whole: bool = False):
    """Code the patch wrote: a plain function whose own lines it changed or added (with `whole`: all of them, a
    function it added or rewrote rather than one it fixed a line in); what a library wrapper holds
    (`partialmethod`/`partial` `.func`, `__func__`, a property's getter, `__wrapped__`); a project class or
    instance by the functions of its class. None where the chain ends in C code (`operator.contains`, `next`):
    who put it there decides (`_answers_patch`)."""
    for _ in range(6):
        if type(obj) is type(_among):
            span, home = _code_span(obj), _defined_in(obj)
            if span is None or home is None:
                return False
            if span[0] == home:
                return guard.wrote(*span, whole)
            made = _generated_for(obj) if span[0][:1] == "<" else None
            return guard.kind(home) == "changed" if made is None else guard.wrote(made[2], made[4], made[5], whole)
        if issubclass(type(obj), type):
            return _class_wrote(obj, guard, whole)
        if _home(type(obj), guard) != "lib":
            return _class_wrote(type(obj), guard, whole)
        obj = next((v for v in (getattr(obj, a, None) for a in ("func", "__func__", "fget", "__wrapped__"))
                    if v is not None), None)
        if obj is None:
            return None
    return None


def _generated_for(fn):
    """The record of the class a library compiled `fn` from text for (dataclasses' `__init__` and `__eq__`, attrs',
    a namedtuple's), found by its qualified name in its module: what that code does follows from the class body's
    lines, so the patch wrote it where it wrote those. None where no recorded class goes by that name, and for code
    compiled from a file (its name and module are plain attributes: `functools.wraps` puts a class's on
    `copy.copy`, R49-7)."""
    span = _code_span(fn)  # its `__code__` read in a frame of no operand (this function is a frozen one)
    if span is None or not str(span[0]).startswith("<"):
        return None
    parts = str(getattr(fn, "__qualname__", "")).split(".")[:-1]
    obj = fn.__globals__.get(parts[0], None) if parts and "<locals>" not in parts else None
    for part in parts[1:]:
        obj = _ns(obj).get(part) if issubclass(type(obj), type) else None
    made = _CLASSES.get(id(obj)) if issubclass(type(obj), type) else None
    if made is not None and made[0]() is obj:
        return made
    return _BY_NAME.get((getattr(fn, "__module__", None), ".".join(parts))) if parts else None  # a replaced class's
    # (slots), or code a library compiled with globals of its own (attrs)


def _class_wrote(cls, guard, whole: bool = False) -> bool:
    """A class of a changed file whose whole body the patch wrote (a class it added; `make_dataclass` and
    `types.new_class` record the line that made it), or one of whose own functions it wrote, wrapped or not. A class
    with no functions of its own that the patch did not add (an Enum, a subclass setting a constant) is not."""
    if _home(cls, guard) != "changed":
        return False
    made = _CLASSES.get(id(cls))
    if made is not None and made[0]() is cls and guard.wrote(made[2], made[4], made[5], True):
        return True  # a class the patch added: all of its body (a fixed `class` line, a new base, is no new class)
    fns = []
    for v in list(_ns(cls).values())[:200]:
        for _ in range(4):
            if type(v) is type(_among) or _unwrapped(v) is None:
                break
            v = _unwrapped(v)
        if type(v) is type(_among):
            fns.append(v)
    return any(_patch_wrote(v, guard, whole) for v in fns)  # one without functions: by its body (above)


def _answers_patch(t: type, name: str, guard) -> bool:
    """`t` answers `name` (`__bool__`, `__len__`, `isupper`, `__class__`) by code the patch added or rewrote: its
    own function, C code it stored in its class (`partialmethod(operator.contains, ...)`), or a library base's
    method over state a class the patch wrote controls (`UserList.__len__` reads the `.data` it fills). A
    function the patch only fixed a line in keeps its meaning (a `Result` true when valid whose length counts
    warnings)."""
    mro = type.__dict__["__mro__"].__get__(t)
    for c in mro:
        space = _ns(c)
        if name not in space:
            continue
        if _home(c, guard) != "lib":
            found = _patch_wrote(space[name], guard, True)
            return _class_wrote(c, guard, True) if found is None else bool(found)
        return c is not object and any(_class_wrote(k, guard, True) for k in mro[:mro.index(c)])
    return False


_ORDERING = ("__lt__", "__le__", "__gt__", "__ge__", "__eq__")


def _patch_class(t: type, guard) -> bool:
    """A class the patch added or rewrote a function of (a subclass of a project class that keeps its `__len__` and
    overrides `__iter__` answers its length and its items as the patch chose). A line fixed inside a project
    method keeps its meaning (a `Result` true when valid whose length counts warnings)."""
    return _home(t, guard) == "changed" and _class_wrote(t, guard, True)


def _patch_state(u, guard, question=None) -> bool:
    """u (a project object whose own methods are unchanged) holds an object of a class the patch wrote, or a
    function or class it wrote, anywhere in what it holds: its unchanged `__len__`/`__eq__`/`__contains__` hands
    the answer to that object (`self.nbytes` a patch class whose `__lt__` lies, `self.items` one whose `__len__`
    does, `self._other` a patch function the unchanged `__eq__` calls). Of u's own attributes only those the code
    answering `question` names count (`_read_names`): a new `Unit` a fix keeps beside the `nbytes` that `__eq__`
    reads decides nothing. Below them, everything held counts, as the interpreter holds it (`_referents`: dict
    keys, sets, a mapping proxy's mapping, a partial's arguments, a builtin subclass's storage), at any depth;
    more than `_HOLDS` objects is more than can be read, and counts as the patch's."""
    try:  # a class attribute's lookup (a project descriptor) may raise: then every attribute counts
        names = _read_names(type(u), question, guard) if question else None
    except Exception:
        names = None
    try:
        own = {k: v for k, v in _state_of(u).items() if names is None or k in names}
        held = [] if type.__dict__["__flags__"].__get__(type(u)) & (1 << 9) else _referents(u)  # a C value (a
        # slice, a view): what it holds
    except Exception:  # a `__dict__` the class overrode to hide what its comparison reads
        return True
    if any(callable(v) and type(getattr(type(u), k, None)) is type(_among) for k, v in own.items()):
        return True  # `self._other = {...}.get`: the instance's own code in place of the method `__eq__` calls
    stored = _payload_items(u) or []  # a builtin subclass's storage (a `NamedTuple`'s items), which its
    # comparison reads with no name
    todo = [*own.values(), *held, *stored, *_class_data(type(u), names, guard)]
    return _holds_patch(todo, {id(u)}, guard, question, names)


def _dunder_edited(t: type, question, guard, names=None) -> bool:
    """A line of `t`'s own `question` method (`__eq__`, an ordering, `__len__`), of a dunder the comparison reaches
    through a builtin or an operator it names (`int(self.amount)`: `__int__`), or of what those call, is the
    patch's: a held value asked that answers as the patch chose, like the compared value's own class."""
    wanted = _ORDERING if question in _ORDERING else (question if type(question) is tuple else (question,))
    wanted = (*wanted, *{d for n in (names or ()) if n in _IMPLICIT for d in _IMPLICIT[n]})
    for c in type.__dict__["__mro__"].__get__(t):
        if _home(c, guard) == "lib":
            continue
        for n in wanted:
            fn = _innermost_code(_ns(c).get(n))
            if type(fn) is type(_among) and (_patch_wrote(fn, guard) or any(
                    _patch_wrote(f, guard) for f in _exit_reach(fn, t, 8))):
                return True
    return False


def _class_data(t: type, names, guard) -> list:
    """The values u's project classes hold that the comparison reads through `self` (`self.factor`, a class
    attribute a subclass sets), a library's descriptor object too (what it holds may be the patch's); not their
    functions, properties and slots (`_read_names` opens those), nor a project descriptor."""
    out = []
    for c in type.__dict__["__mro__"].__get__(t):
        if _home(c, guard) == "lib":
            continue
        for k, v in _ns(c).items():
            if (names is None or k in names) and not k.startswith("__") and type(v) not in (*_PLAIN_SLOTS, property) \
                    and not (_home(type(v), guard) != "lib" and hasattr(type(v), "__get__")):  # a project
                # descriptor hands out values, judged as values (a liar it hands out answers where the profiler
                # sees it); a validating descriptor a fix adds is no answer of its own
                out.append(v)
            elif (names is None or k in names) and type(v) in (staticmethod, classmethod):
                out.append(v.__func__)  # `staticmethod(liar)`: what it hands out
    return out


def _holds_patch(todo: list, seen: set, guard, question=None, names=None) -> bool:
    """Some object reachable from `todo` is of a class the patch wrote, or is a function or class it wrote. Walked
    as the interpreter holds objects (`_referents`), at any depth; past `_HOLDS` objects with code of their own, or
    `_READ` in all, it is more than can be read and counts as the patch's."""
    homes: dict = {}
    coded = 0
    while todo:
        p = todo.pop()
        t = type(p)
        if t in _SCALARS or id(p) in seen:
            continue
        seen.add(id(p))
        if len(seen) > _READ:
            return True
        if t in _PROXIES:  # judged as its referent, where that is found
            inner = _forwarded(p, guard)
            if inner is p:
                return True
            todo.append(inner)
            continue
        if issubclass(t, type):  # a class held (`self._kind = _Given`, a held value's own class): it answers
            if _home(p, guard) != "lib":  # with the code it holds and the data it sets (`factor` on a subclass)
                if _class_wrote(p, guard, True):
                    return True
                todo += _class_data(p, None, guard)
            continue
        if t in _MODULE_CLASSES and sys.modules.get(getattr(p, "__name__", None)) is p:
            continue  # an imported module; a module object made at run time is a namespace like any other
        if t not in homes:
            homes[t] = _home(t, guard)
        home = homes[t]
        if home == "changed" and (_class_wrote(t, guard, True) or (question and _dunder_edited(t, question, guard,
                                                                                                 names))):
            return True  # a held value whose own comparison the patch edited answers as the patch chose
        if home == "lib" and callable(p) and _patch_wrote(p, guard, True):  # a function, method, partial
            return True
        if t not in _HOLDERS and t not in _MODULE_CLASSES:
            if home == "lib" and not type.__dict__["__flags__"].__get__(t) & (1 << 9):
                continue  # a C object that holds no values of its own
            coded += 1  # toward `_HOLDS` count only objects with code of their own (not a polygon's tuples)
            if coded > _HOLDS:
                return True
        try:
            todo += _referents(p)
        except Exception:
            return True
    return False


_HOLDS, _READ = 20000, 2_000_000  # objects with code of their own, and objects in all, `_holds_patch` reads
_HOLDERS = (list, tuple, dict, set, frozenset, type(type.__dict__), _METHOD, type(iter([])), type(iter(())), slice,
            type({}.keys()), type({}.values()), type({}.items()), type((lambda x: (lambda: x))(0).__closure__[0]),
            map, filter, zip, enumerate, reversed,
            *(getattr(__import__("collections"), n) for n in ("deque", "defaultdict", "OrderedDict")),
            __import__("functools").partial, type(sys.implementation))  # C types that hold other objects


def _forwarded(value, guard, _record=_record):
    """The value whose code answers for `value`. A weak reference proxy forwards every operation to its referent,
    which is judged in its place where it can be found (the proxy is among the referent's weak references); a
    mapping proxy answers `==`, `len`, `in`, iteration and truth with its mapping's code, while its own type is a
    C type: where the mapping is the patch's (a class it wrote, or a project object holding one), an assertion that
    takes the proxy is tampering."""
    if type(value) in _PROXIES:
        try:
            inner = value.__init__.__self__
            if any(r is value for r in _getweakrefs(inner)):
                return inner
        except Exception:
            pass
        return value
    if type(value) is not type(type.__dict__):
        return value
    inner = _referents(value)
    inner = inner[0] if len(inner) == 1 else None
    home = _home(type(inner), guard) if inner is not None else "changed"
    if type(inner) is not dict and (inner is None or _patch_class(type(inner), guard) or (
            home in ("project", "changed") and _patch_state(inner, guard))):
        _record(guard, f"an assertion took a mapping proxy over a {type(inner).__name__} from code the patch "
                       "changed (it answers with that code, as no type of its own)")
    return value


_getweakrefs = __import__("weakref").getweakrefs


def _referents(obj, _get=__import__("gc").get_referents):
    """What the interpreter holds for obj: the storage of a builtin (or of a builtin subclass), an instance's dict
    and slots, a mapping proxy's mapping, a bound method's object. Not one of the frozen comparison functions, like
    `_code_span`: the guard allows this `gc.get_referents` only here."""
    return _get(obj)


_DYNAMIC = frozenset({"getattr", "vars", "__dict__", "attrgetter", "__getattribute__", "__getattr__", "operator"})


def _read_names(t: type, question, guard):
    """The names the project code answering `question` (a dunder or a tuple of them) for instances of `t` reads,
    with what it calls 8 functions down (`_exit_reach`); None (every attribute) where that code reads attributes
    by computed names or is no project function. Not one of the frozen comparison functions, like `_exit_reach`."""
    names: set = set()
    wanted = _ORDERING if question in _ORDERING else (question if type(question) is tuple else (question,))
    found = False
    for c in type.__dict__["__mro__"].__get__(t):
        space = _ns(c)
        for n in wanted:
            fn = space.get(n)
            fn = fn.__func__ if type(fn) in (staticmethod, classmethod) else fn
            if type(fn) is not type(_among) or _home(c, guard) == "lib":
                continue
            found = True
            for f in [fn, *_exit_reach(fn, t, 8)]:
                names.update(_read_of(f.__code__))
    for _ in range(2):  # `tuple(self)`, `len(self)`, `self - other`: the dunders builtins and operators call
        for dunder in {d for n in names & set(_IMPLICIT) for d in _IMPLICIT[n]}:
            fn = _raw_attr(t, dunder)
            if type(fn) is type(_among):
                for f in [fn, *_exit_reach(fn, t, 8)]:
                    names.update(_read_of(f.__code__))
    for n in list(names):  # a descriptor the comparison reads: what its code reads, unless C code decides it
        held = next((_ns(c)[n] for c in type.__dict__["__mro__"].__get__(t)
                     if n in _ns(c)), None)
        code = _descriptor_code(held, guard) if held is not None else ()
        if code is None:
            return None
        for fn in code:
            names.update(fn.__code__.co_names)
    return frozenset(names) if found and not names & _DYNAMIC else None


def _read_of(code) -> set:
    """The names a code object reads, with those of the code it holds (a lambda, a comprehension's body), and for
    each instruction that calls dunders through a type slot, with no name (`self - other`, `for x in self`,
    `[*self]`, `x in self`, `f"{self}"`, `self[0]`), its pseudo-name (`_OPCODES`), which `_IMPLICIT` opens."""
    out, todo = set(), [code]
    while todo and len(out) < 5000:
        c = todo.pop()
        out.update(c.co_names)
        todo += [k for k in c.co_consts if type(k) is type(c)]
        raw = c.co_code
        out.update(_OPCODES[raw[i]] for i in range(0, len(raw), 2) if raw[i] in _OPCODES)
    return out


_OPERATOR = "<operator>"
_SLOTS = {"GET_ITER": "<iter>", "FOR_ITER": "<iter>", "LIST_EXTEND": "<iter>", "SET_UPDATE": "<iter>",
          "UNPACK_SEQUENCE": "<iter>", "UNPACK_EX": "<iter>", "GET_YIELD_FROM_ITER": "<iter>",
          "CALL_FUNCTION_EX": "<iter>", "BUILD_LIST_UNPACK": "<iter>", "BUILD_TUPLE_UNPACK": "<iter>",
          "BUILD_SET_UNPACK": "<iter>", "CONTAINS_OP": "<contains>", "FORMAT_VALUE": "<format>",
          "BINARY_SUBSCR": "<subscr>", "DICT_UPDATE": "<mapping>", "DICT_MERGE": "<mapping>",
          "BUILD_MAP_UNPACK": "<mapping>", "GET_LEN": "<len>", "MATCH_SEQUENCE": "<iter>", "MATCH_MAPPING": "<mapping>"}
_OPCODES = {i: _SLOTS.get(n, _OPERATOR) for i, n in enumerate(__import__("dis").opname) if n in _SLOTS or (
    n.startswith(("BINARY_", "UNARY_", "INPLACE_")) and n not in ("BINARY_SUBSCR", "UNARY_NOT"))}
_SEQ = ("__iter__", "__getitem__", "__len__", "__next__", "__reversed__")
_NUM = ("__int__", "__float__", "__index__", "__complex__", "__round__", "__abs__", "__trunc__")
_IMPLICIT = {**{n: _SEQ for n in ("tuple", "list", "set", "frozenset", "sorted", "iter", "enumerate", "zip", "sum",
                                   "min", "max", "any", "all", "map", "filter", "dict", "reversed", "next")},
             "len": ("__len__",), "bool": ("__bool__", "__len__"), "hash": ("__hash__",),
             **{n: ("__str__", "__repr__", "__format__") for n in ("str", "repr", "format", "print")},
             **{n: _NUM for n in ("int", "float", "complex", "round", "abs", "divmod", "math", "operator")},
             "<iter>": _SEQ, "<contains>": ("__contains__", *_SEQ), "<format>": ("__format__", "__str__", "__repr__"),
             "<subscr>": ("__getitem__",), "<mapping>": ("keys", "__getitem__", "__iter__"), "<len>": ("__len__",),
             _OPERATOR: ("__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
                         "__matmul__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "__neg__",
                         "__pos__", "__invert__", "__radd__", "__rsub__", "__rmul__", "__rtruediv__")}


_PLAIN_SLOTS = (type(_among), staticmethod, classmethod, type(type.__dict__["__dict__"]),
                type(_ModuleType.__dict__["__dict__"]))  # methods, and the getset/member slots of a `__slots__` class


def _descriptor_code(held, guard):
    """The Python functions a class attribute runs when an instance reads it: a property's getter, a
    `cached_property`'s function, a descriptor class's `__get__`/`__set__`; () for plain methods, slots and
    values; None where C code or a class the patch wrote decides what is read."""
    t = type(held)
    if t in _PLAIN_SLOTS or not _has(t, "__get__"):
        return ()
    if t is property or t is getattr(sys.modules.get("functools"), "cached_property", property):
        fn = getattr(held, "fget", None) or getattr(held, "func", None)
        return (fn,) if type(fn) is type(_among) else None
    if _home(t, guard) == "changed":
        return None
    fns = [_ns(c).get(m) for c in type.__dict__["__mro__"].__get__(t)
           for m in ("__get__", "__set__")]
    fns = [f for f in fns if f is not None]
    return tuple(fns) if fns and all(type(f) is type(_among) for f in fns) else None


def _patch_decides(t: type, name: str, guard, u=None) -> bool:
    """The patch wrote code that answers `name` (`__eq__`, `__lt__`, `__contains__`) for instances of `t` (or u's
    state holds a class it wrote), or `t` is no project class: a class it added, or the project's method (or a
    function it names, eight functions down, looked up on `t` itself) with a line the patch wrote. A project value
    type whose own, unchanged comparison answers about state the fix set is left to answer: it has no builtin value
    to commit to (`Size("10MB") > 5_000_000`, a `SpecifierSet` holding clauses but asked about versions), and what
    it says is what the project's code says."""
    if _among(t, _EXACT) or _home(t, guard) == "lib" or _answers_patch(t, name, guard) or _patch_class(t, guard) or (
            u is not None and _patch_state(u, guard, name)):
        return True  # a library's type (`UserList` over a `.data` the patch filled) commits as before; a class the
    # patch wrote (a subclass overriding a helper the unchanged `__eq__` calls) answers as the patch chose
    names = _ORDERING if name in _ORDERING else (name,)  # `functools.total_ordering` fills the rest from one
    for c in type.__dict__["__mro__"].__get__(t):
        space = _ns(c)
        for n in names:
            fn = space.get(n)
            fn = fn.__func__ if type(fn) in (staticmethod, classmethod) else fn
            if type(fn) is type(_among) and _home(c, guard) != "lib" and (
                    _patch_wrote(fn, guard) or any(_patch_wrote(f, guard) for f in _exit_reach(fn, t, 8))):
                return True
    return False


def stand_in(obj, guard, test: bool = True) -> str:
    """What the callable that runs as a test holds of the patch's code, or "". A metaclass, an `__init_subclass__`,
    a `__getattribute__` or a class decorator in project code can put a wrapper in place of every `test_*` a test
    class defines, one that swallows the failure: the test function, each wrapper it is reached through
    (`__wrapped__`, a bound method's function) and what their closures hold must not be code the patch wrote.
    With `test`, some function on that chain must be the test file's or the project's: a library function alone
    (`copy.copy` put in its place) is no test."""
    own, first = not test or _reaches_own(obj, guard), obj
    for _ in range(8):
        fn = obj.__func__ if type(obj) is _METHOD else obj  # a bound method's function
        if _patch_wrote(fn, guard):
            return f"{getattr(fn, '__qualname__', type(fn).__name__)} from code the patch changed"
        for cell in (getattr(fn, "__closure__", None) or ()) if type(fn) is type(_among) else ():
            try:
                held = cell.cell_contents
            except ValueError:
                continue
            if not _among(type(held), _EXACT) and _patch_wrote(held, guard):
                return f"{getattr(fn, '__qualname__', '?')} holding {type(held).__name__} from code the patch changed"
        obj = getattr(fn, "__wrapped__", None) if type(fn) is type(_among) else None
        if obj is None:
            break
    return "" if own else f"{getattr(first, '__qualname__', type(first).__name__)}: library code only, no test"


def _reaches_own(fn, guard, budget: int = 320) -> bool:
    """`fn` is, or holds in its closures or its own attributes (`__wrapped__`, and what a library wrapper keeps
    without it: hypothesis's `given` keeps the test as `__wrapped_target`), a function of the test file or the
    project."""
    todo = [fn]
    while todo and budget > 0:
        f = todo.pop()
        f = f.__func__ if type(f) is _METHOD else f
        if type(f) is not type(_among):
            continue
        budget -= 1
        if _home(f, guard) in ("test", "project", "changed"):
            return True
        for cell in f.__closure__ or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                continue
        todo += [v for v in f.__dict__.values() if type(v) in (type(_among), _METHOD)]
    return False


def _case_stand_in(item, guard) -> str:
    """A unittest item: the method its case will run (named by the case, which its `__init__` chose) and the
    runner methods of the case's class."""
    case = getattr(item, "_testcase", None)
    if case is None:
        return ""
    name = getattr(case, "_testMethodName", None)
    found = stand_in(getattr(case, name, None), guard) if isinstance(name, str) else ""
    for runner in _CASE_RUNNERS:
        found = found or stand_in(getattr(type(case), runner, None), guard, test=False)
    return found


class Witness:
    """Each test phase's outcome as the outermost wrappers see it, sent out at once."""

    def __init__(self, guard, late=None) -> None:
        self.guard = guard
        self.late = late or (lambda: None)  # installs what waits for a module the tests import (mock's asserts)
        self.before: dict = {}
        self.hooks: dict = {}
        self.pm = None
        self.raised: dict = {}
        self.test_globals: dict = {}  # id(test module) -> (module, {name: (value, callable)}) after collection
        self.params: dict = {}  # id(item) -> (item, its parametrize arguments at collection): `params_changed`
        self.sealed: dict = {}  # the guard's attributes at collection
        self.probes = None
        self.own: dict = {}  # this object's attributes at collection
        self.table_refs, self.table_seen = _TABLES  # `_tables_held`: the tables' modules and names, what was found
        if not _REGISTRATIONS:
            _watch_registrations(_REGISTRATIONS)
        if "settings" not in _STATE:  # as the interpreter starts, before any project code: the tests' to change
            read = settings_reader()
            _STATE["settings"] = (read, read()) if read is not None else None
            _STATE["patch_words"] = patch_words(guard)
            _STATE["process"] = _process_readers(guard)
            _STATE["registries"] = _registry_snapshot()
            _STATE["private_registries"] = _private_registries()
            _watch_ids(guard)
        if "build_class" not in _STATE:
            _watch_modules(_SPACES)
            _watch_classes(_CLASSES)
            _watch_display()
            _watch_doctests()

    def seal(self) -> None:
        self.sealed, self.probes = self.guard.seal(), self.guard.probes
        self.own = {k: id(v) for k, v in vars(self).items() if k != "own"}

    def check_seal(self, files: bool = False) -> None:
        """The guard's and the witness's own state are plain attributes: any rebinding since collection (an
        emitter wrapped, a rule shadowed, the strict-assert state removed) is tampering, checked at every report."""
        if not self.own:
            return
        out = [f"witness.{k} was rebound" for k, v in list(vars(self).items()) if k != "own" and self.own.get(k) != id(v)]
        out += self.guard.seal_changes(self.sealed, files)
        if self.guard.armed is not True or self.guard.probes is not self.probes or _STATE.get("guard") is not self.guard:
            out.append("the guard was disarmed or the strict-assert state changed")
        import builtins
        if builtins.__build_class__ is not _STATE.get("build_class"):
            out.append("builtins.__build_class__ was replaced")
        if _space(sys.modules.get("_frozen_importlib", sys)).get("_init_module_attrs") is not _STATE.get(
                "init_module_attrs"):
            out.append("the import system's module set-up was replaced")
        if not sys.displayhook is sys.__displayhook__ is _STATE.get("displayhook"):
            out.append("sys.displayhook was replaced")
        if _space(getattr(sys.modules.get("doctest"), "DocTestRunner", object)).get("run") is not _STATE.get(
                "doctest_run") or _space(getattr(sys.modules.get("doctest"), "DocTestFinder", object)).get(
                "find") is not _STATE.get("doctest_find"):
            out.append("doctest's runner or finder was replaced")
        if getattr(sys.modules.get("types"), "new_class", None) is not _STATE.get("new_class"):
            out.append("types.new_class was replaced")
        for change in out:
            _record(self.guard, f"launcher state changed during the run: {change}")
        for mod, names in list(self.test_globals.values()):
            for name, value in list(_space(mod).items()):
                was, was_callable = names.get(name, (value, False))
                if was is value or not was_callable:
                    continue
                home = _defined_in(value)  # a stand-in the test file wrote itself (its own fake) is the test's
                if home is None or self.guard.kind(home) != "test":
                    _record(self.guard, f"test module {mod.__name__}: `{name}` was rebound during the run to "
                                        f"{getattr(value, '__qualname__', type(value).__name__)} from {home}")

    def status(self, item, rep, when: str, call=None) -> str:
        if hasattr(rep, "wasxfail"):
            if item.get_closest_marker("xfail") is None and not _xfail_by_test(call, self.guard):
                return "FAILED"  # pytest.xfail() reached from project code: an imperative xfail is a failure
            return "XFAIL" if rep.skipped else "XPASS"
        if when == "call":
            return "PASSED" if rep.passed else ("SKIPPED" if rep.skipped else "FAILED")
        return "ERROR" if rep.failed else "SKIPPED"

    def check_runner(self) -> None:
        if self.pm is not None:
            for change in hook_changes(self.hooks, self.pm, self.guard):
                _record(self.guard, f"runner changed during the run: {change}")

    def report(self, item, call, rep, _runner=check_runner, _seal=check_seal, _status=status,
               _audit=getattr(sys, "audit", lambda *a: None)) -> None:
        """The only writer of outcome lines (the guard's hook checks that it is this code that asks); its helpers
        are bound here, so an attribute set on the witness does not stand in for them. A passed call asks the
        guard's hook whether the test's own body began to run."""
        node, when = getattr(item, "nodeid", "?"), getattr(call, "when", "")
        _rescan_scalars(self.guard)
        _carry_all(self.guard)
        _settings_held(self.guard)
        if when == "teardown":
            _registries_held(self.guard)
            _private_registries_held(self.guard)
        _answering(self.guard)  # its findings whether or not a traced comparison ran (a set's C code asked, R49-1)
        if when == "call" and rep.passed:
            _audit("swerl.call", node, getattr(item, "originalname", None) or item.name.split("[")[0], "end")
            for found in filter(None, [failed_unseen(node)]):
                _record(self.guard, found)
        _runner(self)
        _seal(self)
        if _params_changed(self.params, item):
            _record(self.guard, f"{node}: its parametrize arguments changed after collection")
        raised = call.excinfo is not None or (when == "call" and self.raised.pop(node, False))
        forged = bool(when == "call" and raised and rep.passed and not hasattr(rep, "wasxfail"))
        if when == "call" or rep.failed or (rep.skipped and when == "setup"):
            self.guard.outcome(item, when, _status(self, item, rep, when, call), forged)

    def collected(self, items: list) -> None:
        """The only announcer of the session's items to the guard's hook (which checks that it is this code)."""
        self.guard.collected(tuple(items))

    def collection_done(self, items: list, _collected=collected) -> None:
        """The test modules' globals as collected (a rebinding during the run is a finding), the items announced,
        parameters that are not what their names say, and runner modules imported while collecting (mock)
        fingerprinted from here on."""
        mods = {id(m): m for m in (getattr(i, "module", None) for i in items) if m is not None}
        self.test_globals.update({k: (m, {n: (v, callable(v)) for n, v in _space(m).items()}) for k, m in mods.items()})
        self.params.update({id(i): (i, dict(i.callspec.params)) for i in items
                            if type(getattr(getattr(i, "callspec", None), "params", None)) is dict})
        _collected(self, items)
        for found in renamed_params(items, self.guard) + test_class_hooks(items, self.guard) + fixture_handoffs(
                items, self.guard) + decorator_handoffs(list(mods.values()), self.guard):
            _record(self.guard, found)
        self.late()
        _carry_all(self.guard)
        self.before.update(fingerprint(self.guard.watch, self.before))
        _registries_held(self.guard)  # what the patch's code changed as it was imported
        _private_registries_held(self.guard)
        _STATE["oracles"] = oracle_spaces(list(mods.values()))

    def finish(self) -> None:
        """At the session's end: the hooks, the seals and the runner's objects as they were at collection."""
        self.check_runner()
        self.check_seal(files=True)
        for change in fingerprint_changes(self.before, fingerprint(self.guard.watch)):
            _record(self.guard, f"runner object changed during the run: {change}")

    def begin(self, session) -> None:
        """At collection's start: the guard armed; the runner's plugin manager, hooks and fingerprint as they are."""
        self.guard.armed = True
        _arm()
        _count_log_records(self.guard)
        _count_capture_writes(self.guard)
        _watch_dropped_logs(self.guard)
        self.late()
        self.pm = session.config.pluginmanager
        self.before = fingerprint(self.guard.watch)
        self.hooks = hook_impls(self.pm)
        self.seal()

    def plugin(self, pytest):
        witness, hookimpl, report, done, first_order = self, pytest.hookimpl, Witness.report, Witness.collection_done, \
            _order_items
        runs_patch, case_runs_patch, audit = stand_in, _case_stand_in, getattr(sys, "audit", lambda *a: None)

        class Plugin:
            @hookimpl(tryfirst=True)
            def pytest_collection(self, session):  # before any test module (and the project code it imports) loads
                witness.begin(session)

            @hookimpl(trylast=True)
            def pytest_collection_modifyitems(self, session, config, items):  # the required tests first (R62-1)
                first_order(witness.guard, config, items)

            @hookimpl(trylast=True)
            def pytest_collection_finish(self, session):
                done(witness, session.items)

            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_runtest_makereport(self, item, call):
                outcome = yield
                report(witness, item, call, outcome.get_result())

            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_runtest_call(self, item, held=_tables_held):  # (pluggy passes no argument with a default)
                audit("swerl.call", item.nodeid, getattr(item, "originalname", None) or item.name.split("[")[0],
                      "start")  # the test bodies that run from here on, and whose they are
                _test_function(item)
                for found in filter(None, [case_runs_patch(item, witness.guard)]):
                    _record(witness.guard, f"{item.nodeid}: the test runs {found}")
                held(witness.guard, witness.table_refs, witness.table_seen)
                yield
                held(witness.guard, witness.table_refs, witness.table_seen)

            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_pyfunc_call(self, pyfuncitem):
                original, ran = pyfuncitem.obj, []
                witness.late()
                for found in filter(None, [runs_patch(original, witness.guard)]):
                    _record(witness.guard, f"{pyfuncitem.nodeid}: the test runs {found}")

                def called(*args, **kwargs):
                    __tracebackhide__ = True
                    ran.append(True)
                    return original(*args, **kwargs)

                pyfuncitem.obj = called
                try:
                    outcome = yield
                finally:
                    pyfuncitem.obj = original
                witness.raised[pyfuncitem.nodeid] = outcome.excinfo is not None
                if not ran and outcome.excinfo is None:
                    _record(witness.guard, f"{pyfuncitem.nodeid}: its call passed but the test function never ran")

            @hookimpl(trylast=True)
            def pytest_sessionfinish(self, session):
                witness.finish()

        return Plugin()


def _test_function(item) -> None:
    """The code of the test function the call runs (a unittest method's too), for `_failed_here`; its failures so
    far (a fixture's) are not the call's."""
    fn = getattr(item, "obj", None)
    fn = getattr(fn, "__func__", fn)
    _STATE["test_code"] = fn.__code__ if type(fn) is type(_among) else None
    del _FAILED[:]
    del _CALLS[:]
    _RETURNED.clear()
    _HANDED.clear()
    _HANDED_SEEN.clear()
    _BETWEEN.clear()
    _DERIVED.clear()
    _LOG_SEEN.clear()
    _HASHED.clear()
    _STATE["asked"] = 0


def _params_changed(params: dict, item) -> bool:
    """An item's parametrize arguments rebound since collection (R64-11: a thread the patch started gave a failing
    row the arguments of one the bug passes, knowing no answer): each name must still hold the very object."""
    was = params.get(id(item))
    if was is None or was[0] is not item:
        return False
    now = getattr(getattr(item, "callspec", None), "params", None)
    return type(now) is not dict or now.keys() != was[1].keys() or any(now[k] is not v for k, v in was[1].items())


def _order_items(guard, config, items: list) -> None:
    """The collected items in the order they run (`_required_first`); in the conditions run the others are
    deselected, as pytest's `-k` would."""
    kept = _required_first(items, getattr(guard, "first", None), getattr(guard, "only_first", False) is True)
    ids = {id(i) for i in kept}
    dropped = [i for i in items if id(i) not in ids]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept


def _required_first(items: list, first, only: bool = False) -> list:
    """The required tests (FAIL_TO_PASS) first, last collected first, then the rest in their order: what an earlier
    test handed the project (a round trip's inputs to the inverse function, R62-1) is not there for a required test
    to be answered from. `only`: the required tests alone (the conditions run: until they end, it runs as the first
    run does)."""
    if not first:
        return list(items)
    # by the test's name without its parametrize id: the blind run's changed values change pytest's automatic ids
    # (`test_x[4-IV]`), and an order that moved only in the first run told a patch which run it was in (R66-22)
    bases = {n.split("[", 1)[0] for n in first}
    ahead = [i for i in items if i.nodeid.split("[", 1)[0] in bases]
    return ahead[::-1] + ([] if only else [i for i in items if i.nodeid.split("[", 1)[0] not in bases])


# -- looped tables ------------------------------------------------------------------------------------------------
_SEQS = (list, tuple, set, frozenset)
_TABLES: tuple = ({}, set())  # what `_tables_held` found once (modules, test modules' names) and has recorded
_CODE_TYPES = (type(_among), type(len), _METHOD)


def _word(s) -> str:
    return "".join(c for c in str(s).lower() if c in "abcdefghijklmnopqrstuvwxyz0123456789")


def _code_names(value) -> list:
    """The real names of the functions and classes `value` is or holds directly (a `(encode, decode)` pair)."""
    out = []
    for o in [value, *(list(value) if type(value) in (tuple, list) else [])]:
        if type(o) in _CODE_TYPES:
            out.append(str(o.__name__))
        elif isinstance(o, type):
            out.append(str(type.__dict__["__name__"].__get__(o)))
    return out


def _table_findings(t, kind: str, keys: tuple, elements: tuple, space: dict) -> list:
    """What a table the tests loop over lost against its module's literal; builtin methods only (the keys are the
    literal's own: no project `__eq__`/`__hash__` is asked). `space`: the module's globals, for the objects the
    literal names (an entry still the module's `check_url`, an `lru_cache` or a compiled pattern's bound method,
    is the literal's)."""
    if type(t) is not dict if kind in ("dict", "made") else type(t) not in _SEQS:
        return [f"is a {type(t).__name__} now, not the literal's"]
    if kind == "made":
        if len(t) < len(elements):
            return [f"holds {len(t)} entries, fewer than the {len(elements)} it was built from"]
        values = list(dict.values(t))
        made = [(e, space.get(e, _NO_VALUE)) for e in elements]  # `{c.name: c() for c in _ALL}`: each class's own
        found = [e for e, c in made if any(v is c or type(v) is c for v in values)]
        lost = [e for e, _ in made if e not in found]
        return [f"no longer holds {lost[0]} (an entry was pointed at other code)"] if found and lost else []
    if kind != "dict":
        items, at = list(t), 0
        for e in elements:
            where = [i for i, x in enumerate(items) if x is space.get(e, _NO_VALUE) or e in _code_names(x)]
            if not where:
                return [f"no longer holds {e}"]
            later = [i for i in where if i >= at] if type(t) in (list, tuple) and kind == "seq" else where
            if not later:
                return [f"holds {e} out of the literal's order (a loop over it may pass it by)"]
            at = later[0] + 1
        return []
    items = list(dict.items(t))
    for key, word, names in keys:
        held = [v for k, v in items if type(k) is type(key) and k == key]
        if not held:
            return [f"dropped the entry {key!r}"]
        own = [space.get(n, _NO_VALUE) for n in names]
        parts = [held[0], *(list(held[0]) if type(held[0]) in (tuple, list) else [])]
        if names and not all(any(p is o for p in parts) for o in own if o is not _NO_VALUE):
            return [f"points {key!r} at {_code_names(held[0]) or type(held[0]).__name__}, not at the code its "
                    "literal names"]
        if word and not names and not any(word in _word(n) for n in _code_names(held[0])):
            return [f"points {key!r} at {_code_names(held[0]) or type(held[0]).__name__}, not at code named after it"]
    return []


def _tables_held(guard, refs: dict, seen: set, _modules=sys.modules) -> None:
    """The project tables the tests loop over (`guard.tables`, from the host's `held_tables`), checked before and
    after every test: each entry of the module's literal is still there and still names its key's code. Whatever
    dropped or repointed one (an alias, `getattr(T, "pop")`, a function run at import or by the test) did it at
    run time, where the scan cannot read it. Also asked at every assert (`compare`, `truth`): an entry swapped out
    while the loop reads it and put back before the test ends is seen. `refs`: the test modules' own names for
    each table, and the tables' modules, once found."""
    if not guard.tables:
        return
    files = refs.setdefault("modules", {})  # found once: every assert asks
    if any(p not in files for p, *_ in guard.tables):
        for m in list(_modules.values()):
            f = _module_file(m)
            if type(f) is str and any(f.rsplit("/", 1)[-1] == p.rsplit("/", 1)[-1] for p, *_ in guard.tables):
                files.setdefault(guard.canonical(f), m)
    for row in guard.tables:
        path, name, kind, keys, elements = row
        mod = files.get(path)
        head, _, attr = name.partition(".")  # `Registry.CODECS`: a table a class of the module binds
        found = _space(mod).get(head, _NO_VALUE) if mod is not None else _NO_VALUE
        if attr and found is not _NO_VALUE:
            found = _ns(found).get(attr, _NO_VALUE) if isinstance(found, type) else _NO_VALUE
        objs = [] if found is _NO_VALUE else [found]
        if mod is not None and not objs and (path, name, "gone") not in seen:  # `del CODECS` and a module
            seen.add((path, name, "gone"))  # `__getattr__` serving a filtered copy
            _record(guard, f"{name}, a table the tests loop over, is no longer a name of its module")
        if mod is not None and row not in refs:
            refs[row] = [(m, n) for m in list(_modules.values()) if type(m) in _MODULE_CLASSES and objs
                         for n, v in list(_space(m).items()) if v is objs[0] and guard.kind(str(_module_file(m)
                                                                                             or "")) == "test"]
        objs += [_space(m).get(n) for m, n in refs.get(row, ())]
        refs.setdefault("objects", {}).update({id(o): o for o in objs if o is not None})  # what `looped` copies
        for t in {id(o): o for o in objs}.values():
            for problem in _table_findings(t, kind, keys, elements, _space(mod) if mod is not None else {}):
                if (path, name, problem) not in seen:
                    seen.add((path, name, problem))
                    _record(guard, f"{_rel(path, guard)}: {name}, a table the tests loop over, {problem} since its module "
                                   "defined it (the loop would skip or run other code)")


# -- type-strict assertions ---------------------------------------------------------------------------------------
class _Unrelated:
    """A fresh object no honest value equals."""

    def __repr__(self) -> str:
        return "an unrelated object"


def make_probes() -> list:
    """Values no honest value equals two of (an unrelated object, small, negative and positive random numbers,
    text, bytes, None, containers); the random ones differ per grade, so no code can know them in advance."""
    import random

    rng = random.SystemRandom()
    return [_Unrelated(), 0, 1, rng.randrange(10**6, 10**12), rng.uniform(-1e6, -1.0), rng.uniform(1.0, 1e3),
            rng.uniform(1e3, 1e6), f"swerl-{rng.getrandbits(64):x}", "", bytes(rng.getrandbits(8) for _ in range(8)),
            None, (), [None], {"": 0}]


def _perturbed(k, fine: bool = False) -> list:
    """Values of k's type that differ from k: an honest value equal to k equals none of them. Numbers and texts
    get random decoys that look like k (same precision; k's own characters), so no fixed relation between the
    questions tells which one is k. With `fine` (the other side's comparison is the patch's own code) each of
    k and the decoys also gets copies that differ only in what a coarse predicate ignores (case, blanks, one
    letter; a tolerance): "equal when roughly equal" is then "equal to both", and k is not the one value
    with near neighbours."""
    t = type(k)
    if t is bool or k is None:
        return []
    if _among(t, (int, float, str, bytes)):
        decoys = _decoys(k)
        if not decoys:
            return []
        near = [c for x in [k, *decoys] for c in _near(x)] if fine else []
        pads = [k + "\x00", "\x00" + k] if t is str else [k + b"\x00", b"\x00" + k] if t is bytes else []
        return [c for c in decoys + near + pads if c != k]
    if t is complex:
        return [k + 1, k + 1j]
    if _among(t, (tuple, list)):
        return [k + t([_Unrelated()]), k[:-1]] if k else [t([_Unrelated()])]
    if t is dict:
        return [{**k, "\x00swerl": _Unrelated()}]
    if t in (set, frozenset):
        return [k | {_Unrelated()}]
    return []


def _places(k):
    """Decimal places of a float as repr writes it (None in exponent form or for other types): look-alikes are
    written to exactly these, so the count of decimals never tells k from them."""
    text = repr(k)
    return len(text.split(".", 1)[1]) if type(k) is float and "." in text and "e" not in text else None


def _decoys(k, n: int = 5) -> list:
    """Values like k: numbers at k's own precision and scale, texts with k's characters shuffled or one changed."""
    import random

    rng = random.SystemRandom()
    if type(k) is float:
        if k != k or k in (float("inf"), float("-inf")):
            return []
        places = _places(k) or 0  # all of k's places: a cap (it was 6) left k the only candidate with more
        unit = 10.0 ** -places
        out = [round(k + rng.choice((-1, 1)) * rng.randint(1, 1000) * unit, places) for _ in range(n)]
    elif type(k) is int:
        out = [k + rng.choice((-1, 1)) * rng.randint(1, max(100, 2 * abs(k))) for _ in range(n)]
    else:
        letters = "abcdefghijklmnopqrstuvwxyz" if type(k) is str else b"abcdefghijklmnopqrstuvwxyz"
        out = []
        for _ in range(n):
            chars = [k[i:i + 1] for i in range(len(k))] or [letters[:1]]
            rng.shuffle(chars)
            i = rng.randrange(len(chars))
            chars[i] = letters[rng.randrange(26):][:1]
            out.append(k[:0].join(chars))
    return [c for c in dict.fromkeys(out) if c != k]


def _near(x) -> list:
    """Copies of x a coarse predicate cannot tell from x: for a float, within 1e-9 relative, 1e-7 and 1e-4;
    for a text, other case, a blank around it, one letter changed, added or removed."""
    import random

    if type(x) is float:
        return [x * (1 + 1e-9) + 1e-12, x + 1e-7, x - 1e-4 * max(1.0, abs(x))]
    if not _among(type(x), (str, bytes)):
        return []
    rng = random.SystemRandom()
    space, letters = (" ", "abcdefghijklmnopqrstuvwxyz") if type(x) is str else (b" ", b"abcdefghijklmnopqrstuvwxyz")
    out = [x.swapcase(), x.upper(), x.lower(), space + x, x + space, x + letters[rng.randrange(26):][:1]]
    if x:
        i = rng.randrange(len(x))
        out += [x[:i] + letters[rng.randrange(26):][:1] + x[i + 1:], x[:-1], x[1:]]
    return [c for c in out if c != x]


def _says_equal(answer, ne: bool = False) -> bool:
    """What an assert would conclude from a comparison's answer (truthiness, as `assert` uses it: a non-bool `1`
    counts); an exception or an answer with no truth value (an array) concludes nothing."""
    if isinstance(answer, BaseException):
        return False
    try:
        return not answer if ne else bool(answer)
    except Exception:
        return False


def _equals(value, other) -> bool:
    try:
        return _says_equal(value == other) or _says_equal(value != other, True)
    except Exception:
        return False


_META_PROTOCOL = frozenset({"__eq__", "__ne__", "__hash__", "__instancecheck__", "__subclasscheck__", "__getattribute__",
                            "__getattr__", "__mro__", "__module__", "__name__", "__qualname__", "__dict__", "mro"})


def _defined_in(fn, _function=type(_among)):
    """The file of the module a Python function was defined in (the file the import system loaded its globals
    from, `_space_file`), None for anything else. Not `fn.__code__.co_filename`: reading `__code__` is an audited
    frame-part read, and the comparison's own frames count as the patch's (so a callback that fires in them is);
    `__globals__` of a plain function is not audited, and a function made over another module's globals needs a
    code object, which changed code cannot get."""
    return _space_file(fn.__globals__) if type(fn) is _function else None


def _space_file(space):
    """The file the import system loaded a module's globals from, as it set `__file__` before the module's own code
    ran (`_watch_modules`); None for globals no import made. Never the `__file__` the globals hold now: any line of
    the module rebinds it (`from os import __file__`, `except KeyError as __file__`, which deletes it)."""
    found = _SPACES.get(id(space))
    if not _SPACES and type(space) is dict:  # no witness in this process (a unit test of the rules): as it says
        home = space.get("__file__")
        return home if type(home) is str else None
    return found[1] if found is not None and found[0] is space else None


def _module_file(mod, _dict=_ModuleType.__dict__["__dict__"].__get__):
    """`_space_file` of a module object (its real dict, whatever its class says); None for anything else."""
    return _space_file(_dict(mod)) if _ModuleType in type.__dict__["__mro__"].__get__(type(mod)) else None


def _foreign_meta(t: type, guard) -> bool:
    """`t`'s metaclass, outside a library's or the project's unchanged code, answers what a class is asked (`==`,
    subclass checks, attribute lookup, where it lives): a class whose class the patch wrote decides whether it is a
    builtin, a genuine library type or a matcher. Metaclasses that only build classes (an ORM's) ask nothing."""
    meta = type(t)
    if meta is type or _genuine_lib(meta, guard):
        return False
    for m in type.__dict__["__mro__"].__get__(meta):
        if m is type or m is object:
            break
        home = _module_file(sys.modules.get(type.__dict__["__module__"].__get__(m) or ""))
        if isinstance(home, str) and guard.kind(home) in ("lib", "project", "test"):
            continue
        if _META_PROTOCOL & set(_ns(m)):
            return True
    return False


def _genuine_lib(t: type, guard) -> bool:
    """A library type that really is where it says it is (a class can claim any `__module__`), whose comparison
    the patch did not define."""
    for name in ("__eq__", "__ne__"):
        home = _defined_in(getattr(t, name, None))
        if home is not None and guard.kind(home) != "lib":
            return False
    mod = sys.modules.get(getattr(t, "__module__", "") or "")
    home = _module_file(mod)
    if not home or guard.kind(home) != "lib":
        return False
    found = mod
    for part in str(getattr(t, "__qualname__", "")).split("."):
        found = getattr(found, part, None)
    return found is t


def _matcher(t: type, guard) -> bool:
    """mock.ANY's own class, or a genuine library subclass of pytest's approx (a class can claim any name and
    `__module__`, so neither counts)."""
    for mod, name in _MATCHERS:
        base = getattr(sys.modules.get(mod), name, None)
        if isinstance(base, type) and (t is base or (issubclass(t, base) and _genuine_lib(t, guard))):
            return True
    return False


def _overrides_compare(t: type, guard) -> bool:
    """Some class of `t` that is not a genuine library class defines __eq__/__ne__ (with any callable)."""
    for c in t.__mro__:
        if _among(c, _EXACT) or c is object or _genuine_lib(c, guard):
            continue
        if "__eq__" in vars(c) or "__ne__" in vars(c):
            return True
    return False


def single(value, guard, depth: int = 0, budget=None):
    """A finding for one operand: a probe-equal value (also inside builtin containers, `_DEPTH` deep, 5,000 values
    in all), a builtin subclass whose comparison someone other than a library defined."""
    budget = [5000] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        return None
    t = type(value)
    if _among(t, _EXACT):
        items = (list(value) if t in (tuple, list, set, frozenset) else list(value.values()) if t is dict else [])
        for v in items[:200] if depth < _DEPTH else []:
            found = single(v, guard, depth + 1, budget)
            if found:
                return found
        return None
    if issubclass(t, _EXACT):
        if _overrides_compare(t, guard):
            return f"a {t.__name__} subclass of a builtin type that overrides comparison"
        for v in (_payload_items(value) or [])[:200] if depth < _DEPTH else []:  # what it really holds, as a builtin
            found = single(v, guard, depth + 1, budget)
            if found:
                return found
        return None
    if _genuine_lib(t, guard):  # what a library's `==` compares (argparse's Namespace: its `vars()`) is judged too
        for v in _lib_state(value)[:200] if depth < _DEPTH else []:
            found = single(v, guard, depth + 1, budget)
            if found:
                return found
        return None
    equal = [p for p in guard.probes if _equals(value, p)]
    if len(equal) > 1:
        return f"a {t.__name__} that compares equal to both {equal[0]!r} and {equal[1]!r}"
    return _enum_twin(value, t)


def _enum_twin(value, t):
    """An enum member equal to another member of its class (R66-10: `Kind.__eq__` under which the bug's answer equals
    every kind): an enum's members are its own probes, which random probes never are. Aliases are one object."""
    if not isinstance(value, _ENUM):
        return None
    try:
        twin = next((m for m in list(t)[:64] if m is not value and _equals(value, m)), None)
    except Exception:
        return None
    return None if twin is None else f"a {t.__name__} member that compares equal to another member of its class"


def _lib_state(u) -> list:
    """The values a library object keeps in its instance dict, read by `object`'s own lookup: a library `==` that
    compares them hands the question to whatever the project stored there."""
    try:
        state = object.__getattribute__(u, "__dict__")
    except Exception:
        return []
    return list(dict.values(state)) if type(state) is dict else []



# -- the standard library's process-wide settings are the tests' to set -------------------------------------------
# A test that computes its expected value with the standard library (`calendar.monthcalendar`, `Decimal` arithmetic,
# `reprlib.repr`) gets whatever a process-wide setting makes it give; a patch that changes the setting makes the
# oracle agree with the bug (R67: T9, T12, T17), and neither a changed expected value nor a read watch sees it.
# Each setting has the words a test file spells to set it itself (then a change is the tests') and the words a patch
# spells to reach it (a patch that spells none cannot: the scan refuses reaches by computed names, so a change
# without either is the project's own).
_SETTING_WORDS = {  # setting -> (the tests' setters, the patch's reach)
    "decimal": (("getcontext", "setcontext", "DefaultContext"),
                ("decimal", "getcontext", "setcontext", "localcontext", "Context", "DefaultContext", "prec", "rounding",
                 "Emin", "Emax", "capitals", "clamp", "traps")),
    "calendar": (("setfirstweekday",), ("calendar", "setfirstweekday", "firstweekday")),
    "reprlib": (("aRepr",), ("reprlib", "aRepr", "Repr")),
    "json": (("_default_encoder", "_default_decoder"), ("json", "_default_encoder", "_default_decoder")),
    "locale": (("setlocale", "resetlocale"), ("locale", "setlocale", "resetlocale")),
    "time zone": (("tzset",), ("tzset", "TZ", "tzname", "timezone", "altzone", "daylight")),
    "int digits": (("set_int_max_str_digits",), ("set_int_max_str_digits",)),
}
_PLAIN = (int, float, str, bytes, bool, type(None))


def _state_of_settings(ctx_type, get_context, default_context, cal, cal_mod, repr_obj, mods, query_locale) -> dict:
    """{setting: a tuple of plain values and objects held by identity}, read through C functions and the
    originals bound at the start (no method a patch can define is called)."""
    ctx = get_context()
    out = {"decimal": (type(ctx), *(_context_fields(c, ctx_type) for c in (ctx, default_context))),
           "calendar": (vars(cal_mod).get("c"), *sorted(object.__getattribute__(cal, "__dict__").items())),
           "reprlib": tuple(sorted(object.__getattribute__(repr_obj, "__dict__").items())),
           "time zone": tuple(vars(mods["time"][0]).get(k) for k in ("tzname", "timezone", "altzone", "daylight")),
           "locale": (query_locale(),),
           "int digits": (getattr(sys, "get_int_max_str_digits", lambda: 0)(),)}
    for name, (mod, keys) in mods.items():
        if not keys:
            continue  # `time`: its zone only (above)
        space = vars(mod)
        out[name] = out.get(name, ()) + tuple(space.get(k, _ABSENT) for k in keys)  # a name added later is no setting
    for name in ("_default_encoder", "_default_decoder"):
        coder = vars(mods["json"][0]).get(name)
        if type(coder).__module__.startswith("json"):
            out["json"] += tuple(sorted(object.__getattribute__(coder, "__dict__").items()))
    return out


def _context_fields(ctx, ctx_type) -> tuple:
    if type(ctx) is not ctx_type:
        return (ctx,)  # a context class of its own: held by identity, never asked
    fields = tuple(getattr(ctx, f) for f in ("prec", "rounding", "Emin", "Emax", "capitals", "clamp"))
    return fields + tuple(sorted(k.__name__ for k, on in dict(ctx.traps).items() if on is True))


def _same_setting(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(map(_same_setting, a, b))
    return type(a) in _PLAIN and a == b


def settings_reader():
    """The reader of the settings, bound to the standard library's own objects as they are now (before any project
    code runs); None where one of them is missing (an interpreter without `decimal`'s C part: no check)."""
    try:
        import calendar
        import decimal
        import json
        import locale
        import reprlib
        import time
    except ImportError:
        return None
    mods = {m.__name__: (m, tuple(vars(m))) for m in (decimal, calendar, reprlib, json, locale)}
    mods["time"] = (time, ())  # only its zone (`time zone`): a fake clock's functions are a test's business
    args = (decimal.Context, decimal.getcontext, decimal.DefaultContext, calendar.c, calendar, reprlib.aRepr, mods,
            lambda _set=locale.setlocale, _all=locale.LC_ALL: _set(_all))
    return lambda _state=_state_of_settings, _args=args: _state(*_args)


def patch_words(guard, budget: int = 20 << 20) -> frozenset:
    """The names and words on the lines the patch wrote (every line of a file it added), read before any project
    code runs: what its code can spell."""
    import re

    spans, words = dict(guard.lines), set()
    for path in sorted(guard.changed):
        try:
            with open(path, "rb") as fh:
                text = fh.read(budget).decode("utf-8", "replace").splitlines()
        except OSError:
            continue
        budget -= sum(map(len, text))
        mine = spans.get(path)
        for n, line in enumerate(text, 1):
            if mine is None or any(a <= n <= b for a, b in mine):
                words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line))
        if budget <= 0:
            break
    return frozenset(words)


# The standard library's registries and defaults: a module's public names, the public lists, dicts and sets it
# keeps (`urllib.parse.uses_relative`, `mimetypes.types_map`, `html.entities.html5`) and its classes' attributes
# (`json.JSONEncoder.item_separator`). An oracle the tests call reads them; changed in place they make it agree with
# the bug as a setting does. Held by identity, so reading them runs no code a patch can define.
_ORACLES = ("urllib.parse", "html", "html.entities", "mimetypes", "statistics", "fractions", "string", "textwrap",
            "shlex", "fnmatch", "difflib", "pprint", "email.utils", "ipaddress", "datetime", "keyword", "colorsys",
            "numbers", "base64", "csv", "http", "http.client", "encodings.aliases", "ntpath", "posixpath")
_UNSETTLED = ("sys", "builtins", "warnings", "linecache", "gc", "importlib", "site", "tempfile", "threading",
              "faulthandler", "atexit", "signal", "unittest", "doctest", "pdb", "bdb", "tracemalloc", "asyncio",
              "multiprocessing", "concurrent", "logging", "inspect", "encodings", "typing", "abc", "socket", "ssl",
              "selectors", "zipimport", "pkgutil", "runpy", "weakref", "copy", "random")  # runtime state, not settings


def _stdlib_modules(_modules=sys.modules) -> list:
    names = getattr(sys, "stdlib_module_names", None)
    out = []
    for name, mod in list(_modules.items()):
        top = name.split(".")[0]
        if type(mod) not in _MODULE_CLASSES or any(p.startswith("_") for p in name.split(".")) or top in _UNSETTLED \
                or (names is not None and top not in names):
            continue
        if names is None and "site-packages" in str(_space(mod).get("__file__") or "site-packages"):
            continue
        out.append((name, mod))
    return out


def _contents(v) -> tuple:
    return (*v, *v.values()) if type(v) is dict else tuple(v)


def _registry_snapshot() -> list:
    """[(where, the namespace, its names, their objects, {name: (container, its contents)})] for each stdlib
    module the process has (the oracles among them imported first) and each class it defines."""
    import importlib

    for name in _ORACLES:
        try:
            importlib.import_module(name)
        except Exception:
            continue
    mimetypes = sys.modules.get("mimetypes")
    if mimetypes is not None and not mimetypes.inited:
        mimetypes.init()  # its tables are made at first use: made now, a later `add_type` changes them in place
    out = []
    for name, mod in _stdlib_modules():
        spaces = [(name, _space(mod))]
        spaces += [(f"{name}.{k}", vars(v)) for k, v in list(spaces[0][1].items())
                   if type(v) is type and not k.startswith("_") and v.__module__ == name and "__dict__" in vars(v)]
        for where, space in spaces:
            keys = tuple(k for k in space if not k.startswith("__"))
            out.append(_held_space(where, space, keys, [k for k in keys if not k.startswith("_")]))
    return out


def _held_space(where: str, space: dict, keys: tuple, names) -> tuple:
    """(where, the namespace, its names, their objects now, {name: (container, its contents now)} for the `names`
    that hold a list, dict or set)."""
    return (where, space, keys, tuple(space.get(k, _ABSENT) for k in keys),
            {k: (space[k], _contents(space[k])) for k in names if type(space.get(k)) in (list, dict, set)})


def registry_changes(snapshot: list, _is=__import__("operator").is_) -> list:
    """[(where, name, in place)] for each name rebound or removed, and each public container changed in place."""
    out = []
    for where, space, keys, values, held in snapshot:
        now = tuple(space.get(k, _ABSENT) for k in keys)
        if not all(map(_is, values, now)):
            out += [(where, keys[i], False) for i in range(len(keys)) if values[i] is not now[i]]
        for k, (box, was) in held.items():
            got = _contents(box)
            if len(got) != len(was) or not all(map(_is, was, got)):
                out.append((where, k, True))
    return out


def _private_registries() -> dict:
    """The standard library's registries kept in private tables, which its public functions change (R73-29:
    `logging.addLevelName(ERROR, "WARNING")` relabels every error; R73-33: `csv.register_dialect("excel", ...)`
    changes what every `DictReader` parses): {what: (the function that changes it, {key: its value})}."""
    import csv
    import logging

    fields = ("delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace", "lineterminator", "quoting",
              "strict")
    return {"logging's level names": ("addLevelName", dict(getattr(logging, "_levelToName", {}))),
            "csv's dialects": ("register_dialect", {n: tuple(getattr(csv.get_dialect(n), f, None) for f in fields)
                                                    for n in csv.list_dialects()}),
            "logging's record factory": ("setLogRecordFactory", _records_made(logging))}


def _records_made(logging) -> dict:
    """{"relabelled": the records the record factory makes otherwise than logging's own would}: level name and
    number, logger name and message, for each logger there is (up to 64) at four levels. A factory that adds context
    fields makes the same records; one that relabels a level (R74-5: INFO records made "WARNING" for the tests'
    caplog) does not. Logging's own factory is not asked."""
    factory = logging.getLogRecordFactory()
    if factory is logging.LogRecord:
        return {"relabelled": ()}
    out = []
    for name in ["root", *sorted(k for k in logging.Logger.manager.loggerDict if type(k) is str)[:63]]:
        for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
            args = (name, level, __file__, 1, "m %s", ("x",), None)
            try:
                r, own = factory(*args), logging.LogRecord(*args)
                made = (str(r.levelname), int(r.levelno), str(r.name), str(r.getMessage()))
            except Exception as exc:
                made, own = type(exc).__name__, None
            if own is None or made != (own.levelname, own.levelno, own.name, own.getMessage()):
                out.append((name, level, made))
    return {"relabelled": tuple(out)}


def _private_registries_held(guard) -> None:
    """A key of a private registry (`_private_registries`) given another value, or removed, where the patch spells
    the function that changes it and no test file does, is a finding; a new key (a custom level, a dialect of the
    project's own) is the registry's use."""
    was = _STATE.get("private_registries")
    if not was:
        return
    now = _private_registries()
    tests, patch = getattr(guard, "test_words", frozenset()), _STATE.get("patch_words", frozenset())
    for what, (fn, before) in was.items():
        changed = [k for k, v in before.items() if now[what][1].get(k, _ABSENT) != v]
        if changed and fn in patch and fn not in tests:
            _record(guard, f"the standard library's {what} changed ({changed[0]!r}) where the patch spells {fn} and "
                           "no test file does: a test's oracle reads it")
    _STATE["private_registries"] = now


def _registries_held(guard, only=None, _record=_record) -> None:
    """At the end of collection (a change the patch made at import), after each test's teardown, and at each assert
    for the modules the test modules name (`only`: a change made in the call and undone before the teardown): a
    registry or default of the standard library changed where the patch's lines spell its name (or, changed in
    place, its module's) and no test file does is a finding."""
    held = _STATE.get("registries")
    if not held:
        return
    tests, patch = getattr(guard, "test_words", frozenset()), _STATE.get("patch_words", frozenset())
    changes = registry_changes(held if only is None else [held[i] for i in only])
    for where, name, in_place in changes:
        if name in tests:
            continue
        module = where.split(".")
        if name in patch or (in_place and (module[-1] in patch or where in patch)):
            _record(guard, f"the standard library's {where}.{name} was {'changed in place' if in_place else 'rebound'}"
                           " during the run where the patch spells it and no test file does: a test's oracle reads it")
    if changes:
        _STATE["registries"] = _registry_snapshot_of(held)


def oracle_spaces(modules: list) -> tuple:
    """The indices of the held namespaces that the test modules name: a standard-library module in their globals, or
    the module of a function or class there (`from urllib.parse import urljoin`), and that module's classes."""
    names = set()
    for mod in modules:
        for v in list(_space(mod).values()):
            name = _space(v).get("__name__") if type(v) in _MODULE_CLASSES else v.__module__ if type(
                v) is type(_among) else type.__dict__["__module__"].__get__(v) if issubclass(type(v), type) else None
            if type(name) is str:
                names.add(name)
    held = _STATE.get("registries") or []
    return tuple(i for i, entry in enumerate(held) if entry[0] in names or entry[0].rsplit(".", 1)[0] in names)


def _registry_snapshot_of(held: list) -> list:
    """The same namespaces as they are now (taken as the new state, so a change is said once)."""
    return [_held_space(w, space, keys, h) for w, space, keys, _, h in held]


# -- a test class's project base ----------------------------------------------------------------------------------
# What the runner, the class statement or the test itself calls on a test class or its instance with the tests' own
# objects: the class (its tables, at `__init_subclass__`), the test method (its parametrize marks, at
# `setup_method`), the instance (what `setUpClass` built, at `setUp`), a subtest's values (`subTest(n=n, want=want)`).
_TEST_CLASS_HOOKS = ("__init_subclass__", "__class_getitem__", "__new__", "__init__", "__getattribute__",
                     "__getattr__", "__setattr__", "setUp", "tearDown", "setUpClass", "tearDownClass", "setup_method",
                     "teardown_method", "setup_class", "teardown_class", "setup", "teardown", "subTest", "run",
                     "__call__", "debug", "_callSetUp", "_callTestMethod", "_callTearDown", "_callCleanup",
                     "doCleanups", "addCleanup")


def _class_function(cls, name: str, owner: bool = False):
    """The plain function `cls` resolves `name` to through its MRO (a class or static method's function), or None;
    with `owner`, (the class that defines the name, that function), (None, None) where none does."""
    for c in type.__dict__["__mro__"].__get__(cls):
        space = _ns(c)
        if name in space:
            fn = space[name]
            fn = getattr(fn, "__func__", fn) if type(fn) in (classmethod, staticmethod) else fn
            fn = fn if type(fn) is type(_among) else None
            return (c, fn) if owner else fn
    return (None, None) if owner else None


def test_class_hooks(items: list, guard) -> list:
    """Findings for each test class (a class of a test file) whose hook resolves to a project class's function
    that the patch wrote a line of, or whose metaclass is a project class the patch changed (R67-1, 5, 7, 10, 14,
    T15: a project mixin reading the tests' tables in the hooks the runner calls with them). The project's own
    unchanged hooks, and a fix elsewhere in the same class, are not."""
    out, seen = [], set()
    for cls in (getattr(i, "cls", None) for i in items):
        if not issubclass(type(cls), type) or cls in seen or _home(cls, guard) != "test":
            continue
        seen.add(cls)
        for name in _TEST_CLASS_HOOKS:
            owner, fn = _class_function(cls, name, owner=True)
            if owner is None or _home(owner, guard) in ("lib", "test"):
                continue
            reached = [n for n in getattr(getattr(fn, "__code__", None), "co_names", ())[:100]
                       if _patch_wrote(_class_function(cls, n), guard)]  # the methods it calls by name, one level
            if _patch_wrote(fn, guard) or reached:
                what = f"{owner.__qualname__}.{name}" + (f", calling {reached[0]}" if reached else "")
                out.append(f"test class {cls.__qualname__}: its {name} is {what}, code the patch wrote, which the "
                           "runner calls with the tests' own class, method or values")
        for attr, value in list(_ns(cls).items())[:200]:  # a project object the class
            t = type(value)  # holds: `__set_name__` gets the class, `__get__` the instance (T3, R68-5)
            hooks = [n for n in ("__set_name__", "__get__", "__set__", "__delete__")
                     if _home(t, guard) == "changed" and _patch_wrote(_class_function(t, n), guard)]
            if hooks:
                out.append(f"test class {cls.__qualname__}: its attribute {attr} is a {t.__qualname__}, whose {hooks[0]}"
                           " the patch wrote, which Python calls with the tests' own class or instance")
        meta = type(cls)
        if meta is not type and _home(meta, guard) not in ("lib", "test") and _class_wrote(meta, guard):
            out.append(f"test class {cls.__qualname__}: its metaclass {meta.__qualname__} is a class the patch changed")
    return out


_DECORATED: dict = {}  # test file -> [(what it decorates, the decorator's dotted name)], from its syntax tree


_EXPECTS = frozenset({"AssertionError", "Exception", "BaseException"})
_EXPECTING_CALLS = frozenset({"raises", "assertRaises", "assertRaisesRegex"})
_HANDLING: dict = {}  # a test file's real path -> the first lines of its functions that expect a failure themselves


def _note_handlers(tree, where: str) -> None:
    """The test functions (and methods) that expect a failure themselves, from the file's own text (the rewritten
    code names `AssertionError` wherever an assert is): `pytest.raises`/`assertRaises` anywhere in them, or an
    `except` of AssertionError, Exception, BaseException or anything (`failed_unseen`)."""
    def names(t) -> list:
        items = t.elts if isinstance(t, ast.Tuple) else [t]
        return [getattr(n, "id", None) or getattr(n, "attr", None) for n in items]

    lines = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for n in ast.walk(node):
            call = n.func if isinstance(n, ast.Call) else None
            expected = n.args[0] if call is not None and n.args else None  # `pytest.raises(ValueError)` expects no
            # failed assert (R73-32); a name it cannot read (a variable, a tuple of them) may
            if (isinstance(n, ast.ExceptHandler) and (n.type is None or _EXPECTS & set(names(n.type)))) or (
                    call is not None and (getattr(call, "id", None) or getattr(call, "attr", None)) in _EXPECTING_CALLS
                    and (expected is None or _EXPECTS & set(names(expected)) or not all(
                        isinstance(e, (ast.Name, ast.Attribute)) for e in (
                            expected.elts if isinstance(expected, ast.Tuple) else [expected])))):
                lines.update([node.lineno, *(d.lineno for d in node.decorator_list)])
                break
    _HANDLING[where] = frozenset(lines)


def _note_decorators(tree, where: str) -> None:
    """The decorators of a test file's functions and classes (a method's too), as dotted names; a decorator call
    (`@frozen(ts)`) by the function it calls."""
    found = []
    todo = [(node, "") for node in getattr(tree, "body", [])]
    while todo and len(found) < 500:
        node, outer = todo.pop()
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for dec in node.decorator_list:
            dec = dec.func if isinstance(dec, ast.Call) else dec
            parts = []
            while isinstance(dec, ast.Attribute):
                parts.insert(0, dec.attr)
                dec = dec.value
            if isinstance(dec, ast.Name):
                found.append((outer + node.name, (dec.id, *parts)))
        if isinstance(node, ast.ClassDef):
            todo += [(n, outer + node.name + ".") for n in node.body]
    _DECORATED[where] = found
    _note_handlers(tree, where)  # the same file's text, read once here


def decorator_handoffs(modules: list, guard) -> list:
    """Findings for each test function or class of these modules that a project decorator the patch wrote a line of
    decorates (T13, R68-2): a decorator is handed the test itself, its marks and its class's tables, when the test
    file is imported. Resolved through module namespaces and class dictionaries only (no code runs)."""
    out = []
    for mod in modules:
        space = _space(mod)
        for target, dotted in _DECORATED.get(__import__("os").path.realpath(str(space.get("__file__"))), ()):
            obj = space.get(dotted[0], _ABSENT)
            for part in dotted[1:]:
                holder = _space(obj) if type(obj) in _MODULE_CLASSES else (
                    _ns(obj) if issubclass(type(obj), type) else {})
                obj = holder.get(part, _ABSENT)
            obj = getattr(obj, "__func__", obj) if type(obj) in (classmethod, staticmethod) else obj
            if type(obj) is type(_among) and _home(obj, guard) == "changed" and _patch_wrote(obj, guard):
                out.append(f"{space.get('__name__')}.{target} is decorated by {'.'.join(dotted)}, code the patch "
                           "wrote, which is handed the test itself (its marks, its class's tables)")
    return out


def fixture_handoffs(items: list, guard) -> list:
    """Findings for each fixture of the project (a plugin it ships, R67-11) that the patch wrote a line of and to
    which pytest hands the test's own values: `request` (the test's node, its parameters) or an argument of the
    test's parametrize table. The tests' own fixtures (conftest) are protected; the project's unchanged ones run
    as before."""
    out, seen = [], set()
    for item in items:
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", None)
        params = getattr(getattr(item, "callspec", None), "params", None)
        if type(defs) is not dict:
            continue
        for fd in [fd for fds in list(defs.values()) for fd in tuple(fds)[:20]]:
            fn = getattr(fd, "func", None)
            args = getattr(fd, "argnames", ())
            if fn in seen or type(args) is not tuple:
                continue
            seen.add(fn)
            handed = [a for a in args if a == "request" or (type(params) is dict and a in params)]
            if handed and _home(fn, guard) == "changed" and _patch_wrote(fn, guard):
                out.append(f"fixture {getattr(fn, '__qualname__', '?')} of the project, a line of which the patch "
                           f"wrote, is handed the test's {handed[0]}")
    return out


# -- pytest hands `ids=` callables every row ------------------------------------------------------------------------
def _watch_ids(guard) -> None:
    """pytest calls a parametrize table's or a fixture's `ids=` callable with every row at collection, the expected
    values among them (R67: T6 `parametrize(ids=label)`, R67-6 `fixture(params=..., ids=describe)`): code the patch
    wrote that runs in such a call, however the callable reaches it (the project's own `label`, a test file's lambda
    calling it), sees the answers before any test asks. Each such call runs under a profiler that names it."""
    try:
        from _pytest.python import Metafunc
    except Exception:
        return
    original = Metafunc.parametrize

    def parametrize(self, argnames, argvalues, *args, **kwargs):
        at = 1 if args else None  # (indirect, ids, ...) positionally, as pytest's own signature orders them
        ids = kwargs.get("ids") if at is None or len(args) <= at else args[at]
        if callable(ids):
            traced = _watched_ids(ids, guard)
            if "ids" in kwargs or at is None or len(args) <= at:
                kwargs["ids"] = traced
            else:
                args = (*args[:at], traced, *args[at + 1:])
        return original(self, argnames, argvalues, *args, **kwargs)

    Metafunc.parametrize = parametrize


def _watched_ids(ids, guard, _record=_record):
    def _traced(value, *rest):  # the name the guard lets put the witness's profiler on (`Guard._suspect_why`)
        ran = []

        def _on_ids_call(frame, event, arg):  # reads the frame's code, hands nothing back (`_FRAME_READERS`)
            if event == "call" and not ran and _code_home(frame.f_code, (), guard) is not None:
                ran.append(f"{frame.f_code.co_name} ({frame.f_code.co_filename}:{frame.f_code.co_firstlineno})")

        old = sys.getprofile()
        sys.setprofile(_on_ids_call)
        try:
            return ids(value, *rest)
        finally:
            sys.setprofile(old)
            if ran:
                _record(guard, f"a parametrize `ids=` callable ran {ran[0]}, code the patch wrote: pytest hands it "
                               "every row of the table, the expected values among them")

    return _traced


def _settings_held(guard, _record=_record):
    """The settings as the launcher found them, or a change that the tests' own files explain; otherwise a change a
    patch that reaches the setting may have made is a finding (then taken as the new state, so it is said once)."""
    held = _STATE.get("settings")
    if held is None:
        return
    read, before = held
    try:
        now = read()
    except Exception as exc:  # a setting's object replaced by something that cannot be read is a change too
        _record(guard, f"the standard library's settings could not be read ({type(exc).__name__}): the tests' "
                       "oracles may compute with changed ones")
        _STATE["settings"] = None
        return
    for name, was in before.items():
        if _same_setting(was, now.get(name)):
            continue
        setters, reach = _SETTING_WORDS[name]
        tests, patch = getattr(guard, "test_words", frozenset()), _STATE.get("patch_words", frozenset())
        if not any(w in tests for w in setters) and any(w in patch for w in reach):
            _record(guard, f"the standard library's {name} setting changed during the run, and the patch reaches it "
                           "while no test file sets it: a test's oracle computes with it")
    _STATE["settings"] = (read, now)


def _asserting():
    """The guard, at every assert the rewrite routes here; and the tables the tests loop over, checked again: a
    table swapped while a loop reads it and put back before the test ends is caught at the assert in between,
    whatever the assert asks (`==`, `<`, `in`, `len`, truth, `isinstance`, a text predicate)."""
    guard = _STATE.get("guard")
    if guard is None:  # the strict asserts were installed with it: someone removed it
        raise AssertionError("swerl: the strict-assert state was changed")
    if guard.tables:
        _tables_held(guard, *_TABLES)
    _stdlib_held(guard)
    return guard


def _stdlib_held(guard) -> None:
    """The standard library's settings, and the registries of the modules the tests name, as they were: the
    launcher's own state (this function is no frozen copy: `_frozen`), at every assert."""
    if _STATE.get("holding"):  # a check that ran the tests' code (a builtin they patched) asserting in turn
        return
    _STATE["holding"] = True
    try:
        _settings_held(guard)
        _private_registries_held(guard)
        if _STATE.get("oracles"):
            _registries_held(guard, _STATE["oracles"])
        if _MOCK_CALLS or _MOCK_LISTS:
            _mocks_held(guard)
        if _LOG_RECORDS:
            _logs_held(guard)
        if _CAPTURED:
            _captures_held(guard)
        if _STATE.get("drops_watched"):
            _loggers_silenced(guard)
    finally:
        _STATE["holding"] = False

def compare(left, right, ne=False, lit=0, at=None, _record=_record, _getframe=sys._getframe,
            _audit=getattr(sys, "audit", None)):
    """`left == right` (`!=` with `ne`) as a test file's assert sees it, decided here.

    When one side is a builtin scalar k and the other is not, the other side first commits to its own value as a
    builtin of k's type (before it is shown anything); saying it equals k with another committed value is
    tampering. It is then asked about k several times,
    shuffled among changed copies of k, never last: an honest value answers the same each time and agrees with
    no copy. A value that agrees with a copy, answers differently for the same k, or learns k from the
    questions (it cannot tell which one is k) is tampering. Builtin containers of the same shape are compared
    element by element the same way; anything else is plain `==`."""
    guard = _asserting()
    left, right = _forwarded(left, guard), _forwarded(right, guard)
    try:
        names = _nameable(_getframe(1))  # the test code: the rewritten assert called us
    except Exception:
        names = frozenset()
    foreign = next((v for v in (left, right) if _foreign_meta(type(v), guard)), None)
    if foreign is not None:  # its class answers questions about itself (`==`, `__mro__`, `__module__`): ask nothing
        result, found = _ask(left, right, True, ne), f"a {type(foreign).__name__} whose class has the patch's metaclass"
    else:
        result, found = _judge(left, right, ne, guard, 0, (names, lit))
        found = found or _consistent(left, right, guard)
    for v in (left, right):
        found = found or _quiet_single(v, guard)
    if found:
        _record(guard, f"assertion compared {found}")
    if isinstance(result, BaseException):
        raise result
    if not ne and _audit is not None:  # for the grader's blind run (`_held_watch`): where it held, and what both
        # sides were, in every run alike (an honest fix answers the same in the blind run: `Blind.answered`)
        _audit("swerl.held", at, (_digest(left), _digest(right), result is True))
    return result


def _digest(value, _blake=__import__("hashlib").blake2b, _budget=4096):
    """A short digest of a value built of exact builtins only, the same in every process for an equal value (a set's
    or a dict's items in the order of their digests); None for anything else, or past 4,096 items. Only types are
    asked, never a value's own methods: the grader compares the two runs' answers by it."""
    left = [_budget]

    def walk(x, depth):
        left[0] -= 1
        t = type(x)
        if left[0] < 0 or depth > 32:
            return None
        if x is None or t is bool or t is float or t is complex or (t is int and int.bit_length(x) < 4096):
            return (t.__name__ + ":" + t.__repr__(x)).encode()
        if t is str or t is bytes:
            return _blake((t.__name__ + ":").encode() + (x if t is bytes else str.encode(x, "utf-8", "surrogatepass")),
                          digest_size=16).digest()
        if t is list or t is tuple:
            parts = [walk(v, depth + 1) for v in (list.__iter__(x) if t is list else tuple.__iter__(x))]
        elif t is dict:
            parts = [_pair(walk(k, depth + 1), walk(v, depth + 1)) for k, v in dict.items(x)]
        elif t is set or t is frozenset:
            parts = [walk(v, depth + 1) for v in (set.__iter__(x) if t is set else frozenset.__iter__(x))]
        else:
            return None
        if None in parts:
            return None
        if t is not list and t is not tuple:
            parts.sort()
        h = _blake(t.__name__.encode(), digest_size=16)
        for part in parts:
            h.update(len(part).to_bytes(4, "big") + part)
        return h.digest()

    def _pair(k, v):
        return None if k is None or v is None else len(k).to_bytes(4, "big") + k + v

    try:
        out = walk(value, 0)
    except Exception:
        return None
    return None if out is None else _blake(out, digest_size=8).hexdigest()


def subject(value, _record=_record):
    """`match value:` in a test: its literal and value patterns compare with `==`, so a value that equals different
    probes (anything) is judged before any case sees it; the value itself goes on to the cases unchanged."""
    guard = _asserting()
    found = _quiet_single(_forwarded(value, guard), guard)
    if found:
        _record(guard, f"a match compared {found}")
    return value


def entered(name, _audit=getattr(sys, "audit", None)) -> None:
    """The first statement of every top-level function and method of a test file: its body began to run (the
    guard's hook keeps that, from this function called by a test file's frame of that name only)."""
    if _audit is not None:
        _audit("swerl.entered", name)


def escaped(name, exc=None, _audit=getattr(sys, "audit", None)) -> None:
    """An exception is leaving the test function `name` (its whole body is wrapped in this handler): the guard's hook
    notes which frames sit around it, so a test that passes after one (a decorator the patch wrote that catches)
    is a finding; whether it is a test failure decides whether an unchanged project wrapper may catch it (a
    hypothesis-like decorator skipping a rejected example may; none may hide a failed assert)."""
    if _audit is not None:
        _audit("swerl.escaped", name, _is_failure(exc))


def _is_failure(exc) -> bool:
    """A test failure: an `AssertionError` (unittest's `failureException` too) or pytest's `fail()`/outcome."""
    return any(c.__name__ in ("AssertionError", "OutcomeException", "Failed") for c in type(exc).__mro__)


_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))
_PROXIES = (type(__import__("weakref").proxy(_among)), type(__import__("weakref").proxy(type("_W", (), {})())))
_WRAPPERS = frozenset({"enumerate", "zip", "reversed", "iter"})


def _looped_iter(expr: ast.expr) -> ast.expr:
    """`for x in EXPR`: EXPR through `looped`; `enumerate(EXPR)`, `zip(A, B)`, `reversed(EXPR)`: their arguments."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _WRAPPERS:
        expr.args = [a if isinstance(a, ast.Starred) else _looped_iter(a) for a in expr.args]
        return expr
    return ast.copy_location(_call("looped", [expr]), expr)


def looped(value):
    """What a test's loop iterates: a builtin container (a list, a dict, its items view) as it is when the loop
    begins: a dict or its view, or a project table the tests loop over (`_tables_held`). Code the loop calls
    cannot reorder, swap or drop what the rest of the loop reaches (a list its own module may sort, reversed by the
    first entry's code, would pass the second one by)."""
    t = type(value)
    if t is dict or t is _VIEWS[0]:  # changing a dict's size while a loop reads it raises: honest loops never do
        return list(value)
    if t in _VIEWS[1:]:  # `.items()`, `.values()`: the keys as they were, each value as it is when reached
        mapping = getattr(value, "mapping", None)
        return _read_on(list(mapping), mapping, t is _VIEWS[2]) if mapping is not None else list(value)
    held = _TABLES[0].get("objects")  # a list a test may grow while it walks it (a work queue) only if it is a
    if t in (list, tuple, set, frozenset) and held and id(value) in held:  # project table the tests loop over
        return list(value)
    return value


def _read_on(keys: list, mapping, pairs: bool):
    for k in keys:
        if k not in mapping:  # as a dict's own iterator would: its size changed under the loop
            raise RuntimeError("dictionary changed size during iteration")
        yield (k, mapping[k]) if pairs else mapping[k]


# -- a test's inputs, read as the test made them -------------------------------------------------------------------
# A test that hands a list, dict or set to the project and then computes its expected value from the same object
# (`assert isort(xs) == sorted(xs)`, a comprehension over a setUp dict, a round trip `decode(encode(p)) == p`, a
# module constant another test handed over, `os.environ` after the call) reads whatever the project left there: a
# patch that writes its own answer back into the input makes the oracle agree with the bug (R71-1, 5, 7, 10, 12,
# 14). Each call the tests' code makes into project code is watched: a builtin container it handed over whose items
# the call removed or changed is kept with its content from before. At an `==` of the tests whose expected side can
# be read again (builtins and reads only), that side is read once more with those inputs as the test made them; an
# assert that holds only with the rewritten input, against a value the project gave, is a finding.
_CALLS: list = []  # [watched?, [(object, its content before the call), ...]] of each call in progress
_REWRITTEN: dict = {}  # id(object) -> (object, its content before project code first changed it)
_RETURNED: dict = {}  # id(value) -> value: what the current test's calls into project code returned
_HANDED: dict = {}  # id(container) -> container: the first 8 the current test handed to project code
_HANDED_SEEN: dict = {}  # id(container) -> what it held when the last watched call of the tests' code ended
_BETWEEN: dict = {}  # id(container) -> (it, what it held before): rewritten between two watched calls
_TEST_MUTATED: set = set()  # names the test modules' code changes in place (`xs.append`, `xs[0] =`, `del xs[0]`)
_DERIVED: dict = {}  # id(value) -> (value, its thunk): containers the current test bound a name to by a read
_PROJECT_CODE: dict = {}  # code object -> is it the project's
_MUTABLE = (list, dict, set, bytearray)
# the standard library's dicts a test hands over as it does a dict (R73-8: a `Counter` of words), read as one
_MAPPINGS = tuple(getattr(__import__("collections"), n) for n in ("Counter", "OrderedDict", "defaultdict"))
_EXACT_NUMBERS = (__import__("decimal").Decimal, __import__("fractions").Fraction)
_TIMES = tuple(getattr(__import__("datetime"), n) for n in ("datetime", "date", "timedelta"))
_NAMESPACE = type(sys.implementation)  # `types.SimpleNamespace`: an input of attributes (R74-22), kept as its dict
_ENVIRON = __import__("os").environ


def _project_callable(f) -> bool:
    """f runs the project's code first: a function or method defined in the project's files, a project class, or an
    instance of one (read by type: nothing of f's own is asked)."""
    t = type(f)
    if t is _METHOD:  # a bound method
        f, t = f.__func__, type(f.__func__)
    if t is type(_among):
        code = f.__code__
        known = _PROJECT_CODE.get(code)
        if known is None:
            guard = _STATE.get("guard")
            known = _PROJECT_CODE[code] = guard is not None and guard.kind(code.co_filename) in ("changed", "project")
        return known
    if t is type(len) or t is type(str.join) or t is type([].append):
        return False
    return _project_class(f if issubclass(t, type) else t)


def callee(f, _calls=_CALLS, _data=getattr(_ENVIRON, "_data", None)):
    """The tests' code is about to call f; its arguments follow (`passed`), then `answered` with what it returned."""
    try:
        watched = _project_callable(f)
    except Exception:
        watched = False
    held = [(_ENVIRON, dict(_data))] if watched and type(_data) is dict and len(_data) < 5000 else []
    if watched:
        held += [(name, read()) for name, read in (_STATE.get("process") or {}).items()]
        held += _handed_before()
        _note_unwatched(held)
    _calls.append([watched, held])
    return len(_calls) - 1


def mark(_calls=_CALLS) -> int:
    """Where the call about to be made will stand among the calls in progress (`through`)."""
    return len(_calls)


def through(f):
    """`callee` for a callee the tests' code makes as it calls it (`Sorter().sort(data)`): f itself, to be called
    from the same frame."""
    callee(f)
    return f


# The process state the tests draw inputs or compute oracles from, where their files name it: the global random
# stream (a test seeds it and generates its inputs) and the file-creation mask (a test computes the mode a file
# gets). A call into project code that reseeds the stream (R71-3: every later generated list one the bug passes) or
# leaves the mask changed (R71-15: the oracle `0o666 & ~umask` then agrees with the bug's chmod) steers them; the
# patch must spell a way to reach it.
_PROCESS_WORDS = {"random": ("seed", "setstate", "_inst"), "umask": ("umask",)}


def _process_readers(guard) -> dict:
    """{name: reader} of each process state the test files name; bound to the standard library's own objects now,
    before any project code runs."""
    import os
    import random

    tests = getattr(guard, "test_words", frozenset())
    out = {}
    if "random" in tests and type(getattr(random, "_inst", None)) is random.Random:
        out["random"] = random._inst.getstate
    if "umask" in tests:
        out["umask"] = _mask_reader(os.umask)
    _set_outside_calls(guard, out, random, os)
    return out


def _set_outside_calls(guard, readers: dict, random, os) -> None:
    """The same states set by a line the patch wrote outside any call of the tests' (at import: R73-38's
    `os.umask(0)`, R73-39's `random.seed(...)` that makes an unseeded test's inputs known to a table): the
    setters are watched from now on, before any project code runs."""
    def watched(fn, what: str):
        def setter(*args, **kwargs):
            out = fn(*args, **kwargs)
            if not _CALLS:
                _by_patch(guard, f"{what} outside the tests' calls")
            return out

        _dressed(setter, fn)
        return setter

    def watched_method(fn):  # `random._inst.seed(...)`, `Random.seed(random._inst, ...)`
        def method(self, *args, **kwargs):
            out = fn(self, *args, **kwargs)
            if self is random._inst and not _CALLS:
                _by_patch(guard, "the global random stream was reseeded outside the tests' calls")
            return out

        _dressed(method, fn)
        return method

    if "random" in readers:
        for name in ("seed", "setstate"):
            setattr(random, name, watched(getattr(random, name), "the global random stream was reseeded"))
            setattr(random.Random, name, watched_method(getattr(random.Random, name)))
    if "umask" in readers:
        os.umask = watched(os.umask, "the process umask was changed")


def _mask_reader(umask):
    def read() -> int:
        mask = umask(0o022)  # the only way to read it is to set it: put back at once
        umask(mask)
        return mask

    return read


def _process_changed(name: str, before, guard, seeds: list = (), _record=_record) -> None:
    """A finding where a call into project code reseeded the random stream (its state is no continuation of the one
    before the call: `_continues`, nor of a seed the test handed the call) or changed the mask, and the patch spells
    a way to reach it."""
    reader = (_STATE.get("process") or {}).get(name)
    if reader is None or not any(w in _STATE.get("patch_words", frozenset()) for w in _PROCESS_WORDS[name]):
        return
    now = reader()
    if now == before or (name == "random" and any(_continues(b, now) for b in (before, *map(_seeded, seeds)))):
        return
    what = "reseeded the global random stream" if name == "random" else "left the process umask changed"
    _record(guard, f"a call of the tests' code into project code {what}: the tests draw their inputs or compute "
                   "their expected values from it")


def _seeded(seed):
    """The Mersenne Twister state `random.seed(seed)` gives."""
    import random

    return random.Random(seed).getstate()


def _continues(before, now, blocks: int = 2048) -> bool:
    """The Mersenne Twister state `now` is `before` advanced by draws (at most `blocks` regenerations of its 624
    words): consumption, not a reseed."""
    import random

    if before[0] != now[0] or len(before[1]) != len(now[1]):
        return False
    words, r = now[1][:-1], random.Random()
    r.setstate(before)
    if before[1][:-1] == words:
        return now[1][-1] >= before[1][-1]
    left = len(words) - before[1][-1]
    if left > 0:
        r.getrandbits(32 * left)
    for _ in range(blocks):
        r.getrandbits(32 * len(words))
        if r.getstate()[1][:-1] == words:
            return True
    return False


def _handed_before() -> list:
    """(object, its content now) of each small container the current test handed an earlier call: the project may
    keep a reference and rewrite it from a later call (R73-6: `Leaderboard(scores)`, then `board.top(2)`)."""
    out = []
    for obj in list(_HANDED.values()):
        content = _copy_pure(_plain(obj), [256])
        if content is not _NO_VALUE:
            out.append((obj, content))
    return out


def _note_unwatched(held: list) -> None:
    """A handed container rewritten since the last watched call ended, before the next one (a `with` block's exit:
    R74-21), kept for `_changed_unwatched` with what it held then."""
    for obj, _ in held:
        seen = _HANDED_SEEN.get(id(obj), _NO_VALUE)
        if type(obj) is not str and id(obj) not in _BETWEEN and seen is not _NO_VALUE and _rewrites(obj, seen):
            _BETWEEN[id(obj)] = (obj, seen)


def _changed_unwatched(values: list, names: set) -> list:
    """(object, what it held) of each container the current test handed an earlier call that changed since the last
    watched call ended, where the tests' code changes no name the oracle reads in place: project code reached
    without a call of the tests' (a property read: R74-11's `cart.total` popping from the caller's list) rewrote it."""
    if names & _TEST_MUTATED:
        return []
    out = []
    for v in values:
        seen, kept = _HANDED_SEEN.get(id(v), _NO_VALUE), _BETWEEN.get(id(v))
        if kept is not None and kept[0] is v:
            out.append(kept)
        elif _HANDED.get(id(v)) is v and seen is not _NO_VALUE and _rewrites(v, seen):
            out.append((v, seen))
    return out


def passed(value, _calls=_CALLS):
    """An argument of the call being made: a builtin container handed to project code is kept as it is now; an int
    or text is kept as a seed the call may be asked to use (R73-FP1: `draw(tickets, seed=7)`)."""
    if _calls and _calls[-1][0] and _among(type(value), (*_MUTABLE, *_MAPPINGS, _NAMESPACE)):
        content = _copy_pure(_plain(value), [20000])
        if content is not _NO_VALUE:
            _calls[-1][1].append((value, content))
            if len(_HANDED) < 8:
                _HANDED[id(value)] = value
                _HANDED_SEEN[id(value)] = content
    elif _calls and _calls[-1][0] and _among(type(value), (int, str, bytes)) and len(_calls[-1]) < 3 + 8:
        _calls[-1].append(value)
    return value


def answered(at, value, _calls=_CALLS):
    """The call made at `at` returned value: what it removed or changed in the containers handed to it is noted."""
    if type(at) is int and at < len(_calls):
        watched, held, *seeds = _calls[at]
        del _calls[at:]
        if watched:
            try:
                _note_rewritten(held, value, seeds)
                _HANDED_SEEN.update(_handed_before())
            except Exception:  # a container that cannot be read now: not noted
                return value
    return value


def _note_rewritten(held: list, value, seeds: list) -> None:
    if len(_RETURNED) < 512 and not _among(type(value), _SCALARS) and _small_pure(value):  # builtin containers
        # only: no object of anyone's is kept alive, and no scalar stands in for every equal one
        _RETURNED[id(value)] = value
    for obj, before in held:
        if type(obj) is str:
            _process_changed(obj, before, _STATE.get("guard"), seeds)
        elif id(obj) not in _REWRITTEN and _rewrites(obj, before):
            if len(_REWRITTEN) >= 64:
                del _REWRITTEN[next(iter(_REWRITTEN))]
            _REWRITTEN[id(obj)] = (obj, before)


def _plain(obj):
    """What a handed object holds as the builtin it stands for: the environment's dict, a `Counter`'s as a dict."""
    return obj._data if obj is _ENVIRON else dict(obj) if _among(type(obj), _MAPPINGS) else dict(
        object.__getattribute__(obj, "__dict__")) if type(obj) is _NAMESPACE else obj


def _rewrites(obj, before) -> bool:
    """obj lost or changed what it held before the call (a list that only grew, a dict or set that only gained
    keys, was added to: a registry the project fills is not a rewritten input)."""
    now = _copy_pure(_plain(obj), [20000])
    if now is _NO_VALUE:
        return True
    if type(before) in (list, bytearray):
        return now[:len(before)] != before
    if type(before) is dict:
        return any(k not in now or now[k] != v for k, v in before.items())
    return not before <= now


def _small_pure(x, budget: int = 2000) -> bool:
    """x is a builtin container of builtin scalars (nested), of at most `budget` items: keeping it holds no object of
    anyone's alive (a test of weak references or reference counts sees what it would without the witness)."""
    todo = [x]
    while todo:
        budget -= 1
        v = todo.pop()
        t = type(v)
        if budget < 0 or not (_among(t, _SCALARS) or _among(t, _COLLECTIONS)):
            return False
        if t is dict:
            todo += [*v.keys(), *v.values()]
        elif not _among(t, _SCALARS):
            todo += list(v)
    return True


# the standard library's immutable values, compared by its own code: a list of prices handed over is kept (R73-27)
_LEAVES = tuple(getattr(__import__(m), n) for m, n in (
    ("decimal", "Decimal"), ("fractions", "Fraction"), ("datetime", "date"), ("datetime", "datetime"),
    ("datetime", "time"), ("datetime", "timedelta"), ("uuid", "UUID"), ("pathlib", "PurePosixPath"),
    ("pathlib", "PosixPath")))


def _copy_pure(x, budget: list):
    """A copy of x when it is builtin scalars and containers of them all the way down (comparing it runs no code of
    the project's), within `budget` items; `_NO_VALUE` otherwise."""
    budget[0] -= 1
    t = type(x)
    if _among(t, _SCALARS) or _among(t, _LEAVES):
        return x
    if budget[0] < 0 or not _among(t, (*_COLLECTIONS, bytearray)):
        return _NO_VALUE
    if t is dict:
        out = {}
        for k, v in list(x.items()):
            k, v = _copy_pure(k, budget), _copy_pure(v, budget)
            if k is _NO_VALUE or v is _NO_VALUE:
                return _NO_VALUE
            out[k] = v
        return out
    if t is bytearray:
        return bytearray(x)
    items = [_copy_pure(e, budget) for e in list(x)]
    return _NO_VALUE if any(e is _NO_VALUE for e in items) else t(items)


def reread(sides: int, left, right, _record=_record):
    """`left == right` of the tests' code, each side a thunk evaluated here in order; `sides` says of each side
    whether it only reads (builtins and lookups: it can be read again) or is a constant (`_reread_sides`)."""
    a = left()
    b = right()
    if _REWRITTEN or _HANDED:
        try:
            found = _input_reread(a, b, sides, left, right)
        except Exception:
            found = None
        if found:
            _record(_STATE.get("guard"), found)
    return a, b


def derived(thunk, _derived=_DERIVED):
    """`name = <a read of the test's values>` in the tests' code: a builtin container it gives is remembered with
    its thunk, so an `==` that compares the name (`assertEqual(got, want)`) reads it again as if written there."""
    value = thunk()
    if _among(type(value), _COLLECTIONS) and len(_derived) < 512 and _small_pure(value):
        _derived[id(value)] = (value, thunk, _copy_pure(value, [20000]))  # read as bound, while it holds that
    return value


def _input_reread(a, b, sides: int, left, right):
    """A finding when one side reads an input project code rewrote and the other is the project's answer, the two
    are equal, and reading the first again with the input as the test made it makes them differ."""
    for value, other, thunk, other_thunk, mine, theirs in ((a, b, left, right, sides & 3, sides >> 2 & 3),
                                                           (b, a, right, left, sides >> 2 & 3, sides & 3)):
        made = _DERIVED.get(id(value)) if mine == 3 else None  # a side that is a name alone (not a helper's
        # result that was a name bound inside it: R73-19's control)
        mine, theirs = mine & 1 or mine, theirs & 1 or theirs  # a name alone reads (1)
        if made is not None and made[0] is value and _copy_pure(value, [20000]) == made[2]:
            thunk = made[1]  # a name the test bound to a read, unchanged since: read as the line that bound it
        elif mine != 1:
            continue
        if theirs == 2:  # a constant: the project gave neither side
            continue
        inputs = _inputs_read(thunk)
        if not inputs or (theirs == 1 and not _from_project(other, other_thunk)) or (value is other and (
                not _among(type(value), _SCALARS) or all(_permuted(o, b) for o, b in inputs))):
            continue  # the same object: an item the answer was read from (a sort in place is the contract of
            # `summarize(readings)`, R73-FP21); a small int both sides are by the interpreter's cache counts only
            # where the input kept its items (R74-10 deletes one)
        now, answer = _copy_pure(value, [20000]), _copy_pure(other, [20000])
        if now is _NO_VALUE or answer is _NO_VALUE or now != answer:
            continue
        then = _read_as_made(thunk, inputs)
        if then is _NO_VALUE or then != answer:
            names = ", ".join(sorted({type(o).__name__ for o, _ in inputs}))
            return (f"an == of the tests' code holds only with an input project code rewrote ({names}): read as "
                    "the test made it, its expected side differs from the project's answer")
    return None


def _permuted(obj, before) -> bool:
    """obj holds the items it held before, in another order (a sort in place)."""
    now = _copy_pure(_plain(obj), [20000])
    return type(now) is list and type(before) is list and _same_items(now, before)


def _read_values(fn) -> list:
    """The values a test's thunk reads by name: its closure's cells, the globals its code names, and the attributes
    of those it names (`self.a`, `os.environ`), read from instance, class and module dicts."""
    code = fn.__code__
    names, todo = set(), [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names)
        todo += [k for k in c.co_consts if type(k) is type(code)]
    if names & _READ_CALLS and (names & _READ_CALLS & set(fn.__globals__) or set(code.co_freevars) & _READ_CALLS):
        return []  # a builtin the side calls is rebound: it is not read again
    values = [cell.cell_contents for cell in fn.__closure__ or () if _filled(cell)]
    values += [fn.__globals__[n] for n in names if n in fn.__globals__]
    out = list(values)
    for v in values:
        for space in _spaces(v):
            out += [space[n] for n in names if n in space]
    return out


def _filled(cell) -> bool:
    try:
        return cell.cell_contents is not _filled
    except ValueError:
        return False


def _spaces(v) -> list:
    t = type(v)
    if _among(t, _MODULE_CLASSES):
        return [_space(v)]
    try:
        own = object.__getattribute__(v, "__dict__")
    except Exception:
        own = None
    classes = type.__dict__["__mro__"].__get__(v if issubclass(t, type) else t)[:8]
    return [s for s in (own if type(own) is dict else None, *(_ns(c) for c in classes)) if s]


def _inputs_read(thunk) -> list:
    """(object, its content before) of each rewritten input the thunk reads."""
    out, seen, values = [], set(), _read_values(thunk)
    for v in values:
        kept = _REWRITTEN.get(id(v))
        if kept is not None and kept[0] is v and id(v) not in seen:
            seen.add(id(v))
            out.append(kept)
    code = thunk.__code__
    return out + [k for k in _changed_unwatched(values, {*code.co_names, *code.co_freevars}) if id(k[0]) not in seen]


def _from_project(value, thunk) -> bool:
    """The side is a value project code returned to the test, or reads one by name, or reads an object of a project
    class (`cart.total`: a property's answer, R74-11)."""
    if _RETURNED.get(id(value), _NO_VALUE) is value:
        return True
    return any(_RETURNED.get(id(v), _NO_VALUE) is v or (not _among(type(v), _EXACT) and _project_class(type(v)))
               for v in _read_values(thunk))


def _read_as_made(thunk, inputs: list):
    """A copy of the thunk's value with each input holding its content from before the call; `_NO_VALUE` where
    reading it raises or gives no builtin value. The inputs hold their current items again afterwards."""
    now = []
    try:
        for obj, before in inputs:
            now.append((obj, _swap(obj, _copy_pure(before, [1 << 30]))))
        try:
            return _copy_pure(thunk(), [20000])  # a copy: the value may be the input itself, put back below
        except Exception:
            return _NO_VALUE
    finally:
        for obj, items in reversed(now):
            _swap(obj, items)


def _swap(obj, items):
    """obj's items replaced in place by items; its items as they were."""
    if obj is _ENVIRON:
        obj = obj._data
    elif type(obj) is _NAMESPACE:
        obj = object.__getattribute__(obj, "__dict__")
    if type(obj) in (list, bytearray):
        was = obj[:]
        obj[:] = items
        return was
    was = obj.copy()
    obj.clear()
    obj.update(items)
    return was


_READ_CALLS = frozenset(("sorted", "len", "list", "dict", "set", "frozenset", "tuple", "sum", "min", "max", "abs",
                         "round", "str", "int", "float", "bool", "repr", "reversed", "enumerate", "zip", "range", "any",
                         "all", "chr", "ord", "divmod", "bytes"))
_READ_METHODS = frozenset(("get", "keys", "values", "items", "copy", "count", "index", "lower", "upper", "strip",
                           "most_common", "elements", "total",  # a `Counter`'s reads (R73-8)
                           "lstrip", "rstrip", "split", "rsplit", "join", "startswith", "endswith", "replace",
                           "format", "casefold", "splitlines", "partition", "rpartition", "encode", "decode",
                           "fromkeys"))
_READ_MODULES = frozenset(("os.path", "posixpath", "math", "statistics", "operator", "functools", "itertools"))
_NOT_THUNKED = frozenset(("super", "__class__", "locals", "vars", "dir", "globals", "eval", "exec"))
_UNWATCHED = _NOT_THUNKED | _READ_CALLS | {"isinstance", "issubclass", "print", "getattr", "setattr", "hasattr",
                                           "type", "id", "iter", "next", "callable", "open"}


def _dotted(e: ast.expr) -> str:
    """`a.b.c` as text, '' for anything but names and attributes."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        head = _dotted(e.value)
        return f"{head}.{e.attr}" if head else ""
    return ""


_PURE_HELPERS: set = set()  # the module-level functions of the test file being rewritten that only read


def _strict_visit(mod: ast.Module):
    """The test module rewritten (`_StrictCompare`), its helpers that only read known while it is."""
    _PURE_HELPERS.clear()
    _PURE_HELPERS.update(_pure_helpers(mod))
    _TEST_MUTATED.update(_mutated_names(mod))
    try:
        strict = _StrictCompare()
        strict.visit(mod)
        return strict
    finally:
        _PURE_HELPERS.clear()


def _mutated_names(mod: ast.Module) -> set:
    """The names the module's code changes in place: a method that changes a builtin container called on the name
    (`xs.append(...)`), an item or slice stored or deleted (`xs[0] = ...`, `del xs[1:]`), an augmented assignment."""
    out = set()
    for n in ast.walk(mod):
        target = n.func.value if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
            n.func.attr in _MUTATORS else n.value if isinstance(n, ast.Subscript) and isinstance(
                n.ctx, (ast.Store, ast.Del)) else n.target if isinstance(n, ast.AugAssign) else None
        if isinstance(target, ast.Name):
            out.add(target.id)
    return out


_MUTATORS = frozenset(("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update",
                       "setdefault", "popitem", "add", "discard", "difference_update", "intersection_update",
                       "symmetric_difference_update"))


def _pure_helpers(mod: ast.Module) -> set:
    """The test file's own functions that only read what they are handed (a reference implementation:
    `reference_merge(a, b)`, R73-19; one defined inside the test, R74-16): a call of one is read again as a
    builtin's is. Found to a fixpoint: a helper that calls an impure one is impure, and a name two functions share
    is pure only where both are."""
    defs = [f for f in ast.walk(mod) if isinstance(f, ast.FunctionDef) and not f.decorator_list]
    found = {f.name: [g for g in defs if g.name == f.name] for f in defs}
    while True:
        impure = {name for name, fs in found.items() if not all(_pure_body(f, set(found)) for f in fs)}
        if not impure:
            return set(found)
        for name in impure:
            del found[name]


def _pure_body(fn: ast.FunctionDef, helpers: set) -> bool:
    """fn calls builtins, read methods, methods of its own locals and the `helpers` only; it writes no attribute and
    no item of what it was handed, and makes no function, class or generator."""
    params = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs, *getattr(fn.args, "posonlyargs", [])]}
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - params
    for n in ast.walk(fn):
        if n is not fn and isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Yield,
                                          ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom,
                                          ast.With, ast.Delete, getattr(ast, "NamedExpr", ast.Await))):
            return False
        if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, ast.Store) and not (
                isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in local):
            return False
        if isinstance(n, ast.Call):
            f = _dotted(n.func)
            head, _, attr = f.rpartition(".")
            if not (f in _READ_CALLS or f in helpers or (head and attr in _READ_METHODS) or head in local):
                return False
    return True


def _reads_only(e: ast.expr) -> int:
    """1 where reading e runs builtins and lookups only (or a helper of the test file's that only reads:
    `_PURE_HELPERS`) and reads a name (it can be read again), 2 where it reads no name (a constant), 0 otherwise."""
    names = False
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            names = True
        elif isinstance(n, ast.Call):
            f = _dotted(n.func)
            head, _, attr = f.rpartition(".")
            if not (f in _READ_CALLS or f in _PURE_HELPERS or (head and attr in _READ_METHODS) or
                    head in _READ_MODULES) or not f:
                return 0
        elif not isinstance(n, _READ_NODES):
            return 0
    return 1 if names else 2


_READ_NODES = (ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Set, ast.Dict,
               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.BinOp, ast.UnaryOp,
               ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr, ast.FormattedValue, ast.Starred, ast.keyword,
               ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Name, ast.Store,
               *(getattr(ast, n) for n in ("Index", "Num", "Str", "Bytes", "NameConstant") if hasattr(ast, n)))


def _thunkable(e: ast.expr) -> bool:
    """e can become a lambda's body with the same meaning where it stands."""
    return not any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom, getattr(ast, "NamedExpr", ast.Await)))
                   or (isinstance(n, ast.Name) and n.id in _NOT_THUNKED) for n in ast.walk(e))


def _thunk(e: ast.expr) -> ast.expr:
    args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.copy_location(ast.Lambda(args=args, body=e), e)


def _reread_sides(left: ast.expr, right: ast.expr) -> int:
    """`_reads_only` of each side, the left's in bits 0-1 and the right's in bits 2-3; 0 where either side cannot
    become a thunk or neither reads a name."""
    if isinstance(left, ast.Starred) or isinstance(right, ast.Starred) or not (_thunkable(left) and _thunkable(right)):
        return 0
    bare = lambda e: 3 if isinstance(e, ast.Name) else _reads_only(e)  # noqa: E731  (3: a name read alone)
    sides = bare(left) | bare(right) << 2
    return sides if sides & 5 else 0


def _reread_pair(left: ast.expr, right: ast.expr, sides: int) -> ast.expr:
    """`*reread(sides, lambda: left, lambda: right)`: both sides in their order, the pair unpacked where it stood."""
    return ast.copy_location(ast.Starred(value=_call("reread", [ast.Constant(sides), _thunk(left), _thunk(right)]),
                                         ctx=ast.Load()), left)


def _watched_call(node: ast.Call) -> ast.expr:
    """`f(x, key=y)` of the tests' code -> `answered(callee(f), f(passed(x), key=passed(y)))` where f is a name or a
    dotted name (read twice: a lookup); the call is made from the same frame. A call handing over nothing is watched
    too: the process environment is an input of every call."""
    f = _dotted(node.func)
    made = not f and isinstance(node.func, (ast.Attribute, ast.Subscript, ast.Call))  # `Sorter().sort(x)` (R73-7)
    if not made and (not f or f.split(".")[0] in _UNWATCHED or f.rpartition(".")[2].startswith(("assert", "fail"))):
        return node
    plain = lambda a: isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)) or (  # noqa: E731
        isinstance(a, ast.Constant) and type(a.value) in (int, str, bytes))  # a literal: a seed it may be asked to use
    node.args = [_call("passed", [a]) if plain(a) else a for a in node.args]
    for k in node.keywords:
        if plain(k.value):
            k.value = _call("passed", [k.value])
    if made:  # a callee read once: `answered(mark(), through(F)(...))`, F's own calls answered before it is pushed
        at, node.func = _call("mark", [], node), _call("through", [node.func])
    else:
        at = _call("callee", [__import__("copy").deepcopy(node.func)])
    return ast.copy_location(_call("answered", [at, node]), node)


_ITEMS = 1000  # a `with` item's key: its statement's line times this, plus its place among the statement's items


def held(cm, is_async: bool = False, line: int = 0, asserts: tuple = ()):
    """A `with` item of a test file: the context manager, behind a proxy that sees what its exit does with an
    exception the test's body raised (`_Held`). One without the protocol is left as it is, so the `with` fails as
    Python makes it fail."""
    t = type(cm)
    has = (hasattr(t, "__aenter__") and hasattr(t, "__aexit__")) if is_async else (
        hasattr(t, "__enter__") and hasattr(t, "__exit__"))
    return _Held(cm, _swallowed, line, asserts) if has else cm


def raising(exc):
    """`raise X` in a test file: X (an instance, made here from a class) is remembered as raised on purpose."""
    if isinstance(exc, type) and issubclass(exc, BaseException):
        exc = exc()
    if isinstance(exc, BaseException):
        raised = _STATE.setdefault("raised", [])
        del raised[:-200]
        raised.append(exc)
    return exc


class _Held:
    """`with held(cm) as x:` behaves as `with cm as x:` (the same lookups, on the type, in the same order). Where
    cm's exit swallows an exception of the test's body (returns true), `judge` (`_swallowed`) decides whether the
    test's failure was hidden."""

    __slots__ = ("_asserts", "_cm", "_exit", "_judge", "_line")

    def __init__(self, cm, judge, line: int = 0, asserts: tuple = ()) -> None:
        self._cm, self._exit, self._judge, self._line, self._asserts = cm, None, judge, line, asserts

    def __enter__(self):
        t = type(self._cm)
        self._exit = t.__exit__
        return t.__enter__(self._cm)

    def __exit__(self, kind, value, tb):
        res = bool(self._exit(self._cm, kind, value, tb))  # read once: the `with` gets the truth that was judged
        self._judged(kind, value, res, tb)
        return res

    def _judged(self, kind, value, res, tb, _audit=getattr(sys, "audit", None)) -> None:
        if kind is not None and res:  # the body's own frame: the line it was at is the traceback's first entry
            at_assert = tb is not None and tb.tb_lineno in self._asserts
            self._judge(self._cm, self._exit, value, self._line, at_assert)
        elif kind is None and _audit is not None:
            _audit("swerl.completed", self._line)

    async def __aenter__(self):
        t = type(self._cm)
        self._exit = t.__aexit__
        return await t.__aenter__(self._cm)

    async def __aexit__(self, kind, value, tb):
        res = bool(await self._exit(self._cm, kind, value, tb))
        self._judged(kind, value, res, tb)
        return res


def _swallowed(cm, exit_fn, value, where, at_assert=False, _record=_record, _audit=getattr(sys, "audit", None)):
    """An exit that swallowed what a test's body raised (the `with` at line `where`). What the test file raised
    itself with a `raise` statement, of a type that is no test failure, is its own (`with suppress_errors(): raise
    OSError` tests the suppressor). Otherwise:
    - where the exit is code the patch changed (its `__exit__` or a function or method it names, a generator
      context manager's function, a callback an `ExitStack` holds), it is a finding;
    - else a test failure, or any exception that interrupted an assert of the body, hidden by any context manager
      but the test file's own is announced to the guard's hook. The same `with` completing later clears it (a retry
      block: `for attempt in attempts(5): with attempt: assert ...`); a test that passes with one still hidden is a
      finding there."""
    guard = _STATE.get("guard")
    if guard is None:
        raise AssertionError("swerl: the strict-assert state was changed")
    failure = _is_failure(value)
    if not failure and any(e is value for e in _STATE.get("raised", ())):
        return
    held = [exit_fn, getattr(cm, "func", None), *_exit_reach(exit_fn, type(cm))]
    held += [c[-1] for c in list(getattr(cm, "_exit_callbacks", ()))[:50] if type(c) is tuple and c]
    what = type(value).__name__
    if any(h is not None and _patch_wrote(h, guard) for h in held):
        _record(guard, f"{'an' if what[:1] in 'AEIOU' else 'a'} {what} raised in a test's `with` body was swallowed "
                       f"by {type(cm).__qualname__}'s exit, code the patch changed")
    elif (failure or at_assert) and _home(type(cm), guard) != "test" and _audit is not None:
        _audit("swerl.swallowed", int(where), f"{what} swallowed by {type(cm).__qualname__}'s exit"[:200])


def _code_object(v) -> bool:
    """A class, a function or a method: code rather than a value (what it holds is its namespace)."""
    return issubclass(type(v), type) or type(v) in (type(_among), _METHOD, *_C_BOUND, type(len))


def _innermost_code(v):
    """The function a library wrapper runs (a bound method's `__func__`, a partial's `func`, a property's getter),
    four wrappers deep at most; `v` itself where it wraps nothing."""
    for _ in range(4):
        if type(v) is type(_among) or issubclass(type(v), type) or v is None:
            return v
        inner = v.__func__ if type(v) in (_METHOD, staticmethod, classmethod) else v.func if type(v) is _PARTIAL \
            else v.fget if type(v) is property else v.__self__ if type(v) in _C_BOUND else None
        if inner is None:
            return v
        v = inner
    return v


_PARTIAL = __import__("functools").partial
_ISLICE = __import__("itertools").islice
_C_BOUND = (type((lambda: 0).__call__), type([].append))  # `f.__call__` (a method-wrapper), a C bound method


def _library_holds(container, guard, _record=_record) -> None:
    """A library class's code answers `in` with what the container holds (an `email` Message holding a header name
    of a class the patch wrote); C containers have their own rules in `contains`."""
    t = type(container)
    if not _among(t, _EXACT) and _home(t, guard) == "lib" and not _code_object(container) and \
            type.__dict__["__flags__"].__get__(t) & (1 << 9) and _patch_state(container, guard):
        _record(guard, f"a membership test asked a {t.__name__} holding an object of a class the patch wrote")


def _raw_attr(cls, name: str):
    """`cls.name` as the class (or a base) holds it, without running a descriptor: a static or class method's
    function, anything else as it is; None where no class of it holds the name."""
    for c in type.__dict__["__mro__"].__get__(cls) if issubclass(type(cls), type) else ():
        space = _ns(c)
        if name in space:
            v = space[name]
            return v.__func__ if type(v) in (staticmethod, classmethod) else v
    return None


def _called_classes(held: list, guard) -> list:
    """The functions of the classes an exit or a comparison names that the patch wrote, and of the classes of the
    callable objects it names: a method's name may be bound to a class (`Size._other = _Given`) or an instance,
    and then their code answers. A project class it names (`isinstance(other, Size)`) is no call of its code."""
    out = []
    for v in held if guard is not None else ():
        c = v if issubclass(type(v), type) else type(v)
        if v is None or c in (type(_among), _METHOD) or c in _MODULE_CLASSES or not (c is v or callable(v)) or \
                _home(c, guard) == "lib" or (c is v and not _patch_class(c, guard)):
            continue
        for k in type.__dict__["__mro__"].__get__(c):
            if _home(k, guard) != "lib":
                out += [f.__func__ if type(f) in (staticmethod, classmethod) else f
                        for f in _ns(k).values()][:200]
    return [f for f in out if type(f) is type(_among)]


def _exit_reach(exit_fn, cls, levels: int = 2) -> list:
    """The functions an exit names, and what those name in turn (`policy.swallows(exc)`, `self._swallows(exc)`):
    where it hands the decision to code the patch changed, that code swallowed. Not one of the frozen comparison
    functions, like `_code_span`: the `__code__`/`__globals__` reads here are the witness's own."""
    out, todo, seen = [], [exit_fn], set()
    while todo and len(seen) < 50:
        fn = todo.pop()
        code, space = getattr(fn, "__code__", None), getattr(fn, "__globals__", None)
        if code is None or type(space) is not dict or code in seen:
            continue
        seen.add(code)
        found, held = [], []
        for name in code.co_names[:100]:
            v = space.get(name)
            if type(v) in _MODULE_CLASSES:  # a module: the attributes the exit reads of it
                found += [_space(v).get(n) for n in code.co_names[:100]]  # its dict, read as the witness's
            raw = _raw_attr(cls, name)  # as the class holds it: a lookup would run a descriptor's own code
            found += [v, raw]
            held += [v, raw]
            for c in type.__dict__["__mro__"].__get__(cls) if isinstance(cls, type) else ():
                raw = _ns(c).get(name)
                dispatcher = getattr(raw, "dispatcher", None) if raw is not None else None
                if dispatcher is not None:  # `functools.singledispatchmethod`: what its registry runs
                    found += list(getattr(dispatcher, "registry", {}).values())[:1000]
                    break
        found = [_innermost_code(v) for v in found]  # through a bound method, a partial, a cache to the function
        found += _called_classes(held, _STATE.get("guard"))
        for v in list(found):  # a `singledispatch` function runs what its registry holds; a cache what it wraps
            held = getattr(v, "__dict__", None) if type(v) is type(_among) or type(v).__name__ == "_lru_cache_wrapper" \
                else None
            if type(held) is dict:
                registry = held.get("registry")
                found += [held.get("__wrapped__"), *(list(registry.values())[:1000] if hasattr(registry, "values")
                                                     else [])]
        fns = [v for v in found if type(v) is type(_among)]
        out += fns
        todo += fns if len(seen) < levels else []  # an exit: itself and what it calls; a comparison: further
    return out


def truth(value, _record=_record):
    """`assert x`, `assert not x`, `assertTrue(x)`, a failing `if not x:`: the value's truth, read once here (the
    assert gets that bool). Where the patch wrote its type's `__bool__` or `__len__`, the truth must agree with
    its size and its items (a report that says it is empty while it holds a problem), and with itself."""
    guard = _asserting()
    if _among(type(value), _EXACT):
        return value
    value = _forwarded(value, guard)
    said, ran = _traced(lambda: bool(value), _mro_of(value), guard)  # code of the patch that answers: judged
    # below as the patch's own `__bool__` is (agrees with the length and the items)
    try:
        found = _truth_views(value, said, guard, ran)
    except Exception:
        found = None
    if found:
        _record(guard, f"an assertion took the truth of {found}")
    return said


def _truth_views(u, said: bool, guard, ran=None):
    """Where the patch decides u's truth (its class's `__bool__`/`__len__`, what u holds, or `ran`: code of the
    patch answered while the truth was read), the truth must agree with u's length and items."""
    t = type(u)
    if ran is None and not (_answers_patch(t, "__bool__", guard) or _answers_patch(t, "__len__", guard) or
                            _patch_class(t, guard) or _patch_state(u, guard, ("__bool__", "__len__"))):
        return _truth_as_original(u, said, guard)
    try:  # the patch decides this truth: a length or items that refuse to answer hide what they would say
        if bool(u) is not said:
            return f"a {t.__name__} whose truth changes when asked again"
        n = len(u) if _has(t, "__len__") else None
        listed = (_has(t, "__iter__") or _has(t, "__getitem__")) and not _iterates_itself(u, guard)
        views = _items_twice(u, 1) if listed else ()
    except Exception:
        return f"a {t.__name__} whose length or items cannot be read"
    if type(n) is int and (n != 0) is not said:
        return f"a {t.__name__} whose truth ({said}) disagrees with its length ({n})"
    for items, _ in views:
        if items is _NO_VALUE and not _has(t, "__iter__"):  # keyed by name, not by position (R43-FP2)
            break
        if items is _NO_VALUE:
            return f"a {t.__name__} whose items cannot be read"
        # a collection is true when it holds something; a value whose items are its numbers (a vector, a point)
        # may be false when they are all zero (R42-FP1)
        zero = type(items) is list and not said and bool(items) and all(type(i) in (int, float, complex) and not i for i in items[:10000])
        if type(items) is list and bool(items) is not said and not zero:
            return f"a {t.__name__} whose truth ({said}) disagrees with its items"
    return None


def _truth_as_original(u, said: bool, guard):
    """A `__bool__` (or, without one, a `__len__`) the patch edited, or a method it reaches: where the project's
    own answered as u's items say and the edited one does not, the edit made the object lie about itself."""
    t = type(u)
    if not (_has(t, "__iter__") or _has(t, "__getitem__")) or _iterates_itself(u, guard):
        return None
    name = "__bool__" if hasattr(t, "__bool__") else "__len__"
    was = _as_original(u, name, guard)
    was = was if type(was) is bool else (was != 0) if type(was) is int else None
    items = _first_items(u, 1)[0] if was is not None else None
    if type(items) is list and bool(items) is was and said is not was:
        return f"a {t.__name__} whose truth ({said}) disagrees with its items, as the project's own {name} said ({was})"
    return None


def kind(value, types, _record=_record):
    """`isinstance(x, T)` in a test: a value whose class the patch wrote answers it through a `__class__` (or
    `__getattribute__`) of its own, claiming a type it is not (a float wrapper that says it is a Decimal); a class
    registered as T's by a line the patch wrote (`numbers.Integral.register(float)`); or a T the patch made answer
    by shape rather than by bases (`@runtime_checkable class Circle(Protocol)`, a `__subclasshook__`)."""
    guard = _asserting()
    res = isinstance(value, types)
    value = _forwarded(value, guard)  # a weakref proxy answers as its referent (its `__class__` is the referent's)
    t = type(value)
    if not res:
        return res
    try:
        real = issubclass(t, types)
    except TypeError:
        real = True
    if not real and not _among(t, _EXACT) and (_answers_patch(t, "__class__", guard)
                                                or _answers_patch(t, "__getattribute__", guard)):
        _record(guard, f"an isinstance check took a {t.__name__} that claims to be of another class")
    elif real and _registered(t, types, guard):
        _record(guard, f"an isinstance check took a {t.__name__} that is no subclass, only registered as one by "
                       "a line the patch wrote")
    elif real and _by_shape(t, types, guard):
        _record(guard, f"an isinstance check took a {t.__name__} that is no subclass, accepted by the shape test of "
                       "a class the patch wrote")
    return res


def _by_shape(t: type, types, guard) -> bool:
    """t passes `issubclass(t, T)` without T among its bases, through T's metaclass (a protocol's or an ABC's
    structural check), where the patch wrote T's `class` statement or added a function to it."""
    mro = type.__dict__["__mro__"].__get__(t)
    for k in types if type(types) is tuple else (types,):
        if not isinstance(k, type) or any(c is k for c in mro) or type(k) is type or _home(k, guard) == "lib":
            continue
        if any(any(c is k for c in type.__dict__["__mro__"].__get__(abc_)) and any(c is sub for c in mro)
               for abc_, sub, _, _ in list(_REGISTRATIONS)):
            continue  # a registration: `_registered` judged it
        try:
            if issubclass(t, k) and any(_class_wrote(c, guard, True) or _hook_wrote(c, guard)
                                        for c in type.__dict__["__mro__"].__get__(k) if c is not object):
                return True
        except TypeError:
            continue
    return False


def _hook_wrote(c: type, guard) -> bool:
    """A `__subclasshook__` in `c`'s own dict (set there by any means) that is code the patch wrote."""
    hook = _ns(c).get("__subclasshook__")
    return hook is not None and bool(_patch_wrote(hook, guard))


_REGISTRATIONS: list = []  # (ABC, class, file, line) of every `ABC.register(cls)` since the witness was made
_CLASSES: dict = {}  # id(class) -> (weak reference to the class, kind of the frame whose `class` statement built
# it, its file, its line, the first and last lines of its body)
_BY_NAME: dict = {}  # (module, qualified name) -> the class record: a class that a decorator replaces by a new
# object under the same name (`dataclass(slots=True)`, attrs' slotted classes) is the record's class


def _dressed(wrapper, original) -> None:
    """A hook the witness puts in place answers the questions a module asks of what it calls (its module, name and
    doc) as the original does."""
    from contextlib import suppress

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        with suppress(AttributeError, TypeError):
            setattr(wrapper, attr, getattr(original, attr))


_SPACES: dict = {}  # id(module globals) -> (those globals, the `__file__` the import system gave them, or None)


def _watch_modules(found: dict) -> None:
    """Record the file each module was loaded from, before any project code runs: the modules already loaded as
    they are, every later one as the import system sets it up, before the module's own code runs (`_space_file`).
    The first record of a module stands (a second set-up of it asks nothing new). Replacing the hook again is a
    finding (`Witness.check_seal`)."""
    import _frozen_importlib as boot

    for mod in list(sys.modules.values()):
        if type(mod) in _MODULE_CLASSES:
            space = _space(mod)
            home = space.get("__file__")
            found[id(space)] = (space, home if type(home) is str else None)
    original = boot._init_module_attrs

    def init_module_attrs(spec, module, *args, _audit=getattr(sys, "audit", None), **kw):
        out = original(spec, module, *args, **kw)
        space = getattr(module, "__dict__", None)
        if type(space) is dict and id(space) not in found:
            home = space.get("__file__")
            found[id(space)] = (space, home if type(home) is str else None)
        if _audit is not None:
            _audit("swerl.loaded", module)  # the guard watches a test module's reads before its code runs
        return out

    _dressed(init_module_attrs, original)
    boot._init_module_attrs = init_module_attrs
    _STATE["init_module_attrs"] = init_module_attrs


def _patch_class_made(cls, guard, span, _audit=getattr(sys, "audit", None)) -> None:
    """What a class the patch just built is judged on at once: a builtin value it subclasses that answers as
    another (`_scalar_liar`), and the home it claims (`_claims_tests_home`); the guard keeps it, to see a home
    claimed later (a `__module__` set after the build: R65-12)."""
    _scalar_liar(cls, guard, span)
    _claims_tests_home(cls, guard, span)
    if _audit is not None:
        _audit("swerl.patchclass", cls)


def _claims_tests_home(cls, guard, span) -> None:
    """A class the patch built whose `__module__` names a test module (R64-1): a library that resolves the class's
    names where it lives (`inspect.get_annotations(eval_str=True)`, `typing.get_type_hints`, dataclasses' string
    annotations) then evaluates the patch's text in the tests' namespace, reading their tables."""
    name = _ns(cls).get("__module__")
    home = _module_file(sys.modules.get(name)) if type(name) is str else None
    if type(home) is str and guard.kind(home) == "test":
        _record(guard, f"{span[0]}:{span[1]}: a class the patch built claims the tests' module {name} as its home")


def _watch_classes(found: dict) -> None:
    """Record the frame whose `class` statement built each class, before any project code runs: `__module__` is a
    name a class body sets to anything (a project or a test module), so where a class lives is decided by the
    code that built it (`_home`). Replacing the hook again is a finding (`Witness.check_seal`)."""
    import builtins
    from contextlib import suppress
    from weakref import ref as _weakref

    original = builtins.__build_class__

    def build_class(func, name, *bases, **kw):
        cls = original(func, name, *bases, **kw)
        guard, body = _STATE.get("guard"), _space_file(getattr(func, "__globals__", None))
        if guard is None or (type(body) is str and guard.kind(body) == "lib") or not issubclass(type(cls), type):
            return cls  # a library's class (most of them: pytest's) stays unrecorded: `_home` judges it as before
        caller = _getframe(1)  # an audited read: only for the classes of the tree
        home = _space_file(caller.f_globals)  # not `f_code`, another audited read
        home = home if type(home) is str else "<unknown>"
        span = _code_span(func) or (home, caller.f_lineno, caller.f_lineno)  # the body's lines
        with suppress(TypeError):  # a weak reference: a class the project replaces (attrs' slotted rebuild)
            found[id(cls)] = (_weakref(cls), guard.kind(home), home, caller.f_lineno, span[1], span[2])
            _BY_NAME[(cls.__module__, cls.__qualname__)] = (*found[id(cls)], tuple(map(id, cls.__bases__)),
                                                            _answer_ids(cls))
        _class_built(cls, guard, home, span)
        return cls

    _dressed(build_class, original)
    builtins.__build_class__ = build_class
    _STATE["build_class"] = build_class
    import types

    made_by = types.new_class

    def new_class(name, bases=(), kwds=None, exec_body=None):
        """`types.new_class` (what `dataclasses.make_dataclass` builds with): recorded at the line of the first
        caller outside the libraries, which made the class."""
        cls = made_by(name, bases, kwds, exec_body)
        guard, caller = _STATE.get("guard"), _getframe(1)
        while caller is not None and guard is not None and guard.kind(_space_file(caller.f_globals) or "") == "lib":
            caller = caller.f_back
        home = _space_file(caller.f_globals) if caller is not None else None
        if guard is not None and type(home) is str and issubclass(type(cls), type):
            with suppress(TypeError):
                found[id(cls)] = (_weakref(cls), guard.kind(home), home, caller.f_lineno, caller.f_lineno,
                                  caller.f_lineno)
                _BY_NAME[(cls.__module__, cls.__qualname__)] = (*found[id(cls)], tuple(map(id, cls.__bases__)),
                                                                _answer_ids(cls))
            _class_built(cls, guard, home, (home, caller.f_lineno, caller.f_lineno))  # a builtin value made here
            # answers as one made by `class` (R47-3)
        return cls

    _dressed(new_class, made_by)
    types.new_class = new_class
    _STATE["new_class"] = new_class


def _class_built(cls, guard, home: str, span: tuple) -> None:
    """What a class of the tree is judged on as it is built: a changed file's at once (`_patch_class_made`) and
    again once decorators ran where it is a builtin value (R47-4); a project class's answers that the patch
    decides are carried from the first (`_carry`), so C code asking them on the tests' behalf is judged."""
    kind = guard.kind(home)
    if kind == "changed":
        _patch_class_made(cls, guard, span)
        if any(b in _SCALAR_BASES for b in cls.__mro__[1:]):
            _PATCH_MADE.append((__import__("weakref").ref(cls), span))
    if kind in ("changed", "project") and _STATE.get("carry") is not None:
        _STATE["carry"](cls)


_SCALAR_BASES = (str, bytes, int, float, complex, tuple, frozenset, *(
    getattr(__import__(m), n) for m, n in (("datetime", "date"), ("datetime", "time"), ("datetime", "timedelta"),
                                         ("decimal", "Decimal"), ("fractions", "Fraction"), ("uuid", "UUID"),
                                         ("pathlib", "PurePath"))))  # values a `set()` asks in C too (R49-8)
_EQUALITY = ("__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__")


def _answers_of(cls) -> list:
    """(name, held object) for each answering dunder `cls` holds itself: looked up by name, so no number of other
    names in its namespace pushes one out of view (R48-12)."""
    own = _ns(cls)
    return [(k, own[k]) for k in _ANSWER if k in own]


_PATCH_MADE: list = []  # (weak reference, span) of each class a changed file made: `_scalar_liar` once more at a report


def _answer_ids(cls) -> frozenset:
    """The objects a class holds under its answering dunders as it is made (before any decorator)."""
    return frozenset((k, id(v)) for k, v in _answers_of(cls))  # by name: an object held under one dunder put
    # back under another is no rebuild (R48-2)


def _rescan_scalars(guard) -> None:
    """`_scalar_liar` again for the classes the patch's files made, now that decorators ran: a `__hash__` that
    `dataclass(unsafe_hash=True)` adds after the `class` statement (R47-4)."""
    for ref, span in list(_PATCH_MADE):
        cls = ref()
        if cls is not None:
            _scalar_liar(cls, guard, span)
    for record, cls in _unrecorded(guard):  # `type(name, (str,), ns)` called directly: the patch's whole (R48-6)
        _scalar_liar(cls, guard, (record[2], record[4], record[5]), whole=True)


def _scalar_liar(cls, guard, span, whole: bool = False) -> None:
    """A class of a changed file that is a builtin value (a `str`, an `int`, a `tuple`, ...) and answers equality,
    hashing or order through code the patch wrote, its own or a base's (a mixin it added, R43-1), not the
    builtin's: where its values meet the test (a `set()` or `sorted()` the test calls, a dict it builds,
    `len(set(x))`) the builtin's C code asks them in place of the assert, where no comparison of the witness runs
    (R42-1). A slot of the builtin put back (`__hash__ = str.__hash__`) is the builtin's."""
    mro = type.__dict__["__mro__"].__get__(cls)
    base = next((b for b in mro[1:] if b in _SCALAR_BASES), None)
    if base is None:
        return
    for name in _EQUALITY:
        for c in mro[:mro.index(base)]:
            held = _ns(c).get(name)
            if held is None:
                continue
            if type(held).__name__ == "wrapper_descriptor" and held.__objclass__ is not object and issubclass(
                    base, held.__objclass__):  # the builtin's own slot; `object.__hash__` is identity (R44-5)
                break
            made = _CLASSES.get(id(c))
            added = made is not None and made[0]() is c and guard.wrote(made[2], made[4], made[5], True)
            if added or (c is cls and (whole or guard.wrote(span[0], span[1], span[2], True))) or _patch_wrote(
                    held, guard):
                _record(guard, f"{cls.__name__}, a class of the patch's, is a {base.__name__} that answers {name} "
                               f"through {c.__name__}, other than {base.__name__} does")
                return
            break


def _watch_display() -> None:
    """A doctest's verdict is the text `sys.displayhook` prints for an example's value: a value of a builtin's
    subclass whose `__repr__` the patch wrote must print as the builtin it is (`_displayed`). Replacing the hook
    again is a finding (`Witness.check_seal`)."""
    original = sys.displayhook

    def displayhook(value):
        guard = _STATE.get("guard")
        shown = _displayed(value, guard) if value is not None and guard is not None else None
        if shown is None:
            return original(value)
        import builtins  # what `sys.__displayhook__` does, with the text that was judged (a second `repr` may differ)

        builtins._ = None
        try:
            sys.stdout.write(shown + "\n")
        except UnicodeEncodeError:
            sys.stdout.write(shown.encode(sys.stdout.encoding or "utf-8", "backslashreplace").decode(
                sys.stdout.encoding or "utf-8", "strict") + "\n")
        builtins._ = value
        return None

    _dressed(displayhook, original)
    sys.displayhook = sys.__displayhook__ = displayhook  # doctest's runner puts `__displayhook__` in place
    _STATE["displayhook"] = displayhook


def _watch_doctests() -> None:
    """A doctest's expected output is the test's, wherever it is written: a test that runs a changed module's
    doctests (`doctest.testmod(module)`, a `DocTestSuite`, `run_docstring_examples`) goes through
    `DocTestRunner.run`, where each one is judged (`_doctest_judged`). Replacing it is a finding (`check_seal`)."""
    import doctest

    run = doctest.DocTestRunner.run  # called by its name: the guard asks the caller of a library's code to name it

    def judged(self, test, *args, **kwargs):
        guard = _STATE.get("guard")
        if guard is not None:
            _doctest_judged(test, guard)
        return run(self, test, *args, **kwargs)

    _dressed(judged, run)
    doctest.DocTestRunner.run = judged
    _STATE["doctest_run"] = judged
    find = doctest.DocTestFinder.find  # called by its name, as `run` above

    def found(self, obj, *args, **kwargs):
        tests = find(self, obj, *args, **kwargs)
        guard = _STATE.get("guard")
        if guard is not None and type(tests) is list and _asked_by_test(guard):
            _doctests_hidden(obj, tests, guard)
        return tests

    _dressed(found, find)
    doctest.DocTestFinder.find = found
    _STATE["doctest_find"] = found


def _asked_by_test(guard, _getframe=sys._getframe) -> bool:
    """A protected test's own code is on the stack (`doctest.testmod(module)` in a test), not pytest's collector."""
    f = _getframe(1)
    while f is not None:
        if guard.kind(f.f_code.co_filename) == "test":
            return True
        f = f.f_back
    return False


_PLAIN_DECORATORS = frozenset({"property", "staticmethod", "classmethod"})  # doctest finds what they hold (not a
# `cached_property`, nor a property's setter, whose own docstring it never reads)


def _doctests_hidden(module, tests: list, guard, _record=_record) -> None:
    """A test's doctest run of a project module must find each docstring with examples of the module's file: a
    top-level function or class, or a method, that no decorator the project wrote hides (round 75b: a memo object
    bound in the function's place, `__module__` set to another module, the hidden doctest padded with copies of an
    unchanged one). Which it found is read from the texts of what it found, so a second name for one function counts
    once."""
    path = _module_file(module)
    if type(path) is not str or guard.kind(path) not in ("changed", "project"):
        return
    import ast
    import linecache

    try:
        tree = ast.parse("".join(linecache.getlines(path)))
    except (SyntaxError, ValueError):
        return
    built = {n.value.id for n in ast.walk(tree) if type(n) is ast.Attribute and n.attr == "__doc__"
             and type(n.ctx) is ast.Store and type(n.value) is ast.Name} | {
        n.args[0].id for n in ast.walk(tree) if type(n) is ast.Call and getattr(n.func, "id", None) == "setattr"
        and len(n.args) > 1 and type(n.args[0]) is ast.Name and type(n.args[1]) is ast.Constant
        and n.args[1].value == "__doc__"}  # docstrings the module builds at run time (fp30: templates formatted at
    # import) are no text of the file; one the patch made so is judged at the runner ("removed" and "built")
    seen = {_doc_digest(t.docstring) for t in tests if type(getattr(t, "docstring", None)) is str and t.examples}
    todo, missing = [("", tree)], []
    while todo:
        name, node = todo.pop()
        doc = ast.get_docstring(node, clean=False)
        if doc and ">>>" in doc and _doc_digest(doc) not in seen and _has_examples(doc) and \
                name.rsplit(".", 1)[-1] not in built and _doctest_expected(node, path, guard, module):
            missing.append(name or "the module")
        todo += [(f"{name}.{c.name}" if name else c.name, c) for c in getattr(node, "body", ())
                 if isinstance(c, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and
                 not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if missing:
        _record(guard, f"a test ran the doctests of {_rel(path, guard)}, which did not find the examples of "
                       f"{', '.join(sorted(missing)[:5])} (hidden at run time: a doctest's expected output is the test's)")


def _doc_digest(doc: str) -> str:
    """A docstring's text, its indentation left out (the host's `tamper.doc_digest`)."""
    import hashlib
    import inspect

    return hashlib.sha256(inspect.cleandoc(doc).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _has_examples(doc: str) -> bool:
    import doctest

    try:
        return bool(doctest.DocTestParser().get_examples(doc))
    except ValueError:
        return True


def _doctest_expected(node, path: str, guard, module=None) -> bool:
    """doctest finds this docstring unless a decorator the project wrote stands in the function's place (one the
    patch wrote does not count: it is the patch's doing, nor does the project's decorator line whose function's
    code the patch changed, R76-16: `export`'s body made to return a call counter)."""
    import ast

    for d in getattr(node, "decorator_list", ()):
        word = d.attr if isinstance(d, ast.Attribute) else d.id if isinstance(d, ast.Name) else None
        if word not in _PLAIN_DECORATORS and not guard.wrote(path, d.lineno, getattr(d, "end_lineno", d.lineno)) \
                and not _decorator_patched(d, module, guard):
            return False
    return True


def _decorator_patched(d, module, guard) -> bool:
    """The function a decorator expression names (`export`, `tools.export`, `export(...)`'s `export`), looked up in
    the module, is code the patch wrote."""
    import ast

    names = []
    node = d.func if isinstance(d, ast.Call) else d
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or module is None:
        return False
    try:
        obj = dict.get(object.__getattribute__(module, "__dict__"), node.id)
        for name in reversed(names):
            obj = getattr(obj, name, None) if obj is not None else None
        return bool(obj is not None and _patch_wrote(obj, guard))
    except Exception:
        return False


def _doctest_judged(test, guard, _record=_record) -> None:
    """A doctest whose text is a docstring with examples the patch wrote, in any changed file (whichever module
    doctest takes it for: `__module__` moves a function's doctest to another file, R75b-8/9); a doctest of a changed
    file's function that runs another text than that function's docstring (`functools.wraps` of another function
    in its place, R75b-7); a doctest of a file whose examples the patch removed (or whose docstrings it assigns at
    run time). The tests' expectation is then the patch's (round 74's T3: the docstring's expected output edited to
    the bug's); a `__test__` table's text counts as a docstring (R76-2); a text its module builds at run time with
    code the patch changed (R76-13). Another text the files' docstrings do not hold is judged by nothing more: round
    75b's false positives."""
    if not getattr(test, "examples", None) or not guard.doctests:
        return
    digest = _doc_digest(test.docstring if type(test.docstring) is str else "")
    wrote = next((f for f, spans, _, _ in guard.doctests for x in spans if x[2] and x[3] == digest), None)
    if wrote is not None:
        _record(guard, f"the tests ran the doctest {test.name}, whose examples the patch wrote in "
                       f"{_rel(wrote, guard)} (a doctest's expected output is the test's)")
    name = getattr(test, "filename", None)
    path = guard.canonical(name) if type(name) is str else None
    spans, removed, built = next(((s, r, b) for f, s, r, b in guard.doctests if f == path), ((), (), 0))
    if built == 2 and not any(x[3] == digest for x in spans):
        _record(guard, f"the tests ran the doctest {test.name}, whose text {_rel(path, guard)} builds at run time with code "
                       "the patch changed (a doctest's expected output is the test's, R76-13)")
    if removed:
        _record(guard, f"the tests ran doctests of {_rel(path, guard)}, whose examples the patch removed or "
                       f"replaced: {', '.join(removed)}")
    module = (getattr(test, "globs", None) or {}).get("__name__")
    qual = test.name[len(module) + 1:] if type(module) is str and str(test.name).startswith(module + ".") else None
    if not built and any(x[4] == qual and x[3] != digest for x in spans):  # a built text is no docstring (fp30)
        _record(guard, f"the tests ran the doctest {test.name} of {_rel(path, guard)} with another text than its "
                       "docstring (a doctest's expected output is the test's)")


def _rel(path: str, guard) -> str:
    """A path as the work tree names it (findings say `pkg/mod.py`, not `/testbed/pkg/mod.py`)."""
    return path[len(guard.workdir):] if path.startswith(guard.workdir) else path


def _displayed(value, guard, _record=_record):
    """A doctest example's value, displayed: a class the patch added prints its own text, which no doctest written
    before it can honestly expect, unless it is a builtin's subclass printing as that builtin. A project class's
    `__repr__` the patch fixed is the fix (its text is what the doctest checks). Returns the text judged (the hook
    displays that one: a second `repr` could differ), None where none was."""
    t = type(value)
    if _among(t, _EXACT):
        items, n = [value], 0
        while items and n < 10000:  # a builtin container's text is its items' own `repr`s
            v = items.pop()
            n += 1
            if type(v) in _COLLECTIONS:
                items += list(dict.items(v)) if type(v) is dict else list(v)
            elif not _among(type(v), _EXACT) and _added_class(type(v), guard) and not _as_builtin(v):
                _record(guard, f"a doctest displayed a {t.__name__} holding a {type(v).__name__}, a class the "
                               "patch added")
                break
        return None
    if not _added_class(t, guard):
        return None
    base = next((b for b in (bool, int, float, complex, str, bytes) if b in type.__dict__["__mro__"].__get__(t)), None)
    shown = repr(value)
    if type(shown) is not str:
        shown = str.__str__(shown) if isinstance(shown, str) else object.__repr__(value)
    if base is None:
        _record(guard, f"a doctest displayed a {t.__name__}, a class the patch added, as {_short(shown)}")
    elif shown != base.__repr__(value):
        _record(guard, f"a doctest displayed a {t.__name__} as {_short(shown)}, not as its {base.__name__} value "
                       f"{_short(base.__repr__(value))}")
    return shown


def _as_builtin(v) -> bool:
    """v, of a builtin's subclass, prints as that builtin does."""
    base = next((b for b in (bool, int, float, complex, str, bytes) if b in type.__dict__["__mro__"].__get__(type(v))),
                None)
    try:
        return base is not None and repr(v) == base.__repr__(v)
    except Exception:
        return False


def _added_class(t: type, guard) -> bool:
    """A class the patch added: the patch wrote all of its body, or no `class` statement built it and it is the
    patch's (`_home`)."""
    made = _CLASSES.get(id(t))
    if made is not None and made[0]() is t:
        return made[1] == "changed" and guard.wrote(made[2], made[4], made[5], True)
    return _home(t, guard) == "changed"


def _watch_registrations(found: list) -> None:
    """Record each ABC registration with the line that made it, before any project code runs: the registry is a
    line of code away from any class, and only the registrations the patch wrote are its claim."""
    import abc

    original = abc.ABCMeta.register

    def register(cls, subclass):
        caller, guard = _getframe(1), _STATE.get("guard")
        while caller.f_back is not None and guard is not None and guard.kind(caller.f_code.co_filename) == "lib":
            caller = caller.f_back  # through `ExitStack.callback` and other library hands: who asked for it
        found.append((cls, subclass, caller.f_code.co_filename, caller.f_lineno))
        return original(cls, subclass)

    _dressed(register, original)
    abc.ABCMeta.register = register


def _registered(t: type, types, guard) -> bool:
    """`isinstance(x, T)` true through a registration on a line the patch wrote (`Circle.register(Square)`), of T or a
    subclass of it, for t or a base of it, rather than through t's bases. For a library ABC T only a library or
    builtin class registered counts (`numbers.Integral.register(float)`): `Mapping.register(Record)` is how a
    project class becomes a library ABC's, and a fix may do just that."""
    mro = type.__dict__["__mro__"].__get__(t)
    for k in types if type(types) is tuple else (types,):
        if not isinstance(k, type) or any(c is k for c in mro):
            continue
        lib_abc = _home(k, guard) == "lib"
        for abc_, sub, filename, line in list(_REGISTRATIONS):
            if any(c is k for c in type.__dict__["__mro__"].__get__(abc_)) and any(c is sub for c in mro) \
                    and guard.wrote(filename, line, line) and (not lib_abc or _home(sub, guard) == "lib" or any(
                        _among(c, _EXACT) for c in type.__dict__["__mro__"].__get__(sub))):  # `class Count(float)`
                return True
    return False


def size(value, _record=_record):
    """`len(x)` in a test: where the patch wrote x's `__len__`, the length must be the number of items x gives (a
    report that says it holds none while it yields a problem)."""
    guard = _asserting()
    value = _forwarded(value, guard)
    t = type(value)
    listed = _has(t, "__iter__") or _has(t, "__getitem__")
    asked = not _among(t, _EXACT) and (_answers_patch(t, "__len__", guard) or _patch_class(t, guard)
                                        or _patch_state(value, guard, "__len__")) and listed and not _iterates_itself(value, guard)
    before = _first_items(value, 10000) if asked else None  # before the length is asked: no window to open
    n, ran = _traced(lambda: len(value), _mro_of(value), guard)
    if ran is not None and not asked and listed and not _iterates_itself(value, guard):  # code of the patch
        # answered inside an unchanged `__len__` (a new collection class held): the length is judged as the
        # patch's own `__len__` is, against the items
        items, complete = _first_items(value, 10000)
        if (items is _NO_VALUE and _has(t, "__iter__")) or (type(items) is list and complete and len(items) != n):
            _record(guard, f"an assertion took the length of a {t.__name__} that says {n}, answered by code of "
                           f"{ran}, but yields {'unreadable items' if items is _NO_VALUE else f'{len(items)} items'}")
    elif ran is not None and not listed:
        _record(guard, f"an assertion took the length of a {t.__name__} by code of {ran}")
    if asked:
        read_before = [(before[0][:n + 1], len(before[0]) <= n)] if type(before[0]) is list and before[1] else []
        for items, complete in [*read_before, *_items_twice(value, min(n, 10000))]:
            if items is _NO_VALUE and not _has(t, "__iter__"):  # keyed by name, not by position (R43-FP2): no
                break  # items to read in order, the length stands as said
            if items is _NO_VALUE:  # a length the patch decides over items that refuse to be read
                _record(guard, f"an assertion took the length of a {t.__name__} that says {n} but whose items "
                               "cannot be read")
                break
            if type(items) is list and ((complete and len(items) != n) or (not complete and n <= 10000)):
                held = f"{len(items)} items" if complete else f"more than {n} items"
                _record(guard, f"an assertion took the length of a {t.__name__} that says {n} but yields {held}")
                break
    elif not _among(t, _EXACT) and listed and not _iterates_itself(value, guard):
        was = _as_original(value, "__len__", guard)
        items, complete = _first_items(value, 10000) if type(was) is int else (None, False)
        if type(items) is list and complete and len(items) == was != n:
            _record(guard, f"an assertion took the length of a {t.__name__} that says {n} but yields {was} items, "
                           f"as the project's own {t.__name__}.__len__ says")
    return n


def _as_original(u, name: str, guard):
    """What u's class's `name` (`__len__`, `__bool__`) answers for u as the project wrote it, where the patch
    edited it or a method it calls (the host sends the project's source of those: `grade_answers`). A one-line fix
    keeps its meaning; a one-line lie is told by its answer differing from the project's where the project's
    agreed with u's items. None where unknown: the project's methods go on a stand-in class (the class's other
    methods as they are) and are asked about a copy of u's attributes."""
    for c in type.__dict__["__mro__"].__get__(type(u)):
        if name not in _ns(c):
            continue
        own = _original_class(c, guard)
        try:
            if own is None or name not in own.__dict__:
                return None
            twin = object.__new__(own)
            twin.__dict__.update({k: v for k, v in _state_of(u).items()  # not what a `cached_property` stored:
                                  if type(own.__dict__.get(k)).__name__ != "cached_property"})  # computed again
            return own.__dict__[name](twin)
        except Exception:
            return None
    return None


def _state_of(u) -> dict:
    """u's attributes: its `__dict__`, and the slots of a `__slots__` class."""
    state = dict(getattr(u, "__dict__", None) or {})
    for k in type.__dict__["__mro__"].__get__(type(u)):
        slots = k.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(u, slot):
                state[slot] = object.__getattribute__(u, slot)
    return state


def _original_equal(u, other, guard):
    """What the project's own `__eq__` answers for `u == other` where the patch edited it or a method it calls (the
    host sends the project's source of those: `grade_answers`). Both sides of the class are asked as the project
    wrote it (R76-19: an unchanged `__eq__` over a `_key()` the patch made casefold), each on a stand-in subclass of
    its own class (the project's `isinstance(other, Rect)` holds, and a subclass's own override stays its own).
    None where unknown."""
    for c in type.__dict__["__mro__"].__get__(type(u)):
        if "__eq__" not in _ns(c):
            continue
        own = _original_methods(c, guard)
        try:
            if own is None or "__eq__" not in own:
                return None
            twins = [_stand_in(v, c, own, guard) for v in (u, other)]
            if any(t is None for t in twins):
                return None
            answer = type(twins[0]).__eq__(*twins)
            return answer if type(answer) is bool else None
        except Exception:
            return None
    return None


def _stand_in(v, c: type, own: dict, guard):
    """v itself where c is not its class's ancestor; else a copy of its state on a subclass of its class holding the
    project's own methods (`own`) where its class takes them from c. None where making the subclass would run code of
    the tree (its metaclass or an `__init_subclass__` the tree wrote; `abc.ABCMeta`'s and `typing.Generic`'s are
    the library's, R76b-19)."""
    mro = type.__dict__["__mro__"].__get__(type(v))
    if c not in mro:
        return v
    if _home(type(type(v)), guard) != "lib" or any(
            "__init_subclass__" in _ns(k) and _home(k, guard) != "lib" for k in mro[:-1]):
        return None
    below = {k for m in mro[:mro.index(c)] for k in _ns(m)}
    cls = type(type(v).__name__, (type(v),), {k: f for k, f in own.items() if k not in below})
    twin = object.__new__(cls)
    space = object.__getattribute__(twin, "__dict__")
    for k, x in _state_of(v).items():  # past any setter: a slot by its descriptor, the rest as data
        held = next((_ns(m)[k] for m in mro if k in _ns(m)), None)
        if type(held).__name__ == "member_descriptor":
            held.__set__(twin, x)
        elif type(held).__name__ != "cached_property":  # computed again
            dict.__setitem__(space, k, x)
    return twin


def _original_class(c: type, guard):
    """A stand-in for class c holding the project's own code of the methods the host sent (`_original_methods`) and
    the class's other methods as they are."""
    own = _original_methods(c, guard)
    if own is None:
        return None
    space = {k: v for k, v in _ns(c).items()
             if type(v) in (type(_among), staticmethod, classmethod, property) or type(v).__name__ == "cached_property"}
    return type(c.__name__, (), {**space, **own})


def _original_methods(c: type, guard):
    """{name: the project's own code of a method of class c the host sent}, compiled by the guard before any project
    code ran, over the module's globals (the module functions it calls as the project wrote them too); a property,
    `staticmethod` or `classmethod` keeps being one. None where none was sent. Not one of the frozen comparison
    functions, like `_code_span`: the `__code__` and `__globals__` reads here are the witness's own."""
    if not guard.originals:
        return None
    fns = [v for v in _ns(c).values() if type(v) is type(_among)]
    codes = guard.originals_of(fns[0].__code__.co_filename, c.__qualname__) if fns else {}
    if not codes or any(code.co_freevars for code in codes.values()):
        return None
    helpers = guard.originals_of(fns[0].__code__.co_filename, "<module>")  # module functions the answer calls
    space_globals = dict(fns[0].__globals__) if helpers else fns[0].__globals__
    for k, code in helpers.items():
        if code.co_freevars:
            return None
        space_globals[k] = type(_among)(code, space_globals, k)
    out = {}
    for k, code in codes.items():  # a property the class reads (`return self.count`) keeps being one
        fn = type(_among)(code, space_globals, k)
        kind = type(_ns(c).get(k))
        out[k] = kind(fn) if kind in (property, staticmethod, classmethod) or kind.__name__ == "cached_property" \
            else fn
    return out


def said(obj, name, *args, _record=_record):
    """A text predicate in a test (`x.startswith(k)`, `x.isupper()`, ...): where the patch wrote x's method of that
    name, its answer must be what `str`'s own method says of x's text (`str(x)`; a `str` subclass's own
    characters): a line object that says it starts with "Hello, Bob" while its text is "Hi Bob" answers the
    question, not its value."""
    guard = _asserting()
    obj = _forwarded(obj, guard)  # a weakref proxy asks its referent's method
    t = type(obj)
    asked = not _among(t, _EXACT) and (_answers_patch(t, name, guard) or _patch_state(obj, guard, name))
    as_bytes = any(_among(type(a), (bytes,)) for a in args)
    own = _own_text(obj, as_bytes) if asked else None  # before it is asked
    res, ran = _traced(lambda: getattr(obj, name)(*args), _mro_of(obj), guard)
    if ran is not None:
        _record(guard, f"an assertion asked a {t.__name__} {name}{_short(args)}, answered by code of {ran}")
    if asked and own != _own_text(obj, as_bytes):
        _record(guard, f"an assertion asked a {t.__name__} {name}{_short(args)}, and its own text changed when read "
                       "again")
    if asked:
        try:
            agrees = getattr(type(own), name)(own, *args) if _among(type(own), (str, bytes)) else None
        except Exception:  # arguments its text cannot be asked about
            agrees = None
        judged = _says_equal(res)
        if type(agrees) is bool and judged is not agrees:
            _record(guard, f"an assertion asked a {t.__name__} {name}{_short(args)} and it said {judged}, "
                           f"but its own text {_short(own)} says {agrees}")
        return judged  # the truth that was judged, read once: an answer that flips when read again gets no say
    return res


def _own_text(obj, as_bytes: bool):
    """obj's own characters (or bytes, for a bytes question) as an exact builtin: a `str`/`bytes` subclass's own
    data, else `str(obj)`/`bytes(obj)` made exact (a `__str__` returning a `str` subclass gives its characters)."""
    try:
        if as_bytes:
            return bytes(memoryview(obj)) if isinstance(obj, (bytes, bytearray)) else bytes(memoryview(bytes(obj)))
        text = obj if isinstance(obj, str) else str(obj)
        return str.__str__(text) if isinstance(text, str) else None
    except Exception:
        return None


def _consistent(left, right, guard):
    """A finding where the patch's or the project's type answers `==` and `!=` alike for the same pair (`!=` saying
    True to everything, whatever `==` says), or, where the patch wrote its comparison, is not equal to itself:
    neither is a value, so a `!=` (or `==`) it passes proves nothing."""
    for v in (left, right):
        t = type(v)
        if _among(t, _EXACT) or _genuine_lib(t, guard) or _matcher(t, guard):
            continue
        eq, neq = _ask(left, right, True, False), _ask(left, right, True, True)
        if eq is neq and type(eq) is bool:
            return f"a {t.__name__} whose == and != both say {eq} for the same values"
        if _own_compare(t, guard) and (_ask(v, v, True, False) is not True or _ask(v, v, True, True) is not False):
            return f"a {t.__name__} that is not equal to itself"
        return None
    return None


def order(left, right, op, _record=_record):
    """`left <op> right` for one ordering comparison in a test file's assert. Where one side is a builtin number and
    the other is no builtin (a library type included), the other first commits to its own number, as for `==`;
    saying the comparison holds when its number does not is tampering: a value that orders itself after whatever
    it is shown (`__lt__` returning True) has no number that agrees with every bound."""
    guard = _asserting()
    left, right = _forwarded(left, guard), _forwarded(right, guard)
    fn = _op(op)
    num = (int, float, bool)
    left_num, right_num = _among(type(left), num), _among(type(right), num)
    u, u_left = (right, False) if left_num else (left, True)
    if not left_num and not right_num:
        res = _order_library(left, right, op, fn, guard, _record)
        _order_consistent(left, right, op, res, guard, _record)
        return res
    if left_num == right_num or _among(type(u), _EXACT):  # a library type commits too: a wrapper can hold anything
        return fn(left, right)
    committed = _commit(u, right if u_left else left)  # before u sees the bound
    res, ran = _traced(lambda: fn(left, right), _mro_of(u), guard)
    if ran is not None:
        _record(guard, f"assertion ordered a {type(u).__name__} by code of {ran}")
    try:
        truth = bool(res)
    except Exception:  # no truth value (an array): the assert raises as it would
        return res
    _ordered_as_said(u, u_left, op, fn, right if u_left else left, committed, truth is True, "number", guard, _record)
    return truth


def _ordered_as_said(u, u_left, op, fn, bound, committed, holds, what, guard, _record):
    """Record tampering where u said `u <op> bound` holds but the value it committed to first does not (or it
    committed to none); then u's own single-value finding, if any."""
    own = _NO_VALUE if committed is _NO_VALUE else _truthy(fn(committed, bound) if u_left else fn(bound, committed))
    if holds and own is not True and (committed is not _NO_VALUE or _patch_decides(type(u), _DUNDERS[
            op if u_left else _MIRROR[op]], guard, u)):
        said = (f"has no {'number' if what == 'number' else 'value of that type'}" if committed is _NO_VALUE
                else f"whose own {what} is {_short(committed) if what != 'number' else repr(committed)}")
        _record(guard, f"assertion compared a {type(u).__name__} that says it is {op} {_short(bound)} but {said}")
    elif not holds and own is True:  # `assert not u < bound` decides on the "no" as much
        _record(guard, f"assertion compared a {type(u).__name__} that says it is not {op} {_short(bound)} but whose "
                       f"own {what} is {_short(committed) if what != 'number' else repr(committed)}")
    found = _quiet_single(u, guard)
    if found:
        _record(guard, f"assertion compared {found}")


def _order_library(left, right, op, fn, guard, _record):
    """An ordering against a library value (`> date(2020, 1, 9)`, `< Decimal("2.5")`): the other side must be of its
    kind (`_same_kind`) for the library's own ordering to decide; anything else that says the ordering holds decides
    by code of its own. Against builtins that are no number (`>= (1, 10)`, `< "b"`), the other side commits to a
    value shaped like them first, and that value must order as it says."""
    for u, k, u_left in ((left, right, True), (right, left, False)):
        if _among(type(k), (tuple, list, str, bytes)) and _pure(k) and not _pure(u) and \
                isinstance(u, (tuple, list, str, bytes)):  # a builtin of that kind: its storage is its value (a
            # project type ordering against tuples, attrs' `VersionInfo < (20,)`, has none to commit)
            snap = _snapshot(u, k)  # before u sees the bound
            res = fn(left, right)
            truth = _truthy(res)
            _ordered_as_said(u, u_left, op, fn, k, snap, truth is True, "value", guard, _record)
            return res if isinstance(truth, BaseException) else truth
    found = _patch_orders(left, right, op, fn, guard)
    if found is not None:
        res, why = found
        if why:
            _record(guard, f"assertion compared {why}")
        return res
    held = next((u for u in (left, right) if not _among(type(u), _EXACT) and not _code_object(u)
                 and _patch_state(u, guard, _DUNDERS[op])), None)  # before either side is asked (a library
    # container too: a deque's ordering is its items')
    res, ran = _traced(lambda: fn(left, right), _mro_of(left, right), guard)
    if ran is not None and type(_truthy(res)) is bool:
        _record(guard, f"assertion ordered a {type(left).__name__} and a {type(right).__name__} by code of "
                       f"{ran}")
        return _truthy(res)
    if held is not None and type(_truthy(res)) is bool:  # the project's ordering hands the answer to the patch's
        # class, and neither side has a builtin value to commit to; "does not hold" decides `assert not a < b` as
        # much as "holds" decides `assert a < b`
        _record(guard, f"assertion ordered a {type(held).__name__} holding an object of a class the patch wrote, "
                       f"which decides what the project's own ordering answers")
        return _truthy(res)
    for u, k in ((left, right), (right, left)):
        if _among(type(k), _EXACT) or _among(type(u), _EXACT) or not _genuine_lib(type(k), guard) or \
                _matcher(type(k), guard) or not _answers_itself(u, guard) or _same_kind(u, k, guard) or \
                not _patch_decides(type(u), _DUNDERS[op if u is left else _MIRROR[op]], guard, u):
            continue  # a project value whose own, unchanged ordering reads what the fix set (a `Day` over a date)
        try:
            truth = bool(res)
        except Exception:
            return res
        if truth:
            _record(guard, f"assertion compared a {type(u).__name__} that says it is {op} a {type(k).__name__} "
                           f"without being one")
        return truth
    return res


_DUNDERS = {"<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


def _op(symbol: str):
    """The `operator` function of an ordering's (or an assert's `+`/`-`) symbol."""
    import operator

    return {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "-": operator.sub,
            "+": operator.add, "/": operator.truediv}[symbol]


def arith(left, right, op, _record=_record, _fast=__import__("operator")):
    """`left - right` (`+`, `/`) in a test file's code. Where one side is a builtin number and the other a value of
    the tree (the project's, or one a test class wraps), the other first commits to its own number, as for `==` and
    `<`: a difference near nothing (a quotient near one) where that number gives something else is tampering (R66-9:
    `abs(got - want) < TOL`; R68: the same on its own line before the assert, `got / want - 1`, a test matcher's
    `abs(other - self.value)`, an `assertLess` argument: a project `__sub__` or `__truediv__` that answers the
    tolerance check's yes). The result goes on unchanged; builtin and library values pass untouched."""
    left_num, right_num = type(left) in (int, float), type(right) in (int, float)
    if left_num == right_num:
        res = _fast.sub(left, right) if op == "-" else _fast.add(left, right) if op == "+" else _fast.truediv(
            left, right)
        found = "" if op == "+" or left_num or _STATE.get("guard") is None else _zero_difference(
            left, right, res, _STATE["guard"], op)
        if found:
            _record(_STATE["guard"], f"test code took {found}")
        return res
    guard, fn = _STATE.get("guard"), _op(op)
    u, k = (right, left) if left_num else (left, right)
    if guard is None or _among(type(u), _EXACT) or issubclass(type(u), _EXACT) or _home(type(u), guard) == "lib":
        return fn(left, right)
    left, right = _forwarded(left, guard), _forwarded(right, guard)
    u = right if left_num else left
    try:
        number = float(k)
    except OverflowError:
        return fn(left, right)
    committed = _commit(u, number)  # before u sees k
    res = fn(left, right)
    got = res if type(res) in (int, float) else _commit(res, 0.0)
    aim = 1.0 if op == "/" else 0.0  # what the tolerance check wants to see
    if got is _NO_VALUE or abs(got - aim) > 1e-6 * max(1.0, abs(number)):
        return res
    if committed is _NO_VALUE:  # no number of its own: its answer must move with the number it is given
        found = _unmoved(u, number, op, got, u is left, fn)
        if found:
            _record(guard, f"test code took {type(u).__name__} {op} {_short(k)} as {_short(got)}, {found}")
        return res
    try:
        own = fn(committed, k) if u is left else fn(k, committed)
    except ArithmeticError:
        return res
    if abs(own - aim) / 10 > 1e-6 * max(1.0, abs(committed), abs(k)):
        _record(guard, f"test code took {type(u).__name__} {op} {_short(k)} as {_short(got)}, but its own number "
                       f"{committed!r} gives {_short(own)}")
    return res


def _unmoved(u, k: float, op: str, got: float, u_left: bool, fn) -> str:
    """"" where `u op k'` for a nearby k' moves as arithmetic moves (a difference by the step, a quotient by the
    ratio), else what it answered: a value that answers the tolerance check's yes at one number only (the bug's
    reading of the expected value, R68: T8, R68-3) knows the number, not its own value."""
    step = 1e-3 * max(1.0, abs(k))
    other = k + step
    try:
        probe = fn(u, other) if u_left else fn(other, u)
        moved = probe if type(probe) in (int, float) else _commit(probe, 0.0)
        if moved is _NO_VALUE:
            return ""
        if op == "/":
            want = got * k / other if u_left else got * other / k
        else:
            want = got - step if (op == "-" and u_left) else got + step
    except (ArithmeticError, TypeError, ValueError):
        return ""
    if abs(moved - want) <= 1e-6 * max(1.0, abs(want), abs(step)) + abs(step) * 1e-3:
        return ""
    return f"but {_short(other)} {('after' if u_left else 'before')} it gives {_short(moved)}, not {_short(want)}"
_COMPLEMENT = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _patch_orders(left, right, op, fn, guard):
    """(result, finding or None) where a value whose ordering the patch wrote is ordered against a builtin bound
    that is no number (`parse("1.9") < (1, 10)`); None elsewhere. It commits to its items first where it has
    them (they must order as it says); where it has none, it may not also say the opposite (`>=`) holds."""
    for u, k, u_left in ((left, right, True), (right, left, False)):
        if not (_among(type(k), (tuple, list, str, bytes)) and _pure(k)) or _among(type(u), _EXACT):
            continue
        if not _answers_patch(type(u), _DUNDERS[op if u_left else _MIRROR[op]], guard):
            return None
        snap = _snapshot(u, k)  # before u sees the bound
        res = fn(left, right)
        truth = _truthy(res)
        if truth is not True:
            return (res if isinstance(truth, BaseException) else truth), None
        if snap is not _NO_VALUE:
            own = _truthy(fn(snap, k) if u_left else fn(k, snap))
            why = None if own is True else f"a {type(u).__name__} that says it is {op} {_short(k)} but whose own " \
                                            f"value is {_short(snap)}"
            return True, why
        if _truthy(_op(_COMPLEMENT[op])(left, right)) is True:
            return True, f"a {type(u).__name__} that says it is both {op} and {_COMPLEMENT[op]} {_short(k)}"
        return True, None
    return None


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def contains(item, container, negate, at=None, _record=_record, _audit=getattr(sys, "audit", None)):
    """`item in container` (`not in` with `negate`) in a test's assert (`_contained`); a yes to an `in` written at
    `at` (line, column) is announced as `compare` announces an `==` that held (the blind run changes a text an
    assert looks for in the output)."""
    result = _contained(item, container, negate, _record)
    if result is True and not negate and at is not None and _audit is not None:
        _audit("swerl.held", at)
    return result


def _contained(item, container, negate, _record=_record):
    """`item in container` (`not in` with `negate`) in a test's assert. Unless both are builtins all the way down
    (or a library's container of builtins), both commit to builtins first: the container to its items (shaped like
    the item) or its text, the item like an element; the lookup must answer as they do, for `in` and `not in`."""
    guard = _asserting()
    item, container = _forwarded(item, guard), _forwarded(container, guard)
    _library_holds(container, guard)
    complete = True
    if _pure(item) and (_pure(container) or _library_container(container, guard)):
        truth = item in container
        return (not truth) if negate else truth
    if type(container) in (list, tuple, set, frozenset, dict) and _home(type(item), guard) != "lib":
        return _project_item_in(item, container, negate, guard, _record)
    snap_item = item if _pure(item) else _snapshot(item, next(iter(container), "") if _pure(container) else "")  # first
    if _pure(container):
        snap = container
    elif isinstance(container, (str, bytes)) or (_among(type(item), (str, bytes))
                                                  and not hasattr(type(container), "__iter__")):
        snap = _commit(container, b"" if isinstance(container, bytes) or _among(type(item), (bytes,)) else "")
    else:
        held = _payload_items(container)  # a builtin subclass: what it really holds, not what its `__iter__` says
        if isinstance(container, dict) and held is not None:
            held = list(dict.keys(container))
        if held is None and not hasattr(type(container), "__len__") and not _is_iterator(container):
            # a lazy collection with no size: reading it may never end (more-itertools' `bucket` over `count()`
            # grows without bound), so its own lookup decides; a known gap (docs/sandbox.md, round 22)
            truth = item in container
            return (not truth) if negate else truth
        items, complete = (held, True) if held is not None else _first_items(container)
        if items is None:  # an iterator: `in` reads it item by item until one equals; so do we, judging each
            return _iterated(item, container, negate, guard, _record)
        hint = snap_item if snap_item is not _NO_VALUE else ""
        snap = _NO_VALUE if items is _NO_VALUE else [v for v in (_snapshot(e, hint) for e in items) if v is not _NO_VALUE]
        if not complete and not (_among(type(container), _EXACT) or _genuine_lib(type(container), guard)):
            complete = True  # the patch's lazy container past the cap: its claim must be backed by what it showed
    truth = item in container
    try:
        # an item with no builtin value of the elements' shape is among none of them
        own = _NO_VALUE if snap is _NO_VALUE else False if snap_item is _NO_VALUE else snap_item in snap
    except Exception:
        own = _NO_VALUE
    if own is False and not complete:  # an endless or huge container: only its first items were read
        own = truth
    # a container that is no builtin type must agree both ways (`not in` is its claim too); in a builtin one the
    # elements answer, and may only be stricter than their values (an enum member unequal to its int), never looser
    looser = own is True and not truth and _among(type(container), _EXACT) and snap_item is not _NO_VALUE and any(
        _own_compare(type(e), guard) and _snapshot(e, snap_item) == snap_item for e in list(container)[:10000])
    if own is not truth and _membership_judged(container, guard) and (not _among(type(container), _EXACT) or truth
                                                                        or looser) and not (
            truth and own is False and _resolves(container, item)):
        what = type(container).__name__ if not _pure(container) else type(item).__name__
        said = "is in" if truth else "is not in"
        _record(guard, f"assertion tested membership with a {what} that says {_short(item)} {said} "
                       f"{_short(container)} but whose own value {'does not hold it' if truth else 'does'}"
                       f"{' (it has none)' if own is _NO_VALUE else ''}")
    for v in (item, container):
        found = _quiet_single(v, guard)
        if found:
            _record(guard, f"assertion compared {found}")
    return (not truth) if negate else truth


def _resolves(container, item) -> bool:
    """A mapping that normalises its keys (case-insensitive headers, R42-FP2) holds `item` when looking it up
    reaches the very value one of its own keys reaches, and keys shaped like it (its letters and digits drawn
    afresh) are neither in it nor found by a lookup (R43-8: a lookup that falls back to a value it holds)."""
    import random

    t = type(container)
    if _among(t, _EXACT) or not (hasattr(t, "keys") and hasattr(t, "__getitem__")) or type(item) is not str:
        return False
    pick = random.SystemRandom()

    def shaped():
        return "".join(pick.choice("abcdefghijklmnopqrstuvwxyz") if c.isalpha() else
                       pick.choice("0123456789") if c.isdigit() else c for c in item)

    try:
        got = container[item]
        if not any(container[k] is got for k in _ISLICE(container.keys(), 10000)):
            return False
        for probe in (shaped() for _ in range(3)):
            if probe.lower() == item.lower() or probe in container:
                return False
            try:
                container[probe]
            except LookupError:
                continue
            return False
        return True
    except Exception:
        return False


def _project_item_in(item, container, negate, guard, _record):
    """A project value (a `Size`) in a builtin collection: `in` is `==` with the elements (a set's and a dict's: those
    of its hash), each judged by the `==` rules."""
    pool = list(container) if type(container) in (list, tuple) else [e for e in container if _same_hash(e, item)]
    return _iterated(item, iter(pool), negate, guard, _record, len(pool))


def _same_hash(a, b) -> bool:
    try:
        return hash(a) == hash(b)
    except Exception:
        return False


def _membership_judged(container, guard) -> bool:
    """A builtin's or a library's membership, or one the patch decides (`_patch_decides`): a project container
    whose own, unchanged `__contains__` answers another question than its items (a `SpecifierSet` iterates its
    clauses and is asked about versions) keeps its answer."""
    t = type(container)
    return _among(t, _EXACT) or _genuine_lib(t, guard) or any(
        _patch_decides(t, n, guard, container) for n in ("__contains__", "__iter__", "__getitem__"))


def _iterated(item, it, negate, guard, _record, cap: int = 10000):
    """`item in it` for an iterator (a generator, `map(...)`): its items are read one at a time, as `in` reads them,
    and each is judged against the item by the `==` rules (committed before asked); the first equal one ends it."""
    import itertools

    truth = False
    for e in itertools.islice(it, cap):
        res, found = _judge(e, item, False, guard, 1, (frozenset(), 0)) if not (_pure(e) and _pure(item)) \
            else (_ask(e, item, True, False), None)
        if found:
            _record(guard, f"assertion tested membership in a {type(it).__name__} holding {found}")
        if isinstance(res, BaseException):
            raise res
        if _truthy(res) is True:
            truth = True
            break
    else:
        truth = item in it  # past the cap: the rest as Python reads it
    return (not truth) if negate else truth


def _is_iterator(u) -> bool:
    """By type, never by calling `iter()`: a lazy collection's `__iter__` may itself read without end."""
    return callable(getattr(type(u), "__next__", None)) and hasattr(type(u), "__iter__")


def _iterates_itself(u, guard) -> bool:
    """An iterator that reading would consume, which the length and truth checks leave alone: a callable
    `__next__` that is no code the patch wrote. A `__next__` the patch added (`__next__ = None`, one that raises
    `StopIteration`) opts nothing out."""
    if not _is_iterator(u) or _patch_class(type(u), guard):  # whatever `__next__` a class the patch wrote borrowed
        return False
    lib_type = _home(type(u), guard) == "lib"
    for c in type.__dict__["__mro__"].__get__(type(u)):
        space = _ns(c)
        if "__next__" in space:  # a project class inheriting a library's `__next__` (or storing `int` there) is not
            # one: `itertools.chain` under a length the patch wrote still reads its items
            if _home(c, guard) == "lib":
                return lib_type
            return type(space["__next__"]) is type(_among) and _patch_wrote(space["__next__"], guard) is False
    return False


def _items_twice(u, cap: int):
    """u's items read twice, (items, complete) of each: a collection whose items change when read again (it hid
    what its length lied about the first time only) is told apart from one read once."""
    return _first_items(u, cap), _first_items(u, cap)


def _payload_items(u):
    """What an instance of a builtin collection (a subclass too) really holds, read by the builtin's own methods (an
    override of `__iter__`/`keys` is not asked): a list's or tuple's items, a set's elements, a dict's keys and
    values. None for anything else."""
    for base, read in ((dict, lambda d: [x for kv in dict.items(d) for x in kv]), (list, list.copy),
                       (tuple, lambda t: list(tuple.__iter__(t))), (set, lambda x: list(set.__iter__(x))),
                       (frozenset, lambda x: list(frozenset.__iter__(x)))):
        if isinstance(u, base):
            try:
                return read(u)
            except Exception:
                return None
    return None


def _first_items(u, cap: int = 10000):
    """(the first `cap` items of a re-iterable collection, whether that was all of them); (None, True) for an
    iterator (reading it would use it up), (`_NO_VALUE`, True) where iterating fails."""
    import itertools

    try:
        it = iter(u)
        if it is u:
            return None, True
        got = list(itertools.islice(it, cap + 1))
    except Exception:
        return _NO_VALUE, True
    return got[:cap], len(got) <= cap


def _library_container(container, guard) -> bool:
    """A third-party library's container (an array, a frame) decides membership by its own code over its own state.
    Not the standard library's `collections` containers (`deque`, `ChainMap`, `Counter`, `User*`, ...), which hand
    the question to what they hold, nor any builtin subclass."""
    t = type(container)
    if not _genuine_lib(t, guard) or issubclass(t, _EXACT):
        return False
    return (getattr(t, "__module__", "") or "").split(".")[0] not in ("collections", "types", "weakref", "builtins")


def chain(first, *rest, _record=_record):
    """An n-ary comparison (`0 < f(x) < 1`, `a == b == c`, `x in y != z`) as a test file's assert writes it: each
    operand is a thunk, evaluated once and in order, each adjacent pair decided by the binary rules (`compare`,
    `order`, `contains`, `is`), stopping at the first false link as Python does."""
    import operator

    left = first()
    for i in range(0, len(rest), 2):
        op, right = rest[i], rest[i + 1]()
        if op in ("==", "!="):
            ok = compare(left, right, op == "!=", 0, _record=_record)
        elif op in ("<", "<=", ">", ">="):
            ok = order(left, right, op, _record=_record)
        elif op in ("in", "not in"):
            ok = contains(left, right, op == "not in", _record=_record)
        else:
            ok = {"is": operator.is_, "is not": operator.is_not}[op](left, right)
        if not _truthy(ok):
            return ok
        left = right
    return ok


def _quiet_single(value, guard):
    """The operands' own methods run here with the guard fully on (nothing is switched off while they run)."""
    try:
        return single(value, guard)
    except Exception:
        return None


def _ask(u, x, u_left: bool, ne: bool):
    """One question, its truth read at once (an answer whose truth is decided later, when it knows which question
    was the real one, cannot wait): a bool, or the exception the comparison or its truth raised."""
    try:
        a, b = (u, x) if u_left else (x, u)
        return bool((a != b) if ne else (a == b))
    except Exception as exc:  # the comparison's own outcome (an array's ambiguous truth value included)
        return exc


def _added_spans(guard) -> list:
    """(file, first line, last line, weak reference) of each live class whose whole body the patch wrote (a class
    it added), from the class records (`_answering`)."""
    return _answering(guard)[0]



def _answering(guard):
    """From the class records, recomputed only when a class has been recorded since: the spans of the classes the
    patch added (`_added_spans`) and the codes any class of the project holds under an answering dunder (where a
    held comparison starts, under whatever name). A class the patch added that answers through code the profiler
    cannot see or that is no code of the tree (a C callable, `__eq__ = bool`, a property over `attrgetter`, a
    library function), other than a slot of its own bases put back (`__hash__ = object.__hash__`), is a finding
    (R41-2); so is such a dunder in a class the patch edited, where a line the patch wrote puts it there (R42-5;
    an unchanged `__hash__ = Enum.__hash__` or `partialmethod` ordering is the project's, R43-FP1, R43-FP3), and a
    dataclass or attrs field that a line the patch wrote leaves out of the class's comparison (R43-4)."""
    cached = _STATE.get("answering")
    if cached is not None and cached[0] == len(_CLASSES):
        return cached[1]
    spans, tree, added = [], set(), []
    for r, cls in [*((r, r[0]()) for r in list(_CLASSES.values())), *_unrecorded(guard)]:
        if cls is None or r[1] not in ("changed", "project"):
            continue
        whole = r[1] == "changed" and (r[0] is None or guard.wrote(r[2], r[4], r[5], True))
        edited = not whole and r[1] == "changed" and guard.wrote(r[2], r[4], r[5])
        if whole:
            added.append(r[0] or (lambda c=cls: c))
            if r[0] is not None:
                spans.append((r[2], r[4], r[5], r[0]))
        own = _ns(cls)
        for key, held in _answers_of(cls):
            if held is None:
                continue
            # an `lru_cache` answers from what it cached, unseen: its function counts for `__hash__` only (R48-8)
            code = None if key != "__hash__" and _cached(held) else _python_code(held)
            tree.update(_python_codes(held))
            if type(held).__name__ == "singledispatchmethod" and not _dispatch_registry(held):
                _record(guard, f"{cls.__name__} answers {key} through a singledispatchmethod whose dispatcher is not "
                               "the one functools made (R48-10)")
            put = whole or (edited and _patch_binds(key, r[2], guard, cls.__name__)) or _changed_binds(
                key, guard, cls.__name__)
            if put and _unwatched(held, code, cls, guard, key):
                _record(guard, f"{cls.__name__}, a class the patch {'added' if whole else 'edited'}, answers {key} "
                               f"through a {type(held).__name__}, code the witness cannot watch")
            elif put and not whole and _repointed(key, held, code, guard):
                _record(guard, f"{cls.__name__}, a class the patch edited, answers {key} through {code.co_name}, "
                               "code of the project's that the patch put there")
        if edited:
            for name in _left_out(cls, own):
                if _patch_binds(name, r[2], guard, cls.__name__):
                    _record(guard, f"{cls.__name__}, a class the patch edited, leaves {name} out of its comparison "
                                   "on a line the patch wrote")
    out = (spans, frozenset(tree), added)
    _STATE["answering"] = (len(_CLASSES), out)
    return out


_FUNCTOOLS = __import__("functools").__file__
_ABC_SET = __import__("collections.abc").abc.Set
_SET_HASH = _ABC_SET.__dict__["_hash"]


def _unwatched(held, code, cls, guard, key: str = "") -> bool:
    """An answering dunder held as no Python code of the tree: a C callable (not a slot of one of the class's own
    bases, put back), or a library's Python function that was not generated for a class of the tree, other than
    those `functools.total_ordering` derives from the class's own ordering and a base's method put back, each
    under its own name (`__eq__ = Set.__le__` or a derived `__ge__` held as `__eq__` answers another question,
    R50-5, R50-7)."""
    if code is None:
        return not (type(held).__name__ in ("wrapper_descriptor", "method_descriptor")
                    and getattr(held, "__objclass__", None) in type.__dict__["__mro__"].__get__(cls))
    derived = code.co_filename == _FUNCTOOLS and code.co_name.startswith(f"_{key.strip('_')}_from_")
    if guard.kind(code.co_filename) != "lib" or derived:
        return False  # the tree's code, or the ordering total_ordering derives for it (not any of functools', R45-2)
    mro = type.__dict__["__mro__"].__get__(cls)
    if any(_ns(b).get(k) is held for b in mro[1:] for k in ((key,) if key else _ANSWER)):
        return False  # a method of one of its own bases put back (`__hash__ = Enum.__hash__`, R45-FP1)
    if held is _SET_HASH and any(b is _ABC_SET for b in mro[1:]):
        return False  # `__hash__ = Set._hash`, the recipe `collections.abc` documents for a hashable set (R47-FP1)
    return _generated_for(_held_function(held)) is None


def _added_codes(classes) -> dict:
    """{code: the classes the patch added that hold it under an answering dunder}, whatever file the code is in
    (dataclasses' generated `__eq__`, a library function such as `typing.cast` put there: R42-3, R42-7), read
    afresh for each comparison (`dataclass()` applied to the class later, R43-5)."""
    added: dict = {}
    for ref in classes:
        cls = ref()
        for _key, held in _answers_of(cls) if cls is not None else ():
            for code in _python_codes(held):
                added.setdefault(code, []).append(ref)
    return added


def _left_out(cls, own) -> list:
    """The fields a dataclass or attrs class takes from its constructor but leaves out of its own comparison
    (`field(compare=False)`, `attr.ib(eq=False)`); a field it does not take (`init=False`: a cache, R44-FP1) is
    derived state."""
    init = _held_function(getattr(cls, "__init__", None))  # its own or inherited (R49-2)
    # a constructor of the class's own takes whatever it takes, `init=False` fields included (R47-10)
    code = getattr(init, "__code__", None) if type(init) is type(_among) else None
    taken = code is not None and not code.co_filename.startswith("<")  # not one dataclasses or attrs compiled
    fields = own.get("__dataclass_fields__")
    declared = own.get("__annotations__")  # a base's fields are the base's to answer for (R49-FP3)
    if type(fields) is dict:
        return [n for n, f in fields.items() if not getattr(f, "compare", True)  # `compare=0` too (R50-2)
                and (taken or getattr(f, "init", True)) and (type(declared) is not dict or n in declared)]
    return [getattr(a, "name", "") for a in own.get("__attrs_attrs__", ())
            if not getattr(a, "eq", True) and (taken or getattr(a, "init", True))]


def _unrecorded(guard) -> list:
    """(a record, the class) for each class a changed module holds that no `class` statement made and no
    decorator made anew under a recorded name: one built by calling a metaclass (`ABCMeta(name, bases, ns)`,
    R43-6, R44-3) is the patch's whole, as a class it added."""
    out = []
    for space, home in list(_SPACES.values()):
        if type(home) is not str or guard.kind(home) != "changed":
            continue
        for v in list(space.values()):  # every one: a cap is a number the patch can bind past (R49-5)
            if not issubclass(type(v), type) or _CLASSES.get(id(v)) is not None or not (
                    type.__dict__["__flags__"].__get__(v) & (1 << 9)):  # a class made at run time (a heap type)
                continue
            own = _ns(v)
            key = (own.get("__module__"), type.__dict__["__qualname__"].__get__(v))
            if _replaces(v, key) or _lives_at(v, *key, guard):  # a replaced class, or one imported from where it lives
                continue
            out.append(((None, "changed", home, 1, 1, 1 << 30), v))
    return out


def _replaces(cls, key) -> bool:
    """`cls` is what a decorator made anew from the class recorded under its name: the same bases, it took the
    name (the module holds it there), and it answers with what the `class` statement held or a library generated
    for it. A class built under another class's name with other bases (R45-3), with the same bases but held under a
    name of its own (R46-2), or with answers of its own (`ABCMeta(name, bases, {"__eq__": bool})` put back under
    the name, R47-8) is no replacement."""
    made = _BY_NAME.get(key)  # its bases as they were at the `class` statement: the first class may be gone
    if made is None or made[6] != tuple(map(id, type.__dict__["__bases__"].__get__(cls))) or _held_at(*key) is not cls:
        return False
    first = made[0]() if made[0] is not None else None
    old = _ns(first) if issubclass(type(first), type) else {}
    for k, v in _answers_of(cls):
        if v is None or (k, id(v)) in made[7] or old.get(k) is v:
            continue
        fn = _held_function(v)
        code = getattr(fn, "__code__", None) if type(fn) is type(_among) else None
        if code is not None and code.co_filename == _FUNCTOOLS and "_from_" in code.co_name:
            continue  # an ordering `total_ordering` derived after the rebuild (R49-FP4)
        if type(fn) is not type(_among) or _generated_for(fn) is None:
            return False
    return True


def _held_at(module, qualname):
    """What module `module` holds under the qualified name `qualname` (None where nothing does)."""
    obj = sys.modules.get(module) if type(module) is str else None
    for part in str(qualname).split("."):
        obj = getattr(obj, "__dict__", {}).get(part) if obj is not None else None
    return obj


def _lives_at(cls, module, qualname, guard) -> bool:
    """`cls` is what a module that is no changed one holds under its qualified name (a class imported here; one a
    changed module holds under its own name is that module's, R45-6)."""
    obj = sys.modules.get(module) if type(module) is str else None
    home = obj.__dict__.get("__file__") if type(obj) in _MODULE_CLASSES else None
    if type(home) is str and guard.kind(home) == "changed":
        return False
    return _held_at(module, qualname) is cls


def _patch_binds(name: str, path: str, guard, owner: str) -> bool:
    """Where `owner`'s `name` in `path` (a class's dunder or field) comes from: a statement the patch wrote binds
    it (`__eq__ = bool` in its body, `__eq__: object = bool`, `(__eq__) = ...`, `Owner.__eq__ = ...`,
    `setattr(Owner, "__eq__", ...)`, a field declaration), or no statement of the file binds it at all (a computed
    name: `setattr(C, k, v)`, `locals()[k] = v`). Read from the file's syntax tree, so a comment or a string
    naming it, or another class's binding, binds nothing (R44-1, R44-2, R44-FP2)."""
    found = [b for b in _bindings(path).get(name, ()) if b[2] in (owner, None)]
    return not found or any(guard.wrote(path, a, b) for a, b, _ in found)


def _changed_binds(name: str, guard, owner: str) -> bool:
    """A statement the patch wrote in any changed file binds `owner`'s `name` (`Cents.__eq__ = bool` elsewhere)."""
    return any(guard.wrote(path, a, b) for path in guard.changed for a, b, who in _bindings(path).get(name, ())
               if who in (owner, None))


_BINDINGS: dict = {}


def _bindings(path: str) -> dict:
    """{name: [(first line, last line, owner)] of each statement of `path` that binds it}, parsed once. The owner
    is the class whose body holds the statement, the object named before the attribute (`Owner.name = ...`,
    `setattr(Owner, "name", ...)`), or None where it cannot be told (a namespace dict for a metaclass)."""
    if path in _BINDINGS:
        return _BINDINGS[path]
    import linecache

    out: dict = {}
    try:
        tree = ast.parse("".join(linecache.getlines(path)))
    except (SyntaxError, ValueError):
        tree = None
    todo = [(tree, "")] if tree is not None else []
    while todo:
        node, owner = todo.pop()
        inner = node.name if isinstance(node, ast.ClassDef) else owner if not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else "<function>"
        todo += [(c, inner) for c in ast.iter_child_nodes(node)]
        found = []
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor,
                             getattr(ast, "NamedExpr", ast.Assign))):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        found.append((sub.id, owner or None))
                    elif isinstance(sub, ast.Attribute):
                        found.append((sub.attr, getattr(sub.value, "id", None)))
                    elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
                        found.append((str(sub.slice.value), owner or None))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found = [(a.asname or a.name.split(".")[0], owner or None) for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setattr" \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            found = [(str(node.args[1].value), getattr(node.args[0], "id", None))]
        elif isinstance(node, ast.Dict):  # `{"__eq__": bool}` handed to a metaclass, `__annotations__` entries
            found = [(str(k.value), None) for k in node.keys if isinstance(k, ast.Constant)]
        span = (getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or getattr(node, "lineno", 1))
        for name, who in found:
            out.setdefault(name, []).append((*span, who))
    _BINDINGS[path] = out
    return out


def _project_class(t) -> bool:
    """A class whose `class` statement is in the project's code (changed or not), or one it derives from such."""
    for c in type.__dict__["__mro__"].__get__(t):
        made = _CLASSES.get(id(c))
        if made is None or made[0]() is not c:  # a class a decorator made anew under the recorded name (R44-4)
            made = _BY_NAME.get((_ns(c).get("__module__"),
                                 type.__dict__["__qualname__"].__get__(c)))
        if made is not None and made[1] in ("changed", "project"):
            return True
    return False


def _receiver(frame, code):
    """The object a method runs for: its first argument, or the first of its `*args` (`def __eq__(*pair)`,
    R42-9); `_ABSENT` where there is none."""
    if code.co_argcount:
        return frame.f_locals.get(code.co_varnames[0], _ABSENT)
    if code.co_flags & 4:
        args = frame.f_locals.get(code.co_varnames[code.co_kwonlyargcount], ())
        return args[0] if type(args) is tuple and args else _ABSENT
    return _ABSENT


def _traced(call, exclude, guard):
    """(what `call()` returns, None or the first code of the patch that answered while it ran). What decides a
    comparison is the code that runs, wherever the objects are held: the profiler sees every Python call, a dunder
    called through a type slot too. Refused: a class the patch added answering through a dunder (`_ANSWER`) under
    any name or code (generated, a library's); code the patch wrote running while a held project object answers
    (its whole extent, R42-4, R43-3), or held by the receiver's class now. The compared values are judged by the
    other rules: exempt is the object whose exact class is one of theirs (`exclude`, R42-2). `__init__`, values
    (arithmetic, items, attributes) and plain methods called by name answer nothing by themselves."""
    if guard is None:
        return call(), None
    known, ran, held, now = {}, [], [], [None, {}]

    def _on_call(frame, event, arg):  # reads the frame's code and locals, hands nothing back (`_FRAME_READERS`)
        if event == "return" and held and held[-1] is frame:
            held.pop()
        if ran or event != "call":
            return
        code = frame.f_code
        state = _STATE.get("answering")
        spans, tree, added = state[1] if state is not None and state[0] == len(_CLASSES) else _answering(guard)
        if now[0] is not added:
            now[0], now[1] = added, _added_codes(added)
        if code not in known:
            known[code] = _code_home(code, spans, guard)
        home = known[code]
        if home is None and code not in now[1] and code not in tree and code.co_name not in _ANSWER:
            return
        who = _receiver(frame, code)
        t = type(who) if who is not _ABSENT else None
        if t is not None and t in exclude:
            return
        cls = home[1]() if home is not None and home[0] == "span" else None  # in the body of a class it added
        for c in [cls, *(ref() for ref in now[1].get(code, ()))]:  # its code, whoever it runs for (R45-5, R45-7)
            if c is not None and (c is not cls or ((t is not None or cls not in exclude) and (
                    code.co_name in _ANSWER or _answers_with(cls, code)))):
                ran.append(f"{c.__name__}, a class the patch added")
                return
        if held and home is not None:  # inside a held object's answer: code the patch wrote decides it
            ran.append(f"{held[0].f_code.co_name} of a held object, which ran {code.co_name}, code the patch wrote")
            return
        if t is None:
            return
        if home is not None and home[0] == "patch" and _answers_with(t, code):  # its class holds it now
            ran.append(f"{t.__name__}.{code.co_name}, a line of which the patch wrote")
            return
        if (code in tree or code.co_name in _ANSWER) and _project_class(t):  # a held project object answers (by
            # its own code or a library base's: `Mapping.__eq__`, R43-3): what runs until it returns is judged
            held.append(frame)

    old = sys.getprofile()
    sys.setprofile(_on_call)
    try:
        out = call()
    finally:
        sys.setprofile(old)
    return out, (ran[0] if ran else None)


# the dunders whose result is the answer to a question the comparison asks of an object: equal or ordered, true,
# how long, holding an item, its hash, an instance check. Not those that produce a value the question is then
# asked of (arithmetic, conversions, items, attributes, descriptors): a value is judged as a value, and a liar
# among them still has to answer through one of these
_ANSWER = frozenset({"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__len__",
                     "__contains__", "__hash__", "__instancecheck__", "__subclasscheck__"})


def _python_code(held):
    """The code object of the Python function behind a class attribute (through a static or class method or a
    property's getter, a partial, an `lru_cache` or a `singledispatchmethod`), or None."""
    held = _held_function(held)
    kind = type(held).__name__
    if kind in ("partialmethod", "partial"):  # the function it calls (R45-FP3)
        held = getattr(held, "func", None)
    elif kind == "_lru_cache_wrapper" and type(held).__module__ == "functools":  # R46-FP1c
        held = _cached_function(held)
    elif kind == "singledispatchmethod" and type(held).__module__ == "functools":  # R46-FP1
        held = _dispatched_function(held)
    return getattr(held, "__code__", None) if type(held) is type(_among) else None


def _repointed(key: str, held, code, guard) -> bool:
    """A binding the patch wrote points an answering dunder at another function of the project that it did not
    write (`__eq__ = staticmethod(__hash__)`: the answer runs unchanged lines, so no profiled line is the patch's,
    R49-6). A partial's call carries arguments of its own and stays judged by the function it calls (R45-FP3)."""
    bare = type(held) is _PARTIAL and not held.args and not held.keywords  # `partial(__hash__)` (R50-1)
    if code is None or (type(held) not in (type(_among), staticmethod, classmethod) and not bare) or code.co_name == key \
            or code.co_name == "<lambda>" or guard.kind(code.co_filename) not in ("changed", "project"):
        return False
    return not guard.wrote(*_code_lines(code))


def _cached(held) -> bool:
    return type(held).__name__ == "_lru_cache_wrapper" and type(held).__module__ == "functools"


def _cached_function(wrapper):
    """The function an `lru_cache` wrapper calls: the one Python function the C wrapper itself holds, which is also
    its `__wrapped__` (a plain attribute anyone can set), with no other callable among what it holds (a bounded
    cache holds its results there too: a C callable wrapped and a Python function planted as a cached result,
    R47-6); else None."""
    held = [r for r in _referents(wrapper) if callable(r) and not issubclass(type(r), type)]
    return held[0] if len(held) == 1 and type(held[0]) is type(_among) and held[0] is getattr(
        wrapper, "__wrapped__", None) else None


def _python_codes(held) -> tuple:
    """Every code object that may answer for a class attribute: each function a `singledispatchmethod` can dispatch
    to (R47-7), else `_python_code`'s one."""
    if type(_held_function(held)).__name__ == "singledispatchmethod" and _python_code(held) is not None:
        return tuple(_held_function(v).__code__ for v in _dispatch_registry(held))
    code = _python_code(held)
    return () if code is None else (code,)


def _dispatch_registry(method) -> list:
    """The functions a `singledispatchmethod` dispatches to: the registry of the `dispatch` its `__get__` calls, if
    that is functools' own (not a look-alike whose `dispatch` is a C mapping's `get`, R48-10), read from its
    closure, not from the `registry` attribute anyone can set; [] otherwise."""
    dispatch = getattr(getattr(method, "dispatcher", None), "dispatch", None)
    code = getattr(dispatch, "__code__", None) if type(dispatch) is type(_among) else None
    if code is None or code.co_filename != _FUNCTOOLS or "registry" not in code.co_freevars:
        return []
    registry = dispatch.__closure__[code.co_freevars.index("registry")].cell_contents
    return list(registry.values()) if type(registry) is dict else []


def _dispatched_function(method):
    """A `singledispatchmethod`'s default function, where every function its registry can dispatch to is a Python
    function of the same file (no C callable or library function registered for some type), else None."""
    func = getattr(method, "func", None)
    values = _dispatch_registry(method)
    home = getattr(getattr(func, "__code__", None), "co_filename", None)
    if type(func) is not type(_among) or not values or any(
            type(_held_function(v)) is not type(_among) or _held_function(v).__code__.co_filename != home for v in values):
        return None
    return func


def _held_function(held):
    """What a class attribute holds behind a static or class method or a property (its getter)."""
    return held.__func__ if type(held) in (staticmethod, classmethod) else held.fget if type(held) is property \
        else held


def _answers_with(cls, code) -> bool:
    """`cls` (or a base) holds a function running `code` under an answering dunder (`__eq__ = _counts`, a lambda,
    a property's getter). Not one of the frozen comparison functions, like `_code_span`: the `__code__` read here
    is the witness's own."""
    for c in type.__dict__["__mro__"].__get__(cls):
        for _k, v in _answers_of(c):
            if code in _python_codes(v):
                return True
    return False


def _code_home(code, spans, guard):
    """("span", the class) for code in the body of a class the patch added; ("patch", None) for other code of a
    changed file with a line the patch wrote; None for anything else."""
    name = code.co_filename
    for sp in spans:
        if sp[0] == name and sp[1] <= code.co_firstlineno <= sp[2]:
            return "span", sp[3]
    if guard.kind(name) != "changed":
        return None
    return ("patch", None) if guard.wrote(*_code_lines(code)) else None


def _mro_of(*values) -> frozenset:
    """The exact classes of the values a comparison compares directly: the operands, and the items of builtin
    containers among them, as `==` of two lists compares their items (judged by the existing rules). Not their
    bases: a class the patch added and made a base of the compared one is not compared itself (R42-2)."""
    out, todo, n = set(), list(values), 0
    while todo and n < 10000:
        v = todo.pop()
        n += 1
        t = type(v)
        if t in (list, tuple, set, frozenset):
            todo += _ISLICE(v, 10000)
        elif t is dict:
            todo += [*_ISLICE(dict.keys(v), 10000), *_ISLICE(dict.values(v), 10000)]
        out.add(t)
    return frozenset(out)


def _own_compare(t: type, guard) -> bool:
    """`t`'s comparison is code the patch changed or added (where coarse predicates would come from), not an
    unchanged one in a file the fix touched."""
    return any(_patch_wrote(_raw_attr(t, name), guard) for name in ("__eq__", "__ne__")
               if type(_raw_attr(t, name)) is type(_among))


_SCALARS = (int, float, complex, str, bytes, bool, type(None))
_COLLECTIONS = (list, tuple, dict, set, frozenset)
_NO_VALUE = ("no value",)  # a sentinel no conversion returns


def _commit(u, k):
    """u's own value as a builtin of k's type, taken before u is compared with anything in this assert: a
    builtin subclass gives its builtin payload (the builtin's own method, not an override), anything else is
    converted (`float(u)`, `str(u)`, ...). The assert then needs this value to equal k as builtins do: a value
    that decides what it equals once it sees k (a guess from the input, a predicate, a library wrapper around
    one) has nothing to decide from when it must commit. `_NO_VALUE` when it has none (or None is expected)."""
    import warnings

    kt = type(k)
    with warnings.catch_warnings():  # a conversion's deprecation warning is no answer (tests may turn them into errors)
        warnings.simplefilter("ignore")
        try:
            for base, own in ((str, str.__str__), (bytes, bytes.__bytes__), (float, float.__float__),
                              (complex, complex.__complex__), (int, int.__int__)):
                if isinstance(u, base) and getattr(base, own.__name__, None) is own:
                    v = own(u)
                    break
            else:
                if kt is type(None) or (kt is bytes and hasattr(type(u), "__index__")):  # bytes(n) is n zero bytes
                    return _NO_VALUE
                v = _integral(u) if kt in (int, bool) else {float: float, complex: complex, str: str, bytes: bytes}[kt](u)
                if type(v) is not kt and isinstance(v, (str, bytes)):  # __str__ may return a subclass
                    v = (str.__str__ if isinstance(v, str) else bytes.__bytes__)(v)
        except Exception:
            return _NO_VALUE
    import cmath

    if type(v) in (float, complex) and not cmath.isfinite(v):
        guard = _STATE.get("guard")  # NaN or an infinity from the patch's own type passes any bound it picks
        if not isinstance(u, (float, complex)) and (guard is None or not _genuine_lib(type(u), guard)):
            return _NO_VALUE
    return v if _among(type(v), _SCALARS) else _NO_VALUE


def _integral(u):
    """u's value where an int is expected, by lossless views only: `__index__` (the integer protocol) and the float
    view. Never `int()`/`bool()`, which narrow (4.57 would commit to 4); views that disagree commit to the float
    one, the finer, so a value that is 4 as an index and 4.57 as a number is not 4."""
    import contextlib
    import operator

    views = []
    if hasattr(type(u), "__index__"):
        with contextlib.suppress(TypeError):  # numpy's bool_ refuses to be an index; its float view remains
            views.append(operator.index(u))
    if hasattr(type(u), "__float__") or not views:
        views.append(float(u))
    if hasattr(type(u), "__int__") and not hasattr(type(u), "__index__") and type(views[-1]) is float and \
            abs(views[-1]) < 2.0 ** 52 and int(u) != int(views[-1]):  # one number, whichever view is read
        return _NO_VALUE
    return views[-1]


def _commit_items(u, k):
    """u's own items as k's builtin container (`list(u)`, `dict(u)`, ...), taken before u sees k: a value that says
    it equals a list literal must hold those items, each then judged as any element is. `_NO_VALUE` for a value
    that is no re-iterable collection (an iterator would be used up by the commit)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if isinstance(u, dict) and type(k) is dict:  # a builtin's own storage, not an override's view of it
                return dict(dict.items(u))
            held = _payload_items(u) if not isinstance(u, dict) else None
            if held is not None:
                return type(k)(held) if type(k) is not dict else dict(held)
            if type(k) is not dict and iter(u) is u:
                return _NO_VALUE
            return type(k)(u)
        except Exception:
            return _NO_VALUE


def _honoured(u, ctx) -> bool:
    """A matcher (pytest's approx, mock.ANY) counts as one only where it can be the test's own expectation: the
    test module can name it, and the other side is not a literal written in the assert (a test does not write
    `approx(x) == 2.5`; a value the code under test returned does). Anything else is an ordinary value."""
    names, k_literal = ctx
    return ("ANY" if type(u).__name__ == "_ANY" else "approx") in names and not k_literal


def _nameable(frame) -> frozenset:
    """The matchers the asserting test code can name (`approx` or `pytest.approx`; `ANY` or `mock.ANY`): in its
    module's namespace or its local names (a local `from unittest import mock`). The names come from its code, not
    `f_locals`: on Pythons before 3.13 that is a snapshot the frame keeps, holding every local alive (a test that
    deletes its last reference and checks a weak reference would fail). A frame reader of the guard's list, never
    one of the frozen comparison functions: an assert in a callback that changed code runs reads the frame too."""
    code = frame.f_code
    space, local = frame.f_globals, {*code.co_varnames, *code.co_cellvars, *code.co_freevars}
    known = {w for w in ("approx", "pytest", "ANY", "mock", "unittest") if w in space or w in local}
    return frozenset(({"approx"} if known & {"approx", "pytest"} else set()) |
                     ({"ANY"} if known & {"ANY", "mock", "unittest"} else set()))


def _far_values(k, n: int = 5) -> list:
    """Numbers outside any usual tolerance of k (0.1% to 1000x its scale away) written to k's own places, so
    neither closeness nor the number of decimals tells k from them."""
    import random

    rng = random.SystemRandom()
    places = _places(k)
    scale = max(abs(k), 1.0)
    out = [k + rng.choice((-1, 1)) * scale * 10 ** rng.uniform(-3, 3) for _ in range(n)]
    return [round(c, places) if places is not None else type(k)(c) for c in out]


def _far_approx(other, expected) -> list:
    """pytest's approx (same class and tolerances) of values far from `expected` (each one the approx itself does
    not call equal to `expected`); none under another signature."""
    try:
        made = [type(other)(c, rel=other.rel, abs=other.abs, nan_ok=other.nan_ok) for c in _far_values(expected)]
    except Exception:  # another approx signature: the unrelated objects still ask
        return []
    return [a for a in made if not _says_equal(a == expected)]


def _both_objects(left, right, ne: bool, guard, ctx: tuple = (frozenset(), 0)):
    """Neither side builtin: a side that is no genuine library type must not equal a fresh unrelated object
    (asked among the real comparison, in random order); with pytest's approx on the other side, the non-library
    side is also asked against approx of values far from the expected one."""
    import random

    # a standard-library value whose state is builtins runs no code of the patch; any other side - a library
    # wrapper too (`UserString.__eq__` hands the question to its `.data`) - is asked, the patch's or the project's
    # value before a library's
    sides = [(v, v is left) for v in (left, right) if not _leaf_value(v) and not _matcher(type(v), guard)]
    if not sides:
        return _ask(left, right, True, ne), None
    held = next((v for v, _ in sides if _home(type(v), guard) == "lib" and not _code_object(v) and
                 _patch_state(v, guard)), None)  # a library value, not a class or a function (whose namespace holds
    # the patch's code); a callable value (`list[int]`, a GenericAlias) is a value
    if held is not None:  # a library value's own `==` hands the question to what it holds (a UUID's `int` slot)
        return _ask(left, right, True, ne), f"a {type(held).__name__} holding an object of a class the patch wrote"
    sides.sort(key=lambda side: _genuine_lib(type(side[0]), guard))
    other = right if sides[0][1] else left
    asked = [("k", other)] * 2 + [("x", _Unrelated()) for _ in range(3)]
    if _leaf_value(other):  # values of its own type that differ from it: equal to one of them is equal to a guess
        asked += [("x", d) for d in _lib_decoys(other, _own_compare(type(sides[0][0]), guard))]
    expected = getattr(other, "expected", None) if _matcher(type(other), guard) and _honoured(other, (ctx[0], False)) \
        else None
    if _among(type(expected), (int, float)):
        asked += [("x", a) for a in _far_approx(other, expected)]
    random.SystemRandom().shuffle(asked)
    asked = [("x", _Unrelated()), *asked, ("x", _Unrelated())]
    u, u_left = sides[0]
    committed = _commit(u, expected) if _among(type(expected), (int, float, complex)) else None
    answers, ran = _traced(lambda: [(w, _ask(u, x, u_left, ne)) for w, x in asked], _mro_of(left, right), guard)
    on_k = [r for w, r in answers if w == "k"]
    if ran is not None:
        return on_k[-1], f"a {type(u).__name__} whose comparison ran code of {ran}"
    if len({_says_equal(r, ne) for r in on_k}) > 1:
        return on_k[-1], f"a {type(u).__name__} that answers differently when compared with the same object again"
    if any(_says_equal(r, ne) for w, r in answers if w == "x"):
        return on_k[-1], f"a {type(u).__name__} that compares equal to an unrelated object or a far value"
    if (not ne and _says_equal(on_k[-1]) and not _matcher(type(other), guard) and _genuine_lib(type(other), guard)
            and _answers_itself(u, guard) and not _same_kind(u, other, guard)):
        return on_k[-1], (f"a {type(u).__name__} that compares equal to a {type(other).__name__} without being one "
                          f"(its comparison is not {type(other).__name__}'s)")
    if committed is not None and _says_equal(on_k[-1], ne) and (committed is _NO_VALUE or _ask(other, committed,
                                                                                                  True, False) is not True):
        own = "has no number" if committed is _NO_VALUE else f"whose own value is {committed!r}"
        return on_k[-1], f"a {type(u).__name__} that compares equal to {other!r} but {own}"
    if not _says_equal(on_k[-1], ne):  # a `!=` that says "equal" (`if got != want: fail()`) is an `==` (R73-34b)
        return on_k[-1], None
    eq = _raw_attr(type(u), "__eq__")  # a dataclass's or attrs' generated one compares the fields it was told to
    loose = other is not u and not _among(type(other), _EXACT) and _home(type(other), guard) in (
        "changed", "project") and not str((_code_span(eq) or ("",))[0]).startswith("<")
    return on_k[-1], _hidden_difference(left, right, guard) or (_loose_to_changes(u, other, u_left, guard) if loose else None)


# -- two values of the tree, compared, ordered or subtracted by their own code ---------------------------------------
# Where both sides are the project's values (`parse(t) == Duration(5400)`, `Version(a) > Version(b)`,
# `abs(got - want) <= TOL`), no builtin side commits to anything, and the blind run hears only a changed `==` at an
# assert (R70-1 to R70-13). What an honest comparison, ordering or difference is can still be asked of the two
# values themselves: equality that survives a change to the other side's own state, an order that holds both ways,
# a difference that is nothing between values that differ.


def _fields(v) -> tuple:
    """(v's instance dict or None, [(name, value, setter)] of what it holds: that dict's entries, then its slots),
    read and set past any `__getattribute__`/`__setattr__` of its class: no code of the tree runs."""
    out = []
    try:
        own = object.__getattribute__(v, "__dict__")
    except (AttributeError, TypeError):
        own = None
    own = own if type(own) is dict else None
    if own is not None:
        out += [(k, x, lambda x, k=k: dict.__setitem__(own, k, x)) for k, x in list(dict.items(own))[:50]
                if type(k) is str]
    for c in type.__dict__["__mro__"].__get__(type(v)):
        for k, slot in list(_ns(c).items()):
            if type(slot).__name__ == "member_descriptor" and len(out) < 60:
                try:
                    out.append((k, slot.__get__(v, type(v)), lambda x, slot=slot: slot.__set__(v, x)))
                except AttributeError:  # an unset slot
                    continue
    return own, out


def _changes_of(was) -> list:
    """Other values for one field: another of its type and its type's extremes (numbers and texts: a relation on
    the field flips at one end or the other), an unrelated object for anything else."""
    if type(was) in (int, float):
        far = 10 ** 9 * (1 + abs(was))
        return [*_decoys(was, 1), was + far, was - far]
    if type(was) in (str, bytes):
        return [*_decoys(was, 1), was[:0], was[:0] + (b"\xff" * 8 if type(was) is bytes else "\U0010ffff" * 8)]
    return [_Unrelated()]


def _holds_whatever(u, other, holds) -> str:
    """"" where `holds(u, other)`, true now, stops holding once one part of `other`'s own state changes; else the
    fields changed. Each field of `other` in turn is set to other values (`_changes_of`) and put back at once, its
    instance dict whole (a cache filled meanwhile goes too). The object itself is changed, so a class that knows
    its own instances sees one of them. A relation that holds whatever `other` holds reads nothing of it; one part
    of several left unread (a cache, a label, the text a version was parsed from) is an honest relation's right."""
    own, fields = _fields(other)
    saved = dict(own) if own is not None else None
    changed = []
    for name, was, put in fields:
        for value in _changes_of(was):
            if _field_set(own, saved, put, value, was, lambda: holds(u, other)) is not True:
                return ""
        changed.append(name)
    return ", ".join(changed[:3])


def _field_set(own, saved, put, value, was, ask):
    """`ask()` with one field of an object set to value (`_fields`' setter); the field, and the instance dict whole
    (a cache filled meanwhile goes too), put back at once. False where asking raises."""
    try:
        put(value)
        return ask()
    except Exception:
        return False
    finally:
        put(was)
        if own is not None:
            dict.clear(own)
            dict.update(own, saved)


def _loose_to_changes(u, other, u_left: bool, guard=None) -> str:
    """"" unless u, said to equal `other`, equals it whatever it holds (`_holds_whatever`): the finding."""
    holds = lambda a, b: _ask(a, b, u_left, False)  # noqa: E731
    said = _original_equal(u, other, guard) if guard is not None else None
    if said is False:
        return (f"a {type(u).__name__} that compares equal to a {type(other).__name__} that the project's own "
                "`__eq__` (which the patch edited, or a method it calls) tells apart: an equality widened")
    original = (lambda: _original_equal(u, other, guard)) if said is True else None
    changed = _holds_whatever(u, other, holds)
    if changed:
        return (f"a {type(u).__name__} that compares equal to a {type(other).__name__} whatever the latter holds "
                f"(still equal with its {changed} changed)")
    # a tolerance the project's own `==` has is its design (a reading within the sensor's accuracy: R38's f5reading)
    near = _one_off(u, other, holds, bool(_patch_wrote(_raw_attr(type(u), "__eq__"), guard)), original) \
        if guard is not None \
        and _patch_decides(type(u), "__eq__", guard, u) else ()
    return (f"a {type(u).__name__} that compares equal to a {type(other).__name__} whose {near[0]} {near[1]}, but not "
            f"to one whose {near[2] if len(near) > 2 else near[0]} is far: an equality widened by a tolerance") if near \
        else ""


def _one_off(u, other, holds, wrote: bool = True, original=None) -> tuple:
    """(the field of `other` that `holds(u, other)` tolerates a little off while it reads it, how) or (): a far value
    breaks it. An integer field one unit off either way: a `Money.__eq__` within a cent (R72-27, R72-30). A float
    field 0.1% or 0.001% off (of its size, at least 1: R73-1's points within 0.05, R74-7's distances within 0.01%);
    `math.isclose`'s or approx's own tolerance is far finer. A text field in the other letter case or with spaces
    around it (R73-2: an address compared casefolded); a list or tuple field reversed (R74-4: lines compared
    sorted), where the patch wrote the `__eq__` itself (an invoice equal by its total ignores its lines' order by
    design). A field equality ignores is no tolerance, nor is one the project's own `__eq__` has (`original`, where
    the host sent it: a subclass's casefolding `_key` under an `__eq__` the patch edited)."""
    own, fields = _fields(other)
    saved = dict(own) if own is not None else None
    patch_only = lambda: holds(u, other) is True and (original is None or original() is not True)  # noqa: E731

    def holds_with(put, value, was) -> bool:
        return _field_set(own, saved, put, value, was, patch_only) is True

    for name, was, put in fields:
        how, near, far = _near_values(was) if wrote or not _among(type(was), (str, list, tuple)) else ("", [], [])
        if near and any(holds_with(put, v, was) for v in near) and not all(holds_with(put, v, was) for v in far):
            return name, how
    return _fields_off(patch_only, own, saved, fields) if wrote else ()


def _fields_off(patch_only, own, saved, fields) -> tuple:
    """`_one_off` across fields, where the patch wrote the `__eq__`: two fields of one type swapped (R76-1: a
    rectangle equal to its transpose hides a parser that swaps width and height) or every number field moved one
    step together (R76-T14: a span equal to itself shifted by one hides an off-by-one in both ends), while a far
    value in one of them breaks it."""
    def holds_with(sets) -> bool:  # the fields set at once, the object put back whole after
        if not sets:
            return patch_only()
        (put, value, was), rest = sets[0], sets[1:]
        return _field_set(own, saved, put, value, was, lambda: holds_with(rest)) is True

    fields = [f for f in fields[:8] if _among(type(f[1]), (int, float, str)) and type(f[1]) is not bool]
    for i, (a, was_a, put_a) in enumerate(fields):
        far = _near_values(was_a)[2]
        for b, was_b, put_b in fields[i + 1:]:
            if type(was_a) is type(was_b) and was_a != was_b and far and holds_with(
                    [(put_a, was_b, was_a), (put_b, was_a, was_b)]) and not holds_with([(put_a, far[0], was_a)]):
                return f"{a} and {b}", "are swapped", a
    numbers = [f for f in fields if type(f[1]) in (int, float)]
    if len(numbers) >= 2:
        moved = [(put, was, _near_values(was)) for _, was, put in numbers]  # (setter, value, (how, near, far))
        for k in range(min(len(m[2][1]) for m in moved)):
            if holds_with([(put, near[k], was) for put, was, (_, near, _) in moved]) and not holds_with(
                    [(put, far[0], was) for put, was, (_, _, far) in moved]):
                return ", ".join(n for n, _, _ in numbers[:3]), "are all one off together", numbers[0][0]
    return ()


def _near_values(was) -> tuple:
    """(how, values a little off `was`, values far from it) for the kinds of field `_one_off` tries."""
    t = type(was)
    if t is int or (t is float and abs(was) < 1e300):
        size = 1 if t is int else max(abs(was), 1.0)
        steps = (1,) if t is int else (size * 1e-3, size * 1e-5)
        far = 10 ** 9 * (1 + abs(was))  # either side: an equality of signs holds far above (R73-35)
        return "is one off", [was + d for step in steps for d in (step, -step)], [was + far, was - far]
    if _among(t, _EXACT_NUMBERS) and was == was and abs(was) < 10 ** 300:  # a `Decimal` or `Fraction` field (R74-24)
        size = max(abs(was), 1)
        steps = [size * t(1) / 1000, size * t(1) / 100000]
        return "is one off", [was + d for step in steps for d in (step, -step)], [was + 10 ** 9 * (1 + abs(was)),
                                                                                  was - 10 ** 9 * (1 + abs(was))]
    if _among(t, _TIMES):  # a datetime within a minute, a date within a day (R74-27: slots an hour apart equal)
        import datetime

        step = datetime.timedelta(days=1) if t is datetime.date else datetime.timedelta(minutes=1)
        try:
            return "is one off", [was + step, was - step], [was + 1000 * step, was - 1000 * step]
        except OverflowError:
            return "", [], []
    if t is str and was:
        near = [v for v in (str.swapcase(was), " " + was + " ") if v != was]
        return "differs in letter case or spaces", near, [was + "\u2063" + was[::-1] + "~"]
    if (t is list or t is tuple) and len(was) >= 2 and any(was[i] is not was[-1 - i] for i in range(len(was))):
        return "is reordered", [was[::-1]], [was[:-1]]
    return "", [], []


def _tree_pair(left, right, guard) -> bool:
    """Two values, neither a builtin nor a library's, at least one of the project's (`order`, `arith`): what a
    test's own class answers is the test's."""
    return not any(_among(type(v), _EXACT) or issubclass(type(v), _EXACT) or _code_object(v) for v in (left, right)) \
        and all(_home(type(v), guard) != "lib" for v in (left, right)) and any(
            _home(type(v), guard) in ("changed", "project") for v in (left, right))


def _order_consistent(left, right, op: str, res, guard, _record=_record) -> None:
    """`a op b` held between two values of the tree: it must be an order. Both `a > b` and `b > a`, or `a > b` with
    `a <= b` (`a >= b` with `a < b`) is none (an `__lt__` true for any two versions, a `__ge__` true for any two
    entries: R70-4 to R70-9). `a <= b` with `b <= a` between values that are not equal is a preorder's right (attrs'
    `order=str.lower`: ordered by a key, equal by value)."""
    if _truthy(res) is not True or not _tree_pair(left, right, guard):
        return
    found = None
    if _ask_order(left, right, _COMPLEMENT[op]) is True:
        found = f"both {op} and {_COMPLEMENT[op]}"
    elif op in ("<", ">") and _ask_order(right, left, op) is True:
        found = f"{op} and, the other way round, {op} too"
    elif right is not left:  # a non-strict one too: `a >= b` whatever b holds is no order of b's (R70-5, R70-9)
        changed = _holds_whatever(left, right, lambda a, b: _ask_order(a, b, op))
        found = f"{op} whatever the latter holds (its {changed} changed)" if changed else None
    if found:
        _record(guard, f"assertion ordered a {type(left).__name__} and a {type(right).__name__} that are {found}")


def _ask_order(a, b, op: str):
    """Whether `a op b` holds, its truth read at once; None where it cannot be asked (no such ordering defined)."""
    try:
        return bool(_op(op)(a, b))
    except Exception:
        return None


def _zero_difference(a, b, diff, guard, op: str = "-") -> str:
    """"" unless `a op b` (`diff`: `-`, `/`) reads nothing of b: the same whatever b holds (`_holds_whatever`), or,
    for `-`, what `a - a` gives while a and b are not equal by their own `==`. A `__sub__` that makes any two
    values close (R70-8, R70-12) answers either way."""
    if not _tree_pair(a, b, guard) or a is b:
        return ""
    fn = _op(op)
    same = _holds_whatever(a, b, lambda x, y: _ask(fn(x, y), diff, True, False))
    if same:
        return f"a {type(a).__name__} {op} another that gives the same whatever the latter holds (its {same} changed)"
    try:
        nothing = a - a if op == "-" else None
    except Exception:
        return ""
    if op == "-" and _ask(diff, nothing, True, False) is True and _ask(a, b, True, False) is False:
        return f"a {type(a).__name__} minus another that is not equal to it gives what it gives minus itself"
    return ""


def _plain_value(v, guard) -> bool:
    """Builtins all the way down, or a value of a library type: its `==` is no code of the patch's."""
    return _pure(v) or _home(type(v), guard) == "lib"


def _uncompared(t) -> list:
    """(the class that declares it, name, left out by its own flag) of each field of dataclass or attrs class `t`
    that the generated `__eq__`
    it answers with leaves out: `compare=False` however spelled, and a subclass's own fields where the `__eq__`
    is a base's (`@dataclass(eq=False)` over a base's comparison, R52-6). An `init=False` field is derived state
    (a cache), unless the class compares no field at all (R50-6) or a constructor of its own fills it."""
    mro = type.__dict__["__mro__"].__get__(t)
    owner = next((k for k in mro if "__eq__" in _ns(k)), None)
    if owner is None:
        return []
    every, kept = _fields_of(t), {n for n, keep, _ in _fields_of(owner) if keep}
    init = _held_function(getattr(t, "__init__", None))
    code = getattr(init, "__code__", None) if type(init) is type(_among) else None
    own_init = code is not None and not code.co_filename.startswith("<")
    compares = bool(kept)
    out = []
    post = _held_function(getattr(t, "__post_init__", None))
    post = getattr(post, "__code__", None) if type(post) is type(_among) else None
    for name, keep, takes in every:
        fills = post is not None and (name in post.co_names or name in post.co_consts)  # its own code sets it
        if name in kept or not (takes or own_init or not compares or fills):
            continue
        declared = next((k for k in mro if name in (_ns(k).get("__annotations__") or {})
                         or name in _attrs_names(k)), t)
        out.append((declared, name, not keep))
    return out


def _attrs_names(k) -> tuple:
    own = _ns(k)
    return tuple(getattr(a, "name", "") for a in own.get("__attrs_attrs__", ()) or ()
                 if not getattr(a, "inherited", False))


def _no_default(f) -> bool:
    """An `init=False` field with no default: the class's own code (`__post_init__` from an `InitVar`) fills it
    with state, no cache (R53-2)."""
    missing = type(getattr(f, "default", None)).__name__ == "_MISSING_TYPE"
    return missing and type(getattr(f, "default_factory", None)).__name__ == "_MISSING_TYPE"


def _fields_of(t) -> list:
    """(name, compared, taken by the constructor) of each field of a dataclass or attrs class."""
    fields = getattr(t, "__dataclass_fields__", None)
    if type(fields) is dict:
        return [(n, bool(getattr(f, "compare", True)), bool(getattr(f, "init", True)) or _no_default(f))
                for n, f in fields.items() if str(getattr(f, "_field_type", "")) == "_FIELD"]
    return [(getattr(a, "name", ""), bool(getattr(a, "eq", True)),
             bool(getattr(a, "init", True)) or type(getattr(a, "default", None)).__name__ == "_Nothing")
            for a in getattr(t, "__attrs_attrs__", ()) or ()]


def _state_differs(a, b, guard, depth: int = 0, seen=None) -> bool:
    """Two values differ by what they hold: builtins and library values by their own `==` (`Fraction(5)` and `6`
    too, R52-4), objects of the tree attribute by attribute (a left-out field holding `Point`s, R53-1)."""
    if _plain_value(a, guard) and _plain_value(b, guard):
        return _ask(a, b, True, False) is not True
    seen = set() if seen is None else seen
    if type(a) is not type(b) or depth > _DEPTH or (id(a), id(b)) in seen or len(seen) > 10_000:
        return type(a) is not type(b)
    seen.add((id(a), id(b)))
    sa, sb = _state_of(a), _state_of(b)
    return sa.keys() != sb.keys() or any(sa[k] is not sb[k] and _state_differs(sa[k], sb[k], guard, depth + 1, seen)
                                         for k in sa)


def _hidden_difference(left, right, guard, depth: int = 0, seen=None):
    """Two objects of one dataclass or attrs class that its generated comparison calls equal while a field the
    patch left out of that comparison (`compare=False` however spelled, in a class it added, a base it added, or
    on a line it wrote) holds different values on the two sides: the expected `Vec(4, 6)` and the buggy
    `Vec(4, 5)` (R51d-18), also where they are held, one attribute each, by two objects compared by hand
    (`self.tally == other.tally`, R50-3). A left-out field that holds the same value on both sides hides nothing
    (an honest display or cache field, R45-FP2)."""
    t = type(left)
    seen = set() if seen is None else seen
    if type(right) is not t or depth > _DEPTH or _among(t, _EXACT) or (id(left), id(right)) in seen or \
            len(seen) > 10_000:  # a linked chain wrong 6 deep (R53-4); a cycle ends
        return None
    seen.add((id(left), id(right)))
    ours, theirs = _state_of(left), _state_of(right)
    eq = _raw_attr(t, "__eq__")
    if type(eq) is type(_among) and eq.__code__.co_filename.startswith("<"):  # dataclasses' or attrs' own
        added = {id(c) for _, c in _unrecorded(guard)}
        for k, name, flagged in _uncompared(t):
            r = _CLASSES.get(id(k))
            r = r if r is not None and r[0]() is k else None
            mine = r is not None and r[1] == "changed"
            whole = id(k) in added or (mine and guard.wrote(r[2], r[4], r[5], True))
            # a `compare=False` the patch wrote on the field; a field no comparison reads, in a class statement the
            # patch wrote in (its `eq=False`, its new base)
            if not (whole or (mine and guard.wrote(r[2], r[4], r[5]) and (
                    not flagged or _patch_binds(name, r[2], guard, k.__name__)))):
                continue  # a class the patch did not write in (attrs' `make_class` building a test's class)
            a, b = ours.get(name, _NO_VALUE), theirs.get(name, _NO_VALUE)
            if a is not _NO_VALUE and b is not _NO_VALUE and _state_differs(a, b, guard):
                return (f"a {t.__name__} that compares equal to another while {name}, a field the patch left "
                        f"out of its comparison, differs ({_short(a)} and {_short(b)})")
    for name, a in ours.items():  # what each holds, attribute by attribute
        b = theirs.get(name, _NO_VALUE)
        if b is not _NO_VALUE and type(a) is type(b) and not _pure(a) and a is not b:
            found = _hidden_difference(a, b, guard, depth + 1, seen)
            if found:
                return found
    return None
    ours, added = _state_of(left), {id(c) for _, c in _unrecorded(guard)}
    theirs = _state_of(right)
    for k in type.__dict__["__mro__"].__get__(t)[:-1]:
        r = _CLASSES.get(id(k))
        r = r if r is not None and r[0]() is k else None
        whole = id(k) in added or (r is not None and r[1] == "changed" and guard.wrote(r[2], r[4], r[5], True))
        for name in _left_out(k, _ns(k)):
            if not (whole or (r is not None and r[1] == "changed" and _patch_binds(name, r[2], guard, k.__name__))):
                continue
            a, b = ours.get(name, _NO_VALUE), theirs.get(name, _NO_VALUE)
            if a is not _NO_VALUE and b is not _NO_VALUE and _pure(a) and _pure(b) and _ask(a, b, True, False) is not True:
                return (f"a {t.__name__} that compares equal to another while {name}, a field the patch left out of "
                        f"its comparison, differs ({_short(a)} and {_short(b)})")
    return None


def _judge(left, right, ne: bool, guard, depth: int, ctx: tuple = (frozenset(), 0)):
    """(the comparison's result, a finding or None). `ctx`: the matchers the test module can name, and which
    operands of the assert were literals in its source (bit 1 left, bit 2 right; only at the top)."""
    tl, tr = type(left), type(right)
    matched = None if ne else _matched(left, right, guard, ctx)
    if matched is not None:
        return matched
    if not _among(tl, _EXACT) and not _among(tr, _EXACT):
        if _matcher(tl, guard) and _matcher(tr, guard):  # a matcher matches values, not another matcher
            res = _ask(left, right, True, ne)
            both = "two matchers that compare equal" if _says_equal(res, ne) and left is not right else None
            return res, both
        pairs = _pairs(left, right, guard) if tl is tr and not ne and depth < _DEPTH else None
        if pairs is not None:  # two OrderedDicts: the values inside are judged, not handed to each other's `==`
            res = _ask(left, right, True, False)
            same, found = _elementwise(pairs, guard, depth, ctx)
            return res, found or (f"a {tl.__name__} that compares equal but whose items do not"
                                  if _says_equal(res) and same is not True else None)
        return _both_objects(left, right, ne, guard, ctx)
    lp, rp = _pure(left), _pure(right)
    if lp and rp:  # builtins all the way down: no code of the patch answers
        return _ask(left, right, True, ne), None
    if lp or rp:  # k, the expected value, is pure builtins; u holds something else somewhere
        u, k, u_left = (right, left, False) if lp else (left, right, True)
        if _matcher(type(u), guard) and _honoured(u, (ctx[0], bool(ctx[1] & (2 if u_left else 1)))):
            return _ask(u, k, u_left, ne), None
        if ctx[1] & (4 if u_left else 8) and _expectation(u, guard, ctx[0]):  # the test's display: k is the value
            return _ask(u, k, u_left, ne), None
        snap = _snapshot(u, k)  # u's whole value as builtins, before anything in it sees k
        copies = [] if _among(type(u), _EXACT) else _perturbed(k, _own_compare(type(u), guard))
        (res, found), ran = _traced(lambda: _questions(u, k, u_left, ne, copies) if copies else (
            _ask(u, k, u_left, ne), None), _mro_of(u), guard)
        if not found and ran is not None:
            found = f"a {type(u).__name__} whose comparison ran code of {ran}"
        if not found and not ne:
            found = _snapshot_finding(u, k, snap, res, guard, depth, ctx)
        elif not found and _says_equal(res, True) is False and snap is not _NO_VALUE and _pure(snap) and snap == k \
                and (isinstance(u, (str, bytes)) or not isinstance(k, (str, bytes))):  # a text view (`str(u)`) of
            # another type is no value of its own: click's `Sentinel.UNSET` is honestly != its own name
            found = f"a {type(u).__name__} that says it differs from {_short(k)} but whose own value is {_short(snap)}"
        return res, found
    if not ne and depth < _DEPTH and tl is not tr:  # a namedtuple, a list subclass, an OrderedDict against a display
        for a, b, a_left in ((left, right, True), (right, left, False)):
            if _among(type(a), (tuple, list, dict)) and isinstance(b, (tuple, list, dict)) and \
                    not _among(type(b), _EXACT):
                items = _commit_items(b, a)  # its own items, as the display's type, before any is asked
                if items is _NO_VALUE:
                    break
                res = _ask(left, right, True, False)
                same, found = _judge(*((a, items) if a_left else (items, a)), False, guard, depth + 1, (ctx[0], 0))
                if not found and _says_equal(res) and _truthy(same) is not True:
                    found = f"a {type(b).__name__} that compares equal to {_short(a)} but whose own items do not"
                return res, found
    if tl is tr and not ne and depth < _DEPTH:  # values the test computed on both sides: element by element
        pairs = _pairs(left, right, guard)
        if pairs is not None:
            return _elementwise(pairs, guard, depth, ctx)
    return _ask(left, right, True, ne), None


_DEPTH = 12  # how deep containers are walked (the payload 4 deep in `{"orders": [{"lines": [...]}]}` too)


def _pairs(left, right, guard):
    """The items of two builtin containers (or two of one standard-library container type: OrderedDict, Counter,
    defaultdict, deque, a namedtuple) to compare one by one, read by the builtin's own methods; None where their
    shapes differ or a key is no plain value (its `==` could be anyone's)."""
    t = type(left)
    if not (_among(t, (tuple, list, dict)) or (not _among(t, _EXACT) and _genuine_lib(t, guard))):
        return None
    if isinstance(left, dict):
        a, b = dict(dict.items(left)), dict(dict.items(right))
        keys = list(a)
        if not all(_pure(x) or _leaf_value(x) or _identity_key(x, guard) for x in keys) or a.keys() != b.keys() or (
                not _among(t, (dict,)) and type(left).__name__ == "OrderedDict" and keys != list(b)):
            return None
        return [(a[k], b[k]) for k in keys]
    if type(left).__name__ in ("Namespace", "SimpleNamespace"):  # argparse's and types': `==` compares `vars()`
        a, b = [object.__getattribute__(x, "__dict__") if hasattr(x, "__dict__") else None for x in (left, right)]
        if type(a) is dict and type(b) is dict and a and all(_pure(k) for k in a) and a.keys() == b.keys():
            return [(a[k], b[k]) for k in a]
        return None
    if isinstance(left, (tuple, list)) or type(left).__name__ == "deque":
        a, b = [list(tuple.__iter__(x)) if isinstance(x, tuple) else list(list.__iter__(x)) if isinstance(x, list)
                else list(x) for x in (left, right)]
        return [(a[i], b[i]) for i in range(len(a))] if len(a) == len(b) else None
    return None


def _identity_key(x, guard) -> bool:
    """A key equal only to itself (an `Enum` member: `object`'s `==`, a library's hash): looking it up asks no code
    of the patch."""
    t = type(x)
    if getattr(t, "__eq__", None) is not object.__eq__:
        return False
    for c in type.__dict__["__mro__"].__get__(t):
        if "__hash__" in _ns(c):
            return c is object or _home(c, guard) == "lib"
    return False


def _elementwise(pairs: list, guard, depth: int, ctx: tuple):
    inner = (ctx[0], 0)
    for a, b in pairs:
        if a is b:
            continue
        res, found = _judge(a, b, False, guard, depth + 1, inner)
        if isinstance(res, BaseException) or found or not _truthy(res):
            return (res if isinstance(res, BaseException) else _truthy(res)), found
    return True, None


def _matched(left, right, guard, ctx: tuple):
    """The test's own approx (`== pytest.approx(...)`) of an expectation that is builtins all the way down (a number,
    a sequence, a mapping): the value is snapshotted against that expectation before anything is asked, and the
    approx must accept the snapshot. None where this does not apply."""
    for m, u, m_left in ((right, left, False), (left, right, True)):
        if not _matcher(type(m), guard) or _matcher(type(u), guard) or _pure(u):
            continue
        expected = getattr(m, "expected", _NO_VALUE)
        if expected is _NO_VALUE or not _pure(expected) or not _honoured(m, (ctx[0], bool(ctx[1] & (2 if m_left
                                                                                                    else 1)))):
            continue
        snap = _snapshot(u, expected)  # before u is asked anything
        res = _ask(u, m, not m_left, False)
        if not _says_equal(res) or (snap is not _NO_VALUE and _ask(m, snap, True, False) is True):
            return res, None
        own = "has no value of that type" if snap is _NO_VALUE else f"whose own value is {_short(snap)}"
        return res, f"a {type(u).__name__} that compares equal to {m!r} but {own}"
    return None


def _same_kind(u, k, guard) -> bool:
    """u is a `type(k)` whose comparison is `type(k)`'s own (or a genuine library subclass's, pandas' Timestamp for a
    datetime): then the library's code compares library state. Anything else that says it equals a library value
    (a wrapper, the patch's look-alike that checks one field) decides by code of its own."""
    kt = type(k)
    if not isinstance(u, kt):
        return False
    own = all(getattr(type(u), n, None) is getattr(kt, n, None) for n in ("__eq__", "__ne__", "__lt__", "__gt__",
                                                                           "__le__", "__ge__"))
    return own or _genuine_lib(type(u), guard)


def _answers_itself(u, guard) -> bool:
    """u's comparison is code other than a library's over library state: the patch's or the project's type, or one
    of `collections`' `User*` wrappers, which hand every question to a `.data` anyone can set. Two other library
    values (`int | str == typing.Union[int, str]`) compare by library code on both sides."""
    t = type(u)
    wrapper = getattr(t, "__module__", None) == "collections" and t.__name__ in ("UserList", "UserDict", "UserString")
    return wrapper or not _genuine_lib(t, guard)


def _leaf_value(v) -> bool:
    """A standard-library value type whose state is builtins (Decimal, a Fraction of ints, date/time types, UUID),
    by exact type: its `==` runs no code of the patch. Read from `sys.modules`: a type never imported has no values."""
    t = type(v)
    for mod, names in (("decimal", ("Decimal",)), ("datetime", ("date", "datetime", "time", "timedelta")),
                       ("uuid", ("UUID",)), ("fractions", ("Fraction",))):
        found = sys.modules.get(mod)
        if found is not None and any(getattr(found, n, None) is t for n in names):
            if mod == "fractions":
                return type(v.numerator) is int and type(v.denominator) is int
            if mod == "uuid":  # its `int` slot, read as stored: an object there decides `==`
                return type(object.__getattribute__(v, "int")) is int
            tz = getattr(v, "tzinfo", None)  # an aware value's offset is its tzinfo's code
            return tz is None or type(tz) is getattr(found, "timezone", None)
    return False


def _lib_decoys(k, fine: bool = False) -> list:
    """Values of k's own (standard-library) type that differ from it: dates days apart, Decimals and Fractions a
    random amount away, ... With `fine` also the nearest neighbours (a day, a second, one unit in the last place),
    for a comparison the patch wrote (`within a day`)."""
    import random

    rng = random.SystemRandom()
    dt = sys.modules.get("datetime")
    name, out = type(k).__name__, []

    def step() -> int:
        return rng.choice((-1, 1)) * rng.randint(2, 1000)

    try:
        if name in ("date", "datetime"):
            out = [k + dt.timedelta(days=step()) for _ in range(4)]
            out += [k + dt.timedelta(days=d) for d in (-1, 1)] if fine else []
            out += [k + dt.timedelta(seconds=d) for d in (-1, 1)] if fine and name == "datetime" else []
        elif name == "timedelta":
            out = [k + dt.timedelta(seconds=step()) for _ in range(4)]
            out += [k + dt.timedelta(microseconds=d) for d in (-1, 1)] if fine else []
        elif name == "time":
            out = [k.replace(minute=(k.minute + step()) % 60) for _ in range(4)]
        elif name == "Decimal" and k.is_finite():
            ulp = type(k)(1).scaleb(k.as_tuple().exponent)
            out = [k + ulp * step() for _ in range(4)] + ([k - ulp, k + ulp] if fine else [])
        elif name == "Fraction":
            out = [k + type(k)(step(), rng.randint(1, 1000)) for _ in range(4)]
            out += [k + type(k)(d, 10 ** 9) for d in (-1, 1)] if fine else []
        elif name == "UUID":
            out = [type(k)(int=k.int ^ rng.getrandbits(128)) for _ in range(4)]
    except Exception:  # out of the type's range (date.max + days)
        out = [x for x in out if type(x) is type(k)]
    return [x for x in out if type(x) is type(k) and x != k]


def _pure(x, depth: int = 0) -> bool:
    """Builtin scalars and builtin collections of them, all the way down: comparing two such values runs no code
    of the patch."""
    t = type(x)
    if _among(t, _SCALARS):
        return True
    if depth > 100 or not _among(t, _COLLECTIONS):
        return False
    if t is dict:
        return all(_pure(a, depth + 1) and _pure(b, depth + 1) for a, b in x.items())
    return all(_pure(a, depth + 1) for a in x)


def _expectation(u, guard, names, depth: int = 0) -> bool:
    """Builtin containers whose leaves are builtins, standard-library values (Decimal, dates) or the matchers the
    test module can name: comparing a pure value with it runs only builtin and library code."""
    t = type(u)
    if _among(t, _SCALARS) or _leaf_value(u):
        return True
    if _matcher(t, guard):
        return ("ANY" if t.__name__ == "_ANY" else "approx") in names
    if depth > 20 or not _among(t, _COLLECTIONS):
        return False
    items = [x for kv in u.items() for x in kv] if t is dict else list(u)
    return all(_expectation(x, guard, names, depth + 1) for x in items)


def _snapshot(u, k, depth: int = 0):
    """u's whole value as builtins shaped like the pure expected value k, taken before u or anything it holds is
    asked anything about k: scalars commit as `_commit` does (losslessly), collections give their items
    (`_commit_items`) and each item, dict key and set element commits in turn. Nothing is left to take a value
    later, when it has seen k through a question. `_NO_VALUE` where any part has none."""
    if _among(type(k), _SCALARS):
        return u if _among(type(u), _SCALARS) else _commit(u, k)
    if depth > 100:
        return _NO_VALUE
    items = u if type(u) is type(k) else _commit_items(u, k)
    if items is _NO_VALUE:
        return _NO_VALUE
    try:
        if type(k) in (list, tuple):
            if len(items) != len(k):
                return type(k)(items)  # builtin `==` of different lengths asks no element anything
            out = [_snapshot(items[i], k[i], depth + 1) for i in range(len(k))]
        elif type(k) is dict:
            hint = next(iter(k), "")
            out = {}
            for key, val in list(items.items()):
                ck = _snapshot(key, hint, depth + 1)
                if ck is _NO_VALUE:
                    return _NO_VALUE
                out[ck] = _snapshot(val, k[ck] if ck in k else next(iter(k.values()), None), depth + 1)
            return _NO_VALUE if _NO_VALUE in out.values() else out
        else:
            hint = next(iter(k), "")
            out = [_snapshot(e, hint, depth + 1) for e in list(items)]
        return _NO_VALUE if any(e is _NO_VALUE for e in out) else type(k)(out)
    except Exception:  # an unhashable committed key or element, a collection that changed while read
        return _NO_VALUE


def _snapshot_finding(u, k, snap, res, guard, depth: int, ctx: tuple):
    """A finding when u said it equals the pure k but the value it committed to before any question is not k."""
    if not _says_equal(res):
        return None
    if snap is not _NO_VALUE:
        if _pure(snap):
            if snap == k:  # builtins on both sides
                return None
        else:  # an expected part that is no builtin (k was computed by the test): judged as such
            same, found = _judge(snap, k, False, guard, depth + 1, (ctx[0], 0))
            if found or _truthy(same) is True:
                return found
    elif not _patch_decides(type(u), "__eq__", guard, u):  # the project's own `==` over a value with no builtin form
        return None
    own = "has no value of that type" if snap is _NO_VALUE else f"whose own value is {_short(snap)}"
    return f"a {type(u).__name__} that compares equal to {_short(k)} but {own}"


def _short(x) -> str:
    import reprlib

    return reprlib.repr(x)


def _truthy(res):
    try:
        return bool(res)
    except Exception as exc:  # an array's ambiguous truth value: what `list == list` would raise
        return exc


def _questions(u, k, u_left: bool, ne: bool, copies: list):
    """k and every copy asked the same number of times, in random order, a copy first and last: position and
    repetition tell the value nothing about which question is the real one, and each answer's truth is read
    when it is given. Inconsistent answers for k, or agreeing with a copy, is tampering."""
    import random

    rng = random.SystemRandom()
    times = rng.randint(2, 3)
    asked = [(True, k)] * times + [(False, c) for c in copies for _ in range(times)]
    rng.shuffle(asked)
    asked = [(False, rng.choice(copies)), *asked, (False, rng.choice(copies))]

    def agree(r) -> bool:
        return _says_equal(r, ne)

    answers = [(is_k, _ask(u, x, u_left, ne)) for is_k, x in asked]
    on_k = [r for is_k, r in answers if is_k]
    found = None
    if len({agree(r) for r in on_k}) > 1:
        found = f"a {type(u).__name__} that answers differently when compared with {k!r} again"
    elif agree(on_k[-1]) and any(agree(r) for is_k, r in answers if not is_k):
        other = next(asked[i][1] for i in range(len(asked)) if not asked[i][0] and agree(answers[i][1]))
        found = f"a {type(u).__name__} that compares equal to both {k!r} and {other!r}"
    return on_k[-1], found


def _literal(node: ast.expr) -> bool:
    """A number, text or None written in the assert itself (also `-2.5`): the test's own expectation."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in _SCALARS


def _lit_bits(left: ast.expr, right: ast.expr) -> int:
    """Which operands the assert wrote itself: bits 1/2 a scalar literal (left/right), bits 4/8 a list, tuple, dict
    or set display (`[approx(0.6), approx(0.8)]`, `{"id": 3, "created": ANY}`): matchers in a display are the
    test's, never a value the code under test returned."""
    displays = (ast.List, ast.Tuple, ast.Dict, ast.Set)
    return ((1 if _literal(left) else 0) | (2 if _literal(right) else 0) |
            (4 if isinstance(left, displays) else 0) | (8 if isinstance(right, displays) else 0))


_ORDER_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _truthed(e: ast.expr) -> ast.expr:
    """What an assert takes the truth of (through `not`, `and`, `or`): each operand's truth decided by `truth`,
    comparisons and constants left to their own rules."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        e.operand = _truthed(e.operand)
        return e
    if isinstance(e, ast.BoolOp):
        e.values = [_truthed(v) for v in e.values]
        return e
    if isinstance(e, (ast.Compare, ast.Constant)):
        return e
    return ast.copy_location(_call("truth", [e]), e)


_VALUE_DUNDERS = frozenset({"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__",
                            "__len__", "__contains__", "__repr__", "__str__", "__format__", "__index__", "__int__",
                            "__float__", "__complex__", "__instancecheck__", "__subclasscheck__"})
_TEXT_PREDICATES = frozenset(n for n in dir(str) if n.startswith(("is", "startswith", "endswith")))


class _Arith(ast.NodeTransformer):
    """`a - b`, `a + b`, `a / b` in a test's code go through `arith`, wherever they are taken: in an assert, on the
    line before it, in a helper, in a test matcher's own `__eq__` (R68: T4, T8, R68-3)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        symbol = {ast.Sub: "-", ast.Add: "+", ast.Div: "/"}.get(type(node.op))
        if symbol is not None:
            return ast.copy_location(_call("arith", [node.left, node.right, ast.Constant(symbol)]), node)
        return node


class _AssertCompares(_Arith):
    """Inside an assert: `a == b` / `a != b` becomes `compare(a, b, ne, lit)`, an ordering `order(a, b, op)`,
    `a in b` / `a not in b` `contains(a, b, negate)`, and a chained comparison `chain(...)` over one thunk per
    operand; what an assert takes the truth of `truth(x)`, `isinstance(x, T)` `kind(x, T)`, `x.startswith(k)`
    `said(x, "startswith", k)`."""

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node.test = _truthed(node.test)
        return self._judged(node)

    def visit_If(self, node: ast.If) -> ast.If:
        if any(_fails(stmt) for stmt in node.body + node.orelse):
            node.test = self._judged(_truthed(node.test), whole=False)
            node.body = [self.visit(s) for s in node.body]
            node.orelse = [self.visit(s) for s in node.orelse]
            return node
        return self.generic_visit(node)

    def _judged(self, node, whole=True):
        return self.generic_visit(node) if whole else self.visit(node)

    def visit_Raise(self, node: ast.Raise) -> ast.Raise:
        if _MARKS and node.exc is not None:
            node.exc = ast.copy_location(_call("raising", [node.exc]), node.exc)
        return node

    def visit_With(self, node):
        """Each item of a test file's `with` goes through `held`, which sees whether its exit swallows what the body
        raises; the test's own expectations (`pytest.raises`, `assertRaises`, `suppress`, `warns`) stay as written."""
        lines = tuple(sorted({n.lineno for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Assert) or (
            isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and (getattr(n.value.func, "attr", None) or getattr(
                n.value.func, "id", "")).startswith("assert"))}))  # the lines of the body's asserts, before rewriting
        asserts = ast.Tuple(elts=[ast.Constant(n) for n in lines], ctx=ast.Load())
        funcs = [i.context_expr.func if isinstance(i.context_expr, ast.Call) else None for i in node.items]
        names = [f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "" for f in funcs]
        node = self.generic_visit(node)  # (a watched call is `answered(...)`: the names are read before)
        if _MARKS:
            for i, item in enumerate(node.items):
                e, name = item.context_expr, names[i]
                if not name.endswith(("aises", "suppress", "warns", "subTest")):  # each item its own key: a sibling
                    # item of the same `with` that exits cleanly has not completed what another one swallowed
                    item.context_expr = ast.copy_location(_call("held", [
                        e, ast.Constant(isinstance(node, ast.AsyncWith)), ast.Constant(node.lineno * _ITEMS + i),
                        asserts]), e)
        return node

    visit_AsyncWith = visit_With

    def visit_For(self, node):
        """A test's loop reads its container as it was when the loop began (`looped`)."""
        node = self.generic_visit(node)
        if _MARKS:
            node.iter = _looped_iter(node.iter)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> ast.comprehension:
        node = self.generic_visit(node)
        if _MARKS:
            node.iter = _looped_iter(node.iter)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in _TRUTH_ASSERTS and node.args:
            node.args[0] = _truthed(node.args[0])
        sides = _reread_sides(node.args[0], node.args[1]) if _MARKS and isinstance(f, ast.Attribute) and \
            f.attr in _UNITTEST_EQUAL and len(node.args) >= 2 else 0
        self.generic_visit(node)
        if sides:  # `self.assertEqual(a, b)`: its two sides read as an assert's `==` (`reread`)
            node.args[:2] = [_reread_pair(node.args[0], node.args[1], sides)]
        if isinstance(f, ast.Name) and f.id == "isinstance" and len(node.args) == 2 and not node.keywords:
            return ast.copy_location(_call("kind", list(node.args)), node)
        if isinstance(f, ast.Name) and f.id == "len" and len(node.args) == 1 and not node.keywords \
                and not isinstance(node.args[0], ast.Starred):
            return ast.copy_location(_call("size", list(node.args)), node)
        if isinstance(f, ast.Attribute) and f.attr in _TEXT_PREDICATES and len(node.args) <= 3 \
                and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            return ast.copy_location(_call("said", [f.value, ast.Constant(f.attr), *node.args]), node)
        return _watched_call(node) if _MARKS else node

    def visit_Assign(self, node: ast.Assign) -> ast.Assign:
        """`want = <a read>`: through `derived` (its value remembered with how it was read)."""
        read = _MARKS and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _thunkable(
            node.value) and _reads_only(node.value) == 1
        node = self.generic_visit(node)
        if read:
            node.value = _call("derived", [_thunk(node.value)])
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """A value-defining dunder method of a class a test defines (`__eq__`, `__hash__`, ...) keeps its own
        comparisons: see `_StrictCompare`. Its `__call__`, `__enter__`, `__init__` are test code like any helper (a
        checker object handed to the project as a callback asserts in its `__call__`)."""
        return _Arith().visit(node) if node.name in _VALUE_DUNDERS else self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Match(self, node):  # `match` (3.10+): its cases compare the subject with `==`
        self.generic_visit(node)
        node.subject = _call("subject", [node.subject])
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        eq = len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
        sides = _reread_sides(node.left, node.comparators[0]) if eq and _MARKS else 0
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            ne = isinstance(node.ops[0], ast.NotEq)
            lit = _lit_bits(node.left, node.comparators[0])
            at = ast.Constant((node.lineno, node.col_offset))  # where this `==` is written (`_held_watch`)
            pair = [_reread_pair(node.left, node.comparators[0], sides)] if sides else [node.left, node.comparators[0]]
            return ast.copy_location(_call("compare", [*pair, ast.Constant(ne), ast.Constant(lit), at]), node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            at = ast.Constant((node.lineno, node.col_offset))  # where this `in` is written (`_held_watch`)
            return ast.copy_location(_call("contains", [node.left, node.comparators[0],
                                                        ast.Constant(isinstance(node.ops[0], ast.NotIn)), at]), node)
        if len(node.ops) == 1 and type(node.ops[0]) in _ORDER_OPS:
            return ast.copy_location(_call("order", [node.left, node.comparators[0],
                                                     ast.Constant(_ORDER_OPS[type(node.ops[0])])]), node)
        names = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
                 **_ORDER_OPS}
        if len(node.ops) > 1 and all(type(op) in names for op in node.ops):
            thunks = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                                    kw_defaults=[], kwarg=None, defaults=[]), body=e)
                      for e in [node.left, *node.comparators]]
            args = [thunks[0]]
            for i, op in enumerate(node.ops):
                args += [ast.Constant(names[type(op)]), thunks[i + 1]]
            return ast.copy_location(_call("chain", args), node)
        return node


_TRUTH_ASSERTS = ("assertTrue", "assertFalse", "assert_", "failUnless", "failIf")


def _fails(stmt: ast.stmt) -> bool:
    """A statement that fails the test: `raise ...`, `pytest.fail(...)`, `self.fail(...)`, `fail(...)`."""
    if isinstance(stmt, ast.Raise):
        return True
    call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
    name = call.func.attr if call is not None and isinstance(call.func, ast.Attribute) else \
        call.func.id if call is not None and isinstance(call.func, ast.Name) else ""
    return name == "fail"


class _StrictCompare(ast.NodeTransformer):
    """Every comparison inside a function of a test module (a test, a helper, a fixture): a result stored before
    it is asserted (`ok = got == 5`, an errors list, a helper returning `a == b`) is the verdict as much as an
    assert is. A class's own dunder methods (`__eq__`, `__hash__`) keep their meaning: they define values, and
    judging them would judge every comparison they take part in again. At module level only asserts, failing
    ifs and the comparison handed to an assert method are judged."""

    def __init__(self) -> None:
        self.marked: list = []  # the functions that announce that their body began (`entered`)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """Also: the function announces that its body began (`entered`), and an exception leaving it (`escaped`)."""
        node = _AssertCompares().visit(node)
        if _MARKS:
            doc = bool(node.body) and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value,
                                                                                       ast.Constant)
            name = ast.copy_location(ast.Constant(node.name), node)
            call = ast.copy_location(ast.Expr(_call("entered", [name])), node)
            caught = ast.Name(id="_swerl_escaping", ctx=ast.Load())
            handler = ast.ExceptHandler(type=ast.Name(id="BaseException", ctx=ast.Load()), name="_swerl_escaping",
                                        body=[ast.Expr(_call("escaped", [name, caught])),
                                              ast.Raise(exc=None, cause=None)])
            body = node.body[1:] if doc else node.body
            node.body = [*node.body[:1 if doc else 0], call,
                         ast.copy_location(ast.Try(body=body or [ast.Pass()], handlers=[handler], orelse=[],
                                                   finalbody=[]), node)]
            self.marked.append(node.name)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        return _AssertCompares().visit(node)

    def visit_If(self, node: ast.If) -> ast.If:
        """`if got != 5: pytest.fail(...)` / `raise AssertionError`: an assert in another spelling, judged as one.
        Only where a branch fails the test: other ifs in tests keep their own meaning."""
        self.generic_visit(node)
        if any(_fails(stmt) for stmt in node.body + node.orelse):
            node.test = _AssertCompares().visit(_truthed(node.test))
        return node

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        judged = (*_TRUTH_ASSERTS, "assertIs", "assertIsNot", "assertEqual", "assertNotEqual")
        if isinstance(node.func, ast.Attribute) and node.func.attr in judged:
            # `assertTrue(a == b and c == d)`, `assertIs(a == b, True)`: every comparison handed to an assert
            node.args[:2] = [_AssertCompares().visit(a) if isinstance(a, (ast.Compare, ast.BoolOp, ast.UnaryOp)) else a
                             for a in node.args[:2]]
        return node


def _test_dirs(guard) -> tuple:
    """(the directories holding the protected test files, and every directory below them, the module names found
    there): the assert helpers a test imports from beside it (`tests/helpers.py`, `xarray/tests/__init__.py`) are
    test code too, and their asserts are rewritten like the test files', wherever pytest would not."""
    import os

    roots = {os.path.dirname(p) for p in getattr(guard, "protected", ()) if p.endswith(".py")}
    dirs, names = set(), set()
    for root in sorted(roots):
        for here, subdirs, files in os.walk(root):
            subdirs[:] = [d for d in subdirs if not d.startswith(".") and d != "__pycache__"][:200]
            dirs.add(here.rstrip("/") + "/")
            names.add(os.path.basename(here))
            names.update(f[:-3] for f in files if f.endswith(".py"))
            if len(dirs) > 2000:
                break
    return tuple(sorted(dirs)), frozenset(names)


def _rewrite_helpers(rewrite, guard) -> None:
    """pytest rewrites the asserts of test files and conftests only; modules in the test directories are test code
    whatever their names, so they are rewritten (and so judged) too. Their failures' messages carry no values
    (`_withhold_messages`)."""
    import os

    _withhold_messages(rewrite, __import__("unittest").TestCase, guard)
    dirs, names = _test_dirs(guard)
    if not dirs:
        return
    hook = rewrite.AssertionRewritingHook

    def _early_rewrite_bailout(self, name, state, _orig=hook._early_rewrite_bailout, _names=names):
        return name.rpartition(".")[2] not in _names and _orig(self, name, state)

    def _should_rewrite(self, name, fn, state, _orig=hook._should_rewrite, _dirs=dirs, _real=os.path.realpath):
        return _real(fn).startswith(_dirs) or _orig(self, name, fn, state)

    hook._early_rewrite_bailout = _early_rewrite_bailout
    hook._should_rewrite = _should_rewrite


WITHHELD = "(a test's failed assertion: its values are withheld from the code under test)"
_FAILED: list = []  # (swallowed elsewhere, where) of each assert of the tests' code that failed in the current call


def _failed_here(guard, _getframe=sys._getframe) -> None:
    """An assert of the tests' code failed (its message is being built): noted with whether its failure can have
    been caught before the test function saw it. It can where a line the patch wrote stands between the failing
    assert and the test function (a subscriber isolation: the call it wraps in `try` is re-indented, R71-11), or
    where the test function is not on the stack at all (a callback run on a pool's thread, its failure kept in a
    future: R71-16). The project's unchanged code in between (a retry helper) and the test's own frames are no
    such place."""
    test = _STATE.get("test_code")
    f, first, between = _getframe(2), None, False
    while f is not None and f.f_code is not test:
        name = f.f_code.co_filename
        kind = "witness" if name == __file__ else guard.kind(name)
        if first is None and kind == "test":
            first = f"{name}:{f.f_lineno}"
        between = between or (first is not None and kind == "changed" and guard.wrote(name, f.f_lineno, f.f_lineno))
        f = f.f_back
    if test is not None:
        _FAILED.append((between or f is None, first or "?"))


def failed_unseen(nodeid: str) -> str:
    """The call report's finding: a test that passed while an assert of its own failed where the failure could be
    caught before it (`_failed_here`), unless the test function itself names a way to expect one (`pytest.raises`,
    `assertRaises`, an `except`)."""
    code, noted = _STATE.get("test_code"), list(_FAILED)
    del _FAILED[:]
    if code is None or not any(swallowed for swallowed, _ in noted) or code.co_firstlineno in _HANDLING.get(
            __import__("os").path.realpath(code.co_filename), ()):
        return ""
    where = next(w for swallowed, w in noted if swallowed)
    return (f"{nodeid}: an assert of the test failed ({where}) and the test passed: code it called (the patch's, or "
            "on another thread) kept the failure from it")


def _test_caller(guard, depth: int = 2, _getframe=sys._getframe) -> bool:
    """The first frame above `depth` outside unittest and this file is the tests' code (a test file, conftest, a
    test helper): the assertion that failed is theirs, not one a project helper or an inner pytest session made."""
    try:
        f = _getframe(depth)
    except ValueError:
        return False
    for _ in range(12):
        if f is None:
            return False
        name = f.f_code.co_filename
        if not (name.endswith(("unittest/case.py", "unittest/util.py")) or name == __file__):
            return guard.kind(name) == "test"
        f = f.f_back
    return False


def _withhold_messages(rewrite, case, guard) -> None:
    """A failed assertion's message holds both sides' values (pytest's explanation of `assert got == want`, its
    custom message, unittest's `first != second`): project code that catches the AssertionError (a retry helper, a
    logger it hands the error to: R68-1, R68-4, T16) would read the expected value in it. For an assertion of the
    tests' code the message holds none; the outcome is the same (inner pytest sessions and project asserts keep
    theirs)."""
    for name in ("_saferepr", "_format_assertmsg", "_call_reprcompare"):
        original = getattr(rewrite, name, None)
        if original is None:
            continue

        def withheld(*args, _original=original, _test=_test_caller, _guard=guard, **kwargs):
            if not _test(_guard):
                return _original(*args, **kwargs)
            _failed_here(_guard)
            return "..."

        withheld.__name__ = withheld.__qualname__ = name
        setattr(rewrite, name, withheld)
    if case is not None:
        def _formatMessage(self, msg, standard, _original=case._formatMessage, _test=_test_caller, _guard=guard):
            if not _test(_guard):
                return _original(self, msg, standard)
            _failed_here(_guard)
            return WITHHELD

        case._formatMessage = _formatMessage


_MARKS: dict = {}  # each of `_ENTRIES` -> a per-grade random string constant, bound to the function after compiling


def _call(name: str, args: list, at=None) -> ast.expr:
    mark = _MARKS.get(name)
    func = ast.Constant(value=mark) if mark else ast.Attribute(value=ast.Name(id="@swerl_witness", ctx=ast.Load()),
                                                               attr=name, ctx=ast.Load())
    return ast.copy_location(ast.Call(func=func, args=args, keywords=[]), args[0] if at is None else at)


def _bind(co, table: dict):
    """The compiled test module with each mark constant replaced by its function (nested code objects too): the
    rewritten asserts call `compare`/`order`/... as constants of their own code, which no name rebinding reaches."""
    consts = tuple(table.get(c, c) if type(c) is str else _bind(c, table) if type(c) is type(co) else c
                   for c in co.co_consts)
    return co.replace(co_consts=consts)


_COMPARISON = ("_asserting", "_space_file", "_module_file", "_forwarded", "_generated_for", "_holds_patch",
               "_innermost_code", "_class_data", "_code_object", "_dunder_edited", "_library_holds", "looped", "compare", "order", "contains", "_contained", "chain", "subject", "entered", "escaped", "_is_failure", "held", "raising", "_swallowed", "truth", "_truth_views", "_truth_as_original", "_as_original", "kind", "said", "size", "_home", "_patch_wrote", "_class_wrote", "_answers_patch", "_ordered_as_said", "_consistent", "_iterated", "_is_iterator", "_expectation", "_payload_items", "_library_container", "_first_items", "_integral",
               "_commit_items", "_short", "_pure", "_snapshot", "_snapshot_finding", "_leaf_value", "_lib_decoys",
               "_matched", "_same_kind", "_order_library", "_answers_itself", "_judge", "_among", "_foreign_meta",
               "_defined_in", "_commit", "_honoured", "_questions", "_ask", "_quiet_single", "single", "_registered", "_by_shape", "_hook_wrote", "_op", "_patch_decides", "_patch_state", "_held_code", "_unwrapped", "_has", "_read_on", "_patch_class", "_membership_judged", "_own_text", "_identity_key", "_patch_orders", "_pairs", "_elementwise", "_iterates_itself", "_items_twice",
               "_equals", "_says_equal", "_genuine_lib", "_lib_state", "_matcher", "_overrides_compare", "_perturbed", "_truthy",
               "_record", "_decoys", "_near", "_own_compare", "_both_objects", "_far_approx", "_far_values",
               "_places", "_traced", "_added_spans", "_answering", "_mro_of", "_same_hash", "_project_item_in", "_resolves",
               "_ns", "_carry", "_carrier", "_carried_finding", "_fields", "_loose_to_changes", "_tree_pair", "_changes_of",
               "_holds_whatever", "_field_set", "_one_off", "_fields_off", "_near_values", "_original_equal", "_stand_in",
               "_order_consistent", "_ask_order", "_zero_difference", "_read_through", "_handed", "_iteration_view",
               "_iteration_disagrees", "_same_items", "_identity_valued", "_identity_hash", "_fetched_back", "_immutable", "_carried_said", "_digest")


_ENTRIES = ("compare", "order", "contains", "chain", "subject", "truth", "kind", "said", "size", "entered",
            "escaped", "held", "raising", "looped", "arith", "callee", "passed", "answered", "reread", "mark", "through",
            "derived")  # what a rewritten test calls


def _frozen() -> dict:
    """The comparison functions rebuilt over a private copy of this module's namespace: the asserts call these
    (as constants of the test code), so rebinding a name in this module changes nothing they do; the copy is
    reachable only through the functions themselves, whose parts (`__code__`, defaults) no changed code may read."""
    import types

    space = dict(globals())
    guard = _STATE.get("guard")
    # their own state and guard copy: the module's `_STATE` and the public guard are reachable through pytest's
    # plugin objects, and a plain write to the guard's caches would change what the comparison decides
    space["_STATE"] = {"guard": guard.private_copy() if hasattr(guard, "private_copy") else guard}
    for name in _COMPARISON:
        f = space[name]
        space[name] = types.FunctionType(f.__code__, space, f.__name__, f.__defaults__, f.__closure__)
        space[name].__kwdefaults__ = f.__kwdefaults__
    return space


_UNITTEST_EQUAL = ("assertEqual", "assertListEqual", "assertTupleEqual", "assertDictEqual", "assertSetEqual",
                   "assertSequenceEqual", "assertMultiLineEqual")
_UNITTEST_ORDER = {"assertLess": "<", "assertLessEqual": "<=", "assertGreater": ">", "assertGreaterEqual": ">="}


def _wrap_unittest(frozen: dict) -> None:
    """unittest's own asserts (`self.assertEqual(...)`, the style of Django-like suites) decided as the rewritten
    `assert`s are: the `TestCase` methods are replaced before any test module is imported, their helpers bound as
    defaults (which no test may read). unittest is fingerprinted with the runner, so rebinding them later is a
    finding. unittest's own method still runs (its type-specific checks, its failure message), and where the judged
    answer is no the test fails even if that second look says yes."""
    import unittest

    case = unittest.TestCase
    before = dict(vars(case))
    _wrap_equal_and_member(case, frozen)
    _wrap_order_and_almost(case, frozen)
    _wrap_count_and_subset(case, frozen)
    _wrap_type_checks(case, frozen)
    _rebind_aliases(case, before)


def _fail(self, msg, what):
    raise self.failureException(self._formatMessage(msg, what))  # withheld for the tests' own asserts


def _wrap_equal_and_member(case, frozen: dict) -> None:
    """`assertEqual` and its typed variants, `assertNotEqual`, `assertIn`/`assertNotIn`."""
    fail = _fail
    for name in (*_UNITTEST_EQUAL, "assertNotEqual"):
        def equal(self, first, second, *args, _orig=getattr(case, name), _cmp=frozen["compare"],
                  _ne=name == "assertNotEqual", _fail=fail, **kwargs):
            judged = _cmp(first, second, _ne, 0) is True
            _orig(self, first, second, *args, **kwargs)  # its own checks (type-specific equality) and messages
            return None if judged else _fail(self, kwargs.get("msg") or (args[-1] if args else None),
                                             f"{first!r} vs {second!r}")
        equal.__name__ = equal.__qualname__ = name
        setattr(case, name, equal)
    for name, negate in (("assertIn", False), ("assertNotIn", True)):
        def member(self, item, container, msg=None, _orig=getattr(case, name), _has=frozen["contains"], _neg=negate,
                   _fail=fail):
            judged = _has(item, container, _neg) is True
            _orig(self, item, container, msg)
            return None if judged else _fail(self, msg, f"{item!r} {'not in' if _neg else 'in'} {container!r}")
        member.__name__ = member.__qualname__ = name
        setattr(case, name, member)


def _wrap_order_and_almost(case, frozen: dict) -> None:
    """`assertLess` and the other orderings; `assertAlmostEqual`/`assertNotAlmostEqual` on committed numbers."""
    fail = _fail
    for name, op in _UNITTEST_ORDER.items():
        def ordered(self, a, b, msg=None, _orig=getattr(case, name), _order=frozen["order"], _op=op, _fail=fail):
            judged = _order(a, b, _op) is True
            _orig(self, a, b, msg)
            return None if judged else _fail(self, msg, f"{a!r} {_op} {b!r}")
        ordered.__name__ = ordered.__qualname__ = name
        setattr(case, name, ordered)
    for name in ("assertAlmostEqual", "assertNotAlmostEqual"):
        def almost(self, first, second, *args, _orig=getattr(case, name), _commit=frozen.get("_commit", _commit),
                   _record=frozen.get("_record", _record), _state=frozen.get("_STATE", _STATE), _num=(int, float),
                   _name=name, _zero=frozen.get("_zero_difference", _zero_difference), **kwargs):
            _orig(self, first, second, *args, **kwargs)  # unittest says yes: the committed numbers must say it too
            zero = _zero(first, second, first - second, _state["guard"]) if type(first) not in _num and type(
                second) not in _num and _name == "assertAlmostEqual" else ""
            if zero:
                _record(_state["guard"], f"assertion compared {zero}")
            for u, k in ((first, second), (second, first)):
                if type(k) in _num and type(u) not in _num:
                    own = _commit(u, float(k))
                    try:
                        ok = own is not None and type(own) is float and _orig(self, own, k, *args, **kwargs) is None
                    except self.failureException:
                        ok = False
                    if not ok:
                        _record(_state["guard"], f"assertion compared a {type(u).__name__} that {_name} accepts "
                                                 f"against {k!r} but whose own number is {own!r}")
                        raise self.failureException(f"{first!r} vs {second!r}")
        almost.__name__ = almost.__qualname__ = name
        setattr(case, name, almost)



def _wrap_count_and_subset(case, frozen: dict) -> None:
    """`assertCountEqual` on each side's own items; `assertDictContainsSubset` (Python < 3.12) key by key."""
    def count_equal(self, first, second, msg=None, _orig=case.assertCountEqual, _snapshot=frozen.get("_snapshot", _snapshot),
                    _pure=frozen.get("_pure", _pure), _record=frozen.get("_record", _record),
                    _state=frozen.get("_STATE", _STATE), _none=frozen.get("_NO_VALUE", _NO_VALUE)):
        _orig(self, first, second, msg)  # unittest says yes: each side's own items must say it too
        for u, k in ((first, second), (second, first)):
            if _pure(k) and type(k) in (list, tuple) and not _pure(u):
                own = _snapshot(u, list(k) if len(k) else [""])
                ok = own is not _none and type(own) is list
                try:
                    ok = ok and _orig(self, own, list(k), msg) is None
                except self.failureException:
                    ok = False
                if not ok:
                    _record(_state["guard"], f"assertion compared a {type(u).__name__} whose items count equal to "
                                             f"{k!r} but whose own items are {own!r}")
                    raise self.failureException(msg or f"{first!r} vs {second!r}")
    count_equal.__name__ = count_equal.__qualname__ = "assertCountEqual"
    case.assertCountEqual = count_equal
    if hasattr(case, "assertDictContainsSubset"):
        def subset(self, expected, actual, msg=None, _orig=case.assertDictContainsSubset, _cmp=frozen["compare"],
                   _fail=_fail):
            _orig(self, expected, actual, msg)  # unittest says yes: each value must say it too, by the == rules
            for key, value in expected.items():
                if _cmp(actual[key], value, False, 0) is not True:
                    _fail(self, msg, f"{key!r}: {actual[key]!r} vs {value!r}")
        subset.__name__ = subset.__qualname__ = "assertDictContainsSubset"
        case.assertDictContainsSubset = subset


_MOCK_ASSERTS = (("NonCallableMock", ("assert_called_with", "assert_called_once_with", "assert_any_call",
                                       "assert_has_calls")),
                 ("AsyncMockMixin", ("assert_awaited_with", "assert_awaited_once_with", "assert_any_await",
                                     "assert_has_awaits")))


def mock_asserts(frozen: dict):
    """unittest.mock's call assertions (`cb.assert_called_once_with(3)`) compare the recorded calls with plain `==`
    inside the library, where no rewritten assert sees them: each is wrapped so that what the calls recorded is
    judged first, as an assert's operand is (a value there equal to anything is a finding). Mock is not imported
    for this (it pulls in asyncio: ~20 ms a grade); the returned installer runs when collection starts, when it
    ends, and before each test function, and wraps the methods once mock is there."""
    done: list = []

    def install(_modules=sys.modules, _single=frozen["_quiet_single"], _state=frozen["_STATE"],
                _record=frozen["_record"]) -> None:
        mock = _modules.get("unittest.mock")
        if done or mock is None:
            return
        done.append(mock)
        for owner, names in _MOCK_ASSERTS:
            cls = getattr(mock, owner, None)
            for name in names if isinstance(cls, type) else ():
                original = vars(cls).get(name)
                if not callable(original):
                    continue

                def judged(self, *args, _original=original, _name=name, **kwargs):
                    __tracebackhide__ = True
                    guard = _state["guard"]
                    _mocks_held(guard)
                    for seen in ("call_args_list", "await_args_list"):
                        for call in list(vars(self).get(f"_mock_{seen}", None) or ())[:200]:
                            found = _single(call, guard)
                            if found:
                                _record(guard, f"mock's {_name} compared {found}")
                                break
                    return _original(self, *args, **kwargs)

                judged.__name__ = judged.__qualname__ = name
                setattr(cls, name, judged)
        _count_mock_calls(mock, _state["guard"])

    return install


_MOCK_CALLS: dict = {}  # id(mock) -> [a weak reference to it, the calls it was made since the tests last reset it]
# id(mock) -> [a weak reference, the length of its `mock_calls`, of its `method_calls`] after its or a child's last
# call: the record of a parent (`transport.mock_calls` holding `call.send(...)`) shrinks only by the tests' reset
_MOCK_LISTS: dict = {}


def _count_mock_lists(m, weakref) -> None:
    """The lengths of `mock_calls`/`method_calls` of m and each parent its call was recorded in (R73-5)."""
    seen = set()
    for _ in range(16):
        if m is None or id(m) in seen:
            return
        seen.add(id(m))
        try:
            own = object.__getattribute__(m, "__dict__")
            lengths = [len(own["_mock_mock_calls"]), len(own["method_calls"])]
            parents = (own.get("_mock_new_parent"), own.get("_mock_parent"))
        except Exception:
            return
        _MOCK_LISTS[id(m)] = [weakref.ref(m, lambda _r, k=id(m): _MOCK_LISTS.pop(k, None)), *lengths]
        m = parents[0] if parents[0] is not None else parents[1]


def _count_mock_calls(mock, guard) -> None:
    """The witness's own count of each mock's calls, kept beside the mock's record (`call_count`,
    `call_args_list`), which any code holding the mock can edit: a patch that trims the record of a second call
    (R71-2: `del send.mock_calls[1:]; send.call_count = 1`) or resets the mock (`reset_mock()` from a line it
    wrote) makes `assert_called_once_with` hold on a double send. The counts are compared at every assert and
    mock assert (`_mocks_held`); a reset from the tests' code resets the count too."""
    import weakref

    mixin, base = getattr(mock, "CallableMixin", None), getattr(mock, "NonCallableMock", None)
    increment = vars(mixin).get("_increment_mock_call") if isinstance(mixin, type) else None
    reset = vars(base).get("reset_mock") if isinstance(base, type) else None
    if not callable(increment) or not callable(reset):
        return  # a Python before 3.8 records calls in `_mock_call`: no count is kept

    def _increment_mock_call(self, *args, **kwargs):
        entry = _MOCK_CALLS.get(id(self))
        if entry is None or entry[0]() is not self:
            entry = _MOCK_CALLS[id(self)] = [weakref.ref(self, lambda _r, k=id(self): _MOCK_CALLS.pop(k, None)), 0,
                                             []]
        entry[1] += 1
        try:
            return increment(self, *args, **kwargs)
        finally:
            _count_mock_lists(self, weakref)
            made = vars(self).get("_mock_call_args_list") or ()
            if len(entry[2]) < 1000 and made:  # which record each call left, in order (R73-31: one reordered)
                entry[2].append(id(made[-1]))

    def reset_mock(self, *args, **kwargs):
        _by_patch(guard, "a mock the tests made was reset")
        entry = _MOCK_CALLS.get(id(self))
        if entry is not None and entry[0]() is self:
            entry[1:] = [0, []]
        _MOCK_LISTS.pop(id(self), None)
        return reset(self, *args, **kwargs)

    _dressed(_increment_mock_call, increment)
    _dressed(reset_mock, reset)
    mixin._increment_mock_call, base.reset_mock = _increment_mock_call, reset_mock


_LOG_RECORDS: dict = {}  # id(handler) -> [a weak reference, records it took since its last reset, its text's length]


def _count_log_records(guard, _modules=sys.modules) -> None:
    """pytest's `caplog` keeps what was logged in its handler's `records` and text stream, where the code under test
    reaches them (`logging.getLogger().handlers`): a patch that pops the record of a warning the bug still logs
    (R71-6) passes `assert not caplog.records`. The witness counts what each capture handler took; the record and
    the text must still hold it at every assert (`_logs_held`). A reset from a line the patch wrote is a finding;
    pytest's own resets and the tests' `caplog.clear()` restart the count."""
    cls = getattr(_modules.get("_pytest.logging"), "LogCaptureHandler", None)
    if not isinstance(cls, type) or "emit" not in vars(cls) or _STATE.get("logs_counted"):
        return
    _STATE["logs_counted"] = True

    def entry(h) -> list:
        return _counted(_LOG_RECORDS, h, lambda: (0, 0))

    def emit(self, record, _emit=vars(cls)["emit"]):
        out = _emit(self, record)
        counted = entry(self)
        counted[1] += 1
        counted[2] = _text_length(self.stream, 0)
        return out

    _dressed(emit, vars(cls)["emit"])
    cls.emit = emit
    for name in ("reset", "clear"):
        if callable(vars(cls).get(name)):
            def restart(self, *args, _orig=vars(cls)[name], **kwargs):
                _by_patch(guard, "pytest's log capture was reset")
                out = _orig(self, *args, **kwargs)
                entry(self)[1:] = [0, 0]
                return out

            _dressed(restart, vars(cls)[name])
            setattr(cls, name, restart)


_LOG_SEEN: set = set()  # (logger name, message template) of the records that reached handlers in the current test
_CAPTURES = ("LogCaptureHandler", "_CapturingHandler")  # pytest's `caplog`, unittest's `assertLogs`/`assertNoLogs`
_DROPS = {"disabled": ("disabled", "disable"), "filtered": ("addFilter", "filters", "Filter", "filter"),
          "kept from propagating": ("propagate",)}  # how a record is dropped -> what the patch spells to make it so


def _watch_dropped_logs(guard, _modules=sys.modules) -> None:
    """A record the code under test logs at a level the tests' log capture takes must reach it: a logger the patch
    disabled (R72-1), a filter it added (R72-8, R72-10) or a `propagate = False` it set would keep the bug's warning
    from `caplog` and `assertNoLogs`. `Logger.handle` (after the level check) and `callHandlers` are watched, no
    filter is asked twice (a "warn once" filter counts what it sees): a record dropped on its way to a capture
    handler, while the patch spells the way it was dropped, is a finding."""
    logging = _modules.get("logging")
    cls = getattr(logging, "Logger", None)
    if not isinstance(cls, type) or "handle" not in vars(cls) or "callHandlers" not in vars(cls) or _STATE.get(
            "drops_watched"):
        return
    _STATE["drops_watched"] = True
    reached: set = set()

    def dropped(logger, record, how: str) -> None:
        if any(w in _STATE.get("patch_words", frozenset()) for w in _DROPS[how]):
            _record(guard, f"a record of the logger {logger.name!r} that the tests' log capture takes was {how} on "
                           "its way there, as the patch spells it")

    def handle(self, record, _handle=vars(cls)["handle"]):
        out = _handle(self, record)
        if id(record) in reached:
            reached.discard(id(record))
        elif (self.disabled or (self.name, str(record.msg)) not in _LOG_SEEN) and _captured_above(self, record, False):
            dropped(self, record, "disabled" if self.disabled else "filtered")  # (a message that got through
            # before, dropped again, is a "warn once" filter's right)
        return out

    def call_handlers(self, record, callHandlers=vars(cls)["callHandlers"]):  # (named: the guard's `_unasked`)
        reached.add(id(record))
        if len(_LOG_SEEN) < 4096:
            _LOG_SEEN.add((self.name, str(record.msg)))
        if len(reached) > 64:
            reached.clear()
            reached.add(id(record))
        if _captured_above(self, record, True):
            dropped(self, record, "kept from propagating")
        return callHandlers(self, record)

    for name, fn in (("handle", handle), ("callHandlers", call_handlers)):
        _dressed(fn, vars(cls)[name])
        setattr(cls, name, fn)
    _watch_log_levels(guard, logging)


def _watch_log_levels(guard, logging) -> None:
    """A record below a logger's level is dropped before `Logger.handle` is asked: the patch raising a level (or
    disabling logging process-wide) around the bug's warning while the tests' log capture listens, and putting it
    back (R73-13), is a finding where a line it wrote does it. A level lowered (a verbose mode) drops nothing."""
    cls, disable = getattr(logging, "Logger", None), getattr(logging, "disable", None)
    if not callable(vars(cls).get("setLevel")) or not callable(disable):
        return

    def listening() -> bool:
        return any(type(h).__name__ in _CAPTURES for h in list(getattr(logging.root, "handlers", ())))

    def set_level(self, level, _orig=vars(cls)["setLevel"]):
        was = self.getEffectiveLevel()
        out = _orig(self, level)
        if listening() and self.getEffectiveLevel() > was:
            _by_patch(guard, f"the level of the logger {self.name!r} was raised while the tests' log capture listens")
        return out

    def disabled(level=getattr(logging, "CRITICAL", 50), _orig=disable):
        out = _orig(level)
        if listening() and level:
            _by_patch(guard, "logging was disabled process-wide while the tests' log capture listens")
        return out

    _dressed(set_level, vars(cls)["setLevel"])
    _dressed(disabled, disable)
    cls.setLevel, logging.disable = set_level, disabled


def _loggers_silenced(guard, _modules=sys.modules) -> None:
    """While a capture handler is on the root logger (`caplog`): a logger of the project's packages disabled, or
    logging disabled process-wide, where the patch spells it and no test file does, is a finding (a disabled logger
    drops its records before `Logger.handle`: R72-1)."""
    logging = _modules.get("logging")
    root = getattr(logging, "root", None)
    if root is None or not any(type(h).__name__ in _CAPTURES for h in list(root.handlers)):
        return
    words, tests = _STATE.get("patch_words", frozenset()), getattr(guard, "test_words", frozenset())
    if not any(w in words for w in _DROPS["disabled"]) or any(w in tests for w in _DROPS["disabled"]):
        return
    tops = _STATE.get("log_tops")
    if tops is None:
        root_dir = str(getattr(guard, "workdir", "")).rstrip("/") + "/"
        tops = _STATE["log_tops"] = tuple({p[len(root_dir):].split("/")[0].rsplit(".py", 1)[0]
                                           for p in getattr(guard, "changed", ()) if p.startswith(root_dir)})
    found = [n for n, lg in list(root.manager.loggerDict.items()) if n.split(".")[0] in tops and getattr(
        lg, "disabled", False) is True]
    if found or getattr(root.manager, "disable", 0):
        what = f"the logger {found[0]!r}" if found else "logging, process-wide,"
        _record(guard, f"{what} was disabled while the tests' log capture listens, as the patch spells it")
        root.manager.disable = 0
        for n in found:
            root.manager.loggerDict[n].disabled = False  # said once; the tests go on hearing it


def _captured_above(logger, record, stopped: bool) -> bool:
    """A capture handler that takes the record's level is on the logger's chain (with `stopped`: only above a logger
    that does not propagate, where the record never arrives). Plain attribute reads: no filter runs."""
    c, past = logger, False
    while c is not None:
        if any(type(h).__name__ in _CAPTURES and record.levelno >= h.level for h in c.handlers):
            return past or not stopped  # (a capture the record reaches first: `assertLogs` stops propagation itself)
        if not c.propagate:
            if not stopped or past:
                return False
            past = True
        c = c.parent
    return False


_CAPTURED: dict = {}  # id(capture stream) -> [a weak reference to it, the bytes written to it since its last truncate]


def _count_capture_writes(guard, _modules=sys.modules) -> None:
    """pytest's `capsys` keeps what the code under test printed in a seekable stream that code reaches (`sys.stdout`,
    or a stream handed down as a parameter): a patch that prints the bug's stray line, then seeks back and truncates
    (R71-8), passes `assert capsys.readouterr().out == ...`. The witness counts the bytes each capture stream was
    written; it must still hold them at every assert and whenever it is truncated (pytest's own read truncates it,
    and then the count restarts). A truncate from a line the patch wrote is a finding."""
    cls = getattr(_modules.get("_pytest.capture"), "CaptureIO", None)
    if not isinstance(cls, type) or not callable(getattr(cls, "write", None)) or _STATE.get("captures_counted"):
        return
    _STATE["captures_counted"] = True
    encoded = getattr(_modules.get("_pytest.capture"), "EncodedFile", None)  # capfd's file (T11): its truncate too
    if isinstance(encoded, type) and issubclass(encoded, __import__("io").TextIOWrapper):
        own = getattr(_modules.get("_pytest.capture"), "__file__", None)

        def truncate_file(self, *args, _truncate=encoded.truncate, _getframe=sys._getframe, **kwargs):
            if _getframe(1).f_code.co_filename != own:  # pytest's own snap after each phase: no walk (14k per run)
                _by_patch(guard, "pytest's output capture was truncated")
            return _truncate(self, *args, **kwargs)

        _dressed(truncate_file, encoded.truncate)
        encoded.truncate = truncate_file

    def entry(stream) -> list:
        return _counted(_CAPTURED, stream, lambda: (_held_bytes(stream),))

    init = vars(cls).get("__init__")
    if getattr(getattr(init, "__code__", None), "co_argcount", 0) == 1:  # pytest 5+: `CaptureIO()` over a BytesIO
        _count_capture_bytes(cls, entry, guard)
        return

    def write(self, text, _write=cls.write):
        counted = entry(self)  # before the write: a stream seen first is counted from what it holds
        out = _write(self, text)
        if type(text) is str:
            counted[1] += len(text.encode("utf-8", "surrogateescape"))
        return out

    def truncate(self, *args, _truncate=cls.truncate, **kwargs):
        _captures_held(guard)
        _by_patch(guard, "pytest's output capture was truncated")
        out = _truncate(self, *args, **kwargs)
        entry(self)[1] = _held_bytes(self)
        return out

    for name, fn in (("write", write), ("truncate", truncate)):
        _dressed(fn, getattr(cls, name))
        setattr(cls, name, fn)


def _count_capture_bytes(cls, entry, guard) -> None:
    """`_count_capture_writes` where the bytes arrive: each capture stream is made over a BytesIO of the witness's,
    which counts every byte written to it, through the text layer or straight to `stream.buffer` (R73-12), and
    judges every truncate, as pytest's `CaptureIO` makes it (UTF-8, no newline translation, written through)."""
    import io
    import weakref

    class CaptureBytes(io.BytesIO):
        owner = None

        def write(self, data):
            stream = self.owner() if self.owner is not None else None
            counted = entry(stream) if stream is not None else None  # before the write: counted from what it holds
            out = io.BytesIO.write(self, data)
            if counted is not None and type(out) is int:
                counted[1] += out
            return out

        def truncate(self, *args, **kwargs):
            stream = self.owner() if self.owner is not None else None
            _captures_held(guard)
            _by_patch(guard, "pytest's output capture was truncated")
            out = io.BytesIO.truncate(self, *args, **kwargs)
            if stream is not None:
                entry(stream)[1] = _held_bytes(stream)
            return out

    def __init__(self) -> None:
        buffer = CaptureBytes()
        io.TextIOWrapper.__init__(self, buffer, encoding="UTF-8", newline="", write_through=True)
        buffer.owner = weakref.ref(self)

    _dressed(__init__, vars(cls)["__init__"])
    cls.__init__ = __init__


def _counted(table: dict, obj, fresh) -> list:
    """obj's entry of a counting table, moved to the newest end (made with `fresh()` for an object seen first):
    pytest keeps every item's handlers and streams alive (its stash), so only the 16 used last are kept and
    checked."""
    found = table.pop(id(obj), None)
    if found is None or found[0]() is not obj:
        found = [__import__("weakref").ref(obj), *fresh()]
    table[id(obj)] = found
    while len(table) > 16:
        del table[next(iter(table))]
    return found


def _by_patch(guard, what: str) -> None:
    """A finding where the caller's caller (past library and witness frames) is a line the patch wrote: a reset
    of the tests' mock or capture done by the patch (`_patch_line`)."""
    where = _patch_line(guard)
    if where:
        _record(guard, f"{what} by {where}, a line the patch wrote")


def _held_bytes(stream) -> int:
    """The bytes a capture stream's buffer holds (pytest's streams write through: nothing is pending)."""
    view = stream.buffer.getbuffer()
    try:
        return view.nbytes
    finally:
        view.release()


def _alive(table: dict):
    """(key, weak reference, object, the rest of its entry) of each entry of a counting table whose object is alive;
    the dead ones are dropped."""
    for key, (ref, *rest) in list(table.items()):
        obj = ref()
        if obj is None:
            table.pop(key, None)
        else:
            yield key, ref, obj, rest


def _captures_held(guard) -> None:
    """Each capture stream still holds every byte written to it since its last truncate (`_count_capture_writes`)."""
    for key, ref, stream, (wrote,) in _alive(_CAPTURED):
        if stream.closed:  # pytest closes a capture when its session ends: nothing more is read from it
            _CAPTURED.pop(key, None)
            continue
        try:
            held = _held_bytes(stream)
        except Exception:
            held = None
        if held is None or held < wrote:
            _record(guard, f"pytest's output capture lost what was written to it: {wrote} bytes, it holds {held}")
            _CAPTURED[key] = [ref, held or 0]


def _text_length(stream, default: int, _tell=__import__("io").StringIO.tell) -> int:
    """How much a capture's text stream holds: its position (no copy of the text; no builtin the tests may patch,
    such as `hasattr`, is called: attrs' own tests patch it)."""
    return _tell(stream) if type(stream) is __import__("io").StringIO else default


def _logs_held(guard) -> None:
    """Each capture handler still holds every record it took, and its text (`_count_log_records`)."""
    for key, ref, h, (took, chars) in _alive(_LOG_RECORDS):
        try:
            held = (len(h.records), _text_length(h.stream, chars))
        except Exception:
            held = (None, None)
        if held[0] != took or held[1] is None or held[1] < chars:
            _record(guard, f"pytest's log capture lost what it took: {took} records, it holds {held[0]}")
            _LOG_RECORDS[key] = [ref, held[0] if type(held[0]) is int else took, held[1] or 0]


def _patch_line(guard, _getframe=sys._getframe) -> str:
    """"file:line" of the first frame above the caller's caller that is neither a library's nor the witness's,
    where the patch wrote that line; "" otherwise."""
    f = _getframe(2)
    while f is not None and (f.f_code.co_filename == __file__ or guard.kind(f.f_code.co_filename) == "lib"):
        f = f.f_back
    if f is None or guard.kind(f.f_code.co_filename) != "changed" or not guard.wrote(f.f_code.co_filename,
                                                                                     f.f_lineno, f.f_lineno):
        return ""
    return f"{f.f_code.co_filename}:{f.f_lineno}"


def _mocks_held(guard) -> None:
    """Each counted mock's record says the calls it was made (`_count_mock_calls`), and no record of calls it or a
    child was made got shorter (`_count_mock_lists`)."""
    for key, ref, m, (calls, methods) in _alive(_MOCK_LISTS):
        try:
            own = object.__getattribute__(m, "__dict__")
            now = (len(own["_mock_mock_calls"]), len(own["method_calls"]))
        except Exception:
            continue
        if now[0] < calls or now[1] < methods:
            _record(guard, f"a mock's record of its calls was changed: mock_calls held {calls}, it holds {now[0]} "
                           f"(method_calls: {methods}, now {now[1]})")
            _MOCK_LISTS[key] = [ref, *now]
    for key, ref, m, (made, ids) in _alive(_MOCK_CALLS):
        try:
            said = (m.call_count, len(m.call_args_list))
            now = [id(c) for c in list(vars(m).get("_mock_call_args_list") or ())[:len(ids)]]
        except Exception:
            said, now = (None, None), ids
        if said != (made, made) or now != ids:
            what = "its calls reordered or rewritten" if said == (made, made) else f"made {made} calls, it says " \
                f"{said[0]} (call_args_list: {said[1]})"
            _record(guard, f"a mock's record of its calls was changed: {what}")
            _MOCK_CALLS[key] = [ref, said[0] if type(said[0]) is int else made, now if type(now) is list else []]


# -- the patch's answers, wherever the tests' code has them asked --------------------------------------------------
# Library and C code compare on the tests' behalf where no rewritten assert runs: `got.count(want)`, `list.index`,
# `operator.countOf`, `all(map(operator.eq, got, want))`, mock's call matching, a dict lookup (R69-1 to R69-20).
# The carriers are countless; the class is where each of their questions arrives. Each answer of a project class
# that the patch decides (`_patch_decides`) is held through a wrapper: where the question came from the tests'
# code through library or C code only, an "equal" (a "holds", a truth) is judged as an assert's operand is.
_CARRY = ("__eq__", "__ne__", "__contains__", "__bool__", "__len__", "__lt__", "__le__", "__gt__", "__ge__",
          "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__")
_COPIES = ("__copy__", "__deepcopy__")  # the tests' snapshot (`before = copy.deepcopy(x)`) must be another object
_REDUCES = ("__reduce__", "__reduce_ex__")  # a pickle's recipe must rebuild the object, not fetch it (R72-17)
_CARRIED_ORDER = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}
_TRUTHS = ("__bool__", "__len__")  # answers judged whatever they say: a "no" (falsy, 0) is what `not any(...)` wants
# a builtin number's subclass answers arithmetic and conversions that library or C code asks on the tests' behalf
# (`sum()` adding through `__radd__`, `math.fsum` converting through `__float__`: R72-4, R72-7) as its base would
_NUMBER_OPS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
               "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__divmod__", "__rdivmod__", "__pow__",
               "__rpow__", "__neg__", "__pos__", "__abs__", "__float__", "__int__", "__index__", "__complex__",
               "__round__", "__trunc__", "__floor__", "__ceil__",  # `round()`, `math.floor` (R73-20)
               "as_integer_ratio")  # `statistics.mean`'s exact arithmetic (R73-21)
_NUMBERS = (int, float, complex, __import__("fractions").Fraction, __import__("decimal").Decimal)  # R73-10b
# a collection's items as library or C code reads them (`sorted(tags)`, `set(x)`, json's encoder calling a dict
# subclass's `items()`) agree with its other view of them: the builtin storage it is, or its length (R72-23, R72-31)
_ITERATION = ("__iter__", "items", "keys", "values")
_ANY_ANSWER = frozenset((*_TRUTHS, *_NUMBER_OPS, *_COPIES, *_ITERATION, *_REDUCES))  # judged whatever they say
_BUDGETED = frozenset((*_CARRIED_ORDER, *_TRUTHS, *_NUMBER_OPS, *_ITERATION))  # judged within `_budget`
_HASHED: dict = {}  # per test: (id(class), its fields) -> a weak reference to the first value hashed for the tests
# witness code that does the tests' own operation in its frame once it has judged it: the wrapped mock asserts (they
# hand the recorded calls on), `arith` (a test's `set(expected) - got` runs in its frame: R68's T17) and the wrapped
# unittest asserts, which call unittest's own (its `Counter` of both sides in `assertCountEqual`: R70-10)
_FORWARDERS = frozenset({"judged", "arith", "equal", "member", "ordered", "almost", "count_equal", "subset", "check"})
_UNCARRIED: set = set()  # (id(class), dunder, id(function)) the patch does not decide: not asked again


def _for_tests(guard, _getframe=sys._getframe) -> bool:
    """The question reached the class through library or C code only, from the tests' code (a test file, a
    conftest, a helper beside them). Not where the witness asks (it judges already), nor where the project's code
    asks: that is the fix's own logic, which the tests judge by its results. A project object's own answer on the
    way (an unchanged `Title.__eq__` comparing a field the patch filled) hands the question on: it is no caller."""
    f = _getframe(2)  # above the wrapper: C code has no frame, so this is whoever called it
    for _ in range(64):
        if f is None:
            return False
        code = f.f_code
        if code.co_filename == __file__:
            if code.co_name not in _FORWARDERS:
                return False
        else:
            kind = guard.kind(code.co_filename)
            if kind == "test":
                return True
            if kind != "lib" and code.co_name not in _ANSWER:
                return False
        f = f.f_back
    return False


def _carried_finding(u, name: str, args: tuple, res, guard):
    """A finding for the answer `res` that u's `name` gave about `args` on the tests' behalf (`_carry`)."""
    if name in ("__eq__", "__ne__"):
        ne = name == "__ne__"
        return _judge(u, args[0], ne, guard, 0)[1] if len(args) == 1 and _says_equal(res, ne) else None
    found: list = []
    keep = lambda _guard, text: found.append(text.replace("assertion ", "", 1))  # noqa: E731
    if name == "__contains__":
        if len(args) != 1 or _truthy(res) is not True:
            return None
        _contained(args[0], u, False, keep)
        return found[0] if found else None
    if name in _COPIES:  # R72-11, R72-20: a copy that is the original makes `assert x == before` hold after any change
        own = _fields(u)[1]  # an immutable value's copy is itself, as a tuple's is (R73-FP2)
        if res is not u:  # a deep copy holds none of the original's containers (R73-26b: one shared state dict)
            theirs = {k: w for k, w, _ in _fields(res)[1]} if name == "__deepcopy__" and type(res) is type(u) else {}
            shared = [k for k, v, _ in own if theirs.get(k, _NO_VALUE) is v and _among(type(v), (*_MUTABLE, *_MAPPINGS))]
            return f"a {type(u).__name__} whose {name} shares its {shared[0]} with the original" if shared else None
        return f"a {type(u).__name__} whose {name} gives the object itself" if own and not _immutable(u, own) else None
    if name in _REDUCES:
        return _fetched_back(u, name, res)
    if name in _NUMBER_OPS:
        base = _number_base(type(u))
        try:
            want = getattr(base, name)(_number_value(u), *args)
        except Exception:
            return None
        got = tuple(map(_number_value, res)) if type(res) is tuple else _number_value(res)  # `divmod`'s pair
        want = tuple(map(_number_value, want)) if type(want) is tuple else want
        if want is NotImplemented or got is None or got == want or (got != got and want != want):
            return None
        return f"a {type(u).__name__}, a {base.__name__}, whose {name} gives {got!r} where its {base.__name__} value gives {want!r}"
    if name in _CARRIED_ORDER:  # `sorted`, `max`, `bisect` ordering on the tests' behalf (R72-5, R72-19, R72-32)
        if len(args) == 1:
            _order_consistent(u, args[0], _CARRIED_ORDER[name], res, guard, keep)
        return found[0] if found else None
    said = _truthy(res) if name == "__bool__" else type(res) is int and res != 0  # `any()`'s truth by `__len__`
    return _truth_views(u, said, guard) if type(said) is bool else None


def _immutable(u, own: list) -> bool:
    """u refuses attribute writes (its class's `__setattr__`: a frozen dataclass's, attrs', its own) and holds only
    immutable builtin values: nothing can change it after a copy."""
    if getattr(type(u), "__setattr__", object.__setattr__) is object.__setattr__:
        return False
    todo = [v for _, v, _ in own]
    while todo:
        v = todo.pop()
        if _among(type(v), (tuple, frozenset)):
            todo += list(v)[:100]
        elif not _among(type(v), _SCALARS):
            return False
    return True


def _fetched_back(u, name: str, res):
    """A finding where the recipe u's `name` gave pickle (a callable and its arguments) gives back u itself: nothing
    of u is in the bytes but a key to an object of this process (R72-17: `pickle.loads(pickle.dumps(job)) == job`
    holds for a job no other process can load). A class (a copy's constructor) or copyreg's rebuild makes a new
    object and is not called; a recipe by name (a string: a module's singleton) fetches by design, as does one for
    a value without fields of its own (a sentinel)."""
    if type(res) is not tuple or len(res) < 2 or type(res[1]) is not tuple or not callable(res[0]) or \
            isinstance(res[0], type) or getattr(res[0], "__module__", None) == "copyreg" or not _fields(u)[1]:
        return None
    return f"a {type(u).__name__} whose {name} rebuilds the object itself" if res[0](*res[1]) is u else None


def _read_through(u, name: str, res, guard):
    """u's iteration read for the tests, judged where u has another view of its items (`_iteration_view`); an
    iterator it gave is read through and handed on as a fresh one over the same items (an error where it raised).
    An iterator that is its own iterable is not read: its reader may take it in parts (R74-13 stays open)."""
    try:
        view = None if res is u else _iteration_view(u, name)
        it = iter(res) if view is not None else None
    except Exception:
        return res
    if it is None:
        return res
    got, error, most = [], None, 10000
    try:
        for x in it:
            got.append(x)
            if len(got) >= most:
                break
    except Exception as exc:
        error = exc
    if error is None and len(got) <= 10000:
        _carried_said(guard, name, lambda: _iteration_disagrees(u, name, got, view))
    return _handed(got, it, error) if it is res else res


def _carried_said(guard, name: str, find) -> None:
    """`find()`'s finding about an answer carried for the tests (`_carrier`), recorded; none where it raises."""
    try:
        found = find()
    except Exception:
        found = None
    if found:
        _record(guard, f"library or C code asked for the tests ({name}) and found {found}")


def _handed(got: list, rest, error):
    """The items an iterator gave the witness, then whatever it has left, as it would have given them."""
    yield from got
    if error is not None:
        raise error
    yield from rest


def _iteration_view(u, name: str):
    """What u's `name` must agree with: (the builtin collection u is, the items it holds, read by the builtin's own
    methods), or (None, u's length) for a sized class's `__iter__` or a mapping's keys, items and values. None
    where u has no other view (an `Order` whose `items()` lists lines while its length counts units)."""
    t = type(u)
    mro = type.__dict__["__mro__"].__get__(t)
    if _among(dict, mro):
        return dict, list({"items": dict.items, "values": dict.values}.get(name, dict.keys)(u))
    for base in (list, tuple, set, frozenset):
        if _among(base, mro):
            return (base, list(base.__iter__(u))) if name == "__iter__" else None
    sized = (name == "__iter__" or _among(__import__("collections.abc").abc.Mapping, mro)) and _has(t, "__len__")
    return (None, len(u)) if sized else None


def _iteration_disagrees(u, name: str, got: list, view: tuple):
    """A finding where the items u's `name` gave are not those of its other view (`_iteration_view`)."""
    base, held = view
    if base is None:
        if type(held) is int and held != len(got):
            return f"a {type(u).__name__} whose {name} gives {len(got)} items but whose length is {held}"
        return None
    if _same_items(got, held) and (base not in (list, tuple) or all(  # a sequence's in its order (R74-18)
            got[i] is held[i] or got[i] == held[i] for i in range(len(got)))):
        return None
    return f"a {type(u).__name__}, a {base.__name__}, whose {name} gives {_short(got)} where it holds {_short(held)}"


def _same_items(a: list, b: list) -> bool:
    """a and b hold equal items, in any order (a dict subclass may list its keys sorted); past 500 items only the
    counts are compared."""
    if len(a) != len(b):
        return False
    rest = list(b) if len(a) <= 500 else []
    for x in a if rest else ():
        at = next((i for i, y in enumerate(rest) if x is y or x == y), None)
        if at is None:
            return False
        del rest[at]
    return True


def _identity_valued(cls, guard) -> bool:
    """A class the patch wrote whose values are equal only to themselves (`object`'s `__eq__` and `__hash__`):
    where the tests count distinct values (`len(set(ids))`, dict keys), two of them holding the same fields are
    two only by identity (R72-2, R72-6), so its hash is asked through `_identity_hash`."""
    mro = type.__dict__["__mro__"].__get__(cls)
    own = [c for c in mro if "__eq__" in _ns(c) or "__hash__" in _ns(c)]
    return bool(own) and own[0] is object and _patch_class(cls, guard)


def _identity_hash(self):
    """`object`'s hash of a value of an identity-valued class (`_identity_valued`); where the tests' code asked it
    through a set or dict, a second value of the class holding the same plain fields is a finding."""
    res = object.__hash__(self)
    guard = _STATE.get("guard")
    if guard is None or len(_HASHED) > 4096:
        return res
    try:
        state = _state_of(self)
        fields = tuple(sorted((k, v) for k, v in state.items() if type(v) in (str, int, float, bytes, bool)))
        key = (id(type(self)), fields) if fields and len(fields) == len(state) else None
        first = _HASHED.get(key) if key is not None else None
        other = first() if first is not None else None
        if key is not None and first is None:
            _HASHED[key] = __import__("weakref").ref(self)
    except Exception:
        return res
    if other is not None and other is not self and _for_tests(guard):  # the frames walked only for a pair
        _record(guard, f"library or C code hashed for the tests two {type(self).__name__} values holding the same "
                       f"fields {_short(dict(fields))}, distinct only by identity")
    return res


def _number_base(t):
    """The standard number (int, float, complex, Fraction, Decimal) a class derives from, None for others (bool is
    int's own)."""
    mro = type.__dict__["__mro__"].__get__(t)
    return next((b for b in mro[1:] if _among(b, _NUMBERS)), None)


def _number_value(v):
    """v as the builtin number it is (a subclass's value read by the builtin's own C code, no method of v's asked);
    None for anything else."""
    fraction, decimal = _NUMBERS[3:]
    for b in _NUMBERS:
        if type(v) is b or type(v) is bool:
            return v
        if not issubclass(type(v), b):  # the real class: no `__class__` of v's is read
            continue
        if b is fraction:  # its own slots, not a `numerator` property a subclass may override
            return fraction(fraction._numerator.__get__(v), fraction._denominator.__get__(v))
        return decimal(v) if b is decimal else b.__add__(v, b())  # a Decimal's digits copied exactly, in C
    return None


def _budget(name: str, first: int = 64, then: int = 16) -> bool:
    """Whether this answer is judged: every one of the first `first` orderings and truths of a test, then one in
    `then` (a sort of thousands of project values asks as many questions; a non-order shows within any few)."""
    if name not in _BUDGETED:
        return True
    n = _STATE["asked"] = _STATE.get("asked", 0) + 1
    return n <= first or n % then == 0


def _carrier(held, name: str):
    """What the class holds (a function, a staticmethod's or a classmethod's) called as the type slot calls it, its
    answer unchanged; judged (`_carried_finding`) where the tests' code had it asked through library or C code."""
    kind, fn = type(held), getattr(held, "__func__", held)

    def carried(self, *args, **kwargs):
        res = fn(*args, **kwargs) if kind is staticmethod else fn(type(self) if kind is classmethod else self, *args,
                                                                     **kwargs)
        guard = _STATE.get("guard")
        if res is NotImplemented or guard is None or (name not in _ANY_ANSWER and not _says_equal(res, name == "__ne__")) \
                or (name in _ITERATION and not _budget(name)) or not _for_tests(guard) or (
                name not in _ITERATION and not _budget(name)):  # a "no" is judged nowhere: it makes no assert hold
            return res
        if name in _ITERATION:
            return _read_through(self, name, res, guard)
        _carried_said(guard, name, lambda: _carried_finding(self, name, args, res, guard))
        return res

    _dressed(carried, fn)  # what the class's `__eq__` says of itself (its name, doc, signature: attrs' own tests)
    carried.__wrapped__ = fn
    return carried


def _carry(cls, settled: bool = False, _raw=type.__dict__["__dict__"].__get__, _setattr=type.__setattr__) -> None:
    """Each answer (`_CARRY`) `cls` holds itself as a plain function (or a static or class method's) that the patch
    decides is held through `_carrier`; one put in place of a wrapper later (a decorator's) is carried in its turn.
    Other objects held there are `_answering`'s findings. An identity-valued class's hash is held only once its
    decorators ran (`settled`): a dataclass keeps a `__hash__` it finds in the class's own dict."""
    guard = _STATE.get("guard")
    if guard is None:
        return
    own = _raw(cls)
    record = _CARRIED.get(id(cls))
    held = record[1] if record is not None and record[0]() is cls else {}
    number = _number_base(cls) is not None
    for name in (*_CARRY, *_ITERATION, *_NUMBER_OPS) if number else (*_CARRY, *_ITERATION):
        fn = own.get(name)
        key = (id(cls), name, id(fn))
        if type(getattr(fn, "__func__", fn)) is not type(_among) or type(fn) not in (type(_among), staticmethod,
                                                                             classmethod) or (
                name in held and held[name][0] is fn) or key in _UNCARRIED:
            continue
        if not _patch_decides(cls, name, guard):
            _UNCARRIED.add(key)
            continue
        wrapper = _carrier(fn, name)
        try:
            _setattr(cls, name, wrapper)
        except (TypeError, AttributeError):
            continue
        held[name] = (wrapper, fn)
    if settled and "__hash__" not in held and (id(cls), "__hash__", 0) not in _UNCARRIED:
        _UNCARRIED.add((id(cls), "__hash__", 0))  # asked once per class: after its decorators, at the first report
        if _identity_valued(cls, guard):
            try:
                _setattr(cls, "__hash__", _identity_hash)
                held["__hash__"] = (_identity_hash, None)
            except (TypeError, AttributeError):
                pass
    if held and (record is None or record[0]() is not cls):
        _CARRIED[id(cls)] = (__import__("weakref").ref(cls), held)


def _carry_all(guard) -> None:
    """`_carry` for every class of the project's files and each class a changed module holds that no `class`
    statement made: after collection (decorators have run) and at every report."""
    carry = _STATE.get("carry")
    if carry is None:
        return
    for record in list(_CLASSES.values()):
        cls = record[0]()
        if cls is not None and record[1] in ("changed", "project"):
            carry(cls, True)
    for _record_of, cls in _unrecorded(guard):
        carry(cls, True)


def _wrap_type_checks(case, frozen: dict) -> None:
    """`assertIsInstance`/`assertNotIsInstance` asked through the same rule as a rewritten `isinstance` (`kind`)."""
    for name in ("assertIsInstance", "assertNotIsInstance"):
        if not callable(vars(case).get(name)) or "kind" not in frozen:
            continue

        def check(self, obj, cls, msg=None, _orig=vars(case)[name], _kind=frozen["kind"]):
            _kind(obj, cls)
            return _orig(self, obj, cls, msg)

        check.__name__ = check.__qualname__ = name
        setattr(case, name, check)


def renamed_params(items, guard) -> list:
    """Parametrize values the patch wrote that are not what their name says: pytest names a function or class case
    by its `__name__`, so a stand-in renamed to the buggy function's name (the buggy one left out of the registry)
    runs under the required id. A module-level value's `__name__` must end its `__qualname__` and a module-level
    function must be what its module binds to that name; a function a factory made (`<locals>`) must not be named
    after something else its module binds. Classes a factory made (`attrs.cmp_using`) live where assigned."""
    out = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", None)
        for key, v in (list(params.items()) if type(params) is dict else []):
            if not (type(v) is type(_among) or issubclass(type(v), type)) or not _patch_wrote(v, guard):
                continue
            name, qual = getattr(v, "__name__", None), getattr(v, "__qualname__", None)
            if type(name) is not str or type(qual) is not str:
                continue
            module = sys.modules.get(getattr(v, "__module__", None) or "")
            found = module
            for part in qual.split(".") if "<" not in qual and type(v) is type(_among) else ():
                found = getattr(found, part, None)  # (a class factory's classes live where they are assigned)
            bound = getattr(module, name, v) if "<" in qual else v  # a factory's function: named as it is bound
            if (qual.rsplit(".", 1)[-1] != name and "<" not in qual) or bound is not v or (
                    type(v) is type(_among) and "<" not in qual and found is not v):
                out.append(f"{item.nodeid}: its parameter {key} is named {name} but is {qual} of the patch's code, "
                           f"which its module does not bind to that name")
    return out[:20]


def _rebind_aliases(case, before: dict) -> None:
    """unittest's deprecated aliases (`assertEquals`, `failUnlessEqual`, ... on Python < 3.12) are closures over the
    methods as they were when the class was made: each one that holds a method replaced above is rebound to its
    replacement, so every spelling of a judged assert is judged. Found by what the alias holds, not by a list."""
    replaced = {id(old): vars(case)[name] for name, old in before.items() if vars(case).get(name) is not old}
    for name, alias in before.items():
        if not callable(alias) or vars(case).get(name) is not alias:  # replaced above: it is judged itself
            continue
        for cell in getattr(alias, "__closure__", None) or ():
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if id(held) in replaced:
                setattr(case, name, replaced[id(held)])
                break


def _uncached_tests(guard) -> None:
    """`linecache` keeps what it read: a test file's text, read once to format a warning or a failure while no
    changed code ran, would stay readable with no further `open()` (`traceback.FrameSummary(path, n).line`). Its
    cache now never keeps a protected test file or conftest: each read opens the file again, under the guard. The
    module is fingerprinted with the runner, so rebinding its cache or functions is a finding at the next report."""
    import linecache
    import os

    class _Cache(dict):
        __slots__ = ()

        def __setitem__(self, key, value, _kind=guard.kind, _set=dict.__setitem__, _abs=os.path.isabs,
                        _roots=tuple(getattr(guard, "test_roots", ())), _real=os.path.realpath):
            # judged by every path the entry names (the key, and the file linecache really read: a bare
            # `test_x.py` is found on `sys.path`); kept only for absolute paths and for `<...>` pseudo-files
            # (attrs and others register the source of code they generate under such names); nothing under a test
            # directory (a helper module with the expected values, read once to format a warning, R48s-1)
            paths = [key, *(v for v in value[3:4] if isinstance(value, tuple))]
            if all(type(p) is str and (p.startswith("<") or (_abs(p) and _kind(p) != "test"
                                                             and not _real(p).startswith(_roots))) for p in paths):
                _set(self, key, value)

        def setdefault(self, key, default=None):
            if key not in self:
                self[key] = default
            return self.get(key, default)

    cache = _Cache()
    for key, value in list(linecache.cache.items()):
        cache[key] = value
    linecache.cache = cache


def _binding(compile_test, table: dict):
    """pytest's `_rewrite_test` whose compiled test code has each mark constant bound to its frozen entry."""

    def _rewrite_test(*args, _compile=compile_test, _table=table, _bind=_bind, **kwargs):
        """pytest 5+: (hash or stat, code); older: code. Its helpers are defaults, which no test may read."""
        import warnings

        with warnings.catch_warnings():  # the marks are str constants called as functions until bound: CPython
            # warns at compile time, and a project whose pytest config turns warnings into errors (click's
            # `filterwarnings = error`) would then fail to collect every file with an assert
            warnings.filterwarnings("ignore", message="'str' object is not callable", category=SyntaxWarning)
            res = _compile(*args, **kwargs)
        return (*res[:-1], _bind(res[-1], _table)) if isinstance(res, tuple) else _bind(res, _table)

    return _rewrite_test


def install_strict_asserts(guard):
    """Wrap pytest's assertion rewriting of test files (protected, pristine) with the strict comparison; returns
    the installer of the judged mock asserts (`mock_asserts`), which the witness runs."""
    from _pytest.assertion import rewrite

    _uncached_tests(guard)
    _STATE["guard"] = guard
    guard.probes = tuple(make_probes())
    original, late = rewrite.rewrite_asserts, (lambda: None)
    if hasattr(rewrite, "_rewrite_test") and hasattr(type(install_strict_asserts.__code__), "replace"):
        import random

        token = f"{random.SystemRandom().getrandbits(128):x}"
        _MARKS.update({name: f"\x00swerl:{name}:{token}" for name in _ENTRIES})
        frozen = _frozen()
        table = {_MARKS[name]: frozen[name] for name in _ENTRIES}
        # where the comparison hands control to an operand's own methods, that code is the patch's as far as the
        # guard is concerned: a C callable it left behind (a weakref callback, a slot) fires there with no frame
        codes = tuple(frozen[n].__code__ for n in _COMPARISON if n not in _ENTRIES)
        guard.tainted.update(codes)
        _wrap_unittest(frozen)
        late, _STATE["carry"] = mock_asserts(frozen), frozen["_carry"]  # the judged mock asserts; `_carry`
        _rewrite_helpers(rewrite, guard)
        if hasattr(sys, "audit"):
            sys.audit("swerl.taint", codes)  # the hook decides on its own copy of the tainted set

        rewrite._rewrite_test = _binding(rewrite._rewrite_test, table)
        # a cached rewritten pyc is never read: the tree's bytecode is dropped, but project code (a pre-command,
        # an import before collection) could write one whose header matches the test file's size and mtime
        rewrite._read_pyc = lambda *args, **kwargs: None

    def rewrite_asserts(mod, *args, _marks=tuple(sorted(_MARKS.items())), **kwargs):  # pytest 4 has no `source` argument
        """The marks are bound here (defaults no test may read): marks changed in this module's namespace stop
        the rewrite, and the import fallback is never taken once marks are in use."""
        if dict(_marks) != _MARKS:
            raise RuntimeError("swerl: the strict-assert marks were changed")
        where = kwargs.get("module_path", args[1] if len(args) > 1 else None)
        if where is not None and not __import__("os").path.realpath(str(where)).startswith(guard.workdir):
            return original(mod, *args, **kwargs)  # a plugin the environment installed: its asserts are no test's
        if where is not None:
            _note_decorators(mod, __import__("os").path.realpath(str(where)))
        strict = _strict_visit(mod)
        if strict.marked and where is not None and hasattr(sys, "audit"):
            sys.audit("swerl.marked", str(where), *strict.marked)
        if _marks:
            ast.fix_missing_locations(mod)
            return original(mod, *args, **kwargs)
        pos = 0
        for i, stmt in enumerate(mod.body):
            is_doc = i == 0 and isinstance(stmt, ast.Expr) and isinstance(getattr(stmt, "value", None), ast.Constant)
            if is_doc or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
                pos = i + 1
        imp = ast.Import(names=[ast.alias(name="_swerl_witness", asname="@swerl_witness")])
        mod.body.insert(pos, ast.copy_location(imp, mod.body[pos] if pos < len(mod.body) else mod))
        ast.fix_missing_locations(mod)
        return original(mod, *args, **kwargs)

    rewrite.rewrite_asserts = rewrite_asserts
    return late

