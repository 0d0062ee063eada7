import os
os.makedirs(os.path.dirname('a23lib/ingest.py') or '.', exist_ok=True)
open('a23lib/ingest.py', 'w').write('"""Loading records from text lines."""\n\n\ndef load(lines, db):\n    """Store each non-blank `key=value` line in db; return how many lines were stored."""\n    n = 0\n    for line in lines:\n        if not line.strip():\n            continue\n        key, _, value = line.partition("=")\n        db[key.strip()] = value.strip()\n        n += 1\n    return n\n')
os.makedirs(os.path.dirname('tests/test_ingest.py') or '.', exist_ok=True)
open('tests/test_ingest.py', 'w').write('from a23lib.ingest import load\n\n\ndef test_load_counts():\n    lines = ["a=1", "b = 2", "c=3"]\n    db = {}\n    assert load(lines, db) == len(lines)\n    assert db["b"] == "2"\n    assert db == {"a": "1", "b": "2", "c": "3"}\n')
