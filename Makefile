# Thin wrapper: `make` builds the kiosk (release), `make install` runs scripts/install, which documents
# its options (PREFIX, DESTDIR, KIOSK_USER, SWIFT_BUILD_FLAGS; INSTALL_FLAGS=--dry-run or --app PATH).
# Kiosk/README.md, "Deploying on a board", walks through a whole installation.

SWIFT_BUILD_FLAGS ?= $(shell scripts/release-flags)
INSTALL_FLAGS ?=
# Where the swift.org toolchain is usually unpacked, for shells (sudo) that do not have it on PATH.
export PATH := $(PATH):/opt/swift/usr/bin
export PREFIX DESTDIR KIOSK_USER SWIFT_BUILD_FLAGS

.PHONY: all build install

all: build

build:
	scripts/release-build

install:
	scripts/install $(INSTALL_FLAGS)
