"""Test results from pytest's JUnit report, which must agree with the text log and the exit code.

In-process code can print `PASSED <id>` at exit or rewrite report objects, so the JUnit XML
(written outside the work tree) is primary, the text counts only up to the session summary
with the *first* status per test, the harness parser cross-checks, and any disagreement
(or an exit code that contradicts the report) is tampering. Parsing never raises.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

from swerl.sandbox.pytest_runner import MARKER as WITNESS_MARKER  # the launcher writes it

PASS = {"PASSED", "XFAIL"}
_STATUSES = "PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS"
_SUMMARY = re.compile(
    r"^=+ (?:.*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b.*|no tests ran.*)"
    r" in [\d.]+s(?: \([^)]*\))? =+\s*$")
_STATUS_FIRST = re.compile(rf"^({_STATUSES}) (\S+?)(?: - .*)?$")
_STATUS_LAST = re.compile(rf"^(\S+::\S*?) ({_STATUSES})(?:\s+\[\s*\d+%\])?\s*$")
MAX_XML = 64 * 1024 * 1024


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


def junit_key(test_id: str) -> tuple[str, str]:
    """`tests/test_x.py::TestA::test_b[1]` -> (`tests.test_x.TestA`, `test_b[1]`): pytest's junit classname/name."""
    path, _, rest = test_id.partition("::")
    parts = rest.split("::") if rest else [""]
    module = path[:-3] if path.endswith(".py") else path
    classname = ".".join([module.replace("/", "."), *parts[:-1]])
    return classname, parts[-1]


@dataclass
class Junit:
    statuses: dict[str, str] = field(default_factory=dict)  # junit (classname, name) joined by "::"
    failures: int = 0

    def status_of(self, test_id: str) -> str | None:
        cls, name = junit_key(test_id)
        return self.statuses.get(f"{cls}::{name}")


def parse_junit(data: bytes) -> Junit:
    """Statuses from pytest's JUnit XML; raises ValueError on anything suspicious (DTDs, entities, garbage)."""
    if len(data) > MAX_XML:
        raise ValueError(f"JUnit report is {len(data)} bytes")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise ValueError("JUnit report declares a DTD/entities")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ValueError(f"JUnit report does not parse: {exc}") from exc
    out = Junit()
    for case in root.iter("testcase"):
        key = f"{case.get('classname', '')}::{case.get('name', '')}"
        tags = {child.tag for child in case}
        if "error" in tags:
            status = "ERROR"
        elif "failure" in tags:
            status = "FAILED"
        elif "skipped" in tags:
            kinds = " ".join((c.get("type") or "") + " " + (c.get("message") or "") for c in case if c.tag == "skipped")
            status = "XFAIL" if "xfail" in kinds else "SKIPPED"
        else:
            status = "PASSED"
        if status in ("ERROR", "FAILED"):
            out.failures += 1
        prev = out.statuses.get(key)
        if prev is None or (prev == "PASSED" and status != "PASSED"):  # a teardown error after a pass counts
            out.statuses[key] = status
    return out


@dataclass
class Verdict:
    statuses: dict[str, str]
    tampering: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    report: str = "text"


def parse_witness(output: str) -> dict[str, Any] | None:
    """The launcher's witness record (its last line with the marker), or None; never raises."""
    for line in reversed(output.splitlines()):
        if line.startswith(WITNESS_MARKER):
            try:
                data = json.loads(line[len(WITNESS_MARKER):])
            except ValueError:
                return {"invalid": True}
            return data if isinstance(data, dict) else {"invalid": True}
    return None


def decide(required: list[str], text: str, harness_map: dict[str, str] | None, junit_xml: bytes | None,
           exit_code: int | None, *, structured: bool, witness: dict[str, Any] | None = None,
           text_complete: bool = True) -> Verdict:
    """Per-test statuses for `required` plus every inconsistency found. `text_complete=False`: the log was cut
    to its end (a huge suite); a test the text does not mention is then not a disagreement."""
    body, has_summary = truncate_at_summary(text)
    first, seen = first_status(body)
    v = Verdict(statuses={})
    junit: Junit | None = None
    if structured:
        if junit_xml is None:
            v.errors.append("no JUnit report (pytest did not finish its session)")
        else:
            try:
                junit = parse_junit(junit_xml)
                v.report = "junit"
            except ValueError as exc:
                v.tampering.append(f"JUnit report rejected: {exc}")
    for t in required:
        text_status = first.get(t, "MISSING")
        if junit is not None:
            js = junit.status_of(t) or "MISSING"
            v.statuses[t] = js
            unseen = text_status == "MISSING" and not text_complete
            if not unseen and (js in PASS) != (text_status in PASS) and not (js not in PASS and len(seen.get(t, [])) > 1):
                v.tampering.append(f"{t}: JUnit report says {js}, text log says {text_status}")
        else:
            v.statuses[t] = text_status
        if harness_map is not None:
            hs = harness_map.get(t, "MISSING")
            if (hs in PASS) != (text_status in PASS) and len(seen.get(t, [])) <= 1 and not (
                    text_status == "MISSING" and not text_complete):
                v.tampering.append(f"{t}: harness parser says {hs}, first status line says {text_status}")
    all_pass = bool(required) and all(v.statuses[t] in PASS for t in required)
    if structured and witness is not None:
        outcomes = witness.get("outcomes") if isinstance(witness.get("outcomes"), dict) else {}
        if witness.get("invalid"):
            v.tampering.append("the launcher's witness record is garbled")
        for node in witness.get("forged") or []:
            v.tampering.append(f"{node}: report says passed although the test raised (report rewritten in-process)")
        for t in required:
            ws = outcomes.get(t, "MISSING")
            if (ws in PASS) != (v.statuses[t] in PASS):
                v.tampering.append(f"{t}: launcher saw {ws}, report says {v.statuses[t]}")
        if exit_code is not None and witness.get("rc") is not None and witness.get("rc") != exit_code:
            v.tampering.append(f"test exit code {exit_code} but pytest returned {witness.get('rc')}")
    elif structured and all_pass:
        v.tampering.append("every required test passed but the launcher left no witness record")
    if all_pass and structured and junit is None:
        v.tampering.append("text log shows every required test passed but pytest wrote no JUnit report")
    if all_pass and not has_summary:
        v.tampering.append("text log shows passes but no pytest session summary")
    if exit_code is not None and all_pass:
        failures = junit.failures if junit is not None else sum(1 for s in first.values() if s in ("FAILED", "ERROR"))
        if exit_code != 0 and not (exit_code == 1 and failures > 0):
            v.tampering.append(f"test exit code {exit_code} although every required test passed and no failure "
                               "was reported")
        if exit_code == 0 and failures > 0:
            v.tampering.append(f"test exit code 0 although the report has {failures} failure(s)")
    return v
