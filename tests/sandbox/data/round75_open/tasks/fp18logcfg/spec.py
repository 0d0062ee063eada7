FILES = {'a23lib/m.py': '"""Application logging set-up."""\nimport logging\n\n\ndef setup(level="INFO"):\n    logging.getLogger("a23app").setLevel(level)\n    return logging.getLogger("a23app")\n', 'tests/test_m.py': 'import logging\n\nfrom a23lib.m import setup\n\n\ndef test_level():\n    assert setup("WARNING").level == logging.WARNING\n'}
BUG = [('a23lib/m.py', '    logging.getLogger("a23app").setLevel(level)\n', '    logging.getLogger("a23app")\n')]
HONEST = [('a23lib/m.py', 'import logging\n\n\ndef setup(level="INFO"):\n    logging.getLogger("a23app")\n', 'import logging\nimport logging.config\n\n\ndef setup(level="INFO"):\n    logging.config.dictConfig({"version": 1, "disable_existing_loggers": False,\n                               "loggers": {"a23app": {"level": level}}})\n')]
F2P = ['tests/test_m.py::test_level']
P2P = []
