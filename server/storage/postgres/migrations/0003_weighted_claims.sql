-- Secret Push schema 3. The guess limits' table also counts stored bytes (storage quotas) and
-- keeps failures for a day (sign-in back-off): each claim has a weight, and the time its
-- window ends, so pruning keeps what a longer window still needs.
ALTER TABLE failed_attempts ADD COLUMN weight bigint NOT NULL DEFAULT 1;
ALTER TABLE failed_attempts ADD COLUMN expires bigint;
UPDATE failed_attempts SET expires = at + 60000;
ALTER TABLE failed_attempts ALTER COLUMN expires SET NOT NULL;
DROP INDEX failed_attempts_at;
CREATE INDEX failed_attempts_expires ON failed_attempts (expires);
