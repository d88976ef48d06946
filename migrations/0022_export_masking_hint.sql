-- Masking the export only where it can change something (docs/storage.md "At scale"): ingest
-- records the masker's version (src/pii/mask.ts MASKER_VERSION) when masking leaves a call's
-- metadata and bodies unchanged; the export skips masking those rows while that version runs.
-- Null for the calls stored before: they are masked as before. A nullable column without a
-- default is a catalogue change only, also on the partitioned table.
ALTER TABLE "llm_requests" ADD COLUMN "pii_free_version" smallint;
