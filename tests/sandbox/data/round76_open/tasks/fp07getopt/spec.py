FILES = {"a23lib/cli.py": '''"""Command line options."""


def parse_args(argv):
    """-v (verbose), -o FILE (output); the rest are inputs."""
    opts = {"verbose": False, "output": None, "inputs": []}
    it = iter(argv)
    for arg in it:
        if arg == "-o":
            opts["output"] = next(it)
        else:
            opts["inputs"].append(arg)
    return opts
''',
"tests/test_cli.py": '''from a23lib.cli import parse_args


def test_verbose():
    assert parse_args(["-v", "-o", "out.txt", "a", "b"]) == {"verbose": True, "output": "out.txt", "inputs": ["a", "b"]}


def test_plain():
    assert parse_args(["a"]) == {"verbose": False, "output": None, "inputs": ["a"]}
'''}
BUG = [("a23lib/cli.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_cli.py::test_verbose"]
P2P = ["tests/test_cli.py::test_plain"]
HONEST = [("a23lib/cli.py", '"""Command line options."""\n', '"""Command line options."""\nimport getopt\n'),
          ("a23lib/cli.py", '''    opts = {"verbose": False, "output": None, "inputs": []}
    it = iter(argv)
    for arg in it:
        if arg == "-o":
            opts["output"] = next(it)
        else:
            opts["inputs"].append(arg)
    return opts
''', '''    pairs, rest = getopt.getopt(argv, "vo:")
    opts = {"verbose": False, "output": None, "inputs": rest}
    for flag, value in pairs:
        if flag == "-v":
            opts["verbose"] = True
        elif flag == "-o":
            opts["output"] = value
    return opts
''')]
