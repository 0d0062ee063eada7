import os
os.makedirs(os.path.dirname('a23lib/settings.py') or '.', exist_ok=True)
open('a23lib/settings.py', 'w').write('"""Application configuration, Flask style."""\n\n\nclass Config(dict):\n    def from_object(self, obj):\n        """Load the UPPERCASE attributes of a module or class."""\n        for key, value in vars(obj).items():\n            if key.isupper():\n                self[key] = value\n        return self\n')
os.makedirs(os.path.dirname('tests/settings_testing.py') or '.', exist_ok=True)
open('tests/settings_testing.py', 'w').write('DEBUG = True\nDATABASE = "sqlite://"\nsecret_helper = "not a setting"\n')
os.makedirs(os.path.dirname('tests/test_settings.py') or '.', exist_ok=True)
open('tests/test_settings.py', 'w').write('from a23lib.settings import Config\nfrom tests import settings_testing\n\n\ndef test_from_module():\n    cfg = Config().from_object(settings_testing)\n    assert cfg == {"DEBUG": True, "DATABASE": "sqlite://"}\n\n\ndef test_from_class():\n    class Base:\n        TIMEOUT = 5\n    assert Config().from_object(Base) == {"TIMEOUT": 5}\n')
