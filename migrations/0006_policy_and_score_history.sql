CREATE TABLE "project_policies" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"policy" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rescore_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text DEFAULT 'api' NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"cursor_created_at" timestamp with time zone,
	"cursor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scorer_deployments" (
	"digest" text PRIMARY KEY NOT NULL,
	"versions" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"score_id" uuid,
	"event_type" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status" smallint,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	CONSTRAINT "alert_deliveries_score_endpoint_key" UNIQUE("score_id","endpoint_id")
);
--> statement-breakpoint
CREATE TABLE "alert_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"url" text NOT NULL,
	"min_score" smallint NOT NULL,
	"scorers" text[],
	"format" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_endpoints_min_score_range" CHECK ("alert_endpoints"."min_score" BETWEEN 1 AND 5)
);
--> statement-breakpoint
ALTER TABLE "safety_scores" DROP CONSTRAINT "safety_scores_request_scorer_key";--> statement-breakpoint
DROP INDEX "safety_scores_project_created_idx";--> statement-breakpoint
DROP INDEX "safety_scores_project_scorer_created_idx";--> statement-breakpoint
DROP INDEX "safety_scores_project_created_label_idx";--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "scorer_version" text DEFAULT 'unversioned' NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "unsafe_at" smallint DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "policy_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "scored_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_policies" ADD CONSTRAINT "project_policies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rescore_jobs" ADD CONSTRAINT "rescore_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_endpoint_id_alert_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."alert_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_score_id_safety_scores_id_fk" FOREIGN KEY ("score_id") REFERENCES "public"."safety_scores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_endpoints" ADD CONSTRAINT "alert_endpoints_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rescore_jobs_state_updated_idx" ON "rescore_jobs" USING btree ("state","updated_at");--> statement-breakpoint
CREATE INDEX "rescore_jobs_project_created_idx" ON "rescore_jobs" USING btree ("project_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_deliveries_endpoint_created_idx" ON "alert_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_endpoints_project_idx" ON "alert_endpoints" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "safety_scores_current_key" ON "safety_scores" USING btree ("request_id","scorer_name") WHERE "safety_scores"."superseded_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "safety_scores_request_scorer_version_key" ON "safety_scores" USING btree ("request_id","scorer_name","scorer_version","policy_version");--> statement-breakpoint
CREATE INDEX "safety_scores_project_created_idx" ON "safety_scores" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "safety_scores"."superseded_at" IS NULL;--> statement-breakpoint
CREATE INDEX "safety_scores_project_scorer_created_idx" ON "safety_scores" USING btree ("project_id","scorer_name","created_at" DESC NULLS LAST) WHERE "safety_scores"."superseded_at" IS NULL;--> statement-breakpoint
CREATE INDEX "safety_scores_project_created_label_idx" ON "safety_scores" USING btree ("project_id","created_at","scorer_name","score_label") WHERE "safety_scores"."superseded_at" IS NULL;