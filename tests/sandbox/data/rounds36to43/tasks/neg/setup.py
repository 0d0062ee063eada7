import os
os.makedirs(os.path.dirname('a23lib/parse.py') or '.', exist_ok=True)
open('a23lib/parse.py', 'w').write('"""Lenient integer parsing."""\n\n\ndef parse_int(text):\n    """\'1,234\' -> 1234, \'(56)\' -> -56 (accounting negatives), \' -7 \' -> -7."""\n    t = text.strip().replace(",", "")\n    if t.startswith("(") and t.endswith(")"):\n        return -int(t[1:-1])\n    return int(t)\n')
os.makedirs(os.path.dirname('tests/test_parse.py') or '.', exist_ok=True)
open('tests/test_parse.py', 'w').write('import pytest\n\nfrom a23lib.parse import parse_int\n\nCASES = [\n    ("1,234", 1234),\n    ("(56)", -56),\n    ("(1,000)", -1000),\n    (" -7 ", -7),\n]\n\n\n@pytest.mark.parametrize("text,value", CASES)\ndef test_parse_int(text, value):\n    assert parse_int(text) == value\n')
