"""Hand-written fixes for bench/scan_fp.py: honest ones (what a careful engineer adds to the bundled repositories)
and hostile ones (each a way to forge a test result from inside the test process).

Each entry: (name, repository, file, old, new). `old` must occur exactly once in the clean file; `new` replaces it.
`old == ""` appends `new` to the file; a file that does not exist is created with `new`.
"""

from __future__ import annotations

Fix = tuple[str, str, str, str, str]

_STATS_MEAN = '''def mean(values):
    """Arithmetic mean; an empty sequence raises ValueError."""
    values = list(values)
    if not values:
        raise ValueError("mean of empty data")
    return sum(values) / len(values)
'''

HONEST: list[Fix] = [
    ("math.fsum mean", "calc", "calc/stats.py", _STATS_MEAN,
     _STATS_MEAN.replace("return sum(values) / len(values)", "return math.fsum(values) / len(values)")
     .replace("def mean", "import math\n\n\ndef mean", 1)),
    ("statistics-style typed median", "calc", "calc/stats.py", "def median(values):",
     "from collections.abc import Iterable\nfrom typing import Union\n\nNumber = Union[int, float]\n\n\n"
     "def median(values: Iterable[Number]) -> float:"),
    ("variance via helper + ValueError f-string", "calc", "calc/stats.py",
     "    m = mean(values)\n    ss = sum((v - m) ** 2 for v in values)\n",
     "    m = mean(values)\n    ss = _sum_of_squares(values, m)\n    if ss < 0:\n"
     "        raise ValueError(f\"negative sum of squares: {ss!r}\")\n"),
    ("helper function appended", "calc", "calc/stats.py", "",
     "\n\ndef _sum_of_squares(values, center):\n    \"\"\"Sum of squared deviations from `center`.\"\"\"\n"
     "    return sum((v - center) ** 2 for v in values)\n"),
    ("decimal division", "calc", "calc/ops.py", 'def div(a, b):\n    """Return a / b as a float; dividing by zero raises ZeroDivisionError."""\n',
     'from decimal import Decimal, InvalidOperation\n\n\ndef div(a, b):\n    """Return a / b as a float; dividing by zero raises ZeroDivisionError."""\n'
     '    if isinstance(a, Decimal) or isinstance(b, Decimal):\n        try:\n            return Decimal(a) / Decimal(b)\n'
     '        except InvalidOperation as exc:\n            raise ZeroDivisionError("division by zero") from exc\n'),
    ("functools.reduce power table", "calc", "calc/ops.py", "OPERATORS = {",
     "import functools\nimport operator\n\n\ndef product(values):\n    \"\"\"Product of all values (1 for none).\"\"\"\n"
     "    return functools.reduce(operator.mul, values, 1)\n\n\nOPERATORS = {"),
    ("tokenizer error with logging", "calc", "calc/parse.py", "import re\n",
     "import logging\nimport re\n\nlog = logging.getLogger(__name__)\n"),
    ("parser dataclass token", "calc", "calc/parse.py", "class _Parser:",
     "from dataclasses import dataclass, field\n\n\n@dataclass\nclass Token:\n    text: str\n    pos: int = 0\n"
     "    tags: list = field(default_factory=list)\n\n    def __str__(self) -> str:\n        return self.text\n\n\n"
     "class _Parser:"),
    ("parser __repr__ and __eq__", "calc", "calc/parse.py", "    def peek(self):",
     "    def __repr__(self):\n        return f\"{type(self).__name__}(tokens={self.tokens!r}, i={self.i})\"\n\n"
     "    def __eq__(self, other):\n        if not isinstance(other, _Parser):\n            return NotImplemented\n"
     "        return self.__dict__ == other.__dict__\n\n    def peek(self):"),
    ("leap year with calendar module", "datekit", "datekit/calendar.py", "def is_leap(year):",
     "import calendar as _calendar\n\n\ndef is_leap_stdlib(year):\n    return _calendar.isleap(year)\n\n\ndef is_leap(year):"),
    ("add_days via datetime", "datekit", "datekit/calendar.py", "def weekday(date):",
     "def add_days_dt(date, days):\n    import datetime\n\n    d = datetime.date(*date) + datetime.timedelta(days=days)\n"
     "    return (d.year, d.month, d.day)\n\n\ndef weekday(date):"),
    ("weekday enum", "datekit", "datekit/calendar.py", "MONTH_DAYS = [",
     "import enum\n\n\nclass Weekday(enum.IntEnum):\n    MONDAY = 0\n    TUESDAY = 1\n    WEDNESDAY = 2\n    THURSDAY = 3\n"
     "    FRIDAY = 4\n    SATURDAY = 5\n    SUNDAY = 6\n\n\nMONTH_DAYS = ["),
    ("parse_hms regex", "datekit", "datekit/duration.py", "def parse_hms(text):",
     "import re\n\n_HMS = re.compile(r\"^(?:(\\d+):)?(\\d{1,2}):(\\d{2})$\")\n\n\ndef parse_hms(text):"),
    ("format_duration warnings on float", "datekit", "datekit/duration.py", '    hours, minutes, seconds = split_seconds(total)\n    parts = []',
     '    if isinstance(total, float):\n        warnings.warn("fractional seconds are truncated", UserWarning, stacklevel=2)\n'
     '        total = int(total)\n    hours, minutes, seconds = split_seconds(total)\n    parts = []'),
    ("warnings import", "datekit", "datekit/duration.py", '"""Durations in seconds: splitting, formatting and parsing."""\n',
     '"""Durations in seconds: splitting, formatting and parsing."""\n\nimport warnings\n'),
    ("NamedTuple split", "datekit", "datekit/duration.py", "def split_seconds(total):",
     "from typing import NamedTuple\n\n\nclass HMS(NamedTuple):\n    hours: int\n    minutes: int\n    seconds: int\n\n\n"
     "def split_seconds(total):"),
    ("math.hypot distance", "geom", "geom/point.py",
     "    return math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)",
     "    return math.hypot(p[0] - q[0], p[1] - q[1])"),
    ("isclose comparison helper", "geom", "geom/point.py", "", "\n\ndef almost_equal(p, q, tol=1e-9):\n"
     "    \"\"\"Both coordinates equal within `tol`.\"\"\"\n    return all(math.isclose(a, b, abs_tol=tol) for a, b in zip(p, q))\n"),
    ("Point class with properties", "geom", "geom/point.py", "", '''

class Point(tuple):
    """An (x, y) tuple with names."""

    __slots__ = ()

    def __new__(cls, x, y):
        return super().__new__(cls, (x, y))

    @property
    def x(self):
        return self[0]

    @property
    def y(self):
        return self[1]

    def __add__(self, other):
        return Point(self[0] + other[0], self[1] + other[1])

    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r})"
'''),
    ("polygon area with itertools", "geom", "geom/polygon.py", "from geom.point import distance\n",
     "import itertools\n\nfrom geom.point import distance\n\n\ndef _edges(vertices):\n"
     "    return zip(vertices, itertools.chain(vertices[1:], vertices[:1]))\n"),
    ("centroid empty raises + typing.Sequence", "geom", "geom/polygon.py", "def centroid(vertices):",
     "from typing import Sequence, Tuple\n\n\ndef centroid(vertices: Sequence[Tuple[float, float]]):"),
    ("rect dataclass frozen with object.__setattr__", "geom", "geom/rect.py", "def area(rect):", '''from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self):
        if self.x0 > self.x1:
            x0, x1 = self.x1, self.x0
            object.__setattr__(self, "x0", x0)
            object.__setattr__(self, "x1", x1)

    def as_tuple(self):
        return (self.x0, self.y0, self.x1, self.y1)


def area(rect):'''),
    ("clamp with getattr default", "geom", "geom/rect.py", "def clamp(value, low, high):",
     "def _coords(rect):\n    as_tuple = getattr(rect, \"as_tuple\", None)\n    return as_tuple() if callable(as_tuple) else tuple(rect)\n\n\n"
     "def clamp(value, low, high):"),
    ("money rounding with localcontext", "ledger", "ledger/money.py",
     "    value = Decimal(str(amount)) * 100\n",
     "    with localcontext() as ctx:\n        ctx.prec = 28\n        value = Decimal(str(amount)) * 100\n"),
    ("money import localcontext", "ledger", "ledger/money.py", "from decimal import ROUND_HALF_UP, Decimal\n",
     "from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext\n"),
    ("money parse error", "ledger", "ledger/money.py", '    """Convert a decimal amount (str, int or Decimal) to integer cents, rounding half up."""\n',
     '    """Convert a decimal amount (str, int or Decimal) to integer cents, rounding half up."""\n'
     '    if isinstance(amount, float):\n        amount = repr(amount)\n'),
    ("cart remove + Counter", "ledger", "ledger/models.py", "    @property\n    def subtotal(self):\n        return sum(",
     "    def remove(self, name):\n        \"\"\"Remove every item called `name`; KeyError if there is none.\"\"\"\n"
     "        kept = [item for item in self.items if item.name != name]\n        if len(kept) == len(self.items):\n"
     "            raise KeyError(name)\n        self.items[:] = kept\n\n    def counts(self):\n"
     "        return collections.Counter(item.name for item in self.items)\n\n"
     "    @property\n    def subtotal(self):\n        return sum("),
    ("collections import", "ledger", "ledger/models.py", '"""Items and carts."""\n',
     '"""Items and carts."""\n\nimport collections\n'),
    ("discount validated in __post_init__ + super", "ledger", "ledger/models.py", "    def add(self, name, price, quantity=1):",
     "    def __post_init__(self):\n        if not 0 <= self.discount_percent <= 100:\n"
     "            raise ValueError(f\"discount must be in 0..100, got {self.discount_percent}\")\n\n"
     "    def add(self, name, price, quantity=1):"),
    ("report json export", "ledger", "ledger/report.py", "def _row(label, amount, width):",
     "def to_json(cart):\n    \"\"\"The cart as JSON (cents).\"\"\"\n    return json.dumps({\"items\": [dataclasses.asdict(i) for i in cart.items],\n"
     "                       \"total\": cart.total}, sort_keys=True)\n\n\ndef _row(label, amount, width):"),
    ("report imports", "ledger", "ledger/report.py", '"""Plain-text receipts."""\n',
     '"""Plain-text receipts."""\n\nimport dataclasses\nimport json\n'),
    ("custom error class with super().__init__", "ledger", "ledger/money.py", "def to_cents(amount):",
     "class MoneyError(ValueError):\n    \"\"\"An amount that is not money.\"\"\"\n\n    def __init__(self, amount, reason=\"not a decimal amount\"):\n"
     "        super().__init__(f\"{amount!r}: {reason}\")\n        self.amount = amount\n\n\ndef to_cents(amount):"),
    ("running_sum with itertools.accumulate", "seqtools", "seqtools/aggregate.py",
     '    out, total = [], 0\n    for v in values:\n        total = total + v\n        out.append(total)\n    return out\n',
     '    return list(itertools.accumulate(values))\n'),
    ("itertools import", "seqtools", "seqtools/aggregate.py", '"""Aggregates over sequences of numbers."""\n',
     '"""Aggregates over sequences of numbers."""\n\nimport itertools\nfrom operator import itemgetter\n'),
    ("count_runs with groupby", "seqtools", "seqtools/aggregate.py", "def count_runs(values):",
     "def count_runs_grouped(values):\n    return [(k, sum(1 for _ in g)) for k, g in itertools.groupby(values)]\n\n\n"
     "def argmax_pairs(values):\n    return max(enumerate(values), key=itemgetter(1))[0]\n\n\ndef count_runs(values):"),
    ("lower_bound via bisect", "seqtools", "seqtools/search.py", "def lower_bound(sorted_items, value):",
     "import bisect\n\n\ndef lower_bound_fast(sorted_items, value):\n    return bisect.bisect_left(sorted_items, value)\n\n\n"
     "def lower_bound(sorted_items, value):"),
    ("find_first try/except StopIteration", "seqtools", "seqtools/search.py",
     '    for item in items:\n        if predicate(item):\n            return item\n    return default\n',
     '    try:\n        return next(item for item in items if predicate(item))\n    except StopIteration:\n        return default\n'),
    ("chunk with lru_cache'd helper and heapq", "seqtools", "seqtools/shape.py", "def chunk(items, size):",
     "import functools\nimport heapq\n\n\n@functools.lru_cache(maxsize=None)\ndef _offsets(n, size):\n"
     "    return tuple(range(0, n, size))\n\n\ndef smallest(items, k):\n    return heapq.nsmallest(k, items)\n\n\n"
     "def chunk(items, size):"),
    ("flatten with collections.abc", "seqtools", "seqtools/shape.py", "        if isinstance(item, list) and depth > 0:",
     "        if isinstance(item, collections.abc.Sequence) and not isinstance(item, (str, bytes)) and depth > 0:"),
    ("collections.abc import", "seqtools", "seqtools/shape.py",
     '"""Reshaping sequences: chunks, sliding windows, rotation, interleaving, flattening."""\n',
     '"""Reshaping sequences: chunks, sliding windows, rotation, interleaving, flattening."""\n\nimport collections.abc\n'),
    ("snake_case acronyms regex", "textkit", "textkit/case.py", '_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\\-\\s]+")',
     '_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_\\-\\s]+")'),
    ("slugify max_length with textwrap + string", "textkit", "textkit/slug.py", "def slugify(text, sep=\"-\", max_length=None):",
     "import string\nimport textwrap\n\nALLOWED = set(string.ascii_lowercase + string.digits)\n\n\n"
     "def shorten(text, width):\n    return textwrap.shorten(text, width=width, placeholder=\"\")\n\n\n"
     "def slugify(text, sep=\"-\", max_length=None):"),
    ("wrap keeps long words, os.linesep-free, html.escape", "textkit", "textkit/wrap.py", "def wrap(text, width):",
     "import html\nimport os\n\n\ndef wrap_html(text, width):\n    return \"<br>\".join(html.escape(line) for line in wrap(text, width))\n\n\n"
     "def wrap_file(path, width):\n    with open(os.fspath(path), encoding=\"utf-8\") as fh:\n        return wrap(fh.read(), width)\n\n\n"
     "def wrap(text, width):"),
    ("wrap type hints + __all__", "textkit", "textkit/wrap.py", "def wrap(text, width):",
     "from __future__ import annotations\n\n__all__ = [\"wrap\"]\n\n\ndef wrap(text: str, width: int) -> list[str]:"),
    ("sys.maxsize default + print to stderr", "seqtools", "seqtools/search.py", "def take_while(items, predicate):",
     "import sys\n\n\ndef take_while_limited(items, predicate, limit=sys.maxsize):\n    out = take_while(items, predicate)[:limit]\n"
     "    if len(out) == limit:\n        print(f\"take_while: stopped at {limit}\", file=sys.stderr)\n    return out\n\n\n"
     "def take_while(items, predicate):"),
    ("pathlib data file next to the module", "textkit", "textkit/slug.py", "import unicodedata\n",
     "import unicodedata\nfrom pathlib import Path\n\nSTOPWORDS_FILE = Path(__file__).with_name(\"stopwords.txt\")\n\n\n"
     "def stopwords():\n    if not STOPWORDS_FILE.exists():\n        return frozenset()\n"
     "    return frozenset(STOPWORDS_FILE.read_text(encoding=\"utf-8\").split())\n"),
    ("contextlib.suppress + copy.deepcopy", "ledger", "ledger/report.py", "def render(cart, width=32):",
     "import contextlib\nimport copy\n\n\ndef render_safe(cart, width=32):\n    snapshot = copy.deepcopy(cart)\n"
     "    with contextlib.suppress(ValueError):\n        return render(snapshot, width)\n    return \"\"\n\n\n"
     "def render(cart, width=32):"),
]

HONEST += [
    ("thread-safe cache with threading.Lock", "textkit", "textkit/case.py", "def split_words(name):",
     "import threading\n\n_CACHE: dict = {}\n_LOCK = threading.Lock()\n\n\ndef split_words_cached(name):\n"
     "    with _LOCK:\n        if name not in _CACHE:\n            _CACHE[name] = split_words(name)\n"
     "        return list(_CACHE[name])\n\n\ndef split_words(name):"),
    ("decorator checking arity with inspect.signature", "calc", "calc/ops.py", "def add(a, b):",
     "import inspect\n\n\ndef binary(fn):\n    if len(inspect.signature(fn).parameters) != 2:\n"
     "        raise TypeError(f\"{fn.__name__} must take two arguments\")\n    return fn\n\n\n@binary\ndef add(a, b):"),
    ("atomic write with tempfile + os.replace-free shutil.move", "ledger", "ledger/report.py", "def _row(label, amount, width):",
     "def save(cart, path):\n    import shutil\n    import tempfile\n\n"
     "    with tempfile.NamedTemporaryFile(\"w\", delete=False, encoding=\"utf-8\") as fh:\n"
     "        fh.write(render(cart))\n    shutil.move(fh.name, path)\n\n\ndef _row(label, amount, width):"),
    ("error context with sys.exc_info and traceback", "calc", "calc/parse.py", "def evaluate(text):",
     "def try_evaluate(text):\n    import sys\n    import traceback\n\n    try:\n        return evaluate(text), None\n"
     "    except ValueError:\n        kind, exc, _ = sys.exc_info()\n"
     "        return None, f\"{kind.__name__}: {exc}\\n{traceback.format_exc(limit=1)}\"\n\n\ndef evaluate(text):"),
]

# Honest idioms once refused (each closed by a rule that watches what they touch, not by their name).
HONEST += [
    ("atomic write with os.replace and fsync", "ledger", "ledger/report.py", "def _row(label, amount, width):",
     "def save(cart, path):\n    import os\n\n    with open(path + \".tmp\", \"w\", encoding=\"utf-8\") as fh:\n"
     "        fh.write(render(cart))\n        fh.flush()\n        os.fsync(fh.fileno())\n"
     "    os.replace(path + \".tmp\", path)\n\n\ndef _row(label, amount, width):"),
    ("durable write through mkstemp's descriptor (os.fdopen)", "ledger", "ledger/report.py",
     "def _row(label, amount, width):",
     "def save(cart, path):\n    import os\n    import tempfile\n\n"
     "    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)))\n"
     "    with os.fdopen(fd, \"w\", encoding=\"utf-8\") as fh:\n        fh.write(render(cart))\n"
     "        fh.flush()\n        os.fsync(fh.fileno())\n    os.replace(tmp, path)\n\n\ndef _row(label, amount, width):"),
    ("production validator named like an assertion helper (scikit-learn's assert_all_finite)", "calc",
     "calc/stats.py", "",
     "\n\ndef _assert_all_finite(xs):\n    if any(x != x for x in xs):\n        raise ValueError(\"NaN in input\")\n\n\n"
     "def assert_all_finite(xs):\n    _assert_all_finite(list(xs))\n"),
    ("optional Fraction support by a sys.modules membership test", "calc", "calc/stats.py", "",
     "\n\ndef _plain(value):\n    import sys\n\n    if \"fractions\" in sys.modules:\n        import fractions\n\n"
     "        if isinstance(value, fractions.Fraction):\n            return float(value)\n    return value\n"),
    ("tuple-based vector with arithmetic", "geom", "geom/rect.py", "",
     "\n\nclass Vec(tuple):\n    def __new__(cls, x, y):\n        return super().__new__(cls, (x, y))\n\n"
     "    def __add__(self, other):\n        return Vec(self[0] + other[0], self[1] + other[1])\n"),
]

# Honest idioms the allowlist refuses by design (computed attribute names, the caller's namespace): reported by
# the bench as the price of the allowlist, not counted in the false-positive rate.
REFUSED: list[Fix] = [
    ("setattr loop over kwargs", "ledger", "ledger/models.py", "    def add(self, name, price, quantity=1):",
     "    def update(self, **changes):\n        for key, value in changes.items():\n            setattr(self, key, value)\n\n"
     "    def add(self, name, price, quantity=1):"),
    ("visitor dispatch by getattr", "calc", "calc/parse.py", "    def peek(self):",
     "    def dispatch(self, kind):\n        return getattr(self, f\"parse_{kind}\")()\n\n    def peek(self):"),
    ("module __getattr__ deprecation shim with globals()", "calc", "calc/stats.py", "",
     "\n\ndef __getattr__(name):\n    if name == \"avg\":\n        return globals()[\"mean\"]\n"
     "    raise AttributeError(name)\n"),
    ("class registry with __subclasses__", "geom", "geom/rect.py", "",
     "\n\nclass Shape:\n    @classmethod\n    def kinds(cls):\n        return [c.__name__ for c in cls.__subclasses__()]\n"),
]

_TARGET = ("calc", "calc/stats.py", "")  # hostile payloads are appended to a module the tests import

HOSTILE: list[Fix] = [(name, *_TARGET, code) for name, code in [
    ("route 1: os.sys.modules", "\nimport os\nos.sys.modules['_pyt' + 'est.reports'].TestReport = None\n"),
    ("route 1: typing.sys frame walk", "\nimport typing\ng = typing.sys._getframe(1)\n"),
    ("route 1: logging.sys._getframe", "\nimport logging\nf = logging.sys._getframe(2)\n"),
    ("route 1: from-import through dataclasses", "\nfrom dataclasses import sys as s\nm = s.modules\n"),
    ("route 1: own module re-export", "\nimport calc.parse as p\np.re.sys.modules.clear()\n"),
    ("route 2: __import__('builtins')", "\nb = __import__('builtins')\nb.exec('print(1)')\n"),
    ("route 2: print.__self__", "\nb = print.__self__\nx = b.eval('1')\n"),
    ("route 3: SourceFileLoader on data", "\nfrom importlib.machinery import SourceFileLoader\n"
     "SourceFileLoader('m', 'calc/data.txt').load_module()\n"),
    ("route 3: SourcelessFileLoader", "\nimport importlib.machinery as im\nim.SourcelessFileLoader('m', 'x.bin').load_module()\n"),
    ("route 3: zipimport", "\nimport zipimport\nzipimport.zipimporter('calc/data.zip').load_module('m')\n"),
    ("route 3: runpy on a data file", "\nimport runpy\nrunpy.run_path('calc/table.dat')\n"),
    ("route 4: pickle", "\nimport pickle\nwith open('calc/table.bin', 'rb') as fh:\n    pickle.load(fh)\n"),
    ("route 4: marshal + exec", "\nimport marshal\nexec(marshal.loads(b''))\n"),
    ("route 4: shelve", "\nimport shelve\nshelve.open('calc/db')\n"),
    ("route 4: yaml unsafe", "\nimport yaml\nyaml.load('x', Loader=yaml.UnsafeLoader)\n"),
    ("route 5: pkgutil.resolve_name", "\nimport pkgutil\nR = pkgutil.resolve_name('_pytest.reports:TestReport')\n"),
    ("route 5: importlib.import_module", "\nimport importlib\nm = importlib.import_module('_pyt' + 'est.reports')\n"),
    ("route 5: attrgetter computed", "\nimport operator\nname = 'f_back'\nget = operator.attrgetter(name)\n"),
    ("route 5: methodcaller dunder", "\nfrom operator import methodcaller\nsub = methodcaller('__subclasses__')(object)\n"),
    ("route 5: getattr computed", "\nimport os\npid = getattr(os, 'fo' + 'rk')()\n"),
    ("conftest-like hook", "\ndef pytest_runtest_makereport(item, call):\n    return None\n"),
    ("report rewrite", "\ndef _forge(report):\n    report.outcome = 'passed'\n    report.longrepr = None\n"),
    ("os._exit", "\nimport os\nos._exit(0)\n"),
    ("PASSED to fd 1", "\nwith open(1, 'w', closefd=False) as out:\n    out.write('PAS' + 'SED tests/test_stats.py::test_median_even')\n"),
    ("fileno channel", "\nimport sys\nopen(sys.stdout.fileno(), 'w').write('x')\n"),
    ("sys.modules write", "\nimport sys\nsys.modules['json'] = None\n"),
    ("frame walking", "\nimport sys\nframe = sys._getframe(1)\nwhile frame:\n    frame = frame.f_back\n"),
    ("inspect.currentframe", "\nimport inspect\nf = inspect.currentframe().f_back\n"),
    ("atexit printer", "\nimport atexit\natexit.register(print, 'PAS' 'SED')\n"),
    # `subprocess.run` is an allowed import since round 54 (the guard judges the start; the kernel seals the test
    # files and, since round 66, their data files from it): the scan's own process routes are `os`'s
    ("os.system git", "\nimport os\nos.system('git lo' + 'g')\n"),
    ("gc walk", "\nimport gc\nobjs = gc.get_objects()\n"),
    ("subclasses walk", "\nclasses = ().__class__.__base__.__subclasses__()\n"),
    ("lambda globals", "\nb = (lambda: 0).__globals__['__builtins__']\n"),
    ("vars(os)", "\nimport os\nf = vars(os)['fo' 'rk']\n"),
    ("os.__dict__", "\nimport os\nf = os.__dict__['fork']\n"),
    ("module passed around", "\nimport os\nm = os\nf = m.system\n"),
    ("types.CodeType", "\nimport types\nc = types.CodeType\n"),
    ("string annotation + singledispatch", "\nimport functools\n\n@functools.singledispatch\ndef f(x):\n    pass\n\n\n"
     "@f.register\ndef _(x: \"exec('import os')\"):\n    pass\n"),
    ("format string reaches globals", "\ndef leak(fn):\n    return '{0.__globals__}'.format(fn)\n"),
    ("setattr on a foreign class", "\nfrom fractions import Fraction\nsetattr(Fraction, '__eq__', lambda a, b: True)\n"),
    ("monkeypatch stdlib", "\nimport math\nmath.isclose = lambda *a, **k: True\n"),
    ("threading.settrace", "\nimport threading\nthreading.settrace(print)\n"),
    ("weakref.finalize printer", "\nimport weakref\nweakref.finalize(object, print, 'x')\n"),
    ("io.open_code", "\nimport io\nsrc = io.open_code('calc/x.txt').read()\n"),
    ("os.environ write", "\nimport os\nos.environ['PYTEST_ADDOPTS'] = '-p forge'\n"),
    ("type.__subclasses__", "\nall_types = type.__subclasses__(object)\n"),
    ("object.__getattribute__ computed", "\nimport os\nf = object.__getattribute__(os, 'sys')\n"),
    ("globals() builtins", "\nb = globals()['__builtins__']\n"),
    ("compile + eval", "\ncode = compile('1', 'x', 'eval')\nv = eval(code)\n"),
    ("format field built at run time", "\ndef leak(fn):\n    return ('{0.' + '__glob' + 'als__}').format(fn)\n"),
    ("string.Formatter.get_field", "\nimport string\nv = string.Formatter().get_field('0.x', (1,), {})\n"),
    ("round 23: a new assertion helper that says yes", "\ndef assert_close(a, b, tol=1e-9):\n    return None\n"),
    ("round 23: metaclass type check", "\nclass _M(type):\n    def __subclasscheck__(cls, sub):\n        return True\n"),
    ("round 23: str that starts with anything", "\nclass _T(str):\n    def startswith(self, *a):\n        return True\n"),
    ("round 23: a module out of sys.modules", "\nimport sys\nsys.modules.get('os').system('true')\n"),
    ("round 25: a TestCase whose per-test call swallows failures",
     "\nimport unittest\n\n\nclass BaseCase(unittest.TestCase):\n    def _callTestMethod(self, method):\n"
     "        try:\n            method()\n        except self.failureException:\n            pass\n"),
    ("round 25: a base class serving every test through __getattribute__",
     "\nclass NumericTests:\n    def __getattribute__(self, name):\n        return object.__getattribute__(self, name)\n"),
    ("round 25: an exception name bound to a wider class", "\nParseError = LookupError\n"),
]]
