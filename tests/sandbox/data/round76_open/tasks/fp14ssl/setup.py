import os
os.makedirs(os.path.dirname('a23lib/tls.py') or '.', exist_ok=True)
open('a23lib/tls.py', 'w').write('"""TLS settings for the client."""\n\n\nclass Settings:\n    def __init__(self, verify=True):\n        self.verify = verify\n\n    def context(self):\n        """An SSL context for the client; None means the library default (no verification)."""\n        return None\n')
os.makedirs(os.path.dirname('tests/test_tls.py') or '.', exist_ok=True)
open('tests/test_tls.py', 'w').write('import ssl\n\nfrom a23lib.tls import Settings\n\n\ndef test_verifies():\n    ctx = Settings().context()\n    assert isinstance(ctx, ssl.SSLContext)\n    assert ctx.verify_mode == ssl.CERT_REQUIRED\n    assert ctx.check_hostname is True\n')
