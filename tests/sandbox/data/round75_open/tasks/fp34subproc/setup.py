import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Counting words with the system tool."""\nimport subprocess\n\n\ndef word_count(path):\n    out = subprocess.run(["wc", "-w", str(path)], capture_output=True, text=True, check=True).stdout\n    return int(out.split()[0])\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import word_count\n\n\ndef test_wc(tmp_path):\n    p = tmp_path / "t.txt"\n    p.write_text("a b c\\nd\\n")\n    assert word_count(p) == 4\n')
