"""Background delivery against a stand-in API: exact JSON, retries, drops, flush, exit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import warnings
import unittest
from typing import List

import sightline

from .support import (TEST_KEY, Received, Reply, SightlineTestCase, StubAPI, closed_port_url,
                      configure_fast)


@sightline.trace(model="echo-1")
def echo(text: str, *, loud: bool = False) -> str:
    return text.upper() if loud else text


class DeliveryTest(SightlineTestCase):
    def test_202_exact_json_and_headers(self) -> None:
        configure_fast(self.api.url)
        self.assertEqual(echo("hi", loud=True), "HI")
        (body,) = self.flush_and_get(1)
        request = self.api.requests[0]
        self.assertEqual(request.path, "/internal/log")
        self.assertEqual(request.headers["Content-Type"], "application/json")
        self.assertEqual(request.headers["X-Service-Key"], TEST_KEY)
        self.assertEqual(body["model"], "echo-1")
        self.assertEqual(body["provider"], "custom")
        self.assertEqual(body["request_body"], {"args": ["hi"], "kwargs": {"loud": True}})
        self.assertEqual(body["response_body"], {"output": "HI"})
        self.assertNotIn("cost_usd", body)  # unknown: left out, never 0
        self.assertIsInstance(body["latency_ms"], int)
        self.assertRegex(body["created_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$")
        self.assertEqual(body["metadata"]["status"], "success")
        self.assertEqual(body["metadata"]["trace"], "echo")
        self.assertEqual(sightline.stats()["sent"], 1)

    def test_500_then_202_is_retried(self) -> None:
        configure_fast(self.api.url)
        self.api.script = [(500, {}, {"detail": "boom"})]
        echo("a")
        self.flush_and_get(2)
        stats = sightline.stats()
        self.assertEqual((stats["sent"], stats["retries"], stats["failed"]), (1, 1, 0))

    def test_429_honours_retry_after(self) -> None:
        configure_fast(self.api.url, backoff_max=0.01)
        self.api.script = [(429, {"Retry-After": "1"}, {"detail": "monthly request limit reached"})]
        echo("a")
        received = self.api.wait_for(1)
        self.assertTrue(sightline.flush(5))
        received = self.api.wait_for(2)
        self.assertEqual(len(received), 2)
        gap = received[1].at - received[0].at
        self.assertGreaterEqual(gap, 0.9)
        self.assertLess(gap, 3.0)
        self.assertEqual(sightline.stats()["sent"], 1)

    def test_401_is_not_retried(self) -> None:
        errors: List[BaseException] = []
        configure_fast(self.api.url, on_error=errors.append)
        self.api.script = [(401, {}, {"detail": "API key revoked"})]
        echo("a")
        self.assertTrue(sightline.flush(5))
        time.sleep(0.1)
        self.assertEqual(len(self.api.requests), 1)
        stats = sightline.stats()
        self.assertEqual((stats["rejected"], stats["sent"], stats["retries"]), (1, 0, 0))
        self.assertEqual(len(errors), 1)
        self.assertIsInstance(errors[0], sightline.SightlineHTTPError)
        self.assertEqual(errors[0].status, 401)  # type: ignore[attr-defined]
        self.assertEqual(errors[0].detail, "API key revoked")  # type: ignore[attr-defined]

    def test_api_down_app_unaffected_then_recovery_delivers_everything(self) -> None:
        errors: List[BaseException] = []
        url = closed_port_url()
        configure_fast(url, max_retries=0, backoff_base=0.02, backoff_max=0.05, on_error=errors.append)
        results = [echo(str(i)) for i in range(5)]
        self.assertEqual(results, ["0", "1", "2", "3", "4"])
        self.wait_until(lambda: sightline.stats()["retries"] >= 3)
        stats = sightline.stats()
        self.assertEqual((stats["failed"], stats["sent"], stats["dropped"]), (0, 0, 0))
        self.assertEqual(stats["queued"] + stats["in_flight"], 5)
        recovered = StubAPI(port=int(url.rsplit(":", 1)[1]))
        try:
            self.assertTrue(sightline.flush(5))
            outputs = sorted(b["response_body"]["output"] for b in recovered.accepted())
        finally:
            recovered.close()
        self.assertEqual(outputs, ["0", "1", "2", "3", "4"])  # every record, once
        self.assertEqual(sightline.stats()["sent"], 5)
        self.assertEqual(errors, [])  # an outage is not an error: nothing was given up

    def test_503_with_retry_after_then_202_delivers_every_record_once(self) -> None:
        configure_fast(self.api.url, max_retries=1)
        outage_ends = time.monotonic() + 1.5

        def answer(received: Received) -> Reply:
            if time.monotonic() < outage_ends:  # a database outage: the API answers 503
                return 503, {"Retry-After": "1"}, {"detail": "database unavailable"}
            return 202, {}, {"id": "00000000-0000-7000-8000-000000000001"}

        self.api.answer = answer
        for i in range(20):
            echo(str(i))
        self.assertTrue(sightline.flush(10))
        outputs = sorted(b["response_body"]["output"] for b in self.api.accepted())
        self.assertEqual(outputs, sorted(str(i) for i in range(20)))  # every record, once
        refusals = [r for r in self.api.requests if r.status == 503]
        self.assertGreaterEqual(len(refusals), 2)  # the outage outlasted max_retries=1
        self.assertGreaterEqual(refusals[1].at - refusals[0].at, 0.9)  # Retry-After: 1 honoured
        stats = sightline.stats()
        self.assertEqual((stats["sent"], stats["failed"], stats["dropped"], stats["rejected"]),
                         (20, 0, 0, 0))

    def test_full_buffer_during_outage_drops_oldest_and_counts(self) -> None:
        configure_fast(self.api.url, max_queue_size=5, batch_size=5, backoff_base=0.05,
                       backoff_max=0.05)
        down = [True]
        self.api.answer = lambda r: ((503, {}, {"detail": "database unavailable"}) if down[0]
                                     else (202, {}, {"id": "00000000-0000-7000-8000-000000000002"}))
        for i in range(3):
            echo(str(i))
        self.api.wait_for(1)
        for i in range(3, 7):
            echo(str(i))
        # Once a POST made after these calls has failed, the buffer holds the newest five.
        self.api.wait_for(len(self.api.requests) + 1)
        self.wait_until(lambda: sightline.stats()["dropped"] == 2)
        down[0] = False
        self.assertTrue(sightline.flush(5))
        outputs = sorted(b["response_body"]["output"] for b in self.api.accepted())
        self.assertEqual(outputs, ["2", "3", "4", "5", "6"])
        stats = sightline.stats()
        self.assertEqual((stats["sent"], stats["dropped"], stats["failed"]), (5, 2, 0))

    def test_on_error_that_raises_is_contained(self) -> None:
        def bad_handler(exc: BaseException) -> None:
            raise RuntimeError("handler broke")

        configure_fast(self.api.url, max_retries=0, on_error=bad_handler)
        self.api.script = [(500, {}, {"detail": "bug"})]
        self.assertEqual(echo("x"), "x")
        self.assertTrue(sightline.flush(5))
        self.assertEqual(sightline.stats()["failed"], 1)

    def test_flush_inside_on_error_does_not_deadlock(self) -> None:
        results: List[bool] = []

        def handler(exc: BaseException) -> None:
            results.append(sightline.flush(timeout=5))

        configure_fast(self.api.url, on_error=handler)
        self.api.script = [(422, {}, {"detail": "model: required"})]
        echo("x")
        started = time.perf_counter()
        self.assertTrue(sightline.flush(5))
        self.assertLess(time.perf_counter() - started, 2)
        self.assertEqual(results, [False])
        self.assertEqual(sightline.stats()["rejected"], 1)

    def test_queue_full_drops_oldest(self) -> None:
        configure_fast(self.api.url, max_queue_size=3, batch_size=100, flush_interval=30)
        for i in range(5):
            echo(str(i))
        self.assertEqual(sightline.stats()["dropped"], 2)
        self.assertEqual(sightline.stats()["queued"], 3)
        bodies = self.flush_and_get(3)
        self.assertEqual([b["response_body"]["output"] for b in bodies], ["2", "3", "4"])

    def test_batch_size_wakes_delivery_before_interval(self) -> None:
        configure_fast(self.api.url, batch_size=3, flush_interval=30)
        for i in range(3):
            echo(str(i))
        self.assertEqual(len(self.api.wait_for(3, timeout=3)), 3)

    def test_interval_sends_without_flush(self) -> None:
        configure_fast(self.api.url, batch_size=100, flush_interval=0.05)
        echo("x")
        self.assertEqual(len(self.api.wait_for(1, timeout=3)), 1)

    def test_flush_timeout(self) -> None:
        configure_fast(self.api.url)
        self.api.delay = 0.6
        echo("slow")
        started = time.perf_counter()
        self.assertFalse(sightline.flush(timeout=0.1))
        self.assertLess(time.perf_counter() - started, 0.4)
        self.assertTrue(sightline.flush(timeout=5))
        self.assertEqual(sightline.stats()["sent"], 1)

    def test_shutdown_with_api_down_is_bounded(self) -> None:
        configure_fast(closed_port_url(), max_retries=50, backoff_base=0.2, backoff_max=0.2)
        echo("x")
        started = time.perf_counter()
        self.assertFalse(sightline.shutdown(timeout=0.3))
        self.assertLess(time.perf_counter() - started, 1.5)

    @unittest.skipUnless(hasattr(os, "fork"), "POSIX only")
    def test_fork_child_does_not_resend_parent_queue(self) -> None:
        configure_fast(self.api.url, batch_size=100, flush_interval=30)
        echo("parent")
        with warnings.catch_warnings():  # 3.12+ warns about fork() with threads: that is the point
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # child: log one record, deliver it, leave without running atexit
            try:
                echo("child")
                code = 0 if sightline.flush(5) else 1
            except BaseException:
                code = 2
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode")
                         else status >> 8, 0)
        self.assertTrue(sightline.flush(5))
        received = self.api.wait_for(2)
        self.assertEqual(sorted(r.body["response_body"]["output"] for r in received), ["child", "parent"])
        self.assertEqual(len(self.api.wait_for(3, timeout=0.2)), 2)

    def test_flush_at_exit(self) -> None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        script = textwrap.dedent("""
            import sightline
            sightline.configure(api_key=%r, base_url=%r, flush_interval=60, batch_size=1000)

            @sightline.trace(model="exit-model")
            def work(x):
                return x + 1

            work(41)
            # no flush(): the atexit hook must deliver the record
        """) % (TEST_KEY, self.api.url)
        env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("SERVICE_API_KEY", None)
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              timeout=30, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        received = self.api.wait_for(1, timeout=5)
        self.assertEqual(len(received), 1, done.stderr)
        self.assertEqual(received[0].body["model"], "exit-model")
        self.assertEqual(received[0].body["response_body"], {"output": 42})


if __name__ == "__main__":
    unittest.main()
