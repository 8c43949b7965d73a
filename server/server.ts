import { serve, type ServerType } from '@hono/node-server';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountService } from './accounts/account-service.js';
import { AccountMail } from './accounts/account-mail.js';
import type { OidcRelyingParty } from './accounts/oidc/relying-party.js';
import { ConnectionDrain } from './connection-drain.js';
import { createCatalogueService } from './catalogue/catalogue-service.js';
import type { Config } from './config.js';
import { HashingQueue } from './crypto/hashing-queue.js';
import { DEFAULT_HASH_COST } from './crypto/secret-hash.js';
import { KeyRing } from './crypto/key-ring.js';
import { StorageQuota } from './security/storage-quota.js';
import { loadMasterKey, parseKey, verifyKeyRing } from './crypto/master-key.js';
import { createApp } from './http/app.js';
import type { Logger } from './logger.js';
import { PushService } from './pushes/push-service.js';
import { SlicedUploads } from './pushes/sliced-upload.js';
import { hashStoredUrlTokens, loadUrlTokenIds } from './pushes/url-token-id.js';
import { startExpirySweeper } from './pushes/expiry-sweeper.js';
import { FileVault } from './storage/file-vault.js';
import { openStore } from './storage/open-store.js';
import type { Store } from './storage/store.js';
import { Metrics } from './observability/metrics.js';
import { observedStore } from './observability/observed-store.js';
import { Readiness } from './observability/readiness.js';
import { DeliveryWorker } from './webhooks/delivery-worker.js';
import { MailWorker } from './mail/mail-worker.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { RequestService } from './requests/request-service.js';
import { SecondFactorService } from './accounts/second-factor/second-factor-service.js';
import { TicketSigner } from './accounts/second-factor/signed-ticket.js';
import { PasskeyService } from './accounts/passkeys/passkey-service.js';
import { AdminService } from './admin/admin-service.js';
import { productName } from './branding/brand.js';
import { InviteService } from './admin/invite-service.js';
import { ExtensionConnectService } from './accounts/extension-connect/connect-service.js';

export interface RunningServer {
  url: string;
  port: number;
  pushes: PushService;
  accounts: AccountService;
  secondFactor: SecondFactorService;
  passkeys: PasskeyService;
  webhooks: WebhookService;
  requests: RequestService;
  admin: AdminService;
  invites: InviteService;
  connect: ExtensionConnectService;
  store: Store;
  /**
   * The router Hono settled on after the first request ("SmartRouter + RegExpRouter" when every
   * route fits the one-regex router; TrieRouter is its slower fallback): the routing test checks it.
   */
  routerName(): string;
  /**
   * Stops the server. With `graceMs`, gracefully (SIGTERM): readiness turns 503 and, for
   * `delayMs`, everything else goes on as before (a balancer polling /readyz stops sending
   * here meanwhile); then no new connections are accepted, requests in flight get up to
   * `graceMs` to finish (their answers close their connections), and the store is flushed and
   * closed. Without, at once.
   */
  close(options?: { graceMs?: number; delayMs?: number }): Promise<void>;
}

/** Opens the store (embedded or PostgreSQL), checks the key against it, and builds the services on it. */
export async function openServices(config: Config, logger: Logger, metrics?: Metrics) {
  // Everything this process writes (store, temp files, encrypted files) is for its user only.
  process.umask(0o077);
  const opened = await openStore(config, logger);
  const { where } = opened;
  const store = metrics ? observedStore(opened.store, metrics) : opened.store;
  try {
    const keys = new KeyRing(
      loadMasterKey(config.dataDir, config.masterKey, logger),
      config.oldMasterKeys.map((k, i) => parseKey(k, `MASTER_KEY_OLD[${i}]`)),
    );
    await verifyKeyRing(store, keys, where);
    const { ids } = await loadUrlTokenIds(store, keys);
    const moved = await hashStoredUrlTokens(store, ids, keys);
    if (moved) logger.info(`Stored ${moved} pushes under keyed hashes of their URL tokens (the tokens themselves are no longer stored).`);
    const vault = new FileVault(store.blobs, keys);
    const hashing = new HashingQueue(config.hashing);
    if ((config.hashing.cost ?? DEFAULT_HASH_COST) < DEFAULT_HASH_COST) {
      logger.info(`PASSWORD_HASH_COST=${config.hashing.cost} is below the default ${DEFAULT_HASH_COST}: new passwords and passphrases are cheaper to guess from a stolen copy of the data. Meant for the throwaway servers of automated checks; raise it in production.`);
    }
    const quota = new StorageQuota(store, store.counters, config.storage);
    const pushes = new PushService({ store, keys, vault, config, logger, hashing, ids, quota, mailEnabled: config.mail !== undefined });
    const uploads = new SlicedUploads({ pushes, vault, blobs: store.blobs, counters: store.counters, ids, config, quota });
    const accounts = new AccountService({ store, keys, signIn: config.signIn, hashing, requireMfa: config.requireMfa, admins: { adminEmails: new Set(config.admin.emails), oidcAdminGroup: config.signInMethods.oidc?.adminGroup }, signInMethods: config.signInMethods, signUpMode: config.admin.signUp });
    // openid-client is loaded only by a server with SSO configured.
    const oidc: OidcRelyingParty | undefined = config.signInMethods.oidc
      ? new (await import('./accounts/oidc/relying-party.js')).OidcRelyingParty(config.signInMethods.oidc, keys, logger)
      : undefined;
    const webhooks = new WebhookService({ store, keys, settings: config.webhooks });
    const requests = new RequestService({ store, keys, ids, pushes, limits: config.limits, retentionDays: config.purgeExpiredAfterDays, mailEnabled: config.mail !== undefined, productName: productName(config.brand) });
    const accountMail = new AccountMail({ store, keys, accounts, hashing, mail: config.mail, productName: productName(config.brand) });
    const tickets = new TicketSigner(keys.deriveKey('sign-in tickets'), () => Date.now());
    // What authenticator apps and passkey prompts show: the instance's brand name.
    const brandName = productName(config.brand);
    const siteName = config.baseUrl ? `${brandName} (${new URL(config.baseUrl).host})` : brandName;
    const secondFactor = new SecondFactorService({ store, keys, signInGuesses: accounts.secondStepGuesses, requireMfa: config.requireMfa, issuer: siteName, logger });
    const passkeys = new PasskeyService({ store, tickets, counters: store.counters, rpName: siteName, logger });
    const admin = new AdminService({ store, accounts, pushes, config, secondFactor, keys });
    const invites = new InviteService({ store, admin, accounts });
    const connect = new ExtensionConnectService({ store, accounts });
    return { keys, store, pushes, uploads, accounts, secondFactor, passkeys, tickets, webhooks, requests, admin, invites, connect, accountMail, oidc, close: () => store.close() };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/**
 * Slow clients must not hold connections forever: the request line and headers must arrive
 * within HEADERS_TIMEOUT_SECONDS (slowloris), the whole request within REQUEST_TIMEOUT_SECONDS
 * (slow bodies). Node enforces both only when it checks its connections, every
 * `connectionsCheckingInterval` (30 s by default): check often enough that a timeout is
 * applied promptly, at most a quarter of the headers timeout late.
 */
export function slowClientLimits(config: Pick<Config, 'headersTimeoutSeconds' | 'requestTimeoutSeconds'>) {
  const headersTimeout = config.headersTimeoutSeconds * 1000;
  return {
    headersTimeout,
    requestTimeout: config.requestTimeoutSeconds * 1000,
    connectionsCheckingInterval: Math.max(250, Math.min(5_000, headersTimeout / 4)),
    keepAliveTimeout: 5_000,
  };
}

/** The whole server: services, HTTP on HOST:PORT, and the expiry sweeper. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  // Metrics cost nothing unless asked for: without a token there is no registry and no timing.
  const metrics = config.metricsToken ? new Metrics() : undefined;
  const services = await openServices(config, logger, metrics);
  try {
    const catalogue = createCatalogueService({ wikiBaseUrl: config.wikiBaseUrl });
    const readiness = new Readiness(services.store, logger);
    const app = createApp({
      config,
      pushes: services.pushes,
      uploads: services.uploads,
      accounts: services.accounts,
      signInSteps: { secondFactor: services.secondFactor, passkeys: services.passkeys, tickets: services.tickets },
      webhooks: services.webhooks,
      requests: services.requests,
      oidc: services.oidc,
      admin: services.admin,
      invites: services.invites,
      connect: services.connect,
      accountMail: services.accountMail,
      catalogue,
      counters: services.store.counters,
      logger,
      readiness,
      metrics,
    });
    const server: ServerType = await new Promise((resolve, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: config.port,
          hostname: config.host,
          serverOptions: slowClientLimits(config),
        },
        () => resolve(s),
      );
      s.once('error', reject);
      // A client may half-close its side once it has sent the request (HTTP/1.1 allows it;
      // `nc` and some scripts do). Node's default then aborts the request and closes the
      // socket, so any answer that waits on I/O (a database query) is lost: answer, then close.
      (s as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    });
    const connections = new ConnectionDrain(server as HttpServer);
    const { port } = server.address() as AddressInfo;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    const sweeper = startExpirySweeper(services.pushes, services.accounts, config.expirySweepSeconds * 1000, logger, services.requests, services.connect);
    const deliveries = new DeliveryWorker({ store: services.store, keys: services.keys, settings: config.webhooks, logger }).start();
    const mailer = config.mail ? new MailWorker({ store: services.store, keys: services.keys, settings: config.mail, productName: productName(config.brand), logger }).start() : undefined;
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      pushes: services.pushes,
      accounts: services.accounts,
      secondFactor: services.secondFactor,
      passkeys: services.passkeys,
      webhooks: services.webhooks,
      requests: services.requests,
      admin: services.admin,
      invites: services.invites,
      connect: services.connect,
      store: services.store,
      routerName: () => app.router.name,
      close({ graceMs = 0, delayMs = 0 } = {}) {
        closing ??= (async () => {
          readiness.drain();
          sweeper.stop();
          const stopped = Promise.all([deliveries.stop(), mailer?.stop()]);
          if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
          await stopped;
          const inFlight = await connections.drain(graceMs);
          if (inFlight > 0) logger.error(`shutdown: ${inFlight} connection(s) still busy after ${graceMs} ms were cut off`);
          await services.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    await services.close();
    throw e;
  }
}
