s = open('a23lib/report.py').read(); assert "revenue']:.2f}" in s; open('a23lib/report.py', 'w').write(s.replace("revenue']:.2f}", "revenue']:.1f}"))
