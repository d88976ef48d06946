/** fast-check arbitraries shared by the property tests of the API and the dashboard server. */
import fc from "fast-check";

/**
 * Any JSON value, bounded in size: `strings` as string values and object keys, integers,
 * doubles when `doubles` is true (not JSON-safe: NaN and infinities serialize as null),
 * booleans, null, and arrays and objects of at most `maxItems` entries, nested.
 */
export function jsonValues(strings: fc.Arbitrary<string>, opts: { maxItems: number; doubles: boolean }): fc.Arbitrary<unknown> {
  const scalars: fc.Arbitrary<unknown>[] = [strings, fc.integer(), ...(opts.doubles ? [fc.double()] : []), fc.boolean(), fc.constant(null)];
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      ...scalars,
      fc.array(tie("value"), { maxLength: opts.maxItems }),
      fc.dictionary(strings, tie("value"), { maxKeys: opts.maxItems }),
    ),
  })).value;
}
