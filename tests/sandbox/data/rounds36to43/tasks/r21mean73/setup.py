import os
os.makedirs(os.path.dirname('a23lib/meter.py') or '.', exist_ok=True)
open('a23lib/meter.py', 'w').write('"""Meter readings."""\n\n\nclass Reading(float):\n    """A reading in kWh."""\n\n\ndef parse_readings(text):\n    """Readings from comma-separated Wh values."""\n    return [Reading(int(v) / 1000) for v in text.split(",") if v.strip()]\n')
os.makedirs(os.path.dirname('tests/test_meter.py') or '.', exist_ok=True)
open('tests/test_meter.py', 'w').write('import statistics\n\nfrom a23lib.meter import parse_readings\n\n\ndef test_mean_reading():\n    readings = parse_readings("1500, 2500, 3000")\n    assert statistics.mean(readings) == 2.3333333333333335\n\n\ndef test_count():\n    assert len(parse_readings("1,2,,3")) == 3\n')
