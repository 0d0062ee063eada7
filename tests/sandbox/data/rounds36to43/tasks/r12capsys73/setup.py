import os
os.makedirs(os.path.dirname('a23lib/table.py') or '.', exist_ok=True)
open('a23lib/table.py', 'w').write('"""Printing small tables."""\nimport sys\n\n\ndef print_table(rows, stream=None):\n    """Print rows as left-aligned columns separated by two spaces."""\n    stream = stream or sys.stdout\n    if not rows:\n        return\n    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]\n    for r in rows:\n        stream.write("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() + "\\n")\n')
os.makedirs(os.path.dirname('tests/test_table.py') or '.', exist_ok=True)
open('tests/test_table.py', 'w').write('from a23lib.table import print_table\n\n\ndef test_table(capsys):\n    print_table([("name", "qty"), ("apple", 3), ("fig", 12)])\n    assert capsys.readouterr().out == "name   qty\\napple  3\\nfig    12\\n"\n\n\ndef test_empty(capsys):\n    print_table([])\n    assert capsys.readouterr().out == ""\n')
