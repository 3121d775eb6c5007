# A guest's network for the browser scripts (sourced): the host in a network namespace of its
# own, behind a veth pair, at 10.47.118.2 — an address as a LAN's, which no browser counts as
# a secure context (only localhost and 127.0.0.0/8 are). So the page runs as a guest's does on
# a game night: not cross-origin isolated, its clock (`performance.now()`, every event's
# `timeStamp`) coarsened to Chromium's 100 µs with jitter instead of 5 µs on loopback.
#   lan_up NAME     makes it and exports BOLIDE_HOST_NETNS and BOLIDE_HOST_ADDR
#                   (scripts/browser/lib.mjs starts the host there); says why and returns 1
#                   where namespaces cannot be made (not root), leaving the page on loopback
#   lan_down        removes it (the namespace takes its end of the pair along)
lan_ns=
lan_up() {
  if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
    echo "$1: no network namespaces here (not root, or no ip): the page is served on loopback, a secure context"
    return 1
  fi
  lan_ns=blan$$
  if ! { ip netns add "$lan_ns" &&
    ip link add "bh$$" type veth peer name "bg$$" &&
    ip link set "bg$$" netns "$lan_ns" &&
    ip addr add 10.47.118.1/24 dev "bh$$" && ip link set "bh$$" up &&
    ip -n "$lan_ns" addr add 10.47.118.2/24 dev "bg$$" && ip -n "$lan_ns" link set "bg$$" up &&
    ip -n "$lan_ns" link set lo up; }; then
    echo "$1: could not make a network namespace: the page is served on loopback, a secure context"
    lan_down
    return 1
  fi
  export BOLIDE_HOST_NETNS=$lan_ns BOLIDE_HOST_ADDR=10.47.118.2
}
lan_down() {
  [ -n "$lan_ns" ] || return 0
  ip netns del "$lan_ns" 2>/dev/null || true
  ip link del "bh$$" 2>/dev/null || true
  lan_ns=
  unset BOLIDE_HOST_NETNS BOLIDE_HOST_ADDR
}
