import os
open("a23lib/roman.py", "w").write('"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n')
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
