import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Pretty XML."""\n\n\ndef pretty(xml):\n    return xml\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import pretty\n\n\ndef test_indented():\n    assert pretty("<a><b/></a>").splitlines()[1:3] == ["<a>", "  <b/>"]\n')
