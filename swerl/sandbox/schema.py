"""Pydantic models of the sandbox room: settings, the task a sandbox runs, and every result it returns."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

WORKDIR = "/testbed"
# Commands run as this uid (and gid) by default: far above every range distributions hand out to accounts (and
# above the usual subuid ranges), so the sandbox never shares a uid with a host user. Backends refuse a uid/gid
# that the host's passwd/group databases know.
SANDBOX_UID = 2_000_000_000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DockerSettings(_Model):
    """Docker backend knobs. Defaults are the hardened ones; loosen only with a reason."""

    base_url: str | None = Field(None, description="Engine URL (unix:///...); None = DOCKER_HOST or the default socket.")
    read_only_root: bool = Field(True, description="Read-only image root; /testbed, /tmp and $HOME stay writable.")
    tmpfs_size_mb: int = Field(512, gt=0)
    user: str = Field(f"{SANDBOX_UID}:{SANDBOX_UID}",
                      description="uid:gid every command runs as (PID 1 stays root with no capabilities, so commands "
                                  "cannot kill it); refused when the host knows the uid or gid (a host account); "
                                  "'root' only for images that need it.")
    start_timeout_s: float = Field(120.0, gt=0)


class BwrapSettings(_Model):
    """bubblewrap backend knobs: which system tree is mounted read-only and where work trees live."""

    executable: str = "bwrap"
    rootfs: Path | None = Field(None, description="A root filesystem directory (e.g. the debootstrap base); None = host /usr.")
    persistent: bool = Field(True, description="One bwrap + exec server per sandbox (fast); False: a bwrap per command.")
    uid: int = Field(SANDBOX_UID, gt=0, lt=4294967295,
                     description="Non-root uid (and gid) that commands run as when swerl runs as root (otherwise they "
                                 "run as the caller's own uid); refused when the host knows it (a host account).")
    pids_limiter: Literal["auto", "cgroup", "rlimit", "off"] = Field(
        "auto", description="How `pids_limit` is enforced: a pids cgroup (v1 or v2, when writable), else "
                            "RLIMIT_NPROC via prlimit ('auto'); 'cgroup' fails when no cgroup is writable.")
    disk_quota: bool = Field(True, description="As root: the work tree, /tmp and $HOME live on a tmpfs of "
                                               "`disk_mb` mounted on the host (ENOSPC inside past it).")
    seccomp: bool = Field(True, description="A seccomp filter: no process in the sandbox can ptrace another or "
                                            "read/write its memory (process_vm_readv/writev).")


class AllowedService(_Model):
    """A service the sandbox may reach on Kubernetes (the gateway): selected by pod labels and ports."""

    name: str
    pod_labels: dict[str, str]
    namespace: str | None = Field(None, description="None = the sandbox's namespace.")
    ports: list[int] = Field(default_factory=list)


class KubernetesSettings(_Model):
    namespace: str = "swerl"
    run_as_user: int | None = Field(SANDBOX_UID, gt=0,
                                    description="Non-root uid (and gid, fsGroup) of the pod: the dedicated uid the other "
                                                "backends use, which no node account has; None keeps the image's user.")
    ttl_seconds_after_finished: int = Field(300, ge=0)
    allow_services: list[AllowedService] = Field(default_factory=list)
    allow_dns: bool = Field(False, description="Also allow kube-dns (port 53); off: DNS is an exfiltration channel.")
    image_pull_policy: Literal["Always", "IfNotPresent", "Never"] = "IfNotPresent"
    service_account: str | None = None
    ephemeral_storage_mb: int = Field(4096, gt=0)
    start_timeout_s: float = Field(300.0, gt=0)


class TreeLimits(_Model):
    """Bounds on trees the host builds from agent-produced data: work trees copied out of a sandbox and the
    grading tree a patch produces. Past a bound the agent gets `AgentFault` / `PatchRejected` (reward 0)."""

    max_depth: int = Field(100, gt=0, description="Deepest entry (path components) in a copied-out or patched tree.")
    max_files: int = Field(250_000, gt=0, description="Entries (files, dirs, links) in a patched grading tree.")
    max_bytes: int = Field(1 << 30, gt=0, description="Bytes of regular files in a patched grading tree.")
    max_patch_bytes: int = Field(32 << 20, gt=0, description="Size of a patch text the grader accepts.")
    max_patch_files: int = Field(5000, gt=0, description="Files one patch may name (counted from its headers before "
                                 "applying: GNU patch writes each one before a later hunk fails).")
    max_apply_cpu_s: int = Field(10, gt=0, description="CPU seconds `git apply` or GNU `patch --fuzz` may spend on one "
                                 "patch (a real one needs milliseconds; crafted hunks make the fuzz search quadratic).")
    max_expanded_bytes: int = Field(
        64 << 20, gt=0, description="What a patch may make the host write beyond its own text, measured from the "
                                    "text before applying: inflated `GIT binary patch` literals/deltas + copies.")


class SandboxSettings(_Model):
    """Everything a backend needs; also the recipe's `sandbox:` section itself (swerl.config composes it)."""

    backend: str = Field("bwrap", description="bwrap | docker | kubernetes | an import path 'pkg.mod:Class'.")
    command_timeout_s: float = Field(60.0, gt=0)
    rollout_timeout_s: float = Field(1800.0, gt=0)
    memory_mb: int = Field(2048, gt=0)
    cpus: float = Field(1.0, gt=0, description="Cores' worth of CPU time: a quota on docker and Kubernetes, a cpu "
                                              "cgroup quota on bwrap (else pinned to ceil(cpus) cores).")
    pids_limit: int = Field(512, gt=0)
    network_allow: list[str] = Field(default_factory=list, description="Docker: containers joined to an internal "
                                     "network with the sandbox; empty = network none.")
    output_limit_bytes: int = Field(2_000_000, gt=0, description="Per-command output cap (the rest is dropped).")
    copy_limit_bytes: int = Field(512_000_000, gt=0, description="Cap on a work tree copied out of a sandbox.")
    disk_mb: int = Field(4096, gt=0, description="Per-sandbox disk allowance for the work tree, /tmp and $HOME: "
                                                 "enforced on bwrap as root (size-limited tmpfs); everywhere the "
                                                 "bar above which a full host disk is blamed on the sandbox.")
    limits: TreeLimits = Field(default_factory=TreeLimits)
    blind_run: bool = Field(True, description="Run a resolved grade's tests once more with their expected values "
                            "changed (docs/sandbox.md, the blind run): an assert that still holds answered from the "
                            "tests' own data; then its required tests a third time under other conditions (the "
                            "conditions run): a fix that holds only under the grading run's fails. For resolved "
                            "grades only.")
    interpreter: list[str] = Field(default_factory=lambda: ["bash", "-lc"])
    env: dict[str, str] = Field(default_factory=dict, description="Extra environment for every command (never secrets).")
    run_label: str | None = Field(None, max_length=63, pattern=r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$",
                                  description="Label on every sandbox of the run (host dirs, containers, Jobs: a valid "
                                  "Kubernetes label value); unset: `swerl train` derives it from the run dir "
                                  "(owners.run_label) and `--resume` reaps what a dead incarnation left under it; "
                                  "`swerl sandbox gc --run LABEL` reaps only that run's debris.")
    docker: DockerSettings = Field(default_factory=DockerSettings)
    bwrap: BwrapSettings = Field(default_factory=BwrapSettings)
    kubernetes: KubernetesSettings = Field(default_factory=KubernetesSettings)

    @classmethod
    def from_recipe(cls, section: Any, **overrides: Any) -> SandboxSettings:
        """The recipe's section (this model) or a mapping of its keys, with `overrides` applied and validated."""
        data = section.model_dump() if isinstance(section, BaseModel) else dict(section)
        return cls.model_validate({**data, **overrides})


class SandboxTask(_Model):
    """One task as a sandbox sees it. `image`: docker/kubernetes; `repo_dir` (a host git repository, like a
    SWE-smith mirror): bwrap; `row`: the dataset row, for the harness profiles and parsers used in grading."""

    instance_id: str = Field(min_length=1)
    repo: str
    branch: str = Field(min_length=1, description="Problem branch, checked out before the agent starts.")
    image: str | None = None
    repo_dir: Path | None = None
    workdir: str = WORKDIR
    FAIL_TO_PASS: list[str] = Field(default_factory=list)
    PASS_TO_PASS: list[str] = Field(default_factory=list)
    test_cmd: str | None = Field(None, description="Overrides the profile's test command when set.")
    row: dict[str, Any] = Field(default_factory=dict)


class ExecResult(_Model):
    """Output (stdout+stderr interleaved) and return code of one command; `timed_out` marks a kill."""

    output: str
    returncode: int
    timed_out: bool = False
    truncated: bool = False
    duration_s: float = 0.0


class DroppedFile(_Model):
    """A file whose changes were removed from a patch because they could forge test results."""

    path: str
    reason: str
    hunks: int


class PatchResult(_Model):
    patch: str
    files: list[str] = Field(default_factory=list, description="Files the kept patch touches.")
    dropped: list[DroppedFile] = Field(default_factory=list)
    removed_git_dirs: list[str] = Field(default_factory=list, description="`.git` entries the agent created (ignored).")
    ignored_bytecode: int = Field(0, description="__pycache__/*.pyc files left out (test runs write them).")


class TestBucket(_Model):
    success: list[str] = Field(default_factory=list)
    failure: list[str] = Field(default_factory=list)


class GradeResult(_Model):
    """Outcome of running FAIL_TO_PASS/PASS_TO_PASS in a fresh sandbox with the patch applied."""

    instance_id: str
    resolved: bool
    resolution: str = Field(description="swebench ResolvedStatus: RESOLVED_FULL / RESOLVED_PARTIAL / RESOLVED_NO.")
    patch_applied: bool
    tests: dict[str, str] = Field(default_factory=dict, description="Graded test id -> status; MISSING = did not run.")
    fail_to_pass: TestBucket = Field(default_factory=TestBucket)
    pass_to_pass: TestBucket = Field(default_factory=TestBucket)
    test_exit_code: int | None = None
    timed_out: bool = False
    dropped: list[DroppedFile] = Field(default_factory=list)
    parser: str = Field("", description="Which harness produced the status map (swesmith profile / swebench parser).")
    duration_s: float = 0.0
    log_tail: str = ""
    tampering: list[str] = Field(default_factory=list,
                                 description="Why the grade is refused as tampering (non-empty => resolved is False).")
    error: str | None = Field(None, description="One line: why grading could not produce a verdict.")
    error_kind: Literal["agent", "infra"] | None = Field(
        None, description="Who is to blame when grading could not produce a verdict: the agent's patch/tree, or "
                          "the infrastructure (grading sandbox, engine).")
    patch_files: list[str] = Field(default_factory=list, description="Every file header the submitted diff names.")
    changed: list[str] = Field(default_factory=list, description="Files the applied patch really changed (tree diff).")
    hidden_tests: list[str] = Field(default_factory=list,
                                    description="Test files restored from the parent commit (SWE-smith hidden tests).")
    report: str = Field("", description="Structured report the verdict used: junit / text.")
    notes: list[str] = Field(default_factory=list, description="What the launcher says of its own defences (e.g. "
                             "whether the kernel sealed the test files).")
    blind: str = Field("", description="The blind run of a resolved grade (expected values changed): 'clean (N "
                       "asserts)', 'read' (tampering), 'none' (no expected value to change), 'ended early (agent|"
                       "infra)' (no signed record: unresolved), or '' when it did not run.")


class AuditProbe(_Model):
    """One red-team probe. `escaped`: the hardening failed. `broken`: the probe or a control could not
    show anything (servers down, honest work not graded resolved) - also a failed audit."""

    name: str
    expected: str
    observed: str
    escaped: bool
    broken: bool = False

    @property
    def verdict(self) -> str:
        return "ESCAPE" if self.escaped else ("BROKEN" if self.broken else "ok")


class AuditReport(_Model):
    backend: str
    probes: list[AuditProbe]

    @property
    def escaped(self) -> list[AuditProbe]:
        return [p for p in self.probes if p.escaped]

    @property
    def broken(self) -> list[AuditProbe]:
        return [p for p in self.probes if p.broken]

    @property
    def ok(self) -> bool:
        return not self.escaped and not self.broken
