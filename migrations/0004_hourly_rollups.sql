CREATE TABLE "request_rollups" (
	"project_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" integer NOT NULL,
	"errors" integer NOT NULL,
	"cost_usd" numeric(30, 10) NOT NULL,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"latency_ms_sum" bigint NOT NULL,
	"latency_hist" integer[] NOT NULL,
	CONSTRAINT "request_rollups_pkey" PRIMARY KEY("project_id","hour")
);
--> statement-breakpoint
CREATE TABLE "score_rollups" (
	"project_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"scorer_name" text NOT NULL,
	"scores" integer NOT NULL,
	"unsafe" integer NOT NULL,
	"unscored" integer NOT NULL,
	"value_1" integer NOT NULL,
	"value_2" integer NOT NULL,
	"value_3" integer NOT NULL,
	"value_4" integer NOT NULL,
	"value_5" integer NOT NULL,
	CONSTRAINT "score_rollups_pkey" PRIMARY KEY("project_id","hour","scorer_name")
);
--> statement-breakpoint
ALTER TABLE "request_rollups" ADD CONSTRAINT "request_rollups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_rollups" ADD CONSTRAINT "score_rollups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hourly rollups (src/db/rollups.ts). Latency histogram buckets: the bounds are 2^(k/8) ms for
-- k = 0..176 rounded to whole milliseconds, duplicates removed (159 bounds, 1 ms .. 4,194,304 ms):
-- the bucket boundaries of Prometheus native histograms (schema 3) and OpenTelemetry exponential
-- histograms (scale 3, base 2^(2^-3)), at the integer-millisecond resolution of latency_ms.
-- Array entry i (1-based) counts latencies v with width_bucket(v, bounds) = i - 1: entry 1 is
-- v < 1 ms, entry 160 is v >= 4,194,304 ms. The same constant is LATENCY_BOUNDS_MS in TypeScript.
CREATE FUNCTION sightline_latency_bounds() RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT '{1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,19,21,23,25,27,29,32,35,38,41,45,49,54,59,64,70,76,83,91,99,108,117,128,140,152,166,181,197,215,235,256,279,304,332,362,395,431,470,512,558,609,664,724,790,861,939,1024,1117,1218,1328,1448,1579,1722,1878,2048,2233,2435,2656,2896,3158,3444,3756,4096,4467,4871,5312,5793,6317,6889,7512,8192,8933,9742,10624,11585,12634,13777,15024,16384,17867,19484,21247,23170,25268,27554,30048,32768,35734,38968,42495,46341,50535,55109,60097,65536,71468,77936,84990,92682,101070,110218,120194,131072,142935,155872,169979,185364,202141,220436,240387,262144,285870,311744,339959,370728,404281,440872,480774,524288,571740,623487,679917,741455,808563,881744,961548,1048576,1143480,1246974,1359835,1482910,1617125,1763488,1923097,2097152,2286960,2493948,2719670,2965821,3234251,3526975,3846194,4194304}'::int[] $$;--> statement-breakpoint
-- The 160-entry histogram of a set of latencies (ms). PL/pgSQL with in-place element updates:
-- about ten times cheaper per call than a set-based SQL body (unnest/generate_series), which
-- matters on the ingest path, where a batch calls it once per (project, hour).
CREATE FUNCTION sightline_latency_histogram(latencies int[]) RETURNS int[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  bounds constant int[] := sightline_latency_bounds();
  h int[] := array_fill(0, ARRAY[160]);
  v int;
  i int;
BEGIN
  FOREACH v IN ARRAY coalesce(latencies, '{}') LOOP
    i := width_bucket(v, bounds) + 1;
    h[i] := h[i] + 1;
  END LOOP;
  RETURN h;
END $$;--> statement-breakpoint
-- Entry-wise sum of two histograms of equal length.
CREATE FUNCTION sightline_hist_add(a int[], b int[]) RETURNS int[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  h int[] := a;
BEGIN
  FOR i IN 1..cardinality(b) LOOP
    IF b[i] <> 0 THEN
      h[i] := h[i] + b[i];
    END IF;
  END LOOP;
  RETURN h;
END $$;--> statement-breakpoint
-- Entry-wise sum of a column of histograms (a group of one row returns that row as is).
CREATE AGGREGATE sightline_hist_sum(int[]) (SFUNC = sightline_hist_add, STYPE = int[]);--> statement-breakpoint
-- Recomputes both rollups from the rows. Exact under concurrent ingest and scoring: the EXCLUSIVE
-- locks wait for every transaction that already changed a rollup and hold back new ones until
-- this one commits; each statement below then reads with a fresh snapshot (READ COMMITTED), and a
-- write that waited adds its own change on top of the rebuilt rows. Used by this migration, by
-- the dashboard benchmark after its COPY load, and by an operator after an old worker wrote rows.
CREATE FUNCTION sightline_rebuild_rollups() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE request_rollups, score_rollups IN EXCLUSIVE MODE;
  DELETE FROM request_rollups;
  INSERT INTO request_rollups (project_id, hour, requests, errors, cost_usd, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), count(*), count(*) FILTER (WHERE is_error), coalesce(sum(cost_usd), 0),
    coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0), coalesce(sum(latency_ms), 0), sightline_latency_histogram(array_agg(latency_ms))
  FROM llm_requests GROUP BY 1, 2;
  DELETE FROM score_rollups;
  INSERT INTO score_rollups (project_id, hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5)
  SELECT project_id, date_trunc('hour', created_at, 'UTC'), scorer_name, count(*), count(*) FILTER (WHERE score_label = 'unsafe'),
    count(*) FILTER (WHERE score_label = 'unscored'), count(*) FILTER (WHERE score_value = 1), count(*) FILTER (WHERE score_value = 2),
    count(*) FILTER (WHERE score_value = 3), count(*) FILTER (WHERE score_value = 4), count(*) FILTER (WHERE score_value = 5)
  FROM safety_scores GROUP BY 1, 2, 3;
$$;--> statement-breakpoint
SELECT sightline_rebuild_rollups();
