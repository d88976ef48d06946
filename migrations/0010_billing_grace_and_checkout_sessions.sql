CREATE TABLE "checkout_sessions" (
	"project_id" uuid NOT NULL,
	"price_id" text NOT NULL,
	"session_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY("project_id","price_id")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retention_tier" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retention_grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;