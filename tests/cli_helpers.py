"""Running `swerl` through its console entry point inside a test (shared by the CLI UX tests)."""

from __future__ import annotations

import logging
import sys

import pytest

from swerl.cli import main


def run_swerl(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
              ) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `swerl ARGS` through the console entry point."""
    monkeypatch.setattr(sys, "argv", ["swerl", *args])
    monkeypatch.setenv("COLUMNS", "400")
    # main() installs a log handler on the current (captured) stderr: fresh per test, removed after it.
    swerl_log = logging.getLogger("swerl")
    monkeypatch.setattr(swerl_log, "handlers", [h for h in swerl_log.handlers if not getattr(h, "_swerl", False)])
    monkeypatch.setattr(swerl_log, "level", swerl_log.level)
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out = capsys.readouterr()
    return code, out.out, out.err
