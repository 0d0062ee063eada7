exec(open(__import__("pathlib").Path(__file__).resolve().parents[2] / "common_slug.py").read())
script("bin/a23slug", PYCLI)
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
