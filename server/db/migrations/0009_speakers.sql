ALTER TABLE "transcripts" ADD COLUMN "speakers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "detect_speakers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "speaker_count" integer;