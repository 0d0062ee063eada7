import os
os.makedirs(os.path.dirname('a23lib/strops.py') or '.', exist_ok=True)
open('a23lib/strops.py', 'w').write('"""Apply a named string operation to each item."""\nimport operator\n\nALLOWED = {"upper", "lower", "title", "strip"}\n\n\ndef apply_all(items, op):\n    if op not in ALLOWED:\n        raise ValueError(op)\n    return list(map(operator.methodcaller(op), items))\n')
os.makedirs(os.path.dirname('tests/test_fp29methodcaller.py') or '.', exist_ok=True)
open('tests/test_fp29methodcaller.py', 'w').write('from a23lib.strops import apply_all\n\n\ndef test_title():\n    assert apply_all(["ann lee", "bo"], "title") == ["Ann Lee", "Bo"]\n\n\ndef test_upper():\n    assert apply_all(["a"], "upper") == ["A"]\n')
