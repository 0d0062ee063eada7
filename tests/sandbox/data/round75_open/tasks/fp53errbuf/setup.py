import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Binary diagnostics."""\nimport sys\n\n\ndef dump(data):\n    sys.stderr.flush()\n    sys.stderr.buffer.write(data)\n    sys.stderr.buffer.flush()\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import dump\n\n\ndef test_it(capsysbinary):\n    dump(b"\\x00\\xff")\n    assert capsysbinary.readouterr().err == b"\\x00\\xff"\n')
