"""Trusted pytest launcher for grading sandboxes (copied in, run as `python3 -I this.py WORKDIR ARGS`; stdlib only).

Why not `python -m pytest`: `-m` puts the work tree first on sys.path, so a repository module
named like one pytest imports would run instead; here it is *appended*. A witness plugin, the
outermost `pytest_runtest_makereport` wrapper, records every final outcome and flags a report
that says "passed" although the call raised; its record is the very last line, on a copy of
stdout taken at start-up. `os._exit` at the end: no atexit handler of the code under test runs.
"""

import json
import os
import sys

MARKER = "SWERL_WITNESS "


class Witness:
    """Outcome per test node id as the outermost report wrapper sees it, plus reports that contradict the call."""

    def __init__(self) -> None:
        self.outcomes: dict[str, str] = {}
        self.forged: list[str] = []

    def make_hooks(self, pytest: object) -> object:
        witness = self
        hookimpl = pytest.hookimpl  # type: ignore[attr-defined]

        class Plugin:
            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_runtest_makereport(self, item: object, call: object) -> object:
                outcome = yield
                rep = outcome.get_result()
                node = getattr(item, "nodeid", "?")
                when = getattr(call, "when", "")
                excinfo = getattr(call, "excinfo", None)
                if when == "call":
                    if excinfo is not None and rep.passed and not hasattr(rep, "wasxfail"):
                        witness.forged.append(node)
                    status = "PASSED" if rep.passed else ("SKIPPED" if rep.skipped else "FAILED")
                    if hasattr(rep, "wasxfail"):
                        status = "XFAIL" if rep.skipped else "XPASS"
                    witness.outcomes[node] = status
                elif rep.failed:
                    witness.outcomes[node] = "ERROR"
                elif rep.skipped and when == "setup":
                    witness.outcomes[node] = "SKIPPED"

        return Plugin()


def main() -> None:
    workdir, args = sys.argv[1], sys.argv[2:]
    out = os.dup(1)
    os.chdir(workdir)
    sys.dont_write_bytecode = True
    sys.path.append(workdir)
    import pytest

    witness = Witness()
    rc = 3
    try:
        rc = pytest.main(args, plugins=[witness.make_hooks(pytest)])
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            line = MARKER + json.dumps({"outcomes": witness.outcomes, "forged": witness.forged, "rc": int(rc)})
            os.write(out, ("\n" + line + "\n").encode())
        finally:
            os._exit(int(rc) if isinstance(rc, int) else 3)


if __name__ == "__main__":
    main()
