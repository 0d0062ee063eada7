import os
os.makedirs(os.path.dirname('a23lib/describe.py') or '.', exist_ok=True)
open('a23lib/describe.py', 'w').write('"""Describe callables for a help screen."""\nimport inspect\n\n\ndef describe(func):\n    """The first line of the docstring, else the first line of the source."""\n    doc = inspect.getdoc(func)\n    if doc:\n        return doc.splitlines()[0]\n    return inspect.getsource(func).strip().splitlines()[0]\n')
os.makedirs(os.path.dirname('tests/test_fp52getsource.py') or '.', exist_ok=True)
open('tests/test_fp52getsource.py', 'w').write('from a23lib.describe import describe\n\n\ndef documented():\n    """Adds things."""\n\n\ndef bare():\n    return 1\n\n\ndef test_doc():\n    assert describe(documented) == "Adds things."\n\n\ndef test_bare_shows_signature():\n    assert describe(bare) == "def bare():"\n')
