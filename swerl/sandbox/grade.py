"""Grading in a fresh sandbox: the reward must not depend on anything the agent did besides the fix itself.

    pristine export (cached) --> host: apply patch to a scratch copy --> tree diff --> policy (restore / drop)
      --> hidden tests restored --> tamper scan --> fresh grading sandbox (tree shipped in, no .git, git stubbed)
      --> pytest via a trusted launcher (no plugin autoload, repo last on sys.path, JUnit outside the tree)
      --> JUnit report x first-status text log x harness parser x exit code --> GradeResult

Any disagreement between the views is tampering. Problems the agent caused come back as
`error_kind="agent"`, a grading sandbox that cannot start as `"infra"`; `grade` never raises for either.
"""

from __future__ import annotations

import base64
import re
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.sandbox import gradetree, reports, tamper
from swerl.sandbox.base import AgentFault
from swerl.sandbox.schema import GradeResult, SandboxTask, TestBucket
from swerl.sandbox.tasks import is_swebench

if TYPE_CHECKING:
    from swerl.sandbox.base import BackendBase

log = get_logger(__name__)

RUNNER_PATH = "/tmp/swerl_pytest_runner.py"
_EXIT_RE = re.compile(r"^SWERL_TEST_EXIT=(\d+)\s*$", re.MULTILINE)
_B64_LINE = re.compile(r"^[A-Za-z0-9+/=]+$")
_LOG_BYTES_RE = re.compile(r"^SWERL_LOG_BYTES=(\d+)\s*$", re.MULTILINE)
LOG_LIMIT = 1_000_000  # bytes of the test log (its end: the summary) kept for the text parsers
_PYTEST_LAUNCH = (("pytest",), ("py.test",), ("python", "-m", "pytest"), ("python3", "-m", "pytest"))


@dataclass
class HarnessPlan:
    """What the grading sandbox runs, and how the harness turns its log into a status map."""

    test_script: str
    parse: Callable[[Path], tuple[dict[str, str], bool]]
    report: Callable[[dict[str, str], dict[str, list[str]]], dict[str, dict[str, list[str]]]]
    parser: str
    timeout_s: float
    swebench: bool = False
    test_patch: str = ""
    extra_test_files: tuple[str, ...] = ()


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
    from swebench.harness.utils import get_modified_files

    try:
        spec = make_test_spec({**task.row, "instance_id": task.instance_id, "repo": task.repo})
    except KeyError as exc:
        raise DataError(f"row {task.instance_id!r}: no swebench spec for repo/version ({exc})") from exc

    def parse(path: Path) -> tuple[dict[str, str], bool]:
        return get_logs_eval(spec, str(path))

    kept = [cmd for cmd in spec.eval_script_list if not cmd.lstrip().startswith("git ")]
    script = "\n".join(["set -uxo pipefail", *kept])
    test_patch = str(task.row.get("test_patch") or "")
    return HarnessPlan(test_script=script, parse=parse, report=get_eval_tests_report, parser=f"swebench:{spec.repo}",
                       timeout_s=1800.0, swebench=True, test_patch=test_patch,
                       extra_test_files=tuple(get_modified_files(test_patch)) if test_patch else ())


def harness_plan(task: SandboxTask) -> HarnessPlan:
    return swebench_plan(task) if is_swebench(task.row) else swesmith_plan(task)


def pytest_args(test_cmd: str) -> list[str] | None:
    """The pytest arguments of a plain `pytest ...` / `python -m pytest ...` command, else None (run it as is)."""
    if any(ch in test_cmd for ch in ";&|`$<>\n()"):
        return None
    try:
        tokens = shlex.split(test_cmd)
    except ValueError:
        return None
    for launch in _PYTEST_LAUNCH:
        if tuple(tokens[: len(launch)]) == launch:
            return tokens[len(launch):]
    return None


_JUNIT_GZ = ("import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress(open(sys.argv[1], 'rb')"
             ".read())).decode())")


def test_script(task: SandboxTask, plan: HarnessPlan, *, defended: bool, log_limit: int = LOG_LIMIT) -> tuple[str, bool]:
    """(bash script, structured?) run in the grading sandbox. Structured = pytest via the trusted launcher.

    Structured runs write the test output to a file first; the exit code, the (gzipped) JUnit report and the log
    size are printed *before* the log, whose last `log_limit` bytes follow between the harness markers. So a flood
    of output cannot push the report past the exec output cap, and anything the code under test prints comes
    after the trusted lines (the grader reads the first of each).
    """
    from swebench.harness.constants import END_TEST_OUTPUT, START_TEST_OUTPUT
    from swesmith.constants import ENV_NAME

    wd = shlex.quote(task.workdir)
    # one stream: set -x traces (stderr) must not interleave out of order with the report block (docker
    # delivers stdout and stderr separately)
    lines = ["exec 2>&1", "set -uo pipefail", f"cd {wd}",
             f"if [ -f /opt/miniconda3/bin/activate ]; then source /opt/miniconda3/bin/activate; "
             f"conda activate {ENV_NAME}; cd {wd}; fi"]
    if plan.swebench:  # the official script (its git commands removed: no .git here, the host applied test_patch)
        return "\n".join(["exec 2>&1", plan.test_script, "echo SWERL_TEST_EXIT=$?"]) + "\n", False
    args = pytest_args(plan.test_script) if defended else None
    if defended:
        lines += ["export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTHONDONTWRITEBYTECODE=1 PYTHONNOUSERSITE=1",
                  "unset PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTEST_ADDOPTS PYTEST_PLUGINS PYTHONINSPECT || true"]
    if args is None:
        lines += ["set -x", f": '{START_TEST_OUTPUT}'", plan.test_script, "rc=$?", f": '{END_TEST_OUTPUT}'",
                  "set +x", 'echo "SWERL_TEST_EXIT=$rc"']
        return "\n".join(lines) + "\n", False
    command = " ".join(['"$py"', "-I", RUNNER_PATH, wd, *map(shlex.quote, args), '"--junitxml=$rdir/junit.xml"',
                        "-o", "junit_family=xunit1", "-o", "junit_logging=no", "-p", "no:cacheprovider"])
    lines += ['rdir=$(mktemp -d /tmp/swerl-report.XXXXXXXXXX)', 'py=$(command -v python || command -v python3)',
              f'{command} > "$rdir/out.txt" 2>&1 < /dev/null', "rc=$?",
              'echo "SWERL_TEST_EXIT=$rc"',
              'echo SWERL_JUNIT_BEGIN; if [ -f "$rdir/junit.xml" ]; then if command -v gzip >/dev/null; then '
              'gzip -c "$rdir/junit.xml" | base64 -w0; '
              f'else "$py" -I -c {shlex.quote(_JUNIT_GZ)} "$rdir/junit.xml"; fi; fi; echo; echo SWERL_JUNIT_END',
              'echo "SWERL_LOG_BYTES=$(wc -c < "$rdir/out.txt")"',
              "set -x", f": '{START_TEST_OUTPUT}'", f'tail -c {int(log_limit)} "$rdir/out.txt"',
              f": '{END_TEST_OUTPUT}'", "set +x", "exit 0"]
    return "\n".join(lines) + "\n", True


_FRAMES = {m: f"the grading script's {m.rstrip('=')} line" for m in ("SWERL_TEST_EXIT=", "SWERL_JUNIT_BEGIN",
                                                                       "SWERL_LOG_BYTES=")}
_FRAMES[reports.WITNESS_MARKER] = "the launcher's witness record"


def _frame_forgery(output: str, returncode: int | None) -> list[str]:
    """The trusted frame (exit code, JUnit block, log size) is printed once by the grading script after the tests
    ended. A process of the tests' uid can still write to the script's stdout (its /proc/PID/fd/1) or kill it,
    so a frame printed twice, a second witness record, or a script that did not exit 0 is tampering."""
    found = [f"{what} appears {n} times" for m, what in _FRAMES.items()
             if (n := len(re.findall(rf"(?m)^{re.escape(m)}", output))) > 1]
    if returncode not in (0, None):
        found.append(f"the grading script was interrupted (exit {returncode})")
    return found


def _junit_block(output: str, *, first: bool) -> bytes | None:
    """The (gzipped, base64) JUnit report between SWERL_JUNIT_BEGIN and the SWERL_JUNIT_END after it: the first
    block (structured runs print theirs before the log) or the last; None if absent."""
    import gzip

    marker = "SWERL_JUNIT_BEGIN\n"
    start = output.find(marker) if first else output.rfind(marker)
    end = output.find("\nSWERL_JUNIT_END", start + 1) if start >= 0 else -1
    if start < 0 or end < 0:
        return None
    data = "".join(line.strip() for line in output[start + len(marker):end].splitlines()
                   if _B64_LINE.match(line.strip()))
    if not data:
        return None
    try:
        return gzip.decompress(base64.b64decode(data, validate=True))
    except (ValueError, OSError, EOFError):
        return b"not a gzipped base64 report"


def harness_statuses(plan: HarnessPlan, output: str) -> tuple[dict[str, str] | None, bool, str | None]:
    """(status map, markers found, error) from the harness's own parser; never raises (a log it chokes on - e.g.
    markers out of order, names it cannot split - is an error string, not a traceback)."""
    with tempfile.TemporaryDirectory(prefix="swerl-grade-log-") as tmp:
        log_path = Path(tmp) / "test_output.txt"
        log_path.write_text(output, errors="surrogateescape")
        try:
            status_map, found = plan.parse(log_path)
        except Exception as exc:  # the harness parser choked on the test output
            return None, False, f"harness log parser failed: {type(exc).__name__}: {exc}"[:300]
    return dict(status_map), bool(found), None


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
    headers = gradetree.patch_headers(patch)
    try:
        pristine = gradetree.export_pristine(sandbox, task, keep_git=not defences)
    except Exception as exc:
        log.warning("grading: pristine export failed", instance=task.instance_id, error=str(exc))
        return _result(task, t0, error=f"pristine export failed: {type(exc).__name__}: {exc}"[:500],
                       error_kind="infra", patch_files=sorted(headers))
    work = Path(tempfile.mkdtemp(prefix="swerl-grade-"))
    try:
        return _grade_tree(sandbox, task, patch, plan, pristine, work, headers, t0, timeout_s, defences)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if not defences:  # an uncached export with .git: remove it
            shutil.rmtree(pristine.tip.parent, ignore_errors=True)


def _grade_tree(sandbox: BackendBase, task: SandboxTask, patch: str, plan: HarnessPlan,
                pristine: gradetree.PristineTree, work: Path, headers: dict[str, int], t0: float,
                timeout_s: float | None, defences: bool) -> GradeResult:
    from swebench.harness import constants as sc
    from swebench.harness.grading import get_resolution_status

    tree = work / "tree"
    common: dict[str, Any] = dict(patch_files=sorted(headers), hidden_tests=pristine.hidden, parser=plan.parser)
    try:
        if patch.strip():
            tool = gradetree.apply_patch(pristine.tip, tree, patch)
        else:
            shutil.copytree(pristine.tip, tree, symlinks=True)
            tool = "none"
    except gradetree.PatchRejected as exc:
        return _result(task, t0, error=str(exc)[:500], error_kind="agent", **common)
    except OSError as exc:
        return _result(task, t0, error=f"scratch tree: {exc}"[:500], error_kind="infra", **common)
    dropped: list[Any] = []
    tampering: list[str] = []
    try:  # everything here only processes the tree the agent's patch produced
        changes = gradetree.diff_trees(gradetree.snapshot(pristine.tip), gradetree.snapshot(tree))
        if defences:
            policy = gradetree.Policy.for_task(task)
            policy.test_files |= set(plan.extra_test_files) | set(pristine.hidden)
            policy.shadow = policy.shadow | gradetree.installed_names(pristine.env_modules)
            changes, dropped = gradetree.enforce(changes, pristine.tip, tree, policy, headers)
            tampering = tamper.scan_tree([c.path for c in changes if c.after is not None], pristine.tip, tree)
        for rel in pristine.hidden:
            gradetree.restore(rel, pristine.base, tree)
    except Exception as exc:
        log.warning("grading: the patched tree could not be processed", instance=task.instance_id, error=str(exc))
        return _result(task, t0, error=f"the patched tree could not be processed: {type(exc).__name__}: {exc}"[:500],
                       error_kind="agent", **common)
    common.update(changed=[c.path for c in changes if c.after is None or c.after.kind != "dir"], dropped=dropped,
                  patch_applied=True)
    if plan.swebench and plan.test_patch.strip():
        try:
            applied = work / "with-tests"
            gradetree.apply_patch(tree, applied, plan.test_patch)
            shutil.rmtree(tree)
            applied.rename(tree)
        except gradetree.PatchRejected as exc:
            return _result(task, t0, error=f"the task's test_patch does not apply: {exc}"[:500], error_kind="infra",
                           **common)
    if tampering:
        log.warning("grading: tampering", instance=task.instance_id, reasons=tampering[:10])
        return _result(task, t0, tampering=tampering, report="tamper-scan", **common)
    script, structured = test_script(task, plan, defended=defences,
                                     log_limit=min(LOG_LIMIT, sandbox.settings.output_limit_bytes // 2))
    timeout = timeout_s or max(plan.timeout_s, sandbox.settings.command_timeout_s)
    handle = None
    try:
        handle = sandbox.start_grading(task, tree, git_binaries=pristine.git_binaries, keep_git=not defences)
        sandbox.copy_in(handle, Path(__file__).parent / "pytest_runner.py", RUNNER_PATH)
        res = sandbox.exec_argv(handle, ["bash", "-c", script], timeout=timeout)
    except Exception as exc:
        # AgentFault: the patched tree is over the copy limit, or the code under test broke the sandbox
        log.warning("grading sandbox failed", instance=task.instance_id, error=str(exc))
        kind = "agent" if isinstance(exc, AgentFault) else "infra"
        return _result(task, t0, error=f"grading sandbox: {type(exc).__name__}: {exc}"[:500], error_kind=kind,
                       **common)
    finally:
        if handle is not None:
            sandbox.stop(handle)
    output = res.output + (f"\n{sc.TESTS_TIMEOUT}\n" if res.timed_out else "")
    exits = _EXIT_RE.findall(output)
    forged_frames = _frame_forgery(output, None if res.timed_out else res.returncode) if structured and defences else []
    exit_code = int(exits[0 if structured else -1]) if exits else None  # ours: before the log / after the tests
    junit_xml = _junit_block(output, first=True) if structured else None
    sizes = _LOG_BYTES_RE.findall(output)
    text_complete = not (structured and sizes and int(sizes[0]) > LOG_LIMIT)
    harness_map, found, parse_error = harness_statuses(plan, output)
    errors: list[str] = [parse_error] if parse_error else []
    required = task.FAIL_TO_PASS + task.PASS_TO_PASS
    start, end = output.find(f"+ : '{sc.START_TEST_OUTPUT}'"), output.rfind(f"+ : '{sc.END_TEST_OUTPUT}'")
    text = output[start:end] if 0 <= start < end else output
    if defences:
        verdict = reports.decide(required, text, harness_map if found else None, junit_xml,
                                 None if plan.swebench else exit_code,  # swebench's script hides the tests' rc
                                 structured=structured, witness=reports.parse_witness(text) if structured else None,
                                 text_complete=text_complete)
    else:  # the old grader: the harness's own map (last status wins), exit code ignored
        verdict = reports.Verdict(statuses={t: (harness_map or {}).get(t, "MISSING") for t in required})
    verdict.tampering += forged_frames
    statuses = verdict.statuses
    errors += verdict.errors
    seen = {t: st for t, st in statuses.items() if st != "MISSING"}  # the harness counts absent tests as failed
    report = plan.report(seen, {sc.FAIL_TO_PASS: task.FAIL_TO_PASS, sc.PASS_TO_PASS: task.PASS_TO_PASS})
    resolution = get_resolution_status(report)
    error: str | None = None
    error_kind: str | None = None
    if res.timed_out:
        error, error_kind = "tests timed out", "agent"
    elif res.truncated:  # output flooded past the cap by the code under test: never a retryable infra failure
        error, error_kind = "test output exceeded the output limit", "agent"
    elif start < 0 or exit_code is None:
        error, error_kind = f"the test command produced no harness output (rc={res.returncode})", "infra"
    elif errors and (resolution != "RESOLVED_NO" or not found):
        error, error_kind = errors[0], "agent"
    resolved = (resolution == "RESOLVED_FULL" and not verdict.tampering and error_kind is None
                and (found or not defences) and bool(required) and all(statuses[t] in reports.PASS for t in required))
    result = _result(task, t0, resolved=resolved, resolution=resolution, tests=statuses,
                     fail_to_pass=TestBucket(**report[sc.FAIL_TO_PASS]), pass_to_pass=TestBucket(**report[sc.PASS_TO_PASS]),
                     test_exit_code=exit_code, timed_out=res.timed_out, tampering=verdict.tampering, error=error,
                     error_kind=error_kind, log_tail=output[-4000:], report=verdict.report, **common)
    log.info("graded", instance=task.instance_id, resolved=result.resolved, resolution=resolution, apply=tool,
             exit_code=exit_code, dropped=len(dropped), tampering=len(verdict.tampering),
             seconds=round(result.duration_s, 2))
    return result
