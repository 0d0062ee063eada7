exec(open(__import__("pathlib").Path(__file__).resolve().parents[2] / "common_slug.py").read())
open("a23lib/cli.py", "w").write('''"""`python -m a23lib.cli TEXT...` prints the slug."""
import sys

from a23lib.slug import slugify

print(slugify(" ".join(sys.argv[1:])))
''')
# the usual source-checkout wrapper: run the package from this checkout, whatever is installed
script("bin/a23slug", '''#!/bin/sh
root=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH="$root" exec python3 -m a23lib.cli "$@"
''')
open("tests/test_cli.py", "w").write('''import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([str(ROOT / "bin" / "a23slug"), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_plain():
    assert run("hello", "world") == "hello-world"


def test_caps():
    assert run("Hello", "World 42") == "hello-world-42"
''')
