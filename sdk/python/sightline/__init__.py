"""Sightline client library: log LLM calls for safety scoring.

Three ways to log calls:

* proxy mode, :func:`with_proxy` (OpenAI-compatible clients);
* direct mode, :func:`wrap_anthropic` and :func:`wrap_cohere`;
* the :func:`trace` decorator for anything else.

Logged calls are queued in memory and posted to ``{base_url}/internal/log`` by a
background thread (:func:`flush`, :func:`shutdown`, :func:`stats`). Nothing here raises
into the application's call path. Standard library only.
"""

from __future__ import annotations

from ._version import __version__
from .anthropic import wrap_anthropic
from .client import SightlineWarning, configure, flush, shutdown, stats
from .cohere import wrap_cohere
from .config import Config
from .proxy import with_proxy
from .session import SESSION_HEADER
from .trace import trace
from .transport import SightlineHTTPError

__all__ = [
    "configure",
    "with_proxy",
    "wrap_anthropic",
    "wrap_cohere",
    "trace",
    "flush",
    "shutdown",
    "stats",
    "Config",
    "SightlineHTTPError",
    "SightlineWarning",
    "SESSION_HEADER",
    "__version__",
]
