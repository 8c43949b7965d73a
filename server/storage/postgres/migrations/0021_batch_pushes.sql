-- Secret Push schema 21: one link per recipient (issue 35). The owner's dashboard reads a batch's
-- pushes together (Store.listPushesOfBatch). The batch id is in the record (`batchId`) and, from
-- this schema on, in a column of its own that the insert writes and nothing updates. Not an index
-- over `record->>'batchId'`: every view rewrites `record`, so such an index makes each view a
-- non-HOT update (postgres-heap-only-updates.test.ts), and evaluating it parses the record, which
-- PostgreSQL refuses for a name holding an escaped NUL (postgres-schema-upgrade.test.ts).
ALTER TABLE pushes ADD COLUMN batch_id text;
-- Batches made before this schema (the API had them): read the id from the record's text, without
-- parsing it as JSON (for the NUL above). Batch ids are UUIDs, never escaped.
UPDATE pushes SET batch_id = substring(record::text FROM '"batchId":"([A-Za-z0-9_-]+)"')
 WHERE strpos(record::text, '"batchId"') > 0;
CREATE INDEX pushes_batch_id ON pushes (owner_id, batch_id, seq) WHERE batch_id IS NOT NULL;
