exec(open(__import__("pathlib").Path(__file__).resolve().parents[2] / "common_slug.py").read())
script("bin/a23slug", PYCLI)
open("tests/test_cli.py", "w").write('''import os
import pathlib
import shlex

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run(tmp_path, *args):
    out = tmp_path / "out.txt"
    rc = os.system(f"{ROOT}/bin/a23slug {shlex.join(args)} > {out}")
    assert rc == 0
    return out.read_text().strip()


def test_plain(tmp_path):
    assert run(tmp_path, "hello", "world") == "hello-world"


def test_caps(tmp_path):
    assert run(tmp_path, "Hello", "World 42") == "hello-world-42"
''')
