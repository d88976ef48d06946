"""JSON-safety, snapshots and the wire payload of a record."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import unittest
from typing import Any, Dict

from sightline.entry import LogEntry
from sightline.serialize import estimate_tokens, snapshot, to_jsonable

from .support import Model


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Plain:
    def __init__(self) -> None:
        self.a = 1
        self._secret = "hidden"

    def __repr__(self) -> str:
        return "Plain()"


class HasToDict:
    def to_dict(self) -> Dict[str, Any]:
        return {"k": "v"}


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("boom")


class ToJsonableTest(unittest.TestCase):
    def test_primitives_and_specials(self) -> None:
        value = {"s": "x", "i": 1, "f": 1.5, "b": True, "n": None, "nan": float("nan"),
                 "inf": float("inf"), "bytes": b"\x00ab", "when": dt.datetime(2024, 1, 2, 3, 4, 5),
                 "enum": Colour.RED, 3: "int key", "tuple": (1, 2), "set": {1}}
        out = to_jsonable(value)
        json.dumps(out, allow_nan=False)
        self.assertEqual(out["nan"], "nan")
        self.assertEqual(out["inf"], "inf")
        self.assertEqual(out["bytes"], repr(b"\x00ab"))
        self.assertEqual(out["when"], "2024-01-02T03:04:05")
        self.assertEqual(out["enum"], "red")
        self.assertEqual(out["3"], "int key")
        self.assertEqual(out["tuple"], [1, 2])
        self.assertEqual(out["set"], [1])

    def test_objects(self) -> None:
        self.assertEqual(to_jsonable(Model(a=Model(b=1))), {"a": {"b": 1}})
        self.assertEqual(to_jsonable(HasToDict()), {"k": "v"})
        self.assertEqual(to_jsonable(Point(1, 2)), {"x": 1, "y": 2})
        self.assertEqual(to_jsonable(Plain()), "Plain()")
        self.assertEqual(to_jsonable(Plain(), use_dict_fallback=True), {"a": 1})
        self.assertIn("unrepresentable", to_jsonable(BadRepr()))

    def test_cycles_do_not_explode(self) -> None:
        a: Dict[str, Any] = {}
        a["self"] = a
        self.assertEqual(to_jsonable(a), {"self": "<cycle>"})

    def test_snapshot_isolates_containers_keeps_leaves(self) -> None:
        leaf = Model(x=1)
        messages = [{"role": "user", "content": "hi"}]
        snap = snapshot({"messages": messages, "obj": leaf})
        messages.append({"role": "assistant", "content": "later"})
        messages[0]["content"] = "changed"
        self.assertEqual(snap["messages"], [{"role": "user", "content": "hi"}])
        self.assertIs(snap["obj"], leaf)

    def test_estimate_tokens(self) -> None:
        self.assertEqual(estimate_tokens({"a": "abcd", "b": ["abcde"]}), 3)
        self.assertEqual(estimate_tokens(None), 0)


class EntryPayloadTest(unittest.TestCase):
    def test_payload_fields(self) -> None:
        entry = LogEntry("m", "custom", {"q": object()}, {"r": 1}, 1700000000.25, 12.6,
                         {"trace": "fn"}, None, None)
        payload = json.loads(entry.encode())
        self.assertEqual(set(payload), {"model", "provider", "prompt_tokens", "completion_tokens",
                                        "latency_ms", "request_body", "response_body",
                                        "created_at", "metadata"})
        self.assertEqual(payload["latency_ms"], 13)
        self.assertEqual(payload["created_at"], "2023-11-14T22:13:20.250+00:00")
        self.assertTrue(payload["request_body"]["q"].startswith("<object object"))
        self.assertEqual(payload["metadata"]["status"], "success")
        self.assertEqual(payload["metadata"]["token_count_source"], "estimated")
        # No price list in the library: the cost is left out (unknown), never sent as 0.
        self.assertNotIn("cost_source", payload["metadata"])
        self.assertTrue(payload["metadata"]["sdk"].startswith("sightline-python/"))

    def test_empty_model_and_non_dict_request(self) -> None:
        payload = json.loads(LogEntry("", "custom", ["a"], None, 0.0, 0.0).encode())
        self.assertEqual(payload["model"], "unknown")
        self.assertEqual(payload["request_body"], {"input": ["a"]})
        self.assertIsNone(payload["response_body"])

    def test_error_entry(self) -> None:
        payload = json.loads(LogEntry("m", "p", {}, None, 0.0, 1.0, None, KeyError("x")).encode())
        self.assertEqual(payload["metadata"]["status"], "error")
        self.assertEqual(payload["metadata"]["error"], {"type": "KeyError", "message": "'x'"})

    def test_oversized_body_is_truncated_below_limit(self) -> None:
        big = "x" * 300_000
        entry = LogEntry("m", "p", {"prompt": "short"}, {"text": big}, 0.0, 1.0)
        body = entry.encode(max_bytes=100_000)
        self.assertLessEqual(len(body), 100_000)
        payload = json.loads(body)
        self.assertTrue(payload["metadata"]["truncated"])
        self.assertTrue(payload["response_body"]["_sightline_truncated"])
        self.assertEqual(payload["request_body"], {"prompt": "short"})


if __name__ == "__main__":
    unittest.main()
