import os
os.makedirs(os.path.dirname('a23lib/orders.py') or '.', exist_ok=True)
open('a23lib/orders.py', 'w').write('"""Order lines."""\n\n\ndef apply_discount(line):\n    """A copy of the order line with its `net` price: 10% off (rounded down) for 10 or more units."""\n    gross = line["qty"] * line["unit"]\n    net = gross - gross // 10 if line["qty"] >= 10 else gross\n    return dict(line, net=net)\n')
os.makedirs(os.path.dirname('tests/test_orders.py') or '.', exist_ok=True)
open('tests/test_orders.py', 'w').write('from a23lib.orders import apply_discount\n\n\ndef test_nets():\n    lines = [{"qty": 2, "unit": 150}, {"qty": 12, "unit": 100}, {"qty": 10, "unit": 30}]\n    priced = list(map(apply_discount, lines))\n    assert [p["net"] for p in priced] == [o["qty"] * o["unit"] - (o["qty"] * o["unit"] // 10 if o["qty"] >= 10 else 0) for o in lines]\n\n\ndef test_small():\n    assert apply_discount({"qty": 1, "unit": 5})["net"] == 5\n')
