"""HTTP delivery of encoded records to ``POST {base_url}/internal/log`` with retries.

Standard library only (``urllib.request``). One record per POST (the API has no batch
endpoint). :class:`Transport` sends one body and classifies the answer;
:func:`send_with_retry` sends a batch, retrying records that fail on their own with
exponential backoff and full jitter, and hands back the records held by a service-wide
outage (the delivery loop puts them back in the buffer and waits :func:`outage_delay`).

The same policy is implemented by ``sdk/js/src/transport.ts`` and ``worker.ts``.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Callable, List, Mapping, Optional, Sequence

from ._version import SDK_NAME

OK = "ok"
RETRY = "retry"
REJECTED = "rejected"

#: Statuses that mean the service as a whole is unavailable (rate limit, gateway, database
#: outage: the API answers 503 + ``Retry-After`` then): stop the current round at once (the
#: other records of the batch would fail the same way), keep the records in the buffer and
#: retry them until they are delivered. A retryable status that carries ``Retry-After``
#: counts as service-wide too: the server has said when to come back.
SERVICE_WIDE = frozenset({429, 502, 503, 504})


class SightlineHTTPError(Exception):
    """The API refused a record (any non-2xx answer).

    Attributes:
        status: HTTP status code.
        detail: the ``detail`` field of the error body (or the raw body text).
    """

    def __init__(self, status: int, detail: str) -> None:
        super().__init__("sightline API answered %d: %s" % (status, detail))
        self.status = status
        self.detail = detail


class Outcome:
    """Result of one POST: ``kind`` is ``"ok"``, ``"retry"`` or ``"rejected"``.

    Attributes:
        status: HTTP status, or ``None`` for a network error.
        retry_after: seconds from a ``Retry-After`` header (uncapped), or ``None``.
        error: exception describing a failure (``None`` on success).
        service_wide: the failure affects every record (network error, 429, 502-504, or a
            retryable status with ``Retry-After``): the record is held, never given up.
    """

    __slots__ = ("kind", "status", "retry_after", "error", "service_wide")

    def __init__(self, kind: str, status: Optional[int] = None, retry_after: Optional[float] = None,
                 error: Optional[BaseException] = None, service_wide: bool = False) -> None:
        self.kind = kind
        self.status = status
        self.retry_after = retry_after
        self.error = error
        self.service_wide = service_wide


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP-date.

    Returns ``None`` when absent or unparseable; never negative.
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
        return max(0.0, seconds) if seconds == seconds else None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def backoff_delay(retry_index: int, base: float, cap: float,
                  rng: Callable[[float, float], float] = random.uniform) -> float:
    """Full-jitter backoff: ``uniform(0, min(cap, base * 2**retry_index))`` seconds."""
    ceiling = min(cap, base * (2 ** min(retry_index, 30)))
    return rng(0.0, ceiling) if ceiling > 0 else 0.0


def _detail(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")[:1000]
    try:
        data = json.loads(text)
    except ValueError:
        return text.strip() or "(empty body)"
    if isinstance(data, dict) and "detail" in data:
        return str(data["detail"])
    return text


class Transport:
    """Posts encoded records to the log endpoint.

    Args:
        url: full URL of ``/internal/log``.
        api_key: sent as ``X-Service-Key``.
        timeout: seconds per request.
    """

    def __init__(self, url: str, api_key: str, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self._headers = {
            "Content-Type": "application/json",
            "X-Service-Key": api_key,
            "User-Agent": SDK_NAME,
            "Accept": "application/json",
        }
        self._opener = urllib.request.build_opener()

    def post(self, body: bytes) -> Outcome:
        """Send one record. Never raises: every failure becomes an :class:`Outcome`."""
        request = urllib.request.Request(self.url, data=body, headers=self._headers, method="POST")
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                response.read()
                status = int(response.status)
            if 200 <= status < 300:
                return Outcome(OK, status)
            return Outcome(REJECTED, status, error=SightlineHTTPError(status, "unexpected status"))
        except urllib.error.HTTPError as exc:
            return self._classify(exc.code, exc.headers, exc)
        except (urllib.error.URLError, OSError, http.client.HTTPException, socket.timeout,
                ValueError) as exc:
            return Outcome(RETRY, None, error=exc, service_wide=True)

    @staticmethod
    def _classify(status: int, headers: Optional[Mapping[str, str]], exc: urllib.error.HTTPError) -> Outcome:
        try:
            raw = exc.read()
        except Exception:
            raw = b""
        finally:
            try:
                exc.close()
            except Exception:
                pass
        error = SightlineHTTPError(status, _detail(raw))
        retry_after = parse_retry_after(headers.get("Retry-After") if headers is not None else None)
        if status == 429 or status == 408 or status >= 500:
            service_wide = status in SERVICE_WIDE or retry_after is not None
            return Outcome(RETRY, status, retry_after, error, service_wide=service_wide)
        return Outcome(REJECTED, status, retry_after, error)


class BatchResult:
    """Outcome of one :func:`send_with_retry` call.

    Attributes:
        sent, rejected, failed, retries: counts (see :func:`sightline.stats`).
        held: the items a service-wide failure, or a stop (``sleep`` returned ``True``),
            kept from delivery, in their original order; the caller puts them back in the
            buffer and retries them after :func:`outage_delay`. Empty when the batch ended
            without an outage or a stop.
        retry_after: seconds from the ``Retry-After`` of that failure (uncapped), or ``None``.
    """

    __slots__ = ("sent", "rejected", "failed", "retries", "held", "retry_after")

    def __init__(self) -> None:
        self.sent = 0
        self.rejected = 0
        self.failed = 0
        self.retries = 0
        self.held: List[Any] = []
        self.retry_after: Optional[float] = None


def outage_delay(retry_after: Optional[float], outage_round: int, backoff_base: float,
                 backoff_max: float, retry_after_max: float) -> float:
    """Seconds to wait before retrying records held by a service-wide failure.

    The server's ``Retry-After`` (capped at ``retry_after_max``) when it sent one, else a
    full-jitter backoff over the consecutive failed rounds (``outage_round``, 0-based).
    """
    if retry_after is not None:
        return min(retry_after, retry_after_max)
    return backoff_delay(outage_round, backoff_base, backoff_max)


def send_with_retry(
    post: Callable[[Any], Outcome],
    bodies: Sequence[Any],
    max_retries: int,
    backoff_base: float,
    backoff_max: float,
    sleep: Callable[[float], bool],
    report: Callable[[BaseException], None],
    settle: Optional[Callable[[str, int], None]] = None,
) -> BatchResult:
    """Deliver ``bodies`` (one POST each, in order); retry what fails on its own.

    A round posts every pending item. A service-wide failure (network error, 429, 502,
    503, 504, or any retryable status with ``Retry-After``) ends the call at once: the
    items not delivered yet are returned in ``held`` (never given up: the caller keeps
    them in its bounded buffer) with the server's ``retry_after``. A record that fails
    on its own (408, 500 and other 5xx without ``Retry-After``) is retried after a
    full-jitter backoff, at most ``max_retries`` times, then given up (``failed``).
    Other 4xx answers are ``rejected`` at once.

    Args:
        post: sends one item (normally :meth:`Transport.post` on an encoded body).
        bodies: the items, passed to ``post`` unchanged (bytes, or any object ``post`` takes).
        sleep: waits the given seconds; returns ``True`` when delivery must stop now
            (shutdown, or the deadline of a flush), in which case the pending items are
            returned in ``held``: a stop loses nothing by itself.
        report: receives the error of every rejected item and the last error of a
            given-up round.
        settle: told ``(counter, n)`` as soon as ``n`` items end as ``"sent"``,
            ``"rejected"`` or ``"failed"`` (the delivery loop counts each record once, as
            it happens), after ``report`` has seen their error; held items are not settled.
    """
    result = BatchResult()
    counted: Callable[[str, int], None] = settle or (lambda counter, n: None)
    pending: List[Any] = list(bodies)
    retry_index = 0
    while pending:
        next_round: List[Any] = []
        last_error: Optional[BaseException] = None
        for position, body in enumerate(pending):
            outcome = post(body)
            if outcome.kind == OK:
                result.sent += 1
                counted("sent", 1)
            elif outcome.kind == REJECTED:
                # Report before counting: a flush() waiting for the record returns once it is
                # counted, and by then its on_error call must have run.
                if outcome.error is not None:
                    report(outcome.error)
                result.rejected += 1
                counted("rejected", 1)
            elif outcome.service_wide:
                # Records retried earlier in this batch lose their attempt count here: at
                # worst a failing record gets max_retries more attempts after the outage.
                result.held = next_round + pending[position:]
                result.retry_after = outcome.retry_after
                return result
            else:
                last_error = outcome.error
                next_round.append(body)
        pending = next_round
        if not pending:
            break
        if retry_index >= max_retries:
            if last_error is not None:
                report(last_error)
            result.failed += len(pending)
            counted("failed", len(pending))
            break
        retry_index += 1
        result.retries += 1
        if sleep(backoff_delay(retry_index - 1, backoff_base, backoff_max)):
            result.held = pending
            break
    return result
