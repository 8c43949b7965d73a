import { appendFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

/**
 * Records what a real client sends, to turn it into replayed-request tests (CI cannot run the
 * clients themselves). It forwards every request to the server unchanged and appends one JSON
 * line per exchange: method, path, the request headers, the body (text), the status and the
 * answer's body. Run by hand (docs/password-pusher-compat.md, "Clients run for real"):
 *
 *   node --import tsx test/support/recording-proxy.ts 3713 http://127.0.0.1:3712 /tmp/cli.jsonl
 *
 * Recordings hold the API token the client sent: replace it before committing them.
 */
const [listenPort, target, out] = process.argv.slice(2);
if (!listenPort || !target || !out) {
  console.error('usage: recording-proxy.ts <listen port> <target origin> <output .jsonl>');
  process.exit(2);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      const answerChunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => answerChunks.push(c));
      answer.on('end', () => {
        const answerBody = Buffer.concat(answerChunks);
        appendFileSync(
          out,
          JSON.stringify({
            method: req.method,
            path: req.url,
            headers: req.rawHeaders.reduce<[string, string][]>((pairs, v, i, all) => (i % 2 === 0 ? [...pairs, [v, all[i + 1]!]] : pairs), []),
            body: body.toString('latin1'),
            status: answer.statusCode,
            answer: answerBody.toString('utf8').slice(0, 4000),
          }) + '\n',
        );
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(answerBody);
      });
    });
    upstream.on('error', (e) => {
      res.writeHead(502);
      res.end(String(e));
    });
    upstream.end(body);
  });
}).listen(Number(listenPort), '127.0.0.1', () => console.log(`recording ${target} on :${listenPort} into ${out}`));
