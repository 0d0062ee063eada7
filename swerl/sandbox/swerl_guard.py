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
- adding another audit hook; rewiring a function's `__code__` or an object's `__class__`;
- while tests run, any of those operations that no code on the stack asked for: the innermost frame must name
  it, and the first frame outside the standard library must name the library function it entered. A C callable
  fired by C code (a weakref callback, a `partial` in a slot) has no frame, so the frame it interrupted - which
  names neither - is what the guard sees.
The witness plugin and the type-strict asserts live in `swerl_witness.py`.
"""

import ast
import dis
import os
import pathlib
import sys
import threading
import types
import weakref

PROCESS = frozenset({"os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.startfile",
                     "subprocess.Popen", "os.kill", "os.killpg", "signal.pthread_kill", "pty.spawn"})
# Processes started from a program (not a fork of this one, not this one replaced): judged by the functions the patch
# wrote on the stack, not by every function of a file it touched (R46s-FP1); where the kernel seals the test files
# not at all (`Guard.sealed`: a program reads nothing the tests hold, R49s-FP2).
STARTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.spawn", "os.system"})
REACH = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._current_frames", "sys.settrace",
                   "sys.setprofile", "sys.monitoring.register_callback", "sys.monitoring.use_tool_id"})
CODE = frozenset({"exec", "compile", "marshal.loads", "marshal.load", "code.__new__", "function.__new__"})
FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code", "__code__", "f_back", "f_locals",
                         "f_globals", "gi_code", "cr_code", "__defaults__", "__kwdefaults__"})
FUNCTION_PARTS = ("__code__", "__defaults__", "__kwdefaults__")  # what a function holds that others may not read
# Reads that lead from any object to the rest of the process: a function's module globals and closure cells, a bound
# method's receiver and function. The interpreter raises no audit event for them, so the launcher marks their member
# descriptors audited before any project code runs (`audit_member_reads`); a read no code spells (a format field, a
# `getattr` with a computed name) by a function the patch wrote is a finding (`Guard._member_read`).
MEMBER_READS = frozenset({"__globals__", "__closure__", "__self__", "__func__"})
# What of `sys` hands out the live object graph: every module (the tests' among them), pytest's import hook holding
# its Config. Reads of other names (`sys.stdout`, `sys.version_info`) are not heard at all.
SYS_HUBS = frozenset({"modules", "__dict__", "meta_path", "path_hooks", "path_importer_cache"})
# What any module says about itself: never the tests' data
MODULE_FACTS = frozenset({"__name__", "__file__", "__spec__", "__loader__", "__path__", "__package__", "__cached__",
                          "__class__", "__doc__", "__all__", "__warningregistry__", "__builtins__", "__version__",
                          "__getattr__", "__dir__", "__annotations__"})
# What a test module says about itself that is no fact: its loader is pytest's import hook, which holds the session
# and every collected item (R64-8: `importlib.util.find_spec("tests.t").loader.session.items`)
TEST_MODULE_FACTS = MODULE_FACTS - {"__spec__", "__loader__"}
# The instructions that spell the attribute they read: such a read is in the source the host's scan judged
_SPELLED = frozenset({"LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM", "LOAD_SUPER_ATTR"})
PASSTHROUGH = frozenset({"inspect.py", "traceback.py", "dis.py", "linecache.py", "tokenize.py", "types.py"})
# Path operations that change a file without opening it: on a protected test file, conftest or the launcher's files
# they are what a write would be (a test replaced before collection, a record moved away).
MOVES = frozenset({"os.rename", "os.remove", "os.rmdir", "os.link", "os.symlink", "os.truncate", "os.chmod",
                   "os.chown", "os.utime", "shutil.copyfile", "shutil.move", "shutil.rmtree"})
WATCHED = PROCESS | REACH | CODE | MOVES | {"sys._getframe", "object.__getattr__", "open", "pickle.find_class",
                                    "sys.addaudithook", "object.__setattr__", "object.__delattr__", "sqlite3.connect",
                                    "os.chdir"}
# Writes that change what already-defined code does: a function's code, an object's or a class's type.
REWIRES = frozenset({"__code__", "__class__", "__bases__", "__defaults__", "__kwdefaults__"})
PICKLE_SAFE = frozenset({"collections", "datetime", "decimal", "fractions", "copyreg", "_codecs", "numpy", "pathlib",
                         "uuid", "enum", "re", "array", "ipaddress"})
PICKLE_BUILTINS = frozenset({"set", "frozenset", "bytearray", "complex", "slice", "range", "object", "list", "dict",
                             "tuple", "int", "float", "str", "bytes", "bool", "getattr"})
WATCH_MODULES = ("_pytest", "pytest", "pluggy", "unittest", "linecache", "_swerl_guard", "_swerl_witness")
_STDLIB = os.path.dirname(os.__file__)
_TYPING = os.path.join(_STDLIB, "typing.py")
_INSPECT = os.path.join(_STDLIB, "inspect.py")
_LOGGING = os.path.join(_STDLIB, "logging", "__init__.py")
_SELF = __file__
_LINES = (os.path.join(_STDLIB, "tokenize.py"), os.path.join(_STDLIB, "linecache.py"))
_TRACEBACK = os.path.join(_STDLIB, "traceback.py")
_EXCEPTION_TEXT = frozenset(("format_exc", "print_exc", "format_exception", "print_exception", "format_tb", "print_tb",
                             "extract_tb", "format_exception_only"))


class Quiet(str):
    """A refusal that is no finding: the operation fails as the file system would fail it (`OSError`), and nothing is
    recorded. Linecache asked for a test file's lines while the patch's code is on the stack: a traceback the code
    formats (`traceback.format_exc()`, `log.exception`) gets no source text for the tests' frames, and the tests'
    text reaches no one (round 74's FP9, FP14)."""
_BOOTSTRAP = "<frozen importlib._bootstrap>"
# The library code that may read frames while changed code is on the stack: it turns them into traceback text
# or a log record's caller (file, line, function name), never into values handed back. Whole files only where
# nothing in them formats a caller-supplied template; of `logging` only its caller lookup and traceback helpers
# (its `{`/`$` styles run `str.format` on a template the caller supplies: attribute walks by name).
_DOCTEST = os.path.join(_STDLIB, "doctest.py")
_FORMATTERS = frozenset(os.path.join(_STDLIB, n) for n in ("traceback.py", "linecache.py"))
_FRAME_READERS = frozenset((os.path.join(_STDLIB, "logging/__init__.py"), n) for n in (
    "findCaller", "currentframe", "<lambda>", "_is_internal_frame", "formatException", "formatStack", "handleError"))
# asyncio names a coroutine by its code (`gather`, a task's repr): a name, from a coroutine it was handed (R55-FP4)
_FRAME_READERS = _FRAME_READERS | {(os.path.join(_STDLIB, "asyncio/coroutines.py"), "_format_coroutine")}
_LAUNCH_DIR = os.path.dirname(os.path.abspath(__file__)) + "/"  # the launcher's own sources: no reading them
# the witness's ABC `register` and `__build_class__` wrappers read their caller's file and line, and its profiler (`_on_call`) the
# code of each call while a comparison runs; they hand nothing back
_FRAME_READERS = _FRAME_READERS | {(_LAUNCH_DIR + "swerl_witness.py", n) for n in ("register", "build_class",
                                                                                  "_xfail_by_test", "new_class",
                                                                                  "_on_call", "_receiver",
                                                                                  "_on_ids_call", "_test_caller",
                                                                                  "_for_tests", "_failed_here",
                                                                                  "_patch_line", "_read_values",
                                                                                  "_filled", "_project_callable",
                                                                                  "_nameable", "truncate_file", "_inputs_read")}
# What the code that performs an operation names (a part of one of its identifiers or string constants). A C
# callable that C code runs (a weakref callback, a `functools.partial` in a class slot) has no frame: the innermost
# frame is then whatever was running when it fired, and that code never asked for the operation.
OP_NAMES = {"sys._getframe": ("_getframe",), "os.system": ("system",), "os.fork": ("fork",), "os.forkpty": ("fork",),
            "os.exec": ("exec",), "os.posix_spawn": ("spawn",), "os.spawn": ("spawn",), "os.kill": ("kill",),
            "os.killpg": ("kill",), "signal.pthread_kill": ("kill",), "gc.get_objects": ("get_objects",),
            "gc.get_referrers": ("get_referrers",), "gc.get_referents": ("get_referents",),
            "sys._current_frames": ("_current_frames",), "sys.settrace": ("settrace",),
            "sys.setprofile": ("setprofile",), "open": ("open",)}
# What the import machinery calls on finders and loaders (and the path hook factory it calls for a directory).
_IMPORT_METHODS = frozenset({"find_spec", "find_module", "find_loader", "find_distributions", "create_module",
                             "exec_module", "load_module", "get_code", "get_data", "get_source", "get_filename",
                             "is_package", "source_to_code", "path_stats", "invalidate_caches", "path_hook_for_FileFinder",
                             "_path_importer_cache", "_path_hooks", "module_repr"})
_IMPLICIT = frozenset({"__init__", "__new__", "__call__", "__enter__", "__exit__", "__iter__", "__next__"})


def canonical(path: str, base: str = "/", _norm=os.path.normpath, _join=os.path.join, _real=os.path.realpath) -> str:
    """One spelling per file: joined to `base`, normalised, symlinks resolved, and the leading `//` that POSIX
    (and `normpath`) keep as a distinct root collapsed. Every path the guard compares goes through here, so
    `//testbed/x`, `/testbed/./x` and a link to it are all `/testbed/x` (functions bound at load)."""
    path = _norm(_join(base, path))
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    return _real(path)


def _function_of(item):
    """The plain function a test item runs (a bound method's `__func__`: pytest binds class tests to a fresh
    instance per test), or None."""
    try:
        obj = item.obj
    except Exception:
        return None
    return getattr(obj, "__func__", obj) if obj is not None else None


_AST_FILE = ast.__file__
_PATHLIB = (pathlib.PosixPath, pathlib.PurePosixPath, pathlib.WindowsPath, pathlib.PureWindowsPath)


_OPAQUE = object()  # a path-like whose `__fspath__` is its own: what it names to us it may not name to the opener


def _path_text(value):
    """An audited path argument as text: str and bytes as they are, an exact `pathlib` path by the stdlib's own
    text (`io.FileIO(Path(...))` and `shutil.move(Path(...), ...)` audit the object itself); `_OPAQUE` for any other
    path-like; None for what names no path (a descriptor, a mode)."""
    if isinstance(value, bytes):
        return os.fsdecode(value)
    if type(value) in _PATHLIB:
        return str(value)
    if type(value) is os.DirEntry:  # `shutil.copytree` copies each entry of its `scandir` (R72-FP3): a C type
        return os.fsdecode(value.path)
    if isinstance(value, str):
        return value
    return _OPAQUE if hasattr(type(value), "__fspath__") else None


def _fspath(value):
    """A path given as `str`, `bytes` or a path-like object, as `str` (None for anything else): a loader or
    `compile()` given a `pathlib.Path` names a file as surely as one given a string."""
    try:
        value = os.fspath(value)
    except TypeError:
        return None
    return os.fsdecode(value) if isinstance(value, bytes) else value if isinstance(value, str) else None


def _handed_text(item):
    """The path an argument names, where the code it was handed to cannot have changed it since: text, or a
    path of pathlib's own classes whose cached text agrees with its parts (a write to its `_str` slot does not).
    Not a list or dict, which the code could have written into."""
    if type(item) in (str, bytes):
        return _fspath(item)
    if not str(type(item).__module__).startswith("pathlib"):
        return None
    try:
        text = _fspath(item)
        return text if text == _fspath(type(item)(*item.parts)) else None
    except Exception:
        return None


_REBOUND = {}


def _rebound(code):
    """The local names a function's own code stores to or deletes, or that an inner function may rebind (cells):
    for a parameter among them, the frame's value now is not the argument it was called with (R42s-1)."""
    if code not in _REBOUND:
        names = set(code.co_cellvars)
        for ins in dis.get_instructions(code):
            if ins.opname.startswith(("STORE_FAST", "DELETE_FAST")):
                names.update(ins.argval if isinstance(ins.argval, tuple) else (ins.argval,))
        _REBOUND[code] = frozenset(names)
    return _REBOUND[code]


def _classify(workdir: str, changed: frozenset, protected: frozenset, filename: str, _canon=canonical,
              _base=os.path.basename) -> str:
    """A code file's class: changed by the patch, protected test (or conftest), other project code, library.
    Decided on the canonical path, so a file of the work tree is classified the same whatever its spelling
    (a package `__path__` entry of `//testbed/pkg` loads `//testbed/pkg/mod.py`: still changed)."""
    path = _canon(filename, workdir) if filename[:1] not in ("<", "") else ""
    if path in changed:
        return "changed"
    if path.startswith(workdir):
        return "test" if path in protected or _base(path) == "conftest.py" else "project"
    return "lib"


def _own_functions(workdir: str, originals) -> tuple:
    """((file, qualname), code) of each method the witness asks as the project wrote it, compiled from its source
    the host sent, here, before the hook is on and before any project code runs: the witness asks what the
    project's own would answer."""
    out = []
    for rel, pairs in sorted(dict(originals or {}).items()):
        for qualname, src in pairs:
            try:
                top = compile(str(src), "<the project's " + str(qualname) + ">", "exec")
            except (SyntaxError, ValueError, TypeError):
                continue
            code = next((c for c in top.co_consts if type(c) is type(top)), None)
            if code is not None:
                out.append(((canonical(workdir + str(rel)), str(qualname)), code))
    return tuple(out)


def _held_tables(workdir: str, tables) -> tuple:
    """((file, name, kind, ((key, word, value names), ...), (element names, ...)), ...) of the host's
    `held_tables`, keys evaluated here, before any project code runs."""
    out = []
    for rel, rows in sorted(dict(tables or {}).items()):
        for row in rows:
            try:
                name, kind, keys, elements = row
                keys = tuple((ast.literal_eval(str(k[0])), str(k[1]), tuple(str(n) for n in k[2])) for k in keys)
                hash(keys)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            out.append((canonical(workdir + str(rel)), str(name), str(kind), keys, tuple(str(e) for e in elements)))
    return tuple(out)


def _ids(paths: list, _stat=os.stat) -> list:
    """(st_dev, st_ino) of each existing path (following links: the file itself)."""
    out = []
    for p in paths:
        try:
            st = _stat(p)
        except (OSError, ValueError):
            continue
        out.append((st.st_dev, st.st_ino))
    return out


def _stdio_ids(_fstat=os.fstat) -> list:
    """Identity of the files behind stdout/stderr (the test log): opening them by any path writes into the log."""
    import stat

    out = []
    for fd in (1, 2):
        try:
            st = _fstat(fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            out.append((st.st_dev, st.st_ino))
    return out


_SHELLS = ("sh", "bash", "dash", "zsh", "ksh", "ash", "busybox")


def _is_python(word) -> bool:
    return isinstance(word, str) and os.path.basename(word).rstrip("0123456789.") == "python"


_INTERPRETERS = frozenset((*_SHELLS, "env", "perl", "ruby", "node", "awk", "gawk", "mawk", "xargs", "nice", "nohup",
                            "timeout", "setsid", "stdbuf", "tclsh", "php", "lua", "make"))


_LIB_ROOTS = tuple(sorted({os.path.realpath(p).rstrip("/") + "/" for p in (
    sys.prefix, sys.base_prefix, sys.exec_prefix, getattr(sys, "base_exec_prefix", sys.exec_prefix), _STDLIB)}))


def _made_at_run_time(name: str, workdir: str, changed=frozenset()) -> bool:
    """Code compiled from text at run time (`<string>`, `<record>`; not the interpreter's `<frozen ...>` modules or a
    doctest's examples, which are the tests' own, unless they are a changed module's docstrings, R44s-7), or from a
    file outside the work tree, the interpreter's library and the launcher's directory (a module a test wrote to
    tmp_path)."""
    if name.startswith("<doctest "):
        dotted = name[9:].split("[", 1)[0].split(".")
        for n in range(len(dotted), 0, -1):
            mod = sys.modules.get(".".join(dotted[:n]))
            home = getattr(mod, "__file__", None) if type(mod) in MODULE_CLASSES else None
            if type(home) is str:
                return canonical(home) in changed
        return False
    if name.startswith("<"):
        return not name.startswith("<frozen")
    if not os.path.isabs(name):
        return False
    real = os.path.realpath(name)
    return not (real.startswith(workdir) or real.startswith(_LIB_ROOTS) or real.startswith(_LAUNCH_DIR))


def _which(word: str, path: str, base: str):
    """The file a word names as a program: a path (relative to `base`), or a bare name looked up in PATH."""
    if "/" in word or not path:
        return canonical(word, base)
    for d in path.split(os.pathsep):
        cand = canonical(os.path.join(d or ".", word), base)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def _interpreter(line: str, path: str, base: str):
    """The interpreter file a `#!` line starts (through `env`, looked up in PATH)."""
    words = line[2:].split() if line.startswith("#!") else []
    if words and os.path.basename(words[0]) == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        return _which(rest[0], path, base) if rest else None
    return canonical(words[0], base) if words else None


def _shell_commands(text: str) -> list:
    """A shell script's simple commands as word lists, quotes taken off (split on `;`, `&`, `|`, newlines and
    parentheses); a command spelled through a variable is not seen."""
    import shlex

    out = []
    for part in text.replace("\n", ";").replace("&", ";").replace("|", ";").replace("(", ";").replace(")", ";") \
            .split(";")[:256]:
        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        if words:
            out.append(words)
    return out


def _own_child(event: str, args: tuple, _open=os.open, _read=os.read, _close=os.close, _getpid=os.getpid,
               _getpgid=os.getpgid) -> bool:
    """A signal (`os.kill`, `os.killpg`) to a process this one started, or to its process group: a pager or editor
    the fix started and now stops (click's `Popen.terminate`). Never this process, its parent or its own group."""
    if event not in ("os.kill", "os.killpg") or not args or type(args[0]) is not int or args[0] <= 1:
        return False
    target = args[0]
    try:
        if event == "os.killpg" and target == _getpgid(0):
            return False
        fd = _open(f"/proc/{target}/stat", os.O_RDONLY)
        try:
            stat = _read(fd, 1024).decode("ascii", "replace")
        finally:
            _close(fd)
        fields = stat[stat.rindex(")") + 2:].split()  # after the command name, which may hold spaces
        return target != _getpid() and int(fields[1]) == _getpid()  # its parent is this process
    except (OSError, ValueError, IndexError):
        return False


def _spawn(event: str, args: tuple):
    """(the program's words, the environment it gets - the caller's mapping where it can be written, else
    `os.environ` when none was given, else None - and its working directory) of a process-start event; None for
    any other event."""
    if event == "os.system":
        return ["/bin/sh", "-c", _fspath(args[0]) or ""] if args else [], os.environ, None
    if event not in ("subprocess.Popen", "os.exec", "os.posix_spawn") or len(args) < 2:
        return None
    argv = args[1] if isinstance(args[1], (list, tuple)) else [args[1]]
    argv = [w for w in (_fspath(x) for x in [args[0], *argv][:64]) if w]
    argv = argv[1:] if len(argv) > 1 and argv[0] == argv[1] else argv
    popen = event == "subprocess.Popen"
    env = args[3 if popen else 2] if len(args) > (3 if popen else 2) else None
    env = os.environ if env is None else env if hasattr(env, "__setitem__") else None
    return argv, env, _fspath(args[2]) if popen and len(args) > 2 else None


def _first_line(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(512).split(b"\n", 1)[0].decode("utf-8", "replace")
    except OSError:
        return ""


def _plain_python(line: str) -> bool:
    """A `#!` line that starts Python the child guard reaches: `#!/usr/bin/python3`, `#!/usr/bin/env python3`, with
    only flags from an allowlist that run no code and keep PYTHONPATH and `site` (`-s` only drops the user site,
    which the children lose anyway)."""
    if not line.startswith("#!"):
        return False
    words = line[2:].split()
    if words and os.path.basename(words[0]) == "env":
        words = words[1:]
        words = words[1:] if words and words[0] == "-S" else words  # `env -S python3 -u` (R45s-FP1)
    if not words or not _is_python(words[0]):
        return False
    # only flags that change no code run and keep PYTHONPATH and `site`: not `-c` (a program on the line, R45s-1),
    # `-W` (imports a warning category's module before `site`, R45s-3), `-X`, `-E`, `-I`, `-S`
    return all(w.startswith("-") and len(w) > 1 and set(w[1:]) <= set("suBObqvP") for w in words[1:])


def _unisolate_shell(argv: list) -> None:
    """`sh -c "python -E -m pkg"` (a `shell=True` command): each Python command in the script's text loses the same
    flags. The text is split on blanks and shell punctuation, so a command spelled through a variable is not seen."""
    if len(argv) < 3 or not all(isinstance(a, str) for a in argv[:3]) or os.path.basename(argv[0]) not in _SHELLS \
            or not argv[1].startswith("-") or "c" not in argv[1]:
        return
    out, words = [], argv[2].split(" ")
    i = 0
    while i < len(words):
        word = words[i]
        core = word.lstrip(";&|(`'\"\n\t").split("\n")[-1].split("\t")[-1]
        if not _is_python(core):
            out.append(word)
            i += 1
            continue
        j, line = i + 1, [core]
        while j < len(words) and words[j].strip("'\"").startswith("-"):  # a quoted flag is still one
            line.append(words[j].strip("'\""))
            j += 1
            if line[-1] in ("-X", "-W") and j < len(words):  # its value, the next word
                line.append(words[j])
                j += 1
        _unisolate_argv(line)
        out += [word, *line[1:]]
        i = j
    argv[2] = " ".join(out)


def _unisolate_argv(argv: list) -> None:
    """`python -E -m pkg` (or `-I`, `-s`, `-S`) ignores PYTHONPATH or `site` and with them the child guard: those
    flags are taken out of a Python command line, in place, before the process is made from it (its other flags
    stay)."""
    if not argv or not _is_python(argv[0]):
        return
    i = 1
    while i < len(argv) and isinstance(argv[i], str) and argv[i].startswith("-") and argv[i] != "-" \
            and not argv[i].startswith("--"):
        flag = argv[i]
        if flag[1] in "cm":  # `-c CODE` / `-m MOD`: the rest is the program's
            return
        if flag[1] in "WX":  # an option with its value, attached or the next argument
            i += 2 if len(flag) == 2 else 1
            continue
        kept = "-" + "".join(c for c in flag[1:] if c not in "IEsS")
        if kept == "-":
            del argv[i]
        else:
            argv[i] = kept
            i += 1


def _unisolate_spawns() -> tuple:
    """multiprocessing's spawn and forkserver children repeat the launcher's `-I` (`_args_from_interpreter_flags`),
    which drops PYTHONPATH and with it the child guard, and their start raises no audit event: they get the flags
    without isolation, so the child guard comes up in them too. Returns (module, function) pairs, which the launcher
    keeps as `Guard.spawn_flags` (sealed). Only the launcher runs with `-I`: a guarded child never has it."""
    import subprocess

    base = getattr(subprocess, "_args_from_interpreter_flags", None)
    if base is None:
        return ()

    def flags(_base=base):
        return [a for a in _base() if a not in ("-I", "-E", "-s", "-S", "-P")]

    mods = [subprocess]
    try:
        import multiprocessing.util as mp_util
        if hasattr(mp_util, "_args_from_interpreter_flags"):
            mods.append(mp_util)
    except ImportError:
        pass
    for m in mods:
        m._args_from_interpreter_flags = flags
    return tuple((m, flags) for m in mods)


_WITNESS = _LAUNCH_DIR + "swerl_witness.py"
_BODY_EVENTS = ("swerl.marked", "swerl.entered", "swerl.call", "swerl.escaped", "swerl.swallowed", "swerl.completed")


def _reaches_changed(inner, f) -> bool:
    """A project frame whose function names changed code (`if not rejected(exc): raise`, `rejected` imported from a
    module the patch changed): the decision it acts on is the patch's."""
    space, names = f.f_globals, f.f_code.co_names[:100]
    for name in names:
        v = space.get(name)
        for w in [getattr(v, n, None) for n in names] if type(v) in MODULE_CLASSES else [v]:
            code = getattr(w, "__code__", None)
            lines = [n for _, _, n in code.co_lines() if n] if hasattr(code, "co_lines") else []
            if code is not None and inner.wrote(code.co_filename, code.co_firstlineno,
                                                max([code.co_firstlineno, *lines])):
                return True  # a function whose own lines the patch wrote, not any of a touched file
    return False


def _around(inner, main: int, test, failure: bool) -> str:
    """The first frame around the test function that may have caught what left it: code the patch changed, or, for
    a test failure, any project code (an unchanged project decorator may catch its own control flow, a rejected
    example; never a failed assert); a project frame acting on a changed function's decision; or, where the test ran
    on a worker thread a project decorator started, that thread's caller."""
    if threading.get_ident() != main:
        return "the caller of the worker thread the test ran on"
    f = test.f_back
    while f is not None:  # the whole stack: 120 library frames between the test and the patch's `except` hid it
        kind = inner.frame_kind(f)  # behind a 100-frame window (R56-1)
        if kind == "changed" or (kind == "project" and (failure or _reaches_changed(inner, f))):
            return f"{f.f_code.co_filename}:{f.f_code.co_name}"
        f = f.f_back
    return ""


class _Turns:
    """A collected test's function runs only when pytest runs it: inside its own call, once on a worker thread a
    project decorator starts (a thread-based `@timeout`, R56-FP3) or on the main thread (any number of times:
    hypothesis). Run earlier (while collecting, R55-1), between tests, inside another test, in a forked copy of the
    test process (`preexec_fn`, R57-B1), or beside its own run on other threads (R57-B4: a nested run that never
    ends asks the witness its look-alike questions), its failure text tells the code that ran it what the test
    expects."""

    def __init__(self) -> None:
        self.main, self.pid = threading.get_ident(), os.getpid()
        self.tests: set = set()  # the collected tests' function names, once collection ended
        self.early: list = []  # test bodies that began before that
        self.now = None  # the function of the test whose call is running (None between calls)
        self.on_main, self.on_workers = False, 0  # where the running test's body began

    def start(self, name) -> None:
        self.now, self.on_main, self.on_workers = name or None, False, 0

    def collected(self, items) -> list:
        self.tests.update(getattr(i, "originalname", None) or str(getattr(i, "name", "")).split("[")[0] for i in items)
        found = [f"the test function {str(n)[:200]} ran while the tests were being collected"
                 for n in self.early if n in self.tests]
        self.early.clear()
        return found

    def entered(self, name, _ident=threading.get_ident, _getpid=os.getpid):
        """Why this start of test function `name` is out of turn, or None."""
        if _getpid() != self.pid and (name in self.tests or (not self.tests and str(name).startswith("test"))):
            # (a helper of the test file may run in a pool's forked worker: `pool.map(square, ...)`)
            return f"the test function {str(name)[:200]} ran in a forked copy of the test process"
        if not self.tests:
            self.early.append(name)
            return None
        if name not in self.tests:
            return None
        worker = _ident() != self.main
        if name != self.now:
            where = f"inside {self.now}" if self.now else "on a worker thread" if worker else "between tests"
            return f"the test function {str(name)[:200]} ran {where}, not when pytest ran it"
        self.on_main, self.on_workers = self.on_main or not worker, self.on_workers + worker
        if self.on_workers and (self.on_main or self.on_workers > 1):
            return f"the test function {str(name)[:200]} began more than once in its own call, on a worker thread"
        return None


def _passed_body(nodeid, name, entered, escaped, hidden, names):
    """What makes a passed test's call suspect (see `_body_watch`), or None."""
    if hidden:
        key, what = next(iter(hidden.items()))
        line = key // 1000 if type(key) is int else key  # the witness's key: line x 1000 + the item's place
        return (f"{str(nodeid)[:500]}: passed, although an {what[:200]} in its `with` at line {line}, and that "
                "block never completed")
    if name in escaped:
        return (f"{str(nodeid)[:500]}: passed, although an exception left its test function {str(name)[:200]} and "
                f"{escaped[name][:300]} around it swallowed it")
    if name in names and name not in entered:
        return (f"{str(nodeid)[:500]}: passed, but its test function {str(name)[:200]} never began to run "
                "(something else ran in its place)")
    return None


def _body_watch(inner, emit, _getframe=sys._getframe):
    """Which test bodies began to run, and which ended by an exception. The rewriter starts every top-level function
    and method of a file it compiles (test files and the modules beside them) with an announcement
    (`swerl.entered`), accepted only from the witness's entry called by a frame of that very function (file and
    name), and wraps its body so that an exception leaving it is announced too (`swerl.escaped`). Between the
    witness's `start` and `end` of a passed test:
    - a test whose name such a file defines must have announced itself, else something else ran in its place (a
      library function claiming the test as its `__wrapped__`, an unchanged project function);
    - its test function must not have ended by an exception that project code around it then swallowed (a
      decorator the patch changed that catches the failure; a library wrapper's own control flow, hypothesis's
      rejected examples, is not project code).
    And a test's body runs only in its turn (`_Turns`): the handler returns why not, and the hook vetoes it.
    Returns the handler and what to call with the collected items."""
    marked, entered = set(), set()  # (file the rewriter compiled, function name); names that began this test
    names: set = set()  # the function names of `marked`, looked up once per test
    escaped: dict = {}  # test function name -> the project frame around it when an exception left it
    hidden: dict = {}  # line of a test file's `with` -> the test failure its exit swallowed, until it completes
    turns = _Turns()

    def on_collected(items) -> None:
        for found in turns.collected(items):
            emit("finding", found)

    def handle(event: str, args: tuple):
        caller = _getframe(2)  # this (0), the hook (1), whoever called sys.audit (2)
        if caller is None or caller.f_code.co_filename != _WITNESS:
            return None
        test = caller.f_back
        code = test.f_code if test is not None else None
        own = bool(args) and code is not None and code.co_name == args[0] and (code.co_filename, args[0]) in marked
        if event == "swerl.marked" and args:
            marked.update((str(args[0]), str(a)) for a in args[1:])
            names.update(str(a) for a in args[1:])
        elif event == "swerl.entered" and own:
            entered.add(args[0])
            return turns.entered(args[0])
        elif event == "swerl.escaped" and own:
            where = _around(inner, turns.main, test, len(args) < 2 or args[1] is not False)
            if where:
                escaped.setdefault(args[0], where)
        elif event == "swerl.swallowed" and len(args) == 2:
            hidden[args[0]] = str(args[1])
        elif event == "swerl.completed" and args:
            hidden.pop(args[0], None)
        elif event == "swerl.call" and len(args) == 3 and caller.f_code.co_name in ("pytest_runtest_call", "report"):
            nodeid, name, phase = args
            turns.start(name if phase == "start" else None)
            if phase == "start":
                entered.clear()
                escaped.clear()
                hidden.clear()
            else:
                found = _passed_body(nodeid, name, entered, escaped, hidden, names)
                if found:
                    emit("finding", found)
        return None

    return handle, on_collected


def _writes(args: tuple) -> bool:
    """An `open` audit event's mode or flags write."""
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    return (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
        isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)))


def _held_watch(inner, emit, cap: int = 5000, per_site: int = 256, said_cap: int = 2000, _getframe=sys._getframe):
    """Where an `==` of a test file held: the witness's comparison announces each yes (`swerl.held`) with the
    (line, column) the rewritten assert wrote into the test code as a constant, or none (unittest's wrapped
    `assertEqual`); the file comes from the frames, the test code that called the comparison, and the line too
    when there is no position. Only the witness's own code called from a protected test file is heard: other
    code could only claim more held comparisons, never fewer, and cannot fill the cap with made-up ones. Every one once, in every run alike; only the grader's blind run reads them
    (`swerl/sandbox/blind.py`: expected values changed on the host), where a changed one that held was answered
    from the tests' own data."""
    seen: set = set()
    said: dict = {}  # site -> the (left, right) digests said there (`Blind.answered`), at most `per_site` of them
    total = [0]  # pairs said so far: past `said_cap`, one ["*"] line says the record of them is not whole

    def handle(args: tuple) -> None:
        caller = _getframe(2)  # this (0), the hook (1), whoever called sys.audit (2)
        if caller is None or caller.f_code.co_filename != _WITNESS or (len(seen) >= cap and total[0] > said_cap):
            return
        test = caller.f_back
        while test is not None and test.f_code.co_filename == _WITNESS:
            test = test.f_back
        if test is not None and inner.kind(test.f_code.co_filename) == "test":  # a protected test's own `==`: the
            # witness's functions called from anywhere else (they are reachable) claim nothing, nor fill the cap
            at = args[0] if args else None
            where = at if type(at) is tuple and len(at) == 2 and all(type(v) is int for v in at) else \
                (test.f_lineno, -1)
            site = (test.f_code.co_filename, *where)
            sides = args[1] if len(args) > 1 and type(args[1]) is tuple and len(args[1]) == 3 else (None, None, True)
            if sides[0] is not None and sides[1] is not None and total[0] <= said_cap:
                total[0] += _said_at(said, site, sides[:2], emit, per_site)
                if total[0] > said_cap:
                    emit("held", ["*"])
            if sides[2] is True and site not in seen and len(seen) < cap:
                seen.add(site)
                emit("held", list(site))

    return handle


def _said_at(said: dict, site: tuple, sides: tuple, emit, per_site: int) -> int:
    """Each new pair of digests an `==` of a test file compared at `site`, as [file, line, column, left, right];
    past `per_site` pairs the site is marked full ("*", "*"), and the grader judges it no more. 1 where it said one."""
    pairs = said.setdefault(site, set())
    if sides in pairs or len(pairs) > per_site:
        return 0
    pairs.add(sides)
    emit("held", [*site, *(sides if len(pairs) <= per_site else ("*", "*"))])
    return 1


# -- reads no code spells -----------------------------------------------------------------------------------------
def _writable_spans(_open=open) -> list:
    """(start, end) of this process's writable memory mappings; none where /proc cannot be read."""
    out = []
    try:
        with _open("/proc/self/maps") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) > 1 and "w" in parts[1]:
                    start, end = parts[0].split("-")
                    out.append((int(start, 16), int(end, 16)))
    except (OSError, ValueError):
        return []
    return out


def audit_member_reads(names=MEMBER_READS) -> list:
    """Mark `MEMBER_READS` of functions and bound methods as audited, as CPython marks a frame's `f_code`: from then
    on every read raises `object.__getattr__`. Their `PyMemberDef`'s flags get `PY_AUDIT_READ` through ctypes,
    before any project code runs, only where the descriptor's own name matches and its memory is writable (another
    build of the interpreter keeps them unheard, and the record says so). Returns the names marked."""
    try:
        import ctypes
    except ImportError:
        return []

    class Member(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("offset", ctypes.c_ssize_t),
                    ("flags", ctypes.c_int)]

    spans, word, size, done = _writable_spans(), ctypes.sizeof(ctypes.c_void_p), ctypes.sizeof(Member), []
    for owner in (types.FunctionType, types.MethodType):
        for name in sorted(names):
            descr = owner.__dict__.get(name)
            if type(descr) is not types.MemberDescriptorType:
                continue
            at = ctypes.c_void_p.from_address(id(descr) + 5 * word).value  # head (2), d_type, d_name, d_qualname
            if not at or not any(a <= at and at + size <= b for a, b in spans):
                continue
            member = Member.from_address(at)
            if member.name == name.encode():
                member.flags |= 2  # PY_AUDIT_READ
                done.append(name)
    return done


def watched_module_classes(_audit=getattr(sys, "audit", None), _get=types.ModuleType.__getattribute__,
                           _plain=types.ModuleType) -> tuple:
    """(`sys`'s class, the test modules' class): module classes whose attribute reads the guard hears
    (`swerl.read`), `sys` only for `SYS_HUBS`, a test module for anything but what a module says about itself or
    a module it holds. Instantiating either makes a plain module (importlib creates modules as `type(sys)(name)`)."""

    def new(cls, *args, **kwargs):
        return _plain(*args, **kwargs)

    def read_sys(self, name, _get=_get, _audit=_audit, _hubs=SYS_HUBS):
        value = _get(self, name)
        if name in _hubs:
            _audit("swerl.read", self, name, value)
        return value

    def read_tests(self, name, _get=_get, _audit=_audit, _facts=TEST_MODULE_FACTS, _plain=_plain, _sub=issubclass,
                   _type=type):
        value = _get(self, name)
        if name not in _facts and not _sub(_type(value), _plain):
            _audit("swerl.read", self, name, value)
        return value

    made = tuple(type(n, (_plain,), {"__slots__": (), "__new__": new, "__getattribute__": f, "__module__": "_swerl_guard"})
                 for n, f in (("module", read_sys), ("module", read_tests)))
    return made


# the exact classes a module has while the guard runs: the plain one and the two watched ones (`type(sys)` is no
# longer `ModuleType` once `install` ran)
MODULE_CLASSES = (types.ModuleType, *watched_module_classes())


def _module_read(inner, module, name: str, value, reader, tests: bool, made: list,
                 _get=types.ModuleType.__getattribute__):
    """For `_read_watch`: why a watched module's attribute read is the patch's (`Guard.unspelled`), or None."""
    home = _get(module, "__name__")
    if tests and name == "__dict__":
        claims = [c for c in (r() for r in made) if c is not None and type.__dict__["__dict__"].__get__(c).get(
            "__module__") == home]
        if claims:  # a library resolving the class's names where it claims to live (R65-12: `__module__` set
            return (f"reads {home}.__dict__ while {claims[0].__qualname__}, a class the patch built, claims "
                    "it as its home")  # after the class was built, then `inspect.get_annotations`)
    if tests and reader is not None and (isinstance(value, type) or (
            type(value) is types.FunctionType and inner._reader_kind(reader) == "lib")) and \
            getattr(value, "__qualname__", None) == name and getattr(value, "__module__", None) == home and \
            (inner._op(reader) or ("",))[0] not in _SPELLED:
        return None  # C code looking a class up by its own name (pickle of a test's class; of a test's function
        # for a library: multiprocessing's task thread)
    if tests and name not in MODULE_FACTS and inner.handed_module(reader, module):
        return None  # the test handed the module itself to the code it called (Flask's `from_object(settings)`)
    return inner.unspelled(reader, name, f"{home}.{name}", project=not tests, data=tests,
                           loader=tests and name in MODULE_FACTS)


def _read_watch(inner, classes, _getframe=sys._getframe, _get=types.ModuleType.__getattribute__, _plain=types.ModuleType):
    """For `Guard._make_hook`: the handler of `swerl.read` (judged by `Guard.unspelled`), what puts the test modules
    loaded so far under watch (each also as the import system sets it up, before its code runs: `swerl.loaded`),
    and what finds the watch undone (a module given back its plain class, a class given another reader: plain
    writes no event reports)."""
    watched_sys, watched_tests = classes
    readers = {c: c.__dict__["__getattribute__"] for c in classes}
    codes = frozenset(f.__code__ for f in readers.values())
    watched: list = []
    seen = [0]
    made: list = []  # weak references to the classes the patch built (`swerl.patchclass`, from the witness)

    def handle(args: tuple):
        caller = _getframe(2)  # this (0), the hook (1), the watched class's `__getattribute__` (2)
        if caller is None or caller.f_code not in codes or len(args) != 3:
            return None
        module, name, value = args
        return _module_read(inner, module, str(name), value, caller.f_back, type(module) is watched_tests, made)

    def watch_one(m) -> None:
        if type(m) is _plain:
            path = _get(m, "__dict__").get("__file__")
            if type(path) is str and inner.kind(path) == "test":
                try:
                    m.__class__ = watched_tests
                    watched.append(m)
                except TypeError:
                    return

    def patch_class(args: tuple) -> None:
        try:
            made.append(weakref.ref(args[0]))
        except (TypeError, IndexError):
            return

    def loaded(args: tuple) -> None:  # the witness's import wrapper: a module whose code has not run yet (R64-11:
        if args:  # a thread the patch started at import read a test module loaded before collection ended)
            watch_one(args[0])

    def watch(_modules=sys.modules) -> None:
        if len(_modules) == seen[0]:
            return
        seen[0] = len(_modules)
        for m in list(_modules.values()):
            watch_one(m)

    def undone():
        if any(c.__dict__.get("__getattribute__") is not f for c, f in readers.items()) or \
                any(type(m) is not watched_tests for m in watched) or (inner.sys_watched and type(sys) is not watched_sys):
            return "the grader's watch on module reads was undone (a module's class or reader rebound)"
        return None

    return handle, watch, undone, loaded, patch_class


def _tmp_path_of(request, factory):
    """A test's `tmp_path`, named after its function only: pytest names it after the test's id, and a
    parametrized id holds the test's arguments, its expected value among them (`test_read_size_3k_3000_0`), for
    any code that lists /tmp or its working directory to read (R51s-2)."""
    name = getattr(request.node, "originalname", None) or str(request.node.name).split("[", 1)[0]
    return factory.mktemp("".join(c if c.isalnum() else "_" for c in name)[:30], numbered=True)


def test_dirs(workdir: str, protected) -> tuple:
    """The outermost `tests`, `test` or `testing` directory above each protected file, each ending in "/" (none for a
    test file in a directory of no such name: a package's own `test_x.py` beside its code). The host's helper search
    (`launch.test_helpers`, `workdir` "" and relative paths) keeps to the same directories."""
    roots = set()
    for path in protected:
        parts = path[len(workdir):].split("/")[:-1]
        cut = next((i for i, part in enumerate(parts) if part in ("tests", "test", "testing")), None)
        if cut is not None:
            roots.add(workdir + "/".join(parts[:cut + 1]) + "/")
    return tuple(sorted(roots))


def _within(full: str, given: str) -> bool:
    """`full` is the file or directory `given` names, or lies under it (a file handed over inside its directory)."""
    return full == given or full.startswith(given.rstrip("/") + "/")


def _imported(full: str) -> bool:
    """`full` is the file of a module this process imported (a test's helper module, not a data file of the tests
    that project code reads: sphinx's test roots, pylint's functional inputs)."""
    name = os.path.basename(full)
    for mod in list(sys.modules.values()):
        where = getattr(mod, "__dict__", {}).get("__file__")
        if type(where) is str and where.endswith(name) and (where == full or canonical(where) == full):
            return True
    return False


def _launch_files() -> list:
    try:
        return [os.path.join(_LAUNCH_DIR, n) for n in os.listdir(_LAUNCH_DIR)]
    except OSError:
        return []


def _final_writer(emit, closer, changed_frame, main: int, _getframe, _ident):
    """The writer of the record's last line, for `Guard._make_hook`'s hook: its once-only flag lives in its
    closure, where no object the tests can reach holds it."""
    finish_code = Guard.finish.__code__
    ended = []

    def write_final(args: tuple) -> None:
        """The last line: only `Guard.finish` called by the launcher's own `closer` code, once, on the main
        thread with no changed code on the stack; anything else is a finding."""
        data = args[0] if args else None
        f = _getframe(2)
        caller = f.f_back
        if (f.f_code is not finish_code or caller is None or caller.f_code is not closer or _ident() != main
                or ended or changed_frame() is not None or not isinstance(data, dict)):
            emit("finding", f"a final record line was requested from {f.f_code.co_filename}:{f.f_lineno}")
            return
        ended.append(True)
        emit("final", data)

    return write_final


def _outcome_writers(guard, emit, writer, collector, changed_frame, main: int, _getframe, _ident, then) -> tuple:
    """The writers of the collection announcement (handing accepted items on to `then`) and of test outcomes, for
    `Guard._make_hook`'s hook: they share the collected items in their closure, so an outcome counts only for an
    item announced at collection."""
    outcome_code, collected_code = Guard.outcome.__code__, Guard.collected.__code__
    collected: dict = {}  # id(item) -> (item, its node id at collection): outcomes are keyed by the object

    def write_collected(args: tuple) -> None:
        """The session's items, announced once by the witness at the end of collection: from then on an
        outcome names the node id its item had then, whatever its `nodeid` says now."""
        items = args[0] if args else ()
        f = _getframe(2)
        caller = f.f_back
        if (collected or collector is None or f.f_code is not collected_code or caller is None
                or caller.f_code is not collector or _ident() != main or changed_frame() is not None):
            emit("finding", f"a test collection was announced from {f.f_code.co_filename}:{f.f_lineno}")
            return
        for item in items:
            collected[id(item)] = (item, str(getattr(item, "nodeid", "?")), _function_of(item))
        then(items)

    def write_outcome(args: tuple) -> None:
        f = _getframe(2)  # 0 this, 1 hook, 2 the code that raised the event
        caller = f.f_back
        if f.f_code is not outcome_code or caller is None or caller.f_code is not writer or _ident() != main:
            emit("finding", f"a test outcome was written from {f.f_code.co_filename}:{f.f_lineno}")
        elif changed_frame() is not None:
            emit("finding", f"a test outcome was written with {guard._where(changed_frame())} on the stack")
        else:
            item, phase, status, forged = args
            entry = collected.get(id(item)) if collector is not None else (item, str(item), None)
            if entry is None or entry[0] is not item:  # a copy, or an item added after collection
                emit("finding", f"an outcome for a test that was not collected ({getattr(item, 'nodeid', '?')})")
                return
            if phase == "call" and entry[2] is not None and _function_of(item) is not entry[2]:
                emit("finding", f"{entry[1]} ran a function other than the one collected for it")
                return
            # (several call outcomes per id are pytest's own: subtests report each one under the test's id)
            emit("outcome", {"node": entry[1], "phase": phase, "status": status, "forged": forged})

    return write_collected, write_outcome


def _swerl_events(guard, inner, emit, writer, closer, collector, classes, _getframe, _ident) -> tuple:
    """For `Guard._make_hook`: the test-body handler, and the handlers of each event the launcher's own code raises
    (`swerl.*`), which the hook calls in turn, each directly (a writer checks who raised its event two frames up),
    each returning the reason to veto or None. The watch on module reads catches up with the test modules loaded
    so far when collection begins and ends and at each outcome, where it is also found undone."""
    changed_frame, main = inner._changed_frame, _ident()
    bodies, bodies_collected = _body_watch(inner, emit)
    write_final = _final_writer(emit, closer, changed_frame, main, _getframe, _ident)
    write_collected, write_outcome = _outcome_writers(guard, emit, writer, collector, changed_frame, main,
                                                      _getframe, _ident, bodies_collected)
    reads, watch, undone, loaded, patch_class = _read_watch(inner, classes)

    def arm(args: tuple) -> None:  # the witness's collection hook: from here on the rules for tests apply
        inner.armed = True

    def taint(args: tuple) -> None:  # code that counts as the patch's (only ever added)
        inner.tainted.update(c for c in (args[0] if args else ()) if type(c) is types.CodeType)

    def watch_now(args: tuple) -> None:  # and the modules a test imported, from its next phase on
        watch()
        found = undone()
        if found:
            emit("finding", found)

    return bodies, {"swerl.finding": (lambda args: emit("finding", str(args[0])[:2000] if args else ""),),
                    "swerl.arm": (arm, watch_now), "swerl.taint": (taint,),
                    "swerl.outcome": (write_outcome, watch_now), "swerl.collected": (write_collected, watch_now),
                    "swerl.final": (write_final,), "swerl.held": (_held_watch(inner, emit),), "swerl.read": (reads,),
                    "swerl.loaded": (loaded,), "swerl.patchclass": (patch_class,)}


class Guard:
    """Audit-hook rules plus the findings list that the launcher signs."""

    canonical = staticmethod(canonical)
    # the hook's copy only (`_make_hook`): the kernel seal of more files on the calling thread and the servers' store
    # of their bytes (`_seal_data`)
    seal_more = serve_more = None
    child = False  # a guard in a Python process the tests started (`pytest_runner._CHILD_BOOT` sets it)

    def __init__(self, workdir: str, changed: list, tests: list, private: list, emit=None, child_path=None,
                 lines=None, originals=None, tables=None, unscanned=None, added=None, sealed=False,
                 doctests=None) -> None:
        self.workdir = os.path.realpath(workdir).rstrip("/") + "/"
        # the kernel seals the test files from every process of the sandbox, the record is masked and the tests'
        # output held in memory: a program the patch starts reads nothing changed code may not (R49s-FP2)
        self.sealed = sealed is True
        # changed files the host's scan could not parse: none of their code may run (R51s-3)
        self.unscanned = frozenset(canonical(self.workdir + str(p)) for p in unscanned or ())
        # the lines the patch added to any changed file: code compiled at run time from text holding one of them is
        # the patch's when it runs, whoever compiled it (a template, a string constant, R52-2)
        self.added = frozenset(str(x) for x in added or ())
        self._steered: set = set()  # names such code was compiled under, until its code object is seen
        self.child_path = child_path  # the child guard's directory: every Python child starts with it on its path
        self.main_ident = threading.get_ident()  # the thread pytest runs the tests on
        self.data_sealed, self._loose = set(), {}  # threads `_seal_data` sealed; `_data_file`'s directory cache
        self.children_channel = None  # the launcher's: (findings file descriptor, its identity, [offset read])
        self._made = {}  # code file name -> compiled at run time (`_made_at_run_time`)
        self.changed = frozenset(canonical(self.workdir + c) for c in changed)
        self._host_code(lines, originals, tables, doctests)
        self.protected = frozenset(canonical(self.workdir + t) for t in tests)
        # the test directories (the outermost `tests`, `test` or `testing` directory above a protected file): the
        # modules the tests import from there (`tests/cases.py` with the expected values, R47s-2, also above a
        # `tests/unit/test_x.py`, R48s-3) are theirs too
        self.test_roots = test_dirs(self.workdir, self.protected)
        # data files of the test directories (a cases table, a golden output): those the tests read, and where
        # changed code read one that no test handed it (`_test_data`)
        self.test_data: set = set()
        self.data_readers: dict = {}
        self.private = frozenset(canonical(p) for p in private)
        # the same files by identity (device, inode): a hard link, bind mount or any other name still matches
        self.guarded_ids = frozenset(_ids([*self.protected, *self.private, *_launch_files()]) + _stdio_ids())
        self.proc_dev = _ids(["/proc/self"])[0][0] if _ids(["/proc/self"]) else -1
        # where library code lives (the interpreter's own path, before the work tree is added): a module that
        # changed code imports from anywhere else outside the work tree (a file it wrote to /tmp) is not a library
        self.lib_roots = tuple(sorted({canonical(p) + "/" for p in [_STDLIB, *sys.path] if p and p.startswith("/")
                                       and not canonical(p).startswith((self.workdir.rstrip("/"), "/tmp", "/var/tmp",
                                                                        "/dev/shm"))}))
        self.findings: list = []
        self._emit = emit
        self.armed = False
        self._kinds: dict = {}
        self.probes: list = []  # set by the witness module's strict asserts
        self.tainted: set = set()  # code objects compiled from strings under changed code
        self._wrote_codes: dict = {}  # code -> the patch wrote a line of it (`_wrote_function`)
        self._ops: dict = {}  # code -> (offset -> (instruction, argument)), its string constants (`_spelled`)
        self.sys_watched = False  # `sys` read through `watched_module_classes` (set by `install`)
        self.test_written, self.test_files = set(), set()  # what the tests wrote: modules, other files (`_data_file`)
        self.watch = WATCH_MODULES
        self.installed = False
        try:
            self.roots = frozenset(n[:-3] if n.endswith(".py") else n for n in os.listdir(self.workdir))
        except OSError:
            self.roots = frozenset()

    def _host_code(self, lines, originals, tables, doctests) -> None:
        """What the host read of the changed code (`grade.changed_code`), as tuples: nothing the tests reach can
        edit it in place."""
        # the lines of a changed file the patch wrote ((first, last) ranges); a changed file not named: all of it
        self.lines = tuple((canonical(self.workdir + k), tuple((int(r[0]), int(r[1])) for r in v))
                           for k, v in sorted(dict(lines or {}).items()))
        # the project's own code of each `__len__`/`__bool__` the patch edited, and of the methods it reaches
        self.originals = _own_functions(self.workdir, originals)
        # the project tables the tests loop over, as their modules' literals define them (`_held_tables`)
        self.tables = _held_tables(self.workdir, tables)
        # each changed file's doctests, which of them the patch edited or removed (`tamper.doctest_map`)
        self.doctests = tuple((canonical(self.workdir + k), tuple(tuple(x) for x in v.get("spans", ())),
                               tuple(v.get("removed", ())), int(v.get("built", 0)))
                              for k, v in sorted(dict(doctests or {}).items()))

    # -- classification ---------------------------------------------------------------------------------------
    def wrote(self, filename: str, first: int, last: int, whole: bool = False) -> bool:
        """Lines `first`..`last` of `filename` hold code the patch wrote: any of them changed or added, or with
        `whole` every one of them (a function the patch added or rewrote, not one it fixed a line in)."""
        if self.kind(filename) != "changed":
            return False
        path = canonical(filename)
        spans = next((v for k, v in self.lines if k == path), None)
        if spans is None:
            return True
        if not whole:
            return any(a <= last and first <= b for a, b in spans)
        at = first
        for a, b in sorted(spans):
            if a <= at <= b:
                at = b + 1
        return at > last

    def originals_of(self, filename: str, cls: str) -> dict:
        """The project's own code of the methods of class `cls` the host sent (see `_own_functions`), by name."""
        path = canonical(filename)
        return {q.rsplit(".", 1)[1]: code for (f, q), code in self.originals
                if f == path and q.rsplit(".", 1)[0] == cls}

    def kind(self, filename: str, _classify=_classify) -> str:
        k = self._kinds.get(filename)
        if k is None:
            k = self._kinds[filename] = _classify(self.workdir, self.changed, self.protected, filename)
        return k

    def _stack(self, limit: int = 1 << 30, _getframe=sys._getframe):
        """The audited code's frames, innermost first (the guard's own frames skipped; `sys._getframe` bound when
        the launcher loaded this file, so rebinding it in `sys` fools nothing), all of them: a library's recursion
        (`copy.deepcopy`) must not push the patch's frame out of view (R44s-9)."""
        f = _getframe()
        while f is not None and f.f_code.co_filename == _SELF:
            f = f.f_back
        n = 0
        while f is not None and n < limit:
            yield f
            f = f.f_back
            n += 1

    def frame_kind(self, f) -> str:
        """A frame's class; code compiled from a string while changed code was on the stack counts as changed."""
        code = f.f_code  # read once: each read is an audit event that re-enters the hook
        return "changed" if code in self.tainted else self.kind(code.co_filename)

    def _changed_frame(self):
        for f in self._stack():
            if self.frame_kind(f) == "changed":
                return f
        return None

    def _innermost(self, skip_passthrough: bool = False):
        """The innermost frame; with `skip_passthrough`, past the library code that hands frames back to its caller
        (`inspect`, `traceback`, ..., and `logging.currentframe`, a lambda over `sys._getframe`)."""
        for f in self._stack():
            name = f.f_code.co_filename
            if skip_passthrough and name.startswith(_STDLIB) and (
                    os.path.basename(name) in PASSTHROUGH or (f.f_code.co_name == "<lambda>" and name == _LOGGING)):
                continue
            return f
        return None

    @staticmethod
    def _where(f) -> str:
        return f"{f.f_code.co_filename}:{f.f_lineno}"

    # -- the hook -------------------------------------------------------------------------------------------------
    def install(self, writer=None, closer=None, collector=None, seal=None, serve=None) -> None:
        """Audit hooks exist from Python 3.8: older test environments (some SWE-bench images run 3.6) are graded
        with the witness, the strict asserts and the signed record, and the record says the guard was off. Before
        the hook: the reads no event reports made heard (`audit_member_reads`, `sys` read through its watched
        class), while no project code has run."""
        if not hasattr(sys, "addaudithook"):
            if self._emit is not None:
                self._emit("note", "runtime guard unavailable (Python < 3.8)")
            return
        unheard = sorted(MEMBER_READS - set(audit_member_reads()))
        classes = MODULE_CLASSES[1:]
        try:
            sys.__class__ = classes[0]
            self.sys_watched = True
        except TypeError:
            unheard.append("sys")
        if unheard and self._emit is not None:
            self._emit("note", f"reads not heard on this interpreter: {', '.join(unheard)}")
        sys.addaudithook(self._make_hook(self._emit, writer, closer, collector, classes, seal, serve))
        self._emit = None  # from here on only the hook holds the emitter
        self.installed = True

    def _make_hook(self, emit, writer, closer=None, collector=None, classes=None, seal=None, serve=None,
                   _getframe=sys._getframe, _ident=threading.get_ident):
        """The hook, its re-entry flag and the record's emitter live in a closure that only the interpreter's hook
        list holds: no object the tests can reach switches the guard off or writes a record line. Findings and
        outcomes reach it as audit events; an outcome counts only when `Guard.outcome` raised it for `writer`
        (the witness's report) on the main thread with no changed code on the stack."""
        busy = threading.local()
        # the hook decides on a private copy: the public guard is reachable (through pytest's plugin objects), and a
        # plain write to its caches or sets - poison, act, restore before the next report - is seen by no event
        inner = self.private_copy()
        inner.seal_more, inner.serve_more = seal, serve  # capabilities no object the tests reach holds
        check = inner._check
        bodies, own = _swerl_events(self, inner, emit, writer, closer, collector, classes or MODULE_CLASSES[1:],
                                    _getframe, _ident)

        def hook(event: str, args: tuple) -> None:
            if event not in WATCHED and not event.startswith(("ctypes.", "swerl.")):
                return
            if getattr(busy, "on", False):
                return
            busy.on = True
            try:
                reason = None
                for handler in own.get(event, ()):
                    reason = handler(args) or reason
                if event not in own:
                    reason = bodies(event, args) if event in _BODY_EVENTS else check(event, args)
            except Exception as exc:  # a rule must never break the run; record that it could not decide
                reason = None if event == "open" else f"guard error on {event}: {type(exc).__name__}"
            finally:
                busy.on = False
            if type(reason) is Quiet:
                raise PermissionError(13, "swerl grading guard: " + reason)
            if reason:
                emit("finding", reason)
                raise RuntimeError(f"swerl grading guard: {reason}")

        return hook

    def private_copy(self) -> "Guard":
        """The same rules over state no one else holds: its own classification cache and tainted set (the file
        sets and paths are immutable). The hook and the frozen comparison functions each decide on one."""
        twin = object.__new__(Guard)
        twin.__dict__.update(self.__dict__)
        twin._kinds, twin.tainted, twin.findings, twin._emit = {}, set(self.tainted), [], None
        twin._wrote_codes, twin._steered, twin._ops = {}, set(self._steered), {}
        twin.test_written, twin.test_files = set(self.test_written), set(self.test_files)
        twin.data_sealed, twin._loose = set(), {}
        return twin

    def record(self, reason: str, _audit=getattr(sys, "audit", None)) -> None:
        """A finding goes out at once as a signed record line (through the hook once installed; the emitter drops
        repeats): nothing written to `findings` silences a later one."""
        self.findings.append(reason)
        if self._emit is not None:
            self._emit("finding", reason)
        else:
            _audit("swerl.finding", reason)

    def seal(self, _vars=vars, _id=id) -> dict:
        """Identity of every attribute: the launcher and the witness compare it while tests run (a rebound rule,
        emitter or file set is a plain attribute write, which no audit event reports)."""
        return {k: _id(v) for k, v in _vars(self).items() if k not in ("armed", "probes", "installed")}

    def seal_changes(self, sealed: dict, files: bool = True, _vars=vars, _id=id, _classify=_classify) -> list:
        """What differs from `seal()`, plus cached file classes that no longer match the files. Self-contained
        (helpers bound as defaults, which the guard protects like `__code__`): a shadowing method changes nothing."""
        state = _vars(self)
        now = {k: _id(v) for k, v in state.items() if k not in ("armed", "probes", "installed")}
        out = [f"guard.{k} was rebound" for k in set(sealed) | set(now) if sealed.get(k) != now.get(k)]
        out += [m.__name__ + "._args_from_interpreter_flags was rebound" for m, f in state.get("spawn_flags", ())
                if m.__dict__.get("_args_from_interpreter_flags") is not f]
        if files and not out:
            args = (state["workdir"], state["changed"], state["protected"])
            out = [f"guard file class of {f} was changed" for f, k in list(state["_kinds"].items())[:5000]
                   if k != _classify(*args, f)]
        return out[:10]

    def finish(self, final: dict, _audit=getattr(sys, "audit", None)) -> None:
        """The launcher's last record line (its exit code); once the hook is installed only it writes it, and only
        for the launcher's `main` (see `_make_hook`): the emitter is in no frame or object a test can reach."""
        if self._emit is not None:
            self._emit("final", final)
        else:
            _audit("swerl.final", final)

    def outcome(self, item, phase: str, status: str, forged: bool, _audit=getattr(sys, "audit", None)) -> None:
        """A test phase's outcome for a collected item (the object, not its mutable `nodeid`); once the hook is
        installed only it can write one, under the node id the item had at collection (see `_make_hook`)."""
        if self._emit is not None:
            self._emit("outcome", {"node": str(getattr(item, "nodeid", item)), "phase": phase, "status": status,
                                   "forged": forged})
        else:
            _audit("swerl.outcome", item, phase, status, bool(forged))

    def collected(self, items: tuple, _audit=getattr(sys, "audit", None)) -> None:
        """The session's items at the end of collection, told to the hook once (see `_make_hook`)."""
        if self._emit is None and _audit is not None:
            _audit("swerl.collected", tuple(items))

    def _check(self, event: str, args: tuple):
        reason = self._rule(event, args)
        if reason is None and self.armed and self._needs_asker(event, args):
            reason = self._unasked(event, args)
        return reason

    def _needs_asker(self, event: str, args: tuple) -> bool:
        """The operations that need code that asked for them (see `_unasked`); an `open` only of a guarded file."""
        if event == "open":
            path = args[0] if args else None
            path = os.fsdecode(path) if isinstance(path, bytes) else path
            return isinstance(path, str) and self._hot(*self._target(path))
        return (event in OP_NAMES or event in PROCESS or event in REACH or event.startswith("ctypes.")
                or (event == "object.__getattr__" and len(args) > 1 and args[1] in FRAME_ATTRS))

    def _rule(self, event: str, args: tuple):
        if event == "sys.addaudithook":
            return "adds an audit hook" if self.installed else None
        if event in PROCESS or event in REACH or event.startswith("ctypes."):
            if self.sealed and _own_child(event, args):
                return None
            self._keep_children_guarded(event, args)
            found = self._changed_program(event, args) or self._suspect(event)
            if found is None and event in STARTS and self.sealed and self._patch_frame() is not None:
                found = self._seal_data()
            return found
        if event in CODE:
            return self._code(event, args)
        if event == "sys._getframe":
            f = self._innermost(skip_passthrough=True)
            if f is None or self.frame_kind(f) in ("lib", "test"):
                return None
            if self._is_changed(f) and self._wrote_function(f):
                return f"frame access (sys._getframe) from {self._where(f)}"
            mine = self._patch_frame()  # project code that reads frames on behalf of a function the patch wrote:
            # a test's frame or one of pytest's (R52-1); its own caller's module is a logging helper's (R53-FP1)
            got = args[0] if args and type(args[0]) is type(f) else None
            if mine is None or (got is not None and self.frame_kind(got) not in ("test", "lib")):
                return None
            return f"frame access (sys._getframe) through {self._where(f)} for {self._where(mine)}"
        if event == "object.__getattr__" and len(args) > 1 and args[1] in MEMBER_READS:
            return self.unspelled(self._innermost(), str(args[1]), f".{args[1]}")
        if event == "object.__getattr__":
            return self._frame_attr(args[1], args[0]) if len(args) > 1 and args[1] in FRAME_ATTRS else None
        if event in ("object.__setattr__", "object.__delattr__"):
            return self._rewire(event, args)
        if event == "open":
            return self._open(args)
        if event == "pickle.find_class":
            return self._unpickle(args)
        if event == "sqlite3.connect":
            return self._database(args)
        if event == "os.chdir":  # the tests' relative paths resolve there: a golden the patch wrote (R68-10, 11, 12)
            f = None if self.child else self._patch_frame()
            return None if f is None else f"changes the working directory from {self._where(f)}"
        if event in MOVES:
            return self._move(event, args)
        return None

    def _move(self, event: str, args: tuple):
        """`os.replace(tmp, "tests/test_x.py")` or a removal of a protected file: a write without `open`."""
        for path in args[:2]:
            path = _path_text(path)
            if path is None:
                continue
            if path is _OPAQUE:
                f = self._changed_frame()
                if f:
                    return f"{event} on a path-like object of its own from {self._where(f)}"
                continue
            full, ident = self._target(path)
            if full in self.private or self._hot(full, ident) or self._holds_guarded(full):
                f = self._changed_frame()
                if f:
                    return f"{event} {full} from {self._where(f)}"
        return None

    def _seal_data(self, _ident=threading.get_ident, limit: int = 4096, budget: int = 64 << 20):
        """A program a function the patch wrote starts (allowed where the kernel seals the test files) reads
        no data file of the test directories either (R65-5: `cat tests/data/cases.json`, no audit event): before the
        start the kernel seals them on this thread, which the program inherits, except the files the test handed to
        the code it called (a fixture given to a tool). On the main thread the tests still read them, served from
        memory through the same `open` event as the kernel's read, so the data-file rule judges each read as before.
        Once per thread: a later layer could only seal more."""
        ident = _ident()
        if ident in self.data_sealed or self.seal_more is None:
            return None
        where = self._where(self._patch_frame())
        files = self._data_files(limit)
        if files is None:
            return f"starts a program from {where} while the tree holds more than {limit} data files of the tests, " \
                   "too many to seal from it"
        files = [f for f in files if f not in self.protected and not os.path.islink(f) and not self._handed_over(f)
                 and not (self.child and self._in_argv(f))]  # a child's own input stays its to read
        data, size = {}, 0
        if ident == self.main_ident and self.serve_more is not None:  # the tests read them on: keep their bytes
            for full in files:
                try:
                    with open(full, "rb") as fh:
                        data[full] = fh.read(budget + 1 - size)
                except OSError:
                    continue
                size += len(data[full])
                if size > budget:
                    return f"starts a program from {where} while the test directories hold more than {budget >> 20}" \
                           " MiB of data files, too much to seal from it"
        why = self.seal_more(frozenset(files)) if files else ""
        if why:
            return f"starts a program from {where}, but the tests' data files could not be sealed from it ({why})"
        self.data_sealed.add(ident)
        if data and self.serve_more is not None:
            self.serve_more(data)
        return None

    _TOOL_DIRS = frozenset({".git", ".hg", ".tox", ".nox", ".venv", "venv", "node_modules", "__pycache__",
                            ".pytest_cache", ".mypy_cache", ".ruff_cache"})

    def _data_files(self, limit: int) -> "list | None":
        """The files the data-file rule (`_data_file`) judges as the tests' data, for the kernel to seal: all but code
        under the test directories, and the files of directories of the tree that no package holds (a `testdata/`
        at the root, R66-2), not the patch's own files; tools' caches and environments left out. None past `limit`
        files: sealing fewer would leave a golden file to read."""
        files: list = []
        for d, dirs, names in os.walk(self.workdir.rstrip("/") or "/"):
            here = d + "/"
            in_tests = here.startswith(self.test_roots)
            if not in_tests and "__init__.py" in names:  # a package and all under it: the project's own
                dirs[:] = [x for x in dirs if (here + x + "/").startswith(self.test_roots)
                           or any(r.startswith(here + x + "/") for r in self.test_roots)]
                continue
            dirs[:] = [x for x in dirs if x not in self._TOOL_DIRS and not x.endswith(".egg-info")]
            if here == self.workdir and not in_tests:
                continue  # the tree's root holds its configuration, not data
            files += [here + n for n in names if not n.endswith((".py", ".pyc")) and here + n not in self.changed]
            if len(files) > limit:
                return None
        return files

    def _keep_children_guarded(self, event: str, args: tuple) -> None:
        """A process about to start gets the child guard's directory first on its PYTHONPATH, and no user site,
        whatever environment the caller built (`env={"PYTHONPATH": src}`) or whoever edited `os.environ`: the
        environment is changed in place, before the process is made from it."""
        spawn = _spawn(event, args)
        if not self.child_path or spawn is None:
            return
        # `env=os.environ` or another mapping the caller can write, changed in place (R45s-2b); `os.system` and no
        # `env`: the process's own environment (R45s-2)
        target = spawn[1]
        if target is None or any(type(k) is not str for k in list(target)):
            return
        now = target.get("PYTHONPATH") or ""
        if now.split(os.pathsep)[0] != self.child_path:
            target["PYTHONPATH"] = self.child_path + (os.pathsep + now if now else "")
        # no user site: a `.pth` or `usercustomize` under $HOME, which the tests' uid can write, runs before the child
        # guard's `sitecustomize` (R42s-3)
        target["PYTHONNOUSERSITE"] = "1"
        # a warning category is imported when Python starts, before `site`: only builtin ones (R45s-3)
        warn = target.get("PYTHONWARNINGS")
        if warn:
            target["PYTHONWARNINGS"] = ",".join(w for w in str(warn).split(",") if "." not in [*w.split(":"), "", ""][2])
        self._collect_children()
        if len(args) > 1 and type(args[1]) is list:
            _unisolate_argv(args[1])
            _unisolate_shell(args[1])

    def _changed_program(self, event: str, args: tuple):
        """A process the tests start whose program, or a script they hand to a shell or another interpreter, or
        the interpreter its `#!` line names, is a file of the work tree the patch changed or added, found as the
        kernel and the shell find it (through PATH for a bare name): it must be a plain Python script, run by an
        interpreter from outside the tree, whose `#!` line keeps the guard. The kernel and the shell read those
        lines and start what they name, out of this hook's reach (R43i-1, R44s-1, R44s-2, R44s-6, R44s-8)."""
        spawn = _spawn(event, args)
        if spawn is None or not (self.changed or event == "os.system"):
            return None
        argv, env, cwd = spawn
        path = (env if env is not None else os.environ).get("PATH", os.defpath)
        base = cwd or os.getcwd()
        commands = [argv]
        if argv and os.path.basename(argv[0]) in _SHELLS and len(argv) > 2 and argv[1].startswith("-") \
                and "c" in argv[1]:
            commands = _shell_commands(argv[2])
        for words in commands[:64]:
            found = self._unfollowable(words, path, base)
            if found:
                return found
        return None

    def _unfollowable(self, words: list, path: str, base: str):
        """One command's words: its program (through PATH), and for a shell or another interpreter the scripts
        it is handed; each file of the tree the patch changed among them must be a plain Python script."""
        words = [w for w in words if "=" not in w.split("/", 1)[0]] if words else words  # `X=1 cmd`
        if not words:
            return None
        prog = _which(words[0], path, base)
        todo = [prog]  # a `python3` found in the tree through PATH is the patch's program too (R44s-8)
        if os.path.basename(words[0]) in _INTERPRETERS:
            todo += [_which(w, "", base) for w in words[1:] if not w.startswith("-")]
        for full in todo:
            if full is None or not full.startswith(self.workdir):
                continue
            line = _first_line(full)
            interp = _interpreter(line, path, base)
            if (full in self.changed and not _plain_python(line)) or interp in self.changed:  # an interpreter the
                # patch wrote (`#!/testbed/bin/python3`, or a `python3` it adds on PATH); a venv of the tree's is not
                return f"runs {full}, a program of the tree that the tests' guard cannot follow " \
                       f"(its first line: {line[:100]!r})"
        return None

    def _collect_children(self, _fstat=os.fstat, _pread=os.pread) -> None:
        """Record now what the children found since the last look (the launcher's guard, before each process the
        tests start): the findings file is the tests' uid's, and a later process could empty it (R42s-3b)."""
        channel = getattr(self, "children_channel", None)
        if channel is None:
            return
        fd, ident, at = channel
        try:
            st = _fstat(fd)
            if (st.st_dev, st.st_ino) != ident:
                return  # reported by the launcher at the end
            if st.st_size < at[0]:
                self.record("the child processes' findings file shrank during the run")
                at[0] = 0
            data = _pread(fd, 1 << 20, at[0])
        except OSError:
            return
        end = data.rfind(b"\n") + 1
        at[0] += end
        for line in data[:end].decode("utf-8", "replace").splitlines():
            if line.strip():
                self.record("in a process the tests started: " + line[:1000])

    def _holds_guarded(self, full: str) -> bool:
        """A directory above a guarded file (the child guard's, the launcher's, the tests'): moving or removing it
        moves them all."""
        top = full.rstrip("/") + "/"
        return top == "/" or any(p.startswith(top) for p in self.private | self.protected) or _LAUNCH_DIR.startswith(top)

    def _unasked(self, event: str, args: tuple):
        """While tests run, an operation needs code that asked for it. The innermost frame must name it; where that
        frame is standard-library code, the first frame outside the standard library must name the library function
        it entered (the class, for a constructor). A C callable fired by C code (a weakref callback at a function's
        return, a `partial` in a class slot) leaves no frame of its own, so neither holds for it: the frame it
        interrupted asked for nothing."""
        inner = self._innermost()
        if inner is None:
            return None
        if not self._names_op(inner, event, args):
            return f"{event} that no code on the stack asked for (innermost {self._where(inner)}): a callback"
        chain, f = [], inner
        while f is not None and self._stdlib(f.f_code.co_filename):
            if f.f_code.co_filename.startswith("<frozen importlib"):
                return self._imported(event, chain)
            chain.append(f)
            f = f.f_back
        while f is not None and f.f_code.co_filename == _WITNESS and f.f_code.co_name in ("__enter__", "__exit__"):
            f = f.f_back  # the witness's wrapper of a test's `with` (`with mock.patch(...)`): the test is the caller
        if not chain or f is None:
            return None
        entry = chain[-1].f_code
        # what the caller may have named: the function, its class, or the function that made it (a decorator's
        # closure, a generator's maker); logging's `currentframe` is a lambda
        names = {p for p in getattr(entry, "co_qualname", entry.co_name).split(".") if not p.startswith("<")}
        if entry.co_name == "<lambda>" and entry.co_filename == _LOGGING:
            names.add("currentframe")
        if any(self._names(f, n, exact=True) for n in names - _IMPLICIT):
            return None
        implicit = entry.co_name in _IMPLICIT
        if implicit and event == "object.__getattr__" and entry.co_name not in ("__init__", "__new__"):
            return None  # `with self.assertRaises(...)`: its `__exit__` clears the traceback's frames
        if implicit and self._uses_module(f, chain[-1].f_globals):
            return None  # a method Python calls for the code (a constructor, a decorator object applied, `with`)
        return f"{event} through {self._where(chain[-1])} that {self._where(f)} did not call by name: a callback"

    def _imported(self, event: str, chain: list):
        """The import machinery asked for the operation itself (reading a module's source) or ran what an import
        runs: a module's top-level code, a finder's or loader's own method. Anything else it called - a C callable
        placed on `sys.meta_path`/`sys.path_hooks` that constructs a `Popen` or a `CDLL` - nobody asked for."""
        if not chain:
            return None
        entered = chain[-1].f_code
        if entered.co_name == "<module>" or entered.co_name in _IMPORT_METHODS:
            return None
        return f"{event} through {self._where(chain[-1])} that the import machinery ran: a hook, not an import"

    @staticmethod
    def _uses_module(f, space: dict) -> bool:
        """`f`'s code names something the library module defines itself (`patch` of `unittest.mock`): the object
        whose method Python called implicitly came from there."""
        home = space.get("__name__")
        code = f.f_code
        for n in (*code.co_names, *code.co_varnames):
            v = space.get(n)
            if v is not None and getattr(v, "__module__", None) == home and callable(v):
                return True
        return False

    def _names_op(self, f, event: str, args: tuple) -> bool:
        code = f.f_code
        if event.startswith("ctypes."):  # code that uses ctypes imports it (or is ctypes)
            return "/ctypes/" in code.co_filename or "ctypes" in f.f_globals or self._names(f, "ctypes", exact=True)
        if event == "object.__getattr__":
            return self._names(f, str(args[1]), exact=True)
        words = OP_NAMES.get(event)
        if words is None:  # raised by Python code (subprocess.Popen, pty.spawn): the raiser calls sys.audit
            return self._names(f, "audit", exact=True)
        return any(self._names(f, w) for w in words)

    @staticmethod
    def _names(f, word: str, exact: bool = False) -> bool:
        """`f`'s code names `word` (an identifier it loads, a variable, a string constant, a module global)."""
        code = f.f_code
        pool = (*code.co_names, *code.co_varnames, *code.co_freevars, *code.co_cellvars,
                *(c for c in code.co_consts if type(c) is str))
        if exact:
            return word in pool or word in f.f_globals
        return any(word in n for n in pool)

    @staticmethod
    def _stdlib(filename: str) -> bool:
        return filename.startswith(("<frozen", _STDLIB + "/")) and "-packages/" not in filename

    def _frame_attr(self, name: str, target=None):
        """`__code__` read directly by changed code (inspect.signature reading it is ordinary); a frame reached
        (`tb_frame`, `gi_frame`, ...) with changed code anywhere on the stack is the changed code's read, unless
        the reader is traceback/linecache or logging's caller lookup (they emit traceback text, not values): any
        other library in between - a formatter walking a template's fields, a getter - only launders it. A part
        of the tests' own code (their frame, function, traceback) read while code compiled at run time is on the
        stack is that code's read, whoever wrote its text (R43i-2)."""
        f = self._innermost()
        if f is not None and f.f_code.co_name == "findCaller" and f.f_back is not None \
                and self._is_changed(f.f_back) and self._wrote_function(f.f_back):
            # logging's caller lookup asked for by the patch itself: it hands back the calling test's file, line
            # and name (a fix switched on only under a test, R54-2); a log call reaches it through logging's `_log`
            return f"reads .{name} through logging's findCaller, called from {self._where(f.f_back)}"
        if f is None or (f.f_code.co_filename, f.f_code.co_name) in _FRAME_READERS:
            return None  # the witness's own readers (its profiler reads every call's receiver) first: cheap
        made = self._runtime_frame() if self._runs_test_code(target) else None
        if made is not None:
            return f"reads .{name} of the tests' code from code compiled at run time ({self._where(made)})"
        if self._is_changed(f) and self._wrote_function(f):
            return f"reads .{name} from {self._where(f)}"
        if self.frame_kind(f) == "test":
            return None  # the pristine test's own read, even when called back from changed code
        code = f.f_code
        if code.co_filename in _FORMATTERS and self._captures_locals():
            changed = self._patch_frame()  # traceback text with every frame's locals is values handed back (R66-12:
            # `TracebackException(..., capture_locals=True)` of an error the test handed over: the test's `want`)
            return f"reads .{name} through traceback's capture_locals from {self._where(changed)}" if changed else None
        if name in FUNCTION_PARTS or code.co_filename in _FORMATTERS or (code.co_filename, code.co_name) in _FRAME_READERS:
            return None
        changed = self._patch_frame()
        return f"reads .{name} through {self._where(f)} from {self._where(changed)}" if changed else None

    def _captures_locals(self) -> bool:
        """A frame of the traceback module on the stack was asked for each frame's locals (`capture_locals`)."""
        return any(f.f_code.co_filename in _FORMATTERS and f.f_locals.get("capture_locals") for f in self._stack())

    def _is_changed(self, f) -> bool:
        return self.frame_kind(f) == "changed"

    def _tests_read(self) -> bool:
        """The innermost frame of the tree's code on the stack is a test's: the tests themselves open the file."""
        for f in self._stack():
            kind = self.frame_kind(f)
            if kind != "lib":
                return kind == "test"
        return False

    def _waiting_main(self, _frames=sys._current_frames, _ident=threading.get_ident):
        """On a thread other than the tests' own: the innermost frame of changed code on the main thread's stack, which
        handed this thread the work (a pool's worker runs library frames only, R47s-1, R49s-1, R49s-4); None on the
        main thread or where no changed code waits there."""
        if _ident() == self.main_ident:
            return None
        f = _frames().get(self.main_ident)
        while f is not None:
            if self.frame_kind(f) == "changed":
                return f
            f = f.f_back
        return None

    def _wrote_function(self, f) -> bool:
        """The patch wrote a line of the function `f` runs (or the code was compiled from text under changed code):
        an unchanged function of a changed file is the project's own."""
        code = f.f_code
        if code in self.tainted:
            return True
        known = self._wrote_codes.get(code)
        if known is None:
            lines = [n for _, n in dis.findlinestarts(code) if n]  # every Python version (co_lines is 3.10+)
            known = self._wrote_codes[code] = bool(self.wrote(code.co_filename, code.co_firstlineno,
                                                              max([code.co_firstlineno, *lines])))
        return known

    def _orphan_thread(self, _ident=threading.get_ident) -> bool:
        """Running, once tests run, on a thread other than the tests' with no frame of the work tree at all: a
        thread or pool worker the patch started on a library callable (`ThreadPoolExecutor().submit(find_spec, ...)`,
        `Path.read_text` of a test data file: round 65), whose reads no frame of the patch asks for."""
        if not self.armed or _ident() == self.main_ident:
            return False
        return all(self._reader_kind(f) == "lib" for f in self._stack())

    def handed_module(self, reader, module) -> bool:
        """The test module was an argument of the call a test made into the project (a settings module for Flask's
        `from_object`, a plugin module for a loader: R65-FP): the code that reads it was handed it, it did not go
        looking for the tests (the format walk, a pool worker's `find_spec`, `inspect.getmodule` of a callback)."""
        entry, f = None, reader
        while f is not None and self._reader_kind(f) != "test":
            entry, f = f, f.f_back
        if f is None or entry is None:
            return False
        code = entry.f_code
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 0x04) +
                                 bool(code.co_flags & 0x08)]
        space = entry.f_locals
        return any(space.get(n) is module or (type(space.get(n)) in (tuple, dict) and any(
            v is module for v in (space[n].values() if type(space[n]) is dict else space[n]))) for n in names)

    def _reader_kind(self, f) -> str:
        """`frame_kind`, where the launcher's own code (the witness's comparisons count as changed code for the
        operations they hand to an operand) reads as a library: what it reads, it reads for itself."""
        return "lib" if f.f_code.co_filename.startswith(_LAUNCH_DIR) else self.frame_kind(f)

    def _wrote_line(self, f) -> bool:
        """The patch wrote the line `f` is at (or the code was compiled from text under changed code): a line it left
        as it was, in a function it touched, is the project's own (a pristine `vars(obj)` of a settings module the
        test handed over, R64-FP3)."""
        code = f.f_code
        line = f.f_lineno or code.co_firstlineno
        return code in self.tainted or self.wrote(code.co_filename, line, line)

    def _patch_frame(self):
        """The innermost frame of a function the patch wrote (frame reads are judged by the functions the patch
        wrote: attrs' unchanged `make_class` reads its caller's frame, and an honest fix elsewhere in `_make.py` was
        refused with every test broken)."""
        for f in self._stack():
            if self.frame_kind(f) == "changed" and self._wrote_function(f):
                return f
        return None

    def _spelled(self, f, name: str, constants: bool = True) -> bool:
        """`f`'s source names `name` where it reads it: the instruction it is at spells it (`x.name`, `from m import
        name`), or, with `constants` (a library's code), the code holds it as a string constant (typing's
        `getattr(obj, "__globals__", {})`). Such a read is in the text its author wrote; a format field's walk, a
        computed `getattr`, `operator.attrgetter` of built text are not. The patch's constants do not count: the
        compiler folds `"__se" + "lf__"` into one, where the host's scan saw two harmless pieces."""
        op = self._op(f)
        return (op is not None and op[0] in _SPELLED and op[1] == name) or (
            constants and name in self._ops[f.f_code][1])

    def _op(self, f):
        """(instruction, argument, the next instruction) `f` is at; its code's string constants are cached beside."""
        code = f.f_code
        known = self._ops.get(code)
        if known is None:
            ins = list(dis.get_instructions(code))
            known = self._ops[code] = ({a.offset: (a.opname, a.argval, ins[i + 1].opname if i + 1 < len(ins) else "")
                                        for i, a in enumerate(ins)}, frozenset(c for c in code.co_consts if type(c) is str))
        return known[0].get(f.f_lasti)

    def unspelled(self, reader, name: str, what: str, project: bool = True, data: bool = False, loader: bool = False):
        """A read of a hub (`SYS_HUBS`, a test module's attribute, `MEMBER_READS`) under a name no code on the stack
        spells where it reads: the format-field walk (`"{0._module.sys.modules[tests.t]...}"` split into harmless
        constants), a computed `getattr`, C code reading for the frame that called it. It reads the tests' data by
        plain attribute reads that raise no audit event. Who asked for it (`_asked_by`): a function the patch
        wrote, directly or through a library handed the name (logging's `ext://`, a `{`-style template) - and,
        with `project` (`sys`'s hubs, the member reads), through the project's unchanged code (an `rgetattr`
        helper, a function that calls what it is handed), or lazily: C code the patch built (a `map` over
        `str.format`) run by a test's or the project's own frame that spells no such read. A reader's own spelled
        read is the scan's or its own business, but not the patch's on a line it wrote: with `data` (a test
        module's attribute) the scan cannot know `inspect.getmodule(handed).CASES` names the tests' module, and
        with `project` it cannot know `vars(local)["sys"].modules` names `sys` (R64-4; a membership test, `"numpy"
        in sys.modules`, asks only whether). Without `project`, the project's own code that reads by a name
        (Django's `import_string` handed a test's dotted path) reads for itself. With `loader` (a test module's
        `__spec__`/`__loader__`: pytest's import hook) a library's spelled read is the patch's too (`find_spec`)."""
        f, via, passed = reader, None, None
        while f is not None:
            kind = self._reader_kind(f)
            if kind == "test" or (kind == "changed" and self._wrote_line(f)):
                break
            if kind != "lib" and not (project or loader):
                return None
            if via is None:
                if self._spelled(f, name) and (not loader or f.f_code.co_filename == _BOOTSTRAP):
                    return None  # (an import's own check of a module's spec hands nothing back; `find_spec` does)
                via = f
            elif kind != "lib" and passed is None:
                passed = f  # the project's unchanged code called the library that read
            f = f.f_back
        if loader and not self._spelled(reader, name, constants=False):
            return None  # the import machinery's own check (`_initializing`) of a module an import names (pickle,
            # also on multiprocessing's task thread); `find_spec` spells the read that hands the spec back
        if f is None and self._orphan_thread():
            return f"reads {what} on a thread with no frame of the tests or the project ({self._where(reader)})"
        found = self._asked_by(f, via if passed is None else passed, name, project, data)
        if found is None:
            return None
        where = self._where(found)
        if found is f and via is None and self._reader_kind(f) != "test":
            if not self._spelled(f, name, constants=False):
                return f"reads {what} by a name its code does not spell ({where})"
            return f"reads {what}, the tests' data ({where})" if data else f"reads {what} on a line the patch wrote ({where})"
        through = f" through {self._where(via)}" if via is not None and via is not found else ""
        return f"reads {what} by a name no code on the stack spells ({where}{through})"

    def _asked_by(self, f, via, name: str, project: bool, data: bool):
        """For `unspelled`: the frame the unspelled read is charged to, or None. `f` is where the walk stopped (a
        test's frame, a function the patch wrote, or None), `via` the first frame that read for it (or the first
        frame of the project's unchanged code that called the library that did)."""
        if f is not None and self._reader_kind(f) != "test":  # a line the patch wrote: even spelled there, the read
            if via is None and self._spelled(f, name, constants=False) and not data and (
                    not project or (self._op(f) or ("", "", ""))[2] == "CONTAINS_OP"):  # is no proof that the scan
                return None  # knew the receiver (R64-4: `vars(local)["sys"].modules`); `"numpy" in sys.modules` only
            return f  # asks whether
        if f is None and project and via is not None and self._reader_kind(via) == "lib" and self.armed:
            return via  # no frame of the tests or the project at all: a thread or callback the patch started (R64-6)
        if not project or (via is not None and self._reader_kind(via) == "lib"):
            return None  # the tests' own reads, or a library the test itself called (mock's dotted lookup)
        if via is None:  # C code read for the test's frame: the test's source must name it
            return None if f is None or self._spelled(f, name) else f
        return via  # the project's unchanged code read by a name it does not spell: code the patch built ran there

    def _library_import(self) -> bool:
        """The operation is a library's own import-time code (`import asyncio` sets `__code__` through
        `types.coroutine`, R54-FP4): every frame inside the innermost import is installed library code (a module
        written to /tmp is no library), so the import statement asked for it, not the patch's code."""
        seen = False
        for f in self._stack():
            code = f.f_code
            name = code.co_filename
            if name.startswith("<frozen importlib"):
                return seen
            if code in self.tainted or not (name.startswith(self.lib_roots) or name.startswith("<frozen ")):
                return False
            seen = True
        return False

    def _suspect(self, event: str):
        found = self._suspect_why(event)
        return None if found is None or self._library_import() else found  # the stack walk only on a finding

    def _suspect_why(self, event: str):
        if event == "sys.settrace" and self._doctest_run():
            return None  # doctest's runner puts back the trace function it found (`--doctest-modules`)
        if event in ("gc.get_referents", "sys.setprofile"):  # the witness reading what a value holds
            # (`_referents`), or putting its own profiler on while a comparison runs and back off (`_traced`)
            f = self._innermost()
            if f is not None and f.f_code.co_name == ("_referents" if event == "gc.get_referents" else "_traced") \
                    and f.f_code.co_filename == _WITNESS:
                return None
        tree = False
        for f in self._stack():
            k = self.frame_kind(f)
            if k == "changed" and (event not in STARTS or (not self.sealed and self._wrote_function(f))):
                return f"{event} from {self._where(f)}"
            tree = tree or k != "lib"
        waiting = self._waiting_main() if event in STARTS and not self.sealed else None
        if waiting is not None and self._wrote_function(waiting):
            return f"{event} on a worker thread while {self._where(waiting)} waits"
        if self.armed and not tree:
            return f"{event} from a callback with no test or project code on the stack (thread, finaliser, hook)"
        return None

    def _doctest_run(self) -> bool:
        f = self._innermost()
        return f is not None and f.f_code.co_name == "run" and f.f_code.co_filename == _DOCTEST

    def _code(self, event: str, args: tuple):
        name = _fspath(args[1]) if event == "compile" and len(args) > 1 else None
        if name is not None and self.unscanned and canonical(name, self.workdir) in self.unscanned:
            return f"runs code of {name}, a changed file the scan could not read"
        if name is not None and self.added and name.startswith("<"):  # code made from text at run time
            text = args[0].decode("utf-8", "replace") if isinstance(args[0], (bytes, bytearray)) else args[0]
            if isinstance(text, str) and len(text) < 1_000_000 and any(a in text for a in self.added):
                self._steered.add(name)
        if event in ("exec", "function.__new__") and args and self._steered:
            where = getattr(args[0], "co_filename", None)
            if where in self._steered:
                self._steered.discard(where)
                self._taint(args[0])
        f = self._innermost()
        kind = self.frame_kind(f) if f is not None else None
        if kind in ("changed", "project"):  # the tree's own code compiles (attrs' `_make.py` for a changed `define`)
            if kind == "changed" and self._wrote_function(f):
                return f"{event}() called from {self._where(f)}"
            if event == "compile":  # an unchanged generator of a changed file (attrs' `_compile_and_eval`, jinja2's
                # templates: an honest fix elsewhere in `_make.py` was refused and every test broke): the project's
                # own; what it makes is changed code when it runs (tainted at `exec`, or named after a changed file)
                return None
        changed = self._changed_frame()
        if changed is None:
            return None
        name = _fspath(args[1]) if event == "compile" and len(args) > 1 else None
        if event == "compile" and name is None and len(args) > 1 and args[1] is not None:
            return f"compiles code under a name that is no path ({type(args[1]).__name__})"
        if event == "compile" and name is not None:
            if not name.startswith("<") and not name.endswith((".py", ".pyw")):
                return f"compiles code from a non-.py file {name}"
            if name.startswith("<"):  # a library generating code for changed code (dataclasses, annotations, ...)
                found = None if self._in_library_body() or self._parsing_only() else generated_code_finding(args[0])
                return f"{found} in code generated at run time for {self._where(changed)}" if found else None
        if event in ("exec", "function.__new__") and args:  # `types.FunctionType(code, ...)` runs it as surely (R52-5)
            code = args[0]
            found = self._evaluated_text(code) if event == "exec" else None
            if found:
                return f"{found} for {self._where(changed)}"
            where = getattr(code, "co_filename", None)
            if isinstance(where, str) and (where.startswith("<") or not self._home_of_code(where)):
                self._taint(code)  # made or loaded for changed code from outside the libraries and the work tree
            return self._loader_check()
        return None

    def _evaluated_text(self, code):
        """Annotation text a library evaluates while changed code runs (`inspect.get_annotations(**{"eval_str":
        True})`, typing's forward references): R66-11, 13, 16, 17, 18 put a string into a test's (or pytest's)
        function's annotations and had it evaluated in that function's namespace - the tests' module globals, a
        parametrize mark, `_pytest` module objects - by name lookups and attribute reads that raise no event. The
        namespace it runs in may be no test module's and no test runner's, and the text reads no private attribute
        (`nodes._pytest.mark.MARK_GEN._config...`): an annotation names a type, not an object's internals."""
        if not (isinstance(getattr(code, "co_filename", None), str) and code.co_filename.startswith("<")):
            return None
        evaluator, f, depth = None, self._innermost(), 0
        while f is not None and depth < 4 and evaluator is None:
            name = f.f_code.co_filename
            if (name == _INSPECT and f.f_code.co_name in ("get_annotations", "<dictcomp>")) or \
                    (name == _TYPING and f.f_code.co_name in ("_evaluate", "_eval_type", "get_type_hints")):
                evaluator = f
            f, depth = f.f_back, depth + 1
        if evaluator is None:
            return None
        for f in (evaluator, evaluator.f_back):
            for value in list(f.f_locals.values()) if f is not None else ():
                home = _namespace_of(value)
                if home is not None and (type(home) is MODULE_CLASSES[2] or home.__name__.split(".")[0] in
                                         ("_pytest", "pytest", "pluggy", "_swerl_guard", "_swerl_witness")):
                    return f"evaluates annotation text in the namespace of {home.__name__}"
        private = sorted({i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_ATTR", "LOAD_METHOD")
                          and str(i.argval).startswith("_")})
        return f"evaluates annotation text that reads private attributes ({', '.join(private[:3])})" if private else None

    def _parsing_only(self) -> bool:
        """`ast.parse(text)`: source read as data (a linter, a docs tool) is no code until it is compiled, and that
        compile of the tree is judged like any other."""
        f = self._innermost()
        return f is not None and f.f_code.co_name == "parse" and f.f_code.co_filename == _AST_FILE

    def _in_library_body(self) -> bool:
        """A standard-library module's body runs between this event and the changed code: what it generates
        (`namedtuple`'s `__new__` for `inspect.ArgInfo`, whose field is named `locals`) is the library's own,
        whoever imported it first - in a fresh child process that is often changed code."""
        for f in self._stack():
            code = f.f_code
            if self.frame_kind(f) == "changed":
                return False
            if code.co_name == "<module>" and code.co_filename.startswith(_STDLIB):
                return True
        return False

    def _home_of_code(self, filename: str) -> bool:
        """A file code may come from without being the patch's: the work tree (classified by its own rules), the
        interpreter's library paths, the launcher's own files. A module the patch wrote to /tmp is none of them."""
        path = canonical(filename)
        return path.startswith((self.workdir, _LAUNCH_DIR)) or path.startswith(self.lib_roots)

    def _taint(self, code) -> None:
        """Code made for changed code counts as changed, nested code included. No cap: a cap is a number the patch
        can fill past with harmless code before its own runs untainted (R52-7)."""
        todo = [code]
        while todo:
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
        inner = self._innermost()
        if (name == "__bases__" and not runner and isinstance(target, type) and inner is not None
                and inner.f_code.co_filename == _TYPING and inner.f_code.co_name == "__new__"):
            return None  # `class P(typing.NamedTuple)` in the patch: typing's metaclass sets the new class's bases
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
                raw = getattr(loader, "path", None) or getattr(loader, "archive", None)
                path = _fspath(raw)
                if path is None:  # a loader whose path is no path at all reads from somewhere it does not say
                    return None if raw is None else f"loads module code through {type(loader).__name__} ({raw!r})"
                real = canonical(path)
                inside = real.startswith(self.workdir)
                library = real.startswith(self.lib_roots)
                if real.endswith((".py", ".pyw")) and (inside or library or real in self.test_written):
                    return None  # a module a test wrote to its tmp_path and hands to the code (Sphinx's roots)
                if library and real.endswith((".pyc", ".so")):
                    return None
                return f"loads module code from {path} ({type(loader).__name__})"
        return None

    def _open(self, args: tuple):
        path = given = args[0] if args else None  # a sealed file's server names the caller's object fourth
        if isinstance(path, int):  # os.fdopen: judged by what the descriptor is open on, never the stdio ones
            if path > 2 and not self._guarded_fd(path):
                return None
            f = self._changed_frame()
            return f"opens file descriptor {path} from {self._where(f)}" if f else None
        path = _path_text(path)
        if path is None:
            return None
        if path is _OPAQUE:
            f = self._changed_frame()  # a path-like of its own may name one file to us and another to the opener
            return f"opens a file named by a path-like object of its own from {self._where(f)}" if f else None
        full, ident = self._target(path)
        self._note_test_write(full, args)
        if full in self.private:  # the launcher read its spec and opened its record before the guard: anyone else
            return f"opens the launcher's private file {full}"
        if full in self.changed and not full.endswith(".py") and self._tests_read():
            return f"the tests read {full}, a file the patch changed"  # their expected data rewritten (R49s-5)
        if self._data_file(full) and not (full in self.test_files and _writes(args)):  # (the test writing it)
            found = self._test_data(full)
            if found:
                return found
        if not self._hot(full, ident):
            return None
        f = self._changed_frame()
        if f is None:
            made, waiting = self._runtime_frame(), self._waiting_main()
            if waiting is not None:
                return f"opens {full} on a worker thread while {self._where(waiting)} waits"
            return f"opens {full} from code compiled at run time ({self._where(made)})" if made else None
        if full not in self.private and (self._handed_over(full) or self._test_opens_itself(
                full, args[3] if len(args) > 3 and type(args[0]) is str and args[0] == full else given)):
            return None
        if full in self.protected and self._lines_read():
            return Quiet(f"no lines of {full} for a traceback from {self._where(f)}")
        if full not in self.protected and not full.endswith("conftest.py") and full.startswith(self.test_roots):
            inner = self._innermost()  # a test's helper module read by the import system importing it (a Django
            if inner is not None and inner.f_code.co_filename.startswith("<frozen importlib"):  # test app's models,
                return None  # a migration the loader imports): the patch's code cannot name it (the scan)
        return f"opens {full} from {self._where(f)}"

    def _lines_read(self) -> bool:
        """The file is opened by linecache filling its cache (`tokenize.open` under `updatecache`) for traceback's
        formatting of an error's traceback (`format_exc`, `print_exception`: what `log.exception` runs). linecache
        asked directly, for the live stack (`extract_stack`) or by `warnings`' formatting is the caller's read,
        judged as any open."""
        f = self._innermost()
        if f is None or f.f_code.co_filename != _LINES[0]:
            return False
        while f is not None and f.f_code.co_filename in _LINES:
            f = f.f_back
        if f is None or f.f_code.co_filename != _TRACEBACK:
            return False
        while f is not None and f.f_code.co_filename == _TRACEBACK and f.f_code.co_name not in _EXCEPTION_TEXT:
            f = f.f_back
        return f is not None and f.f_code.co_name in _EXCEPTION_TEXT  # an error's traceback, never the live stack

    def _database(self, args: tuple):
        """SQLite opens its file in C, with no `open` event: a database of the tests' data (R66-6: the cases in a
        fixture `.db` the test module queries) is judged by the data-file rule at `connect` (a `file:` URI too).
        Not heard: a database `ATTACH`ed by SQL text on a connection already open."""
        db = _path_text(args[0]) if args else None
        if type(db) is not str or db in ("", ":memory:"):
            return None
        if db.startswith("file:"):
            db = db[5:].split("?", 1)[0]
        full, _ = self._target(db)
        return self._test_data(full) if self._data_file(full) else None

    def _in_argv(self, full: str, _getcwd=os.getcwd) -> bool:
        """The process's command line names the file or a directory above it (the input a test gave the CLI)."""
        return any(_within(full, canonical(arg.split("=", 1)[-1], _getcwd())) for arg in list(sys.argv)[:200]
                   if type(arg) is str and arg and (not arg.startswith("-") or "=" in arg))

    def _data_file(self, full: str, _isfile=os.path.isfile) -> bool:
        """A file that can be the tests' data: any file but code under a test directory, and, outside one, a file
        in a directory of the tree that no package holds (a `testdata/` or `fixtures/` beside the tests, R66-2). A
        package's own data (`pkg/data/units.json`) is the project's, and a file at the tree's root its
        configuration; whether the tests read it decides the rest (`_test_data`)."""
        if full.endswith((".py", ".pyc")) or full in self.protected:
            return False
        if full in self.test_files:  # a file the tests wrote (`_note_test_write`), in their tmp_path or anywhere
            return True
        if not full.startswith(self.workdir):
            return False
        if full.startswith(self.test_roots):
            return True
        parts = full[len(self.workdir):].split("/")[:-1]
        known = self._loose.get(tuple(parts))
        if known is None:
            known = self._loose[tuple(parts)] = bool(parts) and not any(
                _isfile(self.workdir + "/".join(parts[:i]) + "/__init__.py") for i in range(1, len(parts) + 1))
        return known

    def _test_data(self, full: str):
        """A data file of the test directories that both the tests and changed code read, without the test handing
        it over: the tests' own table or golden output, answered from (R63: a CSV of slugs, a JSON loaded by a
        helper, a golden file whose path a variable holds). Either may read first: a golden file is often read
        after the call whose output it checks."""
        if self.child:  # no test runs here to read it: what the patch's code opens that the command line did not
            f = self._changed_frame()  # name (a golden file beside the CLI's input, a worker's glob: R67-9, T10)
            if f is not None and self._wrote_function(f) and not self._in_argv(full):
                return f"opens {full}, a data file of the tests its command line does not name, from {self._where(f)}"
            return None
        if self._tests_read():
            self.test_data.add(full)
            where = self.data_readers.get(full)
            return f"{where} read {full}, a data file the tests read" if where else None
        f = self._changed_frame() or (self._innermost() if self._orphan_thread() else None)
        if f is None or self._handed_over(full):
            return None
        if full in self.test_data:
            return f"opens {full}, a data file the tests read, from {self._where(f)}"
        self.data_readers.setdefault(full, self._where(f))
        return None

    def _runtime_frame(self):
        """The innermost frame of code compiled at run time from text (`<string>`, what `exec`, `eval` and
        `typing`'s forward references compile), or loaded from a file outside the work tree and the interpreter's
        library (a module the tests wrote to tmp_path). Whoever wrote that text, the patch's code may have: a code
        generator's output, an annotation string (R43i-2, R43i-4). Not the process's main program (`python -c`)."""
        for f in self._stack():
            name = f.f_code.co_filename
            made = self._made.get(name)
            if made is None:
                made = self._made[name] = _made_at_run_time(name, self.workdir, self.changed)
            if made and not (f.f_back is None and name.startswith("<")):  # `python -c` (multiprocessing's spawn
                return f  # children) is the process's own program; a generated script run as one is not (R44s-4)
            if not made and self.kind(name) != "lib":
                return None  # the first frame of the tree's own code reads for itself (R44s-FP2: a dataclass's
                # generated `__init__` further out does not make it the reader)
        return None

    def _runs_test_code(self, obj) -> bool:
        """A frame, traceback, generator or function of the tests' own code (read inside the hook: no event)."""
        try:
            kind = type(obj).__name__
            if kind == "traceback":
                obj, kind = obj.tb_frame, "frame"
            code = obj.f_code if kind == "frame" else obj.__code__ if kind == "function" else getattr(
                obj, {"generator": "gi_code", "coroutine": "cr_code", "async_generator": "ag_code"}.get(kind, "-"),
                None)
            return code is not None and self.kind(code.co_filename) == "test"
        except Exception:
            return False

    def _note_test_write(self, full: str, args: tuple) -> None:
        """An open for writing while the tests run with no changed code on the stack: the test's own file (a module
        it writes to tmp_path for the code under test to import, R40i-F3). Code of the patch writes none of these."""
        if _writes(args) and self.armed and self._changed_frame() is None and any(
                self.frame_kind(f) == "test" for f in self._stack()):
            if full.endswith((".py", ".pyw")):
                self.test_written.add(full)
            elif len(self.test_files) < 10000:  # a golden file the test writes, or copies from its data (R74-19, 20)
                self.test_files.add(full)

    def _test_opens_itself(self, full: str, given, _getcwd=os.getcwd) -> bool:
        """A test hands its own `__file__` to the project through an object it built (click's
        `option(default=__file__, type=click.File())`): the very string object its module holds, opened by unchanged
        code while that test runs, with no function the patch wrote (nor code made at run time) on the stack. A path
        the patch spells or builds is another object; one it fetched from the module must still reach the opener
        without a function of its own on the stack (R54-FP1)."""
        if full not in self.protected or type(given) is not str or self._patch_frame() is not None \
                or self._runtime_frame() is not None:
            return False
        for f in self._stack():
            if self.frame_kind(f) == "test":
                return f.f_globals.get("__file__") is given and canonical(given, _getcwd()) == full
        return False

    def _handed_over(self, full: str, _getcwd=os.getcwd) -> bool:
        """The test handed this file to the code it called: an argument the test passed to the function it called
        (the file, or a directory holding it: a reader's input, a Sphinx source dir), not that function's own
        default, nor a parameter the function sets itself (R42s-1). A fixed reader opens the fixture the test gives
        it; code that goes looking for a test's file (an expected output beside the input) is refused as before,
        and a module the tests imported (a test module, conftest, a helper) is never handed over to a function the
        patch wrote."""
        entry = None
        for f in self._stack():
            if self.frame_kind(f) == "test":
                break
            entry = f
        else:
            return False
        if entry is None or (self._patch_frame() is not None and any(
                type(m) in MODULE_CLASSES and m.__dict__.get("__file__") == full for m in list(sys.modules.values()))):
            return False  # a test module, conftest or helper the tests imported holds what they assert: handed to
            # code the patch wrote it is refused; unchanged code may open it (click's `File` given the test's own
            # `__file__`, an honest fix elsewhere in the file)
        code = entry.f_code
        n = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
        defaults = self._defaults_of(entry, code)
        if defaults is None:
            return False
        local, rebound = entry.f_locals, _rebound(code)
        for name in code.co_varnames[:n]:
            value = local.get(name)
            if name in rebound:  # the function sets it itself: what it holds now is not what the test passed
                continue
            for item in (value if type(value) is tuple else (value,))[:100]:
                text = _handed_text(item)
                if text and not any(item is d for d in defaults) and _within(full, canonical(text, _getcwd())):
                    return True
        return False

    @staticmethod
    def _defaults_of(frame, code):
        """The default argument values of the function `frame` runs, found by its qualified name from its module
        (a module function, a class's method); None where it cannot be found (then nothing counts as handed)."""
        obj = frame.f_globals
        parts = str(getattr(code, "co_qualname", code.co_name)).split(".")
        if "<locals>" in parts:
            return None
        for part in parts:
            obj = obj.get(part) if isinstance(obj, dict) else (vars(obj).get(part) if isinstance(obj, type) else None)
            obj = getattr(obj, "__func__", obj) if isinstance(obj, (staticmethod, classmethod)) else obj
        if getattr(obj, "__code__", None) is not code:
            return None
        return (*(obj.__defaults__ or ()), *(obj.__kwdefaults__ or {}).values())

    def _guarded_fd(self, fd: int, _fstat=os.fstat) -> bool:
        """A descriptor open on a guarded file (the launcher's private files it opened before the tests, a test
        file) or on procfs: the same rule as opening it by name. Any other file or a pipe (`mkstemp`'s descriptor,
        multiprocessing's spawn pipe) is the code's own; a descriptor that cannot be read is refused."""
        try:
            st = _fstat(fd)
        except (OSError, ValueError, OverflowError):
            return True
        return self._guarded_id((st.st_dev, st.st_ino))

    def _guarded_id(self, ident: tuple) -> bool:
        """A file identity (st_dev, st_ino) that changed code may not open: a guarded file, or anything on procfs."""
        return ident in self.guarded_ids or ident[0] == self.proc_dev

    def _target(self, path: str, _getcwd=os.getcwd, _stat=os.stat, _canon=canonical) -> tuple:
        """(canonical path, (st_dev, st_ino) or None) of an open() target: every spelling of a file is one file."""
        full = _canon(path, _getcwd())
        try:
            st = _stat(full)
            return full, (st.st_dev, st.st_ino)
        except (OSError, ValueError):
            return full, None

    def _hot(self, full: str, ident) -> bool:
        """A target changed code may not open: /proc (any path onto procfs), the stdio files, the launcher's own
        files, a protected test file or conftest - by canonical path, and by identity for the files themselves."""
        if ident is not None and self._guarded_id(ident):
            return True
        return (full.startswith(("/proc/", "/dev/fd", "/dev/std", _LAUNCH_DIR)) or full == "/proc"
                or (self.child_path is not None and full.startswith(self.child_path + "/"))  # a module put there
                or (full.startswith(self.workdir) and (full in self.protected or full.endswith("conftest.py")))
                or (full.endswith(".py") and full.startswith(self.test_roots) and _imported(full)))

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
        from _pytest import runner, tmpdir

        runner._update_current_test_var = lambda item, when: None  # no PYTEST_CURRENT_TEST for code to read
        tmpdir._mk_tmp = _tmp_path_of  # no parameters in a tmp_path's name either (R51s-2)
        witness = witness_module.Witness(self, witness_module.install_strict_asserts(self))
        if witness_module._MARKS:  # asserts call their functions as constants: no module name is needed any more
            for name in ("_swerl_witness", "_swerl_guard"):
                sys.modules.pop(name, None)
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
            tb = exc.__traceback__
            while tb is not None:  # changed code anywhere on the way out (`argparse.ArgumentParser().exit(0)`)
                if self.frame_kind(tb.tb_frame) == "changed":  # the run ended before its tests did
                    self.record(f"the test script was ended by code the patch changed ({self._where(tb.tb_frame)}): "
                                "its statuses are not the tests'")
                    break
                tb = tb.tb_next
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


def _namespace_of(value, _modules=sys.modules):
    """The module whose globals `value` is (a dict that is its `__dict__`), else None."""
    if type(value) is not dict:
        return None
    name = value.get("__name__")
    mod = _modules.get(name) if type(name) is str else None
    return mod if mod is not None and getattr(mod, "__dict__", None) is value else None


def generated_code_finding(source):
    """Why code generated at run time under changed code reaches past its class (None: ordinary)."""
    try:
        text = source.decode("utf-8") if isinstance(source, (bytes, bytearray)) else source
        tree = source if isinstance(source, ast.AST) else ast.parse(text) if isinstance(text, str) else None
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return None  # compile itself will refuse it
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Name) and node.id in GENERATED_CALLS_DENIED:  # called or handed on: `[getattr][0]`
            return f"calls {node.id}()" if isinstance(getattr(node, "ctx", None), ast.Load) else f"binds {node.id}"
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name and name.startswith("__") and name.endswith("__") and name not in GENERATED_DUNDERS and \
                not name.startswith(("__dataclass_", "__create_fn__")):
            return f"uses {name}"
        if isinstance(node, ast.Attribute) and node.attr in ("modules", "f_back", "f_locals", "f_globals", "tb_frame",
                                                              "gi_frame", "cr_frame", "f_code", "co_consts"):
            return f"reaches .{node.attr}"
    return None


# -- protected test files served from memory -------------------------------------------------------------------------
# The launcher read them and had the kernel deny every later read (Landlock, `pytest_runner._seal_tests`): no other
# process of the sandbox, guarded or not, can read them. This process reads them through `open`, `io.open_code` (the
# import system) and `tokenize.open` (linecache), served here after the same `open` audit event the real call
# raises, so the guard judges each read exactly as before. These frames are the guard's own: skipped on its stack.
def serve_sealed(sources: dict):
    """Install the servers over `sources` ({real path: bytes}); only the store's generator frame holds them.
    Returns the function that adds files to serve (for the hook alone: `Guard._seal_data`)."""
    import _io
    import builtins
    import io

    store = _sealed_store(sources, getattr(sys, "audit", lambda *a: None), io.BytesIO,  # no hook before 3.8
                          threading.get_ident())
    next(store)
    real_open, real_code = builtins.open, getattr(io, "open_code", None)
    names = {os.path.basename(p) for p in sources}

    def served(file, mode, _store=store, _names=names, _lock=threading.Lock(), _fspath=os.fspath):
        if type(file) is int or not set(str(mode)) <= set("rbtU"):
            return None
        try:
            path = _fspath(file)
            path = os.fsdecode(path) if isinstance(path, bytes) else path
        except TypeError:
            return None
        if type(path) is not str or os.path.basename(path) not in _names:
            return None
        with _lock:
            try:
                got = _store.send((path, file))
            except (ValueError, StopIteration):  # re-entered from the guard's own hook: the kernel answers
                return None
        if isinstance(got, BaseException):
            raise got
        if got is not None:
            got.name = file
        return got

    def open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None,
             _real=real_open, _served=served, _text=io.TextIOWrapper):
        data = _served(file, mode)
        if data is None:
            return _real(file, mode, buffering, encoding, errors, newline, closefd, opener)
        return data if "b" in mode else _text(data, encoding, errors, newline)

    def open_code(path, _real=real_code, _served=served):
        data = _served(path, "rb")
        return _real(path) if data is None else data

    builtins.open = io.open = _io.open = open
    if real_code is not None:
        io.open_code = _io.open_code = open_code
    if "tokenize" in sys.modules:  # it bound `open` when imported
        sys.modules["tokenize"]._builtin_open = open

    def more(extra: dict, _sources=sources, _names=names) -> None:
        """Serve these files too (sealed later on the main thread: `Guard._seal_data`)."""
        _sources.update(extra)
        _names.update(os.path.basename(p) for p in extra)

    return more


def _sealed_store(sources: dict, audit, buffer, main: int, _ident=threading.get_ident):
    """A generator: sent a path, it raises the `open` audit event for the file it resolves to and yields its bytes (a
    buffer), None for any other file, or the guard's veto. Whoever calls it, the event is the caller's: it names the
    resolved file, never a name the caller chose, and the bytes exist only in this frame (`gi_frame` is watched).
    Only the main thread, where pytest collects and runs the tests, is served: on another thread the guard sees no
    caller of the work (a pool's worker runs library frames only, R47s-1), and the read fails as the kernel's."""
    got = None
    while True:
        sent = yield got
        got = None
        path, given = sent if type(sent) is tuple and len(sent) == 2 else (sent, None)
        key = os.path.realpath(path) if type(path) is str else None
        data = sources.get(key) if key is not None else None
        if data is not None and _ident() != main:
            got = PermissionError(13, "Permission denied (sealed test file, read off the main thread)", path)
        elif data is not None:
            try:
                audit("open", key, "r", os.O_RDONLY | os.O_CLOEXEC, given)  # and the object the caller gave
                got = buffer(data)
            except BaseException as exc:  # the caller raises it; the store goes on serving
                got = exc
