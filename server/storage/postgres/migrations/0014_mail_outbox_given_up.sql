-- Secret Push schema 14. The administration's list of every account's given-up mails
-- (Store.listGivenUpMails), newest first, a page at a time: a partial index over the failed mails
-- only, so the list does not read the whole outbox (sent mails are most of it).
CREATE INDEX mail_outbox_given_up ON mail_outbox (seq DESC) WHERE state = 'failed';
