"""Test helpers: a stand-in Sightline API server and stand-in provider clients.

Nothing here needs a package from PyPI. The stand-in clients mirror the public method
shapes of the real SDKs (documented on each class), not their internals.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import sightline
from sightline import client as sl_client

# ---------------------------------------------------------------------------------------
# Stand-in API
# ---------------------------------------------------------------------------------------

Reply = Tuple[int, Dict[str, str], Any]  # status, headers, JSON body


class Received:
    """One request the stand-in API received, and the status it answered."""

    def __init__(self, path: str, headers: Dict[str, str], body: Any, at: float) -> None:
        self.path = path
        self.headers = headers
        self.body = body
        self.at = at
        self.status = 0


class StubAPI:
    """ThreadingHTTPServer on 127.0.0.1 standing in for ``POST /internal/log``.

    ``script`` is a list of replies used in order (then ``answer(received)`` if set, else
    202 forever). ``delay`` seconds are slept before answering (to test flush timeouts).

    Args:
        port: the port to listen on (0: any free port).
    """

    def __init__(self, port: int = 0) -> None:
        self.requests: List[Received] = []
        self.script: List[Reply] = []
        self.answer: Optional[Callable[[Received], Reply]] = None
        self.delay = 0.0
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw.decode("utf-8"))
                except ValueError:
                    body = raw
                if stub.delay:
                    time.sleep(stub.delay)
                with stub._cond:
                    received = Received(self.path, dict(self.headers.items()), body, time.monotonic())
                    if stub.script:
                        reply = stub.script.pop(0)
                    elif stub.answer is not None:
                        reply = stub.answer(received)
                    else:
                        reply = (202, {}, {"id": str(uuid.uuid4())})
                    received.status = reply[0]
                    stub.requests.append(received)
                    stub._cond.notify_all()
                status, headers, payload = reply
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    def reset(self) -> None:
        with self._cond:
            self.requests = []
            self.script = []
            self.answer = None
            self.delay = 0.0

    def bodies(self) -> List[Any]:
        with self._cond:
            return [r.body for r in self.requests]

    def accepted(self) -> List[Any]:
        """Bodies of the requests answered 2xx (what the real API would have stored)."""
        with self._cond:
            return [r.body for r in self.requests if 200 <= r.status < 300]

    def wait_for(self, count: int, timeout: float = 5.0) -> List[Received]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            return list(self.requests)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port_url() -> str:
    """URL of a local port nobody listens on (connection refused = API down)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return "http://127.0.0.1:%d" % port


class SilentAPI:
    """A local API that accepts TCP connections and never answers (a hung server or a
    black-holed load balancer): requests to it only end by their own timeout.
    ``connections`` counts the connections accepted."""

    def __init__(self) -> None:
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(64)
        self.url = "http://127.0.0.1:%d" % self._server.getsockname()[1]
        self.connections = 0
        self._held: List[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:  # closed
                return
            self.connections += 1
            self._held.append(conn)

    def close(self) -> None:
        self._server.close()
        for conn in self._held:
            conn.close()


TEST_KEY = "slk_" + "ab" * 24


def configure_fast(base_url: str, **overrides: Any) -> sightline.Config:
    """configure() with short intervals and backoffs so tests run fast."""
    options: Dict[str, Any] = dict(api_key=TEST_KEY, base_url=base_url, flush_interval=0.05,
                                   timeout=2.0, max_retries=2, backoff_base=0.01, backoff_max=0.05,
                                   retry_after_max=5.0, exit_timeout=2.0)
    options.update(overrides)
    return sightline.configure(**options)


class SightlineTestCase(unittest.TestCase):
    """Base class: one stand-in API per class, clean library state per test."""

    api: StubAPI

    @classmethod
    def setUpClass(cls) -> None:
        cls.api = StubAPI()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.api.close()

    def setUp(self) -> None:
        sl_client._reset_for_tests()
        self.api.reset()

    def tearDown(self) -> None:
        sl_client._reset_for_tests()

    def wait_until(self, check: Callable[[], bool], timeout: float = 5.0) -> None:
        """Poll ``check`` every 10 ms until it is true; fail the test after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                self.fail("condition not reached within %.1f s" % timeout)
            time.sleep(0.01)

    def flush_and_get(self, count: int, timeout: float = 5.0) -> List[Any]:
        self.assertTrue(sightline.flush(timeout), "flush timed out")
        received = self.api.wait_for(count, timeout)
        self.assertEqual(len(received), count, [r.body for r in received])
        return [r.body for r in received]


class ConfiguredTestCase(SightlineTestCase):
    """:class:`SightlineTestCase` with the library configured against the stand-in API
    (:func:`configure_fast`) before each test."""

    def setUp(self) -> None:
        super().setUp()
        configure_fast(self.api.url)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ---------------------------------------------------------------------------------------
# Pydantic-like value objects
# ---------------------------------------------------------------------------------------


class Model:
    """Mimics a pydantic v2 model as the provider SDKs return them: attribute access and
    ``model_dump(mode=...)`` returning plain dicts (nested models dumped too)."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    def model_dump(self, mode: str = "python") -> Dict[str, Any]:
        def dump(value: Any) -> Any:
            if isinstance(value, Model):
                return value.model_dump(mode=mode)
            if isinstance(value, list):
                return [dump(v) for v in value]
            if isinstance(value, dict):
                return {k: dump(v) for k, v in value.items()}
            return value
        return {k: dump(v) for k, v in self.__dict__.items()}

    def __iter__(self) -> Iterator[Tuple[str, Any]]:  # pydantic models iterate over fields
        return iter(self.__dict__.items())


# ---------------------------------------------------------------------------------------
# Anthropic stand-ins (mirror anthropic>=0.30: client.messages.create / .stream)
# ---------------------------------------------------------------------------------------


def anthropic_message(text: str = "Hello there", input_tokens: int = 12, output_tokens: int = 5,
                      model: str = "claude-3-5-sonnet-latest") -> Model:
    """Shaped like ``anthropic.types.Message``."""
    return Model(id="msg_01", type="message", role="assistant", model=model,
                 content=[Model(type="text", text=text)], stop_reason="end_turn", stop_sequence=None,
                 usage=Model(input_tokens=input_tokens, output_tokens=output_tokens,
                             cache_creation_input_tokens=None, cache_read_input_tokens=None))


def anthropic_events(model: str = "claude-3-5-sonnet-latest") -> List[Model]:
    """Raw SSE events as ``anthropic.types.RawMessageStreamEvent`` objects: a text block
    ("Hello world") then a tool_use block whose input arrives as input_json_delta."""
    return [
        Model(type="message_start", message=Model(
            id="msg_02", type="message", role="assistant", model=model, content=[],
            stop_reason=None, stop_sequence=None, usage=Model(input_tokens=25, output_tokens=1))),
        Model(type="content_block_start", index=0, content_block=Model(type="text", text="")),
        Model(type="ping"),
        Model(type="content_block_delta", index=0, delta=Model(type="text_delta", text="Hello")),
        Model(type="content_block_delta", index=0, delta=Model(type="text_delta", text=" world")),
        Model(type="content_block_stop", index=0),
        Model(type="content_block_start", index=1,
              content_block=Model(type="tool_use", id="toolu_1", name="get_weather", input={})),
        Model(type="content_block_delta", index=1,
              delta=Model(type="input_json_delta", partial_json='{"city": "Pa')),
        Model(type="content_block_delta", index=1,
              delta=Model(type="input_json_delta", partial_json='ris"}')),
        Model(type="content_block_stop", index=1),
        Model(type="message_delta", delta=Model(stop_reason="tool_use", stop_sequence=None),
              usage=Model(output_tokens=17)),
        Model(type="message_stop"),
    ]


class _ScriptedEvents:
    """The events of a stand-in stream; ``fail_after`` raises ``error`` after that many."""

    def __init__(self, events: List[Any], fail_after: Optional[int] = None,
                 error: Optional[BaseException] = None) -> None:
        self.events = events
        self.fail_after = fail_after
        self.error = error
        self.closed = False

    def _events(self) -> Iterator[Any]:
        for i, event in enumerate(self.events):
            if self.fail_after is not None and i == self.fail_after:
                raise self.error or RuntimeError("stream broke")
            yield event


class FakeStream(_ScriptedEvents):
    """Mirrors ``anthropic.Stream``: iterable of events, ``close()``, context manager,
    ``response`` attribute. ``fail_after`` raises ``error`` after that many events."""

    response = "<httpx.Response [200 OK]>"

    def __iter__(self) -> Iterator[Any]:
        return self._events()

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> "FakeStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FakeAsyncStream(_ScriptedEvents):
    """Mirrors ``anthropic.AsyncStream``: ``async for``, ``await close()``, ``async with``."""

    async def _gen(self) -> Any:
        for event in self._events():
            await asyncio.sleep(0)
            yield event

    def __aiter__(self) -> Any:
        return self._gen()

    async def close(self) -> None:
        self.closed = True

    async def __aenter__(self) -> "FakeAsyncStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


class FakeMessageStream:
    """Mirrors ``anthropic.lib.streaming.MessageStream``: iterates events, ``text_stream``,
    ``get_final_message()``, ``current_message_snapshot`` (asserts before the first event)."""

    def __init__(self, final: Model) -> None:
        self._final = final
        self._started = False

    def __iter__(self) -> Iterator[Any]:
        self._started = True
        yield Model(type="text", text=self._final.content[0].text)

    @property
    def text_stream(self) -> Iterator[str]:
        for event in self:
            yield event.text

    @property
    def current_message_snapshot(self) -> Model:
        assert self._started, "no message_start yet"
        return self._final

    def get_final_message(self) -> Model:
        for _ in self:
            pass
        return self._final


class FakeMessageStreamManager:
    """Mirrors ``MessageStreamManager``: the request is made in ``__enter__``."""

    def __init__(self, final: Model, error: Optional[BaseException] = None) -> None:
        self._stream = FakeMessageStream(final)
        self._error = error
        self.exited = False

    def __enter__(self) -> FakeMessageStream:
        if self._error is not None:
            raise self._error
        return self._stream

    def __exit__(self, *exc: Any) -> None:
        self.exited = True


class FakeAsyncMessageStream(FakeMessageStream):
    """Async twin: ``async for`` over events."""

    async def _agen(self) -> Any:
        self._started = True
        yield Model(type="text", text=self._final.content[0].text)

    def __aiter__(self) -> Any:  # type: ignore[override]
        return self._agen()


class FakeAsyncMessageStreamManager:
    """Mirrors ``AsyncMessageStreamManager`` (``async with``; request made in ``__aenter__``)."""

    def __init__(self, final: Model) -> None:
        self._stream = FakeAsyncMessageStream(final)
        self.exited = False

    async def __aenter__(self) -> FakeAsyncMessageStream:
        return self._stream

    async def __aexit__(self, *exc: Any) -> None:
        self.exited = True


class APIStatusError(Exception):
    """Stands in for ``anthropic.APIStatusError`` / ``cohere`` API errors."""


class FakeMessages:
    """Mirrors ``anthropic.resources.Messages``: ``create(*, max_tokens, messages, model,
    stream=False, **params)`` returns a ``Message`` or, with ``stream=True``, a ``Stream``."""

    def __init__(self, owner: "FakeAnthropic") -> None:
        self._owner = owner

    def create(self, *, max_tokens: int, messages: List[Any], model: str, stream: bool = False,
               **params: Any) -> Any:
        self._owner.calls.append(dict(max_tokens=max_tokens, messages=messages, model=model, **params))
        if self._owner.error is not None:
            raise self._owner.error
        if stream:
            return FakeStream(self._owner.events, self._owner.fail_after, self._owner.stream_error)
        return self._owner.response

    def stream(self, *, max_tokens: int, messages: List[Any], model: str, **params: Any) -> FakeMessageStreamManager:
        return FakeMessageStreamManager(self._owner.response, self._owner.error)


class FakeAnthropic:
    """Mirrors ``anthropic.Anthropic`` (only ``.messages``)."""

    def __init__(self, response: Optional[Model] = None, events: Optional[List[Any]] = None,
                 error: Optional[BaseException] = None, fail_after: Optional[int] = None,
                 stream_error: Optional[BaseException] = None) -> None:
        self.response = response or anthropic_message()
        self.events = events if events is not None else anthropic_events()
        self.error = error
        self.fail_after = fail_after
        self.stream_error = stream_error
        self.calls: List[Dict[str, Any]] = []
        self.messages = FakeMessages(self)


class FakeAsyncMessages:
    """Mirrors ``anthropic.resources.AsyncMessages``. Like the real SDK (whose ``create`` is
    wrapped by the synchronous ``required_args`` decorator), ``create`` is a plain function
    returning a coroutine; ``stream`` returns an async context manager without awaiting."""

    def __init__(self, owner: "FakeAsyncAnthropic") -> None:
        self._owner = owner

    def create(self, **kwargs: Any) -> Any:
        return self._create(**kwargs)

    async def _create(self, *, max_tokens: int, messages: List[Any], model: str, stream: bool = False,
                      **params: Any) -> Any:
        await asyncio.sleep(0)
        if self._owner.error is not None:
            raise self._owner.error
        if stream:
            return FakeAsyncStream(self._owner.events, self._owner.fail_after, self._owner.stream_error)
        return self._owner.response

    def stream(self, **kwargs: Any) -> FakeAsyncMessageStreamManager:
        return FakeAsyncMessageStreamManager(self._owner.response)


class FakeAsyncAnthropic(FakeAnthropic):
    """Mirrors ``anthropic.AsyncAnthropic``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.messages = FakeAsyncMessages(self)  # type: ignore[assignment]


# ---------------------------------------------------------------------------------------
# Cohere stand-ins (mirror cohere>=5: Client.chat/chat_stream v1, ClientV2.chat/chat_stream)
# ---------------------------------------------------------------------------------------


def cohere_v1_response(text: str = "Bonjour") -> Model:
    """Shaped like ``cohere.NonStreamedChatResponse`` (billed units are floats there)."""
    return Model(text=text, generation_id="gen-1", response_id="resp-1", finish_reason="COMPLETE",
                 meta=Model(api_version=Model(version="1"),
                            billed_units=Model(input_tokens=9.0, output_tokens=3.0),
                            tokens=Model(input_tokens=70.0, output_tokens=3.0)))


def cohere_v1_events() -> List[Model]:
    """``StreamedChatResponse`` events of v1 ``chat_stream``."""
    return [
        Model(event_type="stream-start", generation_id="gen-2", is_finished=False),
        Model(event_type="text-generation", text="Bon", is_finished=False),
        Model(event_type="text-generation", text="jour", is_finished=False),
        Model(event_type="stream-end", finish_reason="COMPLETE", is_finished=True,
              response=Model(text="Bonjour", generation_id="gen-2", finish_reason="COMPLETE",
                             meta=Model(billed_units=Model(input_tokens=8.0, output_tokens=2.0)))),
    ]


def cohere_v2_response(text: str = "Hola") -> Model:
    """Shaped like ``cohere.v2.ChatResponse``."""
    return Model(id="c2-1", finish_reason="COMPLETE",
                 message=Model(role="assistant", content=[Model(type="text", text=text)],
                               tool_calls=None, tool_plan=None, citations=None),
                 usage=Model(billed_units=Model(input_tokens=6.0, output_tokens=2.0),
                             tokens=Model(input_tokens=60.0, output_tokens=2.0)))


def cohere_v2_events() -> List[Model]:
    """``StreamedChatResponseV2`` events of v2 ``chat_stream``."""
    return [
        Model(type="message-start", id="c2-2", delta=Model(message=Model(role="assistant"))),
        Model(type="content-start", index=0,
              delta=Model(message=Model(content=Model(type="text", text="")))),
        Model(type="content-delta", index=0, delta=Model(message=Model(content=Model(text="Ho")))),
        Model(type="content-delta", index=0, delta=Model(message=Model(content=Model(text="la")))),
        Model(type="content-end", index=0),
        Model(type="message-end", delta=Model(
            finish_reason="COMPLETE",
            usage=Model(billed_units=Model(input_tokens=5.0, output_tokens=2.0),
                        tokens=Model(input_tokens=50.0, output_tokens=2.0)))),
    ]


class FakeCohereV1:
    """Mirrors ``cohere.Client`` (v1): ``chat(*, message, model=None, chat_history=None, ...)``
    and ``chat_stream(...)`` (a generator function: the request starts on first ``next``)."""

    def __init__(self, error: Optional[BaseException] = None) -> None:
        self.error = error

    def chat(self, *, message: str, model: Optional[str] = None, **params: Any) -> Model:
        if self.error is not None:
            raise self.error
        return cohere_v1_response()

    def chat_stream(self, *, message: str, model: Optional[str] = None, **params: Any) -> Iterator[Model]:
        if self.error is not None:
            raise self.error
        yield from cohere_v1_events()


class FakeCohereV2:
    """Mirrors ``cohere.ClientV2``: ``chat(*, model, messages, ...)`` and ``chat_stream``."""

    def chat(self, *, model: str, messages: List[Any], **params: Any) -> Model:
        return cohere_v2_response()

    def chat_stream(self, *, model: str, messages: List[Any], **params: Any) -> Iterator[Model]:
        yield from cohere_v2_events()


class FakeAsyncCohereV1:
    """Mirrors ``cohere.AsyncClient``: ``async def chat``; ``chat_stream`` is an async
    generator function (``async for event in client.chat_stream(...)``)."""

    async def chat(self, *, message: str, model: Optional[str] = None, **params: Any) -> Model:
        await asyncio.sleep(0)
        return cohere_v1_response()

    async def chat_stream(self, *, message: str, model: Optional[str] = None, **params: Any) -> Any:
        for event in cohere_v1_events():
            await asyncio.sleep(0)
            yield event


# ---------------------------------------------------------------------------------------
# OpenAI stand-in (mirrors openai>=1.x OpenAI / AsyncOpenAI client options)
# ---------------------------------------------------------------------------------------


class FakeURL:
    """Stands in for ``httpx.URL``: ``str()`` gives the URL (openai keeps a trailing slash)."""

    def __init__(self, url: str) -> None:
        self._url = url if url.endswith("/") else url + "/"

    def __str__(self) -> str:
        return self._url

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self._url)


class FakeOpenAI:
    """Mirrors the option handling of ``openai.OpenAI`` (openai>=1.0, ``_client.py``):

    * ``__init__(*, api_key, organization, base_url, timeout, max_retries, default_headers,
      default_query, http_client)``; ``base_url`` defaults to ``https://api.openai.com/v1``;
    * ``base_url`` property returning an ``httpx.URL`` (here :class:`FakeURL`);
    * ``_custom_headers`` (the ``default_headers`` given) and the ``default_headers``
      property = auth/SDK headers merged with ``_custom_headers``;
    * ``copy(*, api_key, organization, base_url, timeout, http_client, max_retries,
      default_headers, set_default_headers, default_query, set_default_query, _extra_kwargs)``
      returning a NEW client; ``default_headers`` is merged into ``_custom_headers``,
      ``set_default_headers`` replaces them, giving both raises ``ValueError``;
    * ``with_options = copy``.
    """

    def __init__(self, *, api_key: Optional[str] = None, organization: Optional[str] = None,
                 base_url: Any = None, timeout: Any = 600.0, max_retries: int = 2,
                 default_headers: Optional[Dict[str, str]] = None,
                 default_query: Optional[Dict[str, object]] = None, http_client: Any = None) -> None:
        self.api_key = api_key or "sk-test"
        self.organization = organization
        self._base_url = FakeURL(str(base_url or "https://api.openai.com/v1"))
        self.timeout = timeout
        self.max_retries = max_retries
        self._custom_headers: Dict[str, str] = dict(default_headers or {})
        self._custom_query: Dict[str, object] = dict(default_query or {})
        self._client = http_client

    @property
    def base_url(self) -> FakeURL:
        return self._base_url

    @property
    def default_headers(self) -> Dict[str, str]:
        return {"Accept": "application/json", "Authorization": "Bearer " + self.api_key,
                **self._custom_headers}

    def copy(self, *, api_key: Optional[str] = None, organization: Optional[str] = None,
             base_url: Any = None, timeout: Any = None, http_client: Any = None,
             max_retries: Optional[int] = None, default_headers: Optional[Dict[str, str]] = None,
             set_default_headers: Optional[Dict[str, str]] = None,
             default_query: Optional[Dict[str, object]] = None,
             set_default_query: Optional[Dict[str, object]] = None,
             _extra_kwargs: Optional[Dict[str, Any]] = None) -> "FakeOpenAI":
        if default_headers is not None and set_default_headers is not None:
            raise ValueError("The `default_headers` and `set_default_headers` arguments are mutually exclusive")
        headers = self._custom_headers
        if default_headers is not None:
            headers = {**headers, **default_headers}
        elif set_default_headers is not None:
            headers = set_default_headers
        return self.__class__(api_key=api_key or self.api_key, organization=organization or self.organization,
                              base_url=base_url or str(self.base_url), timeout=timeout or self.timeout,
                              max_retries=max_retries if max_retries is not None else self.max_retries,
                              default_headers=headers, default_query=default_query or self._custom_query,
                              http_client=http_client or self._client)

    with_options = copy
