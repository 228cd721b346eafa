#!/usr/bin/env bash
# A short tour of ldapbook on a private local directory filled with generated
# people. Everything lives under .build/demo-home, so your own ldapbook data and
# any directory you have configured are left alone. Each command is printed
# before it runs, so you can repeat it.
#
# scripts/demo.sh stop   stops the demo's local directory afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

home="$PWD/.build/demo-home"
export XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache"
export LDAPNOINIT=1          # ignore ldap.conf and LDAP* variables: use the local directory
export PATH="$PWD/.build/release:$PATH"

if [ "${1:-}" = stop ]; then
  exec ldapbook local stop
fi

scripts/ensure-packages.sh
scripts/build-release.sh ldapbook
mkdir -p "$home"

step() {
  printf '\n$ %s\n' "$*"
  "$@"
}

echo "Demo data and the local directory live in $home"
echo "To repeat these commands yourself:"
echo "  export XDG_DATA_HOME=\"$home/data\" XDG_CONFIG_HOME=\"$home/config\" XDG_CACHE_HOME=\"$home/cache\" LDAPNOINIT=1 PATH=\"$PWD/.build/release:\$PATH\""

step ldapbook local start
if ! ldapbook find --limit 1 --format json ada >/dev/null 2>&1; then
  step ldapbook local sample --count 300 --photos demo/photos
fi
step ldapbook local path
step ldapbook fields
step ldapbook find jo
# A name as a colleague types it, with a typo; and what the local index holds.
step ldapbook find --explain lovelcae
step ldapbook sync --status
step ldapbook find --field email --explain ada
# "ada lovelace" means one person only, whoever else is named Ada: a confirmation (--yes).
step ldapbook reach email ada lovelace --pick 1 --yes --no-input
step ldapbook reach email grace hopper --pick 2 --yes --no-input
step ldapbook query grace
step ldapbook show --pick 1 --no-input ada lovelace
# Alan has no email yet, and nobody's address starts with alan: his editor, which
# --value fills in; it is written once, at the confirmation, and the second call just works.
step ldapbook reach email alan turing --pick 1 --value alan@bletchley.example --yes --no-input
step ldapbook reach email alan turing --yes --no-input
step ldapbook reach shoe-size ada lovelace --pick 1 --yes --no-input
photo="$home/photo.jpg"
if step ldapbook photo ada lovelace -o "$photo"; then
  echo "(wrote $(wc -c <"$photo") bytes to $photo)"
fi
printf '\nThe local directory keeps running; stop it with: ldapbook local stop\n'
