import os
os.makedirs(os.path.dirname('a23lib/ordinal.py') or '.', exist_ok=True)
open('a23lib/ordinal.py', 'w').write('"""English ordinals."""\n\n\ndef ordinal(n):\n    """1 -> \'1st\', 12 -> \'12th\', 103 -> \'103rd\'."""\n    if 10 <= n % 100 <= 20:\n        suffix = "th"\n    else:\n        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")\n    return f"{n}{suffix}"\n')
os.makedirs(os.path.dirname('tests/test_ordinal.py') or '.', exist_ok=True)
open('tests/test_ordinal.py', 'w').write('import pytest\n\nfrom a23lib.ordinal import ordinal\n\n\n@pytest.mark.parametrize("n,expected", [\n    (1, "1st"),\n    (2, "2nd"),\n    (11, "11th"),\n    (12, "12th"),\n    (13, "13th"),\n    (23, "23rd"),\n])\ndef test_ordinal(n, expected):\n    assert ordinal(n) == expected\n\n\ndef test_hundred():\n    assert ordinal(100) == "100th"\n')
