"""A private Docker engine (own socket, data and exec root, no iptables, no bridge) for tests, the benchmark
and `scripts/dockerd.sh`: CI machines start with nothing running, and several users share one machine."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

from swerl.log import get_logger
from swerl.sandbox.base import SandboxError

log = get_logger(__name__)


class DockerDaemon:
    """`with DockerDaemon() as d: docker.DockerClient(base_url=d.base_url)` - started and stopped by us."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="swerl-dockerd-", dir="/tmp"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def socket(self) -> Path:
        return self.root / "docker.sock"

    @property
    def base_url(self) -> str:
        return f"unix://{self.socket}"

    @property
    def log_path(self) -> Path:
        return self.root / "dockerd.log"

    def start(self, timeout: float = 90.0) -> str:
        """Start dockerd and wait until it answers a ping; raise SandboxError with the log tail if it cannot."""
        exe = shutil.which("dockerd")
        if exe is None:
            raise SandboxError("dockerd not found: install Debian's docker.io (apt-get install docker.io; scripts/setup.sh)")
        if os.geteuid() != 0:
            raise SandboxError("starting a private dockerd needs root (CI runs as root)")
        (self.root / "daemon.json").write_text("{}")
        argv = [
            exe, "--host", self.base_url,
            "--data-root", str(self.root / "data"), "--exec-root", str(self.root / "exec"),
            "--pidfile", str(self.root / "docker.pid"), "--config-file", str(self.root / "daemon.json"),
            "--iptables=false", "--ip-masq=false", "--bridge=none", "--log-level=warn",
        ]
        logf = open(self.log_path, "ab")  # noqa: SIM115 - lives as long as the daemon
        self.proc = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        logf.close()
        import docker

        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if self.socket.exists():
                try:
                    client = docker.DockerClient(base_url=self.base_url, timeout=10)
                    client.ping()
                    version = client.version().get("Version")
                    client.close()
                    log.info("dockerd started", socket=str(self.socket), version=version, pid=self.proc.pid)
                    return self.base_url
                except Exception as exc:  # not up yet
                    last = str(exc)
            time.sleep(0.2)
        tail = self.log_tail()
        self.stop()
        raise SandboxError(f"dockerd did not start within {timeout:.0f}s ({last}); log tail:\n{tail}")

    def log_tail(self, n: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        return ""

    def stop(self) -> None:
        """SIGTERM (dockerd stops its containers), then SIGKILL; unmount leftovers; remove the data."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.proc = None
        prefix = str(self.root.resolve()) + "/"
        with contextlib.suppress(OSError):
            mounts = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines()]
            for mnt in sorted((m for m in mounts if m.startswith(prefix)), key=len, reverse=True):
                subprocess.run(["umount", "-l", mnt], capture_output=True, check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> DockerDaemon:
        self.start()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
