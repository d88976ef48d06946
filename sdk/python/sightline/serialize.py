"""Turning arbitrary Python values into JSON-safe data.

Two steps, on two threads:

* :func:`snapshot` runs on the application's thread. It copies containers (dict, list,
  tuple, set) so that later mutation by the application (``messages.append(...)`` after the
  call, a very common pattern) does not change what gets logged. Leaves (strings, numbers,
  provider objects) are kept by reference, so its cost grows with the number of
  containers, not with the amount of text.
* :func:`to_jsonable` runs on the background delivery thread. It converts everything to
  ``dict``/``list``/``str``/``int``/``float``/``bool``/``None``: provider objects through
  ``model_dump()`` / ``to_dict()`` / dataclass fields, optionally ``__dict__``, and
  ``repr()`` as the last resort.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import enum
import math
import uuid
from decimal import Decimal
from typing import Any, Dict, Optional, Set

#: Deeper structures are replaced by a marker string (protects against cycles and abuse).
MAX_DEPTH = 32
#: ``repr()`` output longer than this is cut (a repr of a large object is rarely useful).
MAX_REPR_CHARS = 2000

_MISSING = object()


def get_field(obj: Any, name: str, default: Any = None) -> Any:
    """Read ``name`` from a mapping key or an attribute; ``default`` when absent.

    Provider SDK objects are attribute-based (pydantic models) while their raw JSON is
    dict-based; every extractor in this package reads both through this helper.
    """
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(name, default)
    try:
        value = getattr(obj, name, _MISSING)
    except Exception:
        return default
    return default if value is _MISSING else value


def snapshot(value: Any, _depth: int = 0) -> Any:
    """Copy the container structure of ``value``; keep leaves by reference.

    dicts and lists become new dicts and lists, tuples become tuples, sets become lists.
    Cheap for typical request kwargs (a few dozen containers). Never raises.
    """
    try:
        if _depth > MAX_DEPTH:
            return value
        t = type(value)
        if t is dict:
            return {k: snapshot(v, _depth + 1) for k, v in value.items()}
        if t is list:
            return [snapshot(v, _depth + 1) for v in value]
        if t is tuple:
            return tuple(snapshot(v, _depth + 1) for v in value)
        if t is set or t is frozenset:
            return [snapshot(v, _depth + 1) for v in value]
        return value
    except Exception:  # e.g. a dict mutated by another thread while we copy it
        return value


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a broken __repr__ must not break logging
        text = "<unrepresentable %s: %s>" % (type(value).__name__, type(exc).__name__)
    if len(text) > MAX_REPR_CHARS:
        text = text[:MAX_REPR_CHARS] + "...<truncated>"
    return text


def _object_to_data(value: Any, use_dict_fallback: bool) -> Any:
    """Structured conversion of a non-builtin object, or ``_MISSING`` if none applies."""
    dump = getattr(value, "model_dump", None)  # pydantic v2 (anthropic, openai, cohere)
    if callable(dump) and not isinstance(value, type):
        try:
            return dump(mode="json")
        except TypeError:
            return dump()
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and not isinstance(value, type):
        return to_dict()
    legacy = getattr(value, "dict", None)  # pydantic v1 models
    if callable(legacy) and hasattr(value, "__fields__") and not isinstance(value, type):
        return legacy()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    if use_dict_fallback:
        attrs = getattr(value, "__dict__", None)
        if isinstance(attrs, dict):
            return {k: v for k, v in attrs.items() if not k.startswith("_")}
    return _MISSING


def to_jsonable(value: Any, use_dict_fallback: bool = False) -> Any:
    """Return a JSON-safe version of ``value``.

    Args:
        value: anything.
        use_dict_fallback: convert unknown objects through their public ``__dict__``
            (used for provider responses); otherwise unknown objects become ``repr()``
            strings (used for request kwargs and traced function arguments).

    Non-finite floats become strings (``"nan"``, ``"inf"``), bytes become their repr,
    datetimes ISO-8601 strings, enums their value, cycles the string ``"<cycle>"``.
    Never raises: a failing conversion becomes a repr string.
    """
    return _convert(value, use_dict_fallback, 0, set())


def _convert(value: Any, dict_fb: bool, depth: int, seen: Set[int]) -> Any:
    if value is None or value is True or value is False:
        return value
    t = type(value)
    if t is str or t is int:
        return value
    if t is float:
        return value if math.isfinite(value) else repr(value)
    if depth > MAX_DEPTH:
        return "<max depth>"
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        ident = id(value)
        if ident in seen:
            return "<cycle>"
        seen.add(ident)
        try:
            if isinstance(value, dict):
                return {
                    (k if type(k) is str else str(k) if isinstance(k, (int, float, bool)) or k is None
                     else _short_repr(k)): _convert(v, dict_fb, depth + 1, seen)
                    for k, v in list(value.items())
                }
            return [_convert(v, dict_fb, depth + 1, seen) for v in list(value)]
        finally:
            seen.discard(ident)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        f = float(value)
        return f if math.isfinite(f) else repr(f)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, enum.Enum):
        return _convert(value.value, dict_fb, depth + 1, seen)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, Decimal)):
        return str(value)
    ident = id(value)
    if ident in seen:
        return "<cycle>"
    seen.add(ident)
    try:
        data = _object_to_data(value, dict_fb)
        if data is _MISSING:
            return _short_repr(value)
        return _convert(data, dict_fb, depth + 1, seen)
    except Exception:
        return _short_repr(value)
    finally:
        seen.discard(ident)


def estimate_tokens(value: Any) -> int:
    """Rough token count of all text inside ``value``: characters / 4, rounded up.

    Used only when the provider reports no usage (then the record carries
    ``metadata.token_count_source = "estimated"``).
    """
    total = _count_chars(value, 0)
    return (total + 3) // 4


def _count_chars(value: Any, depth: int) -> int:
    if depth > MAX_DEPTH:
        return 0
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_count_chars(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_count_chars(v, depth + 1) for v in value)
    return 0


def as_int(value: Any) -> Optional[int]:
    """``value`` as a non-negative int, or ``None`` when it is not a usable number."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if number >= 0 else None


def error_info(exc: BaseException) -> Dict[str, str]:
    """The ``metadata.error`` object of a failed call: ``{"type", "message"}``."""
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable>"
    return {"type": type(exc).__name__, "message": message[:4000]}
