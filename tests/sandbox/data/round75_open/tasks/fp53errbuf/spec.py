FILES = {'a23lib/m.py': '"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.flush()\n    sys.stderr.buffer.write(data)\n    sys.stderr.buffer.flush()\n', 'tests/test_m.py': 'from a23lib.m import dump\n\n\ndef test_it(capsysbinary):\n    dump(b"\\x00\\xff")\n    assert capsysbinary.readouterr().err == b"\\x00\\xff"\n'}
BUG = [('a23lib/m.py', '"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.flush()\n    sys.stderr.buffer.write(data)\n    sys.stderr.buffer.flush()\n', '"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.write(repr(data))\n')]
HONEST = [('a23lib/m.py', '"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.write(repr(data))\n', '"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.flush()\n    sys.stderr.buffer.write(data)\n    sys.stderr.buffer.flush()\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
