s = open('a23lib/money.py').read(); assert 'currency.upper())' in s, 'a23lib/money.py'; open('a23lib/money.py', 'w').write(s.replace('currency.upper())', 'currency)', 1))
