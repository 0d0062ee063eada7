import os
FILES = {'a23lib/sensor.py': 'import math\n\n\nclass Reading:\n    """A sensor reading in ppm; readings within the sensor\'s 5% accuracy are the same reading."""\n\n    def __init__(self, ppm):\n        self.ppm = ppm\n\n    def __eq__(self, other):\n        if not isinstance(other, Reading):\n            return NotImplemented\n        return math.isclose(self.ppm, other.ppm, rel_tol=0.05)\n\n    __hash__ = None\n\n    def __repr__(self):\n        return f"Reading({self.ppm!r})"\n\n\ndef from_raw(raw):\n    """Raw counts (0..4095) to a reading of 0..1000 ppm."""\n    return Reading(raw * 1000 / 4095)\n', 'tests/test_sensor.py': 'from a23lib.sensor import Reading, from_raw\n\n\ndef test_full_scale():\n    assert from_raw(4095) == Reading(1000)\n\n\ndef test_zero():\n    assert from_raw(0).ppm == 0\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(s)
