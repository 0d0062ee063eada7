"""Everything a rollout worker needs, built once from a recipe and CLI flags (shared by `swerl rollout` and
`swerl data probe`), and the flags themselves, so a controller can start workers with exactly its own setup.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swerl.rollout.schema import HARNESS_TERMINUS, RolloutSettings


class WorkerOptions(BaseModel):
    """The flags that define a worker's setup; `argv()` renders them back for `swerl rollout run-one`."""

    model_config = ConfigDict(extra="forbid")

    recipe: str = "tiny"
    # the `--set key=value` items applied to `recipe` (edits of its fields, not a field): the recipe stays the one
    # place of every setting, and a launched worker gets the same items back from `argv()`
    overrides: list[str] = Field(default_factory=list)
    repos: Path | None = None
    # `--rootfs auto|host|DIR`: how this host finds bwrap's system tree when the recipe's `sandbox.bwrap.rootfs` is
    # unset (auto builds or reuses the cached debootstrap tree, host mounts /usr); not a copy of that field, which
    # is a directory and, when set, is used as it is (as by `swerl eval swebench`)
    rootfs: str = "auto"
    trajectories: Path | None = None

    def argv(self) -> list[str]:
        out = ["--recipe", self.recipe, "--rootfs", self.rootfs]
        for o in self.overrides:
            out += ["--set", o]
        for flag, value in (("--repos", self.repos), ("--trajectories", self.trajectories)):
            if value is not None:
                out += [flag, str(value)]
        return out


class WorkerContext:
    """Recipe, rollout settings, the sandbox backend and the task source, each built on first use."""

    def __init__(self, opts: WorkerOptions, **settings_overrides: Any) -> None:
        from swerl.config import load_recipe

        self.opts = opts
        self.recipe = load_recipe(opts.recipe, opts.overrides)
        extra = {"trajectories_dir": opts.trajectories} if opts.trajectories else {}
        self.settings = RolloutSettings.from_recipe(self.recipe, **extra, **settings_overrides)

    @functools.cached_property
    def sandbox(self) -> Any:
        from swerl.rollout.runner import load_sandbox
        from swerl.sandbox.base import SandboxError

        rootfs = self.opts.rootfs
        if self.recipe.sandbox.bwrap.rootfs is not None:
            rootfs = "host"  # load_sandbox then keeps the recipe's bwrap section as it is, its tree included
        elif rootfs == "auto" and self.settings.rollout.harness == HARNESS_TERMINUS and self.recipe.sandbox.backend == "bwrap":
            from swerl.rollout.terminus import terminus_rootfs

            rootfs = str(terminus_rootfs())  # Terminus-2 drives a tmux session inside the sandbox
        try:
            return load_sandbox(self.recipe.sandbox, rootfs)
        except SandboxError as exc:
            from swerl.errors import SwerlError

            raise SwerlError(f"sandbox.backend {self.recipe.sandbox.backend}: {exc}") from exc

    @functools.cached_property
    def tasks(self) -> Any:
        from swerl.rollout.tasks import TaskSource

        return TaskSource(self.recipe.data.dataset, self.recipe.data.split, self.opts.repos)

    def prepare_images(self) -> None:
        """Docker: build the task pack's images on first use (bwrap needs none)."""
        sb = self.sandbox
        if getattr(sb, "name", "") == "docker" and self.recipe.data.dataset == "taskpack":
            from swerl.sandbox.images import ensure_taskpack_images
            from swerl.sandbox.tasks import load_taskpack

            ensure_taskpack_images(sb.client, load_taskpack()[0])
