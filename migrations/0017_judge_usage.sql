CREATE TABLE "judge_usage" (
	"project_id" uuid NOT NULL,
	"month" date NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "judge_usage_project_id_month_pk" PRIMARY KEY("project_id","month"),
	CONSTRAINT "judge_usage_used_nonnegative" CHECK ("judge_usage"."used" >= 0)
);
--> statement-breakpoint
ALTER TABLE "safety_scores" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "judge_usage" ADD CONSTRAINT "judge_usage_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;