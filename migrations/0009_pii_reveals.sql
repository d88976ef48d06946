CREATE TABLE "pii_reveals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"user_email" text NOT NULL,
	"fields" text[] NOT NULL,
	"revealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pii_reveals" ADD CONSTRAINT "pii_reveals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pii_reveals_project_revealed_idx" ON "pii_reveals" USING btree ("project_id","revealed_at");--> statement-breakpoint
CREATE INDEX "pii_reveals_project_request_idx" ON "pii_reveals" USING btree ("project_id","request_id","revealed_at");