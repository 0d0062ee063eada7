s = open('a23lib/jobs.py').read(); assert '.strip("-")' in s; open('a23lib/jobs.py', 'w').write(s.replace('.strip("-")', ''))
