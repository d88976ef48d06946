ALTER TABLE "pii_reveals" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "pii_reveals" ALTER COLUMN "user_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT '{ingest,read,admin}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "pii_reveals" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_known" CHECK (cardinality("api_keys"."scopes") > 0 AND "api_keys"."scopes" <@ ARRAY['ingest', 'read', 'admin']::text[]);--> statement-breakpoint
ALTER TABLE "pii_reveals" ADD CONSTRAINT "pii_reveals_one_actor" CHECK (("pii_reveals"."user_id" IS NOT NULL AND "pii_reveals"."user_email" IS NOT NULL AND "pii_reveals"."api_key_id" IS NULL) OR ("pii_reveals"."user_id" IS NULL AND "pii_reveals"."user_email" IS NULL AND "pii_reveals"."api_key_id" IS NOT NULL));