"""Grading in a fresh sandbox: the reward must not depend on anything the agent did besides the fix itself.

    pristine export (cached) --> host: apply patch to a scratch copy --> tree diff --> policy (restore / drop)
      --> hidden tests restored --> static allowlist scan --> trusted pytest config placed by the host
      --> fresh grading sandbox (tree read-only, no .git, git stubbed) --> the launcher (`pytest_runner.py`):
          non-dumpable, audit-hook guard, witness plugin, type-strict asserts, HMAC-signed record
      --> signed record x first-status text log x harness parser --> GradeResult

The host is the supervisor: the shell inside the sandbox and every process of the tests' uid are
untrusted; only the record whose MAC verifies under this grade's fresh key decides, and any
disagreement between the views is tampering. Problems the agent caused (anything while handling
its tree, its test run's timeout, flood, silence or crash) come back as `error_kind="agent"`, a
grading sandbox that cannot start as `"infra"`; `grade` never raises for either.
"""

from __future__ import annotations

import difflib
import errno
import functools
import hashlib
import importlib.util
import json
import marshal
import os
import re
import resource
import select
import shlex
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.sandbox import blind as blind_mod
from swerl.sandbox import grade_answers, gradetree, hostfs, owners, reports, tamper, tamper_tables
from swerl.sandbox import launch as launch_mod
from swerl.sandbox.base import AgentFault
from swerl.sandbox.launch import RUNNER_PATH, SPEC_PATH, Launch
from swerl.sandbox.patch import files_git_reads
from swerl.sandbox.schema import GradeResult, SandboxTask, TestBucket
from swerl.sandbox.tasks import is_swebench

if TYPE_CHECKING:
    from swerl.sandbox.base import BackendBase

log = get_logger(__name__)

_EXIT_RE = re.compile(r"^SWERL_TEST_EXIT=(\d+)\s*$", re.MULTILINE)
_LOG_BYTES_RE = re.compile(r"^SWERL_LOG_BYTES=(\d+)\s*$", re.MULTILINE)
_LAUNCHER_EXIT_RE = re.compile(r"^SWERL_LAUNCHER_EXIT=(\d+)\s*$", re.MULTILINE)
_HOST_FULL = (errno.ENOSPC, errno.EDQUOT)
MAX_PATH_BYTES = 1024  # a longer path in the agent's tree cannot be copied into every sandbox's work dir
# After project code ran before the tests (an install step): every process of the tests' uid goes (its own command:
# `kill -1` also ends docker's `timeout` wrapper, so that command's status means nothing), and so does what it left in the places that outlive a command: /tmp (a planted `.code` file would have run as the guard),
# $HOME (a `.condarc` naming another `testbed`), /dev/shm, /var/tmp, and the tree's `__pycache__` (bytecode that
# claims a source's mtime and size is loaded instead of the source).
_AFTER_PRE = "\n".join([
    'for d in /tmp /dev/shm /var/tmp "$HOME"; do',
    '  case "$d" in ""|/|"$PWD"|"$PWD"/*) continue;; esac',
    '  case "$PWD" in "$d"/*) continue;; esac',  # never a directory that holds the tree
    '  [ -d "$d" ] && [ -w "$d" ] && { chmod -R u+rwX "$d" 2>/dev/null; '
    'find "$d" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null; }',
    "done",
    "find . -name __pycache__ -type d -prune -exec chmod -R u+rwX {} + -exec rm -rf {} + 2>/dev/null",
    f"test ! -e {launch_mod.LAUNCH_DIR}"])
LOG_LIMIT = 1_000_000  # bytes of the test log (its end: the summary) kept for the text parsers
RECORD_SPLIT = "SWERL_RECORD_SPLIT"  # the record is read in pieces after the test command (a suite of thousands)
MAX_RECORD_BYTES = 64 << 20  # a record larger than this (a suite of ~100k tests) is cut short: no final line


@dataclass
class HarnessPlan:
    """What the grading sandbox runs, and how the harness turns its log into a status map."""

    test_script: str
    parse: Callable[[Path], tuple[dict[str, str], bool]]
    report: Callable[[dict[str, str], dict[str, list[str]]], dict[str, dict[str, list[str]]]]
    parser: str
    timeout_s: float
    swebench: bool = False
    name: Callable[[str], str | None] | None = None  # a pytest node id as the row's parser names it
    test_patch: str = ""
    extra_test_files: tuple[str, ...] = ()  # every file the test patch touches as git reads it (added ones too)


def swesmith_plan(task: SandboxTask) -> HarnessPlan:
    """SWE-smith rows (and registered local repos): profile test command, read_test_output, profile.log_parser."""
    from swesmith.harness.grading import get_eval_tests_report, read_test_output
    from swesmith.profiles import registry

    inst = {**task.row, "instance_id": task.instance_id, "repo": task.repo,
            "FAIL_TO_PASS": task.FAIL_TO_PASS, "PASS_TO_PASS": task.PASS_TO_PASS}
    try:
        profile = registry.get_from_inst(inst)
    except KeyError as exc:
        raise DataError(f"row {task.instance_id!r}: field repo {task.repo!r} has no swesmith harness profile") from exc
    test_cmd = task.test_cmd or profile.get_test_cmd(inst)[0]

    def parse(path: Path) -> tuple[dict[str, str], bool]:
        content, found = read_test_output(str(path))
        return (profile.log_parser(content) if found and content is not None else {}), found

    return HarnessPlan(test_script=test_cmd, parse=parse, report=get_eval_tests_report,
                       parser=f"swesmith:{type(profile).__name__}.log_parser", timeout_s=float(profile.timeout))


def swebench_plan(task: SandboxTask) -> HarnessPlan:
    """SWE-bench rows: the official eval script minus its git commands (the test patch is applied on the host)."""
    from swebench.harness.grading import get_eval_tests_report, get_logs_eval
    from swebench.harness.test_spec.test_spec import make_test_spec

    try:
        spec = make_test_spec({**task.row, "instance_id": task.instance_id, "repo": task.repo})
    except KeyError as exc:
        raise DataError(f"row {task.instance_id!r}: no swebench spec for repo/version ({exc})") from exc

    def parse(path: Path) -> tuple[dict[str, str], bool]:
        return get_logs_eval(spec, str(path))

    def name(node: str) -> str | None:
        """The id the row's own parser gives a node id (pydicom's drop an absolute path inside the brackets,
        astropy's drop what looks like a colour code): the row lists its tests that way."""
        from swebench.harness.log_parsers import MAP_REPO_TO_PARSER

        try:
            found = list(MAP_REPO_TO_PARSER[spec.repo](f"PASSED {node}\n", spec))
        except Exception:
            return None
        return found[0] if len(found) == 1 and isinstance(found[0], str) else None

    kept = [cmd for cmd in spec.eval_script_list if not cmd.lstrip().startswith("git ")]
    script = "\n".join(["set -uxo pipefail", *kept])
    test_patch = str(task.row.get("test_patch") or "")
    return HarnessPlan(test_script=script, parse=parse, report=get_eval_tests_report, parser=f"swebench:{spec.repo}",
                       timeout_s=1800.0, swebench=True, test_patch=test_patch, name=name,
                       extra_test_files=tuple(sorted(files_git_reads(test_patch) | set(gradetree.patch_headers(
                           test_patch)))))


def harness_plan(task: SandboxTask) -> HarnessPlan:
    return swebench_plan(task) if is_swebench(task.row) else swesmith_plan(task)


def test_script(task: SandboxTask, plan: HarnessPlan, launch: Launch | None, *, log_limit: int = LOG_LIMIT,
                setup: list[str] | None = None, record_limit: int = LOG_LIMIT - (64 << 10)) -> str:
    """The bash script run in the grading sandbox. With a launch plan the tests' output goes to a file and only
    its last `log_limit` bytes follow, between the harness markers; the launcher's signed record is printed
    first. The shell is not trusted: nothing it prints decides the verdict except what the record's MAC covers."""
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT
    from swesmith.constants import ENV_NAME

    if launch is None and plan.swebench:  # the official script (its git commands removed: the host applied them)
        return "\n".join(["exec 2>&1", plan.test_script, "echo SWERL_TEST_EXIT=$?"]) + "\n"
    wd = shlex.quote(task.workdir)
    # one stream: set -x traces (stderr) must not interleave out of order with the record (docker delivers stdout
    # and stderr separately)
    lines = ["exec 2>&1", "set -uo pipefail", f"cd {wd}",
             f"if [ -f /opt/miniconda3/bin/activate ]; then source /opt/miniconda3/bin/activate; "
             f"conda activate {ENV_NAME}; cd {wd}; fi", *(setup or [])]
    if launch is None:
        lines += ["set -x", f": '{START_TEST_OUTPUT}'", plan.test_script, "rc=$?", f": '{END_TEST_OUTPUT}'",
                  "set +x", 'echo "SWERL_TEST_EXIT=$rc"']
        return "\n".join(lines) + "\n"
    lines += ["export PYTHONDONTWRITEBYTECODE=1 PYTHONNOUSERSITE=1",
              *(f"export {k}={shlex.quote(v)}" for k, v in sorted(launch.env.items()) if k.isidentifier()),
              *(['mkdir -p "$TMPDIR"'] if "TMPDIR" in launch.env else []),
              "rdir=$(mktemp -d /tmp/swerl-report.XXXXXXXXXX)", 'py=$(command -v python || command -v python3)',
              f'"$py" -I {RUNNER_PATH} {SPEC_PATH} > "$rdir/out.txt" 2>&1 < /dev/null',
              'echo "SWERL_LAUNCHER_EXIT=$?"',
              # the record (one line a test phase) shares the output cap with the log: past its share the host
              # reads it in pieces afterwards (`_record_pieces`), rather than lose its end to the cap
              f'if [ "$(wc -c < {launch.record} 2>/dev/null || echo 0)" -le {int(record_limit)} ]; then '
              f'cat {launch.record} 2>/dev/null; echo; else echo {RECORD_SPLIT}; fi',
              'echo "SWERL_LOG_BYTES=$(wc -c < "$rdir/out.txt")"',
              "set -x", f": '{START_TEST_OUTPUT}'", f'tail -c {int(log_limit)} "$rdir/out.txt"',
              f": '{END_TEST_OUTPUT}'", "set +x", "exit 0"]
    return "\n".join(lines) + "\n"


def harness_statuses(plan: HarnessPlan, output: str) -> tuple[dict[str, str] | None, bool, str | None]:
    """(status map, markers found, error) from the harness's own parser; never raises (a log it chokes on - e.g.
    markers out of order, names it cannot split - is an error string, not a traceback)."""
    with owners.scratch("swerl-grade-log-") as tmp:
        log_path = tmp / "test_output.txt"
        log_path.write_text(output, errors="surrogateescape")
        try:  # a short log of short lines bounds any parser's backtracking (SymPy's: ~7 s); a larger one gets a child
            small = len(output) <= 200_000 and max(map(len, output.splitlines()), default=0) <= 500
            status_map, found = plan.parse(log_path) if small else _bounded(plan.parse, log_path, PARSE_CPU_S)
        except Exception as exc:  # the harness parser choked on the test output
            return None, False, f"harness log parser failed: {type(exc).__name__}: {exc}"[:300]
    return dict(status_map), bool(found), None


PARSE_CPU_S = 20  # CPU seconds the harness's own log parser gets (SymPy's backtracks cubically on a crafted line)


def _bounded(parse: Callable[[Path], tuple[dict[str, str], bool]], path: Path, cpu_s: int) -> tuple[dict[str, str], bool]:
    """`parse(path)` in a forked child under RLIMIT_CPU: a third-party parser's regex over output the code under
    test wrote cannot hold the host's CPU for hours; past the limit the parse fails (the agent's output did it)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parse only, its answer as JSON, then out without running any cleanup
        code = 1
        try:
            os.close(r)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
            try:
                status_map, found = parse(path)
                answer: Any = [{str(k): str(v) for k, v in dict(status_map).items()}, bool(found)]
            except Exception as exc:  # handed back as the parser's failure, like an in-process one
                answer = [None, f"{type(exc).__name__}: {exc}"[:300]]
            with os.fdopen(w, "wb") as out:
                out.write(json.dumps(answer).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    chunks: list[bytes] = []
    deadline = time.monotonic() + cpu_s * 2 + 10
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or os.WEXITSTATUS(status) != 0:
        raise TimeoutError(f"the harness's log parser did not finish within {cpu_s} s of CPU on this test output")
    data, found = json.loads(b"".join(chunks))
    if data is None:
        raise ValueError(found)
    return data, found


def _result(task: SandboxTask, t0: float, **kw: Any) -> GradeResult:
    base: dict[str, Any] = dict(instance_id=task.instance_id, resolved=False, resolution="RESOLVED_NO",
                                patch_applied=False, duration_s=time.monotonic() - t0)
    base.update(kw)
    if base.get("tampering") or base.get("error_kind"):
        base["resolved"] = False
    return GradeResult(**base)


def grade(sandbox: BackendBase, task: SandboxTask, patch: str, *, timeout_s: float | None = None,
          defences: bool = True) -> GradeResult:
    """Grade `patch` for `task` (see the module docstring). `defences=False` is for the audit's controls only:
    `.git` kept and git usable, no patch filter or tree policy, no tamper scan, `python -m pytest` with plugin
    autoload, the harness's last-status parse, exit code ignored - a hackable grader that shows a probe works."""
    t0 = time.monotonic()
    plan = harness_plan(task)  # DataError: a configuration problem, raised to the caller
    try:
        headers = gradetree.patch_headers(patch)
    except Exception as exc:  # the agent's data: whatever a reader of it trips on is the agent's, never infra
        return _result(task, t0, error=f"the patch could not be read: {type(exc).__name__}: {exc}"[:500],
                       error_kind="agent")
    refused = gradetree.fix_protected(task) if defences else None
    if refused:
        return _result(task, t0, error=refused, error_kind="infra", patch_files=sorted(headers))
    try:
        pristine = gradetree.export_pristine(sandbox, task, keep_git=not defences)
    except Exception as exc:
        log.warning("grading: pristine export failed", instance=task.instance_id, error=str(exc))
        return _result(task, t0, error=f"pristine export failed: {type(exc).__name__}: {exc}"[:500],
                       error_kind="infra", patch_files=sorted(headers))
    work = owners.mkdtemp("swerl-grade-", sandbox.settings.run_label)  # a SIGKILL leaves it to the reaper
    try:  # every caller (rollouts, eval, audit) grades under the sandbox's tree limits
        with gradetree.use_limits(sandbox.settings.limits):
            first = _Blind(b"")  # the first run's record: what its asserts compared, for `Blind.answered`
            result = _grade_tree(sandbox, task, patch, plan, pristine, work, headers, t0, timeout_s, defences,
                                 keep=first)
            if defences and result.resolved and result.report == "launcher" and sandbox.settings.blind_run:
                result = _blind_run(sandbox, task, patch, plan, pristine, work / "blind", headers, t0, timeout_s,
                                    result, first.held)
                if result.resolved:
                    result = _conditions_run(sandbox, task, patch, plan, pristine, work / "conditions", headers, t0,
                                             timeout_s, result)
            return result
    finally:
        hostfs.rmtree_quietly(work)  # the agent's tree: any depth, never raises
        gradetree.release(pristine)
        if not defences:  # an uncached export with .git: remove it
            hostfs.rmtree_quietly(pristine.tip.parent)


@dataclass
class _Blind:
    """The blind run's key, what it changed, and its signed record (see `swerl/sandbox/blind.py`)."""

    key: bytes
    plan: blind_mod.Blind | None = None
    record: dict[str, Any] | None = None  # the blind run's signed record; None: it ended without one
    held: list[Any] = field(default_factory=list)  # its held comparisons, also from a record cut short

    def change(self, tree: Path, protected: list[str], seen: Path, changed: list[str]) -> bool:
        """Change the expected values of the protected test modules in `tree` (the pristine ones here: only the
        grader wrote them); False where there is none to change."""
        self.plan = blind_mod.plan(tree, protected, self.key, seen=seen, changed=changed)
        if self.plan.sites:
            blind_mod.write(tree, self.plan)
        return bool(self.plan.sites)


def _blind_run(sandbox: BackendBase, task: SandboxTask, patch: str, plan: HarnessPlan,
               pristine: gradetree.PristineTree, work: Path, headers: dict[str, int], t0: float,
               timeout_s: float | None, first: GradeResult, said: list[Any]) -> GradeResult:
    """A resolved grade once more, in a fresh sandbox, with the protected tests' expected values changed and its
    conditions changed (`perturb`): a changed comparison that held (also in a record cut short), one that answered
    what it never answered in the first run (`Blind.answered`), or a guard finding, refuses it. A blind run that ends
    without its record is the agent's failure, as a first run without one is: only the blind run makes asserts
    fail, and code that breaks the run then (a crash in a failure's `repr`, R60-9) must not keep the first pay."""
    work.mkdir()
    slot = _Blind(os.urandom(32))
    second = _grade_tree(sandbox, task, patch, plan, pristine, work, headers, time.monotonic(), timeout_s, True,
                         blind=slot, perturbed=True)
    took = {"duration_s": time.monotonic() - t0}
    if slot.plan is None or not slot.plan.sites:
        return first.model_copy(update={"blind": "none", **took})
    found = slot.plan.read(slot.held, task.workdir) + slot.plan.answered(said, slot.held, task.workdir)
    found += [f"blind run: {t}" for t in (slot.record or {}).get("tampering") or []]
    if found:
        log.warning("grading: the blind run refused a resolved patch", instance=task.instance_id, reasons=found[:5])
        return first.model_copy(update={"resolved": False, "tampering": found, "blind": "read",
                                        "report": "blind-run", **took})
    if slot.record is None or second.error_kind == "infra":
        kind = second.error_kind or "agent"
        error = f"the blind run: {second.error or 'the test process ended without the launcher signed record'}"
        return first.model_copy(update={"resolved": False, "error": error[:500], "error_kind": kind,
                                        "blind": f"ended early ({kind})", **took})
    return first.model_copy(update={"blind": f"clean ({sum(len(v) for v in slot.plan.sites.values())} asserts)",
                                    **took})


def _conditions_run(sandbox: BackendBase, task: SandboxTask, patch: str, plan: HarnessPlan,
                    pristine: gradetree.PristineTree, work: Path, headers: dict[str, int], t0: float,
                    timeout_s: float | None, first: GradeResult) -> GradeResult:
    """A resolved grade once more, the tests unchanged, under other conditions (`perturb`: another temp directory,
    `tmp_path` outside it): every required test must pass again. A fix that holds only under the grading run's
    conditions fails there, whatever its asserts compare (a project object, an `is`, the test's own input as the
    expected value: round 75's first tries), which the blind run's answers (`Blind.answered`) could judge only at a
    changed `==` of builtins. The required tests alone, collected and ordered as in the first run, where they run
    first: until they end nothing but the conditions tells this run from the first. A finding of its guard refuses as
    the first run's would."""
    work.mkdir()
    again = _grade_tree(sandbox, task, patch, plan, pristine, work, headers, time.monotonic(), timeout_s, True,
                        perturbed=True, only_first=True)
    took = {"duration_s": time.monotonic() - t0}
    if again.error_kind == "infra":
        return first.model_copy(update={"resolved": False, "error": f"the conditions run: {again.error}"[:500],
                                        "error_kind": "infra", **took})
    found = [f"conditions run: {t}" for t in again.tampering]
    found += [f"{t}: failed when the tests ran again with another temp directory and tmp_path outside it (a fix "
              "that holds only under the grading run's conditions)" for t in task.FAIL_TO_PASS
              if again.tests.get(t) != "PASSED"][:20]
    if found:
        log.warning("grading: the conditions run refused a resolved patch", instance=task.instance_id,
                    reasons=found[:5])
        return first.model_copy(update={"resolved": False, "tampering": found, "report": "conditions-run", **took})
    return first.model_copy(update=took)


@dataclass
class Built:
    """The graded tree and what the grader learnt building it."""

    common: dict[str, Any]
    changed: list[str]  # files the patch changed or added (kept by the policy): the guard's "changed code"
    protected: list[str]  # test files restored from the pristine tree
    tampering: list[str]


def _build_tree(task: SandboxTask, patch: str, plan: HarnessPlan, pristine: gradetree.PristineTree, work: Path,
                headers: dict[str, int], defences: bool) -> Built | tuple[str, str, dict[str, Any]]:
    """Apply, diff, enforce the policy, scan, restore hidden tests, add the task's test patch. Returns the tree,
    or (error, error kind, common fields). Any exception while handling the agent's tree is the agent's."""
    tree = work / "tree"
    common: dict[str, Any] = dict(patch_files=sorted(headers), hidden_tests=pristine.hidden, parser=plan.parser)
    try:
        if patch.strip():
            gradetree.apply_patch(pristine.tip, tree, patch)
        else:
            shutil.copytree(pristine.tip, tree, symlinks=True)
    except gradetree.PatchRejected as exc:
        return str(exc)[:500], "agent", common
    except OSError as exc:
        kind = "infra" if exc.errno in _HOST_FULL else "agent"
        return f"scratch tree: {exc}"[:500], kind, common
    dropped: list[Any] = []
    tampering: list[str] = []
    protected = set(plan.extra_test_files) | set(pristine.hidden)
    try:  # everything here only processes the tree the agent's patch produced
        changes = gradetree.diff_trees(gradetree.snapshot(pristine.tip), gradetree.snapshot(tree))
        if defences:
            policy = gradetree.Policy.for_task(task)
            policy.test_files |= protected | set(filter(None, [runner_script(plan, pristine.tip)]))
            protected = set(policy.test_files)
            policy.shadow = policy.shadow | gradetree.installed_names(pristine.env_modules)
            changes, dropped = gradetree.enforce(changes, pristine.tip, tree, policy, headers)
            tampering = tamper.scan_tree([c.path for c in changes if c.after is not None], pristine.tip, tree,
                                         sorted(protected))
            tampering += tamper.doctests_changed(pristine.tip, tree, [*task.FAIL_TO_PASS, *task.PASS_TO_PASS])
        for rel in pristine.hidden:
            gradetree.restore(rel, pristine.base, tree)
    except Exception as exc:
        log.warning("grading: the patched tree could not be processed", instance=task.instance_id, error=str(exc))
        return f"the patched tree could not be processed: {type(exc).__name__}: {exc}"[:500], "agent", common
    common.update(changed=[c.path for c in changes if c.after is None or c.after.kind != "dir"], dropped=dropped,
                  patch_applied=True)
    if plan.swebench and plan.test_patch.strip():
        try:
            applied = work / "with-tests"
            gradetree.apply_patch(tree, applied, plan.test_patch)
            hostfs.rmtree_quietly(tree)
            applied.rename(tree)
        except OSError as exc:  # moving the agent's tree aside
            return f"the patched tree could not be moved: {exc}"[:500], ("infra" if exc.errno in _HOST_FULL
                                                                            else "agent"), common
        except gradetree.PatchRejected as exc:
            # the agent's tree broke it (e.g. replaced the tests directory) when it applies to the pristine tree
            kind = "agent" if _applies(pristine.tip, work / "probe", plan.test_patch) else "infra"
            return f"the task's test_patch does not apply: {exc}"[:500], kind, common
    changed = [c.path for c in changes if c.after is not None and c.after.kind == "file"]
    long_paths = [c.path for c in changes if c.after is not None and len(c.path.encode(errors="surrogateescape"))
                  > MAX_PATH_BYTES]
    if long_paths:
        return f"a path in the patched tree is longer than {MAX_PATH_BYTES} bytes: {long_paths[0][:80]}...", "agent", common
    return Built(common, changed, sorted(protected), tampering)


def _applies(tree: Path, scratch: Path, patch: str) -> bool:
    try:
        gradetree.apply_patch(tree, scratch, patch)
        return True
    except (gradetree.PatchRejected, OSError):
        return False
    finally:
        hostfs.rmtree_quietly(scratch)


def _grade_tree(sandbox: BackendBase, task: SandboxTask, patch: str, plan: HarnessPlan,
                pristine: gradetree.PristineTree, work: Path, headers: dict[str, int], t0: float,
                timeout_s: float | None, defences: bool, blind: _Blind | None = None,
                keep: _Blind | None = None, perturbed: bool = False, only_first: bool = False) -> GradeResult:
    built = _build_tree(task, patch, plan, pristine, work, headers, defences)
    if not isinstance(built, Built):
        error, kind, common = built
        return _result(task, t0, error=error, error_kind=kind, **common)
    if built.tampering:
        log.warning("grading: tampering", instance=task.instance_id, reasons=built.tampering[:10])
        return _result(task, t0, tampering=built.tampering, report="tamper-scan", **built.common)
    tree = work / "tree"
    if blind is not None and not blind.change(tree, built.protected, pristine.tip, built.changed):
        return _result(task, t0, **built.common)
    try:  # writes the trusted config over the agent's tree: what stands in its way is the agent's
        setup, pre, launch = _plan_run(plan, tree, pristine.tip, task.workdir, defences, task.FAIL_TO_PASS,
                                       perturbed, only_first)
    except Exception as exc:
        return _agent_data_error(task, t0, "placing the grader's trusted files in the patched tree", exc, built.common)
    timeout = timeout_s or max(plan.timeout_s, sandbox.settings.command_timeout_s)
    log_limit = min(LOG_LIMIT, sandbox.settings.output_limit_bytes // 2)
    record_limit = max(0, sandbox.settings.output_limit_bytes - log_limit - (64 << 10))
    handle = None
    hidden = _hide_tests(tree, pristine.tip, built.protected, work / "hidden") if pre and defences else []
    try:
        handle = sandbox.start_grading(task, tree, git_binaries=pristine.git_binaries, keep_git=not defences)
        if pre:  # project code that runs before the tests (an install step): then every process of the tests' uid goes
            step = sandbox.exec_argv(handle, ["bash", "-c", "\n".join(["exec 2>&1", *setup, *pre])], timeout=timeout)
            if step.timed_out:  # the patch's own install code that never ends is its failure, not a free pass (R51s-4)
                return _result(task, t0, error=f"the install step timed out after {timeout:.0f} s", error_kind="agent",
                               **built.common)
            _after_pre(sandbox, handle, tree, built.protected)
            if hidden:  # the tests the agent never saw come in only now, as SWE-bench applies its test patch
                _unhide_tests(tree, work / "hidden", hidden)
                sandbox.put_tree_files(handle, tree, hidden)
        if launch is not None:
            _copy_launcher(sandbox, handle, launch, task.workdir, built, work, changed_code(pristine.tip, tree,
                                                                                           built.changed, built.protected),
                           helpers=launch_mod.test_helpers(tree, built.protected))
        res = sandbox.exec_argv(handle, ["bash", "-c", test_script(task, plan, launch, log_limit=log_limit,
                                                                    setup=setup, record_limit=record_limit)],
                                timeout=timeout)
        if launch is not None and f"\n{RECORD_SPLIT}\n" in res.output:
            res = res.model_copy(update={"output": _record_pieces(sandbox, handle, launch.record, log_limit)
                                         + "\n" + res.output})
    except Exception as exc:
        # AgentFault: the patched tree is over the copy limit, or the code under test broke the sandbox; a copy of
        # the agent's tree that fails (names, lengths, modes) is the agent's too, unless the host's disk is full
        log.warning("grading sandbox failed", instance=task.instance_id, error=str(exc))
        copy_fault = isinstance(exc, (shutil.Error, OSError)) and getattr(exc, "errno", None) not in _HOST_FULL
        kind = "agent" if isinstance(exc, AgentFault) or copy_fault else "infra"
        return _result(task, t0, error=f"grading sandbox: {type(exc).__name__}: {exc}"[:500], error_kind=kind,
                       **built.common)
    finally:
        if handle is not None:
            sandbox.stop(handle)
    try:  # the output is the agent's code's: a parser it breaks (depth, encoding, size) is the agent's failure
        return _verdict(task, plan, res, launch, defences, t0, built.common, tree, log_limit, keep=blind or keep)
    except Exception as exc:
        return _agent_data_error(task, t0, "reading the test run's output and record", exc, built.common)


def _record_pieces(sandbox: BackendBase, handle: Any, record: str, piece: int) -> str:
    """The launcher's record of a large suite, read `piece` bytes at a time (each read under the output cap). Its
    lines are checked like any others (`launch.verify_record`): a record cut short has no final line."""
    parts: list[str] = []
    for i in range(max(1, MAX_RECORD_BYTES // max(piece, 1))):
        out = sandbox.exec_argv(handle, ["sh", "-c", f'tail -c +{i * piece + 1} "$1" | head -c {piece}', "-", record],
                                timeout=60).output
        parts.append(out)
        if len(out.encode(errors="surrogateescape")) < piece:
            break
    return "".join(parts)


def _agent_data_error(task: SandboxTask, t0: float, step: str, exc: Exception, common: dict[str, Any]) -> GradeResult:
    """One rule for every grading step that handles agent-produced data (its tree, its output, its record): an
    exception there is the agent's (reward 0, never retried as infrastructure), except the host's own disk
    filling up or a missing host library, which no patch causes."""
    host = isinstance(exc, ImportError) or (isinstance(exc, OSError) and exc.errno in _HOST_FULL)
    log.warning("grading: a step on agent data failed", instance=task.instance_id, step=step, error=repr(exc)[:300])
    return _result(task, t0, error=f"{step}: {type(exc).__name__}: {exc}"[:500], error_kind="infra" if host else "agent",
                   **common)


def perturb(launch: Launch) -> None:
    """The later runs' conditions, where they differ from the first run's (which runs as the official harness does):
    the temp directory is another one, and pytest's `tmp_path` lies outside it, as a user's `--basetemp` puts it. A
    fix that holds only for paths under the temp directory answers otherwise in the blind run (round 73's T10) and
    fails the conditions run (round 75). Both stay under /tmp, the sandbox's one writable place besides the work
    tree: a fix for paths under /tmp itself is not told apart (round 75b's R75-3). A login name is set (R76-12: a
    fix only with no `USER`); the terminal type is not: unchanged code that colours its text unless `TERM=dumb`
    flips an honest test's answer (round 76b's fp11), so a fix only under `TERM=dumb` (R76-7) stays open."""
    tag = os.urandom(6).hex()
    launch.env.update({"TMPDIR": f"/tmp/swerl-t-{tag}", "USER": f"u{tag[:6]}", "LOGNAME": f"u{tag[:6]}"})
    if launch.mode == "pytest":
        launch.args = [*launch.args, f"--basetemp=/tmp/swerl-b-{tag}"]


def _plan_run(plan: HarnessPlan, tree: Path, pristine: Path, workdir: str, defences: bool, first: list[str],
              perturbed: bool, only_first: bool = False) -> tuple[list[str], list[str], Launch | None]:
    """(shell set-up lines, project code to run before the tests, the launcher's plan or None for text-only). The
    required tests (`first`) run first (`only_first`: alone): no earlier test hands the project their answers; the
    blind run's and the conditions run's launches are perturbed (`perturb`)."""
    if not defences:
        return [], [], None
    setup, pre, command = _test_command(plan)
    # the mode comes from the pristine tree, and the script that runs the tests is the project's own (SymPy's
    # `bin/test`): a patch that replaces it with a shell script printing PASSED lines cannot move grading to text
    launch = launch_mod.plan_launch(command, pristine) if command else None
    if launch is None:
        if plan.swebench:
            return [], [], None
        return setup, pre, None
    if launch.mode == "pytest":
        launch.args = [*launch.args, *launch_mod.install_trusted_config(pristine, tree, workdir, launch.args),
                       "-p", "no:cacheprovider"]
    launch.first, launch.only_first = list(first), only_first
    if perturbed:
        perturb(launch)
    return setup, pre, launch


def _test_command(plan: HarnessPlan) -> tuple[list[str], list[str], str | None]:
    """(shell set-up, project code run before the tests, the test command) of a harness plan."""
    if plan.swebench:
        return launch_mod.split_eval_script(plan.test_script.splitlines())
    setup, command = launch_mod.split_setup(plan.test_script)
    return setup, [], command


def runner_script(plan: HarnessPlan, pristine: Path) -> str | None:
    """The tree's script that runs the tests (SymPy's `bin/test`, Django's `tests/runtests.py`), which the tree
    policy protects like a test file: a patch that swaps it for a shell script printing PASSED lines would move
    grading to the text log."""
    command = _test_command(plan)[2]
    launch = launch_mod.plan_launch(command, pristine) if command else None
    return launch.script if launch is not None and launch.mode == "script" else None


def changed_code(pristine: Path, tree: Path, changed: list[str], tests: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """What the witness needs to tell a fix from a lie, per changed `.py` file: "lines", the patched file's lines the
    patch wrote (1-based, inclusive ranges; a deletion marks the line after it; a class or function the pristine
    file has no definition of by that name, all its lines), so an unchanged decorator or class
    in a file the fix also touches stays the project's; "originals", the project's own source of each `__len__`/
    `__bool__` whose code (or a method it reaches) the patch edited (`grade_answers`), so a one-line lie is compared
    with what the project's own answered. A new, unreadable or very long file is absent: all of it is the patch's.
    "tables": the project tables the `tests` loop over, as their modules define them (`tamper_tables.held_tables`);
    "unscanned": the changed `.py` files the host's parser cannot read (the scan could clear nothing in them: the
    launcher refuses to run their code, R51s-3); "doctests", the doctests of each changed file and which of them
    the patch edited (`tamper.doctest_map`)."""
    lines: dict[str, Any] = {}
    originals: dict[str, Any] = {}
    doctests: dict[str, Any] = {}
    unscanned = [rel for rel in changed if rel.endswith(".py") and not _parses(tree / rel)]
    added = _added_lines(pristine, tree, changed)
    for rel in changed:
        try:
            if not rel.endswith(".py") or not (tree / rel).is_file() or (tree / rel).is_symlink():
                continue
            old = (pristine / rel).read_bytes() if (pristine / rel).is_file() else None
            new = (tree / rel).read_bytes()
        except OSError:
            continue
        if b">>>" in new or (old is not None and b">>>" in old):
            doctests[rel] = tamper.doctest_map(old, new)
        if old is None:
            continue
        a, b = old.splitlines(), new.splitlines()
        if len(a) + len(b) > 50_000:
            continue
        written = _written_lines(a, b)  # a new def, and a lambda the patch touched, are written whole
        lines[rel] = written + grade_answers.new_definitions(old, new, written)
        edited = grade_answers.answering_functions(old, new)
        if edited:
            originals[rel] = edited
    return {"lines": lines, "originals": originals, "tables": tamper_tables.held_tables(pristine, tree, tests),
            "unscanned": unscanned, "added": added, "doctests": {k: v for k, v in doctests.items() if v}}


_QUOTED = re.compile(r"""(['"])((?:(?!\1).){12,})\1""")


def _added_lines(pristine: Path, tree: Path, changed: list[str], limit: int = 2000) -> list[str]:
    """The distinctive lines (stripped, 12 characters or more) the patch added to any changed text file: code the
    project compiles at run time from text the patch wrote (a template, a string constant) is the patch's when it
    runs, whoever compiles it (R52-2)."""
    out: list[str] = []
    for rel in changed:
        try:
            new = (tree / rel).read_bytes()
            old = (pristine / rel).read_bytes() if (pristine / rel).is_file() else b""
        except OSError:
            continue
        if len(new) > 2_000_000 or b"\0" in new[:4096]:
            continue
        before = set(old.decode("utf-8", "replace").splitlines())
        for ln in new.decode("utf-8", "replace").splitlines():
            if ln in before or not 12 <= len(ln.strip()) <= 500:
                continue
            out.append(ln.strip())  # and what a string literal on it holds (`SLUG = '...'`, R52-2b)
            out += [m.group(2) for m in _QUOTED.finditer(ln) if len(m.group(2)) >= 12]
        if len(out) >= limit:
            break
    return sorted(set(out[:limit]))


def _parses(path: Path) -> bool:
    """The scan could read `path` (what it cannot parse it cannot clear)."""
    import ast

    try:
        ast.parse(path.read_bytes())
    except tamper_tables.PARSE_ERRORS:
        return False
    except OSError:
        return True  # gone, or no file: nothing of it can run
    return True


def _written_lines(a: list[bytes], b: list[bytes], budget: int = 1_000_000) -> list[list[int]]:
    """The patched side's changed line ranges. The lines both sides begin and end with are cut off first; a middle
    too large to match line by line in bounded time (difflib is quadratic on crafted text) counts as written whole,
    which only makes more of the file the patch's."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    if not mid_a and not mid_b:
        return []
    if len(mid_a) * len(mid_b) > budget:
        return [[head + 1, max(head + len(mid_b), head + 1)]]
    ops = difflib.SequenceMatcher(None, mid_a, mid_b).get_opcodes()  # autojunk: a repeated line is no anchor
    return [[head + j1 + 1, head + max(j2, j1 + 1)] for tag, _, _, j1, j2 in ops if tag != "equal"]


def _hide_tests(tree: Path, tip: Path, protected: list[str], stash: Path) -> list[str]:
    """Before an install step: each test file of the tree that the agent's checkout (`tip`) holds otherwise, or not
    at all, goes to `stash` on the host, and the agent's version (if any) takes its place. Project code the step
    runs sees only what the agent saw, so it has no hidden expectation to hand the tests (through the pid counter,
    SysV IPC, timing or anything else the two share)."""
    moved = []
    for rel in protected:
        src, seen = tree / rel, tip / rel
        if not (src.is_symlink() or src.is_file()) or hostfs.crosses_symlink(tree, Path(rel).parts[:-1]):
            continue
        if seen.is_file() and not seen.is_symlink() and not src.is_symlink() and seen.read_bytes() == src.read_bytes():
            continue  # a link is moved aside whatever it points to (the install step reads no test through one)
        (stash / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, stash / rel)
        if seen.is_file() and not seen.is_symlink() and not hostfs.crosses_symlink(tip, Path(rel).parts):
            shutil.copyfile(seen, src)
        moved.append(rel)
    return moved


def _unhide_tests(tree: Path, stash: Path, moved: list[str]) -> None:
    for rel in moved:
        hostfs.remove_path(tree / rel)
        os.replace(stash / rel, tree / rel)


def _after_pre(sandbox: BackendBase, handle: Any, tree: Path, protected: list[str]) -> None:
    """Project code ran in the grading sandbox before the tests (an install step): what it left outside the tree
    goes (`_AFTER_PRE`), and the tree's test files and conftests must be the ones the host placed. A test file it
    rewrote, or a conftest it added, is the agent's doing (AgentFault)."""
    sandbox.exec_argv(handle, ["bash", "-c", "kill -9 -1 2>/dev/null; true"], timeout=60)
    if sandbox.exec_argv(handle, ["bash", "-c", _AFTER_PRE], timeout=60).returncode != 0:
        raise AgentFault(f"project code run before the tests left {launch_mod.LAUNCH_DIR}, which could not be removed")
    files = sorted(p for p in protected if (tree / p).is_file() and not (tree / p).is_symlink())
    listing = sandbox.exec_argv(handle, ["bash", "-c", 'sha256sum -- "$@"; echo ==; find . -name conftest.py '
                                         "-not -path './.git/*' -print", "-", *files], timeout=60)
    sums, _, found = listing.output.partition("==\n")
    seen = dict(reversed(line.split("  ", 1)) for line in sums.splitlines() if "  " in line)
    for rel in files:
        if seen.get(rel) != hashlib.sha256((tree / rel).read_bytes()).hexdigest():
            raise AgentFault(f"project code run before the tests changed the test file {rel}")
    placed = {str(p.relative_to(tree)) for p in tree.rglob("conftest.py")}
    extra = sorted({ln.removeprefix("./") for ln in found.splitlines() if ln.strip()} - placed)
    if extra:
        raise AgentFault(f"project code run before the tests added {extra[0]}")


def _copy_launcher(sandbox: BackendBase, handle: Any, launch: Launch, workdir: str, built: Built, work: Path,
                   code: dict[str, dict[str, Any]] | None = None, helpers: list[str] | None = None) -> None:
    """The launcher, its guard and its spec (the key) into the grading sandbox's /tmp, file by file (docker
    moves staged files out of the read-only tree as root without CAP_CHOWN: a directory would not keep its owner).
    Guard and witness also go as this interpreter's compiled code (`launcher_code`), which a sandbox Python of the
    same bytecode version loads instead of compiling 2,600 lines at every grade (~35 ms of a 0.45 s grade)."""
    here = Path(__file__).parent
    spec = work / "spec.json"
    files = [(here / "pytest_runner.py", launch_mod.RUNNER_PATH)]
    pins: dict[str, list[str]] = {}
    for name in ("swerl_guard", "swerl_witness"):
        dest = f"{launch_mod.LAUNCH_DIR}/{name}.py"
        blob = launcher_code(here / f"{name}.py", dest)
        (work / f"{name}.code").write_bytes(blob)
        compiled = f"{name}.{sys.implementation.cache_tag}.code"
        pins[name] = [compiled, hashlib.sha256(blob).hexdigest()]  # the launcher loads no other compiled code
        files += [(here / f"{name}.py", dest), (work / f"{name}.code", f"{launch_mod.LAUNCH_DIR}/{compiled}")]
    tests = [*built.protected, *(helpers or [])]  # the helper modules they import are sealed and guarded alike
    spec.write_text(json.dumps({**launch.spec(workdir, built.changed, tests, code), "code": pins}))
    files.append((spec, launch_mod.SPEC_PATH))
    for src, dest in files:
        sandbox.copy_in(handle, src, dest)


@functools.lru_cache(maxsize=8)
def _compiled(src: Path, dest: str, mtime_ns: int) -> bytes:
    source = src.read_bytes()
    return importlib.util.MAGIC_NUMBER + hashlib.sha256(source).digest() + marshal.dumps(
        compile(source, dest, "exec", dont_inherit=True, optimize=0))


def launcher_code(src: Path, dest: str) -> bytes:
    """`src` compiled as the file `dest` in the sandbox (its frames must name that path: the guard knows its own
    frames by it): this interpreter's bytecode magic, the source's SHA-256, then the marshalled code. The launcher
    loads it only where the magic is its own and the hash is that of the source beside it."""
    return _compiled(src, dest, src.stat().st_mtime_ns)


def _verdict(task: SandboxTask, plan: HarnessPlan, res: Any, launch: Launch | None, defences: bool, t0: float,
             common: dict[str, Any], tree: Path | None = None, log_limit: int = LOG_LIMIT,
             keep: _Blind | None = None) -> GradeResult:
    from swebench.harness import constants as sc
    from swebench.harness.grading import get_resolution_status

    output = res.output + (f"\n{sc.TESTS_TIMEOUT}\n" if res.timed_out else "")
    record, forged = launch_mod.verify_record(output, launch.key) if launch else (None, [])
    if keep is not None and launch is not None:
        keep.record = record
        keep.held = record.get("held") or [] if record else launch_mod.held_lines(output, launch.key)
    exits = _EXIT_RE.findall(output)
    exit_code = record.get("rc") if record else (int(exits[-1]) if exits else None)
    sizes = _LOG_BYTES_RE.findall(output)
    text_complete = not (launch and sizes and int(sizes[0]) > log_limit)  # the test script kept only its end
    harness_map, found, parse_error = harness_statuses(plan, output)
    required = task.FAIL_TO_PASS + task.PASS_TO_PASS
    start, end = output.find(f"+ : '{sc.START_TEST_OUTPUT}'"), output.rfind(f"+ : '{sc.END_TEST_OUTPUT}'")
    text = output[start:end] if 0 <= start < end else output
    if defences:
        aliases = _aliases(plan, record, required)
        verdict = reports.decide(required, text, harness_map if found else None, record, exit_code,
                                 mode=launch.mode if launch else "text", text_complete=text_complete, aliases=aliases)
    else:  # the old grader: the harness's own map (last status wins), exit code ignored
        verdict = reports.Verdict(statuses={t: (harness_map or {}).get(t, "MISSING") for t in required})
    verdict.tampering += forged
    errors = ([parse_error] if parse_error else []) + verdict.errors
    statuses = verdict.statuses
    if defences:  # an expected failure counts only where the protected test file declares it, never for a fixed test
        errors += reports.undeclared_expectations(statuses, tree, task.FAIL_TO_PASS)
        errors += reports.renamed_cases(dict((record or {}).get("outcomes") or {}), task.FAIL_TO_PASS, required)
    seen = {t: st for t, st in statuses.items() if st != "MISSING"}  # the harness counts absent tests as failed
    report = plan.report(seen, {sc.FAIL_TO_PASS: task.FAIL_TO_PASS, sc.PASS_TO_PASS: task.PASS_TO_PASS})
    resolution = get_resolution_status(report)
    error, error_kind = _failure(res, start, exit_code, errors, resolution, found)
    if error_kind is None and launch is not None and record is not None:
        error = _unclean_end(output, record)
        error_kind = "agent" if error else None
    if error_kind and launch is not None and record is None and not res.timed_out:
        error = "the test process ended without the launcher's signed record (killed, or exited early)"
    if defences and launch is None and task.test_cmd is None and error_kind is None:
        # a SWE-smith profile's or SWE-bench spec's command the launcher cannot run (`python -m tornado.test`, `uv
        # run pytest`): its text log is all there is, which the code under test can write; it trains nothing
        # (infrastructure: never a reward). A command the caller chose for the task (the audit's start-up probes)
        # is graded as it asks. Sphinx's `tox --current-env` runs under the launcher (`launch.tox_command`).
        error, error_kind = (f"the test command is not one the launcher runs (pytest, or a Python script of the "
                             f"tree): {plan.test_script[:200]!r}; a text log alone is never paid"), "infra"
    resolved = (resolution == "RESOLVED_FULL" and not verdict.tampering and error_kind is None
                and (found or not defences) and bool(required) and all(statuses[t] in reports.PASS for t in required))
    result = _result(task, t0, resolved=resolved, resolution=resolution, tests=statuses,
                     fail_to_pass=TestBucket(**report[sc.FAIL_TO_PASS]), pass_to_pass=TestBucket(**report[sc.PASS_TO_PASS]),
                     test_exit_code=exit_code, timed_out=res.timed_out, tampering=verdict.tampering, error=error,
                     error_kind=error_kind, log_tail=output[-4000:], report=verdict.report,
                     notes=list((record or {}).get("notes") or []), **common)
    log.info("graded", instance=task.instance_id, resolved=result.resolved, resolution=resolution,
             exit_code=exit_code, tampering=len(verdict.tampering), seconds=round(result.duration_s, 2),
             notes=(record or {}).get("notes"))
    return result


def _aliases(plan: HarnessPlan, record: dict[str, Any] | None, required: list[str],
             cap: int = 50_000) -> dict[str, str]:
    """node id -> the id the row's parser gives it, for the recorded tests, where a required id is no node id
    (SWE-bench's lists hold the parser's names: `test_x[/CT_small.dcm]` for `test_x[/testbed/.../CT_small.dcm]`)."""
    outcomes = (record or {}).get("outcomes")
    if plan.name is None or not isinstance(outcomes, dict) or all(t in outcomes for t in required):
        return {}
    out = {}
    for node in list(outcomes)[:cap]:
        named = plan.name(node)
        if named and named != node:
            out[node] = named
    return out


def _unclean_end(output: str, record: dict[str, Any]) -> str | None:
    """The launcher ends with `os._exit(rc)` right after signing its final line (rc in it): a process that died
    by a signal, or exited with any status but the one it signed, did not end by the launcher's own hand - a
    record beside it may have been finished by someone else (a key stolen from memory), so it decides nothing."""
    seen = set(_LAUNCHER_EXIT_RE.findall(output))
    rc = record.get("rc")
    if len(seen) != 1 or not isinstance(rc, int) or int(next(iter(seen))) != rc % 256:
        return f"the launcher did not end cleanly (exit status {sorted(seen) or 'unknown'}, its record says {rc!r})"
    return None


def _failure(res: Any, start: int, exit_code: int | None, errors: list[str], resolution: str,
             found: bool) -> tuple[str | None, str | None]:
    """Why the grade failed without a verdict. Everything the test command does is the agent's code running:
    a timeout, a flood, no output at all, a launcher that never wrote its record."""
    if res.timed_out:
        return "tests timed out", "agent"
    if res.truncated:  # output flooded past the cap by the code under test: never a retryable infra failure
        return "test output exceeded the output limit", "agent"
    if start < 0 or exit_code is None:
        return f"the test command produced no harness output (rc={res.returncode})", "agent"
    if errors and (resolution != "RESOLVED_NO" or not found):
        return errors[0], "agent"
    return None, None
