"""wrap_anthropic: plain, streamed (sync + async), stream helper, errors."""

from __future__ import annotations

import unittest
from typing import Any, List

import sightline

from .support import (APIStatusError, ConfiguredTestCase, FakeAnthropic, FakeAsyncAnthropic,
                      anthropic_events, run)

MESSAGES = [{"role": "user", "content": "Hi"}]


class AnthropicTest(ConfiguredTestCase):
    def test_create_logs_call_and_returns_same_object(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        messages = list(MESSAGES)
        response = client.messages.create(model="claude-3-5-sonnet-latest", max_tokens=64,
                                          messages=messages, temperature=0.2)
        self.assertIs(response, client.response)
        messages.append({"role": "assistant", "content": response.content[0].text})  # app mutates later
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["model"], "claude-3-5-sonnet-latest")
        self.assertEqual(body["provider"], "anthropic")
        self.assertEqual(body["prompt_tokens"], 12)
        self.assertEqual(body["completion_tokens"], 5)
        self.assertEqual(body["request_body"], {"model": "claude-3-5-sonnet-latest", "max_tokens": 64,
                                                "messages": MESSAGES, "temperature": 0.2})
        self.assertEqual(body["response_body"], client.response.model_dump())
        self.assertEqual(body["metadata"]["status"], "success")
        self.assertEqual(body["metadata"]["stream"], False)
        self.assertEqual(body["metadata"]["token_count_source"], "reported")

    def test_wrap_twice_logs_once(self) -> None:
        client = sightline.wrap_anthropic(sightline.wrap_anthropic(FakeAnthropic()))
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES)
        self.flush_and_get(1)

    def test_non_json_kwargs_use_repr_and_headers_are_redacted(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES, metadata=object(),
                               extra_headers={"Authorization": "secret"})
        (body,) = self.flush_and_get(1)
        self.assertTrue(body["request_body"]["metadata"].startswith("<object object"))
        self.assertEqual(body["request_body"]["extra_headers"], "<redacted>")

    def test_provider_error_reraised_untouched_and_logged(self) -> None:
        error = APIStatusError("overloaded")
        client = sightline.wrap_anthropic(FakeAnthropic(error=error))
        with self.assertRaises(APIStatusError) as caught:
            client.messages.create(model="m", max_tokens=1, messages=MESSAGES)
        self.assertIs(caught.exception, error)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")
        self.assertEqual(body["metadata"]["error"], {"type": "APIStatusError", "message": "overloaded"})
        self.assertIsNone(body["response_body"])

    def assert_reassembled(self, body: Any) -> None:
        self.assertEqual(body["prompt_tokens"], 25)
        self.assertEqual(body["completion_tokens"], 17)
        self.assertEqual(body["metadata"]["stream"], True)
        self.assertIsInstance(body["metadata"]["ttft_ms"], int)
        message = body["response_body"]
        self.assertEqual(message["id"], "msg_02")
        self.assertEqual(message["stop_reason"], "tool_use")
        self.assertEqual(message["event_count"], 12)
        self.assertEqual(message["content"], [
            {"type": "text", "text": "Hello world"},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
        ])
        self.assertEqual(message["usage"], {"input_tokens": 25, "output_tokens": 17})

    def test_stream_passes_events_through_and_logs_reassembled_message(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        stream = client.messages.create(model="m", max_tokens=64, messages=MESSAGES, stream=True)
        self.assertEqual(self.api.wait_for(1, timeout=0.1), [])  # nothing logged before the end
        received: List[Any] = []
        with stream as s:
            for event in s:
                received.append(event)
        self.assertEqual(len(received), 12)
        for got, expected in zip(received, client.events):
            self.assertIs(got, expected)
        self.assertEqual(stream.response, "<httpx.Response [200 OK]>")  # attribute delegation
        (body,) = self.flush_and_get(1)
        self.assert_reassembled(body)
        self.assertEqual(body["request_body"]["stream"], True)

    def test_stream_closed_early_is_logged_as_incomplete(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        stream = client.messages.create(model="m", max_tokens=64, messages=MESSAGES, stream=True)
        next(iter(stream))
        stream.close()
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["stream_completed"], False)
        self.assertEqual(body["response_body"]["event_count"], 1)

    def test_stream_error_midway(self) -> None:
        error = APIStatusError("connection reset")
        client = sightline.wrap_anthropic(FakeAnthropic(fail_after=5, stream_error=error))
        stream = client.messages.create(model="m", max_tokens=64, messages=MESSAGES, stream=True)
        got: List[Any] = []
        with self.assertRaises(APIStatusError) as caught:
            for event in stream:
                got.append(event)
        self.assertIs(caught.exception, error)
        self.assertEqual(len(got), 5)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")
        self.assertEqual(body["response_body"]["content"], [{"type": "text", "text": "Hello world"}])

    def test_async_create(self) -> None:
        client = sightline.wrap_anthropic(FakeAsyncAnthropic())

        async def main() -> Any:
            return await client.messages.create(model="m", max_tokens=8, messages=MESSAGES)

        self.assertIs(run(main()), client.response)
        (body,) = self.flush_and_get(1)
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (12, 5))

    def test_async_stream(self) -> None:
        client = sightline.wrap_anthropic(FakeAsyncAnthropic())

        async def main() -> List[Any]:
            stream = await client.messages.create(model="m", max_tokens=8, messages=MESSAGES, stream=True)
            out = []
            async with stream:
                async for event in stream:
                    out.append(event)
            return out

        events = run(main())
        self.assertEqual([e.type for e in events], [e.type for e in anthropic_events()])
        (body,) = self.flush_and_get(1)
        self.assert_reassembled(body)

    def test_async_error(self) -> None:
        error = APIStatusError("rate limited")
        client = sightline.wrap_anthropic(FakeAsyncAnthropic(error=error))

        async def main() -> None:
            await client.messages.create(model="m", max_tokens=8, messages=MESSAGES)

        with self.assertRaises(APIStatusError) as caught:
            run(main())
        self.assertIs(caught.exception, error)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")

    def test_stream_helper_sync(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        with client.messages.stream(model="m", max_tokens=8, messages=MESSAGES) as stream:
            text = "".join(stream.text_stream)
        self.assertEqual(text, "Hello there")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["response_body"]["content"], [{"type": "text", "text": "Hello there"}])
        self.assertEqual((body["prompt_tokens"], body["completion_tokens"]), (12, 5))
        self.assertEqual(body["metadata"]["stream"], True)

    def test_stream_helper_error_on_enter(self) -> None:
        error = APIStatusError("bad request")
        client = sightline.wrap_anthropic(FakeAnthropic(error=error))
        with self.assertRaises(APIStatusError) as caught:
            with client.messages.stream(model="m", max_tokens=8, messages=MESSAGES):
                pass
        self.assertIs(caught.exception, error)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["status"], "error")

    def test_stream_helper_async(self) -> None:
        client = sightline.wrap_anthropic(FakeAsyncAnthropic())

        async def main() -> str:
            async with client.messages.stream(model="m", max_tokens=8, messages=MESSAGES) as stream:
                return "".join([event.text async for event in stream])

        self.assertEqual(run(main()), "Hello there")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["completion_tokens"], 5)

    def test_not_configured_passes_through(self) -> None:
        sightline.configure(api_key="", base_url=self.api.url, enabled=False)
        client = sightline.wrap_anthropic(FakeAnthropic())
        stream = client.messages.create(model="m", max_tokens=8, messages=MESSAGES, stream=True)
        self.assertEqual(len(list(stream)), 12)
        self.assertTrue(sightline.flush(1))
        self.assertEqual(self.api.wait_for(1, timeout=0.1), [])

    def test_object_without_messages_is_returned(self) -> None:
        thing = object()
        self.assertIs(sightline.wrap_anthropic(thing), thing)


if __name__ == "__main__":
    unittest.main()
