#!/usr/bin/env bash
# Checks that khard and Evolution read back what `ldapbook export --format
# vcard` writes, in vCard 3.0 and 4.0.
#
# Fills a private local directory (temporary XDG_DATA_HOME and
# XDG_CONFIG_HOME, LDAPNOINIT=1: your own data and directories are left
# alone) with generated people and one person with every kind of field, then
# exports them as JSON and as vCards and compares, person by person, the
# JSON with what each reader understood:
#   - khard: one .vcf per card in a throwaway vdir address book, read with
#     `khard list`, `khard email`, `khard phone` and `khard show`;
#   - Evolution: scripts/interop/evolution-read.c, built against
#     evolution-data-server's libebook-contacts, the library Evolution reads
#     vCards with.
# Installs khard, libebook-contacts1.2-dev, gcc and pkg-config when missing
# (with scripts/ensure-packages.sh: apt-get, non-interactively).
#
# scripts/check-vcard-interop.sh [LDAPBOOK]
#   LDAPBOOK (or $LDAPBOOK): the ldapbook binary, default .build/debug/ldapbook
#   of this repository; a .build/debug or .build/release binary older than the
#   sources is rebuilt first.
# Exits 0 when every reader read every person as exported; 1 on a mismatch,
# keeping the cards and what the readers printed for a look.
set -euo pipefail
binary=${1:-${LDAPBOOK:-}}
if [ -n "$binary" ] && [ "${binary#/}" = "$binary" ]; then
  binary="$PWD/$binary"
fi
cd "$(dirname "$0")/.."
root=$PWD
binary=${binary:-$root/.build/debug/ldapbook}

scripts/ensure-packages.sh khard libebook-contacts1.2-dev gcc python3
case "$binary" in
  "$root/.build/debug/ldapbook" | "$root/.build/release/ldapbook")
    if [ ! -x "$binary" ] || [ -n "$(find Sources Package.swift -newer "$binary" -print -quit)" ]; then
      configuration=debug
      [ "$binary" = "$root/.build/release/ldapbook" ] && configuration=release
      echo "Building ldapbook ($configuration)"
      swift build -c "$configuration" --product ldapbook
    fi
    ;;
esac
if [ ! -x "$binary" ]; then
  echo "error: no ldapbook binary at $binary" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ldapbook-interop.XXXXXX")
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
export LDAPNOINIT=1
keep=
cleanup() {
  "$binary" local stop >/dev/null 2>&1 || true
  if [ -n "$keep" ]; then
    rm -rf "$work/data"
    echo "The exported cards and what khard and Evolution printed are in $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

ldapbook() { "$binary" "$@"; }

echo "Filling a private local directory in $work"
ldapbook local start >/dev/null
ldapbook local sample --count 40 --photos demo/photos >/dev/null
shown_dn=$(ldapbook add --given 'Åsa-Zoë' --surname "Ñúñez-O'Brien; Jr." \
  email=asa@example.org email=asa.nunez@xn--exmple-cua.de email=an@work.example.com \
  phone='+49 351 1234-5' phone='+49 351 1234-6' mobile='+49 170 5550123' \
  home-phone='+34 91 555 0199' fax='+49 351 1234-9' pager='+49 351 1234-0' \
  'address=Straße der Nationen 12$D-01067 Dresden$Deutschland' \
  'home-address=c/o Müller: Hinterhaus$Gartenweg 3, 12345 Berlin' \
  organization='Ünïcode GmbH, Dresden' department='Forschung & Entwicklung' \
  title='Leitende Ingenieurin' note='Zeile eins; mit Semikolon, und Komma \ und Backslash' \
  url='https://example.org/~asa Homepage' birthday=1987-02-28 anniversary=2012-06-09 nickname=Zo \
  shoe-size=38 'lieblings-café=Café Prag, Dresden' photo=@demo/photos/avatar-3.jpg)

# Dates without a year. Not --02-29: khard 0.18 reads vCard 4.0's --MMDD into
# the year 1900, which has no 29 February.
ldapbook add --given Bea --surname Yearless birthday=--10-15 anniversary=--06-09 email=bea@example.org >/dev/null

ldapbook fields >"$work/fields.txt"
ldapbook export --format json >"$work/people.json"

echo "Building scripts/interop/evolution-read.c"
# shellcheck disable=SC2046 # pkg-config's flags are separate words
cc -std=c11 -O1 -Wall -Wextra -Wno-deprecated-declarations -o "$work/evolution-read" \
  scripts/interop/evolution-read.c $(pkg-config --cflags --libs libebook-contacts-1.2)

status=0
for version in 3.0 4.0; do
  out="$work/v$version"
  mkdir -p "$out/vdir" "$out/khard"
  ldapbook export --format vcard --vcard-version "$version" >"$out/export.vcf"

  # A vdir address book holds one card per file.
  awk -v dir="$out/vdir" 'BEGIN { RS = "\r\n"; ORS = "\r\n" }
    /^BEGIN:VCARD$/ { file = sprintf("%s/card-%04d.vcf", dir, ++count) }
    file != "" { print > file }
    /^END:VCARD$/ { close(file); file = "" }' "$out/export.vcf"

  cat >"$out/khard/khard.conf" <<EOF
[addressbooks]
[[ldapbook]]
path = $out/vdir
[general]
debug = no
default_action = list
editor = /bin/false
merge_editor = /bin/false
[contact table]
display = formatted_name
group_by_addressbook = no
reverse = no
show_nicknames = no
show_uids = yes
sort = last_name
localize_dates = no
preferred_phone_number_type = pref, cell, home
preferred_email_address_type = pref, work, home
[vcard]
preferred_version = $version
search_in_source_files = no
skip_unparsable = no
private_objects = SHOE-SIZE,
EOF
  khard=(khard -c "$out/khard/khard.conf")
  "${khard[@]}" list --parsable \
    --fields uid,formatted_name,first_name,last_name,emails,phone_numbers,nicknames,birthday,anniversary,organisations,titles,notes,webpages,post_addresses \
    >"$out/khard-list.tsv"
  "${khard[@]}" email --parsable --remove-first-line >"$out/khard-email.tsv"
  "${khard[@]}" phone --parsable >"$out/khard-phone.tsv"
  # khard finds a contact by its UID: the one the export gave the person added above.
  shown_uid=$(/usr/bin/python3 -c 'import json, sys
uid = next(p.get("uid", p["dn"]) for p in json.load(open(sys.argv[1])) if p["dn"] == sys.argv[2])
print(uid[len("urn:uuid:"):] if sys.argv[3] == "3.0" and uid.startswith("urn:uuid:") else uid)' "$work/people.json" "$shown_dn" "$version")
  "${khard[@]}" show --format yaml "uid:$shown_uid" >"$out/khard-show.yaml"

  "$work/evolution-read" "$out/export.vcf" >"$out/evolution.json"

  /usr/bin/python3 scripts/interop/compare-vcard-readers.py \
    "$work/people.json" "$work/fields.txt" "$version" "$out" "$shown_dn" || status=1
done

if [ "$status" -ne 0 ]; then
  keep=1
  echo "error: khard or Evolution did not read back what ldapbook exported (see above)" >&2
  exit 1
fi
echo "vCard interop: khard and Evolution read back all $(grep -c '"dn"' "$work/people.json") people in vCard 3.0 and 4.0"
