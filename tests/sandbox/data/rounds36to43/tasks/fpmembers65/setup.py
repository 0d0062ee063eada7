import os
os.makedirs(os.path.dirname('a23lib/cli.py') or '.', exist_ok=True)
open('a23lib/cli.py', 'w').write('"""Command discovery: every public method of a handler object is a command."""\nimport inspect\n\n\ndef commands(handler):\n    """Sorted names of the handler\'s public methods."""\n    return sorted(name for name, _ in inspect.getmembers(handler, inspect.ismethod) if not name.startswith("_"))\n')
os.makedirs(os.path.dirname('tests/test_cli.py') or '.', exist_ok=True)
open('tests/test_cli.py', 'w').write('from a23lib.cli import commands\n\n\nclass Handler:\n    verbose = True\n\n    def build(self):\n        pass\n\n    def clean(self):\n        pass\n\n    def _helper(self):\n        pass\n\n\ndef test_commands():\n    assert commands(Handler()) == ["build", "clean"]\n')
