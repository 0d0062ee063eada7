"""Host-side patch extraction and the protected-file filter.

The diff is computed on the host against the `.git` saved before the agent started (it may
have planted hooks, an fsmonitor or a fake `.git`); hunks that could make failing tests
pass (conftest, start-up hooks, test files, pytest configuration) are dropped and reported.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

from swerl.log import get_logger
from swerl.sandbox import owners
from swerl.sandbox.hostfs import MAX_DEPTH, iter_tree, remove_path
from swerl.sandbox.schema import DroppedFile, PatchResult

log = get_logger(__name__)

GIT_SAFE_CONFIG = ("core.hooksPath=/dev/null", "core.fsmonitor=false", "core.untrackedCache=false",
                   "core.autocrlf=false", "core.safecrlf=false", "core.symlinks=true", "core.quotePath=false",
                   "diff.noprefix=false", "diff.mnemonicPrefix=false", "safe.directory=*")

_PYTEST_SHADOW_DIRS = {"_pytest", "pluggy"}
_PYTEST_SHADOW_FILES = {"pytest.py", "py.py"}
_CONFIG_FILES = {"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "noxfile.py"}
_PYPROJECT_PYTEST = re.compile(
    r"pytest|addopts|testpaths|python_files|python_classes|python_functions|pythonpath|norecursedirs"
    r"|confcutdir|required_plugins|usefixtures|filterwarnings|\[tool\.tox",
)


def test_files_of(test_ids: Iterable[str]) -> set[str]:
    """`tests/test_x.py::test_a` -> `tests/test_x.py` (the files FAIL_TO_PASS/PASS_TO_PASS live in). A doctest of
    a project module (`pkg/units.py::pkg.units.to_meters`) names no test file: the module is the code to fix, and
    its docstring is guarded on its own (`tamper.doctests_changed`)."""
    return {t.split("::", 1)[0] for t in test_ids if ("::" in t or t.endswith(".py")) and doctest_of(t) is None}


def doctest_of(test_id: str) -> tuple[str, str] | None:
    """(module file, qualified name in it; "" for the module's own docstring) of a pytest doctest id of a `.py`
    module (`--doctest-modules`: `src/pkg/units.py::pkg.units.to_meters`), else None."""
    path, _, name = test_id.partition("::")
    if not path.endswith(".py") or not name or "::" in name or "[" in name:
        return None
    stem = PurePosixPath(path).stem
    if stem.startswith("test_") or stem.endswith("_test"):  # `tests/test_x.py::test_x` is the test named like its
        return None  # file, not the module's docstring: read as a doctest, the file went unprotected (round 61)
    parts = PurePosixPath(path[:-3]).parts
    for i in range(len(parts)):  # `src/pkg/units.py` is module `pkg.units`
        module = ".".join(p for p in parts[i:] if p != "__init__")
        if module and (name == module or name.startswith(module + ".")):
            return path, name[len(module) + 1:]
    return None


BYTECODE = "compiled bytecode (could run instead of the source)"


def is_bytecode(path: str) -> bool:
    return "__pycache__" in PurePosixPath(path).parts or path.endswith((".pyc", ".pyo"))


def protected_reason(path: str, test_files: set[str] | None = None) -> str | None:
    """Why changes to `path` may not enter a graded patch, or None if they may."""
    p = PurePosixPath(path)
    name = p.name
    if name == "conftest.py":
        return "conftest.py"
    if name in {"sitecustomize.py", "usercustomize.py"}:
        return "interpreter start-up hook (sitecustomize/usercustomize)"
    if name.endswith(".pth"):
        return "*.pth import hook"
    if is_bytecode(path):
        return BYTECODE
    if name in _CONFIG_FILES:
        return "pytest/tox/setup.cfg configuration"
    if name in _PYTEST_SHADOW_FILES or (p.parts and p.parts[0] == "pytest") or _PYTEST_SHADOW_DIRS & set(p.parts):
        return "shadows the test runner (pytest/pluggy)"
    if test_files and path in test_files:
        return "test file of FAIL_TO_PASS/PASS_TO_PASS"
    if set(p.parts[:-1]) & {"tests", "test", "testing"}:
        return "test file"
    stem = name.rsplit(".", 1)[0]
    if name.endswith(".py") and (stem.startswith("test") or stem.endswith("_test") or stem.endswith("_tests")):
        return "test file"
    return None


_C_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_C_QUOTED = re.compile(r'\\([0-7]{3}|[abtnvfr"\\])')


def _bytes(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")  # the bytes a non-UTF-8 name was read from
    except UnicodeEncodeError:  # another lone surrogate: keep it visible
        return text.encode("utf-8", "backslashreplace")


def _unquote(path: str) -> str:
    """git's C quoting undone (octal bytes, `\\t`-style escapes); total on any text an agent can write: an
    escape git never emits (`\\N`, `\\u0100`) stays as written, never an exception on the host."""
    path = path.strip()
    if len(path) >= 2 and path.startswith('"') and path.endswith('"'):
        out = bytearray()
        pos = 0
        body = path[1:-1]
        for m in _C_QUOTED.finditer(body):
            out += _bytes(body[pos:m.start()])
            esc = m.group(1)
            out.append(int(esc, 8) & 0xFF if len(esc) == 3 else _C_ESCAPES[esc])  # \777: git never writes it
            pos = m.end()
        out += _bytes(body[pos:])
        path = out.decode("utf-8", "replace")
    return path


def _strip_prefix(path: str) -> str | None:
    path = _unquote(path.split("\t", 1)[0])
    if path == "/dev/null":
        return None
    return path[2:] if path[:2] in ("a/", "b/") else path


_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def outside_hunks(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a diff that are not hunk content, hunk headers included. A hunk's lines are consumed by its
    header's counts, as `git apply` reads them: content that looks like a header (an added `++ x` is `+++ x`)
    stays content, and a `---`/`+++` pair after a used-up hunk starts a new file."""
    old_left = new_left = 0
    for line in lines:
        if old_left > 0 or new_left > 0:  # inside a hunk
            tag = line[:1]
            if tag in (" ", "\n", ""):
                old_left, new_left = old_left - 1, new_left - 1
            elif tag == "-":
                old_left -= 1
            elif tag == "+":
                new_left -= 1
            elif tag != "\\":
                old_left = new_left = 0
            if old_left > 0 or new_left > 0 or tag in ("-", "+", " ", "\\"):
                continue
        if (m := _HUNK.match(line)) is not None:
            old_left = int(m.group(1)) if m.group(1) is not None else 1
            new_left = int(m.group(2)) if m.group(2) is not None else 1
        yield line


def _paths_of(chunk: list[str]) -> set[str]:
    """All paths a per-file diff section names (old and new; renames/copies included) - also file headers that
    follow a hunk (`outside_hunks`)."""
    paths: set[str] = set()
    binary = False
    for line in outside_hunks(chunk):
        if binary and not line.startswith(("diff --git ", "--- ", "+++ ")):
            continue
        if line.startswith(("--- ", "+++ ")):
            binary = False
            p = _strip_prefix(line[4:].rstrip("\n"))
            if p:
                paths.add(p)
        elif line.startswith(("rename from ", "rename to ", "copy from ", "copy to ")):
            paths.add(_unquote(line.split(" ", 2)[2].rstrip("\n")))
        elif line.startswith("GIT binary patch"):
            binary = True
    if not paths:
        header = chunk[0].rstrip("\n")[len("diff --git "):]
        if header.startswith('"'):
            parts = re.findall(r'"(?:[^"\\]|\\.)*"|\S+', header)
            paths.update(p for p in (_strip_prefix(x) for x in parts) if p)
        elif " b/" in header:
            a, b = header.split(" b/", 1)
            paths.update({a[2:] if a.startswith("a/") else a, b})
    return paths


def _split(lines: list[str], start: str) -> tuple[list[str], list[list[str]]]:
    """(lines before the first `start` line, one list per section beginning with a `start` line)."""
    head: list[str] = []
    sections: list[list[str]] = []
    for line in lines:
        if line.startswith(start):
            sections.append([line])
        else:
            (sections[-1] if sections else head).append(line)
    return head, sections


def split_patch(patch: str) -> list[list[str]]:
    """Split a git diff into per-file sections (lines keep their newlines); leading junk is dropped."""
    return _split(patch.splitlines(keepends=True), "diff --git ")[1]


def filter_patch(patch: str, test_files: set[str] | None = None) -> PatchResult:
    """Drop (and report) every hunk that touches a protected file; keep the rest byte-for-byte."""
    kept: list[str] = []
    files: list[str] = []
    dropped: list[DroppedFile] = []
    bytecode = 0
    for section in split_patch(patch):
        paths = _paths_of(section)
        if paths and all(is_bytecode(p) for p in paths):
            bytecode += 1  # written by every test run; dropped without being reported as an attempt
            continue
        head, hunks = _split(section, "@@")
        n_hunks = max(len(hunks), 1)
        reasons = {r for r in (protected_reason(p, test_files) for p in paths) if r}
        if reasons:
            dropped.append(DroppedFile(path=sorted(paths)[0], reason="; ".join(sorted(reasons)), hunks=n_hunks))
            continue
        if any(PurePosixPath(p).name == "pyproject.toml" for p in paths) and hunks:
            good = [h for h in hunks if not any(_PYPROJECT_PYTEST.search(line) for line in h)]
            if len(good) < len(hunks):
                dropped.append(DroppedFile(path=sorted(paths)[0], reason="pytest configuration in pyproject.toml",
                                           hunks=len(hunks) - len(good)))
            if not good:
                continue
            section = head + [line for h in good for line in h]
        kept.extend(section)
        files.extend(sorted(paths))
    if dropped:
        log.info("protected hunks dropped", files=[d.path for d in dropped])
    return PatchResult(patch="".join(kept), files=sorted(set(files)), dropped=dropped, ignored_bytecode=bytecode)


def _remove_git_entries(tree: Path, *, max_depth: int = MAX_DEPTH) -> list[str]:
    """The agent may have created `.git` dirs/files (fake repos, gitlinks); they never enter the diff.
    Iterative, through directory descriptors, bounded by `max_depth` (`TreeTooDeep`)."""
    found = [item.rel for item in iter_tree(tree, max_depth=max_depth, prune=lambda item: item.name == ".git")
             if item.name == ".git"]
    for rel in found:
        remove_path(tree / rel)
    return found


def git_env(home: Path | str, **extra: str) -> dict[str, str]:
    """A minimal environment for host git: no system/global config, no prompts, no optional locks."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0", **extra}


def run_git(args: list[str], env: dict[str, str], *, cwd: Path | None = None) -> str:
    """`git` with hooks, fsmonitor and every conversion off; raises RuntimeError with git's stderr."""
    return run_git_bytes(args, env, cwd=cwd).decode("utf-8", errors="replace")


def run_git_bytes(args: list[str], env: dict[str, str], *, cwd: Path | None = None) -> bytes:
    """`run_git`'s output as git wrote it."""
    cmd = ["git"]
    for item in GIT_SAFE_CONFIG:
        cmd += ["-c", item]
    proc = subprocess.run(cmd + args, env=env, cwd=cwd, capture_output=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def files_git_reads(diff: str) -> set[str]:
    """Every path a diff touches as `git apply` reads it (a binary file, an empty or mode-only one, any prefix
    letters, octal-quoted bytes), for a trusted diff such as a task's test patch; empty where git cannot read it."""
    with tempfile.TemporaryDirectory(prefix="swerl-numstat-") as tmp:
        (Path(tmp) / "p.diff").write_bytes(diff.encode("utf-8", "surrogateescape"))
        try:
            raw = run_git_bytes(["apply", "--numstat", "-z", "p.diff"], git_env(tmp), cwd=Path(tmp))
        except (RuntimeError, OSError, subprocess.SubprocessError):
            return set()
    out: set[str] = set()
    fields = raw.split(b"\0")
    i = 0
    while i < len(fields):
        head = fields[i].split(b"\t", 2)
        if len(head) == 3 and head[2]:
            out.add(head[2].decode("utf-8", "surrogateescape"))
            i += 1
        elif len(head) == 3:  # a rename or copy: the old and the new path follow
            out.update(f.decode("utf-8", "surrogateescape") for f in fields[i + 1:i + 3] if f)
            i += 3
        else:
            i += 1
    return out


_DIFF_HEAD = re.compile(rb"^diff --git a/(.*) b/", re.M)


def _not_utf8(raw: bytes) -> list[bytes]:
    """The paths (as git wrote them in the headers) whose part of the diff is no UTF-8 text."""
    heads = list(_DIFF_HEAD.finditer(raw))
    out = []
    for i, m in enumerate(heads):
        try:
            raw[m.start():heads[i + 1].start() if i + 1 < len(heads) else len(raw)].decode("utf-8")
        except UnicodeDecodeError:
            out.append(m.group(1))
    return out


def compute_patch(git_dir: Path, tree: Path, *, test_files: set[str] | None = None,
                  max_depth: int = MAX_DEPTH) -> PatchResult:
    """Diff the copied-out work tree `tree` against HEAD of the saved `git_dir`, then filter protected files.
    A tree deeper than `max_depth` raises `TreeTooDeep` (the copy already refuses those)."""
    removed = _remove_git_entries(tree, max_depth=max_depth)
    with owners.scratch("swerl-index-") as tmp:
        env = git_env(str(tmp), GIT_DIR=str(git_dir), GIT_WORK_TREE=str(tree), GIT_INDEX_FILE=str(tmp / "index"),
                      GIT_EXTERNAL_DIFF="")
        run_git(["read-tree", "HEAD"], env, cwd=tree)
        run_git(["add", "-A", "--", "."], env, cwd=tree)
        diff = ["diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "HEAD"]
        data = run_git_bytes(diff, env, cwd=tree)
        odd = _not_utf8(data)
        if odd:  # a Latin-1 line: those files go as binary patches (ASCII), applied byte for byte
            (tmp / "attributes").write_bytes(b"".join(b"/" + p + b" binary\n" for p in odd))
            data = run_git_bytes(["-c", f"core.attributesFile={tmp / 'attributes'}", *diff], env, cwd=tree)
        raw = data.decode("utf-8", errors="replace")
    result = filter_patch(raw, test_files)
    result.removed_git_dirs = removed
    log.info("patch extracted", files=len(result.files), dropped=len(result.dropped), bytes=len(result.patch))
    return result
