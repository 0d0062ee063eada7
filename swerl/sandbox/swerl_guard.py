"""Runtime guard of the grading launcher (`pytest_runner.py` loads it by path; stdlib only).

An audit hook (`sys.addaudithook`) cannot be removed once installed, sees every process
creation, ctypes call, code compilation/execution, frame access and file open, and runs before
the operation happens. It classifies each Python frame on the stack by its file: a file the
patch *changed* (or added), a protected test file, other project code, or a library. What a
changed file does to reach the runner is vetoed (the operation raises) and recorded; the record
is what counts, so catching the exception does not help. The rules are about effects, not names:

- process creation, signals, ctypes, tracing, `gc` object walks: never with a changed frame on
  the stack, and never from a callback with no work-tree frame at all (a thread or finaliser
  scheduled by changed code) once collection began;
- `exec`/`eval`/`compile`/`marshal`/code-object construction called from a changed frame;
  module code loaded from anything but a `.py` file (a loader of a data file);
- frames: `sys._getframe` and frame/code attributes reached from a changed frame (also through
  `inspect`, `traceback`, `dis`);
- opening the process's stdio descriptors, `/proc`, `/dev/fd` or a protected test file with a
  changed frame on the stack; unpickling anything but the project's own and plain data classes;
- adding another audit hook; rewiring a function's `__code__` or an object's `__class__`.
The witness plugin and the type-strict asserts live in `swerl_witness.py`.
"""

import ast
import os
import sys
import threading

PROCESS = frozenset({"os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.startfile",
                     "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "pty.spawn"})
REACH = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._current_frames", "sys.settrace",
                   "sys.setprofile", "sys.monitoring.register_callback", "sys.monitoring.use_tool_id"})
CODE = frozenset({"exec", "compile", "marshal.loads", "marshal.load", "code.__new__", "function.__new__"})
FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code", "__code__", "f_back", "f_locals",
                         "f_globals", "gi_code", "cr_code"})
PASSTHROUGH = frozenset({"inspect.py", "traceback.py", "dis.py", "linecache.py", "tokenize.py", "types.py"})
WATCHED = PROCESS | REACH | CODE | {"sys._getframe", "object.__getattr__", "open", "pickle.find_class",
                                    "sys.addaudithook", "object.__setattr__", "object.__delattr__"}
# Writes that change what already-defined code does: a function's code, an object's or a class's type.
REWIRES = frozenset({"__code__", "__class__", "__bases__", "__defaults__", "__kwdefaults__"})
PICKLE_SAFE = frozenset({"collections", "datetime", "decimal", "fractions", "copyreg", "_codecs", "numpy", "pathlib",
                         "uuid", "enum", "re", "array", "ipaddress"})
PICKLE_BUILTINS = frozenset({"set", "frozenset", "bytearray", "complex", "slice", "range", "object", "list", "dict",
                             "tuple", "int", "float", "str", "bytes", "bool", "getattr"})
WATCH_MODULES = ("_pytest", "pytest", "pluggy", "unittest", "_swerl_guard", "_swerl_witness")
_STDLIB = os.path.dirname(os.__file__)
_SELF = __file__
_FORMATTERS = frozenset(os.path.join(_STDLIB, n) for n in ("traceback.py", "linecache.py", "logging/__init__.py"))
_LAUNCH_DIR = os.path.dirname(os.path.abspath(__file__)) + "/"  # the launcher's own sources: no reading them


class Guard:
    """Audit-hook rules plus the findings list that the launcher signs."""

    def __init__(self, workdir: str, changed: list, tests: list, private: list, emit=None) -> None:
        self.workdir = os.path.realpath(workdir).rstrip("/") + "/"
        self.changed = {os.path.normpath(self.workdir + c) for c in changed}
        self.protected = {os.path.normpath(self.workdir + t) for t in tests}
        self.private = set(private)
        self.findings: list = []
        self._emit = emit
        self.armed = False
        self._kinds: dict = {}
        self._local = threading.local()
        self.probes: list = []  # set by the witness module's strict asserts
        self.tainted: set = set()  # code objects compiled from strings under changed code
        self.watch = WATCH_MODULES
        self.installed = False
        try:
            self.roots = {n[:-3] if n.endswith(".py") else n for n in os.listdir(self.workdir)}
        except OSError:
            self.roots = set()

    # -- classification ---------------------------------------------------------------------------------------
    def kind(self, filename: str) -> str:
        k = self._kinds.get(filename)
        if k is None:
            path = os.path.normpath(os.path.join(self.workdir, filename)) if filename[:1] not in ("<", "") else ""
            if path in self.changed:
                k = "changed"
            elif path.startswith(self.workdir):
                name = os.path.basename(path)
                k = "test" if path in self.protected or name == "conftest.py" else "project"
            else:
                k = "lib"
            self._kinds[filename] = k
        return k

    def _stack(self, limit: int = 300):
        """The audited code's frames, innermost first (the guard's own frames skipped)."""
        f = sys._getframe()
        while f is not None and f.f_code.co_filename == _SELF:
            f = f.f_back
        n = 0
        while f is not None and n < limit:
            yield f
            f = f.f_back
            n += 1

    def frame_kind(self, f) -> str:
        """A frame's class; code compiled from a string while changed code was on the stack counts as changed."""
        return "changed" if f.f_code in self.tainted else self.kind(f.f_code.co_filename)

    def _changed_frame(self):
        for f in self._stack():
            if self.frame_kind(f) == "changed":
                return f
        return None

    def _innermost(self, skip_passthrough: bool = False):
        for f in self._stack():
            name = f.f_code.co_filename
            if skip_passthrough and name.startswith(_STDLIB) and os.path.basename(name) in PASSTHROUGH:
                continue
            return f
        return None

    @staticmethod
    def _where(f) -> str:
        return f"{f.f_code.co_filename}:{f.f_lineno}"

    # -- the hook -------------------------------------------------------------------------------------------------
    def install(self) -> None:
        """Audit hooks exist from Python 3.8: older test environments (some SWE-bench images run 3.6) are graded
        with the witness, the strict asserts and the signed record, and the record says the guard was off."""
        if not hasattr(sys, "addaudithook"):
            if self._emit is not None:
                self._emit("note", "runtime guard unavailable (Python < 3.8)")
            return
        sys.addaudithook(self._hook)
        self.installed = True

    def _hook(self, event: str, args: tuple) -> None:
        if event not in WATCHED and not event.startswith("ctypes."):
            return
        local = self._local
        if getattr(local, "busy", False):
            return
        local.busy = True
        try:
            reason = self._check(event, args)
        except Exception as exc:  # a rule must never break the run; record that it could not decide
            reason = None if event == "open" else f"guard error on {event}: {type(exc).__name__}"
        finally:
            local.busy = False
        if reason:
            self.record(reason)
            raise RuntimeError(f"swerl grading guard: {reason}")

    def record(self, reason: str) -> None:
        """A finding goes out at once (a signed record line): clearing `findings` later changes nothing."""
        if reason in self.findings or len(self.findings) >= 50:
            return
        self.findings.append(reason)
        if self._emit is not None:
            self._emit("finding", reason)

    def outcome(self, node: str, phase: str, status: str, forged: bool) -> None:
        if self._emit is not None:
            self._emit("outcome", {"node": node, "phase": phase, "status": status, "forged": forged})

    def _check(self, event: str, args: tuple):
        if event == "sys.addaudithook":
            return "adds an audit hook" if self.installed else None
        if event in PROCESS or event in REACH or event.startswith("ctypes."):
            return self._suspect(event)
        if event in CODE:
            return self._code(event, args)
        if event == "sys._getframe":
            f = self._innermost(skip_passthrough=True)
            return f"frame access (sys._getframe) from {self._where(f)}" if f and self._is_changed(f) else None
        if event == "object.__getattr__":
            return self._frame_attr(args[1]) if len(args) > 1 and args[1] in FRAME_ATTRS else None
        if event in ("object.__setattr__", "object.__delattr__"):
            return self._rewire(event, args)
        if event == "open":
            return self._open(args)
        if event == "pickle.find_class":
            return self._unpickle(args)
        return None

    def _frame_attr(self, name: str):
        """`__code__` read directly by changed code (inspect.signature reading it is ordinary); a frame reached
        (`tb_frame`, `gi_frame`, ...) with changed code anywhere on the stack, unless a traceback formatter
        (traceback, logging, linecache) is the one reading it: any other library in between only launders it."""
        f = self._innermost()
        if f is None:
            return None
        if self._is_changed(f):
            return f"reads .{name} from {self._where(f)}"
        if name == "__code__" or f.f_code.co_filename in _FORMATTERS:
            return None
        changed = self._changed_frame()
        return f"reads .{name} through {self._where(f)} from {self._where(changed)}" if changed else None

    def _is_changed(self, f) -> bool:
        return self.frame_kind(f) == "changed"

    def _suspect(self, event: str):
        tree = False
        for f in self._stack():
            k = self.frame_kind(f)
            if k == "changed":
                return f"{event} from {self._where(f)}"
            tree = tree or k != "lib"
        if self.armed and not tree:
            return f"{event} from a callback with no test or project code on the stack (thread, finaliser, hook)"
        return None

    def _code(self, event: str, args: tuple):
        f = self._innermost()
        if f is not None and self._is_changed(f):
            return f"{event}() called from {self._where(f)}"
        changed = self._changed_frame()
        if changed is None:
            return None
        if event == "compile" and len(args) > 1 and isinstance(args[1], str):
            name = args[1]
            if not name.startswith("<") and not name.endswith((".py", ".pyw")):
                return f"compiles code from a non-.py file {name}"
            if name.startswith("<"):  # a library generating code for changed code (dataclasses, annotations, ...)
                found = generated_code_finding(args[0])
                return f"{found} in code generated at run time for {self._where(changed)}" if found else None
        if event == "exec" and args:
            code = args[0]
            if isinstance(getattr(code, "co_filename", None), str) and code.co_filename.startswith("<"):
                self._taint(code)
            return self._loader_check()
        return None

    def _taint(self, code) -> None:
        todo = [code]
        while todo and len(self.tainted) < 100000:
            c = todo.pop()
            self.tainted.add(c)
            todo += [k for k in c.co_consts if type(k) is type(c) and k not in self.tainted]

    def _rewire(self, event: str, args: tuple):
        """Changing a function's `__code__`/defaults or an object's `__class__`/`__bases__` in place keeps every
        identity the fingerprint compares: refused from changed code, from callbacks it scheduled, and on the
        runner's and the tests' own objects."""
        name = args[1] if len(args) > 1 else None
        if name not in REWIRES:
            return None
        target = args[0]
        owner = getattr(target, "__module__", None) if callable(target) or isinstance(target, type) else None
        owner = owner if isinstance(owner, str) else type(target).__module__
        runner = any(owner == w or owner.startswith(w + ".") for w in WATCH_MODULES)
        if name in ("__defaults__", "__kwdefaults__") and not runner:
            return None  # namedtuple sets these on its own functions
        found = self._suspect(f"{event} {name}")
        if found or (self.armed and runner) or (name == "__code__" and self._test_code(target)):
            return found or f"{event} {name} of {owner}.{getattr(target, '__qualname__', type(target).__name__)}"
        return None

    def _test_code(self, fn) -> bool:
        code = getattr(fn, "__code__", None)  # our own read: the hook is busy, no event
        return code is not None and self.kind(code.co_filename) == "test"

    def _loader_check(self):
        """Module code executed for an import that changed code started: its loader must read a `.py` file (or
        a compiled cache/extension outside the work tree and /tmp)."""
        for f in self._stack():
            if f.f_code.co_name == "exec_module" and f.f_code.co_filename.startswith("<frozen"):
                loader = f.f_locals.get("self")
                path = getattr(loader, "path", None) or getattr(loader, "archive", None)
                if not isinstance(path, str):
                    return None
                real = os.path.realpath(path)
                outside = not real.startswith(self.workdir) and not real.startswith("/tmp/")
                if real.endswith((".py", ".pyw")) or (outside and real.endswith((".pyc", ".so"))):
                    return None
                return f"loads module code from {path} ({type(loader).__name__})"
        return None

    def _open(self, args: tuple):
        path = args[0] if args else None
        if isinstance(path, int):
            if path > 2:
                return None
            f = self._changed_frame()
            return f"opens file descriptor {path} from {self._where(f)}" if f else None
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            return None
        full = os.path.normpath(os.path.join(os.getcwd(), path))
        if full in self.private:  # the launcher read its spec and opened its record before the guard: anyone else
            return f"opens the launcher's private file {full}"
        hot = (full.startswith(("/proc/", "/dev/fd", "/dev/std", _LAUNCH_DIR)) or full == "/proc"
               or (full.startswith(self.workdir) and (full in self.protected or full.endswith("conftest.py"))))
        if not hot:
            return None
        f = self._changed_frame()
        return f"opens {full} from {self._where(f)}" if f else None

    def _unpickle(self, args: tuple):
        module, name = (*args, "", "")[:2]
        top = str(module).split(".")[0]
        if top in PICKLE_SAFE or top in self.roots or (top == "builtins" and name in PICKLE_BUILTINS):
            return None
        f = self._changed_frame()
        return f"unpickles {module}.{name} from {self._where(f)}" if f else None

    # -- pytest -------------------------------------------------------------------------------------------------
    def run_pytest(self, args: list, witness_module) -> int:
        """pytest in-process with the witness plugin and type-strict asserts (`swerl_witness.py`)."""
        import pytest
        from _pytest import runner

        runner._update_current_test_var = lambda item, when: None  # no PYTEST_CURRENT_TEST for code to read
        witness_module.install_strict_asserts(self)
        witness = witness_module.Witness(self)
        return int(pytest.main(list(args), plugins=[witness.plugin(pytest)]))

    def run_script(self, script: str, args: list) -> int:
        """A Python test script (Django's runtests.py, SymPy's bin/test) under the same guard; its exit code."""
        import runpy

        sys.argv = [script, *args]
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        self.armed = True
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exc:
            code = exc.code
            return code if isinstance(code, int) else (0 if code is None else 1)
        return 0


# -- code generated at run time for changed code -------------------------------------------------------------------
# What a library (dataclasses, collections.namedtuple, typing, inspect.get_annotations) generates for a class the patch
# defines: plain functions over `self` and the class's own fields. Names and text come from the patch (field names,
# annotation strings), so anything that reaches past the class is refused.
GENERATED_CALLS_DENIED = frozenset({"__import__", "eval", "exec", "compile", "getattr", "setattr", "delattr", "globals",
                                    "locals", "vars", "open", "breakpoint", "input"})
GENERATED_DUNDERS = frozenset({"__class__", "__init__", "__setattr__", "__delattr__", "__eq__", "__ne__", "__lt__",
                               "__le__", "__gt__", "__ge__", "__hash__", "__repr__", "__qualname__", "__name__",
                               "__post_init__", "__dataclass_fields__", "__dataclass_params__", "__match_args__",
                               "__slots__", "__getstate__", "__setstate__", "__new__", "__doc__", "__module__"})


def generated_code_finding(source):
    """Why code generated at run time under changed code reaches past its class (None: ordinary)."""
    try:
        text = source.decode("utf-8") if isinstance(source, (bytes, bytearray)) else source
        tree = ast.parse(text) if isinstance(text, str) else None
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return None  # compile itself will refuse it
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GENERATED_CALLS_DENIED:
            return f"calls {node.func.id}()"
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name and name.startswith("__") and name.endswith("__") and name not in GENERATED_DUNDERS and \
                not name.startswith(("__dataclass_", "__create_fn__")):
            return f"uses {name}"
        if isinstance(node, ast.Attribute) and node.attr in ("modules", "f_back", "f_locals", "f_globals", "tb_frame",
                                                              "gi_frame", "cr_frame", "f_code", "co_consts"):
            return f"reaches .{node.attr}"
    return None
