import os
os.makedirs(os.path.dirname('a23lib/board.py') or '.', exist_ok=True)
open('a23lib/board.py', 'w').write('"""Leaderboards."""\n\n\nclass Leaderboard:\n    def __init__(self, scores):\n        self.scores = scores\n\n    def top(self, k):\n        """The k best scores, best first."""\n        return sorted(self.scores, reverse=True)[:k]\n')
os.makedirs(os.path.dirname('tests/test_board.py') or '.', exist_ok=True)
open('tests/test_board.py', 'w').write('from a23lib.board import Leaderboard\n\n\ndef test_top_two():\n    scores = [95, 70, 88, 60]\n    board = Leaderboard(scores)\n    assert board.top(2) == sorted(scores, reverse=True)[:2]\n\n\ndef test_top_all():\n    assert Leaderboard([1, 3, 2]).top(5) == [3, 2, 1]\n')
