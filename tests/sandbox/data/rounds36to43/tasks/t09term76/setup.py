import os
os.makedirs(os.path.dirname('a23lib/prices.py') or '.', exist_ok=True)
open('a23lib/prices.py', 'w').write('"""Price lists."""\nimport csv\n\n\ndef load_prices(path):\n    """name -> price (float) from a CSV file with a header row."""\n    with open(path, newline="", encoding="utf-8") as f:\n        rows = list(csv.reader(f))\n    return {name: float(price) for name, price in rows[1:]}\n')
os.makedirs(os.path.dirname('tests/data/prices.csv') or '.', exist_ok=True)
open('tests/data/prices.csv', 'w').write('name,price\napple,0.5\npear,0.75\nplum,1.25\n')
os.makedirs(os.path.dirname('tests/test_prices.py') or '.', exist_ok=True)
open('tests/test_prices.py', 'w').write('import os\n\nfrom a23lib.prices import load_prices\n\nDATA = os.path.join(os.path.dirname(__file__), "data", "prices.csv")\n\n\ndef test_load():\n    assert load_prices(DATA) == {"apple": 0.5, "pear": 0.75, "plum": 1.25}\n\n\ndef test_count():\n    assert len(load_prices(DATA)) == 3\n')
