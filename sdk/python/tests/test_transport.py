"""Retry policy: Retry-After parsing, full-jitter backoff, batch retry rounds."""

from __future__ import annotations

import email.utils
import unittest
from typing import List

from sightline.transport import (OK, REJECTED, RETRY, Outcome, SightlineHTTPError, backoff_delay,
                                 parse_retry_after, send_with_retry)


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

        result = send_with_retry(post, bodies, max_retries, 0.01, 0.02, 3.0, sleep, errors.append)
        return result, posted, sleeps, errors

    def test_all_ok(self) -> None:
        result, posted, sleeps, _ = self.run_batch([], [b"a", b"b"])
        self.assertEqual((result.sent, result.retries, posted, sleeps), (2, 0, [b"a", b"b"], []))

    def test_service_wide_failure_stops_the_round(self) -> None:
        down = Outcome(RETRY, None, error=OSError("refused"), service_wide=True)
        result, posted, sleeps, _ = self.run_batch([down], [b"a", b"b", b"c"])
        self.assertEqual(posted, [b"a", b"a", b"b", b"c"])
        self.assertEqual((result.sent, result.retries, len(sleeps)), (3, 1, 1))

    def test_retry_after_is_used_and_capped(self) -> None:
        limited = Outcome(RETRY, 429, retry_after=100.0, error=SightlineHTTPError(429, "quota"),
                          service_wide=True)
        result, _, sleeps, _ = self.run_batch([limited], [b"a"])
        self.assertEqual(sleeps, [3.0])
        self.assertEqual(result.sent, 1)

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
        down = Outcome(RETRY, 503, error=SightlineHTTPError(503, "db down"), service_wide=True)
        result, posted, sleeps, errors = self.run_batch([down] * 10, [b"a", b"b"], max_retries=2)
        self.assertEqual(posted, [b"a"] * 3)
        self.assertEqual((result.failed, result.retries, len(sleeps)), (2, 2, 2))
        self.assertEqual(len(errors), 1)

    def test_hard_stop_counts_unsent(self) -> None:
        down = Outcome(RETRY, None, error=OSError(), service_wide=True)
        result = send_with_retry(lambda b: down, [b"a", b"b"], 5, 0, 0, 0, lambda s: True, lambda e: None)
        self.assertEqual((result.unsent, result.failed), (2, 0))


if __name__ == "__main__":
    unittest.main()
