"""Trusted launcher for grading sandboxes (copied in, run as `python3 -I this.py SPEC`; stdlib only).

Every test command of a grade runs through it: pytest in-process (`mode: pytest`) or a Python
test script such as Django's `runtests.py` (`mode: script`). Before any project code loads it

- reads its spec (a per-grade HMAC key, the changed and the protected files) and deletes it;
- makes itself non-dumpable: no other process of the tests' uid can ptrace it or read its memory;
- reads the protected test files (and their conftests and helper modules), then seals them: a Landlock ruleset
  denies every later read of them to this process and to everything it starts; this process goes on reading
  them through the guard's servers, which raise the same `open` audit event the real call does;
- clears every environment variable that configures pytest or the interpreter;
- installs the runtime guard (`swerl_guard.py`, an audit hook) that vetoes and records what a
  changed file does to reach the runner: process creation, ctypes, frames, code loading, ...

pytest then runs with a trusted configuration built on the host (`-c`, `--rootdir`), no plugin
autoload, the work tree appended (not prepended) to sys.path, and a witness plugin: the outermost
`pytest_runtest_makereport` wrapper records each final outcome (an XFAIL counts only where the
test file declares the mark; an imperative xfail/skip is a failure). Assertions in test files are
rewritten so a compared value that equals anything, or a builtin subclass that overrides
comparison, is tampering. Each finding and each test phase's outcome is appended at once to a record
file opened before any project code ran, as a line whose MAC (under the key) chains to the previous
line: nothing another process writes there or into the log can forge it, and what was written cannot
be rewritten later from inside. Each line is also masked under the key: no other process of the sandbox
learns from the file which test ran (a parametrized id may hold the expected value). The last line carries the exit code; `os._exit` follows.
"""

import contextlib
import hashlib
import hmac
import json
import os
import re
import sys

MARKER = "SWERL_WITNESS "
_ENV_DROP = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONPATH", "PYTHONINSPECT",
             "PYTHONBREAKPOINT", "PYTHONWARNINGS", "PYTEST_CURRENT_TEST", "PYTEST_DEBUG", "PY_COLORS", "COV_CORE_SOURCE")


def sign(key: bytes, payload: str) -> str:
    """HMAC-SHA256 of the record's JSON text: the grader recomputes it with the key it generated."""
    return hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()


def mask(key: bytes, prev: str, data: bytes, _shake=hashlib.shake_256, _int=int) -> bytes:
    """The record's lines are ciphertext as well as signed: any process of the sandbox can open the record file,
    and a phase's line names its test, whose parametrized id may hold the expected value. XOR with a SHAKE-256
    keystream keyed by the grade's key and the previous line's MAC (unique per line); the same call decrypts."""
    stream = _shake(key + b"|record|" + prev.encode()).digest(len(data))  # both bound when this file loads
    return (_int.from_bytes(data, "big") ^ _int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _bound_signer(key: bytes):
    """HMAC-SHA256 (`sign`) over objects bound now, before any project code runs: the SHA-256 constructor, a C
    function, and the padded keys. A patch that rebinds `hmac.new` or `hashlib.sha256` later (a spy that would learn
    the key) is never called by the emitter."""
    sha = hashlib.sha256
    key = sha(key).digest() if len(key) > 64 else key
    key = key + bytes(64 - len(key))
    inner, outer = bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)

    def signed(text: str, _sha=sha, _inner=inner, _outer=outer) -> str:
        return _sha(_outer + _sha(_inner + text.encode()).digest()).hexdigest()

    return signed


def _bound_dumps():
    """`json.dumps(obj, sort_keys=True)` as the C encoder made now: what the patch does to `json`'s module, its
    encoder class or the class's separators afterwards (R68: a separator that rewrites the record as it is
    written) changes nothing here. Pure-Python `json` (no `_json`): its encoder's method, bound now."""
    from json import encoder

    if encoder.c_make_encoder is None:
        return json.JSONEncoder(sort_keys=True).encode

    def refuse(obj):
        raise TypeError(f"not JSON serializable: {type(obj).__name__}")

    chunks = encoder.c_make_encoder(None, refuse, encoder.encode_basestring_ascii, None, ": ", ", ", True, False, True)
    return lambda obj, _chunks=chunks, _join="".join: _join(_chunks(obj, 0))


def make_emitter(fd: int, key: bytes):
    """Append one signed line per event (a finding, a test phase's outcome, the end) to the record file at once,
    each MAC chained to the previous one: what was written cannot be changed, dropped or reordered later, and a
    line forged without the key breaks the chain. Lines are masked (`mask`): readable only with the key. Every
    function it calls is bound here, before any project code runs (C functions and the key's own closures)."""
    import _thread
    import binascii

    state = {"seq": 0, "prev": ""}
    seen: set = set()
    lock = _thread.RLock()  # a finding from a thread the tests started, beside the main thread's outcome: one chain
    signed, dumps, masked, b64, write = _bound_signer(key), _bound_dumps(), mask, binascii.b2a_base64, os.write

    def emit(kind: str, data: object, _len=len) -> None:
        with lock:
            if kind == "finding":  # repeats dropped here, where no test can reach the set; a flood ends in one line
                if data in seen or _len(seen) > 200:
                    return
                seen.add(data)
                data = data if _len(seen) <= 200 else "more than 200 findings"
            payload = dumps({"seq": state["seq"], "kind": kind, "data": data})
            payload += " " * (-_len(payload) % 256)  # masked lines of one length: a test's id is not told by its size
            mac = signed(state["prev"] + payload)
            sealed = b64(masked(key, state["prev"], payload.encode()), newline=False).decode()
            write(fd, (MARKER + '{"sealed": "' + sealed + '", "mac": "' + mac + '"}\n').encode())
            state["seq"] += 1
            state["prev"] = mac

    return emit


def _nondumpable() -> None:
    """PR_SET_DUMPABLE 0: same-uid processes (whatever the tests fork) can no longer ptrace this process or open
    its /proc/PID/mem, environ or fd entries."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except Exception:
        pass


# Landlock (Linux 5.13+): the system call numbers are the generic ones on x86_64 and aarch64 alike
_LANDLOCK_CREATE, _LANDLOCK_ADD_RULE, _LANDLOCK_RESTRICT, _READ_FILE, _REFER = 444, 445, 446, 1 << 2, 1 << 13


def _test_sources(spec: dict) -> dict:
    """{real path: bytes} of the protected test files and the conftest.py files on their way down from the work
    tree's root (what pytest loads for them), read before any project code runs."""
    work = os.path.realpath(spec["workdir"])
    names = set()
    for rel in spec.get("tests", []):
        path = os.path.realpath(os.path.join(work, rel))
        if not path.startswith(work + "/") or not os.path.isfile(path):
            continue
        names.add(path)
        d = os.path.dirname(path)
        while d.startswith(work):
            conftest = os.path.realpath(os.path.join(d, "conftest.py"))
            if conftest.startswith(work + "/") and os.path.isfile(conftest):
                names.add(conftest)
            d = os.path.dirname(d)
    out = {}
    for path in sorted(names):
        try:
            with open(path, "rb") as fh:
                out[path] = fh.read()
        except OSError:  # not ours to read: the guard's rules alone protect it
            continue
    return out


def _granted(denied) -> list:
    """Every path whose files stay readable: each entry of each directory above a denied file that is neither a
    denied file, nor above one, nor the `__pycache__` beside one (a compiled test is the test). Symbolic links get
    no rule: what they point to is judged where it lives."""
    above = set()
    for path in denied:
        d = os.path.dirname(path)
        while d not in above:
            above.add(d)
            d = os.path.dirname(d)
    holders = {os.path.dirname(p) for p in denied}
    out = []
    for d in sorted(above):
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            full = os.path.join(d, name)
            if full in above or full in denied or (name == "__pycache__" and d in holders) or os.path.islink(full):
                continue
            out.append(full)
    return out


def _seal_tests(denied) -> str:
    """From here on no process of this sandbox - this one, and everything it starts, whatever its environment, its
    interpreter's flags or its language - can open the protected files for reading: a Landlock ruleset that handles
    file reads and grants them everywhere else. Returns "" when the kernel enforces it, else why not (the guard's
    rules still apply; the record's note says which)."""
    try:
        import ctypes
        import struct

        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        call = libc.syscall
        abi = call(ctypes.c_long(_LANDLOCK_CREATE), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
        if abi < 2:  # ABI 1 denies every move of a file between directories (os.replace from /tmp, R48s-FP1)
            return f"Landlock unavailable or too old (ABI {abi}, errno {ctypes.get_errno()})"
        # moves between directories (`REFER`) are denied by any ruleset unless a rule grants them: granted from the
        # root down; the kernel still refuses a move that would make a sealed file readable
        attr = struct.pack("=Q", _READ_FILE | _REFER)
        ruleset = call(ctypes.c_long(_LANDLOCK_CREATE), ctypes.c_char_p(attr), ctypes.c_size_t(len(attr)),
                       ctypes.c_uint32(0))
        if ruleset < 0:
            return f"landlock_create_ruleset failed (errno {ctypes.get_errno()})"
        try:
            for path, access in [("/", _REFER), *((p, _READ_FILE) for p in _granted(denied))]:
                try:
                    fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
                except OSError:
                    continue  # gone, or not ours to read anyway
                try:
                    rule = struct.pack("=Qi", access, fd)
                    if call(ctypes.c_long(_LANDLOCK_ADD_RULE), ctypes.c_int(ruleset), ctypes.c_int(1),
                            ctypes.c_char_p(rule), ctypes.c_uint32(0)) != 0:
                        return f"landlock_add_rule {path} failed (errno {ctypes.get_errno()})"
                finally:
                    os.close(fd)
            if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS: required, and already set by the sandbox
                return f"no_new_privs failed (errno {ctypes.get_errno()})"
            if call(ctypes.c_long(_LANDLOCK_RESTRICT), ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
                return f"landlock_restrict_self failed (errno {ctypes.get_errno()})"
            return ""
        finally:
            os.close(ruleset)
    except Exception as exc:  # no ctypes, an unknown libc: the guard alone
        return f"Landlock not applied ({type(exc).__name__}: {exc})"[:200]


def _read_spec(path: str) -> dict:
    with open(path) as fh:
        spec = json.load(fh)
    try:
        os.unlink(path)
    except OSError:  # a directory the tests' uid cannot write: the key leaves the file, which is ours
        with contextlib.suppress(OSError):
            open(path, "w").close()
        with contextlib.suppress(OSError):
            os.chmod(path, 0)
    return spec


def _load(name: str, filename: str, pinned=None):
    """Guard and witness ship beside this file; load them by path (the work tree is not on sys.path yet). The host
    ships their compiled code too (`<stem>.<cache tag>.code`: bytecode magic, the source's SHA-256, marshalled
    code): used only where it is the file the spec names (`pinned`: its name and the whole blob's SHA-256, which
    the host wrote into the private spec), its magic is this interpreter's and the hash is the source's; else the
    source is compiled. A `.code` file of any other name or content (one that project code run before the tests
    left in this directory) is never read."""
    import hashlib
    import importlib.util
    import marshal

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, filename)
    loc = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(loc)
    sys.modules[name] = mod
    magic = importlib.util.MAGIC_NUMBER
    want = path[:-3] + "." + str(sys.implementation.cache_tag) + ".code"
    try:
        if not pinned or os.path.join(here, str(pinned[0])) != want:
            raise OSError("no compiled code of this interpreter's version was shipped")
        with open(want, "rb") as f:
            blob = f.read()
        if hashlib.sha256(blob).hexdigest() != str(pinned[1]):
            raise OSError("not the compiled code the host wrote")
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).digest()
    except OSError:
        blob, digest = b"", b""
    if blob[:len(magic)] == magic and blob[len(magic):len(magic) + 32] == digest:
        exec(marshal.loads(blob[len(magic) + 32:]), mod.__dict__)
    else:
        loc.loader.exec_module(mod)
    return mod


def _start(spec: dict, closer, sources: dict, unsealed: str) -> tuple:
    """Open the record, install the guard and load the witness; return (guard, witness). The emitter (and the key
    in its closure) exists only in this frame, which returns before any project code runs, and in the audit hook:
    no frame of the launcher that a test could walk to holds it. `closer` is the code allowed to write the final
    line through the hook. A failure before the guard is on ends the process here, with a signed final line."""
    emit = make_emitter(os.open(spec["record"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), bytes.fromhex(spec.pop("key")))
    try:
        pins = dict(spec.get("code") or {})
        guard_mod = _load("_swerl_guard", "swerl_guard.py", pins.get("swerl_guard"))
        guard = guard_mod.Guard(spec["workdir"], spec.get("changed", []), spec.get("tests", []), spec.get("private", []),
                                emit, child_path=spec.get("child_dir"), lines=spec.get("lines"),
                                originals=spec.get("originals"), tables=spec.get("tables"),
                                unscanned=spec.get("unscanned"), added=spec.get("added"), sealed=not unsealed,
                                doctests=spec.get("doctests"))
        guard.first = frozenset(spec.get("first") or ())  # the required tests, run first (`swerl_witness.plugin`)
        guard.only_first = spec.get("only_first") is True  # the conditions run: those alone (`grade._conditions_run`)
        # the names and words the test files spell: a standard-library setting they name is theirs to change
        guard.test_words = frozenset(w.decode() for w in re.findall(rb"[A-Za-z_][A-Za-z0-9_]*",
                                                                    b"\n".join(sources.values())))
        guard.spawn_flags = guard_mod._unisolate_spawns()  # this process runs with -I; its spawn children must not
        serve = None
        if not unsealed:  # sealed by the kernel: this process reads them only through the guard's servers
            serve = guard_mod.serve_sealed(sources)
        emit("note", f"test files not sealed: {unsealed}" if unsealed else "test files sealed by the kernel")
        witness = _load("_swerl_witness", "swerl_witness.py", pins.get("swerl_witness"))
        guard.install(writer=witness.Witness.report.__code__, closer=closer,
                      collector=witness.Witness.collected.__code__, seal=_seal_tests if serve else None, serve=serve)
        return guard, witness
    except BaseException as exc:
        emit("final", {"rc": 3, "mode": spec.get("mode", "pytest"),
                       "launcher_error": f"{type(exc).__name__}: {exc}"[:300]})
        os._exit(3)


_CHILD_BOOT = """import os as _os
import sys as _sys


def _swerl_child_guard():
    here = _os.path.dirname(_os.path.abspath(__file__))
    # the guard and what it imports come from the interpreter's own library only: no PYTHONPATH entry (this
    # directory included), no relative entry and nothing under the work tree may shadow `json` or `re` here
    work, mine = _os.path.realpath(WORKDIR), _os.path.realpath(here)
    env = set(p for p in _os.environ.get("PYTHONPATH", "").split(_os.pathsep) if p)

    def trusted(p):
        real = _os.path.realpath(p) if p and _os.path.isabs(p) else None
        return real is not None and p not in env and real not in (mine, work) and not real.startswith(work + "/")

    saved = list(_sys.path)
    _sys.path[:] = [p for p in saved if trusted(p)]
    try:
        _install(here)
    finally:
        _sys.path[:] = saved


def _install(here):
    import importlib.util
    import json
    with open(_os.path.join(here, "child.json")) as fh:
        cfg = json.load(fh)
    loc = importlib.util.spec_from_file_location("_swerl_guard", cfg["guard"])
    mod = importlib.util.module_from_spec(loc)
    loc.loader.exec_module(mod)
    fd = _os.open(_os.path.join(here, "findings.txt"), _os.O_WRONLY | _os.O_APPEND | _os.O_CREAT, 0o600)

    def emit(kind, data, _fd=fd, _write=_os.write):
        if kind == "finding":
            _write(_fd, (str(data).replace(chr(10), " ")[:1000] + chr(10)).encode("utf-8", "replace"))

    guard = mod.Guard(cfg["workdir"], cfg["changed"], cfg["tests"], cfg["private"], emit, child_path=here,
                      sealed=cfg.get("sealed") is True)
    guard.armed = True
    guard.child = True
    seal = None
    if guard.sealed and cfg.get("runner"):  # the tests' data files sealed from a program the patch's code starts
        try:  # here (`_seal_data`); without it such a start is allowed as before, never the guard left out
            loc = importlib.util.spec_from_file_location("_swerl_runner", cfg["runner"])
            runner = importlib.util.module_from_spec(loc)
            loc.loader.exec_module(runner)
            seal = runner._seal_tests
        except Exception:
            seal = None
    guard.install(seal=seal)


_swerl_child_guard()
del _swerl_child_guard, _install
"""


def _child_guard(spec: dict) -> tuple:
    """Every Python process the tests start gets the same guard, installed by a `sitecustomize` before its main
    module runs (the child's PYTHONPATH names its directory): changed code in `python -m pkg` may not read the test
    files (hidden ones included), the launcher's files or /proc, start processes, or reach frames either. Its
    findings are appended to a file the launcher reads through a descriptor opened now (the file is private to both
    guards: no changed code opens, truncates or moves it), by offset, so reading the inherited number moves nothing
    out of it. The launcher's guard records what is new there each time a test starts a process, and the rest at the
    end: a later process of the tests' uid that empties the file takes back nothing already recorded (R42s-3b), and
    a file that shrank is a finding. Returns that descriptor and the file's identity."""
    import tempfile

    here = tempfile.mkdtemp(prefix="swerl-child-")
    private = [*spec.get("private", []), here + "/child.json", here + "/findings.txt", here + "/sitecustomize.py"]
    cfg = {"guard": os.path.join(os.path.dirname(os.path.abspath(__file__)), "swerl_guard.py"),
           "runner": os.path.abspath(__file__),
           "workdir": spec["workdir"], "changed": spec.get("changed", []), "tests": spec.get("tests", []),
           "private": private}
    boot = _CHILD_BOOT.replace("WORKDIR", repr(os.path.realpath(spec["workdir"])))
    for name, text in (("child.json", json.dumps(cfg)), ("sitecustomize.py", boot)):
        with open(os.path.join(here, name), "w") as fh:
            fh.write(text)
    fd = os.open(os.path.join(here, "findings.txt"), os.O_RDONLY | os.O_CREAT, 0o600)
    spec["private"], spec["child_dir"] = private, here
    os.environ["PYTHONPATH"] = here
    st = os.fstat(fd)
    return fd, (st.st_dev, st.st_ino)


def _tell_children_sealed(here: str) -> None:
    """Rewritten in place: the file existed before the seal, so the kernel still lets the children read it."""
    with open(os.path.join(here, "child.json"), "r+") as fh:
        cfg = json.load(fh)
        cfg["sealed"] = True
        fh.seek(0)
        fh.write(json.dumps(cfg))
        fh.truncate()


def _child_findings(guard, fd: int, ident: tuple) -> None:
    """What the tests' child processes found, as the launcher's own findings (at the end; the guard has recorded
    what was there each time a process started). Read from
    offset 0 (`os.read` by the tests on the inherited number moves no byte out of this read) and only from the
    file opened at the start: a descriptor closed and reused for another file is itself a finding."""
    guard._collect_children()  # a file that shrank since the last look
    try:
        st = os.fstat(fd)
        data = os.pread(fd, 1 << 20, 0) if (st.st_dev, st.st_ino) == ident else None
    except OSError:
        data = None
    if data is None:
        guard.record("the child processes' findings file was replaced or closed during the run")
        return
    lines = data.decode("utf-8", "replace").splitlines()
    for line in dict.fromkeys(x for x in lines if x.strip()):
        guard.record("in a process the tests started: " + line[:1000])


class _Held:
    """The tests' terminal output (this process's `sys.stdout` and `sys.stderr`), held here until every test has
    run, then written to the real stdout: its last `keep` bytes, and one more byte where more was dropped (the host
    then knows the text is not whole). pytest's verbose log names each test before it runs, and a parametrized
    name holds the test's arguments, its expected value among them; the log file is open to every process of the
    tests (R51s-1), so nothing about a test reaches it while tests still run."""

    def __init__(self, keep: int) -> None:
        import collections

        self.parts, self.size, self.keep = collections.deque(), 0, keep

    def add(self, data: bytes) -> None:
        self.parts.append(bytes(data))
        self.size += len(data)
        while self.parts and self.size - len(self.parts[0]) > self.keep:
            self.size -= len(self.parts.popleft())

    def stream(self):
        import io

        held = self

        class Binary(io.RawIOBase):
            def writable(self) -> bool:
                return True

            def write(self, b) -> int:
                held.add(b)
                return len(b)

        class Text(io.TextIOBase):
            encoding, errors, buffer = "utf-8", "replace", Binary()

            def writable(self) -> bool:
                return True

            def write(self, text: str) -> int:
                held.add(str(text).encode("utf-8", "replace"))
                return len(text)

        return Text()

    def release(self) -> None:
        data = b"".join(self.parts)[-(self.keep + 1):]
        while data:
            data = data[os.write(1, data):]


_KEEP_LOG = 1_000_000  # bytes of the held output the host reads (grade.LOG_LIMIT)


def image_plugins(workdir: str, args: list) -> list:
    """`-p MODULE` for each pytest plugin the environment installed: a `pytest11` entry point of a distribution
    outside the work tree whose module is found outside it, unless the command blocks it (`-p no:NAME`). The row's
    own command loads them (pytest-mock's `mocker`, pytest-asyncio), so an honest fix whose tests use one must
    find it (R51s-5); plugin autoload stays off, so a `*.dist-info` in the work tree - the patch's - loads nothing,
    and neither does a plugin of the project itself (an editable install), whose code the patch may change."""
    root = os.path.realpath(workdir).rstrip("/") + "/"
    blocked = {str(args[i + 1])[3:] for i in range(len(args) - 1) if args[i] == "-p" and str(args[i + 1])[:3] == "no:"}
    blocked |= {str(a)[5:] for a in args if str(a).startswith("-pno:")}
    out: list = []
    try:  # by distribution: Python 3.8's entry points know no distribution of their own (3.7 has no metadata)
        import importlib.metadata
        from importlib.machinery import PathFinder

        points = [(str(getattr(d, "_path", "") or ""), ep) for d in importlib.metadata.distributions()
                  for ep in d.entry_points if ep.group == "pytest11"]
    except Exception:  # unreadable metadata: the plugins the command names itself, no others
        return out
    for where, ep in points:
        module = str(ep.value).split(":", 1)[0].strip()
        try:
            spec = PathFinder.find_spec(module.split(".")[0], [p for p in sys.path if p and p != "."])
        except Exception:
            spec = None
        origin = (spec.origin if spec is not None and spec.origin not in (None, "namespace") else
                  next(iter(spec.submodule_search_locations or ()), None) if spec is not None else None)
        if (not module or not where or origin is None or ep.name in blocked or module in blocked or module in out
                or (os.path.realpath(where) + "/").startswith(root) or os.path.realpath(origin).startswith(root)):
            continue
        out += ["-p", module]
    return out


def main() -> None:
    spec = _read_spec(sys.argv[1])
    _nondumpable()
    for name in _ENV_DROP:
        os.environ.pop(name, None)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    if spec.get("mode", "pytest") == "pytest":
        spec["args"] = [*image_plugins(spec["workdir"], list(spec.get("args", []))), *spec.get("args", [])]
    children, children_id = _child_guard(spec)
    workdir = spec["workdir"]
    os.chdir(workdir)
    sys.dont_write_bytecode = True
    final: dict = {"rc": 3, "mode": spec.get("mode", "pytest")}
    sources = _test_sources(spec)
    unsealed = _seal_tests(sources) if sources else "no protected test file"
    if not unsealed:  # the children inherit the seal: their guards judge the programs they start as this one does
        _tell_children_sealed(spec["child_dir"])
    guard, witness = _start(spec, sys._getframe().f_code, sources, unsealed)
    del sources
    guard.children_channel = (children, children_id, [0])  # read at each process start too (`_collect_children`)
    held = _Held(_KEEP_LOG)
    sys.stdout = sys.stderr = held.stream()
    try:
        sealed, seal_changes = guard.seal(), guard.seal_changes  # held by this frame only: no test reaches them
        if final["mode"] == "script":
            final["rc"] = guard.run_script(spec["script"], spec.get("args", []))
        else:
            sys.path.append(workdir)
            final["rc"] = guard.run_pytest(spec.get("args", []), witness)
        for change in seal_changes(sealed):
            guard.record(f"launcher state changed during the run: {change}")
        _child_findings(guard, children, children_id)
    except BaseException as exc:  # the launcher's own failure: no verdict, never a pass
        final["launcher_error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            held.release()
        finally:
            guard.finish(final)
            os._exit(int(final["rc"]) if isinstance(final.get("rc"), int) else 3)


if __name__ == "__main__":
    main()
