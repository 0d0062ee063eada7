import os
os.makedirs("bin", exist_ok=True)
open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by single dashes."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("bin/a23slug", "w").write('''#!/usr/bin/env python3
"""Command line: a23slug TEXT... prints the slug."""
import sys

from a23lib.slug import slugify

print(slugify(" ".join(sys.argv[1:])))
''')
os.chmod("bin/a23slug", 0o755)
open("tests/test_cli.py", "w").write('''import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([str(ROOT / "bin" / "a23slug"), *args], capture_output=True, text=True, env=env,
                         check=True)
    return out.stdout.strip()


def test_slug_cli():
    assert run("Hello,", "World  2026!") == "hello-world-2026"


def test_single():
    assert run("abc") == "abc"
''')
