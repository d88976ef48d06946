"""Integration test against a REAL running Sightline API.

Skipped unless both env vars are set, e.g. with the local ``npm run dev`` stack::

    SIGHTLINE_IT_BASE_URL=http://localhost:8787 SIGHTLINE_IT_API_KEY=slk_... \\
        python3 -m unittest discover -s sdk/python/tests -t sdk/python -k integration
"""

from __future__ import annotations

import json
import os
import time
import unittest
import urllib.request
import uuid
from typing import Any, Dict, List

import sightline
from sightline import client as sl_client

from .support import FakeAnthropic

BASE = os.environ.get("SIGHTLINE_IT_BASE_URL", "").rstrip("/")
KEY = os.environ.get("SIGHTLINE_IT_API_KEY", "")


@unittest.skipUnless(BASE and KEY, "set SIGHTLINE_IT_BASE_URL and SIGHTLINE_IT_API_KEY to run")
class RealAPITest(unittest.TestCase):
    def setUp(self) -> None:
        sl_client._reset_for_tests()
        self.errors: List[BaseException] = []
        sightline.configure(api_key=KEY, base_url=BASE, flush_interval=0.1, max_retries=2,
                            backoff_base=0.2, on_error=self.errors.append)

    def tearDown(self) -> None:
        sl_client._reset_for_tests()

    def list_requests(self) -> Dict[str, Any]:
        request = urllib.request.Request(BASE + "/api/requests?page_size=10",
                                         headers={"X-Service-Key": KEY, "Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode("utf-8"))

    def test_records_appear(self) -> None:
        marker = uuid.uuid4().hex[:12]
        trace_model = "sdk-it-trace-" + marker
        anthropic_model = "sdk-it-claude-" + marker

        @sightline.trace(model=trace_model)
        def answer(question: str) -> str:
            return "42"

        self.assertEqual(answer("meaning of life?"), "42")
        client = sightline.wrap_anthropic(FakeAnthropic())
        client.messages.create(model=anthropic_model, max_tokens=16,
                               messages=[{"role": "user", "content": "Hi"}])
        self.assertTrue(sightline.flush(30), sightline.stats())
        self.assertEqual(sightline.stats()["sent"], 2, (sightline.stats(), self.errors))

        found: Dict[str, Any] = {}
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            page = self.list_requests()
            self.assertTrue({"items", "total", "page", "page_size"} <= set(page), page)
            found = {item["model"]: item for item in page["items"]}
            if trace_model in found and anthropic_model in found:
                break
            time.sleep(0.5)
        self.assertIn(trace_model, found)
        self.assertIn(anthropic_model, found)
        self.assertEqual(found[trace_model]["provider"], "custom")
        self.assertEqual(found[anthropic_model]["provider"], "anthropic")
        self.assertEqual(found[anthropic_model]["prompt_tokens"], 12)
        self.assertEqual(found[anthropic_model]["completion_tokens"], 5)


if __name__ == "__main__":
    unittest.main()
