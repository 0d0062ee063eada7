"""The grading tree, built on the host: pristine export, host-side `git apply`, the true change set, the policy.

On the host because a grading sandbox holding `.git` and a working git lets imported code
apply the gold fix from history. Decisions come from the tree diff (path, type, mode, bytes),
never from diff text, which can hide a second file header after a hunk. SWE-smith hidden
tests (a tip commit that only deletes test files) are restored from the parent commit.
"""

from __future__ import annotations

import base64
import configparser
import contextlib
import contextvars
import dataclasses
import fcntl
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import tomllib
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from swerl.log import get_logger
from swerl.sandbox import hardening, owners
from swerl.sandbox.hostfs import (
    TreeTooDeep,
    copy_tree_safely,
    is_disk_full,
    iter_tree,
    remove_path,
    rmtree_quietly,
    tree_bytes,
    tree_stats,
)
from swerl.sandbox.patch import git_env, is_bytecode, protected_reason, test_files_of
from swerl.sandbox.schema import DroppedFile, SandboxTask, TreeLimits

if TYPE_CHECKING:
    from swerl.sandbox.base import BackendBase

log = get_logger(__name__)

# The defaults of `TreeLimits` (SandboxSettings.limits); `BackendBase.grade` applies the sandbox's own through
# `use_limits`, a caller may also pass `limits=` to `apply_patch` / `snapshot`.
DEFAULT_LIMITS = TreeLimits()
MAX_PATCH_BYTES = DEFAULT_LIMITS.max_patch_bytes
_LIMITS: contextvars.ContextVar[TreeLimits] = contextvars.ContextVar("swerl_tree_limits", default=DEFAULT_LIMITS)


def current_limits() -> TreeLimits:
    """The tree limits in effect (the grading sandbox's settings inside `BackendBase.grade`, else the defaults)."""
    return _LIMITS.get()


@contextlib.contextmanager
def use_limits(limits: TreeLimits) -> Iterator[TreeLimits]:
    """Apply `limits` to every `apply_patch` / `snapshot` in this context (thread- and task-local)."""
    token = _LIMITS.set(limits)
    try:
        yield limits
    finally:
        _LIMITS.reset(token)
# Import names the test runner itself (or the interpreter) loads: a new top-level module with one of these
# names in the repository root would run instead of the real one.
RUNNER_MODULES = frozenset({
    "pytest", "_pytest", "pluggy", "py", "iniconfig", "packaging", "exceptiongroup", "tomli", "tomllib", "attr",
    "attrs", "pygments", "colorama", "setuptools", "pkg_resources", "_distutils_hack", "pip", "wheel", "six",
    "typing_extensions", "importlib_metadata", "zipp", "xdist", "execnet", "coverage", "pytest_cov", "hypothesis",
    "sitecustomize", "usercustomize", "conftest", "nose", "unittest2", "mock", "_swerl_pytest", "_swerl_guard", "_swerl_witness",
})
BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll", ".exe", ".pyc", ".pyo", ".a", ".o")
_BINARY_MAGIC = (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
_SAFE_NAME = re.compile(r"^[^\x00-\x1f\x7f]+$")
_PYTEST_INI = {"pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "tox.ini", "noxfile.py"}
# Names the grader itself writes into the tree or the sandbox (`.swerl-trusted-pytest.*`, `swerl-record-*`,
# `_swerl_guard`, ...): a path component of the patch spelled like one could stand where the grader's file goes.
_GRADER_NAME = re.compile(r"^[._-]*swerl[-_.]", re.IGNORECASE)


class PatchRejected(Exception):
    """The agent's patch cannot be applied or turned into a tree (an agent failure, not infrastructure)."""


@dataclass(frozen=True)
class Entry:
    kind: str  # file | dir | link | other
    exec_bit: bool = False
    digest: str = ""


def snapshot(root: Path, *, limits: TreeLimits | None = None) -> dict[str, Entry]:
    """Every entry under `root` (never following symlinks): kind, executable bit, content hash.

    Iterative, through directory descriptors; an entry deeper than `limits.max_depth` raises `PatchRejected`
    (never RecursionError, whatever the depth)."""
    lim = limits or current_limits()
    out: dict[str, Entry] = {}
    try:
        for item in iter_tree(root, max_depth=lim.max_depth):
            if item.is_link:
                out[item.rel] = Entry("link", digest=os.readlink(item.name, dir_fd=item.dir_fd))
            elif item.is_dir:
                out[item.rel] = Entry("dir")
            elif item.is_file:
                fd = os.open(item.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=item.dir_fd)
                with os.fdopen(fd, "rb") as fh:
                    out[item.rel] = Entry("file", bool(item.st.st_mode & 0o111),
                                          hashlib.file_digest(fh, "sha256").hexdigest())
            else:
                out[item.rel] = Entry("other")
    except TreeTooDeep as exc:
        raise PatchRejected(f"the patched tree is too deep: {exc} (grading limit limits.max_depth)") from exc
    return out


@dataclass
class Change:
    path: str
    what: str  # added | removed | modified | mode | type
    before: Entry | None
    after: Entry | None


def diff_trees(before: dict[str, Entry], after: dict[str, Entry]) -> list[Change]:
    """The true change set between two snapshots (directories only when added/removed)."""
    changes: list[Change] = []
    for path in sorted(set(before) | set(after)):
        a, b = before.get(path), after.get(path)
        if a == b:
            continue
        if a is None:
            changes.append(Change(path, "added", a, b))
        elif b is None:
            changes.append(Change(path, "removed", a, b))
        elif a.kind != b.kind:
            changes.append(Change(path, "type", a, b))
        elif a.digest != b.digest:
            changes.append(Change(path, "modified", a, b))
        else:
            changes.append(Change(path, "mode", a, b))
    return changes


def _has_symlink(root: Path) -> bool:
    return any(item.is_link for item in iter_tree(root, max_depth=1 << 20))


_BINARY_SIZE = re.compile(r"^(literal|delta) (\d+)\s*$")


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """git's delta header size: 7 bits per byte, least significant first."""
    value = shift = 0
    while pos < len(data):
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos
    raise ValueError("truncated delta header")


def _delta_target_size(lines: list[str], start: int) -> int:
    """The result size a `delta` hunk from `lines[start]` on announces: base85 lines -> zlib -> two varints (source,
    target size), inflating no more than the header. Read in place: a copy of the rest of the patch per hunk was
    quadratic in the number of hunks."""
    out = b""
    d = zlib.decompressobj()
    for j in range(start, len(lines)):
        line = lines[j].rstrip("\r")
        if not line:
            break
        n = ord(line[0]) - (ord("A") - 1 if line[0] <= "Z" else ord("a") - 27)
        if not 1 <= n <= 52:
            raise ValueError(f"bad base85 line length {line[0]!r}")
        out += d.decompress(d.unconsumed_tail + base64.b85decode(line[1:])[:n], 32 - len(out))
        if len(out) >= 20 or d.eof:
            break
    _source, pos = _varint(out, 0)
    target, _ = _varint(out, pos)
    return target


def expanded_bytes(patch: str, pristine: Path | None = None) -> int:
    """What applying `patch` can make the host write (and git hold in memory) beyond the patch text itself,
    measured from the text alone, before anything is applied: the inflated size of every `GIT binary patch`
    hunk (`literal N`: N; `delta N`: N plus the target size its header announces) and the size of every
    pristine file a `copy from` header copies. A malformed binary delta raises PatchRejected."""
    from swerl.sandbox.patch import _unquote

    total = 0
    lines = patch.splitlines()
    binary = False
    for i, line in enumerate(lines):
        if line.startswith("diff --git "):
            binary = False
        elif line.startswith("GIT binary patch"):
            binary = True
        elif binary and (m := _BINARY_SIZE.match(line)):
            total += int(m.group(2))
            if m.group(1) == "delta":
                try:
                    total += _delta_target_size(lines, i + 1)
                except (ValueError, zlib.error, IndexError) as exc:
                    raise PatchRejected(f"malformed binary delta in the patch: {exc}") from exc
        elif line.startswith("copy from ") and pristine is not None:
            rel = _unquote(line[len("copy from "):])
            with contextlib.suppress(OSError, ValueError):
                src = pristine / rel
                if ".." not in PurePosixPath(rel).parts and src.is_file() and not src.is_symlink():
                    total += src.stat().st_size
    return total


def check_tree(root: Path, limits: TreeLimits) -> None:
    """PatchRejected if the patched tree at `root` is deeper, has more entries or more bytes than `limits`."""
    try:
        st = tree_stats(root, max_depth=limits.max_depth, max_entries=limits.max_files, max_bytes=limits.max_bytes)
    except TreeTooDeep as exc:
        raise PatchRejected(f"the patched tree is deeper than {limits.max_depth} levels (grading limit "
                            "limits.max_depth)") from exc
    if st.entries > limits.max_files:
        raise PatchRejected(f"the patched tree has more than {limits.max_files} entries (grading limit "
                            "limits.max_files)")
    if st.bytes > limits.max_bytes:
        raise PatchRejected(f"the patched tree holds more than {limits.max_bytes} bytes (grading limit "
                            "limits.max_bytes)")


def _tool_argv(argv: list[str], limits: TreeLimits) -> list[str]:
    """No single file the apply tools write may exceed the tree's byte limit (RLIMIT_FSIZE: SIGXFSZ past it), and
    no tool may search longer than `max_apply_cpu_s` (RLIMIT_CPU: SIGXCPU; GNU patch's fuzz search is quadratic)."""
    prlimit = shutil.which("prlimit")
    cpu = f"--cpu={limits.max_apply_cpu_s}:{limits.max_apply_cpu_s + 5}"  # SIGXCPU first, SIGKILL 5 s later
    return [prlimit, f"--fsize={limits.max_bytes}", cpu, "--", *argv] if prlimit else argv


def apply_patch(pristine: Path, dest: Path, patch: str, *, limits: TreeLimits | None = None) -> str:
    """Copy `pristine` to `dest` and apply `patch` there with git outside any repository; return the tool used.

    `git apply`, then GNU `patch --fuzz=5` (swesmith's first and last GIT_APPLY_CMDS), each on a fresh copy;
    `patch` (the one tool that could follow a symlink) only on trees without any. Else `PatchRejected`.

    Bounds (`limits`, default `current_limits()`): the patch text (`max_patch_bytes`); what it expands to -
    binary literals/deltas and copies - measured from the text *before* applying (`max_expanded_bytes`); no
    file the tools write may exceed `max_bytes`; the tree it produced (`max_depth`, `max_files`, `max_bytes`).
    Any failure is `PatchRejected` (the agent's), except the host's disk filling up: that OSError propagates
    (infrastructure; the bounds keep a patch from filling it). A failed `dest` is removed (iteratively).
    """
    lim = limits or current_limits()
    data = patch.encode("utf-8", "surrogateescape")
    if len(data) > lim.max_patch_bytes:
        raise PatchRejected(f"patch is {len(data)} bytes (limit {lim.max_patch_bytes}, limits.max_patch_bytes)")
    try:
        return _apply(pristine, dest, data, patch, lim)
    except BaseException as exc:
        rmtree_quietly(dest)  # iteratively: a rejected tree may be deeper than any recursive clean-up survives
        if isinstance(exc, PatchRejected) or not isinstance(exc, Exception) or is_disk_full(exc):
            raise
        raise PatchRejected(f"the patch cannot be turned into a tree: {type(exc).__name__}: {str(exc)[:300]}") from exc


def _apply(pristine: Path, dest: Path, data: bytes, patch: str, lim: TreeLimits) -> str:
    named = len(patch_headers(patch))
    if named > lim.max_patch_files:
        raise PatchRejected(f"the patch names {named} files (limit {lim.max_patch_files}, limits.max_patch_files); "
                            "nothing was applied")
    expanded = expanded_bytes(patch, pristine)
    if expanded > lim.max_expanded_bytes:
        raise PatchRejected(f"the patch would expand to {expanded} bytes of binary data and copies (limit "
                            f"{lim.max_expanded_bytes}, limits.max_expanded_bytes); nothing was applied")
    with owners.scratch("swerl-apply-") as tmp:
        pfile = tmp / "model.patch"
        pfile.write_bytes(data)
        env = git_env(tmp, GIT_CEILING_DIRECTORIES=str(dest.parent))
        attempts: list[tuple[str, list[str]]] = [
            ("git apply", ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.symlinks=true", "apply", "--verbose",
                           "--whitespace=nowarn", str(pfile)]),
            ("git apply --recount", ["git", "-c", "core.hooksPath=/dev/null", "apply", "--verbose", "--recount",
                                     "--whitespace=nowarn", str(pfile)]),
        ]
        if shutil.which("patch") and not _has_symlink(pristine):
            attempts.append(("patch --fuzz=5", ["patch", "--batch", "--fuzz=5", "-p1", "--no-backup-if-mismatch",
                                                "-i", str(pfile)]))
        errors: list[str] = []
        for name, argv in attempts:
            remove_path(dest)
            copy_tree_safely(pristine, dest, max_depth=1 << 20)
            try:
                proc = subprocess.run(_tool_argv(argv, lim), cwd=dest, env=env, capture_output=True, timeout=120,
                                      check=False)
            except subprocess.TimeoutExpired:
                errors.append(f"{name}: timed out")
                continue
            if proc.returncode == 0:
                check_tree(dest, lim)  # first: the symlink scan below walks the tree without a depth bound
                if not (name.startswith("patch") and _has_symlink(dest)):
                    return name
            why = proc.stderr.decode(errors="replace").strip()[-300:]
            if proc.returncode in (-25, 128 + 25):  # SIGXFSZ
                why = f"a file grew past limits.max_bytes ({lim.max_bytes} bytes) {why}".strip()
            if proc.returncode in (-24, 128 + 24):  # SIGXCPU
                why = f"searched longer than limits.max_apply_cpu_s ({lim.max_apply_cpu_s} CPU seconds)"
            errors.append(f"{name}: {why}")
        raise PatchRejected("patch does not apply: " + " | ".join(errors))


def patch_headers(patch: str) -> dict[str, int]:
    """Every path any header of the diff names (anywhere, also after hunks) -> number of hunks after it.
    Reporting only (what the patch did is decided by the tree diff). A hunk's lines are consumed by its header's
    counts, as `git apply` reads them, so file content that looks like a header (`++ x` added = `+++ x`) is
    content; never raises (agent data)."""
    from swerl.sandbox.patch import _strip_prefix, _unquote, outside_hunks

    paths: dict[str, int] = {}
    current: dict[str, None] = {}  # this file diff's names, in order; a real one has at most four
    for line in outside_hunks(patch.splitlines()):
        p: str | None = None
        if line.startswith(("--- ", "+++ ")):
            p = _strip_prefix(line[4:])
        elif line.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            p = _unquote(line.split(" ", 2)[2])
        elif line.startswith("diff --git "):
            current = {}
            continue
        elif line.startswith("@@"):
            for c in current:
                paths[c] = paths.get(c, 0) + 1
            continue
        if p:
            if len(current) < 8:  # a hunk counts for these (linear in the patch however many names it piles up)
                current.setdefault(p, None)
            paths.setdefault(p, 0)
    return paths


def fix_protected(task: SandboxTask) -> str | None:
    """Why no patch can fix `task` under the defences, or None: its own fix (the row's `patch`, SWE-bench's gold
    patch or SWE-smith's bug patch) is in a file the tree policy keeps from every patch, such as the test runner in
    pytest's own repository (`src/_pytest/`), `django/test/` or `xarray/testing.py`. Code that the tests use to decide
    a verdict cannot be graded by running those tests, so the grade is refused up front as infrastructure, never a
    reward of 0 for a fix that had to be dropped."""
    return protected_fix(str(task.row.get("patch") or ""), task.FAIL_TO_PASS + task.PASS_TO_PASS)


def protected_fix(gold: str, test_ids: list[str]) -> str | None:
    """`fix_protected` of a row's `patch` and test ids."""
    try:
        paths = sorted(patch_headers(gold)) if gold.strip() else []
    except Exception:  # a malformed gold patch: the grade itself says what is wrong
        return None
    tests = test_files_of(test_ids)
    for path in paths:
        why = protected_reason(path, tests)
        if why and why != "pytest/tox/setup.cfg configuration":  # those are judged by what changes in them
            return (f"the task cannot be graded with the defences on: its fix changes {path} ({why}), a file the "
                    "grader keeps from every patch")
    return None


def _table(data: Any, key: str) -> Any:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _pytest_config_toml(text: str) -> Any:
    data = tomllib.loads(text)
    tool, project = _table(data, "tool"), _table(data, "project")
    return {"pytest": tool.get("pytest"), "tox": tool.get("tox"), "pytest11": _table(project, "entry-points").get(
        "pytest11"), "poetry_plugins": _table(tool, "poetry").get("plugins"), "setuptools": tool.get("setuptools")}


def _pytest_config_cfg(text: str) -> Any:
    cp = configparser.RawConfigParser(strict=False, interpolation=None)
    cp.read_string(text)
    return {low: sorted(cp.items(section)) for section in cp.sections()
            if "pytest" in (low := section.strip().lower()) or low.startswith("tool:")
            or low in {"options.entry_points", "tox", "testenv"}}


def _config_changed(name: str, old: bytes | None, new: bytes | None) -> str | None:
    """For pyproject.toml / setup.cfg: compare the parsed test-runner configuration, not the text."""
    parse = _pytest_config_toml if name == "pyproject.toml" else _pytest_config_cfg
    try:
        before = parse(old.decode()) if old is not None else None
    except Exception:
        before = "unparsable"
    try:
        after = parse(new.decode()) if new is not None else None
    except Exception:
        return f"{name} does not parse after the patch"
    if before == after or (before is None and after in ({}, parse(""))):
        return None
    return f"pytest configuration in {name}"


@dataclass
class Policy:
    """What may not change in a graded tree. `shadow` are import names a new top-level module may not take."""

    test_files: set[str] = field(default_factory=set)
    shadow: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def for_task(cls, task: SandboxTask) -> Policy:
        return cls(test_files=test_files_of(task.FAIL_TO_PASS + task.PASS_TO_PASS), shadow=shadow_names())

    def reason(self, change: Change, pristine_root: Path, new_root: Path, roots: set[str]) -> str | None:
        path = change.path
        p = PurePosixPath(path)
        if not _SAFE_NAME.match(path) or any("\udc80" <= ch <= "\udcff" for ch in path):
            return "unsafe file name"
        if ".git" in p.parts:
            return "git metadata"
        if any(_GRADER_NAME.match(part) for part in p.parts):
            return "collides with a file name the grader writes (swerl's own trusted/private files)"
        r = protected_reason(path, self.test_files)
        if r and r != "pytest/tox/setup.cfg configuration":
            return r
        if p.name in _PYTEST_INI:
            return "pytest/tox configuration"
        if any(part.endswith((".dist-info", ".egg-info")) for part in p.parts) or p.name.endswith(".egg-link"):
            return "package metadata (entry points / plugins)"
        stems = {part[:-3] if part.endswith(".py") else part for part in p.parts}
        if stems & {"sitecustomize", "usercustomize", "conftest"}:
            return "interpreter/pytest start-up hook"
        for e in (change.before, change.after):
            if e is not None and e.kind in ("link", "other"):
                return "symlink or special file"
        if change.after is not None and change.after.kind == "file":
            if path.endswith(BINARY_SUFFIXES):
                return "compiled binary"
            with contextlib.suppress(OSError), open(new_root / path, "rb") as fh:
                if fh.read(4).startswith(_BINARY_MAGIC):
                    return "executable binary"
        if change.what == "added":
            parts = p.parts[1:] if (p.parts[0] == "src" and "src" in roots and len(p.parts) > 1) else p.parts
            top = parts[0]
            name = top[:-3] if top.endswith(".py") else top
            existing = roots if parts is p.parts else set(os.listdir(pristine_root / "src"))
            if top not in existing and name in self.shadow:
                return f"new top-level module {name!r} shadows an installed or standard-library module"
        if p.name in ("pyproject.toml", "setup.cfg"):
            old = (pristine_root / path).read_bytes() if change.before and change.before.kind == "file" else None
            new = (new_root / path).read_bytes() if change.after and change.after.kind == "file" else None
            return _config_changed(p.name, old, new)
        return None


# Directory names some distributions install by mistake: never treated as shadowing (a fix may add `scripts/`).
GENERIC_NAMES = frozenset({"tests", "test", "testing", "docs", "doc", "examples", "example", "scripts", "src",
                           "benchmarks", "bench", "tools", "utils", "util", "data", "build", "dist", "lib"})


def installed_names(names: object) -> frozenset[str]:
    """Import names usable for the shadow check: identifiers, minus generic directory names."""
    return frozenset(n for n in names if isinstance(n, str) and n.isidentifier() and n not in GENERIC_NAMES)


@functools.cache
def shadow_names() -> frozenset[str]:
    """Standard library, the test runner's own imports and every import name installed on the grading host
    (computed once per process: scanning the installed distributions takes ~0.5 s)."""
    names = set(sys.stdlib_module_names) | RUNNER_MODULES
    with contextlib.suppress(Exception):
        import importlib.metadata as md

        names |= installed_names(md.packages_distributions())
    return frozenset(names)


def restore(path: str, pristine: Path, tree: Path) -> None:
    """Make `tree/path` what it is in `pristine` (removed when absent there); iterative at any depth."""
    target, src = tree / path, pristine / path
    remove_path(target)
    if src.is_symlink() or src.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)
    elif src.is_dir():
        copy_tree_safely(src, target, max_depth=1 << 20)


def enforce(changes: list[Change], pristine: Path, tree: Path, policy: Policy,
            hunks: dict[str, int] | None = None) -> tuple[list[Change], list[DroppedFile]]:
    """Restore/delete every protected change in `tree`; return (kept changes, dropped files)."""
    roots = {PurePosixPath(p).parts[0] for p in os.listdir(pristine)}
    kept: list[Change] = []
    dropped: list[DroppedFile] = []
    for ch in sorted(changes, key=lambda c: (c.path.count("/"), c.path)):
        if any(ch.path.startswith(d.path + "/") for d in dropped):
            continue  # inside a dropped new directory
        reason = policy.reason(ch, pristine, tree, roots)
        if reason is None:
            kept.append(ch)
            continue
        if not is_bytecode(ch.path):
            dropped.append(DroppedFile(path=ch.path, reason=reason, hunks=max((hunks or {}).get(ch.path, 1), 1)))
        restore(ch.path, pristine, tree)
    if dropped:
        log.info("protected changes dropped", files=[d.path for d in dropped])
    return kept, dropped


@dataclass
class PristineTree:
    """`tip`: the problem branch as the agent saw it; `base`: the same plus restored hidden tests."""

    tip: Path
    base: Path
    hidden: list[str]
    git_binaries: list[str]
    env_modules: list[str] = field(default_factory=list)  # importable top-level names in the grading environment
    pin: int | None = None  # a cache entry's pin file, held shared while a grade reads the entry (`release`)


def release(tree: PristineTree) -> None:
    """The grade is done with `tree`: the cache may prune its entry again."""
    if tree.pin is not None:
        with contextlib.suppress(OSError):
            os.close(tree.pin)
        tree.pin = None


def _pin(entry: Path, *, exclusive: bool = False) -> int | None:
    """A lock on a cache entry's pin file: shared while a grade reads the entry, exclusive (without waiting) while
    pruning deletes it, so no grade loses the pristine tree it is building from. None where it cannot be had."""
    try:
        fd = os.open(entry / ".pin", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB if exclusive else fcntl.LOCK_SH)
    except OSError:
        os.close(fd)
        return None
    return fd


_CACHE_LOCK = threading.Lock()
_MEMO: dict[str, PristineTree] = {}


def _cache_root() -> Path:
    from swerl.sandbox.images import cache_dir

    return cache_dir() / "grade-trees"


def hidden_test_files(name_status: bytes, task: SandboxTask) -> list[str]:
    """Files the tip commit deleted, when it *only* deleted test files (SWE-smith's "Remove F2P Tests")."""
    parts = [p.decode("utf-8", "surrogateescape") for p in name_status.split(b"\0") if p]
    pairs = list(zip(parts[0::2], parts[1::2], strict=False))
    if not pairs or any(st != "D" for st, _ in pairs):
        return []
    tests = test_files_of(task.FAIL_TO_PASS + task.PASS_TO_PASS)
    files = [p for _, p in pairs]
    if all(p in tests or protected_reason(p, tests) in ("test file", "test file of FAIL_TO_PASS/PASS_TO_PASS")
           for p in files):
        return sorted(files)
    return []


# Top-level import names of the grading environment's interpreter (standard library + everything on sys.path but
# the work tree): a new repository module with one of these names could shadow it.
ENV_MODULES = (
    "cd /; if [ -f /opt/miniconda3/bin/activate ]; then . /opt/miniconda3/bin/activate testbed >/dev/null 2>&1; fi; "
    "py=$(command -v python || command -v python3) || exit 0; \"$py\" -I -c '"
    "import sys, pkgutil, json; names = set(sys.stdlib_module_names) | {m.name for m in pkgutil.iter_modules()}; "
    "print(\"SWERL_MODS \" + json.dumps(sorted(names)))'"
)


def _env_modules(output: str) -> list[str]:
    for line in output.splitlines():
        if line.startswith("SWERL_MODS "):
            with contextlib.suppress(ValueError):
                return sorted(n for n in json.loads(line[len("SWERL_MODS "):]) if isinstance(n, str))
    return []


_GIT = "git -c safe.directory='*' -c core.hooksPath=/dev/null -c advice.detachedHead=false"


def _prep_script(task: SandboxTask) -> str:
    wd, br, git = shlex.quote(task.workdir), shlex.quote(task.branch), _GIT
    return (f"cd {wd} || exit 90; {git} checkout -q -f {br} >/dev/null 2>&1 || {{ echo SWERL_BRANCH_MISSING; exit 3; }}; "
            f"echo SWERL_NS_BEGIN; if {git} rev-parse -q --verify 'HEAD~1^{{commit}}' >/dev/null; then "
            f"{git} diff-tree -r -z --no-commit-id --name-status --no-renames HEAD | base64 | tr -d '\\n'; fi; "
            "echo; echo SWERL_NS_END")


def _restore_script(task: SandboxTask, hidden: list[str], keep_git: bool) -> str:
    wd = shlex.quote(task.workdir)
    lines = [f"cd {wd} || exit 90"]
    if hidden:
        lines.append(f"{_GIT} checkout -q HEAD~1 -- {' '.join(shlex.quote(h) for h in hidden)} || exit 4")
    if not keep_git:
        lines.append(hardening.remove_git_script(task.workdir))
    lines += [hardening.DROP_BYTECODE, "echo SWERL_EXPORT_OK"]
    return "\n".join(lines)


def export_pristine(sandbox: BackendBase, task: SandboxTask, *, keep_git: bool = False) -> PristineTree:
    """The problem branch as a host directory (cached per task + image/repo state), hidden tests restored; only
    trusted commands run in the pristine prep sandbox. `keep_git` (audit controls only) keeps `.git`."""
    from swerl.sandbox.base import HardeningError, SandboxError

    key_src = None if keep_git else sandbox.pristine_key(task)
    key = None
    if key_src is not None:
        key = hashlib.sha256(json.dumps([key_src, task.instance_id, task.branch, task.workdir,
                                         sorted(test_files_of(task.FAIL_TO_PASS + task.PASS_TO_PASS)), 3]).encode()
                             ).hexdigest()[:24]
        if (hit := _cached(key)) is not None:
            return hit
    handle = sandbox.start_pristine(task)
    staging = owners.mkdtemp("swerl-pristine-", sandbox.settings.run_label)
    try:
        res = sandbox.exec_argv(handle, ["sh", "-c", _prep_script(task)], timeout=300, cwd="/")
        if hardening.branch_missing(res.output):
            raise HardeningError(f"task {task.instance_id}: branch {task.branch!r} is missing")
        m = re.search(r"SWERL_NS_BEGIN\n(.*?)\nSWERL_NS_END", res.output, re.S)
        if res.returncode != 0 or m is None:
            raise SandboxError(f"task {task.instance_id}: pristine export failed: {res.output[-500:]}")
        hidden = hidden_test_files(base64.b64decode(m.group(1).strip() or b""), task)
        res = sandbox.exec_argv(handle, ["sh", "-c", _restore_script(task, hidden, keep_git)], timeout=300, cwd="/")
        if "SWERL_EXPORT_OK" not in res.output:
            raise SandboxError(f"task {task.instance_id}: pristine export failed: {res.output[-500:]}")
        binaries = hardening.git_binaries(sandbox.exec_argv(handle, ["sh", "-c", hardening.FIND_GIT], timeout=60,
                                                            cwd="/").output)
        env_modules = _env_modules(sandbox.exec_argv(handle, ["sh", "-c", ENV_MODULES], timeout=120, cwd="/").output)
        base = staging / "base"
        sandbox.copy_out(handle, task.workdir, base)
    except BaseException:
        rmtree_quietly(staging)
        raise
    finally:
        sandbox.stop(handle)
    tip = staging / "tip"
    copy_tree_safely(base, tip, max_depth=1 << 20)
    for h in hidden:
        (tip / h).unlink(missing_ok=True)
    tree = PristineTree(tip=tip, base=base, hidden=hidden, git_binaries=binaries, env_modules=env_modules)
    if key is None:
        return tree
    return _store_cached(key, staging, tree)


def _cached(key: str) -> PristineTree | None:
    """The cached export `key` (memory, else disk), marked as just used; None if absent or unreadable."""
    with _CACHE_LOCK:
        hit = _MEMO.get(key)
    if hit is None or not (hit.tip.is_dir() and hit.base.is_dir()):
        d = _cache_root() / key
        try:
            data = json.loads((d / "meta.json").read_text())
            hit = PristineTree(tip=d / "tip", base=d / "base", hidden=list(data["hidden"]),
                               git_binaries=list(data["git_binaries"]), env_modules=list(data.get("env_modules", [])))
        except Exception:
            return None
        with _CACHE_LOCK:
            _MEMO[key] = hit
    pin = _pin(hit.tip.parent)
    if pin is None or not (hit.tip.is_dir() and hit.base.is_dir()):  # pruned while we waited for the pin
        if pin is not None:
            os.close(pin)
        return None
    with contextlib.suppress(OSError):
        os.utime(hit.tip.parent)  # least recently used goes first when the cache is pruned
    return dataclasses.replace(hit, pin=pin)


def _store_cached(key: str, staging: Path, tree: PristineTree) -> PristineTree:
    """Atomic: written next to the cache entry, then renamed; a concurrent writer's entry wins."""
    root = _cache_root()
    root.mkdir(parents=True, exist_ok=True)
    (staging / owners.OWNER_FILE).unlink(missing_ok=True)  # cached for every run: nobody's scratch any more
    (staging / "meta.json").write_text(json.dumps({"hidden": tree.hidden, "git_binaries": tree.git_binaries,
                                                   "env_modules": tree.env_modules}))
    final = root / key
    tmp = root / f".{key}.{os.getpid()}.{threading.get_ident()}"
    try:
        os.rename(staging, tmp)
    except OSError:  # another filesystem: copy (iteratively), then drop the staging copy
        copy_tree_safely(staging, tmp, max_depth=1 << 20)
        rmtree_quietly(staging)
    try:
        tmp.rename(final)
    except OSError:  # someone else stored it first
        rmtree_quietly(tmp)
    cached = _cached(key)
    if cached is None:
        raise RuntimeError(f"grade-tree cache entry {final} unreadable")
    _prune(root, keep=key)
    return cached


def cache_budget_bytes() -> int:
    """`SWERL_GRADE_CACHE_MB` (default 4096): the pristine-tree cache is pruned, least recently used first."""
    try:
        return int(float(os.environ.get("SWERL_GRADE_CACHE_MB", "4096")) * 1024 * 1024)
    except ValueError:
        return 4096 * 1024 * 1024


def _prune(root: Path, keep: str) -> None:
    """Delete least recently used entries until the cache fits its budget (never `keep`); errors are ignored."""
    with contextlib.suppress(OSError):
        entries = [(e.stat().st_mtime, e) for e in root.iterdir() if e.is_dir() and not e.name.startswith(".")]
        sizes = {e.name: tree_bytes(e) for _, e in entries}
        total, budget = sum(sizes.values()), cache_budget_bytes()
        for _, entry in sorted(entries, key=lambda x: x[0]):
            if total <= budget:
                break
            pin = None if entry.name == keep else _pin(entry, exclusive=True)
            if pin is None:  # the entry just stored, or one a grade is reading now
                continue
            try:
                rmtree_quietly(entry)
            finally:
                os.close(pin)
            total -= sizes[entry.name]
            with _CACHE_LOCK:
                _MEMO.pop(entry.name, None)
