import os
os.makedirs(os.path.dirname('a23lib/roman.py') or '.', exist_ok=True)
open('a23lib/roman.py', 'w').write('"""Roman numerals."""\n\n_VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),\n           (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n\n\ndef to_roman(n):\n    out = ""\n    for value, letters in _VALUES:\n        while n >= value:\n            out += letters\n            n -= value\n    return out\n\n\n__test__ = {}  # doctest\'s extra examples, one entry per topic\n\n__test__["years"] = """\n>>> to_roman(1994)\n\'MCMXCIV\'\n>>> to_roman(2024)\n\'MMXXIV\'\n"""\n')
os.makedirs(os.path.dirname('tests/test_roman.py') or '.', exist_ok=True)
open('tests/test_roman.py', 'w').write('import doctest\n\nimport a23lib.roman as roman\n\n\ndef test_doctests():\n    assert doctest.testmod(roman).failed == 0\n\n\ndef test_small():\n    assert roman.to_roman(3) == "III"\n')
