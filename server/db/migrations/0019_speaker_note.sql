ALTER TABLE "transcripts" DROP CONSTRAINT "transcripts_stage_check";--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "speaker_note" text;--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_speaker_note_check" CHECK ("transcripts"."speaker_note" in ('identifying', 'unavailable', 'failed'));--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_stage_check" CHECK ("transcripts"."stage" in ('downloading', 'engine', 'preparing', 'detecting', 'transcribing', 'speakers', 'saving'));