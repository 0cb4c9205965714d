#!/usr/bin/env bash
# Installs what the browser and PDF tests need when it is missing, so that `npm test` runs on a fresh machine:
# Debian's Chromium for Playwright (Playwright's own browser download does not work on this network) and
# poppler-utils (pdftotext, pdftoppm: the PDF tests read the policy and quote documents). Needs root or sudo when
# something is missing; idempotent.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
