s = open('a23lib/money.py').read(); assert 'return f"{x:,.2f}"' in s, 'a23lib/money.py'; open('a23lib/money.py', 'w').write(s.replace('return f"{x:,.2f}"', 'return f"{x:.2f}"', 1))
