import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""A tiny key-value cache."""\nimport sqlite3\n\n\nclass Cache:\n    def __init__(self, path):\n        self.db = sqlite3.connect(path)\n        self.db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT)")\n\n    def put(self, k, v):\n        self.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (k, v))\n        self.db.commit()\n\n    def get(self, k):\n        row = self.db.execute("SELECT v FROM kv WHERE k = ?", (k,)).fetchone()\n        return row[0] if row else None\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import Cache\n\n\ndef test_overwrite(tmp_path):\n    c = Cache(str(tmp_path / "c.db"))\n    c.put("a", "1")\n    c.put("a", "2")\n    assert c.get("a") == "2"\n')
