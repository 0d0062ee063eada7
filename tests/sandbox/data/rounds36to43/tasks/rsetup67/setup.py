exec(open("/tmp/attack67/tasks/rmix/setup.py").read().split("open(\"tests/test_roman_unit.py\"")[0])
open("tests/test_roman_unit.py", "w").write('''import unittest

from a23lib.checks import NumeralAssertions
from a23lib.roman import to_roman


class TestToRoman(NumeralAssertions, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = {4: "IV", 9: "IX", 14: "XIV", 1994: "MCMXCIV", 2024: "MMXXIV"}

    def test_table(self):
        for n in sorted(self.table):
            self.assertEqual(to_roman(n), self.table[n])

    def test_round_trip(self):
        self.assertRoundTrip(3)
''')
