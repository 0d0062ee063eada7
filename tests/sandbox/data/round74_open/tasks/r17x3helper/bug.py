s = open('a23lib/till.py').read(); assert '    return sum(prices)' in s, 'a23lib/till.py'; open('a23lib/till.py', 'w').write(s.replace('    return sum(prices)', '    return sum(prices[1:])', 1))
