"""Per-call overhead of the sightline library on the application's thread.

Measures, with the API stopped (base_url points at a closed local port, so the background
worker keeps failing and retrying while we measure):

* direct mode: wrapped stand-in Anthropic client vs the same client unwrapped
  (``messages.create``, and ``messages.create(stream=True)`` consumed to the end);
* the ``@trace`` decorator: decorated vs plain function.

Usage (from the repository root)::

    python3 sdk/python/bench/overhead.py                 # prints a markdown table
    python3 sdk/python/bench/overhead.py --calls 20000 --output sdk/python/bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import socket
import sys
import time
from typing import Callable, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # sdk/python: the package and the test stand-ins

import sightline  # noqa: E402
from tests.support import FakeAnthropic  # noqa: E402

MESSAGES = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hello, how are you?"}]


def closed_port_url() -> str:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return "http://127.0.0.1:%d" % port


def measure(fn: Callable[[], object], calls: int) -> List[int]:
    for _ in range(min(2000, calls)):  # warm-up
        fn()
    samples = []
    clock = time.perf_counter_ns
    for _ in range(calls):
        start = clock()
        fn()
        samples.append(clock() - start)
    samples.sort()
    return samples


def pct(samples: List[int], p: float) -> float:
    return samples[min(len(samples) - 1, int(len(samples) * p))] / 1000.0  # microseconds


def row(name: str, plain: List[int], wrapped: List[int]) -> Tuple[str, float, float]:
    p50 = pct(wrapped, 0.5) - pct(plain, 0.5)
    p99 = pct(wrapped, 0.99) - pct(plain, 0.99)
    line = "| %s | %.1f | %.1f | **%.1f** | %.1f | %.1f | **%.1f** |" % (
        name, pct(plain, 0.5), pct(wrapped, 0.5), p50, pct(plain, 0.99), pct(wrapped, 0.99), p99)
    return line, p50, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--output", help="also write the report to this file")
    args = parser.parse_args()

    sightline.configure(api_key="slk_bench", base_url=closed_port_url(), max_retries=3)

    plain_client = FakeAnthropic()
    wrapped_client = sightline.wrap_anthropic(FakeAnthropic())

    def plain_create() -> object:
        return plain_client.messages.create(model="claude-3-5-haiku-latest", max_tokens=256, messages=MESSAGES)

    def wrapped_create() -> object:
        return wrapped_client.messages.create(model="claude-3-5-haiku-latest", max_tokens=256, messages=MESSAGES)

    def plain_stream() -> object:
        for _ in plain_client.messages.create(model="m", max_tokens=256, messages=MESSAGES, stream=True):
            pass
        return None

    def wrapped_stream() -> object:
        for _ in wrapped_client.messages.create(model="m", max_tokens=256, messages=MESSAGES, stream=True):
            pass
        return None

    def plain_fn(prompt: str, temperature: float = 0.0) -> str:
        return prompt[:8]

    traced_fn = sightline.trace(model="my-finetune")(plain_fn)

    # clients keep a call log; keep it from growing during the run
    plain_client.calls = _NullList()
    wrapped_client.calls = _NullList()

    results = []
    for name, plain, wrapped in [
        ("direct mode: anthropic `messages.create`", plain_create, wrapped_create),
        ("direct mode: anthropic `create(stream=True)`, 12 events", plain_stream, wrapped_stream),
        ("`@trace` decorator (sync function)", lambda: plain_fn("hello world", temperature=0.1),
         lambda: traced_fn("hello world", temperature=0.1)),
    ]:
        plain_samples = measure(plain, args.calls)
        wrapped_samples = measure(wrapped, args.calls)
        results.append(row(name, plain_samples, wrapped_samples))

    stats = sightline.stats()
    sightline.shutdown(0.1)

    lines = [
        "# sightline Python SDK: per-call overhead",
        "",
        "- date: %s" % dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "- machine: %s, nproc=%d, Python %s" % (platform.platform(), os.cpu_count() or 0, platform.python_version()),
        "- calls per variant: %d (after 2,000 warm-up calls); API stopped (closed port), "
        "worker retrying in the background" % args.calls,
        "- command: `python3 sdk/python/bench/overhead.py --calls %d`" % args.calls,
        "",
        "Times in microseconds per call; overhead = wrapped - plain (target: p50 overhead < 200 us).",
        "",
        "| scenario | plain p50 | wrapped p50 | overhead p50 | plain p99 | wrapped p99 | overhead p99 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [r[0] for r in results]
    worst = max(r[1] for r in results)
    lines += [
        "",
        "Worst p50 overhead: %.1f us (%s the 200 us target)." % (worst, "within" if worst < 200 else "ABOVE"),
        "",
        "Delivery counters at the end of the run (API down, so nothing is sent; the bounded queue "
        "drops the oldest records): `%s`" % ", ".join("%s=%d" % kv for kv in stats.items()),
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(report)


class _NullList(list):  # type: ignore[type-arg]
    def append(self, item: object) -> None:
        pass


if __name__ == "__main__":
    main()
