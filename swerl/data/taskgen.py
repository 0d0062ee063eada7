"""`swerl data taskgen`: a deterministic generator of SWE-smith-style tasks from the bundled repos.

As SWE-smith does, offline: single-line edits of known bug families inside function bodies
(`FAMILIES`), each kept only if the repo's real tests catch it (`FAIL_TO_PASS` = the tests it
breaks), with an issue-style statement of the symptom, a git branch named `instance_id` per bug,
and a test split of whole held-out modules, so a gain on `test` is generalisation. The stages,
drop reasons and output columns are described in docs/data.md.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swerl.atomic import publish_dir
from swerl.errors import DataError, SwerlError
from swerl.log import get_logger
from swerl.tasks.schema import TaskRow, read_json_rows
from swerl.tasks.taskpack import COPY_IGNORE, REPOS_DIR, clear_out, git, init_clean_repo, write_jsonl

log = get_logger(__name__)

OWNER = "swerl-taskgen"
FAMILIES = ("op_swap", "compare_boundary", "inverted_condition", "logic_swap", "off_by_one", "wrong_constant",
            "swapped_args")
_PYTEST = [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "--tb=short", "-q", "--color=no", "tests"]
_RESULT = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(\S+)", re.MULTILINE)

_BINOPS: dict[type, tuple[str, str]] = {
    ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.FloorDiv: ("//", "/"),
    ast.Mod: ("%", "//"), ast.Pow: ("**", "*"),
}
_CMPOPS: dict[type, tuple[str, str, str]] = {
    ast.Lt: ("<", "<=", "compare_boundary"), ast.LtE: ("<=", "<", "compare_boundary"),
    ast.Gt: (">", ">=", "compare_boundary"), ast.GtE: (">=", ">", "compare_boundary"),
    ast.Eq: ("==", "!=", "inverted_condition"), ast.NotEq: ("!=", "==", "inverted_condition"),
    ast.In: ("in", "not in", "inverted_condition"), ast.NotIn: ("not in", "in", "inverted_condition"),
}
_STRING_SWAPS = {"-": "_", "_": "-", " ": "", ":": ";", ",": ";", "": " ", "\n": " ", "h": "H", "m": "M", "s": "S"}


class TaskgenParams(BaseModel):
    """`swerl data taskgen` flags; a bad value names its flag."""

    model_config = ConfigDict(extra="forbid")

    out: Path
    repos: list[str] = Field(default_factory=list, description="Bundled repos to use (default: all).")
    families: list[str] = Field(default_factory=lambda: list(FAMILIES))
    max_per_function: int = Field(6, ge=1)
    max_fail_frac: float = Field(0.5, gt=0, le=1)
    test_frac: float = Field(0.2, ge=0, lt=1)
    seed: int = 0
    workers: int = Field(2, ge=1)
    timeout_s: float = Field(20.0, gt=0, description="Per test run; a bug that loops forever is dropped.")
    force: bool = False


@dataclass(frozen=True)
class Candidate:
    """One single-line edit that may introduce a bug (before verification)."""

    repo: str
    file: str  # relative to the repo root
    function: str  # qualified name inside the module
    family: str
    line: int  # 1-based
    col: int
    end_col: int
    old: str
    new: str

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        src = lines[self.line - 1]
        if src[self.col:self.end_col] != self.old:
            raise SwerlError(f"taskgen: {self.file}:{self.line}: expected {self.old!r} at column {self.col}")
        lines[self.line - 1] = src[:self.col] + self.new + src[self.end_col:]
        return "".join(lines)

    @property
    def key(self) -> str:
        return f"{self.repo}:{self.file}:{self.line}:{self.col}:{self.family}:{self.new}"


@dataclass
class Verified:
    cand: Candidate
    f2p: list[str]
    p2p: list[str]
    symptom: dict[str, list[str]]
    buggy_text: str


@dataclass
class TaskgenReport:
    candidates: int = 0
    kept: int = 0
    dropped: Counter = field(default_factory=Counter)
    families: Counter = field(default_factory=Counter)
    repos: Counter = field(default_factory=Counter)
    splits: Counter = field(default_factory=Counter)
    heldout_files: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------- candidates


def _h(*parts: object) -> str:
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _op_site(lines: list[str], a: ast.AST, b: ast.AST, sym: str) -> tuple[int, int, int] | None:
    """(line, start col, end col) of operator `sym`, if it occurs exactly once between sibling nodes on one line."""
    if a.end_lineno != b.lineno or a.end_col_offset is None:
        return None
    line, c0 = a.end_lineno, a.end_col_offset
    gap = lines[line - 1][c0:b.col_offset]
    pat = r"(?<![\w*/<>=!])" + re.escape(sym) + r"(?![\w*/<>=])" if sym.isalpha() or " " in sym else \
        r"(?<![*/<>=!])" + re.escape(sym) + r"(?![*/<>=])"
    m = list(re.finditer(pat, gap))
    if len(m) != 1:
        return None
    return line, c0 + m[0].start(), c0 + m[0].end()


class _Finder(ast.NodeVisitor):
    def __init__(self, repo: str, file: str, text: str) -> None:
        self.repo, self.file, self.lines = repo, file, text.splitlines(keepends=True)
        self.tree = ast.parse(text)
        self.docs = _docstring_nodes(self.tree)
        self.stack: list[str] = []
        self.out: list[Candidate] = []
        self.skip: set[int] = set()  # constants inside f-strings, raise messages

    def run(self) -> list[Candidate]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.JoinedStr | ast.Raise):
                self.skip |= {id(n) for n in ast.walk(node) if isinstance(n, ast.Constant)}
        self.visit(self.tree)
        return self.out

    def add(self, family: str, line: int, col: int, end_col: int, new: str) -> None:
        if not self.stack:
            return
        old = self.lines[line - 1][col:end_col]
        if old == new or not old:
            return
        self.out.append(Candidate(self.repo, self.file, ".".join(self.stack), family, line, col, end_col, old, new))

    def _scoped(self, node: ast.AST, name: str) -> None:
        self.stack.append(name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node, node.name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.stack:
            self._scoped(node, node.name)
        else:
            self.stack.append(node.name)
            for child in node.body:  # methods get "Class.method"; class-level code is not a function body
                if isinstance(child, ast.FunctionDef):
                    self.visit(child)
            self.stack.pop()

    def visit_BinOp(self, node: ast.BinOp) -> None:
        pair = _BINOPS.get(type(node.op))
        if pair:
            site = _op_site(self.lines, node.left, node.right, pair[0])
            if site:
                self.add("op_swap", *site, pair[1])
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        left: ast.AST = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            spec = _CMPOPS.get(type(op))
            if spec:
                site = _op_site(self.lines, left, right, spec[0])
                if site:
                    self.add(spec[2], *site, spec[1])
            left = right
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        sym, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        if len(node.values) == 2:
            site = _op_site(self.lines, node.values[0], node.values[1], sym)
            if site:
                self.add("logic_swap", *site, new)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not) and node.lineno == node.operand.lineno:
            text = self.lines[node.lineno - 1][node.col_offset:node.operand.col_offset]
            if text.strip() == "not":
                self.add("inverted_condition", node.lineno, node.col_offset, node.operand.col_offset, "")
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        t = node.test
        if not isinstance(t, ast.UnaryOp) and t.lineno == t.end_lineno and t.end_col_offset is not None:
            src = self.lines[t.lineno - 1][t.col_offset:t.end_col_offset]
            new = f"not ({src})" if isinstance(t, ast.BoolOp | ast.Compare | ast.IfExp) else f"not {src}"
            self.add("inverted_condition", t.lineno, t.col_offset, t.end_col_offset, new)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self.docs or id(node) in self.skip or node.lineno != node.end_lineno:
            return
        v = node.value
        src = self.lines[node.lineno - 1][node.col_offset:node.end_col_offset]
        if isinstance(v, bool) or v is None:
            return
        if isinstance(v, int) and src.isdigit():
            self.add("off_by_one", node.lineno, node.col_offset, node.end_col_offset or 0, str(v + 1))
            if v > 0:
                self.add("off_by_one", node.lineno, node.col_offset, node.end_col_offset or 0, str(v - 1))
            if v >= 2:
                self.add("wrong_constant", node.lineno, node.col_offset, node.end_col_offset or 0, str(v * 2))
        elif isinstance(v, float) and v not in (0.0, 1.0):
            self.add("wrong_constant", node.lineno, node.col_offset, node.end_col_offset or 0, repr(v * 2))
        elif isinstance(v, str) and len(v) <= 2 and v in _STRING_SWAPS and src[0] in "'\"" and src[1:-1] == v:
            q = src[0]
            self.add("wrong_constant", node.lineno, node.col_offset, node.end_col_offset or 0,
                     q + _STRING_SWAPS[v] + q)

    def visit_Call(self, node: ast.Call) -> None:
        args = node.args
        if len(args) >= 2 and not any(isinstance(a, ast.Starred) for a in args[:2]):
            a, b = args[0], args[1]
            if a.lineno == b.end_lineno == node.lineno and a.end_col_offset is not None and b.end_col_offset:
                line = self.lines[a.lineno - 1]
                sa, sb = line[a.col_offset:a.end_col_offset], line[b.col_offset:b.end_col_offset]
                mid = line[a.end_col_offset:b.col_offset]
                if sa != sb and mid.strip() == ",":
                    self.add("swapped_args", a.lineno, a.col_offset, b.end_col_offset, sb + mid + sa)
        self.generic_visit(node)


def source_files(repo_dir: Path) -> list[str]:
    """Modules that may be edited: every `.py` outside `tests/`, except package `__init__.py` files."""
    out = []
    for p in sorted(repo_dir.rglob("*.py")):
        rel = p.relative_to(repo_dir).as_posix()
        if rel.startswith("tests/") or p.name == "__init__.py" or "/." in "/" + rel:
            continue
        out.append(rel)
    return out


def find_candidates(repo: str, repo_dir: Path, families: list[str]) -> list[Candidate]:
    """Every candidate edit of the repo, in a stable order (file, line, column, family, replacement)."""
    out: list[Candidate] = []
    for rel in source_files(repo_dir):
        cands = _Finder(repo, rel, (repo_dir / rel).read_text()).run()
        out += [c for c in cands if c.family in families]
    seen: set[str] = set()
    uniq = []
    for c in sorted(out, key=lambda c: (c.file, c.line, c.col, c.family, c.new)):
        if c.key not in seen:
            seen.add(c.key)
            uniq.append(c)
    return uniq


# ------------------------------------------------------------------------------------------ verification


def _pytest(work: Path, timeout_s: float) -> tuple[dict[str, str], str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop("PYTEST_ADDOPTS", None)
    try:
        res = subprocess.run(_PYTEST, cwd=work, env=env, capture_output=True, text=True, timeout=timeout_s)
        out = res.stdout + res.stderr
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return {}, out + "\nTIMEOUT"
    return _status(out), out


def _status(out: str) -> dict[str, str]:
    """Test id -> passed / failed from pytest's `-rA` summary lines."""
    return {node: "passed" if kind in ("PASSED", "XFAIL") else "failed" for kind, node in _RESULT.findall(out)}


def _symptom(output: str, test_id: str) -> dict[str, list[str]]:
    """The failing test's source lines and pytest's `E` lines (its --tb=short section)."""
    name = test_id.split("::")[-1]
    m = re.search(r"^_{3,} " + re.escape(name) + r" _{3,}$(.*?)(?=^_{3,} |^={3,} )", output, re.MULTILINE | re.DOTALL)
    if not m:
        return {"code": [], "error": [], "where": []}
    code, error, where = [], [], []
    frame = ""
    for line in m.group(1).splitlines():
        if re.match(r"^\S+\.py:\d+: in ", line):
            frame = line.split(":")[0]
            if not frame.startswith("tests/"):
                where.append(line.split(": in ", 1)[1])
        elif line.startswith("    ") and frame.startswith("tests/") and line.strip(" ^~"):
            code.append(line[4:])
        elif line.startswith("E ") and "Use -v to get" not in line:
            error.append(line[1:].strip())
    return {"code": code, "error": [e for e in error if e][:4], "where": where}


_WORKER: dict[str, Any] = {}


def _worker_init(repos: dict[str, Path], root: str) -> None:
    """A verification worker: imports pytest once; each candidate's run is a fork of this process."""
    import pytest  # noqa: F401 - imported before forking, so each run skips the import

    _WORKER.update(repos=repos, root=Path(root) / f"w{os.getpid()}")


def _forked_pytest(work: Path, timeout_s: float) -> tuple[dict[str, str], str]:
    """`pytest -rA` on `work` in a forked child (no interpreter start, no pytest import per run)."""
    out_file = work.parent / f".out-{work.name}"
    pid = os.fork()
    if pid == 0:  # child: never returns
        code = 1
        try:
            fd = os.open(out_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.chdir(work)
            sys.path.insert(0, str(work))
            sys.dont_write_bytecode = True
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the repos need no plugins; loading ours costs ~2 s
            import pytest

            code = int(pytest.main(_PYTEST[3:]))
        finally:
            sys.stdout.flush()
            os._exit(code)
    deadline = time.monotonic() + timeout_s
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return {}, "TIMEOUT"
        time.sleep(0.02)
    out = out_file.read_text(errors="replace")
    return _status(out), out


def _verify_one(cand: Candidate, timeout_s: float) -> tuple[dict[str, str], str, str]:
    work = _WORKER["root"] / cand.repo
    if not work.exists():
        shutil.copytree(_WORKER["repos"][cand.repo], work, ignore=COPY_IGNORE)
    path = work / cand.file
    clean = path.read_text()
    buggy = cand.apply(clean)
    path.write_text(buggy)
    try:
        status, out = _forked_pytest(work, timeout_s)
    finally:
        path.write_text(clean)
    return status, out, buggy


def verify(cands: list[Candidate], repos: dict[str, Path], baseline: dict[str, dict[str, str]], *, workers: int,
           timeout_s: float, max_fail_frac: float, report: TaskgenReport,
           progress: Callable[[str, int, int], None] | None = None) -> list[Verified]:
    """Run each candidate's tests once: `workers` processes, each with private scratch copies of the repos."""
    import multiprocessing as mp

    scratch_root = Path(tempfile.mkdtemp(prefix="swerl-taskgen-"))
    try:
        results: list[Verified] = []
        seen_files: set[str] = set()
        # spawned (clean) workers, each forking one child per run: no state of the caller (e.g. a running
        # pytest session's capture and plugins) leaks into the runs, and no interpreter starts per run
        with mp.get_context("spawn").Pool(workers, _worker_init, (repos, str(scratch_root))) as pool:
            runs = []
            for i, run in enumerate(pool.imap(functools.partial(_verify_one, timeout_s=timeout_s), cands, chunksize=2)):
                runs.append(run)
                if progress:
                    progress("verify", i + 1, len(cands))
                if (i + 1) % 50 == 0:
                    log.info("taskgen verify", done=i + 1, total=len(cands))
        for cand, (status, out, buggy) in zip(cands, runs, strict=True):
            base = baseline[cand.repo]
            if out == "TIMEOUT":
                report.dropped["timeout"] += 1
                continue
            if set(status) != set(base):
                report.dropped["collection_error"] += 1
                continue
            f2p = sorted(t for t in base if status[t] == "failed")
            if not f2p:
                report.dropped["no_failing_test"] += 1
                continue
            if len(f2p) > max_fail_frac * len(base):
                report.dropped["too_broad"] += 1
                continue
            digest = _h(cand.repo, cand.file, buggy)
            if digest in seen_files:
                report.dropped["duplicate"] += 1
                continue
            seen_files.add(digest)
            p2p = sorted(t for t in base if status[t] == "passed")
            results.append(Verified(cand, f2p, p2p, _symptom(out, f2p[0]), buggy))
        return results
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)


# --------------------------------------------------------------------------------------- statements, fixes

_OPENERS = (
    "I ran into a problem with `{func}`.",
    "`{func}` gives a wrong result.",
    "Unexpected behaviour in `{func}`.",
    "Looks like `{func}` is broken.",
    "Bug report: `{func}` does not do what its docstring says.",
)
_AFTER_CODE = ("Running this:", "To reproduce:", "Minimal example:", "Steps to reproduce:")
_AFTER_ERR = ("fails with:", "gives:", "I get:", "the output is:")


def _called_name(code: list[str], fallback: str) -> str:
    for line in code:
        try:
            tree = ast.parse(line.strip())
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if not name.startswith(("_", "pytest", "approx", "raises", "len", "all", "any", "isinstance")):
                    return name
    return fallback


def test_imports(repo_dir: Path, test_file: str) -> list[str]:
    """The failing test file's imports of the package under test (what a user's snippet would import)."""
    tree = ast.parse((repo_dir / test_file).read_text())
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] not in ("pytest", "time"):
            out.append(ast.unparse(node))
    return out


def problem_statement(v: Verified, imports: list[str], seed: int, iid: str) -> str:
    """An issue-style report of the symptom: the failing call and what happened; never the test name or the fix."""
    rng = int(_h("stmt", seed, iid)[:8], 16)
    code = [ln for ln in v.symptom["code"] if ln.strip()] or [f"# calling {v.cand.function}"]
    func = _called_name(code, v.cand.function.split(".")[-1])
    opener = _OPENERS[rng % len(_OPENERS)].format(func=func)
    err = v.symptom["error"] or ["(wrong result, no error message)"]
    body = [opener, "", _AFTER_CODE[(rng >> 4) % len(_AFTER_CODE)], "", "```python",
            *imports, *code, "```", "", _AFTER_ERR[(rng >> 8) % len(_AFTER_ERR)], "", "```",
            *err, "```"]
    if v.symptom["where"]:
        body += ["", f"(raised from `{v.symptom['where'][-1].strip()}`)"]
    return "\n".join(body) + "\n"


def unique_fix(buggy_line: str, clean_line: str) -> tuple[str, str]:
    """The smallest (old, new) pair with `old` occurring once in the buggy line and turning it into the clean one."""
    i = 0
    while i < min(len(buggy_line), len(clean_line)) and buggy_line[i] == clean_line[i]:
        i += 1
    j = 0
    while (j < min(len(buggy_line), len(clean_line)) - i and buggy_line[-1 - j] == clean_line[-1 - j]):
        j += 1
    lo, hi_b, hi_c = i, len(buggy_line) - j, len(clean_line) - j
    # widen to word boundaries, then until `old` is unique on the line
    while lo > 0 and (buggy_line[lo - 1].isalnum() or buggy_line[lo - 1] == "_"):
        lo -= 1
    while hi_b < len(buggy_line) and (buggy_line[hi_b].isalnum() or buggy_line[hi_b] == "_"):
        hi_b, hi_c = hi_b + 1, hi_c + 1
    ops = set("<>=!*/+-%")  # an operator is replaced whole: `<=` -> `<`, never `=` -> ``
    while lo > 0 and buggy_line[lo - 1] in ops:
        lo -= 1
    while hi_b < len(buggy_line) and buggy_line[hi_b] in ops:
        hi_b, hi_c = hi_b + 1, hi_c + 1
    def occurrences(sub: str) -> int:  # overlapping ones too: sed must not find an earlier match
        return len(re.findall(f"(?={re.escape(sub)})", buggy_line))

    while (occurrences(buggy_line[lo:hi_b]) != 1 or not buggy_line[lo:hi_b].strip()) and \
            (lo > 0 or hi_b < len(buggy_line)):
        if lo > 0:
            lo -= 1
        if hi_b < len(buggy_line):
            hi_b, hi_c = hi_b + 1, hi_c + 1
    return buggy_line[lo:hi_b], clean_line[lo:hi_c]


# -------------------------------------------------------------------------------------------- git + output


def _commit_branch(repo: Path, branch: str, rel: str, text: str, message: str) -> None:
    """Commit `text` as `rel` on a new branch off main without touching the work tree (git plumbing)."""
    env_index = repo / ".git" / f"index-{_h(branch)[:12]}"
    blob = git(repo, "hash-object", "-w", "--stdin", stdin=text).strip()
    env = {"GIT_INDEX_FILE": str(env_index)}
    try:
        git(repo, "read-tree", "main", env=env)
        git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{rel}", env=env)
        tree = git(repo, "write-tree", env=env).strip()
        commit = git(repo, "commit-tree", tree, "-p", "main", "-m", message, env=env).strip()
        git(repo, "update-ref", f"refs/heads/{branch}", commit)
    finally:
        env_index.unlink(missing_ok=True)


def _select(verified: list[Verified], max_per_function: int, seed: int) -> list[Verified]:
    """At most `max_per_function` tasks per function, chosen by a seeded hash; families spread first."""
    by_fn: dict[tuple[str, str, str], list[Verified]] = {}
    for v in verified:
        by_fn.setdefault((v.cand.repo, v.cand.file, v.cand.function), []).append(v)
    out = []
    for _key, vs in sorted(by_fn.items()):
        ranked = sorted(vs, key=lambda v: _h("pick", seed, v.cand.key))
        picked: list[Verified] = []
        fams: Counter = Counter()
        while ranked and len(picked) < max_per_function:
            best = min(ranked, key=lambda v: fams[v.cand.family])
            ranked.remove(best)
            picked.append(best)
            fams[best.cand.family] += 1
        out += picked
    return sorted(out, key=lambda v: (v.cand.repo, v.cand.file, v.cand.line, v.cand.col, v.cand.family, v.cand.new))


def heldout_files(verified: list[Verified], test_frac: float, seed: int) -> set[tuple[str, str]]:
    """Whole files for the test split, by seeded hash order, until it holds `test_frac` of the tasks."""
    per_file = Counter((v.cand.repo, v.cand.file) for v in verified)
    target = test_frac * len(verified)
    held: set[tuple[str, str]] = set()
    n = 0
    repos_left = Counter(r for r, _ in per_file)
    for key in sorted(per_file, key=lambda k: _h("heldout", seed, *k)):
        if n >= target:
            break
        if repos_left[key[0]] <= 1:  # keep every repo present in train
            continue
        held.add(key)
        repos_left[key[0]] -= 1
        n += per_file[key]
    return held


def instance_id(v: Verified) -> str:
    fn = v.cand.function.replace(".", "_")
    return f"{OWNER}__{v.cand.repo}.{v.cand.family}__{fn}_{_h(v.cand.key)[:6]}"


def generate(params: TaskgenParams, progress: Callable[[str, int, int], None] | None = None) -> TaskgenReport:
    """Build the task set into `params.out` (see the module docstring)."""
    out = Path(params.out).resolve()  # git runs inside the repos: a relative path would not name the index
    unknown = sorted(set(params.families) - set(FAMILIES))
    if unknown:
        raise DataError(f"--family: unknown {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    available = sorted(p.name for p in REPOS_DIR.iterdir() if (p / "tests").is_dir())
    names = params.repos or available
    bad = sorted(set(names) - set(available))
    if bad:
        raise DataError(f"--repo: unknown {', '.join(bad)} (bundled: {', '.join(available)})")
    clear_out(out, params.force)
    report = TaskgenReport()
    repos = {n: REPOS_DIR / n for n in names}
    with publish_dir(out) as tmp:
        baseline: dict[str, dict[str, str]] = {}
        cands: list[Candidate] = []
        for name, src in repos.items():
            work = tmp / "baseline" / name
            shutil.copytree(src, work, ignore=COPY_IGNORE)
            status, output = _pytest(work, params.timeout_s)
            failing = sorted(t for t, s in status.items() if s != "passed")
            if not status or failing:
                raise SwerlError(f"taskgen: the clean tests of repo {name!r} do not all pass "
                                 f"({failing[:3] or output[-300:]})")
            baseline[name] = status
            cands += find_candidates(name, src, params.families)
        shutil.rmtree(tmp / "baseline")
        report.candidates = len(cands)
        if progress:
            progress("verify", 0, len(cands))
        verified = verify(cands, repos, baseline, workers=params.workers, timeout_s=params.timeout_s,
                          max_fail_frac=params.max_fail_frac, report=report, progress=progress)
        chosen = _select(verified, params.max_per_function, params.seed)
        report.dropped["over_max_per_function"] += len(verified) - len(chosen)
        held = heldout_files(chosen, params.test_frac, params.seed)
        report.heldout_files = sorted(f"{r}/{f}" for r, f in held)
        rows = _materialise(tmp, repos, chosen, held, params.seed, progress)
        for r in rows:
            report.families[r["family"]] += 1
            report.repos[r["repo"]] += 1
            report.splits[r["split"]] += 1
        report.kept = len(rows)
        write_jsonl(tmp / "tasks.jsonl", rows)
        for split in ("train", "test"):
            write_jsonl(tmp / f"{split}.jsonl", [r for r in rows if r["split"] == split])
        (tmp / "report.json").write_text(json.dumps({"params": params.model_dump(mode="json", exclude={"out", "force"}),
                                                     **vars(report)}, indent=2, sort_keys=True) + "\n")
    log.info("taskgen done", out=str(out), tasks=report.kept, candidates=report.candidates,
             train=report.splits.get("train", 0), test=report.splits.get("test", 0))
    return report


def _materialise(tmp: Path, repos: dict[str, Path], chosen: list[Verified], held: set[tuple[str, str]], seed: int,
                 progress: Callable[[str, int, int], None] | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in repos:
        init_clean_repo(name, tmp / "repos" / name)
    for i, v in enumerate(chosen):
        c = v.cand
        iid = instance_id(v)
        dest = tmp / "repos" / c.repo
        _commit_branch(dest, iid, c.file, v.buggy_text, f"Introduce bug {c.family} in {c.function}")
        patch = git(dest, "diff", "--no-color", "main", iid)
        clean_line = (repos[c.repo] / c.file).read_text().splitlines()[c.line - 1]
        buggy_line = v.buggy_text.splitlines()[c.line - 1]
        fix_old, fix_new = unique_fix(buggy_line, clean_line)
        imports = test_imports(repos[c.repo], v.f2p[0].split("::")[0])
        row = TaskRow(instance_id=iid, repo=f"{OWNER}/{c.repo}", patch=patch, FAIL_TO_PASS=v.f2p,
                      PASS_TO_PASS=v.p2p, image_name=f"{OWNER}/{c.repo}:latest",
                      problem_statement=problem_statement(v, imports, seed, iid))
        rows.append({**row.model_dump(mode="json"), "repo_dir": f"repos/{c.repo}",
                     "split": "test" if (c.repo, c.file) in held else "train", "family": c.family, "file": c.file,
                     "function": c.function, "line": c.line,
                     "fix": {"file": c.file, "line": c.line, "old": fix_old, "new": fix_new}})
        if progress:
            progress("write", i + 1, len(chosen))
    return rows


def load_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a `tasks.jsonl` / `train.jsonl` / `test.jsonl` written by `generate`; errors name the line."""
    rows = [row for _, row in read_json_rows(path, str(path))]
    for row in rows:
        TaskRow.model_validate(row)
    return rows


def register_profiles(rows: list[dict[str, Any]] | Iterator[dict[str, Any]]) -> None:
    """Register a grading profile (pytest, `-rA` log parser) for every generated repository among `rows`."""
    from swerl.sandbox.profiles import register_local_profile

    for repo in sorted({str(r["repo"]) for r in rows if str(r.get("repo", "")).startswith(OWNER + "/")}):
        register_local_profile(repo)


__all__ = ["FAMILIES", "OWNER", "Candidate", "TaskgenParams", "TaskgenReport", "find_candidates", "generate",
           "load_rows", "problem_statement", "register_profiles", "unique_fix"]
