CREATE TABLE "route_rules" (
	"path" text PRIMARY KEY NOT NULL,
	"target" text NOT NULL,
	"status" integer DEFAULT 301 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seo_pages" (
	"slug" text NOT NULL,
	"lang" text NOT NULL,
	"group" text NOT NULL,
	"related" jsonb NOT NULL,
	"content" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seo_pages_slug_lang_pk" PRIMARY KEY("slug","lang")
);
--> statement-breakpoint
CREATE INDEX "seo_pages_lang_idx" ON "seo_pages" USING btree ("lang");