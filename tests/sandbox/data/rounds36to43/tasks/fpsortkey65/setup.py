import os
os.makedirs(os.path.dirname('a23lib/roster.py') or '.', exist_ok=True)
open('a23lib/roster.py', 'w').write('"""Staff roster."""\nimport operator\nfrom collections import namedtuple\n\nPerson = namedtuple("Person", "first last age")\nORDER = ("last", "first")\n\n\ndef roster(people):\n    """People sorted by last name, then first name."""\n    return sorted(people, key=operator.attrgetter(*ORDER))\n')
os.makedirs(os.path.dirname('tests/test_roster.py') or '.', exist_ok=True)
open('tests/test_roster.py', 'w').write('from a23lib.roster import Person, roster\n\n\ndef test_by_last_then_first():\n    people = [Person("Bo", "Zed", 3), Person("Al", "Zed", 9), Person("Cy", "Amy", 5)]\n    assert [p.first for p in roster(people)] == ["Cy", "Al", "Bo"]\n\n\ndef test_empty():\n    assert roster([]) == []\n')
