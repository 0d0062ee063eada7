"""The Kubernetes Job launcher: strict manifests, and create/list/reap/cancel through the real client against kmock.

No real cluster runs here (ENVIRONMENT.md): kmock emulates the API server on loopback;
the test plays the Job controller by writing Job status conditions. The worker pod
itself (swerl in an image, creating sandbox Jobs) is not run.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from swerl.rollout.k8s import APP, TOKEN_DIR, JobLauncher, JobTemplate, job_manifest, job_name, validate
from swerl.sandbox.schema import KubernetesSettings

NS = "swerl-rl"  # not the default: the Jobs run where the recipe's sandbox.kubernetes says
TPL = JobTemplate(image="registry.local/swerl:1", cluster=KubernetesSettings(namespace=NS, image_pull_policy="Always"), gateway_url="http://swerl-gateway:8900",
                  worker_args=["--recipe", "tiny", "--set", "sandbox.backend=kubernetes"], deadline_s=900, grace_s=60)


def test_job_manifest_is_strict_valid_and_runs_run_one() -> None:
    rid = "step0-swerl-taskpack__calc.median_even:3"
    m = job_manifest(TPL, rid, 2)
    validate(m)  # kubernetes-validate --strict, schema 1.30
    name = m["metadata"]["name"]
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name) and len(name) <= 63
    assert name == job_name(rid, 2) != job_name(rid, 3)
    spec = m["spec"]
    assert spec["backoffLimit"] == 0 and spec["activeDeadlineSeconds"] == 960
    pod = spec["template"]["spec"]
    c = pod["containers"][0]
    assert c["command"][:6] == ["swerl", "rollout", "run-one", rid, "--attempt", "2"]
    assert c["command"][6:10] == ["--gateway", "http://swerl-gateway:8900", "--admin-token-file", f"{TOKEN_DIR}/token"]
    assert c["command"][10:] == TPL.worker_args
    # the admin token comes from a Secret file: never in argv or env
    assert not any("token" in (e.get("value") or "").lower() for e in c["env"])
    assert pod["volumes"][0]["secret"]["secretName"] == "swerl-admin-token"
    assert c["securityContext"]["allowPrivilegeEscalation"] is False and pod["restartPolicy"] == "Never"
    assert m["metadata"]["annotations"]["swerl.io/rollout-id"] == rid
    assert m["metadata"]["namespace"] == NS and c["imagePullPolicy"] == "Always"  # the recipe's, declared once


class KMock:
    """kmock's Kubernetes emulator on loopback, in a background event loop."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    async def _main(self) -> None:
        import kmock

        self.stop_event = asyncio.Event()
        async with kmock.KubernetesEmulator() as k, kmock.Server(k) as srv:
            k.resources["batch/v1/jobs"] = {}
            self.url = str(srv.url).rstrip("/")
            self.ready.set()
            await self.stop_event.wait()

    def api_client(self) -> Any:
        from kubernetes import client

        cfg = client.Configuration()
        cfg.host = self.url
        return client.ApiClient(cfg)


@pytest.fixture
def kmock_api() -> Iterator[Any]:
    k = KMock()
    k.thread.start()
    assert k.ready.wait(20), "kmock did not start"
    try:
        yield k.api_client()
    finally:
        k.loop.call_soon_threadsafe(k.stop_event.set)
        k.thread.join(10)


def test_launcher_creates_lists_reaps_and_cancels_jobs(kmock_api: Any) -> None:
    from kubernetes import client

    batch = client.BatchV1Api(kmock_api)
    lnch = JobLauncher(TPL, api_client=kmock_api)
    lnch.launch("r-a", 1)
    lnch.launch("r-b", 2)
    lnch.launch("r-a", 1)  # a repeated launch of the same attempt (controller restart) is not an error
    assert lnch.active() == {"r-a": 1, "r-b": 2}
    # a restarted controller's launcher sees the same workers (the Jobs are its memory)
    assert JobLauncher(TPL, api_client=kmock_api).active() == {"r-a": 1, "r-b": 2}

    jobs = {j.metadata.annotations["swerl.io/rollout-id"]: j for j in batch.list_namespaced_job(
        NS, label_selector=f"app.kubernetes.io/name={APP}").items}
    assert jobs["r-a"].spec.template.spec.containers[0].command[3] == "r-a"
    # the Job controller finishes one Job successfully and fails the other (e.g. DeadlineExceeded)
    for rid, ctype, reason in (("r-a", "Complete", None), ("r-b", "Failed", "DeadlineExceeded")):
        batch.patch_namespaced_job(jobs[rid].metadata.name, NS, {"status": {"conditions": [
            {"type": ctype, "status": "True", "reason": reason}]}})
    fins = {f.rollout_id: f for f in lnch.reap()}
    assert fins["r-a"].ok and not fins["r-b"].ok and "DeadlineExceeded" in fins["r-b"].detail
    assert lnch.reap() == [] and lnch.active() == {}  # reported once

    lnch.launch("r-c", 1)
    lnch.cancel("r-c")
    assert "r-c" not in lnch.active()
    assert all(j.metadata.annotations["swerl.io/rollout-id"] != "r-c" for j in batch.list_namespaced_job(NS).items)
