open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words (letters and digits) joined by single dashes."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("a23lib/tools.py", "w").write('''"""Helpers that run external tools."""
import subprocess


def tool_output(args):
    """The standard output of an external tool, or "" if it cannot run."""
    try:
        return subprocess.run(args, capture_output=True, text=True, check=False, timeout=30).stdout
    except OSError:
        return ""


def tool_version(name):
    """The first line a tool prints for --version."""
    out = tool_output([name, "--version"])
    return out.splitlines()[0] if out else ""
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import slugify


@pytest.mark.parametrize("text, expected", [
    ("Hello World", "hello-world"),
    ("Route 66", "route-66"),
    ("Area 51 Files", "area-51-files"),
])
def test_slugify(text, expected):
    assert slugify(text) == expected


def test_empty():
    assert slugify("  ") == ""
''')
