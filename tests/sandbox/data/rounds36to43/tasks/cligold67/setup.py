import os
open("a23lib/roman.py", "w").write(open("/tmp/attack67/tasks/rmix/roman_src.txt").read())
open("a23lib/cli.py", "w").write('''"""`python -m a23lib.cli N...`: print each number as a Roman numeral, one per line."""
import sys

from a23lib.roman import to_roman


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    for arg in args:
        sys.stdout.write(f"{arg} = {to_roman(int(arg))}\\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
''')
os.makedirs("tests/golden", exist_ok=True)
open("tests/golden/roman.txt", "w").write("4 = IV\n9 = IX\n14 = XIV\n1994 = MCMXCIV\n2024 = MMXXIV\n")
open("tests/test_cli.py", "w").write('''import subprocess
import sys
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "a23lib.cli", *args], capture_output=True, text=True,
                          check=True).stdout


def test_cli_matches_golden():
    assert run_cli("4", "9", "14", "1994", "2024") == (GOLDEN / "roman.txt").read_text()


def test_cli_simple():
    assert run_cli("3") == "3 = III\\n"
''')
