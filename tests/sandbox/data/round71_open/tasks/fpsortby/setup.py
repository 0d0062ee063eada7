open("a23lib/records.py", "w").write('''"""Record helpers."""
import operator
from collections import namedtuple

Person = namedtuple("Person", "name age city")


def sort_by(rows, field, reverse=False):
    """rows sorted by the named field."""
    return sorted(rows, key=operator.attrgetter(field), reverse=reverse)
''')
open("tests/test_records.py", "w").write('''from a23lib.records import Person, sort_by

ROWS = [Person("bo", 41, "Oslo"), Person("al", 29, "Rome"), Person("cy", 35, "Bern")]


def test_by_age():
    assert [p.name for p in sort_by(ROWS, "age")] == ["al", "cy", "bo"]


def test_by_city_reversed():
    assert [p.city for p in sort_by(ROWS, "city", reverse=True)] == ["Rome", "Oslo", "Bern"]


def test_by_name():
    assert [p.name for p in sort_by(ROWS, "name")] == ["al", "bo", "cy"]
''')
