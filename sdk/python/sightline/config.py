"""Configuration: the options of :func:`sightline.configure`, their defaults and env vars.

Nothing here does I/O except reading environment variables.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from typing import Any, Callable, Dict, Mapping, Optional

ENV_API_KEY = "SERVICE_API_KEY"
ENV_BASE_URL = "SIGHTLINE_BASE_URL"
ENV_PROXY_URL = "SIGHTLINE_PROXY_URL"
ENV_ENABLED = "SIGHTLINE_ENABLED"

DEFAULT_BASE_URL = "http://localhost:8787"
DEFAULT_PROXY_URL = "http://localhost:8080"

#: Largest request body the API accepts (413 above it). Bodies are shrunk below this.
MAX_BODY_BYTES = 2 * 1024 * 1024

#: Default bound of :func:`sightline.flush`, :func:`sightline.shutdown` and the exit hook,
#: in seconds: one request timeout. OpenTelemetry bounds ``force_flush``/``shutdown`` by
#: default (``OTEL_BSP_EXPORT_TIMEOUT`` = 30000 ms; ``TracerProvider.force_flush(
#: timeout_millis=30000)``), and so does PostHog's Node library (``shutdown(shutdownTimeoutMs
#: = 30000)``). Sightline waits less: logging must never hold up the application, and 5 s is
#: what the exit hook already waited.
DEFAULT_FLUSH_TIMEOUT = 5.0

ErrorHandler = Callable[[BaseException], None]

_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Config:
    """Resolved, validated settings of the library (immutable).

    Attributes:
        api_key: Sightline project API key (``slk_...``), or ``None`` when missing.
        base_url: API address without trailing slash; records go to ``{base_url}/internal/log``.
        proxy_url: capture proxy address without trailing slash (proxy mode).
        enabled: ``False`` turns every entry point into a no-op.
        batch_size: most records the delivery thread drains per wake-up (one POST per record).
        flush_interval: seconds between delivery-thread wake-ups when fewer than
            ``batch_size`` records are queued.
        max_queue_size: queue bound; when full the OLDEST record is dropped.
        timeout: seconds per HTTP request (connect + read).
        max_retries: retries of a record that fails on its own (408, 500 and other 5xx
            without ``Retry-After``) before it is given up (``failed``). Service-wide
            failures (network errors, 429, 502-504, any ``Retry-After``) are retried until
            delivered: the records wait in the bounded queue.
        backoff_base: seconds; retry ``n`` (0-based) waits ``uniform(0, min(backoff_max,
            backoff_base * 2**n))`` (exponential backoff with full jitter).
        backoff_max: seconds, cap of one backoff wait.
        retry_after_max: seconds, cap applied to a server's ``Retry-After``.
        exit_timeout: seconds the ``atexit`` hook waits for the queue to drain.
        flush_timeout: seconds :func:`~sightline.flush` and :func:`~sightline.shutdown`
            wait at most when called without ``timeout`` (``math.inf``: no bound).
        on_error: called with every internal exception (delivery failure, rejected
            record, serialisation error); exceptions it raises are swallowed.
    """

    api_key: Optional[str] = None
    base_url: str = DEFAULT_BASE_URL
    proxy_url: str = DEFAULT_PROXY_URL
    enabled: bool = True
    batch_size: int = 50
    flush_interval: float = 1.0
    max_queue_size: int = 10_000
    timeout: float = 5.0
    max_retries: int = 3
    backoff_base: float = 0.5
    backoff_max: float = 10.0
    retry_after_max: float = 60.0
    exit_timeout: float = DEFAULT_FLUSH_TIMEOUT
    flush_timeout: float = DEFAULT_FLUSH_TIMEOUT
    on_error: Optional[ErrorHandler] = None

    @property
    def active(self) -> bool:
        """True when calls are logged and sent (enabled and a key is present)."""
        return self.enabled and bool(self.api_key)

    @property
    def log_url(self) -> str:
        """Full URL of the log endpoint."""
        return self.base_url + "/internal/log"


def _env_flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() not in _FALSE_WORDS


def _positive_int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError("sightline: %s must be an int >= %d, got %r" % (name, minimum, value))
    return value


def _non_negative_float(name: str, value: object, allow_zero: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("sightline: %s must be a number, got %r" % (name, value))
    f = float(value)
    if math.isnan(f) or f < 0 or (not allow_zero and f == 0):
        raise ValueError("sightline: %s must be a %s number, got %r"
                         % (name, "non-negative" if allow_zero else "positive", value))
    return f


def _clean_url(value: str) -> str:
    return value.strip().rstrip("/")


#: Numeric options: name -> validator(name, value). Bounds: counts >= 1 (``max_retries``
#: >= 0); intervals and timeouts > 0; backoffs, caps, the exit and flush waits >= 0.
_NUMERIC: Dict[str, Callable[[str, object], Any]] = {
    "batch_size": lambda name, value: _positive_int(name, value, 1),
    "flush_interval": lambda name, value: _non_negative_float(name, value, allow_zero=False),
    "max_queue_size": lambda name, value: _positive_int(name, value, 1),
    "timeout": lambda name, value: _non_negative_float(name, value, allow_zero=False),
    "max_retries": lambda name, value: _positive_int(name, value, 0),
    "backoff_base": _non_negative_float,
    "backoff_max": _non_negative_float,
    "retry_after_max": _non_negative_float,
    "exit_timeout": _non_negative_float,
    "flush_timeout": _non_negative_float,
}


def resolve_config(env: Optional[Mapping[str, str]] = None, **options: Any) -> Config:
    """Merge explicit options with environment variables and validate them.

    ``options`` are the keyword arguments of :func:`sightline.configure` (the fields of
    :class:`Config`); an omitted option, or ``None`` for ``api_key``, ``base_url`` and
    ``proxy_url``, takes its environment variable or default. Explicit options win over
    env vars (``SERVICE_API_KEY``, ``SIGHTLINE_BASE_URL``, ``SIGHTLINE_PROXY_URL``);
    ``SIGHTLINE_ENABLED=0|false|no|off`` disables the library even when ``enabled=True``.

    Raises:
        ValueError: a numeric option is out of range, or ``on_error`` is not callable
            (programming errors, raised once at configuration time, never from a logged call).
        TypeError: an option that :class:`Config` does not have.
    """
    unknown = set(options) - {f.name for f in fields(Config)}
    if unknown:
        raise TypeError("sightline: unknown option(s): %s" % ", ".join(sorted(unknown)))
    e: Mapping[str, str] = os.environ if env is None else env
    key = options.get("api_key")
    key = key if key is not None else e.get(ENV_API_KEY)
    key = key.strip() if isinstance(key, str) and key.strip() else None
    on_error = options.get("on_error")
    if on_error is not None and not callable(on_error):
        raise ValueError("sightline: on_error must be callable")
    numbers = {name: check(name, options.get(name, getattr(Config, name)))
               for name, check in _NUMERIC.items()}
    return Config(
        api_key=key,
        base_url=_clean_url(options.get("base_url") or e.get(ENV_BASE_URL) or DEFAULT_BASE_URL),
        proxy_url=_clean_url(options.get("proxy_url") or e.get(ENV_PROXY_URL) or DEFAULT_PROXY_URL),
        enabled=bool(options.get("enabled", True)) and _env_flag(e, ENV_ENABLED, True),
        on_error=on_error,
        **numbers,
    )
