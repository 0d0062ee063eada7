"""The SWE-smith / SWE-bench row schema: `TaskRow` accepts test lists as lists (SWE-smith) or JSON
strings (SWE-bench) and always exposes lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from swerl.errors import DataError, SwerlError

REQUIRED_COLUMNS = ("instance_id", "repo", "patch", "FAIL_TO_PASS", "PASS_TO_PASS", "image_name", "problem_statement")
TEST_LIST_FIELDS = ("FAIL_TO_PASS", "PASS_TO_PASS")


def parse_test_list(value: Any, *, instance_id: str, field: str) -> list[str]:
    """Accept a list of test ids or its JSON-string form; anything else names the row and field."""
    if value is None:
        raise DataError(f"row {instance_id!r}: field {field} is missing (None)")
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else []
        except json.JSONDecodeError as exc:
            raise DataError(f"row {instance_id!r}: field {field} is not a JSON list: {exc.msg}") from exc
    if hasattr(value, "tolist"):  # numpy / arrow arrays
        value = value.tolist()
    if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
        raise DataError(f"row {instance_id!r}: field {field} must be a list of test-id strings")
    return list(value)


def read_json_rows(path: Path, where: str, error: type[SwerlError] = DataError) -> list[tuple[str, Any]]:
    """(label, value) per row: each non-blank line of a JSON-lines file (`line N`), or each item of a `.json`
    list or `{id: row}` object (`entry N`). A parse error is `error`, naming `where` (the caller's flag or file)."""
    text = Path(path).read_text()
    if Path(path).suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise error(f"{where}: not valid JSON: {exc.msg} (line {exc.lineno})") from exc
        items = list(data.values()) if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise error(f"{where}: a .json file must be a list of rows or an {{id: row}} object")
        return [(f"entry {i}", v) for i, v in enumerate(items, 1)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append((f"line {n}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise error(f"{where}: line {n} is not valid JSON: {exc.msg}") from exc
    return out


class TaskRow(BaseModel):
    """One task in the SWE-smith schema (SWE-bench rows also fit: `image_name` may be derived)."""

    model_config = ConfigDict(extra="allow")

    instance_id: str = Field(min_length=1)
    repo: str
    patch: str
    FAIL_TO_PASS: list[str]
    PASS_TO_PASS: list[str]
    image_name: str
    problem_statement: str | None = None

    @field_validator("FAIL_TO_PASS", "PASS_TO_PASS", mode="before")
    @classmethod
    def _lists(cls, v: Any, info: Any) -> list[str]:
        iid = (info.data or {}).get("instance_id", "?")
        return parse_test_list(v, instance_id=iid, field=info.field_name)


def swebench_image_name(instance_id: str) -> str:
    """The official SWE-bench eval image for an instance (`__` -> `_1776_`)."""
    return f"swebench/sweb.eval.x86_64.{instance_id.replace('__', '_1776_')}:latest".lower()
