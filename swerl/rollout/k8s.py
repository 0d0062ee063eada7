"""Kubernetes launcher: one Job per rollout attempt running `swerl rollout run-one ROLLOUT --attempt N`.

The admin token comes from a Secret mounted read-only (never argv or env); with a `kubernetes`
sandbox backend the worker needs that backend's RBAC (docs/sandbox.md) and the sandbox pod never
sees a token. Jobs are the launcher's memory: `active()` lists them from the API server, so a
restarted controller recognises the workers its predecessor started.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swerl.log import get_logger
from swerl.rollout.launchers import Finished
from swerl.sandbox.k8s_manifests import _slug, validate
from swerl.sandbox.schema import KubernetesSettings

log = get_logger(__name__)

APP = "swerl-rollout-worker"
TOKEN_DIR = "/var/run/swerl/admin"
ROLLOUT_ANNOTATION = "swerl.io/rollout-id"


class JobTemplate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image: str
    cluster: KubernetesSettings = Field(default_factory=KubernetesSettings, description=(
        "The recipe's `sandbox.kubernetes`: the worker Jobs run in its namespace with its pull policy, beside the "
        "sandbox pods they create."))
    gateway_url: str
    token_secret: str = Field("swerl-admin-token", description="Secret with key `token` = the admin token.")
    worker_args: list[str] = Field(default_factory=list, description="run-one flags: --recipe, --set, --dataset...")
    deadline_s: float = 1800.0
    grace_s: float = 300.0
    service_account: str | None = "swerl-rollout"
    cpu: str = "1"
    memory: str = "2Gi"
    ttl_seconds_after_finished: int = 600


def job_name(rollout_id: str, attempt: int) -> str:
    """`swerl-ro-<slug>-<8 hex of (id, attempt)>`: deterministic (a repeated launch is a 409), DNS-1123, <= 63."""
    digest = hashlib.sha256(f"{rollout_id}\0{attempt}".encode()).hexdigest()[:8]
    return f"swerl-ro-{_slug(rollout_id, 63 - 9 - 9)}-{digest}"


def job_manifest(tpl: JobTemplate, rollout_id: str, attempt: int) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": APP, "app.kubernetes.io/managed-by": "swerl",
              "swerl.io/rollout": _slug(rollout_id, 63), "swerl.io/attempt": str(attempt)}
    argv = ["swerl", "rollout", "run-one", rollout_id, "--attempt", str(attempt), "--gateway", tpl.gateway_url,
            "--admin-token-file", f"{TOKEN_DIR}/token", *tpl.worker_args]
    security = {"allowPrivilegeEscalation": False, "privileged": False, "readOnlyRootFilesystem": True,
                "runAsNonRoot": True, "runAsUser": 1000, "runAsGroup": 1000, "capabilities": {"drop": ["ALL"]}}
    pod: dict[str, Any] = {
        "restartPolicy": "Never",
        "enableServiceLinks": False,
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}, "runAsNonRoot": True, "runAsUser": 1000,
                            "runAsGroup": 1000, "fsGroup": 1000},
        "terminationGracePeriodSeconds": 30,
        "containers": [{
            "name": "worker", "image": tpl.image, "imagePullPolicy": tpl.cluster.image_pull_policy, "command": argv,
            "env": [{"name": "HOME", "value": "/tmp"}, {"name": "SWERL_LOG_JSON", "value": "1"},
                    {"name": "SWERL_CACHE_DIR", "value": "/tmp/swerl-cache"}],
            "securityContext": security,
            "resources": {"requests": {"cpu": tpl.cpu, "memory": tpl.memory},
                          "limits": {"cpu": tpl.cpu, "memory": tpl.memory}},
            "volumeMounts": [{"name": "admin-token", "mountPath": TOKEN_DIR, "readOnly": True},
                             {"name": "tmp", "mountPath": "/tmp"}],
        }],
        "volumes": [{"name": "admin-token", "secret": {"secretName": tpl.token_secret, "defaultMode": 0o400,
                                                        "items": [{"key": "token", "path": "token"}]}},
                    {"name": "tmp", "emptyDir": {"sizeLimit": "4Gi"}}],
    }
    if tpl.service_account:
        pod["serviceAccountName"] = tpl.service_account
    return {
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": job_name(rollout_id, attempt), "namespace": tpl.cluster.namespace, "labels": labels,
                     "annotations": {ROLLOUT_ANNOTATION: rollout_id}},
        "spec": {"backoffLimit": 0, "activeDeadlineSeconds": int(tpl.deadline_s + tpl.grace_s),
                 "ttlSecondsAfterFinished": tpl.ttl_seconds_after_finished,
                 "template": {"metadata": {"labels": labels}, "spec": pod}},
    }


def _job_finished(job: Any) -> tuple[bool, bool, str] | None:
    """(finished, ok, detail) from a Job's status conditions; None while it runs."""
    status = job.status
    for cond in (status.conditions if status and status.conditions else []):
        if cond.status == "True" and cond.type in ("Complete", "Failed"):
            return True, cond.type == "Complete", f"{cond.type}: {cond.reason or ''} {cond.message or ''}".strip()
    if status and status.succeeded:
        return True, True, "Complete"
    if status and status.failed:
        return True, False, "Failed"
    return None


class JobLauncher:
    """Launcher over Kubernetes Jobs (see the module docstring)."""

    def __init__(self, tpl: JobTemplate, api_client: Any = None) -> None:
        from kubernetes import client, config

        if api_client is None:
            try:
                config.load_incluster_config()
            except config.ConfigException:
                config.load_kube_config()
            api_client = client.ApiClient()
        self.tpl = tpl
        self.batch = client.BatchV1Api(api_client)
        self._reported: set[str] = set()

    def launch(self, rollout_id: str, attempt: int) -> None:
        from kubernetes.client import ApiException

        manifest = job_manifest(self.tpl, rollout_id, attempt)
        validate(manifest)
        try:
            self.batch.create_namespaced_job(self.tpl.cluster.namespace, manifest)
        except ApiException as exc:
            if exc.status != 409:  # 409: this very attempt was launched already (controller restart)
                raise
        log.info("worker job created", rollout=rollout_id, attempt=attempt, job=manifest["metadata"]["name"])

    def _jobs(self) -> list[Any]:
        return list(self.batch.list_namespaced_job(self.tpl.cluster.namespace,
                                                   label_selector=f"app.kubernetes.io/name={APP}").items)

    @staticmethod
    def _ident(job: Any) -> tuple[str, int]:
        meta = job.metadata
        return (meta.annotations or {}).get(ROLLOUT_ANNOTATION, ""), int((meta.labels or {}).get("swerl.io/attempt", 0))

    def active(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for job in self._jobs():
            if _job_finished(job) is None and not job.metadata.deletion_timestamp:
                rid, att = self._ident(job)
                out[rid] = max(att, out.get(rid, 0))
        return out

    def reap(self) -> list[Finished]:
        out, names = [], set()
        for job in self._jobs():
            names.add(job.metadata.name)
            fin = _job_finished(job)
            if fin is None or job.metadata.name in self._reported:
                continue
            self._reported.add(job.metadata.name)
            rid, att = self._ident(job)
            out.append(Finished(rid, att, fin[1], fin[2]))
        self._reported &= names  # forget jobs the TTL controller removed
        return out

    def cancel(self, rollout_id: str) -> None:
        from kubernetes.client import ApiException

        for job in self._jobs():
            if self._ident(job)[0] == rollout_id:
                try:
                    self.batch.delete_namespaced_job(job.metadata.name, self.tpl.cluster.namespace,
                                                     propagation_policy="Background")
                except ApiException as exc:
                    if exc.status != 404:
                        raise

    def close(self) -> None:
        """Jobs outlive the controller on purpose: a restarted controller adopts them."""
