#!/usr/bin/env bash
# Boots the extsock siw guest that build.sh made (QEMU, software emulation, user networking
# with restrict=on: the guest reaches nothing; the host reaches it only through forwards bound
# to 127.0.0.1).
#
#   boot.sh            run QEMU in the foreground; the script becomes QEMU (same PID), the
#                      console goes to $CACHE/run/console.log. io.extsock.testkit.siw.SiwGuest
#                      starts the guest this way and waits for "SIW-GUEST READY" itself.
#   boot.sh --daemon   start in the background and wait until the guest is ready
#   boot.sh --stop     stop the background guest, by the PID in $CACHE/run/qemu.pid
#
# Environment (all optional):
#   SIWVM_CACHE                  cache of build.sh (default ~/.cache/extsock-siw-guest)
#   SIWGUEST_RPING_PORT=19999    host port of the guest's rping -s -P (64-byte buffer)
#   SIWGUEST_LARGE_RPING_PORT=19998  host port of the guest's rping -s -P -S 65535
#   SIWGUEST_CONTROL_PORT=10023  host port of the guest's command shell (exec.sh)
#   SIWGUEST_RELAY_PORT=20000    host port of the reverse-direction relay (guest tcp/20000)
#   SIWGUEST_EXTRA_FWD="7471:7471"  more host:guest TCP forwards
#   SIWGUEST_MEM=1024 SIWGUEST_SMP=2   guest memory (MiB) and processors
#   SIWGUEST_SHARES="jdk=/usr/lib/jvm/x"  host directories shared read-only, at /mnt/TAG in the guest
#   SIWGUEST_SELFTEST=1          rping client and server inside the guest before it says ready
#   SIWGUEST_DEBUG=0             1: siw's debug messages into the console log
#   SIWGUEST_READY_TIMEOUT=300   seconds --daemon waits
#   SIWGUEST_OWNER_PID           the process the guest belongs to (SiwGuest sets its JVM's): a
#                                guest left running after its owner died is stopped by the next boot
set -euo pipefail

CACHE="${SIWVM_CACHE:-$HOME/.cache/extsock-siw-guest}"
IMAGE="$CACHE/image"
RUN="$CACHE/run"
PIDFILE="$RUN/qemu.pid"
CONSOLE="$RUN/console.log"
die() { printf 'siw-guest boot FAILED: %s\n' "$*" >&2; exit 1; }
mkdir -p "$RUN"

running_pid() {   # the PID of this cache's QEMU, if it runs
  local pid
  pid=$(cat "$PIDFILE" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "qemu-system.*$IMAGE/vmlinuz" \
    && echo "$pid"
}
stop_pid() {
  local pid=$1
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

if [ "${1:-}" = "--stop" ]; then
  if pid=$(running_pid); then
    stop_pid "$pid"; rm -f "$PIDFILE" "$RUN/owner"; echo "stopped the siw guest (pid $pid)"
  else
    echo "no siw guest of $CACHE is running"
  fi
  exit 0
fi

[ -f "$IMAGE/vmlinuz" ] && [ -f "$IMAGE/initramfs.cpio.gz" ] \
  || die "no guest image in $IMAGE: run $(dirname "$0")/build.sh first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run build.sh, it installs qemu-system-x86"

if pid=$(running_pid); then
  owner=$(cat "$RUN/owner" 2>/dev/null || true)
  if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
    echo "stopping siw guest pid $pid: the process it was started for ($owner) is gone"
    stop_pid "$pid"
  else
    die "a siw guest of $CACHE already runs (qemu pid $pid${owner:+, started for pid $owner}): stop it first ($0 --stop)"
  fi
fi

RPING=${SIWGUEST_RPING_PORT:-19999}
LARGE=${SIWGUEST_LARGE_RPING_PORT:-19998}
CONTROL=${SIWGUEST_CONTROL_PORT:-10023}
RELAY=${SIWGUEST_RELAY_PORT:-20000}
forwards="$CONTROL:2323 $RPING:19999 $LARGE:19998 $RELAY:20000 ${SIWGUEST_EXTRA_FWD:-}"

# Every host port must be free: name whoever holds one (never connect to it to find out).
netdev="user,id=net0,restrict=on"
for f in $forwards; do
  host=${f%%:*}; guest=${f##*:}
  [[ "$host" =~ ^[0-9]+$ && "$guest" =~ ^[0-9]+$ ]] || die "bad forward '$f' (want HOSTPORT:GUESTPORT)"
  holder=$(ss -Hltnp "sport = :$host" 2>/dev/null | head -1)
  [ -z "$holder" ] || die "host port $host (for guest tcp/$guest) is taken: ${holder//  / }"
  netdev="$netdev,hostfwd=tcp:127.0.0.1:$host-:$guest"
done

append="console=ttyS0 panic=-1 loglevel=4 siwguest.selftest=${SIWGUEST_SELFTEST:-1} siwguest.debug=${SIWGUEST_DEBUG:-0}"
qemu=(qemu-system-x86_64 -accel tcg,thread=multi -cpu max -m "${SIWGUEST_MEM:-1024}" -smp "${SIWGUEST_SMP:-2}"
  -nodefaults -no-user-config -no-reboot -display none -monitor none
  -kernel "$IMAGE/vmlinuz" -initrd "$IMAGE/initramfs.cpio.gz" -append "$append"
  -netdev "$netdev" -device virtio-net-pci,netdev=net0
  -serial "file:$CONSOLE" -pidfile "$PIDFILE")
# Host directories shared read-only (9p), each mounted in the guest at /mnt/TAG.
for share in ${SIWGUEST_SHARES:-}; do
  tag=${share%%=*}; path=${share#*=}
  [[ "$tag" =~ ^[a-z0-9]+$ && -d "$path" ]] || die "bad share '$share' (want TAG=DIRECTORY, TAG in [a-z0-9])"
  qemu+=(-virtfs "local,path=$path,mount_tag=$tag,security_model=none,readonly=on")
done

: >"$CONSOLE"
if [ -n "${SIWGUEST_OWNER_PID:-}" ]; then echo "$SIWGUEST_OWNER_PID" >"$RUN/owner"; else rm -f "$RUN/owner"; fi

if [ "${1:-}" != "--daemon" ]; then
  exec "${qemu[@]}"
fi

"${qemu[@]}" -daemonize || die "qemu did not start"
pid=$(cat "$PIDFILE")
start=$SECONDS
while ! grep -q '^SIW-GUEST READY' "$CONSOLE"; do
  if grep -q '^SIW-GUEST FAILED' "$CONSOLE"; then
    tail -40 "$CONSOLE" >&2; stop_pid "$pid"; die "$(grep '^SIW-GUEST FAILED' "$CONSOLE")"
  fi
  kill -0 "$pid" 2>/dev/null || { tail -40 "$CONSOLE" >&2; die "qemu (pid $pid) exited before the guest was ready"; }
  if [ $((SECONDS - start)) -gt "${SIWGUEST_READY_TIMEOUT:-300}" ]; then
    tail -40 "$CONSOLE" >&2; stop_pid "$pid"; die "not ready after ${SIWGUEST_READY_TIMEOUT:-300} s"
  fi
  sleep 0.5
done
grep '^SIW-GUEST READY' "$CONSOLE"
echo "siw guest ready after $((SECONDS - start)) s: qemu pid $pid, console $CONSOLE"
echo "host ports on 127.0.0.1: rping $RPING, rping -S 65535 $LARGE, command shell $CONTROL, relay $RELAY"
