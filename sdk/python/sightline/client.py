"""Process-wide state: the active configuration and its delivery loop; configure/flush/shutdown.

If :func:`configure` was never called, the first logged call configures the library
from the environment (``SERVICE_API_KEY``, ``SIGHTLINE_BASE_URL``, ...).
"""

from __future__ import annotations

import atexit
import os
import threading
import warnings
from typing import Callable, Dict, Optional

from .config import Config, ErrorHandler, resolve_config
from .entry import LogEntry
from .delivery_loop import DeliveryLoop

_lock = threading.Lock()
_config: Optional[Config] = None
_loop: Optional[DeliveryLoop] = None
_last_loop: Optional[DeliveryLoop] = None
_configured = False
_warned_missing_key = False
_atexit_registered = False

MISSING_KEY_MESSAGE = (
    "sightline: no API key (pass configure(api_key=...) or set SERVICE_API_KEY); "
    "LLM calls will NOT be logged. This warning is shown once."
)


class SightlineWarning(UserWarning):
    """Category of the library's warnings (currently only the missing-key warning)."""


def configure(
    api_key: Optional[str] = None,
    base_url: Optional[str] = None,
    proxy_url: Optional[str] = None,
    enabled: bool = True,
    batch_size: int = Config.batch_size,
    flush_interval: float = Config.flush_interval,
    max_queue_size: int = Config.max_queue_size,
    timeout: float = Config.timeout,
    max_retries: int = Config.max_retries,
    on_error: Optional[ErrorHandler] = None,
    *,
    backoff_base: float = Config.backoff_base,
    backoff_max: float = Config.backoff_max,
    retry_after_max: float = Config.retry_after_max,
    exit_timeout: float = Config.exit_timeout,
    flush_timeout: float = Config.flush_timeout,
) -> Config:
    """Configure the library (call once at start-up; calling again replaces the settings).

    Args:
        api_key: Sightline project key; falls back to env ``SERVICE_API_KEY``. Without a
            key the library warns once (:class:`SightlineWarning`) and does nothing.
        base_url: API address (default env ``SIGHTLINE_BASE_URL`` or ``http://localhost:8787``).
        proxy_url: capture proxy address for :func:`with_proxy` (default env
            ``SIGHTLINE_PROXY_URL`` or ``http://localhost:8080``).
        enabled: ``False`` makes every entry point a no-op (env ``SIGHTLINE_ENABLED=0``
            does the same).
        batch_size: records drained per delivery wake-up; reaching it wakes the delivery thread.
        flush_interval: seconds between delivery wake-ups.
        max_queue_size: queued records kept; beyond it the oldest is dropped and counted.
        timeout: seconds per HTTP request to the API.
        max_retries: retries of a record failing on its own (408, 500...); outages
            (network errors, 429, 502-504, ``Retry-After``) are retried until delivered.
        on_error: ``callable(exc)`` receiving internal errors (never raised to you).
        backoff_base, backoff_max: seconds; full-jitter exponential backoff parameters.
        retry_after_max: seconds; cap on a server ``Retry-After``.
        exit_timeout: seconds the exit hook waits to deliver queued records.
        flush_timeout: seconds :func:`flush` and :func:`shutdown` wait at most when called
            without ``timeout`` (default 5; ``math.inf``: no bound).

    Returns:
        The resolved :class:`~sightline.config.Config`.

    Raises:
        ValueError: a numeric option is out of range.

    The previous configuration's delivery loop is flushed (up to 2 s) and stopped.
    """
    # First statement: locals() holds exactly the parameters above, by name.
    cfg = resolve_config(**locals())
    _install(cfg)
    return cfg


def _install(cfg: Config) -> None:
    global _config, _loop, _last_loop, _configured
    new_loop = DeliveryLoop(cfg) if cfg.active else None
    with _lock:
        old = _loop
        _config = cfg
        _loop = new_loop
        if new_loop is not None:
            _last_loop = new_loop
        _configured = True
    if old is not None:
        old.shutdown(timeout=2.0)
    if cfg.enabled and not cfg.api_key:
        warn_missing_key()
    _register_hooks()


def warn_missing_key() -> None:
    """Emit the missing-key warning, at most once per process."""
    global _warned_missing_key
    if _warned_missing_key:
        return
    _warned_missing_key = True
    try:
        warnings.warn(MISSING_KEY_MESSAGE, SightlineWarning, stacklevel=4)
    except Exception:
        pass


def current_delivery_loop() -> Optional[DeliveryLoop]:
    """The active delivery loop, or ``None`` when the library is a no-op (hot path: cheap)."""
    loop = _loop
    if loop is not None or _configured:
        return loop
    _auto_configure()
    return _loop


def current_config() -> Config:
    """The active configuration (configuring from the environment if needed)."""
    if not _configured:
        _auto_configure()
    return _config if _config is not None else Config()


def _auto_configure() -> None:
    global _configured
    with _lock:
        if _configured:
            return
    try:
        _install(resolve_config())
    except Exception:  # a malformed environment must not break the application
        _configured = True


def record(entry: LogEntry) -> None:
    """Queue one logged call for delivery. Never raises."""
    loop = current_delivery_loop()
    if loop is None:
        return
    try:
        loop.submit(entry)
    except Exception as exc:
        loop.report(exc)


def flush(timeout: Optional[float] = None) -> bool:
    """Block until queued records are handled (sent, rejected or given up) or timeout.

    Args:
        timeout: seconds to wait at most; ``None`` means ``flush_timeout`` of
            :func:`configure`, 5 s by default (OpenTelemetry and PostHog bound theirs by
            default too, at 30 s: see :data:`sightline.config.DEFAULT_FLUSH_TIMEOUT`);
            ``math.inf`` waits until everything is handled.

    Returns:
        ``True`` when nothing is pending (also when the library is a no-op), ``False``
        if the timeout expired first: the records not delivered stay queued
        (``stats()["queued"] + stats()["in_flight"]``) and delivery goes on in the
        background. Never raises, never waits forever.
    """
    return _wait(_loop, DeliveryLoop.flush, timeout)


def shutdown(timeout: Optional[float] = None) -> bool:
    """Flush (up to ``timeout`` seconds) and stop the background delivery thread.

    ``timeout=None`` means ``flush_timeout`` of :func:`configure`, 5 s by default, the
    same bound as the exit hook (``exit_timeout``); ``math.inf`` waits without a bound.
    Afterwards calls are not logged until :func:`configure` is called again.
    Returns ``True`` when every queued record was handled in time; otherwise ``False``
    and every record not delivered (queued or in flight) is counted once in
    ``stats()["unsent"]``. Never raises, never waits forever: a script ending with
    ``shutdown()`` exits within the bound even when the API is unreachable.
    """
    global _loop
    with _lock:
        loop = _loop
        _loop = None
    return _wait(loop, DeliveryLoop.shutdown, timeout)


def _wait(loop: Optional[DeliveryLoop], method: Callable[[DeliveryLoop, Optional[float]], bool],
          timeout: Optional[float]) -> bool:
    """``method(loop, timeout)`` (flush or shutdown) that never raises: ``True`` when
    there is no delivery loop, ``False`` (and the error reported) when it failed."""
    if loop is None:
        return True
    try:
        return method(loop, timeout)
    except Exception as exc:
        loop.report(exc)
        return False


def stats() -> Dict[str, int]:
    """Delivery counters of the current (or last) configuration.

    Keys: ``queued``, ``in_flight``, ``enqueued``, ``sent`` (202 received), ``dropped``
    (evicted because the queue was full, oldest first), ``rejected`` (4xx other than
    408/429, not retried), ``failed`` (given up after ``max_retries``), ``retries``
    (backoff and ``Retry-After`` waits),
    ``unsent`` (not delivered when :func:`shutdown` returned: queued or in flight at its
    bound), ``invalid`` (could not be serialised). ``enqueued`` equals ``sent + dropped +
    rejected + failed + unsent + invalid + queued + in_flight``: each record counts once.
    """
    loop = _loop or _last_loop
    if loop is None:
        return {k: 0 for k in ("queued", "in_flight", "enqueued", "sent", "dropped", "rejected",
                               "failed", "retries", "unsent", "invalid")}
    return loop.stats()


def _at_exit() -> None:
    loop = _loop
    if loop is None:
        return
    try:
        loop.shutdown(loop.config.exit_timeout)
    except Exception:
        pass


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()
    loop = _loop
    if loop is not None:
        loop.reinit_after_fork()


def _register_hooks() -> None:
    global _atexit_registered
    if _atexit_registered:
        return
    _atexit_registered = True
    atexit.register(_at_exit)
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork_in_child)


def _reset_for_tests() -> None:
    """Forget all state (tests only): stops the delivery loop without flushing."""
    global _config, _loop, _last_loop, _configured, _warned_missing_key
    with _lock:
        loop = _loop
        _config = None
        _loop = None
        _last_loop = None
        _configured = False
        _warned_missing_key = False
    if loop is not None:
        loop.shutdown(0)
