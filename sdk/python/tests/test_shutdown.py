"""flush() and shutdown() without a timeout are bounded by ``flush_timeout`` (5 s default).

With the API down (refused connection) or hung (accepts, never answers) they return
``False`` within that bound, and shutdown() counts every undelivered record once as
``unsent``; a script ending with ``sightline.shutdown()`` exits. Upper bounds on elapsed
time are generous (the bound plus several seconds): what is tested is that they return.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from typing import Callable, Dict, List, Tuple

import sightline
from sightline import client as sl_client
from sightline.config import DEFAULT_FLUSH_TIMEOUT

from .support import TEST_KEY, SightlineTestCase, SilentAPI, StubAPI, closed_port_url

#: Default bound plus slack for a loaded 2-core machine, in seconds.
WITHIN = DEFAULT_FLUSH_TIMEOUT + 4.0


@sightline.trace(model="echo-1")
def echo(text: str) -> str:
    return text


def timed(fn: Callable[[], bool]) -> Tuple[bool, float]:
    started = time.monotonic()
    value = fn()
    return value, time.monotonic() - started


class BoundedShutdownTest(SightlineTestCase):
    silent: SilentAPI

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.silent = SilentAPI()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.silent.close()
        super().tearDownClass()

    def assert_accounted(self, stats: Dict[str, int]) -> None:
        """Every record accepted is counted exactly once."""
        total = sum(stats[k] for k in ("sent", "dropped", "rejected", "failed", "unsent",
                                       "invalid", "queued", "in_flight"))
        self.assertEqual(total, stats["enqueued"], stats)

    def check_api_down(self, url: str) -> None:
        # Library defaults for every bound: timeout 5 s per request, flush_timeout 5 s.
        sightline.configure(api_key=TEST_KEY, base_url=url, flush_interval=0.05)
        for i in range(3):
            echo("call %d" % i)

        ok, elapsed = timed(sightline.flush)
        self.assertFalse(ok)
        self.assertLess(elapsed, WITHIN)
        stats = sightline.stats()
        # flush() keeps what it could not deliver: queued or in flight, retried later.
        self.assertEqual((stats["enqueued"], stats["sent"], stats["unsent"]), (3, 0, 0))
        self.assertEqual(stats["queued"] + stats["in_flight"], 3)

        ok, elapsed = timed(sightline.shutdown)
        self.assertFalse(ok)
        self.assertLess(elapsed, WITHIN)
        stats = sightline.stats()
        self.assertEqual((stats["sent"], stats["unsent"], stats["queued"], stats["in_flight"]),
                         (0, 3, 0, 0), stats)
        self.assert_accounted(stats)

    def test_refused_connections_flush_and_shutdown_return_false_within_default_bound(self) -> None:
        self.check_api_down(closed_port_url())

    def test_silent_api_flush_and_shutdown_return_false_within_default_bound(self) -> None:
        before = self.silent.connections
        self.check_api_down(self.silent.url)
        self.assertGreater(self.silent.connections, before)  # it really was reached, and hung

    def test_flush_on_the_callers_thread_stops_posting_at_its_bound(self) -> None:
        # No delivery thread (as when Python refuses to start one at interpreter exit):
        # flush() drains on the caller's thread, one POST at a time. Each POST here takes
        # 1 s and fails on its own (500), so the round would go on through all five
        # records; past the 1 s bound no further POST may start.
        self.api.delay = 1.0
        self.api.answer = lambda received: (500, {}, {"detail": "boom"})
        sightline.configure(api_key=TEST_KEY, base_url=self.api.url, flush_interval=0.05)
        loop = sl_client.current_delivery_loop()
        assert loop is not None
        loop._thread_failed = True  # what a RuntimeError from Thread.start() leaves behind
        for i in range(5):
            echo("call %d" % i)
        self.assertFalse(sightline.flush(timeout=1.0))
        self.assertLessEqual(len(self.api.wait_for(3, timeout=1.5)), 2)
        self.assertEqual(sightline.stats()["queued"], 5)  # held, not lost
        self.assertFalse(sightline.shutdown(timeout=0))
        self.assertEqual(sightline.stats()["unsent"], 5)

    def test_explicit_timeout_and_flush_timeout_option(self) -> None:
        sightline.configure(api_key=TEST_KEY, base_url=self.silent.url, flush_interval=0.05,
                            flush_timeout=0.2)
        echo("one")
        self.assertFalse(sightline.flush())  # the configured bound, 0.2 s
        echo("two")
        ok, elapsed = timed(lambda: sightline.shutdown(timeout=0.3))
        self.assertFalse(ok)
        self.assertLess(elapsed, WITHIN)
        stats = sightline.stats()
        self.assertEqual((stats["enqueued"], stats["unsent"], stats["sent"]), (2, 2, 0))

    def test_happy_path_flush_and_shutdown_return_true(self) -> None:
        sightline.configure(api_key=TEST_KEY, base_url=self.api.url, flush_interval=0.05)
        for i in range(3):
            echo("call %d" % i)
        self.assertTrue(sightline.flush())
        echo("last")
        self.assertTrue(sightline.shutdown())
        stats = sightline.stats()
        self.assertEqual((stats["enqueued"], stats["sent"], stats["unsent"], stats["queued"]),
                         (4, 4, 0, 0))
        self.assertEqual(len(self.api.accepted()), 4)

    def test_late_answer_after_shutdown_is_not_counted_twice(self) -> None:
        # The API answers 202, but only after shutdown's bound: the record was counted as
        # unsent then; the late answer must not also count it as sent.
        self.api.delay = 1.0
        sightline.configure(api_key=TEST_KEY, base_url=self.api.url, flush_interval=0.05)
        echo("late")
        self.assertFalse(sightline.shutdown(timeout=0.3))
        self.assertEqual(sightline.stats()["unsent"], 1)
        self.assertEqual(len(self.api.wait_for(1, timeout=5)), 1)  # answered 202 meanwhile
        time.sleep(0.3)  # let the delivery thread read the answer
        stats = sightline.stats()
        self.assertEqual((stats["sent"], stats["unsent"], stats["in_flight"]), (0, 1, 0), stats)
        self.assert_accounted(stats)


class ScriptEndingWithShutdownTest(SightlineTestCase):
    """A batch script whose last line is ``sightline.shutdown()`` (no timeout) exits."""

    SCRIPT = textwrap.dedent("""
        import json
        import sightline
        sightline.configure(api_key=%r, base_url=%r, flush_interval=0.05)

        @sightline.trace(model="shutdown-model")
        def greet(name):
            return "hello " + name

        for name in ("a", "b", "c"):
            greet(name)
        ok = sightline.shutdown()
        print(json.dumps({"ok": ok, "stats": sightline.stats()}))
    """)

    def run_script(self, url: str) -> Tuple[Dict[str, object], float]:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("SERVICE_API_KEY", None)
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", self.SCRIPT % (TEST_KEY, url)], env=env,
                              capture_output=True, timeout=60, text=True)
        elapsed = time.monotonic() - started
        self.assertEqual(done.returncode, 0, done.stderr)
        lines: List[str] = done.stdout.strip().splitlines()
        return json.loads(lines[-1]), elapsed

    def check_exits_with_api_down(self, url: str) -> None:
        report, elapsed = self.run_script(url)
        self.assertIs(report["ok"], False)
        stats = report["stats"]
        assert isinstance(stats, dict)
        self.assertEqual((stats["enqueued"], stats["sent"], stats["unsent"], stats["queued"],
                          stats["in_flight"]), (3, 0, 3, 0, 0))
        # shutdown's bound, then the exit hook finds nothing left; plus interpreter start-up.
        self.assertLess(elapsed, WITHIN + 5.0)

    def test_exits_when_api_refuses_connections(self) -> None:
        self.check_exits_with_api_down(closed_port_url())

    def test_exits_when_api_never_answers(self) -> None:
        silent = SilentAPI()
        try:
            self.check_exits_with_api_down(silent.url)
        finally:
            silent.close()

    def test_reports_true_when_api_answers(self) -> None:
        report, _ = self.run_script(self.api.url)
        self.assertIs(report["ok"], True)
        self.assertEqual(len(self.api.accepted()), 3)
