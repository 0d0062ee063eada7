import os
os.makedirs(os.path.dirname('a23lib/league.py') or '.', exist_ok=True)
open('a23lib/league.py', 'w').write('"""League tables."""\n\n\ndef table(points):\n    """Team names, most points first (ties: by name)."""\n    return [name for name, _ in sorted(points.items(), key=lambda kv: (-kv[1], kv[0]))]\n')
os.makedirs(os.path.dirname('tests/test_league.py') or '.', exist_ok=True)
open('tests/test_league.py', 'w').write('from a23lib.league import table\n\n\ndef test_order():\n    names = table({"ants": 3, "bees": 7, "cats": 5})\n    assert list(names) == ["bees", "cats", "ants"]\n\n\ndef test_ties():\n    assert list(table({"b": 1, "a": 1})) == ["a", "b"]\n')
