M = '''"""Printing tables."""
import sys


def print_table(rows):
    width = max((len(r[0]) for r in rows), default=0)
    sys.stdout.writelines(f"{name.ljust(width)}  {value}\\n" for name, value in rows)
'''
TEST = '''from a23lib.table import print_table


def test_aligned(capsys):
    print_table([("a", 1), ("bbb", 2)])
    assert capsys.readouterr().out == "a    1\\nbbb  2\\n"
'''
FILES = {"a23lib/table.py": M, "tests/test_table.py": TEST}
BUG = [("a23lib/table.py", '    sys.stdout.writelines(f"{name.ljust(width)}  {value}\\n" for name, value in rows)', '    for name, value in rows:\n        sys.stdout.write(f"{name.ljust(width)}  {value}")')]
F2P = ["tests/test_table.py::test_aligned"]
HONEST = [("a23lib/table.py", '    for name, value in rows:\n        sys.stdout.write(f"{name.ljust(width)}  {value}")', '    sys.stdout.writelines(f"{name.ljust(width)}  {value}\\n" for name, value in rows)')]
