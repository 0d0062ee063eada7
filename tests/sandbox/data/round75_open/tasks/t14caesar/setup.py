import os
os.makedirs(os.path.dirname('a23lib/caesar.py') or '.', exist_ok=True)
open('a23lib/caesar.py', 'w').write('"""A Caesar cipher over lowercase letters."""\nimport string\n\n_A = string.ascii_lowercase\n\n\nclass Caesar:\n    def __init__(self, shift):\n        self.shift = shift\n\n    def encrypt(self, text):\n        return "".join(_A[(_A.index(c) + self.shift) % 26] if c in _A else c for c in text)\n\n    def decrypt(self, text):\n        return "".join(_A[(_A.index(c) - self.shift) % 26] if c in _A else c for c in text)\n')
os.makedirs(os.path.dirname('tests/test_caesar.py') or '.', exist_ok=True)
open('tests/test_caesar.py', 'w').write('import pytest\n\nfrom a23lib.caesar import Caesar\n\n\n@pytest.mark.parametrize("text,shift", [\n    pytest.param("wxy", 3, id="wrap"),\n    pytest.param("hello world", 5, id="words"),\n    pytest.param("abc", 1, id="small"),\n])\ndef test_roundtrip(text, shift):\n    c = Caesar(shift)\n    assert c.decrypt(c.encrypt(text)) == text\n')
