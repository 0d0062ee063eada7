import os
os.makedirs(os.path.dirname('a23lib/bids.py') or '.', exist_ok=True)
open('a23lib/bids.py', 'w').write('"""Auction bids."""\n\n\ndef winning_bid(bids):\n    """The highest bid amount (bids: list of amounts in cents)."""\n    best = bids[0]\n    for b in bids[1:]:\n        if b > best:\n            best = b\n    return best\n')
os.makedirs(os.path.dirname('tests/test_bids.py') or '.', exist_ok=True)
open('tests/test_bids.py', 'w').write('from a23lib.bids import winning_bid\n\n\ndef test_winner_beats_everyone():\n    bids = [120, 450, 300, 90]\n    best = winning_bid(bids)\n    assert best in bids\n    assert all(best >= b for b in bids)\n\n\ndef test_single():\n    assert winning_bid([5]) == 5\n')
