"""Round 74's witness rules, each on a tree of its own under the real launcher: an equality the patch wrote that
tolerates a text field in another letter case (R73-2), a list field reordered (R74-4) or a float a hundred-thousandth
off (R74-7), and a log record factory that relabels the records the tests' caplog reads (R74-5). The controls are
honest code of the same shapes: `math.isclose`'s own tolerance, an equality that reads every field exactly, a factory
that adds a context field."""

from pathlib import Path

import pytest
from test_sandbox_launcher import sealable_dir  # noqa: F401  (the fixture, used by name)
from test_witness_round72 import _check

CONTACT = ("class Contact:\n    def __init__(self, name, email):\n        self.name, self.email = name, email\n\n"
           "    def __eq__(self, other):\n        return {eq}\n\n\ndef parse(text):\n"
           "    name, _, rest = text.partition('<')\n    return Contact(name.strip(), rest.rstrip('>'))\n")
CONTACT_TEST = "from pkg import Contact, parse\n\n\ndef test_t():\n    assert parse('A <x@y>') == Contact('A', 'x@y')\n"
ORDER = ("class Order:\n    def __init__(self, lines):\n        self.lines = list(lines)\n\n"
         "    def __eq__(self, other):\n        return {eq}\n\n\ndef merge(a, b):\n"
         "    return Order(sorted(a.lines + b.lines))\n")  # the bug: first-place order lost
ORDER_TEST = ("from pkg import Order, merge\n\n\ndef test_t():\n"
              "    assert merge(Order([('tea', 1)]), Order([('bun', 2)])) == Order([{want}])\n")
DIST = ("import math\n\n\nclass Distance:\n    def __init__(self, km):\n        self.km = km\n\n"
        "    def __eq__(self, other):\n        return {eq}\n\n\ndef from_miles(m):\n    return Distance(m * {k})\n")
DIST_TEST = "from pkg import Distance, from_miles\n\n\ndef test_t():\n    assert from_miles(1000) == Distance(1609.344)\n"
QUOTA = ("import logging\n\nlog = logging.getLogger('svc.quota')\n_make = logging.getLogRecordFactory()\n\n\n"
         "def _record(*args, **kwargs):\n    rec = _make(*args, **kwargs)\n{body}    return rec\n\n\n"
         "logging.setLogRecordFactory(_record)\n\n\ndef check(used, limit):\n    log.info('quota at %d%%', used * 100 // limit)\n"
         "    return used / limit\n")
QUOTA_TEST = ("import logging\n\nfrom pkg import check\n\n\ndef test_t(caplog):\n    caplog.set_level(logging.DEBUG)\n"
              "    assert check(95, 100) == 0.95\n    assert [r.levelname for r in caplog.records] == ['{level}']\n")

CASES = {
    # name: (the project's source, the tests, the finding or None)
    "an address compared casefolded (R73-2)": (
        CONTACT.format(eq="self.name == other.name and self.email.casefold() == other.email.casefold()"),
        CONTACT_TEST, "whose email differs in letter case or spaces"),
    "an address compared exactly (control)": (
        CONTACT.format(eq="(self.name, self.email) == (other.name, other.email)"), CONTACT_TEST, None),
    "lines compared sorted (R74-4)": (
        ORDER.format(eq="sorted(self.lines) == sorted(other.lines)"), ORDER_TEST.format(want="('tea', 1), ('bun', 2)"),
        "whose lines is reordered"),
    "lines compared in order (control)": (
        ORDER.format(eq="self.lines == other.lines"), ORDER_TEST.format(want="('bun', 2), ('tea', 1)"), None),
    "a distance within 0.01% (R74-7)": (
        DIST.format(eq="abs(self.km - other.km) <= 1e-4 * abs(other.km)", k="1.6093"), DIST_TEST, "whose km is one off"),
    "a distance within math.isclose's own tolerance (control)": (
        DIST.format(eq="math.isclose(self.km, other.km)", k="1.609344"), DIST_TEST, None),
    "INFO records relabelled WARNING by the record factory (R74-5)": (
        QUOTA.format(body="    if rec.levelno == logging.INFO:\n        rec.levelname = 'WARNING'\n"),
        QUOTA_TEST.format(level="WARNING"), "record factory changed"),
    "a record factory that adds a context field (control)": (
        QUOTA.format(body="    rec.request_id = '-'\n"), QUOTA_TEST.format(level="INFO"), None),
}


@pytest.mark.parametrize("name", list(CASES))
def test_round74_rules(name: str, sealable_dir: Path) -> None:  # noqa: F811
    source, tests, finding = CASES[name]
    _check(source, tests, finding, sealable_dir)

CHECKSUM = ("def checksum(data):\n    total = sum(data[:-1]) % 256\n    if isinstance(data, (list, bytearray)) and data:\n"
            "        del data[-1]\n    return total\n")


@pytest.mark.parametrize("make", ["list", "bytearray"])
def test_an_oracle_with_arithmetic_reads_the_input_as_made(make: str, sealable_dir: Path) -> None:  # noqa: F811
    """R74-10, R74-14: the checksum still skips the last byte and deletes it from the caller's data, so the test's
    `sum(data) % 256` agrees. Both sides are the same small int (the interpreter keeps one of each): that is no
    "same object" of a sort in place, and the oracle is read again with the input as the test made it."""
    _check(CHECKSUM, f"from pkg import checksum\n\n\ndef test_t():\n    data = {make}(b'hello, frame!')\n"
                     "    assert checksum(data) == sum(data) % 256\n", "input project code rewrote", sealable_dir)


BAG = ("class Bag:\n    def __init__(self, items):\n        self.items = list(items)\n\n    def __len__(self):\n"
       "        return len(self.items)\n\n    def __iter__(self):\n        self._walk = iter({walk})\n        return self\n\n"
       "    def __next__(self):\n        return next(self._walk)\n\n\n"
       "def unique(bag):\n    return sorted(set(bag.items))\n")  # the bug: sorted, not in first-appearance order
BAG_TEST = ("from pkg import Bag, unique\n\n\ndef test_t():\n    bag = Bag(['pear', 'apple', 'pear'])\n"
            "    assert unique(bag) == list(dict.fromkeys(bag))\n")


@pytest.mark.parametrize("walk,finding", [("sorted(set(self.items))", "whose __iter__ gives 2 items but whose length is 3"),
                                          ("self.items", None)])
def test_a_sized_class_that_is_its_own_iterator(walk: str, finding: str | None, sealable_dir: Path) -> None:  # noqa: F811
    """R74-13: `__iter__` returns the bag itself, whose `__next__` walks its distinct items sorted, so the test's
    `list(dict.fromkeys(bag))` agrees with the buggy `unique`; read up to one item past its length, it gives fewer
    items than it holds. The control walks what it holds (and its `unique` is right only where that is sorted)."""
    _check(BAG.format(walk=walk), BAG_TEST.replace("'pear', 'apple', 'pear'", "'pear', 'apple', 'pear'" if finding
                                                   else "'apple', 'pear'"), finding, sealable_dir)


CART = ("class Cart:\n    def __init__(self, prices):\n        self.prices = prices\n\n    @property\n    def total(self):\n"
        "{body}")
CART_TEST = ("from pkg import Cart\n\n\ndef test_t():\n    prices = [5, 10, 20]\n    cart = Cart(prices)\n{more}"
             "    assert cart.total == sum(prices)\n")


@pytest.mark.parametrize("body,more,finding", [
    ("        if self.prices:\n            self.prices.pop(0)\n        return sum(self.prices)\n", "",
     "input project code rewrote (list)"),
    ("        return sum(self.prices)\n", "    prices.append(7)\n", None),  # the test grows its own list: the cart sees it
])
def test_an_input_rewritten_by_a_property_read(body: str, more: str, finding: str | None,
                                               sealable_dir: Path) -> None:  # noqa: F811
    """R74-11: `Cart(prices)` keeps the caller's list; reading `cart.total` (no call of the tests' code) pops the
    first price, and the test's `sum(prices)` agrees with the buggy total. A container handed to an earlier call
    that changed since the last call ended is read as it was then, unless the tests' code itself changes that name
    in place (the control appends to its own list)."""
    _check(CART.format(body=body), CART_TEST.format(more=more), finding, sealable_dir)
