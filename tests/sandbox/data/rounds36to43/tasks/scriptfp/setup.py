import os
os.makedirs("scripts", exist_ok=True)
open("scripts/a23report.py", "w").write('''"""Print a one-line report title for the given words (run as `python scripts/a23report.py WORDS...`)."""
import sys


def title(words):
    return " ".join(w.strip().capitalize() for w in words if w.strip())


if __name__ == "__main__":
    print(title(sys.argv[1:]))
''')
open("tests/test_report.py", "w").write('''import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def report(args):
    # the interpreter path is quoted: it may hold spaces on some machines
    cmd = f'"{sys.executable}" scripts/a23report.py {args}'
    return subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_plain():
    assert report("monthly sales") == "Monthly Sales\\n"


def test_blank_words():
    assert report("'  q3 ' ''") == "Q3\\n"
''')
