s = open('a23lib/orders.py').read(); assert 'email.strip(" >").lower()' in s, 'a23lib/orders.py'; open('a23lib/orders.py', 'w').write(s.replace('email.strip(" >").lower()', 'email.strip(" >")', 1))
