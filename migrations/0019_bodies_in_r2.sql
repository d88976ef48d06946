CREATE TABLE "body_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"newest_created_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "upkeep_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"position" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "llm_requests" ALTER COLUMN "request_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_requests" ALTER COLUMN "search_tsv" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "llm_requests" ALTER COLUMN "preview" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "body_key" text;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "request_body_offset" integer;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "request_body_length" integer;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "response_body_offset" integer;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "response_body_length" integer;--> statement-breakpoint
CREATE INDEX "body_objects_unreferenced_idx" ON "body_objects" USING btree ("created_at") WHERE "body_objects"."newest_created_at" IS NULL;--> statement-breakpoint
CREATE INDEX "body_objects_project_newest_idx" ON "body_objects" USING btree ("project_id","newest_created_at");--> statement-breakpoint
CREATE INDEX "llm_requests_body_key_idx" ON "llm_requests" USING btree ("body_key") WHERE "llm_requests"."body_key" IS NOT NULL;--> statement-breakpoint
-- preview and search_tsv are plain columns now: ingest computes them from the whole bodies,
-- which may then live in R2 (src/db/ingest.ts, src/db/ingest-batch.ts). An insert that gives
-- neither (rows written by tools and tests with inline bodies) gets them from its inline bodies,
-- exactly as the generated columns computed them (migrations/0005, 0013, 0014).
CREATE OR REPLACE FUNCTION public.sightline_request_derived() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search_tsv IS NULL THEN
    NEW.search_tsv := to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(NEW.request_body, 50000), ''))
      || to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(NEW.response_body, 50000), ''));
  END IF;
  IF NEW.preview IS NULL AND NEW.request_body IS NOT NULL THEN
    NEW.preview := public.sightline_preview(NEW.request_body, 120);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER llm_requests_derived BEFORE INSERT ON "llm_requests" FOR EACH ROW EXECUTE FUNCTION public.sightline_request_derived();
