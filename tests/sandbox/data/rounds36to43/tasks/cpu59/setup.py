import os
os.makedirs(os.path.dirname('a23lib/timing.py'), exist_ok=True)
open('a23lib/timing.py', 'w').write('"""Process timings."""\nfrom typing import NamedTuple\n\n\nclass Timing(NamedTuple):\n    """What the shell\'s `time` prints: wall clock, user and system CPU seconds."""\n    real: float\n    user: float\n    sys: float\n\n\ndef parse(text):\n    """`real 1.5 user 1.0 sys 0.25` -> Timing."""\n    parts = text.split()\n    return Timing(*(float(v) for v in parts[1::2]))\n')
os.makedirs(os.path.dirname('tests/test_timing.py'), exist_ok=True)
open('tests/test_timing.py', 'w').write('from a23lib.timing import parse\n\n\ndef test_parse():\n    t = parse("real 1.5 user 1.0 sys 0.25")\n    assert (t.real, t.user, t.sys) == (1.5, 1.0, 0.25)\n\n\ndef test_count():\n    assert len(parse("real 1 user 2 sys 3")) == 3\n')
