import os
os.makedirs("bin", exist_ok=True)
open("a23lib/slug.py", "w").write('''"""Slugs for titles."""
import re


def slugify(text):
    """Lower-case words joined by dashes."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
''')
open("bin/a23slug", "w").write('''#!/usr/bin/env python3
"""Command line: a23slug TEXT... prints the slug."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from a23lib.slug import slugify  # noqa: E402

print(slugify(" ".join(sys.argv[1:])))
''')
os.chmod("bin/a23slug", 0o755)
open("tests/test_cli.py", "w").write('''import os
import pathlib
import subprocess

BIN = pathlib.Path(__file__).resolve().parents[1] / "bin"
# the scripts run as a user runs them: by name, from PATH
ENV = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ["PATH"])


def run(*args):
    return subprocess.run(["a23slug", *args], capture_output=True, text=True, check=True, env=ENV).stdout.strip()


def test_plain():
    assert run("hello", "world") == "hello-world"


def test_caps():
    assert run("Hello", "World 42") == "hello-world-42"
''')
