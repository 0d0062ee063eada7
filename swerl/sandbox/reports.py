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
_STATUS_SET = frozenset(_STATUSES.split("|"))
_SUMMARY_WORDS = re.compile(r"\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b")
_SUMMARY_TAIL = re.compile(r" in [\d.]+s(?: \([^)]*\))? =+\s*$")
_PERCENT = re.compile(r"\s+\[\s*\d+%\]\s*$")
# Every parser here is linear in the line: the log is the tests' output, and a line built to make a regex backtrack
# (`PASSED a[a[a[...`, no `]`) would otherwise cost the host minutes per grade.


_QUIET = re.compile(r"^(?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)"
                    r"(?:, )?)+ in [\d.]+s(?: \([^)]*\))?$")


def _is_summary(line: str) -> bool:
    """pytest's session summary line (`=== 2 passed, 1 warning in 0.1s ===`, `=== no tests ran in 0.0s ===`; with
    `-q`, `2 passed in 0.1s`)."""
    if len(line) > 4096:
        return False
    if not line.startswith("="):
        return len(line) <= 300 and _QUIET.match(line) is not None
    head = line.lstrip("=")
    if not head.startswith(" "):
        return False
    at = head.rfind(" in ")
    if at < 0 or not _SUMMARY_TAIL.match(head, at):
        return False
    words = head[1:at]
    return words.startswith("no tests ran") or _SUMMARY_WORDS.search(words) is not None


def truncate_at_summary(text: str, last: bool = False) -> tuple[str, bool]:
    """Everything up to and including pytest's first session summary line (`=== 2 passed in 0.1s ===`); with
    `last`, its last one (a test that runs pytest in-process prints an inner session's summary before the outer's)."""
    lines = text.splitlines()
    found = [i for i, line in enumerate(lines) if _is_summary(line.strip())]
    if found:
        i = found[-1] if last else found[0]
        return "\n".join(lines[: i + 1]) + "\n", True
    return text, False


def _status_first(line: str) -> tuple[str, str] | None:
    """`STATUS id` or `STATUS id - reason` (a short summary line); an id may hold spaces inside its brackets."""
    status, _, rest = line.partition(" ")
    if status not in _STATUS_SET or not rest:
        return None
    token = rest.split(" ", 1)[0]
    b = token.find("[")
    if b > 0:  # the first `]` after it that ends the line or starts a reason
        i = rest.find("]", b)
        while i >= 0:
            if i + 1 == len(rest) or rest.startswith(" - ", i + 1):
                return status, rest[: i + 1]
            i = rest.find("]", i + 1)
    if token and (len(token) == len(rest) or rest.startswith(" - ", len(token))):
        return status, token
    return None


def _status_last(line: str) -> tuple[str, str] | None:
    """`path::id STATUS` or `path::id STATUS [ 50%]` (a verbose run's progress line)."""
    m = _PERCENT.search(line)
    head, _, status = (line[: m.start()] if m else line).rstrip().rpartition(" ")
    if status not in _STATUS_SET or not head:
        return None
    token = head.split(" ", 1)[0]
    if token.find("::") < 1:
        return None
    if len(token) == len(head) or (head.endswith("]") and token.find("[", token.find("::")) >= 0):
        return status, head
    return None


def first_status(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(status map keeping the FIRST status per test, every status seen per test) of a pytest log."""
    first: dict[str, str] = {}
    seen: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        found = _status_first(line)
        if found is None:
            flipped = _status_last(line)
            if flipped is None:
                continue
            found = flipped
        status, test = found
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


def _aliased(statuses: dict[str, str], aliases: dict[str, str]) -> dict[str, str]:
    """Statuses under the row's names; two nodes the parser names alike pass only if both do."""
    out: dict[str, str] = {}
    for node, st in statuses.items():
        name = aliases.get(node)
        if name is not None and (name not in out or out[name] in PASS):
            out[name] = st
    return out


def decide(required: list[str], text: str, harness_map: dict[str, str] | None, record: dict[str, Any] | None,
           exit_code: int | None, *, mode: str, text_complete: bool = True,
           aliases: dict[str, str] | None = None) -> Verdict:
    """Per-test statuses for `required` plus every inconsistency found. `mode`: pytest | script | text.
    `text_complete=False`: the log was cut to its end (a huge suite); a test the text does not mention is then
    not a disagreement. `aliases`: node id -> the name the row's parser gives it, where the row lists tests so."""
    body, has_summary = truncate_at_summary(text, last=mode == "pytest")  # the launcher decides: the text only
    first, seen = first_status(body)  # checks it, and an inner session's summary must not cut it short
    if aliases:
        first = {**_aliased(first, aliases), **first}
        seen = {**{aliases[n]: st for n, st in seen.items() if n in aliases}, **seen}
        if record is not None and isinstance(record.get("outcomes"), dict):
            record = {**record, "outcomes": {**_aliased(record["outcomes"], aliases), **record["outcomes"]}}
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
            # the official parser splits a status line on whitespace: an id with a space is one it cannot name
            inexpressible = hs == "MISSING" and any(c.isspace() for c in t)
            if (hs in PASS) != (text_status in PASS) and not repeated and not unseen and not inexpressible:
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


def _declarations(source: str, node_id: str) -> tuple[list[Any], list[Any]] | None:
    """(the decorators and `pytestmark` values that apply to the test `node_id`, the module's body); None where the
    file does not parse or does not define it."""
    parts = node_id.split("::")[1:]
    if not parts:
        return None
    try:
        module: list[Any] = ast.parse(source).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    scope, found = module, _pytestmark(module)
    names = [*parts[:-1], parts[-1].split("[", 1)[0]]
    for i, name in enumerate(names):
        node = next((n for n in scope if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == name), None)
        if node is None:
            return None
        found += list(node.decorator_list)
        if isinstance(node, ast.ClassDef) and i < len(names) - 1:
            scope = node.body
            found += _pytestmark(scope)
    return found, module


_FILE_DECIDED = frozenset({"sys", "platform", "os", "True", "False", "None"})


def _decided_by_file(expr: ast.expr, module: list[Any], depth: int = 0) -> bool:
    """A mark condition the test file decides alone: constants, `sys`/`platform`/`os` facts, and names the file
    assigns from those (a string condition is read as the expression it holds). A name imported from the project
    (`not compat.HAS_FAST_MEDIAN`) or a call into it is code the patch can change."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            expr = ast.parse(expr.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    for name in names - _FILE_DECIDED:
        values = [n.value for n in module if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
        if depth > 3 or len(values) != 1 or not _decided_by_file(values[0], module, depth + 1):
            return False
    return True


def _project_decided(marks: list[Any], module: list[Any], word: str) -> bool:
    """Every `word` mark that applies is conditional on code the patch can change (none is unconditional or
    decided by the file alone)."""
    nodes = [n for m in marks for n in ast.walk(m)]
    funcs = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    calls = [n for n in nodes if (isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", "")) == word)
             or (isinstance(n, ast.Attribute) and n.attr == word and id(n) not in funcs)]
    for call in calls:
        if not isinstance(call, ast.Call):
            return False  # `@pytest.mark.xfail` as is
        cond = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "condition")]
        if all(_decided_by_file(c, module) for c in cond):
            return False
    return bool(calls)


def undeclared_expectations(statuses: dict[str, str], tree: Path | None, fail_to_pass: Sequence[str] = ()
                            ) -> list[str]:
    """Required tests whose XFAIL/XPASS status their (protected, host-side) test file does not declare, and any
    fail-to-pass test reported XFAIL: a fixed test must pass, and a declared mark's condition is code the change
    can decide (`xfail(not compat.HAS_FAST_MEDIAN)` with the project flag turned off). A pass-to-pass test's XFAIL
    counts only under a mark that is unconditional or whose condition the file decides alone. Each is set to FAILED in
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
        got = _declarations(cache[rel] or "", test) if tree is not None else None
        if tree is not None and (got is None or not _mentions(got[0], word)):
            statuses[test] = "FAILED"
            out.append(f"{test}: reported {status} although its test file declares no {word} mark")
        elif got is not None and status == "XFAIL" and _project_decided(got[0], got[1], word):
            statuses[test] = "FAILED"
            out.append(f"{test}: reported XFAIL under a {word} mark whose condition project code decides")
        elif status == "XFAIL" and test in fixed:
            statuses[test] = "FAILED"
            out.append(f"{test}: reported XFAIL; a fail-to-pass test must pass")
    return out


def renamed_cases(outcomes: dict[str, str], fail_to_pass: Sequence[str], required: Sequence[str]) -> list[str]:
    """A fail-to-pass test function must pass under every id it is collected with. Parametrize ids can come from
    the project (`__name__` of registered functions): a patch that registers a stand-in under the buggy case's
    name and the buggy case under a new one makes the listed id pass while the same test, unlisted, fails.
    On the reference tree a sibling of a fixed case fails only where the fix is partial (the task's gold check
    would then fail too)."""
    listed = set(required)
    bases = {t.split("[", 1)[0] for t in fail_to_pass if "[" in t}
    return [f"{t}: fails ({status}) under an id no test list names, as a case of the fail-to-pass test {base}"
            for t, status in outcomes.items() if status in ("FAILED", "ERROR") and t not in listed
            and (base := t.split("[", 1)[0]) in bases and "[" in t]

