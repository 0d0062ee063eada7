"""The exact Kubernetes objects one rollout creates: a Job, a default-deny NetworkPolicy, a shared git stub.

Pure functions (dicts in, dicts out), so the manifests can be validated with
`kubernetes-validate --strict`, printed in the docs and diffed in review; the backend only
sends them. `backoffLimit: 0`: a crashed sandbox is an infrastructure failure for the
controller to retry, never a silent second attempt.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import Any

from swerl.sandbox import hardening
from swerl.sandbox.schema import SandboxSettings, SandboxTask

K8S_VERSION = "1.30.0"
STUB_CONFIGMAP = "swerl-git-stub"
PREP_MOUNT = "/swerl-work"
MANAGED_BY = "swerl"


def _slug(text: str, n: int) -> str:
    s = re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")
    return s[:n].rstrip("-") or "x"


def job_name(task: SandboxTask, rollout_id: str) -> str:
    """`swerl-<instance slug>-<8 hex of (instance, rollout)>`: deterministic, DNS-1123, <= 63 chars."""
    digest = hashlib.sha256(f"{task.instance_id}\0{rollout_id}".encode()).hexdigest()[:8]
    return f"swerl-{_slug(task.instance_id, 63 - 6 - 9)}-{digest}"


def labels(task: SandboxTask, rollout_id: str, *, pristine: bool, run_label: str | None = None) -> dict[str, str]:
    """The Job's (and its pod's and NetworkPolicy's) labels; `swerl.io/run` (the run label) selects one run's."""
    out = {"app.kubernetes.io/name": "swerl-sandbox", "app.kubernetes.io/managed-by": MANAGED_BY,
           "swerl.io/rollout": _slug(rollout_id, 63), "swerl.io/instance": _slug(task.instance_id, 63),
           "swerl.io/role": "grade" if pristine else "agent"}
    if run_label:
        out["swerl.io/run"] = _slug(run_label, 63)
    return out


def _container_security(settings: SandboxSettings) -> dict[str, Any]:
    sc: dict[str, Any] = {"allowPrivilegeEscalation": False, "privileged": False, "readOnlyRootFilesystem": True,
                          "capabilities": {"drop": ["ALL"]}}
    if (uid := settings.kubernetes.run_as_user) is not None:
        sc.update(runAsNonRoot=True, runAsUser=uid, runAsGroup=uid)
    return sc


def _resources(settings: SandboxSettings) -> dict[str, Any]:
    mem = f"{settings.memory_mb}Mi"
    cpu = f"{int(settings.cpus * 1000)}m"
    eph = f"{settings.kubernetes.ephemeral_storage_mb}Mi"
    return {"requests": {"cpu": cpu, "memory": mem}, "limits": {"cpu": cpu, "memory": mem, "ephemeral-storage": eph}}


def prep_command(task: SandboxTask) -> list[str]:
    """Init container: copy the image's work tree into the emptyDir, check out the branch, drop bytecode."""
    return ["sh", "-c", f"set -e; cp -R {task.workdir}/. {PREP_MOUNT}/; "
            + hardening.prep_script(task.branch, PREP_MOUNT, any_owner=True)]


def job_manifest(task: SandboxTask, settings: SandboxSettings, rollout_id: str, *, pristine: bool) -> dict[str, Any]:
    k = settings.kubernetes
    name = job_name(task, rollout_id)
    lab = labels(task, rollout_id, pristine=pristine, run_label=settings.run_label)
    env = [{"name": "HOME", "value": "/tmp"}, {"name": "LANG", "value": "C.UTF-8"},
           *({"name": key, "value": v} for key, v in settings.env.items())]
    if pristine:  # the grader runs git in an emptyDir owned by root: allow it (git >= 2.31)
        env += [{"name": "GIT_CONFIG_COUNT", "value": "1"}, {"name": "GIT_CONFIG_KEY_0", "value": "safe.directory"},
                {"name": "GIT_CONFIG_VALUE_0", "value": "*"}]
    mounts = [{"name": "work", "mountPath": task.workdir}, {"name": "tmp", "mountPath": "/tmp"}]
    volumes: list[dict[str, Any]] = [{"name": "work", "emptyDir": {"sizeLimit": f"{k.ephemeral_storage_mb}Mi"}},
                                     {"name": "tmp", "emptyDir": {"sizeLimit": "1Gi"}}]
    if not pristine:
        mounts, volumes = shadow_git(mounts, volumes)
    pod_sc: dict[str, Any] = {"seccompProfile": {"type": "RuntimeDefault"}}
    if k.run_as_user is not None:
        pod_sc.update(runAsNonRoot=True, runAsUser=k.run_as_user, runAsGroup=k.run_as_user, fsGroup=k.run_as_user)
    common = {"image": task.image, "imagePullPolicy": k.image_pull_policy, "env": env,
              "securityContext": _container_security(settings), "resources": _resources(settings)}
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never", "automountServiceAccountToken": False, "enableServiceLinks": False,
        "hostNetwork": False, "hostPID": False, "hostIPC": False, "securityContext": pod_sc,
        "terminationGracePeriodSeconds": 5,
        "initContainers": [{"name": "prep", **common, "command": prep_command(task),
                            "volumeMounts": [{"name": "work", "mountPath": PREP_MOUNT},
                                             {"name": "tmp", "mountPath": "/tmp"}]}],
        "containers": [{"name": "sandbox", **common, "command": ["sleep", str(int(settings.rollout_timeout_s) + 60)],
                        "workingDir": task.workdir, "volumeMounts": mounts}],
        "volumes": volumes,
    }
    if k.service_account:
        pod_spec["serviceAccountName"] = k.service_account
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "namespace": k.namespace, "labels": lab},
            "spec": {"backoffLimit": 0, "activeDeadlineSeconds": int(settings.rollout_timeout_s),
                     "ttlSecondsAfterFinished": k.ttl_seconds_after_finished,
                     "template": {"metadata": {"labels": lab}, "spec": pod_spec}}}


def shadow_git(mounts: list[dict[str, Any]], volumes: list[dict[str, Any]]
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Git made unusable: the stub ConfigMap over /usr/bin/git, an empty read-only dir over git-core."""
    return ([*mounts, {"name": "git-core", "mountPath": hardening.GIT_CORE, "readOnly": True},
             {"name": "git-stub", "mountPath": "/usr/bin/git", "subPath": "git", "readOnly": True}],
            [*volumes, {"name": "git-core", "emptyDir": {"sizeLimit": "1Mi"}},
             {"name": "git-stub", "configMap": {"name": STUB_CONFIGMAP, "defaultMode": 0o555}}])


def grading_job(job: dict[str, Any], task: Any, *, keep_git: bool) -> dict[str, Any]:
    """The grading Job: like the agent's, but *without* the init container that checks out the branch - the
    work dir is an empty emptyDir that receives the grader's tree (no `.git`); git stubbed unless `keep_git`."""
    job = copy.deepcopy(job)
    spec = job["spec"]["template"]["spec"]
    spec.pop("initContainers", None)
    container = spec["containers"][0]
    container["env"] = [e for e in container.get("env", []) if not e["name"].startswith("GIT_CONFIG_")]
    if not keep_git:
        container["volumeMounts"], spec["volumes"] = shadow_git(container["volumeMounts"], spec["volumes"])
    return job


def network_policy_manifest(task: SandboxTask, settings: SandboxSettings, rollout_id: str, *,
                            pristine: bool) -> dict[str, Any]:
    """Default deny (ingress and egress) for this rollout's pod, plus egress to each allowed service."""
    k = settings.kubernetes
    egress: list[dict[str, Any]] = []
    for svc in k.allow_services:
        peer: dict[str, Any] = {"podSelector": {"matchLabels": dict(svc.pod_labels)}}
        if svc.namespace:
            peer["namespaceSelector"] = {"matchLabels": {"kubernetes.io/metadata.name": svc.namespace}}
        rule: dict[str, Any] = {"to": [peer]}
        if svc.ports:
            rule["ports"] = [{"protocol": "TCP", "port": p} for p in svc.ports]
        egress.append(rule)
    if k.allow_dns:
        egress.append({
            "to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                    "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}],
            "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
        })
    lab = labels(task, rollout_id, pristine=pristine, run_label=settings.run_label)
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": job_name(task, rollout_id), "namespace": k.namespace, "labels": lab},
            "spec": {"podSelector": {"matchLabels": {"swerl.io/rollout": lab["swerl.io/rollout"]}},
                     "policyTypes": ["Ingress", "Egress"], "ingress": [], "egress": egress}}


def stub_configmap_manifest(settings: SandboxSettings) -> dict[str, Any]:
    """The git stub mounted over /usr/bin/git (shared by all rollouts in the namespace)."""
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": STUB_CONFIGMAP, "namespace": settings.kubernetes.namespace,
                         "labels": {"app.kubernetes.io/managed-by": MANAGED_BY}},
            "data": {"git": hardening.GIT_STUB}}


def validate(manifest: dict[str, Any], version: str = K8S_VERSION) -> None:
    """Strict schema validation (unknown fields are errors) with kubernetes-validate."""
    import kubernetes_validate

    kubernetes_validate.validate(manifest, version, strict=True)
