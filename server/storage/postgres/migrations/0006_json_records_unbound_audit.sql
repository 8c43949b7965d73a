-- Secret Push schema 6.
--
-- Records are stored as `json` instead of `jsonb`. The server reads and writes each record whole
-- and never searches inside one (secret requests' retention reads three fields, which `json`'s
-- ->> serves as well), so jsonb's binary form only cost PostgreSQL a conversion on every write
-- and every read; `json` keeps the text as the server wrote it. jsonb also refuses the escape
-- \u0000, so a push, token or webhook whose name held a NUL character could not be stored at
-- all (a 500); `json` accepts it.
--
-- The audit trail no longer has a foreign key to its push. The key's check locked the push's
-- row again (a second WAL record) on every create and view, for a rule the store already keeps:
-- an entry is only ever inserted in the statement that inserts or updates its push, or after
-- locking the push's row (FOR KEY SHARE); retention deletes a push's trail with it, and a
-- renamed push takes its trail along, in the same transaction (postgres-store.ts).
-- Measured on PostgreSQL 18 (backend CPU per statement): create 195 -> 132 us, view 283 -> 188 us.
--
-- Rewrites the pushes and audit tables (as VACUUM FULL would; pages are then filled to the
-- fillfactor of schema 5), once, at the first start: 2.2 s for 100,000 pushes with their
-- creation entries on the 2-core test machine (test-artifacts scratch), during which other
-- instances' requests wait for the tables. Instances of schema 5 still running beside it keep
-- working: json and jsonb convert to each other on assignment.
ALTER TABLE pushes ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE audit ALTER COLUMN entry TYPE json USING entry::json;
ALTER TABLE audit DROP CONSTRAINT audit_token_fkey;
ALTER TABLE users ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE api_tokens ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE sessions ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE webhooks ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE secret_requests ALTER COLUMN record TYPE json USING record::json;
