-- Secret Push schema 21: one link per recipient (issue 35). The owner's dashboard reads a batch's
-- pushes together (Store.listPushesOfBatch); the batch id lives in the record (`batchId`), so this
-- indexes that field, only on the pushes that have one.
CREATE INDEX pushes_batch_id ON pushes (owner_id, (record->>'batchId'), seq) WHERE (record->>'batchId') IS NOT NULL;
