#!/usr/bin/env bash
# Installs the Debian packages ldapbook needs to build and test, if any is
# missing: libldap-dev (headers and pkg-config file), libsqlite3-dev (the
# local index of people), slapd (the server the
# tests start), ldap-utils (ldapwhoami, used to see when slapd is ready),
# pkg-config, openssl and util-linux (test certificates; setpriv, so a
# test's slapd dies with the test process), and zsh (its completion is tested). Non-interactive; sudo when not root.
set -euo pipefail

missing=()
pkg-config --version >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists ldap 2>/dev/null || missing+=(libldap-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
[ -x /usr/sbin/slapd ] && [ -x /usr/sbin/slapadd ] || missing+=(slapd)
command -v ldapwhoami >/dev/null 2>&1 || missing+=(ldap-utils)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
for extra in "$@"; do
  dpkg -s "$extra" >/dev/null 2>&1 || missing+=("$extra")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "error: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
