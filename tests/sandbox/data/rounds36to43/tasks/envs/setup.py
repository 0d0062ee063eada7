import os
os.makedirs("bin", exist_ok=True)
open("a23lib/words.py", "w").write('''"""Word helpers."""
import re


def words(text):
    return re.findall(r"[A-Za-z0-9]+", text)
''')
# unbuffered output through `env -S` (coreutils >= 8.30): a common shebang for CLI tools that stream
open("bin/a23count", "w").write('''#!/usr/bin/env -S python3 -u
"""Command line: a23count TEXT... prints how many words."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from a23lib.words import words  # noqa: E402


def main(argv):
    return len(words(" ".join(argv)))


print(main(sys.argv[1:]))
''')
os.chmod("bin/a23count", 0o755)
open("tests/test_count.py", "w").write('''import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([str(ROOT / "bin" / "a23count"), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_count_empty():
    assert run() == "0"


def test_count():
    assert run("a b", "c") == "3"
''')
