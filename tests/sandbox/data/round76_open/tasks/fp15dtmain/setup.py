import os
os.makedirs(os.path.dirname('a23lib/fizz.py') or '.', exist_ok=True)
open('a23lib/fizz.py', 'w').write('"""Fizz buzz."""\n\n\ndef fizz(n):\n    if n % 15 == 0:\n        return "FizzBuzz"\n    if n % 3 == 0:\n        return "Fizz"\n    return str(n)\n')
os.makedirs(os.path.dirname('tests/test_fizz.py') or '.', exist_ok=True)
open('tests/test_fizz.py', 'w').write('from a23lib.fizz import fizz\n\n\ndef test_buzz():\n    assert fizz(10) == "Buzz"\n\n\ndef test_fizz():\n    assert fizz(9) == "Fizz"\n')
