/**
 * The webhook URL guard (src/alerts/url-guard.ts) on IPv6 literals that embed an IPv4 address:
 * each form is judged by the IPv4 address inside (issue 32, point 8), and the IPv6 ranges that
 * are not public (loopback, link-local, unique-local...) are refused themselves.
 */
import { describe, expect, it } from "vitest";
import { refuseWebhookUrl } from "../../src/alerts/url-guard";

const deployed = { allowLoopback: false };
const dev = { allowLoopback: true };
const url = (host: string) => `https://[${host}]/hook`;

/** [form, IPv6 literal, what the guard must say: null (accepted) or a phrase of the refusal]. */
const TABLE: [string, string, string | null][] = [
  // IPv4-compatible (::a.b.c.d, RFC 4291 2.5.5.1, deprecated): the probe's two literals.
  ["compatible, cloud metadata 169.254.169.254", "::a9fe:a9fe", "linkLocal"],
  ["compatible, 127.0.0.1", "::7f00:1", "loopback"],
  ["compatible, dotted 10.1.2.3", "::10.1.2.3", "private"],
  ["compatible, 0.0.0.2", "::2", "unspecified"],
  ["compatible, public 8.8.8.8", "::808:808", null],
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d, RFC 6145).
  ["mapped, 169.254.169.254", "::ffff:a9fe:a9fe", "linkLocal"],
  ["mapped, 127.0.0.1", "::ffff:127.0.0.1", "loopback"],
  ["mapped, public", "::ffff:8.8.8.8", null],
  ["translated, 192.168.1.1", "::ffff:0:c0a8:101", "private"],
  ["translated, public", "::ffff:0:808:808", null],
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the last 32 bits.
  ["NAT64, 169.254.169.254", "64:ff9b::a9fe:a9fe", "linkLocal"],
  ["NAT64, 10.0.0.1", "64:ff9b::10.0.0.1", "private"],
  ["NAT64, public", "64:ff9b::8.8.8.8", null],
  // NAT64 local-use prefix 64:ff9b:1::/48 (RFC 8215): not globally reachable, refused whatever it embeds.
  ["NAT64 local-use, 169.254.169.254", "64:ff9b:1::a9fe:a9fe", "local-use NAT64"],
  ["NAT64 local-use, public", "64:ff9b:1::808:808", "local-use NAT64"],
  // 6to4 2002:AABB:CCDD::/48 (RFC 3056): bits 16-47.
  ["6to4, 127.0.0.1", "2002:7f00:1::1", "loopback"],
  ["6to4, 169.254.169.254", "2002:a9fe:a9fe::", "linkLocal"],
  ["6to4, public", "2002:808:808::1", null],
  // Teredo 2001:0::/32 (RFC 4380): the client address is the last 32 bits, inverted.
  ["Teredo, client 127.0.0.1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"],
  ["Teredo, client 169.254.169.254", "2001:0:4136:e378:8000:63bf:5601:5601", "linkLocal"],
  ["Teredo, client public 8.8.8.8", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", null],
  // IPv6 ranges that are not public themselves.
  ["loopback", "::1", "loopback"],
  ["unspecified", "::", "unspecified"],
  ["link-local", "fe80::1", "linkLocal"],
  ["unique-local", "fd00:ec2::254", "uniqueLocal"],
  ["site-local (deprecated)", "fec0::1", "deprecatedSiteLocal"],
  ["multicast", "ff02::1", "multicast"],
  ["documentation", "2001:db8::1", "reserved"],
  ["public", "2606:4700:4700::1111", null],
];

describe("refuseWebhookUrl on IPv6 literals", () => {
  it.each(TABLE)("Should judge %s ([%s]) by the address it reaches", (_form, host, refusal) => {
    const verdict = refuseWebhookUrl(url(host), deployed);
    if (refusal === null) expect(verdict).toBeNull();
    else expect(verdict).toContain(refusal);
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
