"""Grading in a fresh sandbox: the reward must not depend on anything the agent's sandbox did.

A new sandbox is started from the pristine image (network none, limits, timeout), the
problem branch is checked out, the *filtered* patch is applied with swesmith's apply
commands, the tests run between the harness markers, and the log is parsed by the
harness itself: swesmith's registry profile + `read_test_output` + log parser for
SWE-smith rows (and the task pack, registered in `profiles.py`), swebench's
`make_test_spec` eval script + `get_logs_eval` for SWE-bench rows. A test that did not
run counts as failed (the harness's `test_failed`); the test command's exit code is
recorded.
"""

from __future__ import annotations

import re
import shlex
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.sandbox.patch import filter_patch, test_files_of
from swerl.sandbox.schema import GradeResult, SandboxTask, TestBucket

if TYPE_CHECKING:
    from swerl.sandbox.base import BackendBase

log = get_logger(__name__)

PATCH_PATH = "/tmp/swerl_model.patch"
_EXIT_RE = re.compile(r"^SWERL_TEST_EXIT=(\d+)\s*$", re.MULTILINE)


@dataclass
class HarnessPlan:
    """What the grading sandbox runs after the patch, and how the harness turns its log into a status map."""

    test_script: str
    parse: Callable[[Path], tuple[dict[str, str], bool]]
    report: Callable[[dict[str, str], dict[str, list[str]]], dict[str, dict[str, list[str]]]]
    parser: str
    timeout_s: float


def _is_swebench(row: dict[str, Any]) -> bool:
    return bool(row.get("version")) and "test_patch" in row and "base_commit" in row


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
    """SWE-bench rows: the official eval script and `get_logs_eval` with the repo's parser."""
    from swebench.harness.grading import get_eval_tests_report, get_logs_eval
    from swebench.harness.test_spec.test_spec import make_test_spec

    try:
        spec = make_test_spec({**task.row, "instance_id": task.instance_id, "repo": task.repo})
    except KeyError as exc:
        raise DataError(f"row {task.instance_id!r}: no swebench spec for repo/version ({exc})") from exc

    def parse(path: Path) -> tuple[dict[str, str], bool]:
        return get_logs_eval(spec, str(path))

    return HarnessPlan(test_script=spec.eval_script, parse=parse, report=get_eval_tests_report,
                       parser=f"swebench:{spec.repo}", timeout_s=1800.0)


def harness_plan(task: SandboxTask) -> HarnessPlan:
    return swebench_plan(task) if _is_swebench(task.row) else swesmith_plan(task)


def eval_script(task: SandboxTask, plan: HarnessPlan, *, has_patch: bool) -> str:
    """Checkout, apply with swesmith's GIT_APPLY_CMDS, run the tests between the harness markers."""
    from swebench.harness.constants import (
        APPLY_PATCH_FAIL,
        APPLY_PATCH_PASS,
        END_TEST_OUTPUT,
        START_TEST_OUTPUT,
    )
    from swesmith.constants import GIT_APPLY_CMDS

    lines = [
        "set -uo pipefail",
        f"cd {shlex.quote(task.workdir)}",
        f"git -c core.hooksPath=/dev/null -c advice.detachedHead=false checkout -q -f {shlex.quote(task.branch)} "
        f"|| {{ echo 'SWERL_BRANCH_MISSING'; exit 3; }}",
        "find . -name __pycache__ -type d -prune -exec rm -rf {} + ; find . -name '*.py[co]' -delete",
    ]
    if has_patch:
        tries = " || ".join(f"{cmd} {PATCH_PATH}" for cmd in GIT_APPLY_CMDS)
        lines += [f"if {tries}; then echo {shlex.quote(APPLY_PATCH_PASS)}; "
                  f"else echo {shlex.quote(APPLY_PATCH_FAIL)}; exit 4; fi"]
    if _is_swebench(task.row):
        lines += [plan.test_script, "echo SWERL_TEST_EXIT=$?"]
    else:
        lines += ["set -x", f": '{START_TEST_OUTPUT}'", plan.test_script, "rc=$?", f": '{END_TEST_OUTPUT}'",
                  "set +x", 'echo "SWERL_TEST_EXIT=$rc"']
    return "\n".join(lines) + "\n"


def grade(sandbox: BackendBase, task: SandboxTask, patch: str, *, timeout_s: float | None = None) -> GradeResult:
    """Apply the filtered `patch` to a fresh pristine sandbox, run the tests, grade with the harness."""
    from swebench.harness.constants import APPLY_PATCH_FAIL, FAIL_TO_PASS, PASS_TO_PASS, TESTS_TIMEOUT
    from swebench.harness.grading import get_resolution_status

    t0 = time.monotonic()
    filtered = filter_patch(patch, test_files_of(task.FAIL_TO_PASS + task.PASS_TO_PASS))
    plan = harness_plan(task)
    timeout = timeout_s or max(plan.timeout_s, sandbox.settings.command_timeout_s)
    handle = sandbox.start_pristine(task)
    try:
        has_patch = bool(filtered.patch.strip())
        if has_patch:
            local = handle.host_dir / "model.patch"
            local.write_text(filtered.patch)
            sandbox.copy_in(handle, local, PATCH_PATH)
        script = eval_script(task, plan, has_patch=has_patch)
        res = sandbox.exec_argv(handle, ["bash", "-c", script], timeout=timeout)
    finally:
        sandbox.stop(handle)
    output = res.output + (f"\n{TESTS_TIMEOUT}\n" if res.timed_out else "")
    with tempfile.TemporaryDirectory(prefix="swerl-grade-") as tmp:
        log_path = Path(tmp) / "test_output.txt"  # the harness parsers read a log file
        log_path.write_text(output)
        status_map, found = plan.parse(log_path)
    applied = APPLY_PATCH_FAIL not in output and "SWERL_BRANCH_MISSING" not in output
    report = plan.report(status_map, {FAIL_TO_PASS: task.FAIL_TO_PASS, PASS_TO_PASS: task.PASS_TO_PASS})
    resolution = get_resolution_status(report)
    m = _EXIT_RE.search(output)
    tests = {t: status_map.get(t, "MISSING") for t in task.FAIL_TO_PASS + task.PASS_TO_PASS}
    result = GradeResult(
        instance_id=task.instance_id,
        resolved=bool(found and applied and resolution == "RESOLVED_FULL"),
        resolution=resolution,
        patch_applied=applied,
        tests=tests,
        fail_to_pass=TestBucket(**report[FAIL_TO_PASS]),
        pass_to_pass=TestBucket(**report[PASS_TO_PASS]),
        test_exit_code=int(m.group(1)) if m else None,
        timed_out=res.timed_out,
        dropped=filtered.dropped,
        parser=plan.parser,
        duration_s=time.monotonic() - t0,
        log_tail=output[-4000:],
    )
    log.info("graded", instance=task.instance_id, resolved=result.resolved, resolution=resolution,
             exit_code=result.test_exit_code, dropped=len(filtered.dropped), seconds=round(result.duration_s, 2))
    return result
