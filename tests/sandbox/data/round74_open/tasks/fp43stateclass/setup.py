import os
os.makedirs(os.path.dirname('a23lib/conn.py') or '.', exist_ok=True)
open('a23lib/conn.py', 'w').write('"""A connection whose behaviour follows its state (the state pattern by class switch)."""\n\n\nclass Connection:\n    def __init__(self):\n        self.log = []\n\n    def open(self):\n        self.log.append("open")\n        self.__class__ = OpenConnection\n\n\nclass OpenConnection(Connection):\n    def open(self):\n        raise RuntimeError("already open")\n\n    def send(self, data):\n        self.log.append(data)\n')
os.makedirs(os.path.dirname('tests/test_fp43stateclass.py') or '.', exist_ok=True)
open('tests/test_fp43stateclass.py', 'w').write('import pytest\n\nfrom a23lib.conn import Connection\n\n\ndef test_open_then_send():\n    c = Connection()\n    c.open()\n    c.send("hi")\n    assert c.log == ["open", "hi"]\n    with pytest.raises(RuntimeError):\n        c.open()\n')
