/**
 * The two versions the server reports (GET /api/v2/version, /api/v1/version).
 *
 * Clients written for Password Pusher read `application_version` as Password Pusher's release and
 * gate features on it (the official browser extension refuses an "oss" server below 2.5.0). So
 * `application_version` states which Password Pusher release's API this server answers like, and
 * our own release is reported beside it as `secret_push_version`. Raise the first only after
 * checking the server against that Password Pusher release (docs/password-pusher-compat.md).
 */

/** Secret Push's own release. */
export const SECRET_PUSH_VERSION = '1.0.0';

/** The Password Pusher release (open-source edition) whose JSON API v2 (2.1) and v1 (1.5) we match. */
export const PASSWORD_PUSHER_COMPATIBLE_VERSION = '2.11.4';
