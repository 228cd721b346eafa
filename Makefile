# ldapbook: build and test on Debian with the Swift toolchain.
SWIFT ?= swift

.PHONY: all deps build test clean

all: build

# Installs libldap-dev, slapd, ldap-utils and pkg-config when missing.
deps:
	@scripts/ensure-packages.sh

build: deps
	$(SWIFT) build

# Unit tests and integration tests against private slapd servers the tests start.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	$(SWIFT) package clean
