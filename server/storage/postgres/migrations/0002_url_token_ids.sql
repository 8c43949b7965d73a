-- Secret Push schema 2. Pushes are stored under a keyed hash of their URL token instead of the
-- token (pushes/url-token-id.ts); the server renames existing rows at start, in code (the HMAC
-- key is sealed under MASTER_KEY, which SQL does not have). A rename changes the primary key,
-- so the rows that refer to it follow it.
ALTER TABLE audit DROP CONSTRAINT audit_token_fkey;
ALTER TABLE audit ADD CONSTRAINT audit_token_fkey FOREIGN KEY (token) REFERENCES pushes (token) ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE blob_chunks DROP CONSTRAINT blob_chunks_push_token_file_id_fkey;
ALTER TABLE blob_chunks ADD CONSTRAINT blob_chunks_push_token_file_id_fkey
  FOREIGN KEY (push_token, file_id) REFERENCES blobs (push_token, file_id) ON DELETE CASCADE ON UPDATE CASCADE;
