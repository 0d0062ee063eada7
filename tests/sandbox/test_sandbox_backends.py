"""Every backend's exec / timeout / cleanup / hardening / patch / grade path on bundled tasks (bwrap and docker)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.base import HardeningError, RolloutDeadline
from swerl.sandbox.grade import grade
from swerl.sandbox.schema import SandboxTask

BACKENDS = ["bwrap", pytest.param("docker", marks=pytest.mark.docker)]
ALL_MODES = ["bwrap", "bwrap_percommand", pytest.param("docker", marks=pytest.mark.docker)]

FORGED_CONFTEST_PATCH = """diff --git a/conftest.py b/conftest.py
new file mode 100644
--- /dev/null
+++ b/conftest.py
@@ -0,0 +1,7 @@
+import pytest
+
+
+@pytest.hookimpl(hookwrapper=True)
+def pytest_runtest_makereport(item, call):
+    outcome = yield
+    outcome.get_result().outcome = "passed"
"""


@pytest.fixture(params=BACKENDS)
def sandbox(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


@pytest.fixture(params=ALL_MODES)
def any_sandbox(request: pytest.FixtureRequest) -> Any:
    """Also bwrap's per-command mode, for the exec/isolation/cleanup paths that differ between modes."""
    return request.getfixturevalue(f"{request.param}_sandbox")


def _host_procs(needle: str) -> list[int]:
    pids = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if needle in Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    pids.append(int(pid))
            except OSError:
                pass
    return pids


def test_hardened_sandbox_shows_only_the_problem_branch(any_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _row, task = calc_task
    with any_sandbox.session(task) as h:
        assert "ordered[mid] + ordered[mid + 1]" in any_sandbox.exec(h, "cat calc/stats.py").output  # the bug is checked out
        listing = any_sandbox.exec(h, "ls -a; find / -name .git -not -path '/proc/*' 2>/dev/null; echo END").output
        assert ".git" not in listing.split()
        for cmd in ("git status", "git log --all", "/usr/lib/git-core/git log", "/usr/lib/git-core/git-log"):
            res = any_sandbox.exec(h, cmd)
            assert res.returncode != 0, cmd
        assert "disabled" in any_sandbox.exec(h, "git log").output
        assert any_sandbox.exec(h, "find . -name '*.pyc' -o -name __pycache__").output.strip() == ""
        net = any_sandbox.exec(h, "cat /proc/net/dev").output
        assert [ln.split(":")[0].strip() for ln in net.splitlines()[2:]] == ["lo"]
        assert "CapEff:\t0000000000000000" in any_sandbox.exec(h, "grep CapEff /proc/self/status").output
        assert any_sandbox.exec(h, "touch /usr/x").returncode != 0  # read-only system
        assert any_sandbox.exec(h, "echo ok > /tmp/x && cat /tmp/x").output.strip() == "ok"  # private /tmp works
        # the saved .git on the host still knows the gold code
        assert h.git_dir is not None and (h.git_dir / "HEAD").is_file()
    assert h.stopped and not h.host_dir.exists()


def test_exec_output_returncode_cwd_timeout_and_cap(any_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    with any_sandbox.session(task) as h:
        res = any_sandbox.exec(h, "echo out; echo err >&2; exit 3")
        assert res.returncode == 3 and "out" in res.output and "err" in res.output and not res.timed_out
        assert any_sandbox.exec(h, "pwd").output.strip() == "/testbed"
        assert any_sandbox.exec(h, "pwd", cwd="/tmp").output.strip() == "/tmp"
        t0 = time.monotonic()
        res = any_sandbox.exec(h, "echo before; sleep 60; echo after", timeout=2)
        assert res.timed_out and res.returncode != 0 and "after" not in res.output
        assert time.monotonic() - t0 < 15
        big = any_sandbox.exec(h, f"head -c {any_sandbox.settings.output_limit_bytes + 100000} /dev/zero | tr '\\0' a")
        assert big.truncated and len(big.output) == any_sandbox.settings.output_limit_bytes
        # the work tree is writable and tests run honestly inside
        res = any_sandbox.exec(h, "python -m pytest -q -p no:cacheprovider tests/test_stats.py 2>&1 | tail -n 1")
        assert "1 failed" in res.output


def test_stop_kills_everything_and_is_idempotent(any_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    marker = f"sleep {4000 + os.getpid() % 1000}.5"
    h = any_sandbox.start(task)
    any_sandbox.exec(h, f"nohup {marker} >/dev/null 2>&1 & echo started")
    any_sandbox.stop(h)
    any_sandbox.stop(h)  # idempotent
    deadline = time.monotonic() + 10
    while _host_procs(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _host_procs(marker) == []
    assert not h.host_dir.exists()
    with pytest.raises(Exception, match="stopped"):
        any_sandbox.exec(h, "true")


def test_bwrap_exec_server_survives_an_agent_killing_everything(bwrap_sandbox: Any,
                                                                calc_task: tuple[Any, SandboxTask]) -> None:
    """As root the server is out of the commands' reach: killing everything visible leaves it serving."""
    _, task = calc_task
    with bwrap_sandbox.session(task) as h:
        server = h.state["server"]
        assert server.alive
        res = bwrap_sandbox.exec(h, "kill -9 -1; for p in /proc/[0-9]*; do kill -9 ${p#/proc/} 2>/dev/null; done; "
                                    "echo unreachable")
        assert res.returncode == -9 or "unreachable" in res.output  # the shell may kill itself, never the server
        assert h.state["server"] is server and server.alive and h.state["restarts"] == 0
        assert bwrap_sandbox.exec(h, "echo back").output.strip() == "back"


def test_bwrap_lost_exec_server_is_an_agent_fault_and_restarts_are_bounded(
        bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    """A server lost mid-command (here killed from the host, as a same-uid agent could) fails that command as
    AgentFault, is restarted for the next command (not re-running it), and only MAX_SERVER_RESTARTS times."""
    import signal

    from swerl.sandbox.base import AgentFault
    from swerl.sandbox.bwrap import MAX_SERVER_RESTARTS

    _, task = calc_task
    with bwrap_sandbox.session(task) as h:
        for i in range(MAX_SERVER_RESTARTS + 1):
            server = h.state["server"]
            assert server.alive
            pid = bwrap_sandbox.exec(h, "echo $$").output.strip()
            assert pid.isdigit()
            threading.Timer(0.5, lambda s=server: os.killpg(s.proc.pid, signal.SIGKILL)).start()
            with pytest.raises(AgentFault, match="exited during the command"):
                bwrap_sandbox.exec(h, f"echo run-{i} >> /tmp/runs; sleep 20")
            if i < MAX_SERVER_RESTARTS:
                assert bwrap_sandbox.exec(h, "cat /tmp/runs").output.split() == [f"run-{j}" for j in range(i + 1)]
        with pytest.raises(AgentFault, match="abandoned"):
            bwrap_sandbox.exec(h, "echo again")


def test_session_stops_on_error(sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    with pytest.raises(KeyboardInterrupt), sandbox.session(task) as h:
        raise KeyboardInterrupt
    assert h.stopped and not h.host_dir.exists()
    if sandbox.name == "docker":
        assert sandbox.client.containers.list(all=True, filters={"label": f"swerl.handle={h.id}"}) == []
        assert sandbox.client.volumes.list(filters={"label": f"swerl.handle={h.id}"}) == []


def test_missing_branch_is_a_hardening_error(sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    bad = task.model_copy(update={"branch": "pushed-after-the-image-was-built"})
    with pytest.raises(HardeningError, match="pushed-after"):
        sandbox.start(bad)
    if sandbox.name == "docker":
        assert sandbox.client.containers.list(all=True, filters={"label": "swerl.sandbox=1"}) == []


def test_rollout_deadline(sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    # 10 s: a container start on a loaded 2-core machine has taken over 4 s of the budget before the exec
    short = type(sandbox)(sandbox.settings.model_copy(update={"rollout_timeout_s": 10.0}))
    with short.session(task) as h:
        res = short.exec(h, "sleep 60", timeout=60)  # capped by the remaining rollout budget
        assert res.timed_out and res.duration_s < 25
        time.sleep(max(0.0, h.remaining_s) + 0.1)
        with pytest.raises(RolloutDeadline):
            short.exec(h, "echo late")


def test_agent_edit_patch_and_fresh_grade(sandbox: Any, calc_task: tuple[Any, SandboxTask],
                                          taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    """An agent applies the fix and also plants a forged conftest: the patch keeps the fix, drops the forgery."""
    row, task = calc_task
    pack = taskpack[0]
    with sandbox.session(task) as h:
        gold = h.host_dir / "gold.diff"
        gold.write_text(pack.gold_patch(row))
        sandbox.copy_in(h, gold, "/tmp/gold.diff")
        assert sandbox.exec(h, "patch -p1 < /tmp/gold.diff").returncode == 0
        sandbox.exec(h, "printf 'import pytest\\n' > conftest.py; python -m pytest -q -p no:cacheprovider tests >/dev/null")
        patch = sandbox.extract_patch(h)
    assert patch.files == ["calc/stats.py"]
    assert [d.path for d in patch.dropped] == ["conftest.py"]
    assert patch.ignored_bytecode > 0  # pytest wrote __pycache__; none of it is in the patch
    result = sandbox.grade(task, patch.patch)
    assert result.resolved and result.patch_applied and result.test_exit_code == 0
    assert result.tests[task.FAIL_TO_PASS[0]] == "PASSED"
    assert result.parser.startswith("swesmith:")


def test_grade_gold_empty_forged_and_broken(sandbox: Any, calc_task: tuple[Any, SandboxTask],
                                            taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    row, task = calc_task
    pack = taskpack[0]
    gold = sandbox.grade(task, pack.gold_patch(row))
    assert gold.resolved and gold.resolution == "RESOLVED_FULL"
    assert gold.fail_to_pass.success == task.FAIL_TO_PASS and gold.pass_to_pass.failure == []

    empty = sandbox.grade(task, "")
    assert not empty.resolved and empty.fail_to_pass.failure == task.FAIL_TO_PASS
    assert empty.test_exit_code == 1 and empty.pass_to_pass.failure == []

    forged = sandbox.grade(task, FORGED_CONFTEST_PATCH)
    assert not forged.resolved and [d.path for d in forged.dropped] == ["conftest.py"]

    # a patch that stops the test module from importing: its tests did not run -> MISSING -> failed
    broken_patch = ("diff --git a/calc/stats.py b/calc/stats.py\n--- a/calc/stats.py\n+++ b/calc/stats.py\n"
                    "@@ -1,2 +1,3 @@\n+raise ImportError('broken')\n" + _first_lines(pack, row, 2))
    broken = sandbox.grade(task, broken_patch)
    assert broken.patch_applied and not broken.resolved
    assert broken.tests[task.FAIL_TO_PASS[0]] == "MISSING" and task.FAIL_TO_PASS[0] in broken.fail_to_pass.failure
    assert broken.test_exit_code not in (None, 0)

    garbage = sandbox.grade(task, "diff --git a/calc/nope.py b/calc/nope.py\n--- a/calc/nope.py\n+++ b/calc/nope.py\n"
                                  "@@ -1 +1 @@\n-a\n+b\n")
    assert not garbage.patch_applied and not garbage.resolved


def _first_lines(pack: Any, row: Any, n: int) -> str:
    text = (pack.repo_dir(row) / "calc" / "stats.py").read_text().splitlines(keepends=True)[:n]
    return "".join(" " + line for line in text)


def test_grading_timeout_is_recorded(sandbox: Any, calc_task: tuple[Any, SandboxTask],
                                     taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    row, task = calc_task
    pack = taskpack[0]
    hang = ("diff --git a/calc/stats.py b/calc/stats.py\n--- a/calc/stats.py\n+++ b/calc/stats.py\n"
            "@@ -1,2 +1,4 @@\n+import time\n+time.sleep(600)\n" + _first_lines(pack, row, 2))
    res = grade(sandbox, task, hang, timeout_s=4)
    assert res.timed_out and not res.resolved and res.fail_to_pass.failure == task.FAIL_TO_PASS
