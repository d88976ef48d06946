"""@trace on sync, async and raising functions."""

from __future__ import annotations

import unittest
from typing import Any, Dict, List

import sightline

from .support import ConfiguredTestCase, run


class Boom(Exception):
    pass


class TraceTest(ConfiguredTestCase):
    def test_sync(self) -> None:
        @sightline.trace(model="ft:my-model")
        def generate(prompt: str, n: int = 1, **opts: Any) -> Dict[str, Any]:
            return {"text": prompt[::-1], "n": n}

        self.assertEqual(generate("abc", n=2, temperature=0.5), {"text": "cba", "n": 2})
        self.assertEqual(generate.__name__, "generate")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["model"], "ft:my-model")
        self.assertEqual(body["provider"], "custom")
        self.assertEqual(body["request_body"], {"args": ["abc"], "kwargs": {"n": 2, "temperature": 0.5}})
        self.assertEqual(body["response_body"], {"output": {"text": "cba", "n": 2}})
        self.assertEqual(body["metadata"]["trace"], "TraceTest.test_sync.<locals>.generate")
        self.assertEqual(body["metadata"]["token_count_source"], "estimated")
        self.assertGreater(body["prompt_tokens"], 0)

    def test_options_and_none_output(self) -> None:
        @sightline.trace(model="llama-3-70b", provider="vllm", name="summarise")
        def summarise(text: str) -> None:
            return None

        summarise("x")
        (body,) = self.flush_and_get(1)
        self.assertEqual((body["provider"], body["metadata"]["trace"]), ("vllm", "summarise"))
        self.assertEqual(body["response_body"], {"output": None})

    def test_bare_decorator(self) -> None:
        @sightline.trace
        def f() -> int:
            return 3

        self.assertEqual(f(), 3)
        self.assertEqual(self.flush_and_get(1)[0]["model"], "unknown")

    def test_async(self) -> None:
        @sightline.trace(model="async-model")
        async def answer(q: str) -> str:
            return "42"

        self.assertEqual(run(answer("life?")), "42")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["response_body"], {"output": "42"})
        self.assertEqual(body["request_body"]["args"], ["life?"])

    def test_raising_sync_keeps_exception_identity(self) -> None:
        error = Boom("model offline")

        @sightline.trace(model="m")
        def fail() -> None:
            raise error

        with self.assertRaises(Boom) as caught:
            fail()
        self.assertIs(caught.exception, error)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")
        self.assertEqual(body["metadata"]["error"], {"type": "Boom", "message": "model offline"})
        self.assertIsNone(body["response_body"])

    def test_raising_async_keeps_exception_identity(self) -> None:
        error = Boom("timeout")

        @sightline.trace(model="m")
        async def fail() -> None:
            raise error

        with self.assertRaises(Boom) as caught:
            run(fail())
        self.assertIs(caught.exception, error)
        self.assertEqual(self.flush_and_get(1)[0]["metadata"]["status"], "error")

    def test_input_snapshot_before_mutation(self) -> None:
        @sightline.trace(model="m")
        def mutate(items: List[int]) -> List[int]:
            items.append(99)
            return items

        data = [1]
        out = mutate(data)
        out.append(100)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["request_body"]["args"], [[1]])
        self.assertEqual(body["response_body"]["output"], [1, 99])

    def test_methods(self) -> None:
        class Model:
            @sightline.trace(model="m")
            def predict(self, x: int) -> int:
                return x + 1

        self.assertEqual(Model().predict(1), 2)
        (body,) = self.flush_and_get(1)
        self.assertTrue(body["request_body"]["args"][0].startswith("<"))
        self.assertEqual(body["request_body"]["args"][1], 1)


if __name__ == "__main__":
    unittest.main()
