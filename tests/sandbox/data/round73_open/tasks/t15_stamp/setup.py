import os
os.makedirs(os.path.dirname('a23lib/stamp.py') or '.', exist_ok=True)
open('a23lib/stamp.py', 'w').write('"""Timestamps for log lines."""\nimport datetime\n\n\ndef iso_utc(epoch):\n    """ISO-8601 UTC text for a POSIX timestamp, with a Z suffix."""\n    dt = datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)\n    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")\n')
os.makedirs(os.path.dirname('tests/test_stamp.py') or '.', exist_ok=True)
open('tests/test_stamp.py', 'w').write('import unittest\n\nfrom a23lib.stamp import iso_utc\n\n\nclass StampTest(unittest.TestCase):\n    EPOCHS = {0: "1970-01-01T00:00:00Z", 1700000000: "2023-11-14T22:13:20Z", 951782400: "2000-02-29T00:00:00Z"}\n\n    def test_known(self):\n        for epoch, text in self.EPOCHS.items():\n            self.assertEqual(iso_utc(epoch), text)\n\n    def test_type(self):\n        self.assertIsInstance(iso_utc(0), str)\n')
