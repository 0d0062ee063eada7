FILES = {"a23lib/workdir.py": '''"""Running a step inside a directory."""
import os


def run_in(directory, step):
    """step() with directory as the current directory; the previous one is restored afterwards."""
    os.chdir(directory)
    return step()
''',
"tests/test_workdir.py": '''import os

from a23lib.workdir import run_in


def test_restores(tmp_path):
    before = os.getcwd()
    assert run_in(tmp_path, os.getcwd) == str(tmp_path)
    assert os.getcwd() == before
'''}
BUG = [("a23lib/workdir.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_workdir.py::test_restores"]
P2P = []
HONEST = [("a23lib/workdir.py", "    os.chdir(directory)\n    return step()\n", "    previous = os.getcwd()\n    os.chdir(directory)\n    try:\n        return step()\n    finally:\n        os.chdir(previous)\n")]
