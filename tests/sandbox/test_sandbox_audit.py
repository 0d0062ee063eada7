"""The red-team audit passes on bwrap and docker, and flags escapes on a deliberately leaky sandbox."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.audit import render, run_audit
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
    assert names >= SPEC_PROBES
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
