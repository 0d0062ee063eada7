import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""A connection pool."""\n\n\nclass Connection:\n    def __init__(self, host):\n        self.host = host\n        self.open = True\n\n\nclass Pool:\n    def __init__(self, host):\n        self.host = host\n\n    def acquire(self):\n        return Connection(self.host)  # a fresh connection each time\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import Pool\n\n\ndef test_each_acquire_is_its_own_connection():\n    pool = Pool("db")\n    conns = [pool.acquire() for _ in range(3)]\n    assert len(set(conns)) == 3\n')
