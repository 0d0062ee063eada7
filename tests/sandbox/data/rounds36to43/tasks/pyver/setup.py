open("a23lib/pyver.py", "w").write('''"""Versions of Python interpreters (the one running, or another one on disk)."""
import subprocess
import sys


def parse_version(text):
    """`Python 3.11.2` -> (3, 11, 2); a release-candidate suffix is ignored (`3.12.0rc1` -> (3, 12, 0))."""
    number = text.split()[1]
    parts = []
    for piece in number.split(".")[:3]:
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        parts.append(int(digits))
    return tuple(parts)


def interpreter_version(executable=sys.executable):
    """The version of the interpreter at `executable`, asked by running it."""
    out = subprocess.run([executable, "--version"], capture_output=True, text=True, check=True)
    return parse_version(out.stdout or out.stderr)
''')
open("tests/test_pyver.py", "w").write('''import sys

from a23lib.pyver import interpreter_version, parse_version


def test_parse():
    assert parse_version("Python 3.12.0rc1") == (3, 12, 0)


def test_running_interpreter():
    assert interpreter_version() == tuple(sys.version_info[:3])
''')
