"""`swerl sandbox ...`: audit, run one task, grade a patch, reap a dead run's debris, build images. Heavy imports stay inside commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from swerl.errors import SwerlError

app = typer.Typer(help="Hardened sandboxes: red-team audit, run a task, grade a patch.", no_args_is_help=True)

BACKEND_HELP = "bwrap (default), docker, kubernetes, or an import path pkg.mod:Class."
ROOTFS_HELP = "bwrap system tree: 'auto' (the cached debootstrap base, built on first use), 'host', or a directory."


def _sandbox(backend: str, docker_host: str | None, rootfs: str, command_timeout: float | None = None) -> Any:
    from swerl.sandbox.base import SandboxError, load_backend
    from swerl.sandbox.images import bwrap_settings
    from swerl.sandbox.schema import BwrapSettings, DockerSettings, SandboxSettings

    extra: dict[str, Any] = {"command_timeout_s": command_timeout} if command_timeout else {}
    try:
        bw = bwrap_settings(rootfs) if backend == "bwrap" else BwrapSettings()
        return load_backend(SandboxSettings(backend=backend, docker=DockerSettings(base_url=docker_host), bwrap=bw,
                                            **extra))
    except SandboxError as exc:
        raise SwerlError(f"--backend {backend}: {exc}") from exc


def _task(task_id: str, tasks_file: Path | None, sandbox: Any) -> Any:
    """A bundled task (images built on demand for docker) or a row from --tasks FILE: docker uses its image, bwrap
    its `repo_dir` (relative to the file, as `swerl data taskgen` writes it)."""
    if tasks_file is None:
        from swerl.sandbox.tasks import find_task, load_taskpack

        task = find_task(task_id)
        if sandbox.name == "docker":
            from swerl.sandbox.images import ensure_taskpack_images

            ensure_taskpack_images(sandbox.client, load_taskpack()[0])
        return task
    from swerl.sandbox.tasks import task_from_row
    from swerl.tasks.schema import TaskRow

    if not tasks_file.exists():
        raise SwerlError(f"--tasks {str(tasks_file)!r}: no such file")
    for n, line in enumerate(tasks_file.read_text().splitlines(), 1):
        if line.strip():
            try:
                row = TaskRow.model_validate_json(line)
            except ValueError as exc:
                raise SwerlError(f"--tasks {str(tasks_file)!r} line {n}: not a task row: {exc}") from None
            if row.instance_id == task_id:
                raw = json.loads(line).get("repo_dir")
                repo_dir = (tasks_file.parent / raw).resolve() if raw else None
                if sandbox.name == "bwrap" and (repo_dir is None or not repo_dir.is_dir()):
                    raise SwerlError(f"--tasks {str(tasks_file)!r} line {n}: bwrap needs a local git repository in "
                                     f"field repo_dir (got {raw!r}); use --backend docker for image rows")
                return task_from_row(row, repo_dir=repo_dir)
    raise SwerlError(f"TASK {task_id!r}: not found in --tasks {str(tasks_file)!r}")


@app.command("audit")
def audit(
    backend: str = typer.Option("bwrap", "--backend", help="bwrap or docker (a real cluster is needed for kubernetes)."),
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
    rootfs: str = typer.Option("auto", "--rootfs", help=ROOTFS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run the red-team probes inside BACKEND and print probe / expected / observed / verdict. Exit 1 on any escape."""
    from swerl.sandbox.audit import render, run_audit

    if backend not in ("bwrap", "docker"):
        raise SwerlError(f"--backend {backend!r}: the audit runs on bwrap or docker")
    sandbox = _sandbox(backend, docker_host, rootfs)
    builder = None
    if backend == "docker":
        from swerl.sandbox.images import ensure_repo_image

        def builder(repo: Path) -> str:
            return ensure_repo_image(sandbox.client, repo, "swerl-audit/canary:latest", repo="swerl-audit/canary")

    report = run_audit(sandbox, image_builder=builder)
    typer.echo(json.dumps(report.model_dump(), indent=2) if as_json else render(report))
    raise typer.Exit(0 if report.ok else 1)


@app.command("run")
def run(
    task_id: str = typer.Argument(..., metavar="TASK", help="instance_id (or unique suffix) of a bundled task."),
    backend: str = typer.Option("bwrap", "--backend", help=BACKEND_HELP),
    cmd: list[str] = typer.Option([], "--cmd", help="Command to run in the sandbox (repeatable)."),
    shell: bool = typer.Option(False, "--shell", help="Interactive: read commands from stdin until EOF or 'exit'."),
    patch_out: Path | None = typer.Option(None, "--patch-out", help="Write the extracted patch here."),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="A tasks.jsonl (SWE-smith rows) instead of the pack."),
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
    rootfs: str = typer.Option("auto", "--rootfs", help=ROOTFS_HELP),
    timeout: float = typer.Option(60.0, "--timeout", help="Per-command timeout in seconds."),
) -> None:
    """Start a hardened sandbox for TASK, run commands (or a shell), print the host-side patch, stop."""
    sandbox = _sandbox(backend, docker_host, rootfs, timeout)
    task = _task(task_id, tasks_file, sandbox)
    with sandbox.session(task) as handle:
        typer.echo(f"# sandbox {handle.id} ({backend}) for {task.instance_id}; work dir {task.workdir}", err=True)
        commands = iter(cmd)
        while True:
            line = next(commands, None)
            if line is None and shell:
                try:
                    line = input("sandbox$ ")
                except EOFError:
                    line = None
            if line is None or line.strip() == "exit":
                break
            res = sandbox.exec(handle, line)
            typer.echo(res.output, nl=False)
            typer.echo(f"# rc={res.returncode}{' (timed out)' if res.timed_out else ''}", err=True)
        patch = sandbox.extract_patch(handle)
    for d in patch.dropped:
        typer.echo(f"# dropped {d.path}: {d.reason} ({d.hunks} hunk(s))", err=True)
    if patch_out:
        patch_out.write_text(patch.patch)
        typer.echo(f"# patch written to {patch_out}", err=True)
    else:
        typer.echo(patch.patch, nl=False)


@app.command("grade")
def grade(
    task_id: str = typer.Argument(..., metavar="TASK", help="instance_id (or unique suffix) of a bundled task."),
    patch: Path = typer.Option(..., "--patch", help="A unified diff (git format) to grade; '-' reads stdin."),
    backend: str = typer.Option("bwrap", "--backend", help=BACKEND_HELP),
    tasks_file: Path | None = typer.Option(None, "--tasks", help="A tasks.jsonl (SWE-smith rows) instead of the pack."),
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
    rootfs: str = typer.Option("auto", "--rootfs", help=ROOTFS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the GradeResult as JSON."),
) -> None:
    """Grade PATCH for TASK in a fresh sandbox. Exit 0 if resolved, 1 if not."""
    if str(patch) != "-" and not patch.is_file():
        raise SwerlError(f"--patch {str(patch)!r}: no such file")
    data = sys.stdin.buffer.read() if str(patch) == "-" else patch.read_bytes()
    text = data.decode("utf-8", "surrogateescape")  # a Latin-1 line applies byte for byte (`apply_patch`)
    sandbox = _sandbox(backend, docker_host, rootfs)
    task = _task(task_id, tasks_file, sandbox)
    result = sandbox.grade(task, text)
    if as_json:
        typer.echo(json.dumps(result.model_dump(exclude={"log_tail"}), indent=2))
    else:
        for test, status in result.tests.items():
            typer.echo(f"{status:8s} {test}")
        for d in result.dropped:
            typer.echo(f"dropped  {d.path}: {d.reason}")
        for reason in result.tampering:
            typer.echo(f"tamper   {reason}")
        if result.error:
            typer.echo(f"error    ({result.error_kind}) {result.error}")
        typer.echo(f"{task.instance_id}: {'RESOLVED' if result.resolved else 'UNRESOLVED'} ({result.resolution}; "
                   f"test exit {result.test_exit_code}; patch {'applied' if result.patch_applied else 'NOT applied'})")
    raise typer.Exit(0 if result.resolved else 1)


@app.command("gc")
def gc(
    run: str | None = typer.Option(None, "--run", help="Only this run label's objects (SandboxSettings.run_label)."),
    docker: bool = typer.Option(False, "--docker", help="Also docker containers, volumes and networks."),
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
) -> None:
    """Remove what sandboxes of dead processes left (host dirs; with --docker, docker objects) and list it.

    A live owner's sandboxes are never touched; a pid reused by another process does not count as the owner.
    Kubernetes Jobs end by themselves (activeDeadlineSeconds, then ttlSecondsAfterFinished)."""
    from swerl.sandbox import owners

    reaped = owners.reap_host_dirs(run_label=run)
    for path in reaped:
        typer.echo(f"removed  {path}")
    n_docker = 0
    if docker:
        from swerl.sandbox.docker import DockerSandbox
        from swerl.sandbox.schema import DockerSettings, SandboxSettings

        sb = DockerSandbox(SandboxSettings(backend="docker", docker=DockerSettings(base_url=docker_host)), reap=False)
        objects = sb.reap(run)
        for what in objects:
            typer.echo(f"removed  {what}")
        n_docker = len(objects)
    typer.echo(f"gc: {len(reaped)} host path(s)" + (f", {n_docker} docker object(s)" if docker else "") + " removed")


@app.command("build-images")
def build_images(
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
    rootfs_only: bool = typer.Option(False, "--rootfs-only", help="Only debootstrap the cached root filesystem."),
) -> None:
    """Build the debootstrap base (cached), import it, and build one image per bundled task repository."""
    from swerl.sandbox.images import ensure_base_image, ensure_rootfs, ensure_taskpack_images

    typer.echo(f"rootfs: {ensure_rootfs()}")
    if rootfs_only:
        return
    sandbox = _sandbox("docker", docker_host, "host")
    typer.echo(f"base image: {ensure_base_image(sandbox.client)}")
    from swerl.sandbox.tasks import load_taskpack

    for repo, tag in ensure_taskpack_images(sandbox.client, load_taskpack()[0]).items():
        typer.echo(f"{repo}: {tag}")
