#!/bin/bash
# Garbage collections per N requests under load (issue 36 item 3; docs/performance.md), from
# V8's --trace-gc: test/bench/gc-under-load.sh create|retrieve|version "NODE FLAGS" [N]
# (e.g. "--max-semi-space-size=64"). The compiled server (dist/) with the bench's settings,
# autocannon at 50 connections, 5,000 requests unmeasured, then N counted. Prints scavenges,
# the old generation's growth between scavenges ("promoted": promotions and direct old-space
# allocation), mark-compacts and their pauses. Counts and MB do not depend on the machine's
# load; the pauses (wall time) do. Needs gawk. DIST=DIR runs another build (an A/B).
KIND=$1; FLAGS=$2; N=${3:-10000}
PORT=$((20000 + RANDOM % 20000)); DATA=$(mktemp -d)
cd "$(dirname "$0")/../.."
env DATA_DIR=$DATA/data MASTER_KEY=$(openssl rand -hex 32) PORT=$PORT HOST=127.0.0.1 RATE_LIMIT_PER_MINUTE=0 MAX_STORAGE_MB=0 ACCOUNT_STORAGE_MB_PER_DAY=0 ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY=0 LOG_LEVEL=error NODE_ENV=production MAX_EXPIRE_VIEWS=100000 \
  node --trace-gc $FLAGS "${DIST:-dist}"/server/main.js > $DATA/gc.log 2>&1 &
SPID=$!
until curl -sf http://127.0.0.1:$PORT/api/v2/version >/dev/null; do sleep 0.2; done
BODY='{"push":{"payload":"hello secret","expire_after_views":100000}}'
if [ $KIND = create ]; then ARGS=(-m POST -H content-type=application/json -b "$BODY" http://127.0.0.1:$PORT/api/v2/pushes)
elif [ $KIND = retrieve ]; then TOK=$(curl -s -X POST -H content-type:application/json -d "$BODY" http://127.0.0.1:$PORT/api/v2/pushes | node -e 'process.stdin.on("data",d=>console.log(JSON.parse(d).url_token))'); ARGS=(http://127.0.0.1:$PORT/api/v2/pushes/$TOK)
else ARGS=(http://127.0.0.1:$PORT/api/v2/version); fi
node_modules/.bin/autocannon -c 50 -a 5000 "${ARGS[@]}" >/dev/null 2>&1   # warm-up
START=$(wc -l < $DATA/gc.log)
node_modules/.bin/autocannon -c 50 -a $N "${ARGS[@]}" 2>&1 | grep -E "Latency|requests in" | head -1 >/dev/null
tail -n +$((START+1)) $DATA/gc.log | gawk -v n=$N -v flags="$FLAGS" '
 /Scavenge|Mark-Compact/ { match($0,/: (Scavenge|Mark-Compact)[^0-9]* ([0-9.]+) \([0-9.]+\) -> ([0-9.]+)/,h); if (h[1]=="Scavenge" && seen) promoted += (h[3] > last ? h[3]-last : 0); last=h[3]; seen=1 }
 /Scavenge/ {s++; match($0,/, ([0-9.]+) \/ ([0-9.]+) ms/,m); sp+=m[1]}
 /Mark-Compact/ {mc++; match($0,/, ([0-9.]+) \/ ([0-9.]+) ms/,m); mp+=m[1]; if (m[1]>mmax) mmax=m[1]}
 END {printf "%-32s per %d req: %d scavenges (%.0f ms), %.1f MB promoted, %d mark-compacts (%.0f ms, longest %.0f ms)\n", "[" flags "]", n, s, sp, promoted, mc, mp, mmax}'
tail -n +$((START+1)) $DATA/gc.log | grep -m3 -E "Scavenge|Mark" >&2; kill -INT $SPID; wait $SPID 2>/dev/null; rm -rf $DATA
