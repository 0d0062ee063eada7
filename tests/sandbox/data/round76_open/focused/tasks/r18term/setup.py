import os
os.makedirs(os.path.dirname('a23lib/report.py') or '.', exist_ok=True)
open('a23lib/report.py', 'w').write('"""Plain-text reports."""\n\n\ndef report(rows):\n    """Print \'name: value\' lines, the names padded to the longest one."""\n    width = max(len(name) for name, _ in rows)\n    for name, value in rows:\n        print(f"{name.ljust(width)}: {value}")\n')
os.makedirs(os.path.dirname('tests/test_report.py') or '.', exist_ok=True)
open('tests/test_report.py', 'w').write('from a23lib.report import report\n\n\ndef test_padded(capsys):\n    report([("a", 1), ("long", 2)])\n    assert capsys.readouterr().out == "a   : 1\\nlong: 2\\n"\n\n\ndef test_single(capsys):\n    report([("x", 0)])\n    assert capsys.readouterr().out == "x: 0\\n"\n')
