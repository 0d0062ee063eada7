"""Where rollouts get their tasks: the bundled task pack or SWE-smith rows, by `instance_id`.

A declared rollout carries only `metadata.instance_id`; every worker resolves it the same way
from the same source, so the task is never shipped through the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.sandbox.schema import SandboxTask
from swerl.tasks.schema import TaskRow

TASKPACK = "taskpack"
log = get_logger(__name__)


def as_sandbox_task(task: TaskRow | SandboxTask | dict[str, Any], repos: Path | None = None) -> SandboxTask:
    """A sandbox task from a row: task-pack rows get their local repo (bwrap) and test command."""
    if isinstance(task, SandboxTask):
        return task
    row = task if isinstance(task, TaskRow) else TaskRow.model_validate(task)
    from swerl.sandbox.tasks import load_taskpack, task_from_row
    from swerl.tasks.taskpack import OWNER

    if row.repo.startswith(OWNER + "/"):
        _, tasks = load_taskpack()
        if row.instance_id in tasks:
            return tasks[row.instance_id]
    repo_dir = (Path(repos) / row.repo.split("/", 1)[-1]) if repos else None
    local = (row.model_extra or {}).get("repo_dir")  # swerl's column for a row's local git repo (taskgen, eval)
    if repo_dir is None and local and Path(str(local)).is_absolute():
        repo_dir = Path(str(local))
    return task_from_row(row, repo_dir=repo_dir)


class TaskSource:
    """Rows of `dataset` (`taskpack`, or anything `swerl.tasks.load.load_rows` reads) indexed by instance_id;
    `repos/<name>` is the local git mirror of repo `owner/<name>` (bwrap, rows outside the task pack)."""

    def __init__(self, dataset: str = TASKPACK, split: str = "train", repos: Path | None = None) -> None:
        self.dataset, self.split, self.repos = dataset, split, repos
        self.rows: list[TaskRow] = self._gradable(self._load())
        self._by_id = {r.instance_id: r for r in self.rows}

    def _load(self) -> list[TaskRow]:
        if self.dataset == TASKPACK:
            from swerl.sandbox.tasks import load_taskpack

            return list(load_taskpack()[0].rows)
        from swerl.tasks.load import load_rows

        ds = load_rows(self.dataset, self.split)
        rows = [TaskRow.model_validate(r) for r in ds]
        base = Path(self.dataset).expanduser()
        base = base.parent if base.is_file() else base
        for r in rows:  # a relative `repo_dir` is relative to the dataset file (as `swerl eval` reads it)
            local = (r.model_extra or {}).get("repo_dir")
            if local and not Path(str(local)).is_absolute():
                r.__pydantic_extra__["repo_dir"] = str((base / str(local)).resolve())  # type: ignore[index]
        return rows

    def _gradable(self, rows: list[TaskRow]) -> list[TaskRow]:
        """The rows a fix can be graded for: a row whose own fix is in a file the grader keeps from every patch
        (pytest's runner, `django/test/`) would only ever be an infrastructure error, so it is left out, and said."""
        from swerl.sandbox.gradetree import protected_fix

        out: list[TaskRow] = []
        left: list[str] = []
        for r in rows:
            if protected_fix(r.patch, [*r.FAIL_TO_PASS, *r.PASS_TO_PASS]):
                left.append(r.instance_id)
            else:
                out.append(r)
        if left:
            log.warning("rows left out: their fix is in a file the grader keeps from every patch", count=len(left),
                        first=left[:5])
        return out

    @property
    def instance_ids(self) -> list[str]:
        return [r.instance_id for r in self.rows]

    def row(self, instance_id: str) -> TaskRow:
        try:
            return self._by_id[instance_id]
        except KeyError:
            raise DataError(f"row {instance_id!r}: not in --dataset {self.dataset!r}") from None

    def task(self, instance_id: str) -> SandboxTask:
        return as_sandbox_task(self.row(instance_id), self.repos)

