open("a23lib/cli.py", "w").write('''"""Command line entry point."""
import sys


def main(argv):
    """Print a greeting per name given; exit status 0."""
    for name in argv:
        print("Hello, %s!" % name)
    return 0
''')
open("tests/test_cli.py", "w").write('''from a23lib.cli import main


def test_greets(capsys):
    assert main(["Ann", "Bob"]) == 0
    out, err = capsys.readouterr()
    assert out == "Hello, Ann!\\nHello, Bob!\\n"
    assert err == ""


def test_no_names(capsys):
    assert main([]) == 0
''')
