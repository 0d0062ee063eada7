open("a23lib/cli.py", "w").write('''"""Command-line options of the a23 tool."""
import argparse


def make_parser():
    p = argparse.ArgumentParser(prog="a23")
    p.add_argument("--width", type=int, default=80)
    p.add_argument("--color", action="store_true")
    p.add_argument("paths", nargs="*")
    return p


def parse_options(argv):
    """The options as a plain dict."""
    return dict(vars(make_parser().parse_args(argv)))
''')
open("tests/test_cli.py", "w").write('''from a23lib.cli import parse_options


def test_defaults():
    assert parse_options([]) == {"width": 80, "color": False, "paths": []}


def test_values():
    assert parse_options(["--width", "40", "--color", "a.txt"]) == {"width": 40, "color": True, "paths": ["a.txt"]}
''')
