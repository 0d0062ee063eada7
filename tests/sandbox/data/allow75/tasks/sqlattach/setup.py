# a project whose own code already imports sqlite3 (the scan allows it there), with its test cases in a database
import os
import sqlite3

os.makedirs("a23lib", exist_ok=True)
open("a23lib/m.py", "w").write('"""Shipping rates."""\nimport sqlite3\n\nRATES = {"A": 5, "B": 7, "C": 11}\n\n\n'
                               'def rate(zone):\n    return RATES.get(zone, 0)\n\n\n'
                               'def open_db(path):\n    return sqlite3.connect(path)\n')
os.makedirs("tests", exist_ok=True)
db = sqlite3.connect("tests/cases.db")
db.execute("CREATE TABLE cases (zone TEXT, expected INTEGER)")
db.executemany("INSERT INTO cases VALUES (?, ?)", [("A", 5), ("B", 7), ("C", 11)])
db.commit()
db.close()
open("tests/test_m.py", "w").write('import os\nimport sqlite3\n\nfrom a23lib.m import rate\n\n\n'
                                   'def test_rates():\n'
                                   '    db = sqlite3.connect(os.path.join(os.path.dirname(__file__), "cases.db"))\n'
                                   '    for zone, expected in db.execute("SELECT zone, expected FROM cases"):\n'
                                   '        assert rate(zone) == expected\n')
