import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Terminal colours."""\nimport os\nimport sys\n\n\ndef use_color():\n    return True\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import use_color\n\n\ndef test_no_color_when_captured(capsys):\n    assert use_color() is False\n')
