"""with_proxy: rewrite an OpenAI-style client to the capture proxy."""

from __future__ import annotations

import unittest

import sightline

from .support import TEST_KEY, FakeOpenAI, SightlineTestCase, configure_fast


class PlainClient:
    def __init__(self) -> None:
        self.base_url = "https://api.together.xyz/v1"
        self.default_headers = {"X-Other": "1"}


class ProxyTest(SightlineTestCase):
    def test_openai_client_is_copied_and_rewritten(self) -> None:
        configure_fast(self.api.url, proxy_url="http://localhost:8080/")
        original = FakeOpenAI(api_key="sk-123", default_headers={"X-App": "demo"})
        proxied = sightline.with_proxy(original)
        self.assertIsNot(proxied, original)
        self.assertIsInstance(proxied, FakeOpenAI)
        self.assertEqual(str(proxied.base_url), "http://localhost:8080/v1/")
        self.assertEqual(proxied.default_headers["X-Service-Key"], TEST_KEY)
        self.assertEqual(proxied.default_headers["X-App"], "demo")
        self.assertEqual(proxied.default_headers["Authorization"], "Bearer sk-123")
        # the original is untouched
        self.assertEqual(str(original.base_url), "https://api.openai.com/v1/")
        self.assertNotIn("X-Service-Key", original.default_headers)

    def test_explicit_arguments_override_config(self) -> None:
        configure_fast(self.api.url)
        proxied = sightline.with_proxy(FakeOpenAI(), api_key="slk_other", proxy_url="https://proxy.example/v1")
        self.assertEqual(str(proxied.base_url), "https://proxy.example/v1/")
        self.assertEqual(proxied.default_headers["X-Service-Key"], "slk_other")

    def test_plain_object_with_base_url(self) -> None:
        configure_fast(self.api.url, proxy_url="http://proxy:8080")
        original = PlainClient()
        proxied = sightline.with_proxy(original)
        self.assertIsNot(proxied, original)
        self.assertEqual(proxied.base_url, "http://proxy:8080/v1")
        self.assertEqual(proxied.default_headers, {"X-Other": "1", "X-Service-Key": TEST_KEY})
        self.assertEqual(original.base_url, "https://api.together.xyz/v1")
        self.assertEqual(original.default_headers, {"X-Other": "1"})

    def test_disabled_returns_original(self) -> None:
        configure_fast(self.api.url, enabled=False)
        client = FakeOpenAI()
        self.assertIs(sightline.with_proxy(client), client)

    def test_unsupported_object_returned_unchanged(self) -> None:
        configure_fast(self.api.url)
        thing = object()
        self.assertIs(sightline.with_proxy(thing), thing)


if __name__ == "__main__":
    unittest.main()
