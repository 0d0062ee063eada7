open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words (letters and digits) joined by single dashes."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("a23lib/slugcli.py", "w").write('''"""`python -m a23lib.slugcli TEXT...` prints the slug."""
import sys

from a23lib.slug import slugify


def main(argv):
    print(slugify(" ".join(argv)))


if __name__ == "__main__":
    main(sys.argv[1:])
''')
open("tests/test_slug.py", "w").write('''from a23lib.slug import slugify


def test_words():
    assert slugify("Hello World") == "hello-world"
''')
open("tests/test_cli.py", "w").write('''import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(*args):
    proc = subprocess.run([sys.executable, "-m", "a23lib.slugcli", *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_plain():
    assert run("hello", "world") == "hello-world"


def test_digits():
    assert run("Hello", "World 42") == "hello-world-42"
''')
