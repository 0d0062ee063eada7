import os
os.makedirs(os.path.dirname('a23lib/table.py') or '.', exist_ok=True)
open('a23lib/table.py', 'w').write('"""Printing tables."""\nimport sys\n\n\ndef print_table(rows):\n    width = max((len(r[0]) for r in rows), default=0)\n    sys.stdout.writelines(f"{name.ljust(width)}  {value}\\n" for name, value in rows)\n')
os.makedirs(os.path.dirname('tests/test_table.py') or '.', exist_ok=True)
open('tests/test_table.py', 'w').write('from a23lib.table import print_table\n\n\ndef test_aligned(capsys):\n    print_table([("a", 1), ("bbb", 2)])\n    assert capsys.readouterr().out == "a    1\\nbbb  2\\n"\n')
