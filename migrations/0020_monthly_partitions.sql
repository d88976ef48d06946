-- Monthly partitions of llm_requests and safety_scores (issue 34.2, docs/storage.md).
-- Hand-written (drizzle-kit generate --custom): drizzle-kit does not model partitioning; the
-- snapshot beside this file holds what it does model (the composite primary keys, the unique
-- indexes with created_at, the dropped foreign keys), so a later `drizzle-kit generate` finds
-- no difference.
--
-- Both tables are partitioned BY RANGE (created_at), one partition per UTC month
-- (<table>_yYYYYmMM) plus a default partition (<table>_default) for rows outside every month's
-- partition. safety_scores.created_at becomes its request's created_at, so a request and its
-- scores sit in the same month and one time bound prunes both sides of a join.
--
-- The conversion copies whatever columns, defaults, generated columns, CHECK constraints,
-- indexes and outgoing foreign keys the tables have when it runs (so columns another migration
-- added before this one are carried); a unique index gets created_at appended (partitioning
-- requires it), the primary key becomes (id, created_at).

-- The name of the partition of `parent` for the month starting at `month_start` (UTC).
CREATE OR REPLACE FUNCTION public.sightline_month_partition_name(parent text, month_start timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT parent || '_y' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY') || 'm' || to_char(month_start AT TIME ZONE 'UTC', 'MM')
$$;--> statement-breakpoint

-- Names the indexes of partition `part` of `parent` after the parent's indexes, with the
-- partition's suffix (llm_requests_project_created_idx_y2026m11, ..._default) instead of
-- PostgreSQL's names made of column names, so plans name the index they use.
CREATE OR REPLACE FUNCTION public.sightline_name_partition_indexes(parent text, part text) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT c.relname AS child, p.relname AS parent_index
      FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
      JOIN pg_inherits i ON i.inhrelid = x.indexrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE x.indrelid = ('public.' || quote_ident(part))::regclass LOOP
    IF r.child <> r.parent_index || substr(part, length(parent) + 1) THEN
      EXECUTE format('ALTER INDEX public.%I RENAME TO %I', r.child, r.parent_index || substr(part, length(parent) + 1));
    END IF;
  END LOOP;
END
$$;--> statement-breakpoint

-- Creates the partition of `parent` for the UTC month holding `at`, if it does not exist, and
-- moves into it the rows the default partition holds for that month (PostgreSQL refuses a new
-- partition while the default one has rows in its range). Returns true when it created one.
CREATE OR REPLACE FUNCTION public.sightline_create_month_partition(parent text, at timestamptz) RETURNS boolean
  LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', at, 'UTC');
  hi timestamptz := date_trunc('month', at, 'UTC') + interval '1 month';
  part text := public.sightline_month_partition_name(parent, date_trunc('month', at, 'UTC'));
  def text := parent || '_default';
  cols text;
  moving boolean := false;
BEGIN
  IF to_regclass('public.' || quote_ident(part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  IF to_regclass('public.' || quote_ident(def)) IS NOT NULL THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I WHERE created_at >= %L AND created_at < %L)', def, lo, hi) INTO moving;
  END IF;
  IF moving THEN
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
      FROM pg_attribute WHERE attrelid = ('public.' || quote_ident(parent))::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
    EXECUTE format('CREATE TEMP TABLE sightline_moving ON COMMIT DROP AS SELECT %s FROM public.%I WHERE created_at >= %L AND created_at < %L', cols, def, lo, hi);
    EXECUTE format('DELETE FROM public.%I WHERE created_at >= %L AND created_at < %L', def, lo, hi);
  END IF;
  EXECUTE format('CREATE TABLE public.%I PARTITION OF public.%I FOR VALUES FROM (%L) TO (%L)', part, parent, lo, hi);
  PERFORM public.sightline_name_partition_indexes(parent, part);
  IF moving THEN
    EXECUTE format('INSERT INTO public.%I (%s) SELECT %s FROM sightline_moving', parent, cols, cols);
    DROP TABLE sightline_moving;
  END IF;
  RETURN true;
END
$$;--> statement-breakpoint

-- Creates the monthly partitions of llm_requests and safety_scores from the current UTC month
-- to `months_ahead` months after it (the sweep runs this, src/upkeep/partitions.ts). One
-- caller at a time (a transaction-scoped advisory lock). Creating a partition locks its parent
-- exclusively for a moment: it waits at most 5 s for running statements (lock_timeout, this
-- transaction only), so ingest never queues behind it for long; on a timeout nothing is created
-- and the next sweep tries again. Returns how many partitions it created.
CREATE OR REPLACE FUNCTION public.sightline_ensure_partitions(months_ahead integer) RETURNS integer
  LANGUAGE plpgsql AS $$
DECLARE
  created integer := 0;
  m integer;
  t text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('sightline_ensure_partitions'));
  PERFORM set_config('lock_timeout', '5s', true);
  FOR m IN 0..months_ahead LOOP
    FOREACH t IN ARRAY ARRAY['llm_requests', 'safety_scores'] LOOP
      IF public.sightline_create_month_partition(t, now() + make_interval(months => m)) THEN
        created := created + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint

-- The one-shot conversion of `tbl` into a table partitioned by month of created_at, its rows
-- copied; `created_at_from` (SQL over the old table aliased `o`) gives each row's created_at.
-- Months from `months_back` before the current one (at most; none before the oldest row) to 3
-- after it get partitions; older rows land in the default partition.
CREATE FUNCTION pg_temp.sightline_partition_by_month(tbl text, created_at_from text, months_back integer) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  old text := tbl || '_unpartitioned';
  idx record;
  fk record;
  trg record;
  triggers text[] := '{}';
  indexes text[] := '{}';
  fks text[] := '{}';
  def text;
  cols text;
  vals text;
  oldest timestamptz;
  m timestamptz;
  m_part text;
BEGIN
  -- Remember the indexes (but the primary key) and outgoing foreign keys, then free their names.
  FOR idx IN SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS uniq
      FROM pg_index i WHERE i.indrelid = ('public.' || tbl)::regclass AND NOT i.indisprimary LOOP
    def := idx.def;
    IF idx.uniq AND def !~ '\mcreated_at\M' THEN
      def := regexp_replace(def, '\(([^()]*)\)', '(\1, created_at)');
    END IF;
    indexes := indexes || def;
    EXECUTE format('DROP INDEX public.%s', idx.name);
  END LOOP;
  FOR fk IN SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ('public.' || tbl)::regclass AND contype = 'f' LOOP
    fks := fks || format('ALTER TABLE public.%I ADD CONSTRAINT %I %s', tbl, fk.conname, fk.def);
  END LOOP;
  -- Row triggers (e.g. llm_requests_derived, migration 0019) are made again on the new table.
  FOR trg IN SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = ('public.' || tbl)::regclass AND NOT tgisinternal LOOP
    triggers := triggers || trg.def;
  END LOOP;
  EXECUTE format('ALTER TABLE public.%I RENAME TO %I', tbl, old);
  EXECUTE format('ALTER TABLE public.%I RENAME CONSTRAINT %I TO %I', old, tbl || '_pkey', old || '_pkey');

  EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE '
    'INCLUDING COMPRESSION INCLUDING COMMENTS INCLUDING STATISTICS) PARTITION BY RANGE (created_at)', tbl, old);
  EXECUTE format('CREATE TABLE public.%I PARTITION OF public.%I DEFAULT', tbl || '_default', tbl);
  EXECUTE format('SELECT min(%s) FROM public.%I o', created_at_from, old) INTO oldest;
  m := greatest(date_trunc('month', coalesce(oldest, now()), 'UTC'), date_trunc('month', now(), 'UTC') - make_interval(months => months_back));
  WHILE m <= date_trunc('month', now(), 'UTC') + interval '3 months' LOOP
    PERFORM public.sightline_create_month_partition(tbl, m);
    m := m + interval '1 month';
  END LOOP;

  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum),
         string_agg(CASE WHEN attname = 'created_at' THEN created_at_from ELSE 'o.' || quote_ident(attname) END, ', ' ORDER BY attnum)
    INTO cols, vals
    FROM pg_attribute WHERE attrelid = ('public.' || old)::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
  EXECUTE format('INSERT INTO public.%I (%s) SELECT %s FROM public.%I o', tbl, cols, vals, old);

  EXECUTE format('ALTER TABLE public.%I ADD CONSTRAINT %I PRIMARY KEY (id, created_at)', tbl, tbl || '_pkey');
  FOREACH def IN ARRAY indexes LOOP
    EXECUTE def;
  END LOOP;
  FOREACH def IN ARRAY fks LOOP
    EXECUTE def;
  END LOOP;
  FOREACH def IN ARRAY triggers LOOP
    EXECUTE def;
  END LOOP;
  FOR m_part IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ('public.' || tbl)::regclass LOOP
    PERFORM public.sightline_name_partition_indexes(tbl, m_part);
  END LOOP;
  EXECUTE format('DROP TABLE public.%I', old);
END
$$;--> statement-breakpoint

-- Foreign keys to the tables being partitioned go: a key to a partitioned table would make
-- dropping a month's partition check the whole referencing table. Their writers keep them
-- whole instead, and retention deletes scores, reviews and alert deliveries with their requests
-- (src/upkeep/retention.ts).
ALTER TABLE "safety_scores" DROP CONSTRAINT IF EXISTS "safety_scores_request_id_llm_requests_id_fk";--> statement-breakpoint
ALTER TABLE "score_reviews" DROP CONSTRAINT IF EXISTS "score_reviews_request_id_llm_requests_id_fk";--> statement-breakpoint
ALTER TABLE "score_reviews" DROP CONSTRAINT IF EXISTS "score_reviews_score_id_safety_scores_id_fk";--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT IF EXISTS "alert_deliveries_score_id_safety_scores_id_fk";--> statement-breakpoint

-- 25 months back: the longest finite retention (team, 730 days) and the month it started in.
SELECT pg_temp.sightline_partition_by_month('llm_requests', 'o.created_at', 25);--> statement-breakpoint
-- A score's created_at becomes its request's (a score without its request keeps its own).
SELECT pg_temp.sightline_partition_by_month('safety_scores',
  'coalesce((SELECT r.created_at FROM public.llm_requests r WHERE r.id = o.request_id LIMIT 1), o.created_at)', 25);--> statement-breakpoint

-- Score rollups counted scores in the hour they were first made; now in their call's hour.
SELECT sightline_rebuild_rollups();
