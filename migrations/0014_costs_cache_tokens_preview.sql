ALTER TABLE "llm_requests" ALTER COLUMN "cost_usd" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "llm_requests" ALTER COLUMN "cost_usd" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "cost_source" text;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "price_version" text;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "cache_read_tokens" integer;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "cache_write_tokens" integer;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "preview" text GENERATED ALWAYS AS (public.sightline_preview(request_body, 120)) STORED;--> statement-breakpoint
ALTER TABLE "request_rollups" ADD COLUMN "unpriced" integer DEFAULT 0 NOT NULL;