-- Secret Push schema 17. Multipart uploads an instance started in object storage
-- (FILE_STORAGE=s3), recorded before their first part is sent and deleted once completed or
-- aborted. An instance killed mid-upload leaves its row; the sweep aborts that upload a day
-- later by key and id, since not every S3-compatible server can list its multipart uploads.
CREATE TABLE multipart_uploads (
  upload_id  text PRIMARY KEY,
  object_key text NOT NULL,
  started_at timestamptz NOT NULL
);
CREATE INDEX multipart_uploads_started ON multipart_uploads (started_at);
