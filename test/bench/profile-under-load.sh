#!/bin/bash
# CPU profile of the compiled server under load, for test/bench/profile-buckets.ts (issue 36
# item 1; docs/performance.md). Usage: test/bench/profile-under-load.sh create|retrieve|version
# OUTDIR [DIST]. Settings as the bench's (bench-server-env.ts); autocannon at 10 connections,
# 3 s unmeasured, then DUR (default 12) seconds whose monotonic-clock bounds (µs) go to
# OUTDIR/window for profile-buckets.ts --from/--to. Retrieve views one push (its views queue on
# the push's lock, so the server idles more than in the bench; the CPU per view is the same work).
# For profile-buckets.ts give DIST an unbundled build (it buckets by file; see docs/performance.md).
set -e
KIND=$1; OUT=$(realpath -m "$2"); DIST=$(realpath -m "${3:-dist}")
PORT=$((20000 + RANDOM % 20000))
DATA=$(mktemp -d)
rm -rf $OUT; mkdir -p $OUT
cd "$(dirname "$0")/../.."
env DATA_DIR=$DATA/data MASTER_KEY=$(openssl rand -hex 32) PORT=$PORT HOST=127.0.0.1 RATE_LIMIT_PER_MINUTE=0 MAX_STORAGE_MB=0 ACCOUNT_STORAGE_MB_PER_DAY=0 ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY=0 LOG_LEVEL=error NODE_ENV=production MAX_EXPIRE_VIEWS=100000 \
  node --cpu-prof --cpu-prof-dir=$OUT --cpu-prof-interval 200 "$DIST"/server/main.js &
SPID=$!
until curl -sf http://127.0.0.1:$PORT/api/v2/version >/dev/null; do sleep 0.2; done
BODY='{"push":{"payload":"hello secret","expire_after_views":100000}}'
if [ $KIND = create ]; then
  ARGS=(-m POST -H content-type=application/json -b "$BODY" http://127.0.0.1:$PORT/api/v2/pushes)
elif [ $KIND = retrieve ]; then
  TOK=$(curl -s -X POST -H content-type:application/json -d "$BODY" http://127.0.0.1:$PORT/api/v2/pushes | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).url_token))')
  ARGS=(http://127.0.0.1:$PORT/api/v2/pushes/$TOK)
else
  ARGS=(http://127.0.0.1:$PORT/api/v2/version)
fi
node_modules/.bin/autocannon -c 10 -d 3 "${ARGS[@]}" >/dev/null 2>&1
MONO='console.log(String(process.hrtime.bigint()/1000n))'
FROM=$(node -e "$MONO")
node_modules/.bin/autocannon -c 10 -d ${DUR:-12} "${ARGS[@]}" 2>&1 | grep -E "requests in" | tail -1
TO=$(node -e "$MONO")
echo "$FROM $TO" > $OUT/window
kill -INT $SPID; wait $SPID || true
rm -rf $DATA
ls $OUT
