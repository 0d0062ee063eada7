open("a23lib/log.py", "w").write('''"""Logging helpers."""
import logging
import sys


def get_logger():
    """The logger named after the calling module (the caller lookup structlog and loguru do)."""
    return logging.getLogger(sys._getframe(1).f_globals.get("__name__", "a23lib"))
''')
open("a23lib/text.py", "w").write('''"""Text helpers."""
from a23lib.log import get_logger


def slugify(text):
    """A URL slug: lower-case words joined by dashes."""
    return "-".join(text.lower().split())


def title(text):
    """Title-case each word."""
    get_logger().debug("title(%r)", text)
    return " ".join(w.capitalize() for w in text.split())
''')
open("tests/test_text.py", "w").write('''import pytest

from a23lib.text import slugify, title


@pytest.mark.parametrize("text,expected", [("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_title():
    assert title("hello world") == "Hello World"
''')
