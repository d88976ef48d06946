-- Text search per project (docs/storage.md "At scale"): the GIN index on the search document
-- leads with project_id (btree_gin gives uuid a GIN operator class), so a search finds one
-- project's matches in one index scan per month. With the document alone PostgreSQL ANDed
-- the GIN bitmap with the project's btree index for a rare word and read the project's whole
-- index range in every month (bench:scale, 5M calls: 221 ms cold, 127 ms warm; 15-27 ms with
-- this index, of about the same size). Neon supports btree_gin.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "llm_requests_search_idx";--> statement-breakpoint
CREATE INDEX "llm_requests_search_idx" ON "llm_requests" USING gin ("project_id","search_tsv");--> statement-breakpoint
-- Each month's copy is named after the parent's index (docs/storage.md "Layout").
DO $$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'public.llm_requests'::regclass LOOP
    PERFORM public.sightline_name_partition_indexes('llm_requests', p.relname);
  END LOOP;
END
$$;
