CREATE TABLE "session_scores" (
	"project_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"scorer_name" text NOT NULL,
	"score_value" smallint NOT NULL,
	"score_label" text NOT NULL,
	"rationale" text NOT NULL,
	"decided_by" text NOT NULL,
	"turns" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_scores_project_id_session_id_scorer_name_pk" PRIMARY KEY("project_id","session_id","scorer_name"),
	CONSTRAINT "session_scores_value_range" CHECK ("session_scores"."score_value" BETWEEN 1 AND 5)
);
--> statement-breakpoint
ALTER TABLE "session_scores" ADD CONSTRAINT "session_scores_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "llm_requests_project_session_created_idx" ON "llm_requests" USING btree ("project_id",("metadata" ->> 'session_id'),"created_at") WHERE "llm_requests"."metadata" ? 'session_id';