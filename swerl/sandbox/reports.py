"""The verdict: the launcher's signed outcomes, which must agree with the text log and the harness parser.

In-process code can print `PASSED <id>` or rewrite report objects, and any process of the tests'
uid can write into the log; only the launcher's record carries a MAC under the grade's key. The
text counts only up to the session summary with the *first* status per test, the harness parser
cross-checks, and any disagreement (or an exit code that contradicts the outcomes) is tampering.
Parsing never raises.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PASS = {"PASSED", "XFAIL"}
_STATUSES = "PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS"
_SUMMARY = re.compile(
    r"^=+ (?:.*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b.*|no tests ran.*)"
    r" in [\d.]+s(?: \([^)]*\))? =+\s*$")
_STATUS_FIRST = re.compile(rf"^({_STATUSES}) (\S+?)(?: - .*)?$")
_STATUS_LAST = re.compile(rf"^(\S+::\S*?) ({_STATUSES})(?:\s+\[\s*\d+%\])?\s*$")


def truncate_at_summary(text: str) -> tuple[str, bool]:
    """Everything up to and including pytest's first session summary line (`=== 2 passed in 0.1s ===`)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if _SUMMARY.match(line.strip()):
            return "\n".join(lines[: i + 1]) + "\n", True
    return text, False


def first_status(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(status map keeping the FIRST status per test, every status seen per test) of a pytest log."""
    first: dict[str, str] = {}
    seen: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        m = _STATUS_FIRST.match(line)
        if m:
            status, test = m.group(1), m.group(2)
        else:
            m = _STATUS_LAST.match(line)
            if not m:
                continue
            test, status = m.group(1), m.group(2)
        first.setdefault(test, status)
        seen.setdefault(test, []).append(status)
    return first, seen


@dataclass
class Verdict:
    statuses: dict[str, str]
    tampering: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    report: str = "text"


def _primary(v: Verdict, required: list[str], record: dict[str, Any] | None, harness_map: dict[str, str] | None,
             first: dict[str, str], mode: str) -> None:
    """Statuses from the source that decides: the signed outcomes (pytest), the harness parser (a test script
    under the launcher), or the first status line (a command the launcher cannot run)."""
    if mode != "text" and record is None:
        v.errors.append("the launcher left no signed record (the test process was killed or never finished)")
    if record is not None:
        if record.get("launcher_error"):
            v.errors.append(f"launcher failed: {record['launcher_error']}")
        v.tampering += [str(r) for r in record.get("tampering") or []]
        for node in record.get("forged") or []:
            v.tampering.append(f"{node}: report says passed although the test raised (report rewritten in-process)")
    outcomes = record.get("outcomes") if record is not None and isinstance(record.get("outcomes"), dict) else {}
    for t in required:
        if mode == "pytest":
            v.statuses[t] = str(outcomes.get(t, "MISSING"))
        elif mode == "script" and harness_map is not None:
            v.statuses[t] = harness_map.get(t, "MISSING")
        else:
            v.statuses[t] = first.get(t, "MISSING")


def decide(required: list[str], text: str, harness_map: dict[str, str] | None, record: dict[str, Any] | None,
           exit_code: int | None, *, mode: str, text_complete: bool = True) -> Verdict:
    """Per-test statuses for `required` plus every inconsistency found. `mode`: pytest | script | text.
    `text_complete=False`: the log was cut to its end (a huge suite); a test the text does not mention is then
    not a disagreement."""
    body, has_summary = truncate_at_summary(text)
    first, seen = first_status(body)
    v = Verdict(statuses={}, report="launcher" if mode == "pytest" and record is not None else mode)
    _primary(v, required, record, harness_map, first, mode)
    for t in required:
        text_status = first.get(t, "MISSING")
        unseen = text_status == "MISSING" and not text_complete
        repeated = len(seen.get(t, [])) > 1
        if mode == "pytest" and record is not None and not unseen:
            ws = v.statuses[t]
            if (ws in PASS) != (text_status in PASS) and not (ws not in PASS and repeated):
                v.tampering.append(f"{t}: launcher saw {ws}, text log says {text_status}")
        if harness_map is not None and mode != "script":
            hs = harness_map.get(t, "MISSING")
            if (hs in PASS) != (text_status in PASS) and not repeated and not unseen:
                v.tampering.append(f"{t}: harness parser says {hs}, first status line says {text_status}")
    all_pass = bool(required) and all(v.statuses[t] in PASS for t in required)
    if all_pass and not has_summary and mode != "script":
        v.tampering.append("text log shows passes but no pytest session summary")
    if exit_code is not None and all_pass:
        if mode == "pytest" and record is not None:
            failures = sum(1 for s in (record.get("outcomes") or {}).values() if s in ("FAILED", "ERROR"))
        else:
            failures = sum(1 for s in first.values() if s in ("FAILED", "ERROR"))
        if exit_code != 0 and not (exit_code == 1 and (failures > 0 or mode == "script")):
            v.tampering.append(f"test exit code {exit_code} although every required test passed and no failure "
                               "was reported")
        if exit_code == 0 and failures > 0:
            v.tampering.append(f"test exit code 0 although the report has {failures} failure(s)")
    return v


# -- expectations declared in the test's own source -------------------------------------------------------------------
EXPECTATIONS = {"XFAIL": "xfail", "XPASS": "xfail"}


def _mentions(nodes: list[Any], word: str) -> bool:
    return any(word in ast.unparse(n) for n in nodes)


def _pytestmark(body: list[Any]) -> list[Any]:
    """The values assigned to `pytestmark` at this level (module or class body)."""
    return [n.value for n in body if isinstance(n, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in (n.targets if isinstance(n, ast.Assign)
                                                                              else [n.target]))]


def declared_in_source(source: str, node_id: str, word: str) -> bool:
    """Whether the test `node_id` (file::[Class::]name[params]) declares the mark `word` in its own source: on the
    function's decorators (a `pytest.param(..., marks=...)` of its parametrize included), its classes' decorators
    or `pytestmark`, or the module's `pytestmark`. Markers added at run time (`item.add_marker`, a hook) are
    not declarations: the test file is protected, the run is not."""
    parts = node_id.split("::")[1:]
    if not parts:
        return False
    try:
        scope: list[Any] = ast.parse(source).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    found = _pytestmark(scope)
    names = [*parts[:-1], parts[-1].split("[", 1)[0]]
    for i, name in enumerate(names):
        node = next((n for n in scope if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == name), None)
        if node is None:
            return False
        found += list(node.decorator_list)
        if isinstance(node, ast.ClassDef) and i < len(names) - 1:
            scope = node.body
            found += _pytestmark(scope)
    return _mentions(found, word)


def undeclared_expectations(statuses: dict[str, str], tree: Path | None, fail_to_pass: Sequence[str] = ()
                            ) -> list[str]:
    """Required tests whose XFAIL/XPASS status their (protected, host-side) test file does not declare, and any
    fail-to-pass test reported XFAIL: a fixed test must pass, and a declared mark's condition is code the change
    can decide (`xfail(not compat.HAS_FAST_MEDIAN)` with the project flag turned off). Each is set to FAILED in
    `statuses`; the list says which. Without a host `tree`, only the fail-to-pass rule applies."""
    out = []
    cache: dict[str, str | None] = {}
    fixed = set(fail_to_pass)
    for test, status in statuses.items():
        word = EXPECTATIONS.get(status)
        if word is None:
            continue
        rel = test.split("::", 1)[0]
        if tree is not None and rel not in cache:
            try:
                cache[rel] = (tree / rel).read_text(errors="replace") if ".." not in Path(rel).parts else None
            except OSError:
                cache[rel] = None
        if tree is not None and (cache[rel] is None or not declared_in_source(cache[rel] or "", test, word)):
            statuses[test] = "FAILED"
            out.append(f"{test}: reported {status} although its test file declares no {word} mark")
        elif status == "XFAIL" and test in fixed:
            statuses[test] = "FAILED"
            out.append(f"{test}: reported XFAIL; a fail-to-pass test must pass")
    return out
