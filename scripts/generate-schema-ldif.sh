#!/usr/bin/env bash
# Generates the cn=config forms of the ldapbook schema from its source:
#
#   schema/ldapbook.schema               the source, in slapd.conf syntax
#   schema/ldapbook.ldif                 generated: cn=ldapbook,cn=schema,cn=config
#   Sources/SlapdKit/LDAPBookSchema.swift  generated: the same LDIF as a Swift constant
#
# The conversion is the usual OpenLDAP one: slaptest reads a slapd.conf that
# includes core, cosine, inetorgperson and ldapbook.schema and writes a cn=config
# directory; the cn={N}ldapbook entry it holds is renamed to cn=ldapbook, and its
# CRC header, operational attributes and {N} value ordering prefixes are removed.
# The schema definitions are then folded at their keywords (NAME, DESC, ...) and
# at spaces, never inside a word, so that no line ends in whitespace.
#
# Usage:
#   scripts/generate-schema-ldif.sh          regenerate both files
#   scripts/generate-schema-ldif.sh --check  exit 1, showing a diff, if either
#                                            file differs from what the source
#                                            generates
#
# Environment: SLAPTEST (default: slaptest on PATH, else /usr/sbin/slaptest) and
# OPENLDAP_SCHEMA_DIR (default: /etc/ldap/schema, where core.schema lives).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
name=ldapbook
source_schema="$root/schema/$name.schema"
ldif_file="$root/schema/$name.ldif"
swift_file="$root/Sources/SlapdKit/LDAPBookSchema.swift"
schema_dir=${OPENLDAP_SCHEMA_DIR:-/etc/ldap/schema}
slaptest=${SLAPTEST:-$(command -v slaptest || echo /usr/sbin/slaptest)}

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *)
    echo "usage: $0 [--check]" >&2
    exit 2
    ;;
esac

if [ ! -x "$slaptest" ]; then
  echo "error: slaptest not found (install the slapd package, or set SLAPTEST)" >&2
  exit 1
fi
for dependency in core cosine inetorgperson; do
  if [ ! -r "$schema_dir/$dependency.schema" ]; then
    echo "error: $schema_dir/$dependency.schema not found (set OPENLDAP_SCHEMA_DIR)" >&2
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ldapbook-schema.XXXXXX")
trap 'rm -rf "$work"' EXIT

# slapd.conf takes double-quoted arguments; a double quote or backslash in a
# path could not be written there.
case "$schema_dir$source_schema" in
  *'"'* | *'\'*)
    echo "error: schema paths must not contain double quotes or backslashes" >&2
    exit 1
    ;;
esac
cat >"$work/slapd.conf" <<EOF
include "$schema_dir/core.schema"
include "$schema_dir/cosine.schema"
include "$schema_dir/inetorgperson.schema"
include "$source_schema"
EOF
mkdir "$work/slapd.d"
if ! "$slaptest" -f "$work/slapd.conf" -F "$work/slapd.d" >"$work/slaptest.log" 2>&1; then
  echo "error: slaptest rejected $source_schema:" >&2
  cat "$work/slaptest.log" >&2
  exit 1
fi

generated=("$work"/slapd.d/cn=config/cn=schema/cn=\{*\}"$name".ldif)
if [ ${#generated[@]} -ne 1 ] || [ ! -f "${generated[0]}" ]; then
  echo "error: slaptest wrote no cn={N}$name entry" >&2
  exit 1
fi

# Prints the LDIF file $1 with comments removed and folded lines joined, one
# attribute per line.
unfold() {
  LC_ALL=C awk '
    /^#/ { next }
    /^ / { logical = logical substr($0, 2); next }
    {
      if (logical != "") print logical
      logical = $0
    }
    END { if (logical != "") print logical }
  ' "$1"
}

# Prints the entry slaptest wrote to $1 in its distributable form: without the
# header and operational attributes, named cn=ldapbook,cn=schema,cn=config,
# without {N} ordering prefixes, the schema definitions folded at their keywords.
convert() {
  unfold "$1" | LC_ALL=C awk '
    # Prints a schema definition folded before each keyword outside quoted
    # strings and, within a clause, before a word that would pass column 76.
    # Every fold replaces a space, so the value is unchanged once unfolded.
    function fold(text,    words, count, i, word, quoted, physical, keyword) {
      count = split(text, words, "[ ]")
      physical = words[1]
      quoted = 0
      for (i = 2; i <= count; i++) {
        word = words[i]
        keyword = !quoted && word ~ /^(NAME|DESC|OBSOLETE|SUP|EQUALITY|ORDERING|SUBSTR|SYNTAX|SINGLE-VALUE|COLLECTIVE|NO-USER-MODIFICATION|USAGE|ABSTRACT|STRUCTURAL|AUXILIARY|MUST|MAY|APPLIES|AUX|NOT|X-[A-Z_-]+)$/
        if (keyword || (word != "" && length(physical) + 1 + length(word) > 76)) {
          print physical
          physical = "  " word
        } else {
          physical = physical " " word
        }
        quoted = (quoted + gsub(/\047/, "", word)) % 2
      }
      print physical
    }

    {
      colon = index($0, ":")
      attribute = substr($0, 1, colon - 1)
      if (substr($0, colon + 1, 1) == ":") {
        print "error: " attribute " has a Base64 value; keep the schema text ASCII" > "/dev/stderr"
        failed = 1
        exit 1
      }
      value = substr($0, colon + 2)
    }
    attribute ~ /^(structuralObjectClass|entryUUID|creatorsName|createTimestamp|entryCSN|modifiersName|modifyTimestamp)$/ {
      next
    }
    attribute == "dn" {
      sub(/^cn=\{[0-9]+\}/, "cn=", value)
      print "dn: " value ",cn=schema,cn=config"
      next
    }
    attribute ~ /^(cn|olc.*)$/ {
      sub(/^\{[0-9]+\}/, "", value)
    }
    attribute ~ /^olc(AttributeTypes|ObjectClasses|LdapSyntaxes|DitContentRules)$/ {
      fold(attribute ": " value)
      next
    }
    { print attribute ": " value }
  '
}

# Writes schema/ldapbook.ldif to $1.
write_ldif() {
  {
    cat <<EOF
# ldapbook: address-book attributes that inetOrgPerson lacks
#
# This file was generated from $name.schema by scripts/generate-schema-ldif.sh;
# edit $name.schema and run that script rather than editing this file.
#
# Load it into a slapd configured with cn=config, after core, cosine and
# inetorgperson:
#   ldapadd -Y EXTERNAL -H ldapi:/// -f $name.ldif
#
EOF
    convert "${generated[0]}"
  } >"$1"
}

# Writes Sources/SlapdKit/LDAPBookSchema.swift to $2, embedding the LDIF file $1.
write_swift() {
  local unfolded arc attributes template
  if grep -q '"""' "$1"; then
    echo "error: the LDIF holds \"\"\", which a Swift string literal cannot embed" >&2
    exit 1
  fi
  unfolded=$(unfold "$1")
  arc=$(printf '%s\n' "$unfolded" |
    sed -n "s/^olcObjectClasses: ( \\([0-9.]*\\)\\.2\\.1 NAME '${name}Person' .*/\\1/p")
  if [ -z "$arc" ]; then
    echo "error: the ${name}Person object class does not have the OID <arc>.2.1" >&2
    exit 1
  fi
  attributes=$(printf '%s\n' "$unfolded" |
    sed -n "s/^olcAttributeTypes: ( [0-9.]* NAME '\\([^']*\\)'.*/        \"\\1\",/p")
  template=$(cat <<'EOF'
// Generated from schema/@NAME@.schema by scripts/generate-schema-ldif.sh; do not edit.

/// The ldapbook schema: the address-book attributes that `inetOrgPerson` lacks and the
/// auxiliary object class `ldapbookPerson` that allows them.
///
/// Its source is `schema/@NAME@.schema` (slapd.conf syntax); `schema/@NAME@.ldif` and
/// ``ldif`` are its `cn=config` form, generated from it by `scripts/generate-schema-ldif.sh`.
/// Every private slapd loads it unless ``SlapdConfiguration/includesLDAPBookSchema`` is
/// turned off.
public enum LDAPBookSchema {
    /// The object identifier arc of the schema: attribute types are `<arc>.1.N` and object
    /// classes `<arc>.2.N`.
    ///
    /// It is a UUID written as an integer below `2.25` (ITU-T X.667, RFC 4122 section 4),
    /// which needs no registration.
    public static let oidArc = "@ARC@"

    /// The auxiliary object class that allows the ldapbook attributes on a person entry.
    public static let objectClass = "@NAME@Person"

    /// The attribute types of the schema, in the order they are defined (`<arc>.1.1` first).
    public static let attributeTypes = [
@ATTRIBUTES@
    ]

    /// The schema as the `cn=@NAME@,cn=schema,cn=config` entry, exactly the text of
    /// `schema/@NAME@.ldif`: for `ldapadd -Y EXTERNAL -H ldapi:///` into a slapd that has
    /// core, cosine and inetorgperson, or as a schema of a generated `cn=config`.
    public static let ldif = #"""
EOF
  )
  template=${template//@NAME@/$name}
  template=${template//@ARC@/$arc}
  template=${template//@ATTRIBUTES@/$attributes}
  {
    printf '%s\n' "$template"
    sed -e 's/^./    &/' "$1"
    printf '\n    """#\n}\n'
  } >"$2"
}

if $check; then
  write_ldif "$work/$name.ldif"
  write_swift "$work/$name.ldif" "$work/LDAPBookSchema.swift"
  status=0
  for pair in "$ldif_file:$work/$name.ldif" "$swift_file:$work/LDAPBookSchema.swift"; do
    committed=${pair%%:*}
    expected=${pair#*:}
    if [ ! -f "$committed" ]; then
      echo "error: ${committed#"$root"/} is missing" >&2
      status=1
    elif ! diff -u --label "${committed#"$root"/}" --label "${committed#"$root"/} (generated)" \
      "$committed" "$expected" >&2; then
      status=1
    fi
  done
  if [ $status -ne 0 ]; then
    echo "error: the generated schema files are out of date; run scripts/generate-schema-ldif.sh" >&2
  fi
  exit $status
fi

write_ldif "$work/$name.ldif"
write_swift "$work/$name.ldif" "$work/LDAPBookSchema.swift"
cp "$work/$name.ldif" "$ldif_file"
cp "$work/LDAPBookSchema.swift" "$swift_file"
echo "wrote ${ldif_file#"$root"/} and ${swift_file#"$root"/}"
