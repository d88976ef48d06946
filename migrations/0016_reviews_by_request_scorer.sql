-- Reviews survive re-scoring (issue 33.4): a verdict is keyed by (request, scorer) instead of the
-- score row, and records the score it was given on. Existing reviews take the columns of their
-- score; where re-scores left several reviews of one (request, scorer), the latest one stays.
ALTER TABLE "score_reviews" ADD COLUMN "score_value" smallint;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD COLUMN "score_label" text;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD COLUMN "scorer_version" text;--> statement-breakpoint
ALTER TABLE "score_reviews" ADD COLUMN "policy_version" integer;--> statement-breakpoint
UPDATE "score_reviews" r SET "score_value" = s."score_value", "score_label" = s."score_label", "scorer_version" = s."scorer_version", "policy_version" = s."policy_version"
  FROM "safety_scores" s WHERE s."id" = r."score_id";--> statement-breakpoint
DELETE FROM "score_reviews" r USING "score_reviews" newer
  WHERE newer."request_id" = r."request_id" AND newer."scorer_name" = r."scorer_name"
    AND (newer."reviewed_at", newer."score_id") > (r."reviewed_at", r."score_id");--> statement-breakpoint
ALTER TABLE "score_reviews" ALTER COLUMN "score_label" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "score_reviews" ALTER COLUMN "scorer_version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "score_reviews" ALTER COLUMN "policy_version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "score_reviews" DROP CONSTRAINT "score_reviews_pkey";--> statement-breakpoint
ALTER TABLE "score_reviews" ADD CONSTRAINT "score_reviews_pkey" PRIMARY KEY("request_id","scorer_name");--> statement-breakpoint
CREATE INDEX "score_reviews_score_idx" ON "score_reviews" USING btree ("score_id");
