/**
 * The settings every bench script runs the push server with (run.ts, allocation-sites.ts,
 * instruction-count.ts), so that their figures describe the same server. Throughput is
 * measured without the per-client limits (rate limit, storage quotas), which a load generator
 * on one address would hit at once; views enough that no retrieved push runs out during the
 * runs (an expired push is a cheaper answer); production mode and errors-only logging, as a
 * deployment runs.
 */
export const benchServerEnv = {
  RATE_LIMIT_PER_MINUTE: '0',
  MAX_STORAGE_MB: '0',
  ACCOUNT_STORAGE_MB_PER_DAY: '0',
  ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0',
  LOG_LEVEL: 'error',
  NODE_ENV: 'production',
  MAX_EXPIRE_VIEWS: '100000',
} as const;
