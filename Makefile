# ldapbook: build and test on Debian with the Swift toolchain.
SWIFT ?= swift

.PHONY: all deps build release test fuzz fuzz-smoke demo docker-check interop bench bench-smoke clean

all: build

# Installs libldap-dev, slapd, ldap-utils and pkg-config when missing.
deps:
	@scripts/ensure-packages.sh

build: deps
	$(SWIFT) build

# The ldapbook command as it is installed: .build/release/ldapbook (see scripts/build-release.sh).
release: deps
	@scripts/build-release.sh ldapbook

# Unit tests and integration tests against private slapd servers the tests start.
test: deps
	$(SWIFT) build --build-tests
	@scripts/run-tests.sh

# libFuzzer on the filter and DN escapers and the LDIF and vCard readers, FUZZ_SECONDS (60)
# per target; an input that crashes or breaks a property is left in .build/fuzz/crashes/.
fuzz:
	@scripts/fuzz.sh

# The same, 5 seconds per target (CI: about two minutes with the build).
fuzz-smoke:
	@FUZZ_SECONDS=5 scripts/fuzz.sh

# Builds release, starts a local directory of generated people and tours the commands.
demo:
	@scripts/demo.sh

# Validates docker-compose.yml (installs Debian's docker-compose when missing).
docker-check:
	@scripts/check-docker.sh

# Checks that khard and Evolution read back exported vCards (installs them when missing).
interop:
	@scripts/check-vcard-interop.sh

# Benchmarks on 10k, 100k and 1M entries against ldapsearch/ldapadd, python-ldap and ldap3;
# writes the results into BENCHMARKS.md.
bench:
	@scripts/bench.sh

# The same harness on 10k entries, in under two minutes (CI).
bench-smoke:
	@scripts/bench.sh --quick

clean:
	$(SWIFT) package clean
