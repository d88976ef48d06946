"""wrap_cohere: v1 and v2 chat / chat_stream, async client, errors."""

from __future__ import annotations

import unittest
from typing import Any, List

import sightline

from .support import (APIStatusError, ConfiguredTestCase, FakeAsyncCohereV1, FakeCohereV1,
                      FakeCohereV2, run)


class CohereTest(ConfiguredTestCase):
    def test_v1_chat(self) -> None:
        client = sightline.wrap_cohere(FakeCohereV1())
        response = client.chat(message="Say hello in French", model="command-r-plus", preamble="Be brief")
        self.assertEqual(response.text, "Bonjour")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["provider"], "cohere")
        self.assertEqual(body["model"], "command-r-plus")
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (9, 3))
        self.assertEqual(body["request_body"], {"message": "Say hello in French", "model": "command-r-plus",
                                                "preamble": "Be brief"})
        self.assertEqual(body["response_body"]["text"], "Bonjour")
        self.assertEqual(body["response_body"]["finish_reason"], "COMPLETE")

    def test_v1_chat_without_model(self) -> None:
        client = sightline.wrap_cohere(FakeCohereV1())
        client.chat(message="hi")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["model"], "unknown")

    def test_v1_chat_stream(self) -> None:
        client = sightline.wrap_cohere(FakeCohereV1())
        events = list(client.chat_stream(message="hi", model="command-r"))
        self.assertEqual([e.event_type for e in events],
                         ["stream-start", "text-generation", "text-generation", "stream-end"])
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["response_body"]["text"], "Bonjour")
        self.assertEqual(body["response_body"]["generation_id"], "gen-2")
        self.assertEqual(body["response_body"]["finish_reason"], "COMPLETE")
        self.assertEqual(body["response_body"]["event_count"], 4)
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (8, 2))
        self.assertEqual(body["metadata"]["stream"], True)
        self.assertIn("ttft_ms", body["metadata"])

    def test_v1_stream_error_is_reraised(self) -> None:
        error = APIStatusError("too many requests")
        client = sightline.wrap_cohere(FakeCohereV1(error=error))
        with self.assertRaises(APIStatusError) as caught:
            for _ in client.chat_stream(message="hi", model="command-r"):
                pass
        self.assertIs(caught.exception, error)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")

    def test_v1_chat_error(self) -> None:
        error = APIStatusError("bad")
        client = sightline.wrap_cohere(FakeCohereV1(error=error))
        with self.assertRaises(APIStatusError) as caught:
            client.chat(message="hi", model="command-r")
        self.assertIs(caught.exception, error)
        self.assertEqual(self.flush_and_get(1)[0]["metadata"]["error"]["type"], "APIStatusError")

    def test_v2_chat(self) -> None:
        client = sightline.wrap_cohere(FakeCohereV2())
        messages = [{"role": "user", "content": "Hola?"}]
        response = client.chat(model="command-a-03-2025", messages=messages)
        self.assertEqual(response.message.content[0].text, "Hola")
        (body,) = self.flush_and_get(1)
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (6, 2))
        self.assertEqual(body["request_body"]["messages"], messages)
        self.assertEqual(body["response_body"]["message"]["content"], [{"type": "text", "text": "Hola"}])

    def test_v2_chat_stream(self) -> None:
        client = sightline.wrap_cohere(FakeCohereV2())
        events = list(client.chat_stream(model="command-a-03-2025", messages=[{"role": "user", "content": "x"}]))
        self.assertEqual(len(events), 6)
        (body,) = self.flush_and_get(1)
        response = body["response_body"]
        self.assertEqual(response["id"], "c2-2")
        self.assertEqual(response["message"]["content"], [{"type": "text", "text": "Hola"}])
        self.assertEqual(response["finish_reason"], "COMPLETE")
        self.assertEqual(response["event_count"], 6)
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (5, 2))

    def test_async_v1(self) -> None:
        client = sightline.wrap_cohere(FakeAsyncCohereV1())

        async def main() -> List[Any]:
            response = await client.chat(message="hi", model="command-r")
            events = [e async for e in client.chat_stream(message="hi", model="command-r")]
            return [response, events]

        response, events = run(main())
        self.assertEqual(response.text, "Bonjour")
        self.assertEqual(len(events), 4)
        bodies = self.flush_and_get(2)
        self.assertEqual([b["metadata"]["stream"] for b in bodies], [False, True])
        self.assertEqual(bodies[1]["response_body"]["text"], "Bonjour")


if __name__ == "__main__":
    unittest.main()
