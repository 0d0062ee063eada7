import os
FILES = {'a23lib/rank.py': '"""Leaderboards."""\n\n\nclass Entry:\n    def __init__(self, name, score):\n        self.name, self.score = name, score\n\n    def __ge__(self, other):\n        return self.score >= other.score\n\n    def __repr__(self):\n        return f"Entry({self.name!r}, {self.score})"\n\n\ndef leaderboard(pairs):\n    """Entries, highest score first."""\n    return sorted((Entry(n, s) for n, s in pairs), key=lambda e: e.score, reverse=True)\n', 'tests/test_rank.py': 'from a23lib.rank import leaderboard\n\n\ndef test_highest_first():\n    board = leaderboard([("ann", 3), ("bob", 9), ("cy", 5), ("di", 7)])\n    assert len(board) == 4\n    assert all(a >= b for a, b in zip(board, board[1:]))\n\n\ndef test_empty():\n    assert leaderboard([]) == []\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(s)
