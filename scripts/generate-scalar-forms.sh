#!/usr/bin/env bash
# Regenerates Sources/LDAPBook/ScalarFormsTable.swift, the forms of the scalars
# U+0080...U+07FF that name ranking reads, from the Unicode data Foundation has
# (after a toolchain update, when ScalarFormsTableTests says it is out of date).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
# The first run writes the table (and fails if it was out of date); the second checks it.
LDAPBOOK_WRITE_SCALAR_FORMS="$PWD/Sources/LDAPBook/ScalarFormsTable.swift" \
  swift test --skip-build --filter ScalarFormsTableTests/tableIsCurrent || true
swift build --build-tests
swift test --skip-build --filter ScalarFormsTableTests
