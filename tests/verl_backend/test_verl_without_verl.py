"""Without verl installed (the main .venv) the verl backend is a clear config error, raised
before any work. Collected only where verl is absent (see conftest.py)."""

from __future__ import annotations

import pytest

from swerl.config import load_recipe
from swerl.errors import ConfigError


def test_backend_without_verl_is_a_config_error_before_any_work() -> None:
    from swerl.train.backends.verl.backend import VerlBackend

    with pytest.raises(ConfigError, match=r"needs verl 0\.9\.x"):
        VerlBackend(load_recipe("qwen9b"))
