#!/bin/sh
# /init of the extsock siw guest (busybox sh, PID 1). Brings up Linux soft-iWARP on eth0, starts
# the command shell and the two standing rping servers, then prints one line the host waits for:
#   "SIW-GUEST READY ..."   everything listens
#   "SIW-GUEST FAILED: why" something did not come up (the command shell stays up if it could start)
# Kernel command line options: siwguest.selftest=0|1 (default 1), siwguest.debug=0|1 (default 0).
# Guest ports (fixed; the host picks its own ports for the forwards): see README.md.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

ADDRESS=10.0.2.15
CONTROL_PORT=2323
RPING_PORT=19999
LARGE_RPING_PORT=19998

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

SELFTEST=1
DEBUG=0
for word in $(cat /proc/cmdline); do
  case "$word" in
    siwguest.selftest=*) SELFTEST=${word#*=} ;;
    siwguest.debug=*) DEBUG=${word#*=} ;;
  esac
done

say() { echo "siw-guest: $*"; }
fail() {
  echo "SIW-GUEST FAILED: $*"
  dmesg | tail -40 | sed 's/^/siw-guest: dmesg: /'
  while :; do sleep 3600; done
}
# listening PORT: a TCP socket listens on PORT (read from the kernel's tables; a siw port is
# never probed with a connection, that would cost its listener).
listening() {
  hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p {f=1} END {exit !f}'
}

say "init at uptime $(cut -d' ' -f1 /proc/uptime) s, kernel $(uname -r)"

for m in crc32c_generic virtio_pci virtio_net siw ib_uverbs rdma_ucm 9pnet_virtio 9p; do
  modprobe "$m" 2>/tmp/modprobe.err || fail "modprobe $m: $(cat /tmp/modprobe.err)"
done
# The host's shares (boot.sh's SIWGUEST_SHARES), read-only at /mnt/TAG.
for t in /sys/bus/virtio/drivers/9pnet_virtio/virtio*/mount_tag; do
  [ -e "$t" ] || continue
  tag=$(tr -d '\0' <"$t")
  mkdir -p "/mnt/$tag" && mount -t 9p -o trans=virtio,version=9p2000.L,ro "$tag" "/mnt/$tag" \
    || fail "mounting the host's share $tag failed"
  say "the host's share $tag at /mnt/$tag"
done
if [ "$DEBUG" = 1 ]; then
  echo 'module siw +p' >/sys/kernel/debug/dynamic_debug/control && echo 8 >/proc/sys/kernel/printk
  say "siw debug messages on"
fi

ip link set lo up
ip link set eth0 up || fail "no eth0"
ip addr add "$ADDRESS/24" dev eth0
# No default route: the guest talks only to the host's forwards.

# The command shell first, so that the host can look inside even if siw fails below.
nc -ll -p "$CONTROL_PORT" -e /bin/sh </dev/null >/dev/null 2>&1 &
say "command shell on tcp/$CONTROL_PORT"

rdma link add siw0 type siw netdev eth0 2>/tmp/rdma.err || fail "rdma link add siw0: $(cat /tmp/rdma.err)"
ibv_devices | grep -q siw0 || fail "ibv_devices does not list siw0: $(ibv_devices 2>&1)"
say "$(rdma link show | tr '\n' ' ')"

# selftest PORT: an rping client and server inside the guest, over siw0; its logs stay in
# /tmp/selftest-*.PORT.log.
selftest() {
  rping -s -a "$ADDRESS" -p "$1" -C 2 >"/tmp/selftest-server.$1.log" 2>&1 &
  server=$!
  i=0
  until listening "$1"; do i=$((i + 1)); [ $i -lt 100 ] || fail "self test server did not listen on $1"; sleep 0.1; done
  timeout 60 rping -c -a "$ADDRESS" -p "$1" -C 2 -V -v >"/tmp/selftest-client.$1.log" 2>&1
  status=$?
  [ $status = 0 ] || kill "$server" 2>/dev/null
  wait "$server"
  return $status
}

if [ "$SELFTEST" = 1 ]; then
  # Proves the stack before anyone uses it. Under a loaded host (TCG emulation) rping itself has
  # once hung waiting for its own RDMA Read; that is siw against siw, not what the host tests,
  # so one more try on a fresh port is allowed, and said.
  if selftest 7174; then
    say "self test (rping client and server in the guest): PASS"
  else
    status=$?
    say "self test attempt 1: rping client exit $status: $(tr '\n' ' ' </tmp/selftest-client.7174.log); once more"
    if selftest 7175; then
      say "self test (rping client and server in the guest): PASS at the second attempt"
    else
      status=$?
      fail "self test rping client exit $status twice: $(tr '\n' ' ' </tmp/selftest-client.7175.log) / server: $(tr '\n' ' ' </tmp/selftest-server.7175.log)"
    fi
  fi
fi

# The standing servers. stdbuf: rping printf()s, which would sit in a buffer in the log file.
stdbuf -oL -eL rping -s -P -v -a "$ADDRESS" -p "$RPING_PORT" </dev/null >/tmp/rping-64.log 2>&1 &
stdbuf -oL -eL rping -s -P -v -S 65535 -a "$ADDRESS" -p "$LARGE_RPING_PORT" </dev/null >/tmp/rping-65535.log 2>&1 &
i=0
until listening "$RPING_PORT" && listening "$LARGE_RPING_PORT" && listening "$CONTROL_PORT"; do
  i=$((i + 1))
  [ $i -lt 600 ] || fail "after 60 s, not all of tcp/$RPING_PORT, tcp/$LARGE_RPING_PORT, tcp/$CONTROL_PORT listen: $(cat /tmp/rping-64.log /tmp/rping-65535.log)"
  sleep 0.1
done
tainted=$(cat /proc/sys/kernel/tainted)
echo "SIW-GUEST READY uptime $(cut -d' ' -f1 /proc/uptime) s: rping -s -P on $RPING_PORT (64-byte buffer), rping -s -P -S 65535 on $LARGE_RPING_PORT, shell on $CONTROL_PORT, kernel taint $tainted"

while :; do sleep 3600; done
