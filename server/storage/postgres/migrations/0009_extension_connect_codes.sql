-- Secret Push schema 9. One-time codes the browser extension exchanges for an API token
-- (server/accounts/extension-connect/): stored by the SHA-256 of the code, so that whichever
-- instance the extension's exchange reaches can redeem it. `used_at` is set by the first
-- exchange in one conditional UPDATE (… WHERE used_at IS NULL), so of several exchanges at once
-- exactly one wins; `token_id` names the token it made, revoked if the code is replayed. Codes
-- live for a minute; the sweeper deletes expired ones.
CREATE TABLE extension_connect_codes (
  hash       text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  token_id   text,
  record     json NOT NULL
);
CREATE INDEX extension_connect_codes_expiry ON extension_connect_codes (expires_at);
