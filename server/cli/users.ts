import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { openServices } from '../server.js';
import { ServiceError } from '../service-error.js';
import { WrongMasterKeyError } from '../crypto/master-key.js';
import { DataDirLockedError } from '../storage/embedded/data-dir-lock.js';
import { CorruptDataError } from '../storage/store.js';
import { commandLineActor } from '../admin/admin-service.js';

/**
 * Admin CLI over the account service: `npm run users -- create <email>` makes the account if
 * needed and prints a new API token as the last line (for scripts: `| tail -n1`).
 * It opens the data directory itself, so it refuses while a server holds it.
 */
const USAGE = `Usage:
  npm run users -- create <email> [--label <label>]   create the account if needed; print a new API token (last line)
  npm run users -- set-password <email>               set the account's password for the web pages (read from stdin)
  npm run users -- tokens <email>                     list the account's tokens (ids and labels, never the tokens)
  npm run users -- revoke <email> <token id>          revoke a token
  npm run users -- reset-second-factor <email>        remove the account's authenticator app, recovery codes and passkeys, and end its sessions
  npm run users -- admin <email> [--revoke]           make the account an administrator (or no longer one)
  npm run users -- invite [<email>] [--days <n>]      print a single-use sign-up link (SIGN_UP=invite), optionally for one address`;

/** The first line of standard input (a prompt is shown when it is a terminal). */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('New password (input is shown; pipe it in to avoid that): ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const logger = createLogger('error');
  const services = await openServices(config, logger);
  try {
    const accounts = services.accounts;
    if (command === 'create') {
      const email = rest[0];
      if (!email) throw new ServiceError('bad_request', 'create needs an email address');
      const labelAt = rest.indexOf('--label');
      const label = labelAt >= 0 ? (rest[labelAt + 1] ?? '') : 'CLI token';
      const { user, created } = await accounts.ensureUser(email);
      const { info, token } = await accounts.createApiToken(user, label);
      process.stdout.write(`${created ? 'Created account' : 'Account exists:'} ${user.email}\n`);
      process.stdout.write(`New API token "${info.label}" (id ${info.id}); it is shown only now:\n`);
      process.stdout.write(`${token}\n`);
      return 0;
    }
    if (command === 'set-password') {
      const password = await readPassword();
      const user = await accounts.setPassword(rest[0], password);
      process.stdout.write(`Password set for ${user.email}; it can now sign in at /users/sign_in.\n`);
      return 0;
    }
    if (command === 'reset-second-factor') {
      const email = accounts.normaliseEmail(rest[0]);
      // Looked up, not ensured: a mistyped email must not make an account.
      const user = await services.store.getUserByEmail(email);
      if (!user) throw new ServiceError('not_found', `no account ${email}`);
      // Through the administration, so that the reset is in the admin log.
      const removed = await services.admin.resetSecondFactor(commandLineActor(), user.id);
      const what = [removed.totp ? 'the authenticator app and its recovery codes' : null, removed.passkeys ? `${removed.passkeys} passkey(s)` : null].filter(Boolean).join(' and ') || 'no second factor (there was none)';
      process.stdout.write(`Removed ${what} from ${user.email}; ended ${removed.sessions} browser session(s). API tokens are kept.\n`);
      if (services.secondFactor.requireMfa) process.stdout.write('REQUIRE_MFA is on: the account sets up a new authenticator app at its next sign-in.\n');
      return 0;
    }
    if (command === 'admin') {
      const revoke = rest.includes('--revoke');
      const user = await services.admin.setAdmin(commandLineActor(), rest.find((a) => !a.startsWith('--')), !revoke);
      process.stdout.write(revoke ? `${user.email} is no longer an administrator (unless ADMIN_EMAILS names it).\n` : `${user.email} is now an administrator: /admin\n`);
      return 0;
    }
    if (command === 'invite') {
      const daysAt = rest.indexOf('--days');
      const days = daysAt >= 0 ? rest[daysAt + 1] : undefined;
      const email = rest.find((a, i) => !a.startsWith('--') && i !== daysAt + 1);
      const base = config.baseUrl ?? `http://${config.host}:${config.port}`;
      const { link, invite } = await services.invites.create(commandLineActor(base), email, days);
      process.stdout.write(`Invite${invite.email ? ` for ${invite.email}` : ''}, valid until ${invite.expiresAt}; it is shown only now:\n${link}\n`);
      return 0;
    }
    if (command === 'tokens' || command === 'revoke') {
      const email = accounts.normaliseEmail(rest[0]);
      // Looked up, not ensured (ensureUser made the account it then said was missing).
      const user = await services.store.getUserByEmail(email);
      if (!user) throw new ServiceError('not_found', `no account ${email}`);
      if (command === 'tokens') {
        for (const t of await accounts.listApiTokens(user)) process.stdout.write(`${t.id}\t${t.createdAt}\t${t.label}\n`);
        return 0;
      }
      if (!rest[1]) throw new ServiceError('bad_request', 'revoke needs a token id (see: tokens <email>)');
      await accounts.revokeApiToken(user, rest[1]);
      process.stdout.write(`Revoked token ${rest[1]}\n`);
      return 0;
    }
    process.stderr.write(`Unknown command "${command}".\n${USAGE}\n`);
    return 2;
  } finally {
    await services.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    if (e instanceof DataDirLockedError) {
      process.stderr.write(`Refusing to change accounts: ${e.message}\nStop the server, run this command, then start the server again.\n`);
    } else if (e instanceof ServiceError || e instanceof ConfigError || e instanceof CorruptDataError || e instanceof WrongMasterKeyError) {
      process.stderr.write(`${e.message}\n`);
    } else {
      process.stderr.write(`Failed: ${(e as Error).message}\n`);
    }
    process.exit(1);
  },
);
