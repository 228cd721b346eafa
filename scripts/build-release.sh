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
#   -use-ld=lld -z pack-relative-relocs
#                           the toolchain's lld packs the executable's 77,817
#                           relative relocations into a 15 KB table (DT_RELR) in
#                           place of 1.8 MB of entries that the dynamic loader read
#                           and applied one by one: `ldapbook --version` 6.06 ->
#                           5.18 ms (hyperfine medians of 200 runs), in every
#                           command. The executable stays position-independent
#                           (linking it at a fixed address saved 0.4 ms more, and
#                           gave up address-space randomisation). Needs glibc 2.36
#                           or later at run time (Debian 12 has it); without lld,
#                           the default linker and relocations are used.
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

packed_relocations=()
toolchain=$(dirname "$(command -v swift)")
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null || true)   # "glibc 2.36"
if [[ -x "$toolchain/ld.lld" ]] && awk '{ split($2, v, "."); exit !(v[1] > 2 || (v[1] == 2 && v[2] >= 36)) }' <<<"$glibc"; then
  packed_relocations=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
else
  echo "build-release: no lld in the toolchain, or glibc before 2.36; relocations unpacked" >&2
fi

for product in "${@:-ldapbook}"; do
  swift build -c release --static-swift-stdlib \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
    "${static_cxx[@]}" "${packed_relocations[@]}" \
    --product "$product"
done
