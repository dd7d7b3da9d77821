#!/usr/bin/env bash
# The siw rping sequence that once failed under load (1 run in 63: "-S 65535 right after
# -C 200 -S 4000"), N times over, with every core kept busy by busy-looping shells that this
# script starts and stops by PID. Faster than SiwRpingUnderLoadIT (one JVM per run, no Maven), for
# hunting a rare failure; the IT is the repository's check.
#
#   extsock-testkit/siw-guest/boot.sh --daemon              # the guest, on its default ports
#   extsock-examples/src/test/sh/rping-under-load.sh 100 [--crc|--no-crc] [logdir]
#   extsock-testkit/siw-guest/boot.sh --stop
#
# Prints one line per round and "pass P fail F" at the end; exits 1 if any round failed. A failed
# round keeps the client's output and the guest's kernel log and rping server log in logdir.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)"
rounds=${1:-100}
crc=${2:---no-crc}
logs=${3:-$(mktemp -d /tmp/rping-under-load.XXXXXX)}
port=${SIWGUEST_LARGE_RPING_PORT:-19998}
exec_guest="$root/extsock-testkit/siw-guest/exec.sh"
mkdir -p "$logs"

hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null; }
trap stop_hogs EXIT
for _ in $(seq "$(nproc)"); do
  sh -c 'while :; do :; done' &
  hogs+=($!)
done
echo "rping under load: $rounds rounds, $crc, ${#hogs[@]} busy loops (pids ${hogs[*]}), logs in $logs"

pass=0
fail=0
for round in $(seq "$rounds"); do
  ok=1
  for run in "4000 200" "65535 3"; do
    set -- $run
    log="$logs/round-$round-S$1.log"
    if ! "$root/extsock" rping -c -a 127.0.0.1 -p "$port" -S "$1" -C "$2" -v -V "$crc" >"$log" 2>&1; then
      ok=0
      echo "round $round: -S $1 -C $2 FAILED at $(date -u +%T.%N): $(grep '^extsock' "$log" | tail -1)"
      "$exec_guest" 'date; dmesg | tail -60; tail -40 /tmp/rping-65535.log' >"$logs/round-$round-guest.log" 2>&1
      break
    fi
  done
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
    rm -f "$logs"/round-"$round"-*.log
    echo "round $round: ok $(date -u +%T)"
  else
    fail=$((fail + 1))
  fi
done
echo "pass $pass fail $fail"
[ $fail = 0 ]
