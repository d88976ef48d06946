CREATE TABLE "score_reviews" (
	"score_id" uuid PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"scorer_name" text NOT NULL,
	"verdict" text NOT NULL,
	"reviewer" text NOT NULL,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "llm_requests_project_created_idx";--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS ((jsonb_to_tsvector('simple'::regconfig, request_body, '["string"]'::jsonb) || jsonb_to_tsvector('simple'::regconfig, coalesce(response_body, 'null'::jsonb), '["string"]'::jsonb))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_requests" ADD COLUMN "is_error" boolean GENERATED ALWAYS AS (coalesce(metadata ->> 'status' = 'error', false)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD CONSTRAINT "score_reviews_score_id_safety_scores_id_fk" FOREIGN KEY ("score_id") REFERENCES "public"."safety_scores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD CONSTRAINT "score_reviews_request_id_llm_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."llm_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD CONSTRAINT "score_reviews_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "score_reviews_project_verdict_request_idx" ON "score_reviews" USING btree ("project_id","verdict","request_id");--> statement-breakpoint
CREATE INDEX "llm_requests_project_provider_created_idx" ON "llm_requests" USING btree ("project_id","provider","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "llm_requests_project_errors_created_idx" ON "llm_requests" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "llm_requests"."is_error";--> statement-breakpoint
CREATE INDEX "llm_requests_search_idx" ON "llm_requests" USING gin ("search_tsv");--> statement-breakpoint
CREATE INDEX "safety_scores_project_created_label_idx" ON "safety_scores" USING btree ("project_id","created_at","scorer_name","score_label");--> statement-breakpoint
CREATE INDEX "llm_requests_project_created_idx" ON "llm_requests" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"latency_ms","cost_usd","is_error");