-- Status and kind columns get CHECK constraints (lists in common/record-states.ts). The code only
-- ever wrote these values, but a database edited by hand may hold others: each is first mapped to
-- the nearest known state, so that adding the constraints cannot fail on a database with rows.
UPDATE "api_keys" SET "scope" = 'read' WHERE "scope" NOT IN ('full', 'read');--> statement-breakpoint
UPDATE "commissions" SET "kind" = CASE WHEN "amount" < 0 THEN 'reversal' ELSE 'commission' END WHERE "kind" NOT IN ('commission', 'reversal');--> statement-breakpoint
DELETE FROM "email_tokens" WHERE "purpose" NOT IN ('verify', 'reset');--> statement-breakpoint
UPDATE "jobs" SET "status" = 'failed', "locked_by" = NULL, "locked_until" = NULL WHERE "status" NOT IN ('queued', 'running', 'done', 'failed', 'canceled');--> statement-breakpoint
UPDATE "orders" SET "kind" = CASE WHEN "payment_order_id" IS NULL THEN 'payment' ELSE 'refund' END WHERE "kind" NOT IN ('payment', 'refund');--> statement-breakpoint
UPDATE "route_rules" SET "status" = CASE WHEN "status" IN (303, 307) THEN 302 ELSE 301 END WHERE "status" NOT IN (301, 302);--> statement-breakpoint
UPDATE "commissions" SET "settlement_id" = NULL WHERE "settlement_id" IN (SELECT "id" FROM "settlements" WHERE "status" NOT IN ('requested', 'paid', 'rejected') AND "paypal_transaction_id" IS NULL);--> statement-breakpoint
UPDATE "settlements" SET "status" = CASE WHEN "paypal_transaction_id" IS NULL THEN 'rejected' ELSE 'paid' END, "decided_at" = coalesce("decided_at", now()), "reason" = CASE WHEN "paypal_transaction_id" IS NULL THEN coalesce("reason", 'Closed: unknown state') ELSE "reason" END WHERE "status" NOT IN ('requested', 'paid', 'rejected');--> statement-breakpoint
UPDATE "transcripts" SET "status" = 'failed', "stage" = NULL WHERE "status" NOT IN ('queued', 'processing', 'done', 'failed', 'canceled');--> statement-breakpoint
UPDATE "transcripts" SET "source" = CASE WHEN "source_url" IS NULL THEN 'upload' ELSE 'import' END WHERE "source" NOT IN ('upload', 'import');--> statement-breakpoint
UPDATE "transcripts" SET "stage" = NULL WHERE "stage" NOT IN ('engine', 'preparing', 'detecting', 'transcribing', 'saving');--> statement-breakpoint
UPDATE "webhook_deliveries" SET "status" = 'failed', "finished_at" = coalesce("finished_at", now()) WHERE "status" NOT IN ('pending', 'succeeded', 'failed');--> statement-breakpoint
UPDATE "webhook_endpoints" SET "disabled_reason" = 'failures' WHERE "disabled_reason" NOT IN ('failures');--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("api_keys"."scope" in ('full', 'read'));--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_kind_check" CHECK ("commissions"."kind" in ('commission', 'reversal'));--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_purpose_check" CHECK ("email_tokens"."purpose" in ('verify', 'reset'));--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check" CHECK ("jobs"."status" in ('queued', 'running', 'done', 'failed', 'canceled'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("orders"."kind" in ('payment', 'refund'));--> statement-breakpoint
ALTER TABLE "route_rules" ADD CONSTRAINT "route_rules_status_check" CHECK ("route_rules"."status" in (301, 302));--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_status_check" CHECK ("settlements"."status" in ('requested', 'paid', 'rejected'));--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_status_check" CHECK ("transcripts"."status" in ('queued', 'processing', 'done', 'failed', 'canceled'));--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_source_check" CHECK ("transcripts"."source" in ('upload', 'import'));--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_stage_check" CHECK ("transcripts"."stage" in ('engine', 'preparing', 'detecting', 'transcribing', 'saving'));--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_disabled_reason_check" CHECK ("webhook_endpoints"."disabled_reason" in ('failures'));