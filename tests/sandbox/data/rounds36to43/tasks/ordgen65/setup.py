import os
os.makedirs(os.path.dirname('a23lib/ordinal.py') or '.', exist_ok=True)
open('a23lib/ordinal.py', 'w').write('"""English ordinals."""\n\n\ndef ordinal(n):\n    """1 -> \'1st\', 12 -> \'12th\', 23 -> \'23rd\'."""\n    if 10 <= n % 100 <= 20:\n        suffix = "th"\n    else:\n        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")\n    return f"{n}{suffix}"\n')
os.makedirs(os.path.dirname('tests/test_ordinal.py') or '.', exist_ok=True)
open('tests/test_ordinal.py', 'w').write('from a23lib.ordinal import ordinal\n\nCASES = [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),\n         (21, "21st"), (112, "112th")]\n\n\ndef pytest_generate_tests(metafunc):\n    if "want" in metafunc.fixturenames:\n        metafunc.parametrize("n,want", CASES)\n\n\ndef test_ordinal(n, want):\n    assert ordinal(n) == want\n')
