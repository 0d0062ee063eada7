"""Kubernetes manifests (strict schema validation) and the backend's create/watch/delete path against kmock.

No real cluster runs here: kmock emulates the API server on a loopback port, and the
real `kubernetes` client talks to it. A small "kubelet" thread plays the Job controller
by creating the pod. Exec needs a kubelet and is not covered.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from swerl.sandbox import k8s_manifests as km
from swerl.sandbox.base import HardeningError, SandboxError
from swerl.sandbox.schema import SANDBOX_UID, AllowedService, KubernetesSettings, SandboxSettings, SandboxTask

NS = "swerl"
TASK = SandboxTask(instance_id="swerl-taskpack__calc.median_even", repo="swerl-taskpack/calc",
                   branch="swerl-taskpack__calc.median_even", image="swerl-taskpack/calc:latest",
                   FAIL_TO_PASS=["tests/test_stats.py::test_median_even"])
SETTINGS = SandboxSettings(rollout_timeout_s=900, kubernetes=KubernetesSettings(
    namespace=NS, start_timeout_s=15,
    allow_services=[AllowedService(name="gateway", pod_labels={"app": "swerl-gateway"}, ports=[8000])]))


class KMock:
    """kmock's KubernetesEmulator on 127.0.0.1 in a background event loop."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    async def _main(self) -> None:
        import kmock

        self.stop_event = asyncio.Event()
        async with kmock.KubernetesEmulator() as k, kmock.Server(k) as srv:
            for res in ("v1/pods", "v1/configmaps", "batch/v1/jobs", "networking.k8s.io/v1/networkpolicies"):
                k.resources[res] = {}
            self.handler, self.url = k, str(srv.url).rstrip("/")
            self.ready.set()
            await self.stop_event.wait()

    def __enter__(self) -> KMock:
        self.thread.start()
        assert self.ready.wait(20), "kmock did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(10)

    def api_client(self) -> Any:
        from kubernetes import client

        cfg = client.Configuration()
        cfg.host = self.url
        return client.ApiClient(cfg)


@pytest.fixture
def kmock_server() -> Iterator[KMock]:
    with KMock() as k:
        yield k


def _kubelet(api_client: Any, phase: str, decoy: bool = False) -> threading.Thread:
    """Plays the Job controller + kubelet: when our Job appears, create its pod in `phase`."""
    from kubernetes import client

    core, batch = client.CoreV1Api(api_client), client.BatchV1Api(api_client)

    def run() -> None:
        for _ in range(200):
            jobs = batch.list_namespaced_job(NS).items
            if jobs:
                name = jobs[0].metadata.name
                if decoy:  # a running pod of another job must not be taken for ours
                    core.create_namespaced_pod(NS, {"apiVersion": "v1", "kind": "Pod", "metadata": {
                        "name": "other-pod", "namespace": NS, "labels": {"job-name": "someone-else"}},
                        "spec": {"containers": [{"name": "c", "image": "x"}]}, "status": {"phase": "Running"}})
                    time.sleep(0.3)
                core.create_namespaced_pod(NS, {"apiVersion": "v1", "kind": "Pod", "metadata": {
                    "name": f"{name}-abcde", "namespace": NS, "labels": {"job-name": name}},
                    "spec": {"containers": [{"name": "sandbox", "image": TASK.image}]}, "status": {"phase": phase}})
                return
            time.sleep(0.05)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("pristine", [False, True])
def test_manifests_pass_strict_validation_and_carry_the_hardening(pristine: bool) -> None:
    job = km.job_manifest(TASK, SETTINGS, "rollout-1", pristine=pristine)
    pol = km.network_policy_manifest(TASK, SETTINGS, "rollout-1", pristine=pristine)
    for manifest in (job, pol, km.stub_configmap_manifest(SETTINGS)):
        km.validate(manifest)
    name = job["metadata"]["name"]
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name) and len(name) <= 63
    assert name == km.job_name(TASK, "rollout-1") != km.job_name(TASK, "rollout-2")
    spec = job["spec"]
    assert spec["backoffLimit"] == 0 and spec["activeDeadlineSeconds"] == 900 and spec["ttlSecondsAfterFinished"] == 300
    pod = spec["template"]["spec"]
    assert pod["restartPolicy"] == "Never" and pod["automountServiceAccountToken"] is False
    assert pod["enableServiceLinks"] is False and pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    # the dedicated uid every backend uses, not a common account's
    assert pod["securityContext"]["runAsUser"] == pod["securityContext"]["fsGroup"] == SANDBOX_UID
    for c in pod["containers"] + pod["initContainers"]:
        sc = c["securityContext"]
        assert sc["allowPrivilegeEscalation"] is False and sc["capabilities"] == {"drop": ["ALL"]}
        assert sc["readOnlyRootFilesystem"] is True and sc["runAsNonRoot"] is True
    mounts = {m["mountPath"] for m in pod["containers"][0]["volumeMounts"]}
    assert ("/usr/bin/git" in mounts) is (not pristine)  # the git stub only for the agent
    assert TASK.branch in " ".join(pod["initContainers"][0]["command"])
    # default deny: the rollout's pod, no ingress, egress only to the gateway
    assert pol["spec"]["podSelector"]["matchLabels"] == {"swerl.io/rollout": "rollout-1"}
    assert pod["securityContext"] and spec["template"]["metadata"]["labels"]["swerl.io/rollout"] == "rollout-1"
    assert pol["spec"]["policyTypes"] == ["Ingress", "Egress"] and pol["spec"]["ingress"] == []
    assert pol["spec"]["egress"] == [{"to": [{"podSelector": {"matchLabels": {"app": "swerl-gateway"}}}],
                                      "ports": [{"protocol": "TCP", "port": 8000}]}]


def test_strict_validation_rejects_unknown_fields() -> None:
    from kubernetes_validate import ValidationError

    job = km.job_manifest(TASK, SETTINGS, "r", pristine=False)
    job["spec"]["template"]["spec"]["containers"][0]["securityContext"]["privilegedd"] = False
    with pytest.raises(ValidationError):
        km.validate(job)


def test_no_egress_at_all_without_allowed_services() -> None:
    pol = km.network_policy_manifest(TASK, SandboxSettings(), "r", pristine=False)
    km.validate(pol)
    assert pol["spec"]["egress"] == [] and "Egress" in pol["spec"]["policyTypes"]


def test_round_trip_through_kmock(kmock_server: KMock) -> None:
    from kubernetes import client
    from kubernetes.client import ApiException

    from swerl.sandbox.kubernetes import KubernetesSandbox

    api = kmock_server.api_client()
    sb = KubernetesSandbox(SETTINGS, api_client=api)
    kubelet = _kubelet(kmock_server.api_client(), "Running", decoy=True)
    handle = sb.start_pristine(TASK)
    kubelet.join(5)
    try:
        batch, net = client.BatchV1Api(api), client.NetworkingV1Api(api)
        assert handle.state["pod"] == f"{handle.state['job']}-abcde"
        stored_job = api.sanitize_for_serialization(batch.read_namespaced_job(handle.state["job"], NS))
        expected = sb.manifests(handle)["job"]
        assert stored_job["spec"] == expected["spec"] and stored_job["metadata"]["labels"] == expected["metadata"]["labels"]
        km.validate({k: v for k, v in stored_job.items() if k != "status"})
        stored_pol = api.sanitize_for_serialization(net.read_namespaced_network_policy(handle.state["network_policy"], NS))
        assert stored_pol["spec"] == sb.manifests(handle)["network_policy"]["spec"]
        # the default-deny policy exists before the Job (and so before any pod)
        creates = [r.resource.plural for r in kmock_server.handler if r.action is not None and r.action.name == "CREATE"]
        assert creates.index("networkpolicies") < creates.index("jobs")
    finally:
        sb.stop(handle)
    with pytest.raises(ApiException) as exc:
        client.BatchV1Api(api).read_namespaced_job(handle.state["job"], NS)
    assert exc.value.status == 404
    with pytest.raises(ApiException):
        client.NetworkingV1Api(api).read_namespaced_network_policy(handle.state["network_policy"], NS)


def test_failed_prep_pod_is_a_hardening_error_and_cleans_up(kmock_server: KMock) -> None:
    from kubernetes import client

    from swerl.sandbox.kubernetes import KubernetesSandbox

    api = kmock_server.api_client()
    sb = KubernetesSandbox(SETTINGS, api_client=api)
    _kubelet(kmock_server.api_client(), "Failed")
    with pytest.raises(HardeningError, match="branch"):
        sb.start_pristine(TASK)
    assert client.BatchV1Api(api).list_namespaced_job(NS).items == []
    assert client.NetworkingV1Api(api).list_namespaced_network_policy(NS).items == []


def test_hardened_start_needs_exec_and_never_leaks_objects(kmock_server: KMock) -> None:
    """kmock has no exec subresource: the hardened start must fail as infrastructure and delete what it made."""
    from kubernetes import client

    from swerl.sandbox.kubernetes import KubernetesSandbox

    api = kmock_server.api_client()
    sb = KubernetesSandbox(SETTINGS, api_client=api)
    _kubelet(kmock_server.api_client(), "Running")
    with pytest.raises(SandboxError):
        sb.start(TASK)
    assert client.BatchV1Api(api).list_namespaced_job(NS).items == []
    assert client.CoreV1Api(api).read_namespaced_config_map(km.STUB_CONFIGMAP, NS).data["git"].startswith("#!/bin/sh")
