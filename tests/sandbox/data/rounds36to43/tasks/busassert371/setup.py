open("a23lib/bus.py", "w").write('''"""Topic bus delivering parsed JSON payloads."""
import json


class Bus:
    def __init__(self):
        self._subs = {}

    def subscribe(self, topic, handler):
        self._subs.setdefault(topic, []).append(handler)

    def publish(self, topic, raw):
        """Parse raw JSON once and hand the object to every handler of topic; returns how many got it."""
        payload = json.loads(raw)
        handlers = self._subs.get(topic, [])
        for handler in handlers:
            handler(payload)
        return len(handlers)
''')
open("tests/test_bus.py", "w").write('''from a23lib.bus import Bus


def test_handler_gets_parsed_payload():
    bus = Bus()

    def handler(event):
        assert event == {"id": 7, "tags": ["a", "b"]}

    bus.subscribe("order", handler)
    bus.publish("order", '{"id": 7, "tags": ["a", "b"]}')


def test_count():
    bus = Bus()
    bus.subscribe("t", lambda e: None)
    assert bus.publish("t", "1") == 1
''')
