"""Parameters and report of `swerl data filter`: one pydantic schema for the CLI, tests and recipes.
Reason names and `kept` categories are the contract with later stages, listed here once."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_DATASET = "SWE-bench/SWE-smith"

# Drop reasons, in pipeline order (a row gets the reason of the first stage that drops it).
BAD_ROW = "bad_row"
EMPTY_PROBLEM_STATEMENT = "empty_problem_statement"
IMAGE_UNAVAILABLE = "image_unavailable"
MISSING_BRANCH = "missing_branch"
TOO_MANY_TESTS = "too_many_tests"
NOT_PROBED = "not_probed"
TOO_EASY = "too_easy"
ALL_FAIL_UNSAMPLED = "all_fail_unsampled"

STATIC_REASONS = (EMPTY_PROBLEM_STATEMENT, IMAGE_UNAVAILABLE, MISSING_BRANCH, TOO_MANY_TESTS)
PROBE_REASONS = (NOT_PROBED, TOO_EASY, ALL_FAIL_UNSAMPLED)

# Kept categories.
STATIC = "static"
MIXED = "mixed"
ALL_FAIL = "all_fail"

InspectMode = Literal["docker", "local", "none"]
OnBadRow = Literal["error", "skip"]


class FilterParams(BaseModel):
    """Everything that decides the output of one filter run; `report_params()` is what lands in report.json."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: str = DEFAULT_DATASET
    split: str = "train"
    out: Path
    max_tests: int = Field(200, ge=0)
    attempts: int = Field(4, ge=1)
    all_fail_keep: int = Field(1000, ge=0)
    test_size: int = Field(400, ge=0)
    seed: int = 0
    on_bad_row: OnBadRow = "error"
    # Branch inventory: a JSON file and/or inspection; `None` = inspection chosen from the other flags.
    branches: Path | None = None
    inspect: InspectMode | None = None
    repos: Path | None = None
    cache_dir: Path | None = None
    probe_results: Path | None = None
    num_proc: int | None = Field(None, ge=1)

    def report_params(self) -> dict[str, Any]:
        """The parameters that decide the output (not where it goes or how fast), so reruns compare equal."""
        data = self.model_dump(mode="json", exclude={"out", "cache_dir", "num_proc"})
        data["inspect"] = self.resolved_inspect() or "none"
        return data

    def resolved_inspect(self) -> InspectMode | None:
        """`--inspect` defaulted from the other flags: `--repos` means local; else only `--branches` (None)."""
        if self.inspect is not None:
            return self.inspect
        if self.repos is not None:
            return "local"
        return None


class FilterReport(BaseModel):
    """`report.json`: counts per drop reason and kept category, split sizes, and the deciding params."""

    model_config = ConfigDict(extra="forbid")

    input: int
    dropped: dict[str, int]
    kept: dict[str, int]
    splits: dict[str, int]
    params: dict[str, Any]
