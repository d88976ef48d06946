"""Retry policy: Retry-After parsing, full-jitter backoff, batch retry rounds, outages."""

from __future__ import annotations

import email.utils
import unittest
from typing import List

from sightline.transport import (OK, REJECTED, RETRY, Outcome, SightlineHTTPError, Transport,
                                 backoff_delay, outage_delay, parse_retry_after, send_with_retry)

from .support import Reply, SightlineTestCase


class RetryAfterTest(unittest.TestCase):
    def test_seconds(self) -> None:
        self.assertEqual(parse_retry_after("7"), 7.0)
        self.assertEqual(parse_retry_after(" 1.5 "), 1.5)
        self.assertEqual(parse_retry_after("-3"), 0.0)

    def test_http_date(self) -> None:
        now = 1_700_000_000.0
        header = email.utils.formatdate(now + 30, usegmt=True)
        self.assertAlmostEqual(parse_retry_after(header, now=now) or 0, 30.0, delta=1.0)
        past = email.utils.formatdate(now - 30, usegmt=True)
        self.assertEqual(parse_retry_after(past, now=now), 0.0)

    def test_garbage(self) -> None:
        for value in (None, "", "soon", "nan"):
            self.assertIsNone(parse_retry_after(value), value)


class BackoffTest(unittest.TestCase):
    def test_full_jitter_bounds(self) -> None:
        seen: List[float] = []
        self.assertEqual(backoff_delay(3, 0.5, 10.0, lambda a, b: seen.append(b) or b), 4.0)
        self.assertEqual(backoff_delay(10, 0.5, 10.0, lambda a, b: b), 10.0)
        for attempt in range(6):
            delay = backoff_delay(attempt, 0.1, 1.0)
            self.assertGreaterEqual(delay, 0.0)
            self.assertLessEqual(delay, min(1.0, 0.1 * 2 ** attempt))


class SendWithRetryTest(unittest.TestCase):
    def run_batch(self, outcomes: List[Outcome], bodies: List[bytes], max_retries: int = 2):
        posted: List[bytes] = []
        sleeps: List[float] = []
        errors: List[BaseException] = []
        script = list(outcomes)

        def post(body: bytes) -> Outcome:
            posted.append(body)
            return script.pop(0) if script else Outcome(OK, 202)

        def sleep(seconds: float) -> bool:
            sleeps.append(seconds)
            return False

        result = send_with_retry(post, bodies, max_retries, 0.01, 0.02, sleep, errors.append)
        return result, posted, sleeps, errors

    def test_all_ok(self) -> None:
        result, posted, sleeps, _ = self.run_batch([], [b"a", b"b"])
        self.assertEqual((result.sent, result.retries, posted, sleeps), (2, 0, [b"a", b"b"], []))
        self.assertEqual(result.held, [])

    def test_service_wide_failure_holds_the_rest_of_the_batch(self) -> None:
        down = Outcome(RETRY, None, error=OSError("refused"), service_wide=True)
        result, posted, sleeps, errors = self.run_batch([down], [b"a", b"b", b"c"])
        self.assertEqual(posted, [b"a"])
        self.assertEqual(result.held, [b"a", b"b", b"c"])
        self.assertEqual((result.sent, result.failed, result.retries, sleeps, errors), (0, 0, 0, [], []))

    def test_held_keeps_the_order_of_records_retried_earlier(self) -> None:
        broken = Outcome(RETRY, 500, error=SightlineHTTPError(500, "bug"))
        down = Outcome(RETRY, 503, retry_after=7.0, error=SightlineHTTPError(503, "db down"),
                       service_wide=True)
        result, posted, _, _ = self.run_batch([broken, Outcome(OK), down], [b"a", b"b", b"c"])
        self.assertEqual(posted, [b"a", b"b", b"c"])
        self.assertEqual(result.held, [b"a", b"c"])
        self.assertEqual((result.sent, result.retry_after), (1, 7.0))

    def test_503_is_held_whatever_max_retries(self) -> None:
        down = Outcome(RETRY, 503, retry_after=1.0, error=SightlineHTTPError(503, "db down"),
                       service_wide=True)
        result, posted, sleeps, errors = self.run_batch([down], [b"a", b"b"], max_retries=0)
        self.assertEqual((posted, result.held, result.failed, sleeps), ([b"a"], [b"a", b"b"], 0, []))
        self.assertEqual(errors, [])

    def test_outage_delay_uses_capped_retry_after_else_backoff(self) -> None:
        self.assertEqual(outage_delay(100.0, 0, 0.5, 10.0, 3.0), 3.0)
        self.assertEqual(outage_delay(1.0, 5, 0.5, 10.0, 3.0), 1.0)
        for outage_round in range(8):
            delay = outage_delay(None, outage_round, 0.5, 10.0, 3.0)
            self.assertGreaterEqual(delay, 0.0)
            self.assertLessEqual(delay, min(10.0, 0.5 * 2 ** outage_round))

    def test_per_record_500_does_not_block_the_rest(self) -> None:
        broken = Outcome(RETRY, 500, error=SightlineHTTPError(500, "bug"))
        result, posted, _, errors = self.run_batch([broken, Outcome(OK), broken, broken], [b"a", b"b"])
        self.assertEqual(posted, [b"a", b"b", b"a", b"a"])
        self.assertEqual((result.sent, result.failed, result.retries), (1, 1, 2))
        self.assertEqual(len(errors), 1)

    def test_rejected_is_not_retried(self) -> None:
        bad = Outcome(REJECTED, 422, error=SightlineHTTPError(422, "model: required"))
        result, posted, sleeps, errors = self.run_batch([bad], [b"a", b"b"])
        self.assertEqual((result.rejected, result.sent, posted, sleeps), (1, 1, [b"a", b"b"], []))
        self.assertEqual(errors[0].status, 422)  # type: ignore[attr-defined]

    def test_gives_up_after_max_retries(self) -> None:
        broken = Outcome(RETRY, 500, error=SightlineHTTPError(500, "bug"))
        result, posted, sleeps, errors = self.run_batch([broken] * 10, [b"a", b"b"], max_retries=2)
        self.assertEqual(posted, [b"a", b"b"] * 3)
        self.assertEqual((result.failed, result.retries, len(sleeps)), (2, 2, 2))
        self.assertEqual(len(errors), 1)

    def test_stop_holds_pending_items(self) -> None:
        broken = Outcome(RETRY, 500, error=SightlineHTTPError(500, "bug"))
        result = send_with_retry(lambda b: broken, [b"a", b"b"], 5, 0, 0, lambda s: True, lambda e: None)
        self.assertEqual((result.held, result.failed), ([b"a", b"b"], 0))


class ClassifyTest(SightlineTestCase):
    """Transport.post against a real local HTTP server (tests.support.StubAPI)."""

    def post(self, reply: Reply) -> Outcome:
        self.api.script = [reply]
        return Transport(self.api.url + "/internal/log", "slk_x", 2.0).post(b"{}")

    def test_classes(self) -> None:
        cases = [
            ((202, {}, {"id": "x"}), OK, False),
            ((503, {"Retry-After": "5"}, {"detail": "database unavailable"}), RETRY, True),
            ((429, {}, {"detail": "limit"}), RETRY, True),
            ((502, {}, {}), RETRY, True),
            ((500, {}, {"detail": "bug"}), RETRY, False),
            ((500, {"Retry-After": "2"}, {}), RETRY, True),
            ((408, {}, {}), RETRY, False),
            ((401, {}, {"detail": "revoked"}), REJECTED, False),
            ((413, {}, {}), REJECTED, False),
        ]
        for reply, kind, service_wide in cases:
            outcome = self.post(reply)
            self.assertEqual((outcome.kind, outcome.service_wide), (kind, service_wide), reply)
        self.assertEqual(self.post((503, {"Retry-After": "5"}, {"detail": "db"})).retry_after, 5.0)


if __name__ == "__main__":
    unittest.main()
