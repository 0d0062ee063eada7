import os
os.makedirs(os.path.dirname('a23lib/config.py') or '.', exist_ok=True)
open('a23lib/config.py', 'w').write('"""Project settings from a TOML file."""\nimport tomllib\n\nDEFAULTS = {"name": "app", "debug": False, "workers": 1}\n\n\ndef load_settings(path):\n    """DEFAULTS overlaid with the [app] table of the TOML file at path."""\n    with open(path, "rb") as f:\n        data = tomllib.load(f)\n    return {**DEFAULTS, **data.get("app", {})}\n')
os.makedirs(os.path.dirname('tests/data/app.toml') or '.', exist_ok=True)
open('tests/data/app.toml', 'w').write('[app]\nname = "shop # main"\ndebug = true\nworkers = 4\n')
os.makedirs(os.path.dirname('tests/test_config.py') or '.', exist_ok=True)
open('tests/test_config.py', 'w').write('from pathlib import Path\n\nfrom a23lib.config import DEFAULTS, load_settings\n\nHERE = Path(__file__).parent\n\n\ndef test_load(tmp_path):\n    settings = load_settings(HERE / "data" / "app.toml")\n    assert settings == {"name": "shop # main", "debug": True, "workers": 4}\n\n\ndef test_defaults(tmp_path):\n    p = tmp_path / "empty.toml"\n    p.write_text("")\n    assert load_settings(p) == DEFAULTS\n')
