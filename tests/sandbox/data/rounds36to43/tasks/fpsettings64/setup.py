open("a23lib/config.py", "w").write('''"""Configuration objects, Flask-style."""


class Config(dict):
    def from_object(self, obj):
        """Copy the upper-case attributes of obj (a module or a class)."""
        for key, value in vars(obj).items():
            if key.isupper():
                self[key] = value
        return self
''')
open("tests/example_settings.py", "w").write('''DEBUG = True
SECRET_KEY = "dev"
lower_case = "ignored"
''')
open("tests/test_config.py", "w").write('''from a23lib.config import Config
from tests import example_settings


class Defaults:
    TIMEOUT = 30
    retries = 2


def test_from_class():
    assert Config().from_object(Defaults) == {"TIMEOUT": 30}


def test_from_module():
    assert Config().from_object(example_settings) == {"DEBUG": True, "SECRET_KEY": "dev"}
''')
