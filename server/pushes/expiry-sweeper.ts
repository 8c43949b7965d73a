import type { AccountService } from '../accounts/account-service.js';
import type { Logger } from '../logger.js';
import type { PushService } from './push-service.js';
import type { RequestService } from '../requests/request-service.js';

/**
 * Expiry by days is checked on every access, but a push nobody opens again must still have its
 * secret erased on time: this timer sweeps what is due (and old records and sessions).
 */
export function startExpirySweeper(pushes: PushService, accounts: AccountService, intervalMs: number, logger: Logger, requests?: RequestService, connectCodes?: { sweep(): Promise<number> }) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { expired, filesPurged, deleted } = await pushes.sweep();
      const sessions = await accounts.sweepSessions();
      const oldRequests = (await requests?.sweep()) ?? 0;
      const codes = (await connectCodes?.sweep()) ?? 0;
      if (expired || filesPurged || deleted || sessions || oldRequests || codes) {
        logger.debug(
          `expiry sweep: ${expired} expired, ${filesPurged} file sets purged, ${deleted} expired records deleted, ${sessions} sessions ended, ${oldRequests} old secret requests deleted, ${codes} old extension connect codes deleted`,
        );
      }
    } catch (e) {
      logger.error('expiry sweep failed', e);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
