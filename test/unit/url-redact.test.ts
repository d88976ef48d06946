import { describe, expect, it } from "vitest";
import { redactedUrl } from "../../src/alerts/url-redact";

describe("redactedUrl (issue 32.7)", () => {
  it.each([
    ["https://hooks.slack.com/services/T000/B000/XXXXSECRET", "https://hooks.slack.com/…"],
    ["https://alerts.example.com/", "https://alerts.example.com/"],
    ["https://alerts.example.com", "https://alerts.example.com/"],
    ["https://alerts.example.com/?token=abc", "https://alerts.example.com/…"],
    ["https://alerts.example.com:8443/hook#frag", "https://alerts.example.com:8443/…"],
    ["https://alerts.example.com#frag", "https://alerts.example.com/"],
    ["https://user:pass@alerts.example.com/x", "https://alerts.example.com/…"],
    ["http://[2001:db8::1]:8080/h", "http://[2001:db8::1]:8080/…"],
    ["not a url", "…"],
  ])("Should show %s as %s: scheme, host and port, never path, query, userinfo or fragment", (url, shown) => {
    expect(redactedUrl(url)).toBe(shown);
  });
});
