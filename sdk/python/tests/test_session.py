"""Sessions: session_id per client and per call, sent as metadata.session_id."""

from __future__ import annotations

import unittest

import sightline

from .support import ConfiguredTestCase, FakeAnthropic, FakeOpenAI

MESSAGES = [{"role": "user", "content": "Hi"}]


class SessionTest(ConfiguredTestCase):
    def test_client_session_id_is_sent_as_metadata(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic(), session_id=" conv-1 ")
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES)
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["session_id"], "conv-1")

    def test_call_header_wins_and_is_not_sent_to_the_provider(self) -> None:
        fake = FakeAnthropic()
        client = sightline.wrap_anthropic(fake, session_id="conv-client")
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES,
                               extra_headers={sightline.SESSION_HEADER: "conv-call", "X-App": "1"})
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES)
        bodies = self.flush_and_get(2)
        self.assertEqual(sorted(b["metadata"]["session_id"] for b in bodies), ["conv-call", "conv-client"])
        self.assertEqual(fake.calls[0]["extra_headers"], {"X-App": "1"})

    def test_no_session_leaves_metadata_without_it(self) -> None:
        client = sightline.wrap_anthropic(FakeAnthropic())
        client.messages.create(model="m", max_tokens=1, messages=MESSAGES)
        (body,) = self.flush_and_get(1)
        self.assertNotIn("session_id", body["metadata"])

    def test_trace_session_id(self) -> None:
        @sightline.trace(model="m1", session_id="conv-t")
        def answer(question: str) -> str:
            return question.upper()

        self.assertEqual(answer("hi"), "HI")
        (body,) = self.flush_and_get(1)
        self.assertEqual(body["metadata"]["session_id"], "conv-t")
        self.assertEqual(body["metadata"]["trace"], answer.__qualname__)

    def test_proxy_client_sends_the_session_header(self) -> None:
        proxied = sightline.with_proxy(FakeOpenAI(), session_id="conv-p")
        self.assertEqual(proxied.default_headers[sightline.SESSION_HEADER], "conv-p")


if __name__ == "__main__":
    unittest.main()
