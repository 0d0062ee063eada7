"""What a run needs before the first instance: the sandbox backend, its images, and a grader per row.

docker builds the bundled pack's images locally and pulls others on first use; an image that
cannot be pulled is an infrastructure failure of that instance, not of the run.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.eval.dataset import EvalInstance
from swerl.eval.grading import Grader, OfficialDockerGrader, SandboxGrader
from swerl.eval.options import EvalOptions
from swerl.log import get_logger
from swerl.rollout.schema import HARNESS_TERMINUS

log = get_logger(__name__)

_PULL_LOCK = threading.Lock()

# SWE-bench images activate the `testbed` conda env from /root/.bashrc, which the sandbox's `bash -lc` (and a
# non-root Kubernetes pod) may never read; putting the env first on PATH gives the agent and the tests its Python.
SWEBENCH_PATH = ("/opt/miniconda3/envs/testbed/bin:/opt/miniconda3/bin:"
                 "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")


def build_sandbox(opts: EvalOptions, *, swebench_rows: bool = False) -> Any:
    """The run's backend from `opts.sandbox`, with what only the run knows filled in: bwrap's system tree
    (`--rootfs`; Terminus-2 needs tmux in it) and the testbed PATH of SWE-bench images."""
    from swerl.sandbox.base import SandboxError, load_backend

    settings, harness = opts.sandbox, opts.rollout.harness
    if harness == HARNESS_TERMINUS and settings.backend != "bwrap":
        raise SwerlError(f"--harness {HARNESS_TERMINUS}: runs on --backend bwrap only (Terminus-2 drives tmux, which "
                         f"the {settings.backend} images do not have)")
    update: dict[str, Any] = {}
    if settings.backend == "bwrap" and settings.bwrap.rootfs is None and opts.rootfs != "host":
        update["bwrap"] = settings.bwrap.model_copy(update={"rootfs": _rootfs(opts.rootfs, harness)})
    if swebench_rows and settings.backend in ("docker", "kubernetes") and not settings.env:
        update["env"] = {"PATH": SWEBENCH_PATH}
    settings = settings.model_copy(update=update)
    try:
        return load_backend(settings)
    except SandboxError as exc:
        hint = f"; {DOCKER_HINT}" if settings.backend == "docker" else ""
        raise SwerlError(f"--backend {settings.backend}: {exc}{hint}") from exc


def _rootfs(flag: str, harness: str) -> Path | None:
    """`--rootfs` as a directory: Terminus-2 gets swerl's tree plus tmux under `auto`."""
    if harness == HARNESS_TERMINUS and flag == "auto":
        from swerl.rollout.terminus import terminus_rootfs

        return terminus_rootfs()
    from swerl.sandbox.images import bwrap_settings

    return bwrap_settings(flag).rootfs


# What to do when no Docker engine answers: start one, or run the bundled tasks without Docker.
DOCKER_HINT = ("start a Docker engine (`sudo systemctl start docker`, or `sudo dockerd &` where there is no "
               "systemd; scripts/setup.sh installs docker.io but does not start it) and pass --docker-host if it "
               "is not at the default socket, or evaluate the bundled tasks without Docker: "
               "--dataset taskpack --backend bwrap")


def docker_reachable(docker_host: str | None, timeout_s: float = 3.0) -> str | None:
    """None if a Docker engine answers a ping at `docker_host` (default: DOCKER_HOST / the local socket), else why not."""
    try:
        import docker
    except ImportError:
        return "the docker package is not installed (pip install 'swerl[docker]')"
    try:
        client = docker.DockerClient(base_url=docker_host, timeout=int(timeout_s)) if docker_host \
            else docker.from_env(timeout=int(timeout_s))
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return f"no Docker engine answers at {docker_host or 'the default socket (DOCKER_HOST unset)'} ({exc})"
    return None


def pick_backend(backend: str, docker_host: str | None) -> tuple[str, str | None]:
    """`--backend auto`: docker when an engine answers, else bwrap (local repositories only). (backend, note)."""
    if backend != "auto":
        return backend, None
    why = docker_reachable(docker_host)
    if why is None:
        return "docker", None
    import shutil

    if shutil.which("bwrap") is None:
        raise SwerlError(f"--backend auto: {why}, and bubblewrap (bwrap) is not installed; {DOCKER_HINT}")
    return "bwrap", f"{why}: using --backend bwrap (local git repositories only, e.g. --dataset taskpack)"


def docker_client(sandbox: Any) -> Any:
    """The docker SDK client of a docker backend (None for bwrap, kubernetes, custom backends)."""
    return getattr(sandbox, "client", None) if getattr(sandbox, "name", "") == "docker" else None


def check_backend(sandbox: Any, instances: list[EvalInstance]) -> None:
    """bwrap runs local repositories only: say which row cannot run before anything starts."""
    if getattr(sandbox, "name", "") == "bwrap":
        missing = [i.instance_id for i in instances if i.repo_dir is None or not Path(i.repo_dir).is_dir()]
        if missing:
            raise SwerlError(f"--backend bwrap: no local git repository for {', '.join(missing[:5])}"
                             f"{' ...' if len(missing) > 5 else ''} (bwrap needs the row's repo_dir; "
                             f"use --backend docker or kubernetes for image-based rows: {DOCKER_HINT})")


def prepare_images(sandbox: Any, instances: list[EvalInstance]) -> None:
    """docker: build the bundled pack's images locally (SWE-bench- and SWE-smith-schema rows)."""
    client = docker_client(sandbox)
    if client is None:
        return
    from swerl.tasks.taskpack import OWNER

    ours = [i for i in instances if i.repo.startswith(OWNER + "/")]
    swebench = [i for i in ours if i.kind == "swebench" and i.repo_dir is not None]
    if swebench:
        from swerl.eval.taskpack import ensure_images

        ensure_images(client, [{"instance_id": i.instance_id, "repo_dir": str(i.repo_dir)} for i in swebench], Path("/"))
    if any(i.kind == "swesmith" for i in ours):
        from swerl.sandbox.images import ensure_taskpack_images
        from swerl.sandbox.tasks import load_taskpack

        ensure_taskpack_images(client, load_taskpack()[0])


def ensure_image(sandbox: Any, inst: EvalInstance, pull: bool) -> None:
    """docker: make sure the instance image is on the engine (pull it once if allowed); SandboxError if not."""
    client = docker_client(sandbox)
    image = inst.row.image_name
    if client is None or not image:
        return
    import docker

    from swerl.sandbox.base import SandboxError

    with _PULL_LOCK:
        try:
            client.images.get(image)
            return
        except docker.errors.ImageNotFound:
            if not pull:
                raise SandboxError(f"image {image} is not on the engine (and --no-pull)") from None
        except Exception as exc:
            raise SandboxError(f"docker engine: {exc}") from exc
        log.info("pulling image", image=image)
        try:
            client.images.pull(image)
        except Exception as exc:
            raise SandboxError(f"image {image} is not on the engine and cannot be pulled: {exc}") from exc


class Graders:
    """Picks the grader per row: `auto` = the official harness for SWE-bench rows on docker, else the sandbox's."""

    def __init__(self, opts: EvalOptions, sandbox: Any, run_id: str, run_dir: Path) -> None:
        self.kind = opts.grader
        is_docker = docker_client(sandbox) is not None
        if self.kind == "official" and not is_docker:
            raise SwerlError("--grader official runs swebench's harness on a docker engine: use --backend docker")
        self.sandbox_grader = SandboxGrader(sandbox, run_id, run_dir, opts.grade_timeout_s)
        self.official = (OfficialDockerGrader(sandbox.client, run_id, run_dir, opts.grade_timeout_s)
                         if is_docker and self.kind != "sandbox" else None)

    @staticmethod
    def label(opts: EvalOptions, sandbox: Any) -> str:
        """What the manifest records as the grader."""
        box = f"sandbox-{getattr(sandbox, 'name', 'custom')}"
        if docker_client(sandbox) is not None and opts.grader == "auto":
            return f"official-docker for SWE-bench rows, else {box}"
        return {"auto": box, "official": "official-docker", "sandbox": box}[opts.grader]

    def for_instance(self, inst: EvalInstance) -> Grader:
        if self.official is not None and inst.kind == "swebench":
            return self.official
        if self.kind == "official":
            raise SwerlError(f"--grader official: row {inst.instance_id!r} is a SWE-smith row (use --grader sandbox)")
        return self.sandbox_grader
