/**
 * The constants of the text search, in a module of their own: the schema (and through it the
 * browser's contract types) reads them without loading the database driver.
 */

/** The text search configuration of the stored documents and of every query (no stemming, no stop words). */
export const SEARCH_CONFIG = "simple";

/** The longest `q` the API searches for, in characters after trimming (longer: 422). */
export const MAX_QUERY_CHARS = 500;
