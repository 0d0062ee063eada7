"""The red-team audit passes on bwrap and docker, and flags escapes on a deliberately leaky sandbox."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.audit import canary_task, make_canary_repo, render, run_audit
from swerl.sandbox.audit_classes import CLASS_PROBES, ClassProbe, build_patch, judge, probe_class
from swerl.sandbox.audit_servers import LoopbackServers
from swerl.sandbox.base import SandboxHandle
from swerl.sandbox.bwrap import ROOT_UNSHARE, BwrapSandbox

SPEC_PROBES = {
    "git log --all", "git show HEAD~1", "git diff origin/main", "read .git objects directly", "curl (GitHub stand-in)",
    "wget (GitHub stand-in)", "pip download --index-url", "python urllib", "python raw socket",
    "DNS lookup (loopback resolver)", "forged conftest.py forces passes", "edit a test file", "environment credentials",
    "write outside the work tree",
    # isolation (audit_isolation.py): host privilege, exec channel, agent-chosen infra failures
    "host kernel settings (/proc/sys, sysrq, /sys)", "commands run as host root",
    "devices, sockets, inherited descriptors", "forged exec reply", "agent-chosen infra failure",
}


def _check_clean(report: Any) -> None:
    table = render(report)
    assert report.ok, table
    names = {p.name for p in report.probes}
    assert names >= SPEC_PROBES | {p.label for p in CLASS_PROBES}
    assert {probe_class(n) for n in names} >= {"1", "2", "3", "4", "-"}
    assert all(p.verdict == "ok" for p in report.probes), table
    assert "PASS: no probe escaped" in table


def test_audit_cli_passes_on_bwrap(rootfs: Path) -> None:
    """`swerl sandbox audit` end to end: table/JSON out, exit 0 only when nothing escaped."""
    from typer.testing import CliRunner

    from swerl.cli import app
    from swerl.sandbox.schema import AuditReport

    res = CliRunner().invoke(app, ["sandbox", "audit", "--backend", "bwrap", "--rootfs", str(rootfs), "--json"])
    assert res.exit_code == 0, res.output
    _check_clean(AuditReport.model_validate_json(res.stdout))


@pytest.mark.slow  # ~2 min; make test keeps the docker grade with the seal (test_sandbox_sealed.py)
@pytest.mark.docker
def test_audit_passes_on_docker(docker_sandbox: Any) -> None:
    from swerl.sandbox.images import ensure_repo_image

    report = run_audit(docker_sandbox, image_builder=lambda repo: ensure_repo_image(
        docker_sandbox.client, repo, "swerl-audit/canary:latest", repo="swerl-audit/canary"))
    _check_clean(report)


class LeakyBwrap(BwrapSandbox):
    """A sandbox with the hardening switched off: host network, .git left in place, real git, host env.
    (Per-command mode, so that the loosened bwrap arguments apply to every command.)"""

    def _launch(self, handle: SandboxHandle) -> None:
        handle.pristine = True  # no .git removal, no git stub
        super()._launch(handle)
        handle.pristine = False
        work = handle.state["work"]
        handle.git_dir = work / ".git"
        args = [a for a in handle.state["args"] if a not in ("--unshare-all", *ROOT_UNSHARE)]
        # as root, no user namespace: commands drop to the sandbox uid, which a 0->0 map would not contain
        args[:0] = [*([] if self.as_root else ["--unshare-user-try"]), "--unshare-pid", "--unshare-ipc",
                    "--unshare-uts", "--share-net"]
        handle.state["args"] = [*args, "--setenv", "GITHUB_TOKEN", "swerl-audit-secret-GITHUB_TOKEN"]  # after --clearenv

    def start(self, task: Any) -> SandboxHandle:  # skip hardening verification on purpose
        return self._start(task, pristine=True)


def test_audit_detects_escapes_on_a_leaky_sandbox(rootfs: Path) -> None:
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    leaky = LeakyBwrap(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs, persistent=False)))
    report = run_audit(leaky)
    escaped = {p.name for p in report.escaped}
    assert not report.ok
    assert {"git log --all", "git show HEAD~1", "read .git objects directly", "curl (GitHub stand-in)",
            "python urllib", "python raw socket", "DNS lookup (loopback resolver)", "pip download --index-url",
            "environment credentials"} <= escaped, render(report)
    assert "FAIL:" in render(report)


def test_loopback_servers_only_bind_loopback() -> None:
    import socket
    import urllib.request

    with LoopbackServers("TOKEN-x") as s:
        for port in (s.http_port, s.index_port):
            assert urllib.request.urlopen(f"http://127.0.0.1:{port}/simple/", timeout=5).status == 200
        for srv in s._servers:
            assert srv.server_address[0] == "127.0.0.1"
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
            u.settimeout(3)
            u.sendto(b"\x00\x01\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x03foo\x00\x00\x01\x00\x01", ("127.0.0.1", s.dns_port))
            assert u.recvfrom(512)[0].endswith(bytes([127, 0, 0, 1]))
        time.sleep(0.1)
        assert s.hits.dns == ["foo"] and len(s.hits.http) + len(s.hits.index) == 2


def test_class_probes_cover_every_class_and_render_a_class_column() -> None:
    from swerl.sandbox.schema import AuditProbe, AuditReport

    assert {p.klass for p in CLASS_PROBES} == {1, 2, 3, 4, 5}
    assert len({p.label for p in CLASS_PROBES}) == len(CLASS_PROBES)
    report = AuditReport(backend="x", probes=[
        AuditProbe(name=CLASS_PROBES[0].label, expected="e", observed="o", escaped=False),
        AuditProbe(name="git log --all", expected="e", observed="o", escaped=True)])
    lines = render(report).splitlines()
    assert lines[1].split()[:2] == ["class", "probe"]
    assert lines[3].startswith("1 ") and lines[4].startswith("- ")
    assert probe_class("class 12: x") == "12" and probe_class("classy: x") == "-"


def test_build_patch_applies_to_the_canary(tmp_path: Path) -> None:
    from swerl.sandbox.gradetree import apply_patch
    from swerl.sandbox.patch import git_env, run_git

    repo = make_canary_repo(tmp_path / "canary", "GOLD")
    run_git(["checkout", "-q", "swerl-audit__canary.bug"], git_env(repo), cwd=repo)
    files = {"canary/core.py": "def answer():\n    return 42\n", "canary/__init__.py": "X = 1\n",
             "pkg/new.txt": "a\nb\n"}
    apply_patch(repo, tmp_path / "out", build_patch(files))
    for rel, text in files.items():
        assert (tmp_path / "out" / rel).read_text() == text


def _canary(tmp: Path) -> Any:
    return canary_task(make_canary_repo(tmp / "canary", "GOLD-classes"), None)


def test_every_class_probe_is_refused_and_its_weakened_control_pays(rootfs: Path, tmp_path: Path) -> None:
    """Each route: the defended grader (and, for the runtime classes, the same grader with the static scan a
    no-op) does not resolve it; the weakened grader does, so the probe can see the escape."""
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    sandbox = BwrapSandbox(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    task = _canary(tmp_path)
    results = {p.label: judge(p, sandbox, task) for p in CLASS_PROBES}
    table = "\n".join(f"{k}: {v}" for k, v in results.items())
    assert not [k for k, (escaped, _, _) in results.items() if escaped], table
    assert not [k for k, (_, _, broken) in results.items() if broken], table
    runtime = [p.label for p in CLASS_PROBES if p.scan_off]
    assert all("scan off RESOLVED" not in results[k][1] for k in runtime), table
    assert all("dropped" in results[p.label][1] for p in CLASS_PROBES if p.klass == 4), table


def test_a_probe_that_does_not_escape_is_reported_broken(rootfs: Path, tmp_path: Path) -> None:
    """The control is what makes a refused probe mean something: a payload that forges nothing is broken."""
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    sandbox = BwrapSandbox(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    inert = ClassProbe(3, "inert", {"canary/__init__.py": "X = 1\n"})
    escaped, observed, broken = judge(inert, sandbox, _canary(tmp_path))
    assert (escaped, broken) == (False, True), observed
    assert "undefended failed" in observed and "scan off failed" in observed
