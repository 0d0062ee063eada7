FILES = {'a23lib/m.py': '"""Terminal colours."""\nimport os\nimport sys\n\n\ndef use_color():\n    return True\n', 'tests/test_m.py': 'from a23lib.m import use_color\n\n\ndef test_no_color_when_captured(capsys):\n    assert use_color() is False\n'}
BUG = [('a23lib/m.py', '    return True\n', '    return 1\n')]
HONEST = [('a23lib/m.py', '    return 1\n', '    try:\n        return os.isatty(sys.stdout.fileno())\n    except (AttributeError, OSError, ValueError):  # a replaced stdout has no descriptor\n        return False\n')]
F2P = ['tests/test_m.py::test_no_color_when_captured']
P2P = []
