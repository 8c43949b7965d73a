import type { OwnerPushRecord } from '../../../../shared/push-schema.js';

/**
 * Where a batch's group card goes on the dashboard: on the one page (of the active or of the
 * expired tab) where the batch's newest push of that tab falls, so that a batch longer than a
 * page is shown once, not on every page its pushes reach. `rows` is the whole batch in the order
 * made (PushService.listBatch), `pageIds` the push_ids of the pushes this page lists.
 */
export function batchCardIsOnThisPage(rows: OwnerPushRecord[], expiredTab: boolean, pageIds: ReadonlySet<string>): boolean {
  const newest = rows.findLast((r) => r.expired === expiredTab);
  return newest !== undefined && pageIds.has(newest.push_id);
}
