/**
 * The webhook URL guard (src/alerts/url-guard.ts) on IPv6 literals that embed an IPv4 address:
 * each form is judged by the IPv4 address inside (issue 32, point 8), and the IPv6 ranges that
 * are not public (loopback, link-local, unique-local...) are refused themselves.
 *
 * The forms: IPv4-compatible `::a.b.c.d` (RFC 4291 2.5.5.1, deprecated; the probe's two literals),
 * IPv4-mapped `::ffff:a.b.c.d` and IPv4-translated `::ffff:0:a.b.c.d` (RFC 6145), the NAT64
 * well-known prefix `64:ff9b::/96` (RFC 6052: the last 32 bits) and its local-use prefix
 * `64:ff9b:1::/48` (RFC 8215: not globally reachable, refused whatever it embeds), 6to4
 * `2002:AABB:CCDD::/48` (RFC 3056: bits 16-47) and Teredo `2001:0::/32` (RFC 4380: the client
 * address is the last 32 bits, inverted).
 */
import { describe, expect, it } from "vitest";
import { refuseWebhookUrl } from "../../src/alerts/url-guard";

const deployed = { allowLoopback: false };
const dev = { allowLoopback: true };
const url = (host: string) => `https://[${host}]/hook`;

/** The literals the guard must refuse, by a phrase of its refusal: `{ "form, the address it reaches": literal }`. */
const REFUSED: Record<string, Record<string, string>> = {
  linkLocal: {
    "compatible, cloud metadata 169.254.169.254": "::a9fe:a9fe",
    "mapped, 169.254.169.254": "::ffff:a9fe:a9fe",
    "NAT64, 169.254.169.254": "64:ff9b::a9fe:a9fe",
    "6to4, 169.254.169.254": "2002:a9fe:a9fe::",
    "Teredo, client 169.254.169.254": "2001:0:4136:e378:8000:63bf:5601:5601",
    "link-local": "fe80::1",
  },
  loopback: {
    "compatible, 127.0.0.1": "::7f00:1",
    "mapped, 127.0.0.1": "::ffff:127.0.0.1",
    "6to4, 127.0.0.1": "2002:7f00:1::1",
    "Teredo, client 127.0.0.1": "2001:0:4136:e378:8000:63bf:80ff:fffe",
    loopback: "::1",
  },
  private: {
    "compatible, dotted 10.1.2.3": "::10.1.2.3",
    "translated, 192.168.1.1": "::ffff:0:c0a8:101",
    "NAT64, 10.0.0.1": "64:ff9b::10.0.0.1",
  },
  unspecified: { "compatible, 0.0.0.2": "::2", unspecified: "::" },
  "local-use NAT64": { "NAT64 local-use, 169.254.169.254": "64:ff9b:1::a9fe:a9fe", "NAT64 local-use, public": "64:ff9b:1::808:808" },
  uniqueLocal: { "unique-local": "fd00:ec2::254" },
  deprecatedSiteLocal: { "site-local (deprecated)": "fec0::1" },
  multicast: { multicast: "ff02::1" },
  reserved: { documentation: "2001:db8::1" },
};

/** The literals that reach a public address, which the guard accepts: `{ "form, the address it reaches": literal }`. */
const ACCEPTED: Record<string, string> = {
  "compatible, public 8.8.8.8": "::808:808",
  "mapped, public": "::ffff:8.8.8.8",
  "translated, public": "::ffff:0:808:808",
  "NAT64, public": "64:ff9b::8.8.8.8",
  "6to4, public": "2002:808:808::1",
  "Teredo, client public 8.8.8.8": "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  public: "2606:4700:4700::1111",
};

const refusals = Object.entries(REFUSED).flatMap(([refusal, literals]) => Object.entries(literals).map(([form, host]) => [form, host, refusal] as const));

describe("refuseWebhookUrl on IPv6 literals", () => {
  it.each(refusals)("Should refuse %s ([%s]) as %s, by the address it reaches", (_form, host, refusal) => {
    expect(refuseWebhookUrl(url(host), deployed)).toContain(refusal);
  });

  it.each(Object.entries(ACCEPTED))("Should accept %s ([%s]), by the address it reaches", (_form, host) => {
    expect(refuseWebhookUrl(url(host), deployed)).toBeNull();
  });

  it("Should refuse the probe's literals [::a9fe:a9fe] and [::7f00:1], also written in dotted form", () => {
    for (const host of ["::a9fe:a9fe", "::169.254.169.254", "::7f00:1", "::127.0.0.1", "0:0:0:0:0:0:a9fe:a9fe"]) {
      expect(refuseWebhookUrl(url(host), deployed)).toMatch(/^must not point to a (linkLocal|loopback) address/);
    }
  });

  it("Should allow an embedded loopback under npm run dev, and no other embedded private address", () => {
    expect(refuseWebhookUrl("http://[::7f00:1]:9000/hook", dev)).toBeNull();
    expect(refuseWebhookUrl("http://[::ffff:127.0.0.1]:9000/hook", dev)).toBeNull();
    expect(refuseWebhookUrl("http://[::a9fe:a9fe]/hook", dev)).toContain("linkLocal");
    expect(refuseWebhookUrl("http://[2002:a00:1::]/hook", dev)).toContain("private");
  });
});
