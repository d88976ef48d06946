CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created" bigint NOT NULL,
	"object_id" text,
	"project_id" uuid,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_project_received_idx" ON "webhook_events" USING btree ("project_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_payment_customer_idx" ON "subscriptions" USING btree ("payment_customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_payment_subscription_idx" ON "subscriptions" USING btree ("payment_subscription_id");