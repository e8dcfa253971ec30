ALTER TABLE "transcripts" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "remaining_sec" integer;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "detect_speech" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "speech_regions" jsonb;