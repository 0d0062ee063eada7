"""Shared run directories for the viewer's tests: one training run and two eval runs (with a comparison),
built once per worker by the real writers (bench/view_runs.py); every view test shares one xdist group."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from view_runs import make_eval_pair, make_train_run


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/view/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.xdist_group("view"))


@dataclass
class Runs:
    train: Path
    eval_a: Path
    eval_b: Path
    truth: dict[str, Any]
    tokenizer: Any


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    from swerl.models import load_tokenizer

    base = tmp_path_factory.mktemp("view-runs")
    tok = load_tokenizer("tiny-bpe")
    truth = make_train_run(base / "train", tok)
    a, b = make_eval_pair(base)
    yield Runs(base / "train", a, b, truth, tok)
