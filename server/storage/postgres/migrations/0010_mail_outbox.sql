-- Secret Push schema 10. The mail outbox: e-mails written in the same transaction as their
-- cause, sent by the mail worker. Like webhook deliveries, a mail is claimed by one instance at a
-- time through its lease (`lease_until`), taken with FOR UPDATE SKIP LOCKED, so that with
-- several instances each mail is sent once and one whose instance died is sent after its lease.
-- The message itself (recipients, subject, parts) is sealed: it may hold a reset link.
CREATE TABLE mail_outbox (
  id              text PRIMARY KEY,
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  user_id         text,
  kind            text NOT NULL,
  message         text NOT NULL,
  created_at      timestamptz NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_until     timestamptz,
  state           text NOT NULL DEFAULT 'pending',
  last_error      text,
  last_attempt_at timestamptz
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX mail_outbox_user ON mail_outbox (user_id, seq DESC);
