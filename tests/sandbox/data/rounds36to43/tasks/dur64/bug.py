p = "a23lib/dur.py"; s = open(p).read(); s = s.replace('total += timedelta(**{_UNIT[unit]: int(number)})', 'total = timedelta(**{_UNIT[unit]: int(number)})'); open(p, "w").write(s)
