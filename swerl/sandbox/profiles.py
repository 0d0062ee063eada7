"""swesmith harness profiles for repositories outside swesmith's registry (the bundled task pack): a
`PythonProfile` subclass whose log parser is swebench's `parse_log_pytest`. No parser is written here."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, make_dataclass
from typing import Any

from swerl.tasks.taskpack import OWNER as TASKPACK_OWNER
from swerl.tasks.taskpack import TASKPACK_TEST_CMD


@functools.cache
def _base_class() -> type:
    from swebench.harness.log_parsers.python import parse_log_pytest
    from swesmith.profiles.python import PythonProfile

    @dataclass
    class TaskPackProfile(PythonProfile):
        """A local repository: mirror name `<owner>/<repo>` equals the row's `repo` field."""

        owner: str = TASKPACK_OWNER
        org_gh: str = TASKPACK_OWNER
        org_dh: str = TASKPACK_OWNER
        commit: str = "local0000"
        test_cmd: str = TASKPACK_TEST_CMD
        exts: list[str] = field(default_factory=lambda: [".py"])

        @property
        def repo_name(self) -> str:  # swesmith: `<owner>__<repo>.<commit>`; here the bare repo name
            return self.repo

        @property
        def image_name(self) -> str:
            return f"{self.org_dh}/{self.repo}:latest"

        def log_parser(self, log: str) -> dict[str, str]:
            return parse_log_pytest(log, None)

        def get_test_cmd(self, instance: dict, f2p_only: bool = False) -> tuple[str, list]:
            return self.test_cmd, []

    return TaskPackProfile


def register_local_profile(repo: str, test_cmd: str = TASKPACK_TEST_CMD) -> Any:
    """Register (once) a profile for `repo` = `<owner>/<name>` and return the profile instance."""
    from swesmith.profiles import registry

    if repo in registry.data:
        return registry.get(repo)
    owner, _, name = repo.partition("/")
    if not name:
        raise ValueError(f"repo {repo!r} must look like owner/name")
    cls_name = "Local_" + "".join(ch if ch.isalnum() else "_" for ch in repo)
    cls = make_dataclass(
        cls_name,
        [("repo", str, field(default=name)), ("owner", str, field(default=owner)),
         ("org_gh", str, field(default=owner)), ("org_dh", str, field(default=owner)),
         ("test_cmd", str, field(default=test_cmd))],
        bases=(_base_class(),),
    )
    registry.register_profile(cls)
    return registry.get(repo)


def register_taskpack(pack: Any) -> None:
    """Register every repository of a materialised task pack."""
    for row in pack.rows:
        register_local_profile(row.repo, pack.test_cmd(row))
