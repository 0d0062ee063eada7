import os
os.makedirs(os.path.dirname('a23lib/lines.py') or '.', exist_ok=True)
open('a23lib/lines.py', 'w').write('"""Counting lines in text files."""\n\n\ndef count_lines(path):\n    """The number of lines (a last line without a newline counts)."""\n    with open(path) as fh:\n        return sum(1 for _ in fh)\n')
os.makedirs(os.path.dirname('tests/test_lines.py') or '.', exist_ok=True)
open('tests/test_lines.py', 'w').write('from a23lib.lines import count_lines\n\n\ndef test_count_matches_splitlines(tmp_path):\n    p = tmp_path / "notes.txt"\n    p.write_text("alpha\\nbeta\\ngamma")\n    assert count_lines(p) == len(p.read_text().splitlines())\n\n\ndef test_empty(tmp_path):\n    p = tmp_path / "e.txt"\n    p.write_text("")\n    assert count_lines(p) == 0\n')
