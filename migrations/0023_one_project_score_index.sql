-- One project index of current scores instead of three (docs/storage.md "At scale: what a call
-- weighs"): the score list's order, its scorer and label filters, and the overview's and
-- summary's counts per scorer and label all read (project_id, created_at DESC, id DESC,
-- scorer_name, score_label). The three took 1,144 bytes per call at 5M calls, this one 527 at
-- 10M (bench/results/scale.md). The new index is built before the old ones go, so the score list
-- always has an index to read.
CREATE INDEX IF NOT EXISTS "safety_scores_project_current_idx" ON "safety_scores" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"scorer_name","score_label") WHERE "safety_scores"."superseded_at" IS NULL;--> statement-breakpoint
DROP INDEX "safety_scores_project_created_idx";--> statement-breakpoint
DROP INDEX "safety_scores_project_scorer_created_idx";--> statement-breakpoint
DROP INDEX "safety_scores_project_created_label_idx";
--> statement-breakpoint
-- The partitions' copies of the new index take the parent's name with the partition's suffix
-- (migration 0020), so plans name the index they use.
SELECT public.sightline_name_partition_indexes('safety_scores', c.relname)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'public.safety_scores'::regclass;
