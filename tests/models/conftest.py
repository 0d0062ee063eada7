"""Fixtures for the model/tokenizer tests: Qwen3.5's real tokenizer, built offline once per machine."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def qwen35_tok() -> Any:
    """Built into swerl's default cache (keyed by a hash of every build input, so never stale): the first session
    pays the ~15-30 s build, later ones load it in ~2 s."""
    from swerl.models import build_qwen35_tokenizer

    return build_qwen35_tokenizer()
