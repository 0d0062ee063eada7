"""Host side of the grading launcher: what it runs, with which trusted pytest configuration, and its signed record.

The grader (the supervisor) decides everything on the host from the pristine tree and the task: the
launch mode (pytest in-process, or a Python test script), the pytest configuration (the pristine
tree's own file, copied next to it under a name no agent file can take, passed with `-c`, so no file
the patch adds or edits configures pytest), the files the guard treats as changed or protected, and a
fresh HMAC key. The launcher's final record is accepted only with a valid MAC under that key.
"""

from __future__ import annotations

import ast
import base64
import configparser
import hmac
import json
import re
import secrets
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from swerl.sandbox import pytest_runner
from swerl.sandbox.hostfs import remove_path
from swerl.sandbox.swerl_guard import test_dirs

TRUSTED_STEM = ".swerl-trusted-pytest"
LAUNCH_DIR = "/tmp/swerl-launch"
SPEC_PATH, RUNNER_PATH = f"{LAUNCH_DIR}/spec.json", f"{LAUNCH_DIR}/swerl_pytest_runner.py"
_PYTEST_LAUNCH = (("pytest",), ("py.test",), ("python", "-m", "pytest"), ("python3", "-m", "pytest"))
_SHELL_CHARS = set(";&|`$<>\n()")
_ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Lines of an official eval script that only set up the shell (anything else runs project code first).
_ENV_LINE = re.compile(r"^(source |conda activate |cd |export |unset |set |ulimit |: |locale|LANG=|LC_ALL=)")


@dataclass
class Launch:
    """One launcher run: its spec (written into the sandbox, read and deleted by the launcher) and its key."""

    mode: str  # pytest | script
    args: list[str]
    script: str = ""
    env: dict[str, str] = field(default_factory=dict)
    key: str = field(default_factory=lambda: secrets.token_hex(32))
    # in /tmp itself (sticky, writable by the tests' uid): the launch dir may belong to root (docker copies)
    record: str = field(default_factory=lambda: f"/tmp/swerl-record-{secrets.token_hex(8)}.txt")
    first: list[str] = field(default_factory=list)  # the required tests (FAIL_TO_PASS): pytest runs them first
    only_first: bool = False  # the conditions run: pytest runs the required tests alone

    def spec(self, workdir: str, changed: list[str], tests: list[str],
             code: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """The launcher's spec; `code` is `grade.changed_code`'s "lines" and "originals" of the changed files and the
        "tables" the tests loop over."""
        return {"key": self.key, "workdir": workdir, "mode": self.mode, "args": self.args, "script": self.script,
                "changed": sorted(changed), "tests": sorted(tests), "record": self.record,
                "private": [SPEC_PATH, self.record], "lines": (code or {}).get("lines", {}),
                "originals": (code or {}).get("originals", {}), "tables": (code or {}).get("tables", {}),
                "unscanned": (code or {}).get("unscanned", []), "added": (code or {}).get("added", []),
                "doctests": (code or {}).get("doctests", {}),
                "first": list(self.first), "only_first": self.only_first}


def pytest_args(test_cmd: str) -> list[str] | None:
    """The pytest arguments of a plain `pytest ...` / `python -m pytest ...` command, else None."""
    tokens = _tokens(test_cmd)
    if tokens is None:
        return None
    for launch in _PYTEST_LAUNCH:
        if tuple(tokens[: len(launch)]) == launch:
            return tokens[len(launch):]
    return None


def _tokens(cmd: str) -> list[str] | None:
    if any(ch in _SHELL_CHARS for ch in cmd):
        return None
    try:
        return shlex.split(cmd)
    except ValueError:
        return None


def plan_launch(test_cmd: str, tree: Path) -> Launch | None:
    """pytest in-process, or a Python script of the tree (`./tests/runtests.py ...`, `python bin/test ...`,
    with leading VAR=value assignments); None for anything else (graded from the text log alone)."""
    args = pytest_args(test_cmd)
    if args is not None:
        return Launch("pytest", args)
    tokens = _tokens(test_cmd)
    if not tokens:
        return None
    if tokens[0] == "tox":
        command = tox_command(tokens, tree)
        args = pytest_args(command) if command else None
        return Launch("pytest", args) if args is not None else None
    env: dict[str, str] = {}
    while tokens and _ENV_ASSIGN.match(tokens[0]):
        name, _, value = tokens.pop(0).partition("=")
        env[name] = value
    if tokens and tokens[0] in ("python", "python3"):
        tokens = tokens[1:]
    if not tokens or tokens[0].startswith("-"):
        return None
    script = tokens[0].removeprefix("./")
    path = tree / script
    if not path.is_file() or path.is_symlink():
        return None
    with open(path, "rb") as fh:
        head = fh.read(128)
    if not (script.endswith(".py") or (head.startswith(b"#!") and b"python" in head.split(b"\n", 1)[0])):
        return None
    return Launch("script", tokens[1:], script=script, env=env)


_PY_OPTIONS = re.compile(r"^-(?:[bBdEiIOqsSuvx]+|[XW]\S+)$")  # interpreter flags before `-m pytest`


def tox_command(tokens: list[str], tree: Path) -> str | None:
    """The command `tox --current-env -e ENV -- ARGS` runs (SWE-bench's Sphinx rows): the pristine tox.ini's
    `[testenv]` first `commands` line with `{posargs}` replaced by ARGS (and `-rA`, as SWE-bench's script adds),
    run in the current environment, so it goes through the launcher like any pytest command. Interpreter flags
    (`python -X dev -m pytest`) are dropped. None
    for any other tox invocation or a command that needs tox's own substitutions."""
    if "--current-env" not in tokens or "--" not in tokens:
        return None
    posargs = tokens[tokens.index("--") + 1:]
    try:
        cp = configparser.RawConfigParser(strict=False, interpolation=None)
        cp.read_string((tree / "tox.ini").read_text())
        lines = [ln.strip() for ln in cp.get("testenv", "commands").splitlines() if ln.strip()]
    except (OSError, ValueError, UnicodeDecodeError, configparser.Error):
        return None
    words = _tokens(lines[0]) if lines else None
    if not words or "{posargs}" not in words or any("{" in w for w in words if w != "{posargs}"):
        return None
    if words[0] in ("python", "python3"):
        rest = words[1:]
        while rest and (_PY_OPTIONS.match(rest[0]) or rest[0] in ("-X", "-W")):
            rest = rest[2:] if rest[0] in ("-X", "-W") else rest[1:]
        words = [words[0], *rest]
    if "-rA" not in words and "pytest" in words:  # what SWE-bench's script does to tox.ini (`sed s/pytest/pytest -rA/`)
        words.insert(words.index("pytest") + 1, "-rA")
    i = words.index("{posargs}")
    return shlex.join([*words[:i], *posargs, *words[i + 1:]])


_STEP = re.compile(r"\s*(?:;|&&)\s*")
_ACTIVATE = re.compile(r"^(source \S*/bin/activate|conda activate \S+)$")


def split_setup(cmd: str) -> tuple[list[str], str]:
    """(shell set-up steps, the test command) of a one-line profile command: every SWE-smith profile's is
    `source /opt/miniconda3/bin/activate; conda activate testbed; pytest ...`, which as a whole is no plain pytest
    command and would be graded from its text alone. Only leading steps that set up the shell (`source`, `conda
    activate`, `cd`, `export`) are split off, and only where they hold no quotes; the environment activation is
    dropped (`test_script` activates the environment itself where the image has one)."""
    parts = _STEP.split(cmd.strip())
    steps = [p for p in parts[:-1] if p]
    if len(parts) < 2 or not parts[-1] or not all(_ENV_LINE.match(p) and not set(p) & set("'\"`$()|<>") for p in steps):
        return [], cmd
    return [p for p in steps if not _ACTIVATE.match(p)], parts[-1]


def split_eval_script(script_lines: list[str]) -> tuple[list[str], list[str], str | None]:
    """(shell set-up lines, lines that run project code before the tests, the test command) of an official
    SWE-bench eval script whose git commands were removed."""
    from swebench.harness.constants import START_TEST_OUTPUT

    marker = f": '{START_TEST_OUTPUT}'"
    if marker not in script_lines:
        return [], [], None
    i = script_lines.index(marker)
    before = [ln for ln in script_lines[:i] if ln.strip() and not ln.lstrip().startswith("set ")]
    env = [ln for ln in before if _ENV_LINE.match(ln.strip())]
    other = [ln for ln in before if not _ENV_LINE.match(ln.strip())]
    return env, other, script_lines[i + 1] if i + 1 < len(script_lines) else None


# -- trusted pytest configuration ----------------------------------------------------------------------------------
def _has_pytest_section(path: Path) -> bool:
    try:
        if path.name == "pyproject.toml":
            tool = tomllib.loads(path.read_text()).get("tool", {})
            return isinstance(tool, dict) and isinstance(tool.get("pytest"), dict) and "ini_options" in tool["pytest"]
        cp = configparser.RawConfigParser(strict=False, interpolation=None)
        cp.read_string(path.read_text())
        section = "tool:pytest" if path.name == "setup.cfg" else "pytest"
        return cp.has_section(section)
    except (OSError, ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return False


def locate_config(pristine: Path, args: list[str]) -> Path | None:
    """The configuration file pytest would pick in the pristine tree for `args` (its search order: from the
    arguments' common directory up to the tree root; pytest.ini / .pytest.ini always, pyproject.toml, tox.ini
    and setup.cfg only with a pytest section)."""
    dirs = []
    for a in args:
        if a.startswith("-"):
            continue
        rel = a.split("::", 1)[0]
        p = (pristine / rel).resolve()
        if p.exists() and p.is_relative_to(pristine.resolve()):
            dirs.append(p if p.is_dir() else p.parent)
    start = pristine.resolve()
    if dirs:
        common = Path(*Path(dirs[0]).parts[: min(len(d.parts) for d in dirs)])
        while not all(d.is_relative_to(common) for d in dirs):
            common = common.parent
        start = common
    for d in (start, *start.parents):
        for name in ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"):
            cand = d / name
            if cand.is_file() and not cand.is_symlink() and (name in ("pytest.ini", ".pytest.ini")
                                                              or _has_pytest_section(cand)):
                return cand
        if d == pristine.resolve():
            break
    return None


def install_trusted_config(pristine: Path, tree: Path, workdir: str, args: list[str]) -> list[str]:
    """Copy the pristine configuration into `tree` beside the original (relative options keep their meaning),
    under a name the grader owns; return the pytest arguments that select it and nothing else."""
    found = locate_config(pristine, args)
    if found is None:
        rel_dir, suffix, text = PurePosixPath("."), ".ini", "[pytest]\n"
    else:
        rel = found.relative_to(pristine.resolve())
        rel_dir, suffix, text = PurePosixPath(rel.parent.as_posix()), found.suffix or ".ini", found.read_text()
    name = TRUSTED_STEM + suffix
    target = tree / rel_dir / name
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_path(target)  # whatever stands there (a file, a link, a directory of any depth) is the agent's
    target.write_text(text)
    sandbox_dir = PurePosixPath(workdir) / rel_dir
    return ["-c", str(sandbox_dir / name), f"--rootdir={sandbox_dir}", f"--confcutdir={workdir}"]


# -- the signed record ---------------------------------------------------------------------------------------------
def _signed_lines(output: str, key: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The record's events in order, each line's MAC chained to the previous accepted one; marker lines that do
    not continue the chain (printed by the tests, written by another process) are forgeries."""
    kb = bytes.fromhex(key)
    prev, events, problems = "", [], []
    for line in output.splitlines():
        if not line.startswith(pytest_runner.MARKER):
            continue
        try:
            env = json.loads(line[len(pytest_runner.MARKER):])
            mac = env["mac"]
            payload = pytest_runner.mask(kb, prev, base64.b64decode(env["sealed"], validate=True)).decode()
            ok = isinstance(payload, str) and isinstance(mac, str) and hmac.compare_digest(
                pytest_runner.sign(kb, prev + payload), mac)
            event = json.loads(payload) if ok else None
        except Exception:  # the line is the tests' output: any text (nesting past the parser's depth: RecursionError)
            ok = False
        if not ok:
            problems.append("a launcher record line without a valid signature was written into the test output")
            continue
        prev = mac
        if isinstance(event, dict) and event.get("seq") == len(events):
            events.append(event)
    return events, sorted(set(problems))


def _combine(phases: dict[str, dict[str, str]]) -> dict[str, str]:
    """One status per test: a teardown error wins, then the call, then what setup reported (error, skip)."""
    out = {}
    for node, seen in phases.items():
        if seen.get("teardown") == "ERROR":
            out[node] = "ERROR"
        else:
            out[node] = seen.get("call") or seen.get("setup") or "ERROR"
    return out


def verify_record(output: str, key: str) -> tuple[dict[str, Any] | None, list[str]]:
    """(the launcher's record, problems): outcomes per test, findings, forged reports, exit code; None when the
    chain has no final line (the test process was killed or exited early)."""
    events, problems = _signed_lines(output, key)
    phases: dict[str, dict[str, str]] = {}
    record: dict[str, Any] = {"tampering": [], "forged": []}
    for ev in events:
        kind, data = ev.get("kind"), ev.get("data")
        if kind == "finding":
            record["tampering"].append(str(data))
        elif kind == "held" and isinstance(data, list):
            record.setdefault("held", []).append(data)
        elif kind == "note":
            record.setdefault("notes", []).append(str(data))
        elif kind == "outcome" and isinstance(data, dict):
            node, phase = str(data.get("node")), str(data.get("phase"))
            status = str(data.get("status"))
            seen = phases.setdefault(node, {}).get(phase)
            if seen is not None and seen != status:  # the same test collected twice (a test patch's
                # `tests/__init__.py` among SWE-bench's test files, R50s-FP3) agrees with itself
                problems.append(f"{node}: two outcomes recorded for its {phase} phase")
            phases[node][phase] = status if seen is None or seen == status else "FAILED"
            if data.get("forged"):
                record["forged"].append(node)
        elif kind == "final" and isinstance(data, dict):
            record.update(data)
            record["outcomes"] = _combine(phases)
            return record, sorted(set(problems))
    return None, sorted(set(problems))


def held_lines(output: str, key: str) -> list[list[Any]]:
    """The record's `held` lines (the comparisons that held), also of a record cut short: each line's MAC verifies
    on the chain before it, so what a killed test process had already reported stands."""
    events, _ = _signed_lines(output, key)
    return [ev["data"] for ev in events if ev.get("kind") == "held" and isinstance(ev.get("data"), list)]


def test_helpers(tree: Path, protected: list[str]) -> list[str]:
    """The modules under a test directory (the outermost `tests`, `test` or `testing` directory above a protected
    file, as the guard's) that the protected test files and the conftest files on their way import, and what
    those import in turn, all the way down: `tests/cases.py` holding the expected values is the tests' as much as
    `tests/test_x.py` (R47s-2, R49s-2, R50s-1, R50s-2: read before the tests import it), so the launcher seals and
    guards it the same way. A package's own `testing/` module is no test (R50s-FP2)."""
    roots = test_dirs("", protected)
    starts = {p for p in protected if p.endswith(".py")}
    for rel in list(starts):  # the conftest files pytest loads for them
        for d in PurePosixPath(rel).parents:
            if (tree / d / "conftest.py").is_file():
                starts.add(str(d / "conftest.py") if str(d) != "." else "conftest.py")
    seen, todo, out = set(protected) | starts, sorted(starts), []
    while todo and len(out) < 1000:
        found = []
        for rel in todo:
            for mod in _imported_files(tree, rel):
                if mod not in seen and mod.startswith(roots):
                    seen.add(mod)
                    found.append(mod)
        out += found
        todo = found
    return sorted(out)


def _imported_files(tree: Path, rel: str) -> list[str]:
    """The files of the tree that `rel`'s import statements name (absolute from the tree's root or `src/`, or
    relative to its package), as paths relative to the tree."""
    try:
        path = tree / rel
        if path.is_symlink() or path.stat().st_size > 2_000_000:
            return []
        parsed = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    here = PurePosixPath(rel).parent
    names: list[tuple[PurePosixPath, list[str]]] = []
    for node in ast.walk(parsed):
        if isinstance(node, ast.Import):
            names += [(PurePosixPath("."), a.name.split(".")) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = PurePosixPath(".")
            if node.level:
                base = here
                for _ in range(node.level - 1):
                    base = base.parent
            mod = node.module.split(".") if node.module else []
            names += [(base, mod)] + [(base, [*mod, a.name]) for a in node.names if a.name != "*"]
    out = []
    for base, parts in names:  # an absolute name from the root, `src/`, or the importing file's own directory (pytest's
        # `prepend` import mode puts it first on sys.path: `from cases import K` in tests/, R50s-6)
        for root in (PurePosixPath("."), PurePosixPath("src"), here) if base == PurePosixPath(".") else (base,):
            stem = (root if base == PurePosixPath(".") else base).joinpath(*parts) if parts else base
            for cand in (f"{stem}.py", f"{stem}/__init__.py"):
                if (tree / cand).is_file() and not (tree / cand).is_symlink():
                    out.append(str(PurePosixPath(cand)))
    return out
