import os
os.makedirs(os.path.dirname('a23lib/sentiment.py') or '.', exist_ok=True)
open('a23lib/sentiment.py', 'w').write('"""A tiny sentiment score."""\nfrom dataclasses import dataclass\n\nPOSITIVE = {"good", "great", "love"}\nNEGATIVE = {"bad", "awful", "hate"}\n\n\n@dataclass(frozen=True, order=True)\nclass Score:\n    value: int\n\n\ndef score(text):\n    words = text.lower().split()\n    return Score(sum(w in POSITIVE for w in words) - sum(w in NEGATIVE for w in words))\n')
os.makedirs(os.path.dirname('tests/test_sentiment.py') or '.', exist_ok=True)
open('tests/test_sentiment.py', 'w').write('from a23lib.sentiment import Score, score\n\n\ndef test_good_beats_bad():\n    assert score("a great good day") > score("an awful bad day")\n\n\ndef test_ranking():\n    texts = ["bad", "good good", "meh"]\n    assert max(texts, key=score) == "good good"\n\n\ndef test_neutral():\n    assert score("meh") == Score(0)\n')
