-- Issue 23 (decision 142): a completion's stored answer is about 4 KB of jsonb, past the 2 KB at
-- which PostgreSQL compresses a row, so every completion ran pglz over it. lz4 compresses it in a
-- small part of that CPU and reads back faster on a replay. An engine built without lz4 (PGlite)
-- keeps the default.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET COMPRESSION lz4;
  END IF;
END
$$;
