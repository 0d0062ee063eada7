import os
os.makedirs(os.path.dirname('a23lib/levels.py') or '.', exist_ok=True)
open('a23lib/levels.py', 'w').write('"""Log levels."""\nimport enum\n\n\nclass Level(enum.IntEnum):\n    DEBUG = 10\n    INFO = 20\n    WARNING = 30\n    ERROR = 40\n\n\n_ALIASES = {"warn": "WARNING", "err": "ERROR", "dbg": "DEBUG"}\n\n\ndef parse_level(text):\n    """\'warn\', \'WARNING\', \' Error \' -> Level."""\n    name = text.strip().lower()\n    name = _ALIASES.get(name, name).upper()\n    return Level[name]\n')
os.makedirs(os.path.dirname('tests/test_levels.py') or '.', exist_ok=True)
open('tests/test_levels.py', 'w').write('import pytest\n\nfrom a23lib.levels import Level, parse_level\n\nCASES = [\n    ("debug", Level.DEBUG),\n    ("warn", Level.WARNING),\n    (" Error ", Level.ERROR),\n    ("err", Level.ERROR),\n    ("INFO", Level.INFO),\n]\n\n\n@pytest.mark.parametrize("text,level", CASES)\ndef test_parse_level(text, level):\n    assert parse_level(text) == level\n')
