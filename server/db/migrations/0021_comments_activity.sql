CREATE TABLE "transcript_activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"transcript_id" uuid NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transcript_activity_kind_check" CHECK ("transcript_activity"."kind" in ('uploaded', 'edited', 'renamed', 'exported', 'shared', 'commented'))
);
--> statement-breakpoint
CREATE TABLE "transcript_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"transcript_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"parent_id" uuid,
	"segment_index" integer,
	"start_sec" double precision DEFAULT 0 NOT NULL,
	"end_sec" double precision,
	"body" text NOT NULL,
	"mentions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "edited_by" uuid;--> statement-breakpoint
ALTER TABLE "transcripts" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transcript_activity" ADD CONSTRAINT "transcript_activity_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_activity" ADD CONSTRAINT "transcript_activity_transcript_id_transcripts_id_fk" FOREIGN KEY ("transcript_id") REFERENCES "public"."transcripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_activity" ADD CONSTRAINT "transcript_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_comments" ADD CONSTRAINT "transcript_comments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_comments" ADD CONSTRAINT "transcript_comments_transcript_id_transcripts_id_fk" FOREIGN KEY ("transcript_id") REFERENCES "public"."transcripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_comments" ADD CONSTRAINT "transcript_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_comments" ADD CONSTRAINT "transcript_comments_parent_id_transcript_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."transcript_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcript_comments" ADD CONSTRAINT "transcript_comments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcript_activity_transcript_idx" ON "transcript_activity" USING btree ("transcript_id","created_at");--> statement-breakpoint
CREATE INDEX "transcript_activity_workspace_idx" ON "transcript_activity" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "transcript_comments_transcript_idx" ON "transcript_comments" USING btree ("transcript_id","created_at");--> statement-breakpoint
CREATE INDEX "transcript_comments_workspace_idx" ON "transcript_comments" USING btree ("workspace_id");--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_edited_by_users_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;