-- Secret Push schema 4. Webhooks: an account's endpoints, and the outbox of deliveries written
-- in the same transaction as the change that caused them. A delivery is claimed by one instance
-- at a time through its lease (`lease_until`), taken with FOR UPDATE SKIP LOCKED.
CREATE TABLE webhooks (
  id         text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  events     text[] NOT NULL,
  record     jsonb NOT NULL
);
CREATE INDEX webhooks_user ON webhooks (user_id, created_at);

CREATE TABLE webhook_deliveries (
  id              text PRIMARY KEY,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  webhook_id      text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  user_id         text NOT NULL,
  type            text NOT NULL,
  body            text NOT NULL,
  created_at      timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_until     timestamptz,
  state           text NOT NULL DEFAULT 'pending',
  last_status     integer,
  last_error      text,
  last_attempt_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id, seq DESC);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (last_attempt_at) WHERE state <> 'pending';

-- Secret requests: a link that lets someone send its owner a secret once. The answer's push is
-- inserted in the same transaction that marks the request answered.
CREATE TABLE secret_requests (
  id         text PRIMARY KEY,
  seq        bigint GENERATED ALWAYS AS IDENTITY,
  owner_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  record     jsonb NOT NULL
);
CREATE INDEX secret_requests_owner ON secret_requests (owner_id, seq DESC);
