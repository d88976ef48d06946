"""configure(): env-var key, missing key (one warning, no-op), disabled mode, validation."""

from __future__ import annotations

import os
import unittest
import warnings
from unittest import mock

import sightline
from sightline import client as sl_client
from sightline.config import resolve_config

from .support import TEST_KEY, SightlineTestCase, configure_fast


class ResolveConfigTest(unittest.TestCase):
    def test_defaults(self) -> None:
        cfg = resolve_config(env={})
        self.assertIsNone(cfg.api_key)
        self.assertEqual(cfg.base_url, "http://localhost:8787")
        self.assertEqual(cfg.proxy_url, "http://localhost:8080")
        self.assertTrue(cfg.enabled)
        self.assertFalse(cfg.active)
        self.assertEqual(cfg.log_url, "http://localhost:8787/internal/log")

    def test_env_vars(self) -> None:
        cfg = resolve_config(env={"SERVICE_API_KEY": "slk_env", "SIGHTLINE_BASE_URL": "https://api.x/",
                                  "SIGHTLINE_PROXY_URL": "https://proxy.x//"})
        self.assertEqual(cfg.api_key, "slk_env")
        self.assertEqual(cfg.base_url, "https://api.x")
        self.assertEqual(cfg.proxy_url, "https://proxy.x")
        self.assertTrue(cfg.active)

    def test_explicit_wins_over_env(self) -> None:
        cfg = resolve_config(api_key="slk_arg", base_url="http://a", env={"SERVICE_API_KEY": "slk_env",
                                                                           "SIGHTLINE_BASE_URL": "http://b"})
        self.assertEqual((cfg.api_key, cfg.base_url), ("slk_arg", "http://a"))

    def test_enabled_env_off(self) -> None:
        for word in ("0", "false", "OFF", "no"):
            self.assertFalse(resolve_config(api_key="k", env={"SIGHTLINE_ENABLED": word}).enabled)
        self.assertTrue(resolve_config(api_key="k", env={"SIGHTLINE_ENABLED": "1"}).enabled)

    def test_invalid_values(self) -> None:
        for bad in (dict(batch_size=0), dict(max_queue_size=-1), dict(flush_interval=0),
                    dict(timeout=-1), dict(max_retries=-1), dict(batch_size=True),
                    dict(on_error="nope")):
            with self.assertRaises(ValueError, msg=str(bad)):
                resolve_config(env={}, **bad)  # type: ignore[arg-type]


class ConfigureTest(SightlineTestCase):
    def test_key_from_env_var(self) -> None:
        with mock.patch.dict(os.environ, {"SERVICE_API_KEY": TEST_KEY}):
            configure_fast(self.api.url, api_key=None)

        @sightline.trace(model="m")
        def f() -> int:
            return 1

        f()
        bodies = self.flush_and_get(1)
        self.assertEqual(bodies[0]["model"], "m")
        self.assertEqual(self.api.requests[0].headers["X-Service-Key"], TEST_KEY)

    def test_auto_configure_from_env_without_configure(self) -> None:
        env = {"SERVICE_API_KEY": TEST_KEY, "SIGHTLINE_BASE_URL": self.api.url}
        with mock.patch.dict(os.environ, env):

            @sightline.trace(model="auto")
            def f() -> str:
                return "x"

            self.assertEqual(f(), "x")
        self.flush_and_get(1)

    def test_missing_key_warns_once_and_is_a_noop(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "SERVICE_API_KEY"}
        with mock.patch.dict(os.environ, env, clear=True), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sightline.configure(base_url=self.api.url)
            sightline.configure(base_url=self.api.url)

            @sightline.trace(model="m")
            def f(x: int) -> int:
                return x * 2

            self.assertEqual([f(i) for i in range(3)], [0, 2, 4])
            self.assertIs(sightline.with_proxy(self), self)
        ours = [w for w in caught if issubclass(w.category, sightline.SightlineWarning)]
        self.assertEqual(len(ours), 1, [str(w.message) for w in caught])
        self.assertIn("SERVICE_API_KEY", str(ours[0].message))
        self.assertTrue(sightline.flush(1))
        self.assertEqual(self.api.wait_for(1, timeout=0.2), [])
        self.assertEqual(sightline.stats()["enqueued"], 0)
        self.assertIsNone(sl_client.current_delivery_loop())

    def test_disabled_is_a_noop_without_warning(self) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            configure_fast(self.api.url, enabled=False)

            @sightline.trace(model="m")
            def f() -> str:
                return "ok"

            self.assertEqual(f(), "ok")
        self.assertEqual([w for w in caught if issubclass(w.category, sightline.SightlineWarning)], [])
        self.assertTrue(sightline.flush(1))
        self.assertEqual(self.api.wait_for(1, timeout=0.2), [])

    def test_reconfigure_replaces_delivery_loop(self) -> None:
        configure_fast(self.api.url)
        first = sl_client.current_delivery_loop()
        configure_fast(self.api.url)
        self.assertIsNot(first, sl_client.current_delivery_loop())

    def test_shutdown_then_noop(self) -> None:
        configure_fast(self.api.url)

        @sightline.trace(model="m")
        def f() -> int:
            return 1

        f()
        self.assertTrue(sightline.shutdown(5))
        self.assertEqual(len(self.api.wait_for(1)), 1)
        f()
        self.assertTrue(sightline.flush(1))
        self.assertEqual(len(self.api.wait_for(2, timeout=0.2)), 1)
        self.assertEqual(sightline.stats()["sent"], 1)


if __name__ == "__main__":
    unittest.main()
