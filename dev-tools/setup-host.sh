#!/usr/bin/env bash
# Installs the host packages Whale's build, tests and demos use, where they are missing:
#   patch      applies the storm-client patch series
#   iproute2,  give the local cluster of tests and demos a private network namespace (as root)
#   util-linux
#   libucx0    UCX, the transport whale-rdmachannel runs on (shared memory and TCP here, verbs on
#              RDMA hosts); jucx binds it lazily, so never set LD_BIND_NOW
#   chromium   the headless browser the UI's page test (UiPagesIT) loads each page of whale ui in
# Needs root (or sudo) only when something is missing; idempotent.
set -euo pipefail

missing=()
command -v patch >/dev/null 2>&1 || missing+=(patch)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
ldconfig -p 2>/dev/null | grep -q 'libucp\.so\.0' || missing+=(libucx0)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-host: missing ${missing[*]}; install them as root" >&2; exit 1; }
  sudo=sudo
fi
echo "setup-host: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
