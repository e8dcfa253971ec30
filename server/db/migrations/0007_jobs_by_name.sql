ALTER TABLE "jobs" ALTER COLUMN "transcript_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "name" text DEFAULT 'transcribe' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "payload" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "once" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "repeat_ms" integer;--> statement-breakpoint
CREATE INDEX "jobs_key_idx" ON "jobs" USING btree ("name","key");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_once_idx" ON "jobs" USING btree ("name","key") WHERE "jobs"."once" and "jobs"."status" in ('queued', 'running');--> statement-breakpoint
-- Jobs queued before jobs had names are transcriptions: give them their payload and key.
UPDATE "jobs" SET "payload" = jsonb_build_object('transcriptId', "transcript_id"), "key" = "transcript_id"::text WHERE "transcript_id" IS NOT NULL;
