"""HTTP and response objects shared by the stand-in provider clients in this folder."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Dict


class APIObject:
    """A response object as the provider SDKs return them (pydantic models): attribute
    access over the JSON object, ``model_dump()`` giving plain data."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            return wrap(self._data[name])
        except KeyError:
            raise AttributeError(name) from None

    def model_dump(self, mode: str = "python", **_: Any) -> Dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, json.dumps(self._data)[:200])


def wrap(value: Any) -> Any:
    """JSON objects become :class:`APIObject`, lists are wrapped element-wise."""
    if isinstance(value, dict):
        return APIObject(value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value


class APIStatusError(Exception):
    """A non-2xx answer (the SDKs raise their own ``APIStatusError`` subclasses)."""

    def __init__(self, status_code: int, body: str) -> None:
        super().__init__("Error code: %d - %s" % (status_code, body))
        self.status_code = status_code
        self.body = body


def no_streaming(params: Dict[str, Any]) -> None:
    """The stand-ins do not stream; say so instead of answering wrongly."""
    if params.get("stream"):
        raise NotImplementedError("stand-in provider client: streaming is not implemented")


def post_json(url: str, body: Dict[str, Any], headers: Dict[str, str], timeout: float = 60.0) -> APIObject:
    """POST ``body`` as JSON to ``url``; the answer as an :class:`APIObject`."""
    request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Accept": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return APIObject(json.loads(response.read().decode("utf-8")))
    except urllib.error.HTTPError as err:
        raise APIStatusError(err.code, err.read().decode("utf-8", "replace")) from None


class Endpoint:
    """A ``create`` method of a stand-in client (``messages``, ``chat.completions``): POSTs the
    call's keyword parameters as JSON to the client's ``base_url`` + ``path`` with ``headers()``."""

    path = ""

    def __init__(self, client: Any) -> None:
        self._client = client

    def headers(self) -> Dict[str, str]:
        """The provider's authentication headers, from the client."""
        raise NotImplementedError

    def create(self, **params: Any) -> Any:
        no_streaming(params)
        return post_json(self._client.base_url + self.path, params, self.headers())
