"""Shared fixtures for the RL core tests: real tokenizers built once per session into a private cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

torch.set_num_threads(2)


@pytest.fixture(scope="session")
def tok_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh cache dir, so every session exercises the real tokenizer builds (not a stale cache).

    Laid out like the default (`$SWERL_CACHE_DIR/tokenizers`) so subprocesses can share it."""
    path = tmp_path_factory.mktemp("swerl-cache") / "tokenizers"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def qwen_tok(tok_cache: Path) -> Any:
    from swerl.models import build_qwen_tokenizer

    return build_qwen_tokenizer(tok_cache)


@pytest.fixture(scope="session")
def tiny_tok(tok_cache: Path) -> Any:
    from swerl.models import build_tiny_tokenizer

    return build_tiny_tokenizer(tok_cache)
