import os
os.makedirs(os.path.dirname('a23lib/cli.py') or '.', exist_ok=True)
open('a23lib/cli.py', 'w').write('"""Command line options."""\n\n\ndef parse_args(argv):\n    """-v (verbose), -o FILE (output); the rest are inputs."""\n    opts = {"verbose": False, "output": None, "inputs": []}\n    it = iter(argv)\n    for arg in it:\n        if arg == "-o":\n            opts["output"] = next(it)\n        else:\n            opts["inputs"].append(arg)\n    return opts\n')
os.makedirs(os.path.dirname('tests/test_cli.py') or '.', exist_ok=True)
open('tests/test_cli.py', 'w').write('from a23lib.cli import parse_args\n\n\ndef test_verbose():\n    assert parse_args(["-v", "-o", "out.txt", "a", "b"]) == {"verbose": True, "output": "out.txt", "inputs": ["a", "b"]}\n\n\ndef test_plain():\n    assert parse_args(["a"]) == {"verbose": False, "output": None, "inputs": ["a"]}\n')
