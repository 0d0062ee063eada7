"""SWE-bench-schema instances built from the bundled task pack, so the Verified code path runs without a hub.

Each task becomes a real SWE-bench row with what the official harness relies on: `base_commit`
an orphan commit of the buggy code without the FAIL_TO_PASS tests, `test_patch` adding them
back, `patch` the gold fix, JSON-string test lists, and a `version` registered in swebench's
spec and parser maps, so `make_test_spec`, the eval script and `get_logs_eval` are swebench's,
unchanged. Each instance gets its own git repo (`repo_dir`, for bwrap) and, for docker, an image
named like the official one holding it at `/testbed`.
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from swerl.atomic import publish_dir
from swerl.errors import SwerlError
from swerl.log import get_logger
from swerl.tasks.schema import swebench_image_name
from swerl.tasks.taskpack import GIT_ENV, HIDDEN_TESTS_COMMIT, OWNER, git, test_functions, write_jsonl

log = get_logger(__name__)

PACK_VERSION = "0.1"
TEST_CMD = "python -m pytest -rA -p no:cacheprovider"
ROWS_FILE = "instances.jsonl"


def register_swebench_specs(repo: str, version: str = PACK_VERSION, test_cmd: str = TEST_CMD) -> None:
    """Make `repo` known to swebench's harness (spec, language, log parser). Idempotent; swebench is not edited."""
    from swebench.harness.constants import MAP_REPO_TO_EXT, MAP_REPO_VERSION_TO_SPECS
    from swebench.harness.log_parsers import MAP_REPO_TO_PARSER
    from swebench.harness.log_parsers.python import parse_log_pytest

    MAP_REPO_VERSION_TO_SPECS.setdefault(repo, {})[version] = {"python": "3.11", "test_cmd": test_cmd}
    MAP_REPO_TO_EXT[repo] = "py"
    MAP_REPO_TO_PARSER[repo] = parse_log_pytest


def register_rows(rows: list[dict[str, Any]]) -> None:
    """Register the specs of every task-pack repository among `rows` (any process that grades them calls this)."""
    for repo, version in sorted({(r["repo"], r.get("version") or PACK_VERSION) for r in rows
                                 if str(r.get("repo", "")).startswith(OWNER + "/")}):
        register_swebench_specs(repo, version)


def _remove_tests(path: Path, names: set[str]) -> None:
    """Delete the named top-level test functions (with their decorators) from a test file."""
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    cut: set[int] = set()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            end = node.end_lineno or node.lineno
            cut.update(range(start, end))
            while end < len(lines) and not lines[end].strip():  # the blank lines after it
                cut.add(end)
                end += 1
    path.write_text("".join(line for i, line in enumerate(lines) if i not in cut))


def _export(repo: Path, ref: str, dest: Path) -> None:
    """The tree of `ref` written to `dest` (no .git)."""
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", ref], capture_output=True, check=True,
                          env={**os.environ, **GIT_ENV}).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")


def _diff(repo: Path, paths: list[str], exclude_tests: bool = False) -> str:
    """The work tree's changes against HEAD (new files included), then back to HEAD."""
    spec = [":(exclude)tests"] if exclude_tests else paths
    git(repo, "add", "-A")
    out = git(repo, "diff", "--no-color", "--cached", "HEAD", "--", *spec)
    git(repo, "reset", "-q", "--hard", "HEAD")
    git(repo, "clean", "-q", "-fdx")
    return out


def swebench_id(smith_id: str) -> str:
    """SWE-bench-style id `<owner>__<repo>-<task>` for pack task `<owner>__<repo>.<task>`: distinct from the
    SWE-smith row's id, so nothing keyed by instance_id can confuse the two forms of one task."""
    head, _, task = smith_id.partition(".")
    return f"{head}-{task}"


def _build_instance(pack: Any, row: Any, out: Path) -> dict[str, Any]:
    iid = swebench_id(row.instance_id)
    src = pack.repo_dir(row)
    repo = out / "repos" / iid
    repo.mkdir(parents=True)
    hidden = git(src, "log", "-1", "--format=%s", row.instance_id).strip() == HIDDEN_TESTS_COMMIT
    _export(src, row.instance_id + ("~1" if hidden else ""), repo)  # the buggy code with every test
    by_file: dict[str, set[str]] = {}
    for test in row.FAIL_TO_PASS:
        file, _, name = test.partition("::")
        by_file.setdefault(file, set()).add(name)
    test_files = sorted(by_file)
    full = {f: (repo / f).read_text() for f in test_files}
    for f, names in by_file.items():
        _remove_tests(repo / f, names)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"{iid}: base (SWE-bench schema)")
    base_commit = git(repo, "rev-parse", "HEAD").strip()
    for f, text in full.items():
        (repo / f).write_text(text)
    p2p = [t for f in test_files for t in test_functions(repo / f, f) if t not in row.FAIL_TO_PASS]
    test_patch = _diff(repo, test_files)
    with tempfile.TemporaryDirectory(prefix="swerl-gold-") as tmp:
        _export(src, "main", Path(tmp))
        for p in Path(tmp).rglob("*"):
            rel = p.relative_to(tmp)
            if p.is_file() and rel.parts[0] != "tests":
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, repo / rel)
    gold = _diff(repo, [], exclude_tests=True)
    if not gold.strip() or not test_patch.strip():
        raise SwerlError(f"task pack: {iid}: empty gold patch or test patch")
    return {
        "repo": row.repo,
        "instance_id": iid,
        "base_commit": base_commit,
        "patch": gold,
        "test_patch": test_patch,
        "problem_statement": row.problem_statement or "",
        "hints_text": "",
        "created_at": "2026-01-01T00:00:00Z",
        "version": PACK_VERSION,
        "FAIL_TO_PASS": json.dumps(list(row.FAIL_TO_PASS)),
        "PASS_TO_PASS": json.dumps(p2p),
        "environment_setup_commit": base_commit,
        "repo_dir": f"repos/{iid}",
    }


def build(out: Path, *, force: bool = False) -> Path:
    """Write `out/instances.jsonl` and one git repo per instance; atomic (temp dir, then rename). Returns the file."""
    from swerl.sandbox.tasks import load_taskpack

    out = Path(out)
    if (out / ROWS_FILE).exists() and not force:
        return out / ROWS_FILE
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / f".{out.name}.lock", "w") as lock:  # concurrent sessions share the cache
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (out / ROWS_FILE).exists() and not force:
            return out / ROWS_FILE
        pack, _ = load_taskpack()
        with publish_dir(out) as tmp:
            rows = [_build_instance(pack, row, tmp) for row in pack.rows]
            write_jsonl(tmp / ROWS_FILE, rows)
    log.info("SWE-bench-schema task pack written", out=str(out), instances=len(rows))
    return out / ROWS_FILE


def default_path() -> Path:
    """Where `--dataset taskpack:swebench` lives: the swerl cache, keyed by the bundled pack's content."""
    from swerl.sandbox.images import cache_dir
    from swerl.tasks.taskpack import PACK_DIR

    h = hashlib.sha256()
    for p in sorted(PACK_DIR.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(PACK_DIR).as_posix().encode() + b"\0" + p.read_bytes())
    h.update(Path(__file__).read_bytes())
    return cache_dir() / "eval" / f"taskpack-swebench-{h.hexdigest()[:12]}"


def ensure_images(client: Any, rows: list[dict[str, Any]], root: Path) -> dict[str, str]:
    """One image per instance, named like the official one, holding its repo at /testbed on `base_commit`."""
    from swerl.sandbox.images import LABEL, _has_image, ensure_base_image, repo_digest

    base = ensure_base_image(client)
    built: dict[str, str] = {}
    for row in rows:
        tag = swebench_image_name(row["instance_id"])
        repo_dir = (root / row["repo_dir"]).resolve()
        digest = repo_digest(repo_dir)
        existing = _has_image(client, tag)
        if existing is None or (existing.labels or {}).get("swerl.repo_digest") != digest:
            buf = io.BytesIO()
            with tempfile.TemporaryDirectory(prefix="swerl-ctx-") as tmp:
                git(Path(tmp), "clone", "-q", "--no-hardlinks", str(repo_dir), f"{tmp}/testbed")
                with tarfile.open(fileobj=buf, mode="w") as tar:
                    df = f"FROM {base}\nCOPY testbed /testbed\nWORKDIR /testbed\nSTOPSIGNAL SIGKILL\n".encode()
                    info = tarfile.TarInfo("Dockerfile")
                    info.size = len(df)
                    tar.addfile(info, io.BytesIO(df))
                    tar.add(f"{tmp}/testbed", arcname="testbed")
            buf.seek(0)
            client.images.build(fileobj=buf, custom_context=True, tag=tag, rm=True, forcerm=True, pull=False,
                                network_mode="none", labels={LABEL: "swebench-taskpack", "swerl.repo_digest": digest})
            log.info("instance image built", tag=tag)
        built[row["instance_id"]] = tag
    return built
