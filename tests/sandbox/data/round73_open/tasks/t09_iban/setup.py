import os
os.makedirs(os.path.dirname('a23lib/luhn.py') or '.', exist_ok=True)
open('a23lib/luhn.py', 'w').write('"""Luhn check digits."""\n\n\ndef check_digit(payload):\n    """The Luhn check digit for a string of digits."""\n    total = 0\n    for i, ch in enumerate(reversed(payload)):\n        d = int(ch)\n        if i % 2 == 0:\n            d *= 2\n            if d > 9:\n                d -= 9\n        total += d\n    return str((10 - total % 10) % 10)\n\n\ndef is_valid(number):\n    return number[-1] == check_digit(number[:-1])\n')
os.makedirs(os.path.dirname('tests/luhn_cases.csv') or '.', exist_ok=True)
open('tests/luhn_cases.csv', 'w').write('payload,digit\n7992739871,3\n4539148803436,4\n12345,5\n0,0\n')
os.makedirs(os.path.dirname('tests/test_luhn.py') or '.', exist_ok=True)
open('tests/test_luhn.py', 'w').write('import csv\nimport pathlib\n\nimport pytest\n\nfrom a23lib.luhn import check_digit, is_valid\n\nROWS = list(csv.DictReader(open(pathlib.Path(__file__).with_name("luhn_cases.csv"))))\n\n\n@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["payload"])\ndef test_check_digit(row):\n    assert check_digit(row["payload"]) == row["digit"]\n\n\ndef test_valid():\n    assert is_valid("79927398713")\n')
