-- The score chips read from the current-score key alone (docs/storage.md "The export at scale"):
-- the key (request_id, scorer_name, created_at) of current scores gains the chips' value and
-- label as INCLUDE columns, so the export's and the request list's chips are index-only scans
-- instead of a heap fetch per score (at 10M calls 7.9 of a 30-day export page's 24.6 ms of
-- PostgreSQL, bench/results/scale.md). drizzle-kit does not model INCLUDE: src/db/schema/scores.ts
-- declares the key columns and says so. The new index is built before the old one goes, then
-- takes its name, so the unique rule never lapses.
CREATE UNIQUE INDEX IF NOT EXISTS "safety_scores_current_key_chips" ON "safety_scores" USING btree ("request_id","scorer_name","created_at") INCLUDE ("score_value","score_label") WHERE "safety_scores"."superseded_at" IS NULL;--> statement-breakpoint
DROP INDEX "safety_scores_current_key";--> statement-breakpoint
ALTER INDEX "safety_scores_current_key_chips" RENAME TO "safety_scores_current_key";--> statement-breakpoint
-- The partitions' copies take the parent's name with the partition's suffix (migration 0020).
SELECT public.sightline_name_partition_indexes('safety_scores', c.relname)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'public.safety_scores'::regclass;
