-- Secret Push schema 1. Records are kept whole as JSON (the same shapes the embedded store
-- keeps, validated by server/storage/records.ts); the columns beside them are what queries
-- filter and sort on.

CREATE TABLE pushes (
  token          text PRIMARY KEY,
  seq            bigint GENERATED ALWAYS AS IDENTITY,
  owner_id       text,
  created_at     timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  expired_at     timestamptz,
  files_purge_at timestamptz,
  record         jsonb NOT NULL
);
CREATE INDEX pushes_owner ON pushes (owner_id, (expired_at IS NOT NULL), seq DESC) WHERE owner_id IS NOT NULL;
CREATE INDEX pushes_due ON pushes (expires_at) WHERE expired_at IS NULL;
CREATE INDEX pushes_files_due ON pushes (files_purge_at) WHERE files_purge_at IS NOT NULL AND expired_at IS NOT NULL;
CREATE INDEX pushes_expired ON pushes (expired_at) WHERE expired_at IS NOT NULL;

CREATE TABLE audit (
  id    bigserial PRIMARY KEY,
  token text NOT NULL REFERENCES pushes (token) ON DELETE CASCADE,
  entry jsonb NOT NULL
);
CREATE INDEX audit_token ON audit (token, id);

CREATE TABLE users (
  id     text PRIMARY KEY,
  email  text NOT NULL UNIQUE,
  record jsonb NOT NULL
);

CREATE TABLE api_tokens (
  id         text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hash       text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  record     jsonb NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);

CREATE TABLE sessions (
  id         text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  record     jsonb NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Encrypted file contents (opaque to the database), in chunks so that no statement carries a
-- whole file. A blob is visible once `complete`.
CREATE TABLE blobs (
  push_token text NOT NULL,
  file_id    text NOT NULL,
  size       bigint NOT NULL DEFAULT 0,
  chunk_size integer NOT NULL,
  complete   boolean NOT NULL DEFAULT false,
  started_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (push_token, file_id)
);
CREATE TABLE blob_chunks (
  push_token text NOT NULL,
  file_id    text NOT NULL,
  seq        integer NOT NULL,
  data       bytea NOT NULL,
  PRIMARY KEY (push_token, file_id, seq),
  FOREIGN KEY (push_token, file_id) REFERENCES blobs (push_token, file_id) ON DELETE CASCADE
);

-- Rate limit: hits per key in fixed windows. Counted on every request, so UNLOGGED: no WAL
-- flush per request; after a database crash the counts start again from zero, which only
-- forgives at most one minute of requests.
CREATE UNLOGGED TABLE rate_hits (
  key       text NOT NULL,
  window_end bigint NOT NULL,
  count     integer NOT NULL,
  PRIMARY KEY (key, window_end)
);
CREATE INDEX rate_hits_end ON rate_hits (window_end);

-- Guess limits: failures per key in a sliding window.
CREATE TABLE failed_attempts (
  id  bigserial PRIMARY KEY,
  key text NOT NULL,
  at  bigint NOT NULL
);
CREATE INDEX failed_attempts_key ON failed_attempts (key, at);
CREATE INDEX failed_attempts_at ON failed_attempts (at);

CREATE TABLE settings (
  name  text PRIMARY KEY,
  value text NOT NULL
);
