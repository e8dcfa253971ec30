ALTER TABLE "transcripts" DROP CONSTRAINT "transcripts_source_check";--> statement-breakpoint
ALTER TABLE "transcripts" DROP CONSTRAINT "transcripts_stage_check";--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_source_check" CHECK ("transcripts"."source" in ('upload', 'import', 'link'));--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_stage_check" CHECK ("transcripts"."stage" in ('downloading', 'engine', 'preparing', 'detecting', 'transcribing', 'saving'));