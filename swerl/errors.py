"""User-facing errors: the CLI prints their message and exits non-zero, no traceback."""


class SwerlError(Exception):
    """A problem the user can fix (bad flag, bad row, missing file); the message names it."""


class ConfigError(SwerlError):
    """A recipe or override is invalid; the message names the key."""


class DataError(SwerlError):
    """Input data is malformed; the message names the row (instance_id) and field."""


class ImageUnavailable(SwerlError):
    """A task image (or its stand-in) cannot be inspected: its rows are dropped as `image_unavailable` by the data
    filter; raised by the sandbox room's docker inventory as well, so it lives below both."""
