/**
 * Latency of `GET /api.php?action=paraminfo&modules=query+*&format=json` (every query module,
 * ~85 KB of JSON) against a running server. Requests are sent one after another so each
 * figure is the latency a single client sees, not a queueing artefact; a warm-up comes first
 * so the per-variant JSON cache and the JIT are settled.
 */
export async function benchCatalogue(
  baseUrl: string,
  { warmup = 50, requests = 1000 }: { warmup?: number; requests?: number } = {},
): Promise<{ p50ms: number; p99ms: number; requests: number }> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api.php?action=paraminfo&modules=query%2B*&format=json`;
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url);
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (!response.ok || response.headers.has('MediaWiki-API-Error') || !body.includes('"query+watchlistraw"')) {
      throw new Error(`unexpected answer: HTTP ${response.status}, ${body.slice(0, 200)}`);
    }
    return elapsed;
  };
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) samples.push(await once());
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]! * 1000) / 1000;
  return { p50ms: at(0.5), p99ms: at(0.99), requests };
}
