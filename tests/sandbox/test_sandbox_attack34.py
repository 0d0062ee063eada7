"""Round 34's classes, each closed by a rule (docs/sandbox.md, "Round 34").

Through the real grader on a synthetic SWE-smith repo or the bundled task pack; beside each route the honest fix
resolves and the unfixed bug stays unresolved.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.schema import SandboxTask


@pytest.fixture(params=["bwrap", "docker"])
def grading_sandbox(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


def test_round34_an_install_step_cannot_change_the_tree_it_grades(grading_sandbox: Any, tmp_path: Path,
                                                                 calc_task: tuple[Any, SandboxTask]) -> None:
    """SWE-bench eval scripts run project code (`pip install -e .`, the agent's `setup.py`) before the tests. The
    grading tree is read-only to that code's uid, so it cannot rewrite a project file (whose lines would then count
    as the project's, not the patch's), add a module, or build native code into the tree; what it leaves outside
    the tree, and every process it left running, are gone before the launcher arrives (on docker too, where the
    kill also ends the exec's own `timeout` wrapper: that once made every such row an agent fault)."""
    from swerl.sandbox import grade, gradetree

    _row, task = calc_task
    pristine = gradetree.export_pristine(grading_sandbox, task)
    tree = tmp_path / "tree"
    shutil.copytree(pristine.base, tree, symlinks=True)
    (tree / "pkg").mkdir()
    (tree / "pkg" / "core.py").write_text("def f():\n    return 1\n")
    step = ("echo 'f = lambda: 2' >> pkg/core.py; echo 'import os' > pkg/new.py; "
            "touch pkg/_fast.cpython-311-x86_64-linux-gnu.so; mkdir -p build pkg.egg-info; "
            "(setsid bash -c 'while :; do touch /tmp/evil.py; sleep 0.05; done' >/dev/null 2>&1 &); echo planted")
    h = grading_sandbox.start_grading(task, tree, git_binaries=pristine.git_binaries)
    try:
        out = grading_sandbox.exec_argv(h, ["bash", "-c", step], timeout=30).output
        assert "planted" in out and ("Read-only" in out or "Permission denied" in out), out
        grade._after_pre(grading_sandbox, h, tree, [])
        after = grading_sandbox.exec(h, "sleep 0.3; cat pkg/core.py; ls -A . pkg /tmp").output
        assert "lambda" not in after and "new.py" not in after and "_fast" not in after, after
        assert "build" not in after and "egg-info" not in after and "evil" not in after, after
    finally:
        grading_sandbox.stop(h)
