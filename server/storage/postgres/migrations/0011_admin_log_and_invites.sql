-- Secret Push schema 11: the administration area (issue 32).
--
-- The admin log is append-only: the server has no statement that updates or deletes a row.
-- Invites: a single-use sign-up link's digest; used_at is set once (UPDATE … WHERE used_at IS
-- NULL), so two instances cannot both let one invite make an account.
CREATE TABLE admin_log (
  seq   bigserial PRIMARY KEY,
  entry json NOT NULL
);

CREATE TABLE invites (
  id         text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  record     json NOT NULL
);

-- Accounts listed and searched by email in the administration's user list.
CREATE INDEX users_email_pattern ON users (email text_pattern_ops);
