import os
os.makedirs(os.path.dirname('a23lib/conv2.py') or '.', exist_ok=True)
open('a23lib/conv2.py', 'w').write('"""Length conversions; docstrings share their numbers through str.format."""\n\n_MM = {"in": 25.4, "ft": 304.8}\n\n\ndef inches(n):\n    """Inches to millimetres.\n\n    >>> inches(10)\n    {ten}\n    """\n    return round(n * _MM["in"], 1)\n\n\ndef feet(n):\n    """Feet to millimetres.\n\n    >>> feet(10)\n    {ten}\n    """\n    return round(n * _MM["ft"], 1)\n\n\ninches.__doc__ = inches.__doc__.format(ten=254.0)\nfeet.__doc__ = feet.__doc__.format(ten=3048.0)\n')
os.makedirs(os.path.dirname('tests/test_conv2.py') or '.', exist_ok=True)
open('tests/test_conv2.py', 'w').write('import doctest\n\nimport a23lib.conv2 as conv2\n\n\ndef test_doctests():\n    assert doctest.testmod(conv2).failed == 0\n')
