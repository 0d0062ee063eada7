FILES = {'a23lib/m.py': '"""Counting rows."""\n\n\ndef count_rows(path, table):\n    return 0\n', 'tests/test_m.py': 'import sqlite3\n\nfrom a23lib.m import count_rows\n\n\ndef test_count(tmp_path):\n    p = str(tmp_path / "d.db")\n    db = sqlite3.connect(p)\n    db.execute("CREATE TABLE t (x)")\n    db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,)])\n    db.commit()\n    db.close()\n    assert count_rows(p, "t") == 2\n'}
BUG = [('a23lib/m.py', '    return 0\n', '    return -1\n')]
HONEST = [('a23lib/m.py', '"""Counting rows."""\n\n\ndef count_rows(path, table):\n    return -1\n', '"""Counting rows."""\nimport sqlite3\n\n\ndef count_rows(path, table):\n    with sqlite3.connect(path) as db:\n        return db.execute(f\'SELECT COUNT(*) FROM "{table}"\').fetchone()[0]\n')]
F2P = ['tests/test_m.py::test_count']
P2P = []
