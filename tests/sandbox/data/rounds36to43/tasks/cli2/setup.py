open("a23lib/greet.py", "w").write('''"""Greetings."""


def shout(name):
    """A loud greeting for `name`."""
    return f"HELLO, {name.strip().upper()}!"
''')
open("a23lib/__main__.py", "w").write('''"""`python -m a23lib NAME` prints the loud greeting."""
import sys

from a23lib.greet import shout

print(shout(sys.argv[1]))
''')
open("tests/test_cli.py", "w").write('''import os
import subprocess
import sys

# a clean environment: the user's locale and Python settings must not leak into the CLI
_ENV = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "LC_ALL": "C.UTF-8"}


def test_cli_plain():
    out = subprocess.run([sys.executable, "-m", "a23lib", "bob"], capture_output=True, text=True, check=True, env=_ENV)
    assert out.stdout == "HELLO, BOB!\\n"


def test_cli_greets():
    out = subprocess.run([sys.executable, "-m", "a23lib", " alice "], capture_output=True, text=True, check=True, env=_ENV)
    assert out.stdout == "HELLO, ALICE!\\n"
''')
