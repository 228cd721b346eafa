#!/usr/bin/env bash
# Builds release binaries the way they are installed and measured:
#
#   --static-swift-stdlib   the Swift runtime and Foundation are linked in, so a
#                           command does not load and relocate them at start-up
#   -disable-concrete-type-metadata-mangled-name-accessors
#                           the code asks for a concrete type's metadata through
#                           its own accessor instead of handing the runtime a
#                           mangled name to look up, which on first use scans
#                           every protocol conformance in the binary
#
#   scripts/build-release.sh [PRODUCT...]   (default: ldapbook)
set -euo pipefail
cd "$(dirname "$0")/.."

for product in "${@:-ldapbook}"; do
  swift build -c release --static-swift-stdlib \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
    --product "$product"
done
