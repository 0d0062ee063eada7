"""Kubernetes backend: one Job per rollout plus a default-deny NetworkPolicy, via the real client.

The NetworkPolicy is created *before* the Job (the pod never runs without it) and then owned
by it. exec/copy go through the pod `exec` subresource (base64 for tar streams). No real
cluster runs in CI: create/read/watch/delete are tested against the `kmock` emulator; exec is not.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import os
import shlex
import shutil
import tarfile
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from kubernetes import client, config, watch
from kubernetes.client import ApiException
from kubernetes.stream import stream

from swerl.log import get_logger
from swerl.sandbox import hardening, hostfs
from swerl.sandbox import k8s_manifests as km
from swerl.sandbox.base import (
    AgentFault,
    BackendBase,
    EngineUnavailable,
    HardeningError,
    SandboxError,
    SandboxHandle,
)
from swerl.sandbox.hostfs import CopyLimitExceeded, TreeTooDeep, extract_tar_safely, tar_stream
from swerl.sandbox.k8s_manifests import grading_job  # noqa: F401 - part of this module's API
from swerl.sandbox.schema import ExecResult, SandboxSettings

log = get_logger(__name__)


def b64_lines(chunks: Iterable[bytes], width: int = 1 << 16) -> Iterator[str]:
    """Base64 of the concatenated `chunks`, as pieces of one line (no newline until the final "\n"), encoded as
    it streams: only whole 3-byte groups are encoded before the end, so the pieces join into valid base64."""
    carry = b""
    for chunk in chunks:
        carry += chunk
        while len(carry) >= width:
            cut = width - width % 3
            yield base64.b64encode(carry[:cut]).decode()
            carry = carry[cut:]
    yield base64.b64encode(carry).decode() + "\n"


def _watch_func(func: Any) -> Any:
    """Send `watch=true` in canonical lowercase (the client sends `True`; kmock only accepts `true`)."""

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("watch"):
            kwargs["watch"] = "true"
        return func(*args, **kwargs)

    return call


class KubernetesSandbox(BackendBase):
    name = "kubernetes"

    def __init__(self, settings: SandboxSettings | None = None, api_client: Any = None) -> None:
        super().__init__(settings)
        if api_client is None:
            try:
                config.load_incluster_config()
            except config.ConfigException:
                try:
                    config.load_kube_config()
                except Exception as exc:
                    raise SandboxError(f"no Kubernetes configuration (in-cluster or kubeconfig): {exc}") from exc
            api_client = client.ApiClient()
        self.api_client = api_client
        self.core = client.CoreV1Api(api_client)
        self.batch = client.BatchV1Api(api_client)
        self.net = client.NetworkingV1Api(api_client)
        self.ns = self.settings.kubernetes.namespace

    def manifests(self, handle: SandboxHandle) -> dict[str, dict[str, Any]]:
        t, s = handle.task, self.settings
        return {
            "job": km.job_manifest(t, s, handle.id, pristine=handle.pristine),
            "network_policy": km.network_policy_manifest(t, s, handle.id, pristine=handle.pristine),
            "configmap": km.stub_configmap_manifest(s),
        }

    def _ensure_stub(self, manifest: dict[str, Any]) -> None:
        try:
            self.core.create_namespaced_config_map(self.ns, manifest)
        except ApiException as exc:
            if exc.status != 409:
                raise

    def _launch(self, handle: SandboxHandle) -> None:
        task = handle.task
        if not task.image:
            raise SandboxError(f"task {task.instance_id}: the kubernetes backend needs an image")
        m = self.manifests(handle)
        grading = handle.state.get("grade_tree") is not None
        if grading:
            m["job"] = km.grading_job(m["job"], task, keep_git=bool(handle.state.get("keep_git")))
        for manifest in m.values():
            km.validate(manifest)
        try:
            if not handle.pristine or (grading and not handle.state.get("keep_git")):
                self._ensure_stub(m["configmap"])
            self.net.create_namespaced_network_policy(self.ns, m["network_policy"])
            handle.state["network_policy"] = m["network_policy"]["metadata"]["name"]
            job = self.batch.create_namespaced_job(self.ns, m["job"])
            handle.state["job"] = job.metadata.name
            if job.metadata.uid:
                self.net.patch_namespaced_network_policy(handle.state["network_policy"], self.ns, {"metadata": {
                    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": job.metadata.name,
                                         "uid": job.metadata.uid, "blockOwnerDeletion": False}]}})
        except ApiException as exc:
            raise SandboxError(f"kubernetes API refused the sandbox objects: {exc.status} {exc.reason}") from exc
        handle.state["pod"] = self._wait_for_pod(handle)
        if grading:
            self._put_tar(handle, Path(handle.state["grade_tree"]), "", handle.task.workdir, "--no-same-owner",
                          readable=True)
        elif not handle.pristine:
            self._harden(handle)

    def put_tree_files(self, handle: SandboxHandle, tree: Path, rels: list[str]) -> None:
        with tempfile.TemporaryDirectory(prefix="swerl-put-") as tmp:
            gone = []
            for rel in rels:
                if hostfs.crosses_symlink(tree, Path(rel).parts[:-1]) or not ((tree / rel).is_symlink() or
                                                                         (tree / rel).is_file()):
                    gone.append(rel)
                    continue
                (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
                if (tree / rel).is_symlink():  # as a link, never followed on the host
                    os.symlink(os.readlink(tree / rel), Path(tmp) / rel)
                else:
                    shutil.copyfile(tree / rel, Path(tmp) / rel)
            if gone:
                res = self._exec(handle, ["rm", "-f", "--", *gone], 60, handle.task.workdir)
                if res.returncode != 0:
                    raise SandboxError(f"removing files from {handle.id}'s tree failed: {res.output[-300:]}")
            if len(rels) > len(gone):
                self._put_tar(handle, Path(tmp), "", handle.task.workdir, "--no-same-owner", readable=True)

    def _put_tar(self, handle: SandboxHandle, src: Path, arcname: str, dest_dir: str, opts: str = "",
                 readable: bool = False) -> None:
        """The host path `src` (as `arcname`; "" = a directory's contents) into `dest_dir`: a tar streamed as one
        base64 line over the exec subresource (`head -n 1` ends the input: exec stdin cannot be closed).
        `readable`: a grading tree, every member readable by the command user whatever the host's umask."""
        wd = shlex.quote(dest_dir)
        stream = b64_lines(tar_stream(src, arcname, max_depth=self.settings.limits.max_depth,
                                      filter=hostfs.readable_member if readable else None))
        res = self._exec(handle, ["sh", "-c", f"mkdir -p {wd} && head -n 1 | base64 -d | tar -C {wd} -xf - {opts}"],
                         600, "/", stdin=stream)
        if res.returncode != 0:
            raise SandboxError(f"copy into {handle.id}:{dest_dir} failed: {res.output[-300:]}")

    def _wait_for_pod(self, handle: SandboxHandle) -> str:
        """Watch the Job's pods until one runs; a failed init container (missing branch) is a HardeningError."""
        job = handle.state["job"]
        deadline = time.monotonic() + self.settings.kubernetes.start_timeout_s
        lister = _watch_func(self.core.list_namespaced_pod)
        while time.monotonic() < deadline:
            w = watch.Watch()
            remaining = max(1, int(deadline - time.monotonic()))
            for event in w.stream(lister, self.ns, label_selector=f"job-name={job}", timeout_seconds=remaining):
                pod = event["object"]
                labels = (pod.metadata.labels or {}) if pod.metadata else {}
                if labels.get("job-name") != job and labels.get("batch.kubernetes.io/job-name") != job:
                    continue  # never trust the server-side selector alone
                phase = pod.status.phase if pod.status else None
                if phase == "Running":
                    w.stop()
                    return str(pod.metadata.name)
                if phase in ("Failed", "Succeeded"):
                    w.stop()
                    raise HardeningError(f"sandbox pod {pod.metadata.name} ended ({phase}) before the agent started: "
                                         "the problem branch may be missing from the image")
        raise SandboxError(f"no running pod for job {job} within {self.settings.kubernetes.start_timeout_s:.0f}s")

    def _harden(self, handle: SandboxHandle) -> None:
        wd = shlex.quote(handle.task.workdir)
        tar = self._exec(handle, ["sh", "-c", f"tar -C {wd} -cf - .git 2>/dev/null | base64"], 600, "/", capture_all=True)
        if tar.returncode != 0:
            raise HardeningError(f"copying .git out of {handle.id} failed: {tar.output[-300:]}")
        extract_tar_safely(io.BytesIO(base64.b64decode(tar.output)), handle.host_dir / "git",
                           limit_bytes=self.settings.copy_limit_bytes, max_depth=1 << 16)
        handle.git_dir = handle.host_dir / "git" / ".git"
        rm = self._exec(handle, ["sh", "-c", hardening.remove_git_script(handle.task.workdir)], 120, "/")
        if "SWERL_GIT_REMOVED" not in rm.output:
            raise HardeningError(f"removing .git in {handle.id} failed: {rm.output[-300:]}")

    def _exec(self, handle: SandboxHandle, argv: list[str], timeout: float, cwd: str, *,
              stdin: Iterable[str] | None = None, capture_all: bool = False) -> ExecResult:
        secs = max(1, int(timeout + 0.999))
        cmd = ["timeout", "-k", "2", str(secs), "sh", "-c", 'cd "$1" && shift && exec "$@" 2>&1', "sh", cwd, *argv]
        t0 = time.monotonic()
        try:
            resp = stream(self.core.connect_get_namespaced_pod_exec, handle.state["pod"], self.ns, container="sandbox",
                          command=cmd, stderr=True, stdout=True, stdin=stdin is not None, tty=False,
                          _preload_content=False)
        except Exception as exc:
            raise EngineUnavailable(f"kubernetes exec in {handle.id} failed: {exc}") from exc
        limit = self.settings.copy_limit_bytes if capture_all else self.settings.output_limit_bytes
        out: list[str] = []
        kept, truncated = 0, False
        if stdin is not None:
            for piece in stdin:  # streamed: the tar is never held whole in memory
                resp.write_stdin(piece)
        deadline = t0 + secs + 5
        while resp.is_open() and time.monotonic() < deadline:
            resp.update(timeout=1)
            for chunk in (resp.read_stdout() if resp.peek_stdout() else "",
                          resp.read_stderr() if resp.peek_stderr() else ""):
                if chunk and kept < limit:
                    out.append(chunk[: limit - kept])
                    kept += len(out[-1])
                truncated = truncated or (bool(chunk) and kept >= limit)
        timed_out = resp.is_open()
        with contextlib.suppress(Exception):
            resp.close()
        rc = resp.returncode if not timed_out else -9
        duration = time.monotonic() - t0
        timed_out = timed_out or (rc in (124, 137) and duration >= secs - 0.05)
        return ExecResult(output="".join(out), returncode=-9 if timed_out or rc is None else int(rc),
                          timed_out=timed_out, truncated=truncated, duration_s=duration)

    def copy_in(self, handle: SandboxHandle, src: Path, dest: str) -> None:
        self._put_tar(handle, Path(src), Path(dest).name, str(Path(dest).parent))

    def copy_out(self, handle: SandboxHandle, src: str, dest: Path) -> None:
        """Read back at most the copy limit; an exec the API server does not answer is infrastructure, anything
        the agent's tree does to tar (unreadable files, size, depth, names) is the agent's."""
        res = self._exec(handle, ["sh", "-c", f"tar -C {shlex.quote(src)} -cf - . 2>/dev/null | base64"], 600, "/", capture_all=True)
        if res.truncated:
            raise AgentFault(f"sandbox {handle.id}: {src} is larger than the copy limit ({self.settings.copy_limit_bytes} bytes)")
        if res.returncode != 0:
            raise AgentFault(f"sandbox {handle.id}: {src} cannot be archived (rc={res.returncode}): {res.output[-300:]}")
        try:
            extract_tar_safely(io.BytesIO(base64.b64decode(res.output)), dest, limit_bytes=self.settings.copy_limit_bytes,
                               max_depth=self.settings.limits.max_depth)
        except TreeTooDeep as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is deeper than {self.settings.limits.max_depth} levels "
                             "(limits.max_depth)") from exc
        except CopyLimitExceeded as exc:
            raise AgentFault(f"sandbox {handle.id}: {src} is larger than the copy limit") from exc
        except (tarfile.TarError, ValueError, UnicodeError) as exc:  # the agent's tree, archived inside the pod
            raise AgentFault(f"sandbox {handle.id}: {src} cannot be archived: {exc}") from exc

    def _teardown(self, handle: SandboxHandle) -> None:
        if handle.state.get("job"):
            with contextlib.suppress(ApiException):
                self.batch.delete_namespaced_job(handle.state["job"], self.ns, propagation_policy="Background")
        if handle.state.get("network_policy"):
            with contextlib.suppress(ApiException):
                self.net.delete_namespaced_network_policy(handle.state["network_policy"], self.ns)

