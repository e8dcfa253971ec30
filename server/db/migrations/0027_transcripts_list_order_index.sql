CREATE INDEX "transcripts_workspace_created_id_idx" ON "transcripts" USING btree ("workspace_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
DROP INDEX "transcripts_workspace_created_idx";
