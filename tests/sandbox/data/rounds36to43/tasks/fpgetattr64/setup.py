open("a23lib/app.py", "w").write('''"""Application settings from a settings module or object."""


class App:
    def __init__(self, settings):
        self.debug = bool(getattr(settings, "DEBUG", False))
        self.name = str(getattr(settings, "APP_NAME", "a23"))
        self.workers = int(getattr(settings, "WORKERS", 1))
''')
open("tests/example_settings.py", "w").write('''DEBUG = True
APP_NAME = "demo"
''')
open("tests/test_app.py", "w").write('''from a23lib.app import App
from tests import example_settings


def test_from_module():
    app = App(example_settings)
    assert (app.debug, app.name, app.workers) == (True, "demo", 1)


def test_defaults():
    app = App(object())
    assert (app.debug, app.name, app.workers) == (False, "a23", 1)
''')
