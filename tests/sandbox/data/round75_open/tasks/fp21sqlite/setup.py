import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Counting rows."""\n\n\ndef count_rows(path, table):\n    return 0\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import sqlite3\n\nfrom a23lib.m import count_rows\n\n\ndef test_count(tmp_path):\n    p = str(tmp_path / "d.db")\n    db = sqlite3.connect(p)\n    db.execute("CREATE TABLE t (x)")\n    db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])\n    db.commit()\n    db.close()\n    assert count_rows(p, "t") == 2\n')
