# Thin wrapper: `make` builds the kiosk (release), `make install` runs scripts/install, which documents
# its options (PREFIX, DESTDIR, KIOSK_USER, SWIFT_BUILD_FLAGS; INSTALL_FLAGS=--dry-run or --app PATH).
# Kiosk/README.md, "Deploying on a board", walks through a whole installation.
#
# TEXT_STACK=linked builds pango, cairo and what they link into the binary (scripts/release-build
# --text-stack linked; scripts/release-flags says what that gains and costs: for an image rebuilt for every
# update); unset or shared, they stay Debian's shared libraries, which `apt upgrade` updates. Give `make
# install` the same TEXT_STACK: it builds the same one, and refuses a kiosk or app of the other profile
# (unset, it installs either and says when one is linked).

TEXT_STACK ?=
INSTALL_FLAGS ?=
# Where the swift.org toolchain is usually unpacked, for shells (sudo) that do not have it on PATH.
export PATH := $(PATH):/opt/swift/usr/bin
export PREFIX DESTDIR KIOSK_USER
# Only when given: unset, scripts/release-build takes scripts/release-flags' for TEXT_STACK (an exported
# empty value would mean no flags at all).
ifneq ($(origin SWIFT_BUILD_FLAGS),undefined)
export SWIFT_BUILD_FLAGS
endif

.PHONY: all build install

all: build

text_stack := $(if $(TEXT_STACK),--text-stack $(TEXT_STACK))

build:
	scripts/release-build $(text_stack)

install:
	scripts/install $(text_stack) $(INSTALL_FLAGS)
