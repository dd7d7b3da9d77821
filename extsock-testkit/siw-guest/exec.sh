#!/usr/bin/env bash
# Runs one shell command in the running siw guest and prints what it printed; exits with the
# command's exit status. The guest's command shell is busybox "nc -ll -e /bin/sh" on guest
# tcp/2323, forwarded to 127.0.0.1:$SIWGUEST_CONTROL_PORT (default 10023).
#
#   exec.sh 'rdma link show; ibv_devices'
#   exec.sh 'dmesg | tail -30'
#   exec.sh 'tail /tmp/rping-64.log /tmp/rping-65535.log'
set -euo pipefail
[ $# -gt 0 ] || { sed -n '2,8p' "$0"; exit 2; }
PORT=${SIWGUEST_CONTROL_PORT:-10023}
MARK="@@siw-guest-exit"
exec 3<>"/dev/tcp/127.0.0.1/$PORT" || { echo "no siw guest command shell on 127.0.0.1:$PORT" >&2; exit 1; }
printf '(\n%s\n) </dev/null 2>&1\necho "%s $?"\nexit\n' "$*" "$MARK" >&3
status=255
while IFS= read -r line <&3 || [ -n "$line" ]; do
  case "$line" in
    "$MARK "*) status=${line#"$MARK "} ;;
    *) printf '%s\n' "$line" ;;
  esac
done
exec 3<&-
[ "$status" != 255 ] || echo "(the guest's shell ended without an exit status)" >&2
exit "$status"
