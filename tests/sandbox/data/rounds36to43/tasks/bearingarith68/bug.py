s = open('a23lib/geo.py').read(); assert 'math.atan2(dx, dy)' in s; open('a23lib/geo.py', 'w').write(s.replace('math.atan2(dx, dy)', 'math.atan2(dy, dx)'))
