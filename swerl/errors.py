"""User-facing errors: the CLI prints their message and exits non-zero, no traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from swerl.log import configure


class SwerlError(Exception):
    """A problem the user can fix (bad flag, bad row, missing file); the message names it."""


class ConfigError(SwerlError):
    """A recipe or override is invalid; the message names the key."""


class DataError(SwerlError):
    """Input data is malformed; the message names the row (instance_id) and field."""


class ImageUnavailable(SwerlError):
    """A task image (or its stand-in) cannot be inspected: its rows are dropped as `image_unavailable` by the data
    filter; raised by the sandbox room's docker inventory as well, so it lives below both."""


def run_room_cli(app: Callable[..., Any], prog_name: str) -> None:
    """`python -m swerl.<room> ...`: run one room's Typer app without loading the other rooms' commands; a
    `SwerlError` prints `error: <message>` on stderr and exits 2, no traceback."""
    configure()
    try:
        app(prog_name=prog_name)
    except SwerlError as exc:
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
