/**
 * `obscenity` (npm, jo3-l/obscenity): an English profanity matcher with its recommended
 * transformers (look-alike characters, repeated letters); a match flags the text. It judges
 * profanity only, so it stands beside content_safety.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import type { Peer } from "./types";
import { installedVersion } from "./version";

/** The obscenity peer: `RegExpMatcher.hasMatch` beside content_safety. */
export function obscenityPeer(): Peer {
  const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return {
    name: "obscenity",
    version: installedVersion("obscenity"),
    checks: { content_safety: { what: "RegExpMatcher(englishDataset).hasMatch", flags: async (text) => matcher.hasMatch(text) } },
    notRun: [],
  };
}
