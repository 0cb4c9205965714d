#!/usr/bin/env bash
# Installs Debian's Chromium for Playwright when it is missing (Playwright's own browser download
# does not work on this network). Needs root or sudo; idempotent.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
