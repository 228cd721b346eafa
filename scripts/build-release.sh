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
#   libstdc++.a             the C++ library the Swift runtime uses is linked in
#                           too: loading libstdc++.so, binding its symbols and
#                           running its initialisers cost about 1.5 ms of every
#                           command. The linker looks for -lstdc++ in a directory
#                           that holds only the archive, ahead of the one that
#                           also holds the shared library. (The GCC runtime
#                           library exception allows linking it so.)
#
#   scripts/build-release.sh [PRODUCT...]   (default: ldapbook)
set -euo pipefail
cd "$(dirname "$0")/.."

static_cxx=()
archive=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
if [[ "$archive" == /* && -f "$archive" ]]; then
  mkdir -p .build/static-libstdc++
  ln -sf "$archive" .build/static-libstdc++/libstdc++.a
  static_cxx=(-Xlinker -L -Xlinker "$PWD/.build/static-libstdc++")
else
  echo "build-release: no libstdc++.a (libstdc++-12-dev); linking libstdc++ dynamically" >&2
fi

for product in "${@:-ldapbook}"; do
  swift build -c release --static-swift-stdlib \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
    "${static_cxx[@]}" \
    --product "$product"
done
