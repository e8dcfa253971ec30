CREATE TABLE "ask_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"transcript_id" uuid,
	"folder_id" uuid,
	"role" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"found" boolean,
	"action_id" uuid,
	"model" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ask_messages_role_check" CHECK ("ask_messages"."role" in ('user', 'assistant')),
	CONSTRAINT "ask_messages_status_check" CHECK ("ask_messages"."status" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "ask_messages_scope_check" CHECK (("ask_messages"."transcript_id" is null) <> ("ask_messages"."folder_id" is null))
);
--> statement-breakpoint
ALTER TABLE "ask_messages" ADD CONSTRAINT "ask_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_messages" ADD CONSTRAINT "ask_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_messages" ADD CONSTRAINT "ask_messages_transcript_id_transcripts_id_fk" FOREIGN KEY ("transcript_id") REFERENCES "public"."transcripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_messages" ADD CONSTRAINT "ask_messages_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ask_messages_transcript_user_idx" ON "ask_messages" USING btree ("transcript_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "ask_messages_folder_user_idx" ON "ask_messages" USING btree ("folder_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "ask_messages_workspace_idx" ON "ask_messages" USING btree ("workspace_id");