"""Dataset rows and the bundled task pack as `SandboxTask`s. The problem branch is the row's `instance_id`
(SWE-smith rows, the task pack) or its `base_commit` (SWE-bench rows: their images have no task branches)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.log import get_logger
from swerl.sandbox.schema import SandboxTask

log = get_logger(__name__)


def is_swebench(row: dict[str, Any]) -> bool:
    return bool(row.get("version")) and "test_patch" in row and "base_commit" in row


def task_from_row(row: Any, *, repo_dir: Path | None = None, test_cmd: str | None = None) -> SandboxTask:
    """A `SandboxTask` from a `swerl.tasks.schema.TaskRow` (or a dict in the same schema)."""
    from swerl.tasks.schema import TaskRow

    if not isinstance(row, TaskRow):
        row = TaskRow.model_validate(row)
    data = row.model_dump(mode="json")
    swebench = is_swebench(data)
    if repo_dir is not None and not swebench:  # a local SWE-smith-style repo (e.g. `swerl data taskgen`)
        from swerl.sandbox.profiles import register_local_profile

        register_local_profile(row.repo)  # no-op when swesmith already knows the repo
    return SandboxTask(
        instance_id=row.instance_id,
        repo=row.repo,
        branch=str(data["base_commit"]) if swebench else row.instance_id,
        image=row.image_name or None,
        repo_dir=repo_dir,
        FAIL_TO_PASS=row.FAIL_TO_PASS,
        PASS_TO_PASS=row.PASS_TO_PASS,
        test_cmd=test_cmd,
        row=data,
    )


@functools.cache
def _materialized(root: Path) -> Any:
    from swerl.tasks.taskpack import load, materialize

    if (root / "tasks.jsonl").exists():
        try:
            return load(root)
        except Exception as exc:  # a stale or partial pack: rebuild it
            log.warning("task pack reload failed; re-materialising", root=str(root), error=str(exc))
    return materialize(root, force=True)


def taskpack_root() -> Path:
    from swerl.sandbox.images import cache_dir

    return cache_dir() / "taskpack"


def load_taskpack(root: Path | None = None) -> tuple[Any, dict[str, SandboxTask]]:
    """Materialise (once) the bundled task pack; return it with one `SandboxTask` per row. Its repositories
    join swesmith's harness registry, so grading uses swesmith's profiles and swebench's pytest parser."""
    from swerl.sandbox.profiles import register_taskpack

    pack = _materialized(Path(root) if root else taskpack_root())
    register_taskpack(pack)
    tasks = {row.instance_id: task_from_row(row, repo_dir=pack.repo_dir(row), test_cmd=pack.test_cmd(row))
             for row in pack.rows}
    return pack, tasks


def find_task(instance_id: str, root: Path | None = None) -> SandboxTask:
    """A bundled task by `instance_id` (or its unique suffix, e.g. `median_even`); errors name TASK."""
    _, tasks = load_taskpack(root)
    if instance_id in tasks:
        return tasks[instance_id]
    matches = [t for iid, t in tasks.items() if iid.endswith("." + instance_id) or iid.endswith(instance_id)]
    if len(matches) == 1:
        return matches[0]
    raise SwerlError(f"TASK {instance_id!r}: not in the bundled task pack (known: {', '.join(sorted(tasks))})")
