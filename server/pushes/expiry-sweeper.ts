import type { Logger } from '../logger.js';
import type { PushService } from './push-service.js';

/**
 * Expiry by days is checked on every access, but a push nobody opens again must still have its
 * secret erased on time: this timer sweeps what is due.
 */
export function startExpirySweeper(pushes: PushService, intervalMs: number, logger: Logger) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { expired, filesPurged, deleted } = await pushes.sweep();
      if (expired || filesPurged || deleted) logger.debug(`expiry sweep: ${expired} expired, ${filesPurged} file sets purged, ${deleted} expired records deleted`);
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
