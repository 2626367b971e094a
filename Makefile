# memprobe: a UEFI memory-hierarchy probe, and the same probes on Linux.
# docs/BUILD.md explains every target and variable.
#
#   make            build/$(ARCH)/memprobe.efi and build/$(ARCH)/memprobe.img
#   make run        boot the image headless in QEMU (QEMU_CPU, QEMU_MEM, QEMU_SMP, QEMU_NUMA,
#                   APP_ARGS, OUT, NMI_EVERY_S=N: an NMI every N s;
#                   SECURE_BOOT=snakeoil|ms [UNSIGNED=1] [SHIM=1]: Secure Boot on)
#   make sign       the app signed with KEY=... CERT=... and an image holding it
#   make test       host unit tests + QEMU tests; last line "N passed, N failed"
#   make host       build/host/memprobe, the probes on Linux
#   make sanitize   the Linux app under ASan and UBSan: a short run, analyze, compare
#   make fuzz       a long fuzzing pass of the parsers
#   make fleet-demo MACHINES=N OUT=DIR [GUESTS=FILE]
#                   N QEMU guests netbooted, uploading to a WebDAV server
#                   (nginx), then memprobe fleet over DIR (fleet.db too)
#   V=1 shows commands; O=dir moves the build folder; ARCH=x86_64 (the
#   default) or ARCH=aarch64 picks the EFI app's architecture (make,
#   make image, make run); the Linux build and the unit tests are x86_64's.

VERSION := 0.1.0

O ?= build
V ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif

# ---- The architecture ------------------------------------------------------
# Everything that names an architecture is set here, once per ARCH:
#   ARCH_DIR        its folder under arch/ (implements the arch/*.h headers)
#   ARCH_EFI_ONLY   its sources for the EFI app alone (libc has them on Linux)
#   GNUEFI_ARCH     gnu-efi's name for it: include folder and crt0-efi-*.o
#   EFI_TARGET      objcopy's PE target for the app
#   EFI_BOOT_NAME   the removable-media boot file under \EFI\BOOT
#   ARCH_CFLAGS     code-generation flags the EFI objects need
#   ARCH_PROBE_CFLAGS  code-generation flags of the probe code
#   CROSS           the cross toolchain's prefix (empty: the host's own)
#   EFI_LDS         the app's linker script
#   EFI_PE_FLAGS    objcopy's flags that turn the linked ELF into the PE file
ARCH ?= x86_64
ifeq ($(ARCH),x86_64)
ARCH_DIR      := arch/x86_64
ARCH_EFI_ONLY := arch/x86_64/string.c
GNUEFI_ARCH   := x86_64
EFI_TARGET    := efi-app-x86_64
EFI_BOOT_NAME := BOOTX64.EFI
ARCH_CFLAGS   := -mno-red-zone -maccumulate-outgoing-args
ARCH_PROBE_CFLAGS := -msse2
CROSS         :=
EFI_LDS       := linker/memprobe.lds
EFI_PE_FLAGS   = -j .text -j .sdata -j .data -j .sbat -j .dynamic -j .dynsym \
	-j .rel -j .rela -j '.rel.*' -j '.rela.*' -j .reloc \
	--target $(EFI_TARGET) --subsystem=10
else ifeq ($(ARCH),aarch64)
# docs/BUILD.md, "AArch64": Debian's binutils has no efi-app-aarch64
# target, so gnu-efi's aarch64 crt0 carries the PE header itself and the
# file is the linked image's bytes (-O binary). gnu-efi:arm64 is unpacked
# into the build folder (scripts/deps.sh), never installed.
ARCH_DIR      := arch/aarch64
# None of it builds for the (x86-64) Linux app or the unit tests.
ARCH_EFI_ONLY := $(wildcard arch/aarch64/*.c)
GNUEFI_ARCH   := aarch64
EFI_TARGET    := binary
EFI_BOOT_NAME := BOOTAA64.EFI
ARCH_CFLAGS   := -mno-outline-atomics
ARCH_PROBE_CFLAGS :=
CROSS         := aarch64-linux-gnu-
EFI_LDS       := linker/memprobe-aarch64.lds
EFI_PE_FLAGS   = -j .text -j .dynamic -j .data -j .rela -O $(EFI_TARGET)
ifneq ($(SECURE_BOOT)$(SHIM),)
$(error ARCH=aarch64: SECURE_BOOT and SHIM are x86-64's: the AArch64 image has no .sbat for shim (docs/BUILD.md, "AArch64"))
endif
else
$(error ARCH=$(ARCH) is not supported: the architectures are x86_64 and aarch64 (see docs/LAYOUT.md, "A new architecture"))
endif

EFI_OUT  := $(O)/$(ARCH)
HOST_OUT := $(O)/host
TEST_OUT := $(O)/tests
# Generated sources every build shares (found through -I$(GEN_OUT)).
GEN_OUT  := $(O)/gen

EFI_APP := $(EFI_OUT)/memprobe.efi
EFI_IMG := $(EFI_OUT)/memprobe.img
HOST_APP := $(HOST_OUT)/memprobe

ifeq ($(ARCH),x86_64)
GNUEFI_INC := /usr/include/efi
GNUEFI_LIB := /usr/lib
else
GNUEFI_ROOT := $(O)/gnu-efi-$(GNUEFI_ARCH)
GNUEFI_INC := $(GNUEFI_ROOT)/usr/include/efi
GNUEFI_LIB := $(GNUEFI_ROOT)/usr/lib
endif

# Optional config file baked into the image as \EFI\BOOT\memprobe.cfg.
CONFIG ?=
# The GPT image's size in MiB (its FAT32 ESP is 2 MiB less): room for about
# a thousand full-profile run folders (docs/BUILD.md, "The image"). With no
# CONFIG the image holds no configuration file, so hardware runs use the
# full profile; `make run` passes profile=quick (RUN_ARGS below).
IMG_SIZE_MIB ?= 256

CC      ?= gcc
EFI_CC  := $(if $(CROSS),$(CROSS)gcc,$(CC))
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy

# What the neutral headers take from the architecture's folder, named here
# rather than by #if in them: arch/paging.h's structs end in the part each
# architecture keeps for itself (ARCH_DIR/paging_types.h).
ARCH_DEFS := -DMEMPROBE_ARCH_PAGING_TYPES='"$(ARCH_DIR)/paging_types.h"'

WARN := -Wall -Wextra
DEPFLAGS = -MMD -MP

# ---- EFI build -------------------------------------------------------------

# Shared by every EFI object. -fpic because gnu-efi relocates the image at
# load time; no red zone because firmware interrupts may land on our stack.
EFI_BASE := -std=gnu11 -O2 -g -ffreestanding -fpic -fshort-wchar \
	-fno-stack-protector -fno-stack-check -fno-strict-aliasing \
	$(ARCH_CFLAGS) $(ARCH_DEFS) -DGNU_EFI_USE_MS_ABI \
	-I$(GNUEFI_INC) -I$(GNUEFI_INC)/$(GNUEFI_ARCH) -I. -I$(GEN_OUT) $(WARN)
# Firmware-facing and CPU code never touches SSE state: the firmware's and
# our own interrupt paths do not save it.
EFI_SYS_CFLAGS := $(EFI_BASE) -mgeneral-regs-only -DMEMPROBE_VERSION='"$(VERSION)"'
# Probe code and lib/ are compiled as an ordinary optimised program would be.
PROBE_CFLAGS := -O2 $(ARCH_PROBE_CFLAGS)
EFI_PROBE_CFLAGS := $(EFI_BASE) $(PROBE_CFLAGS)

EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
	-T $(EFI_LDS)

# The architecture's sources that also build for Linux (and the unit tests),
# with arch/generic/: what every architecture's code shares.
ARCH_SRC  := $(filter-out $(ARCH_EFI_ONLY),$(wildcard $(ARCH_DIR)/*.c)) $(wildcard arch/generic/*.c)
EFI_SRC   := $(wildcard efi/*.c) $(ARCH_SRC) $(ARCH_EFI_ONLY)
EFI_ASM   := $(wildcard $(ARCH_DIR)/*.S)
# The probes, whose PROBE_DEFINE rows make the registry, and everything both
# platforms build around them (docs/LAYOUT.md): the run's core, results
# and reports, the analysis, the probes, the run and its card.
PROBE_SRC := $(wildcard probes/*.c)
SHARED_SRC := $(wildcard core/*.c results/*.c analysis/*.c probes/*.c run/*.c)
LIB_SRC   := $(wildcard lib/*.c)

EFI_OBJ := $(EFI_SRC:%.c=$(EFI_OUT)/%.o) $(EFI_ASM:%.S=$(EFI_OUT)/%.o) \
	$(SHARED_SRC:%.c=$(EFI_OUT)/%.o) $(LIB_SRC:%.c=$(EFI_OUT)/%.o) $(EFI_OUT)/buildinfo.o

.PHONY: all efi image host run test unit qemu-test fuzz deps clean
all: image

# The probe registry's list (core/probe.h), from the PROBE_DEFINE rows of
# probes/*.c: rewritten only when its text changes, so an edit to a probe
# rebuilds only what that edit touches. Every object waits for it (|): on a
# first build no dependency file names it yet.
PROBE_REGISTRY := $(GEN_OUT)/core/probe_registry.h
$(PROBE_REGISTRY): $(PROBE_SRC) scripts/probe-registry.sh
	@mkdir -p $(dir $@)
	$(Q)scripts/probe-registry.sh $(PROBE_SRC) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

efi: $(EFI_APP)
image: $(EFI_IMG)

$(EFI_OUT)/efi/%.o $(EFI_OUT)/$(ARCH_DIR)/%.o $(EFI_OUT)/arch/generic/%.o: CFLAGS_SEL = $(EFI_SYS_CFLAGS)
$(EFI_OUT)/core/%.o $(EFI_OUT)/results/%.o $(EFI_OUT)/analysis/%.o $(EFI_OUT)/probes/%.o \
$(EFI_OUT)/run/%.o $(EFI_OUT)/lib/%.o $(EFI_OUT)/buildinfo.o: CFLAGS_SEL = $(EFI_PROBE_CFLAGS)

$(EFI_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(EFI_CC) $(CFLAGS_SEL) $(DEPFLAGS) -c $< -o $@

$(EFI_OUT)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $@"
	$(Q)$(EFI_CC) $(EFI_SYS_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The build id lives in one generated file that is rewritten only when its
# text changes, so a rebuild stays incremental. Each build compiles it with
# the flags its own probe code was built with (minus include paths and
# warnings, which say nothing about the figures).
BUILD_ID := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
COMMIT := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
CC_VERSION := $(shell $(EFI_CC) --version 2>/dev/null | head -n 1)
define buildinfo_text
const char memprobe_version[] = "$(VERSION)";
const char memprobe_build_id[] = "$(BUILD_ID)";
const char memprobe_commit[] = "$(COMMIT)";
const char memprobe_compiler[] = "$(CC_VERSION)";
const char memprobe_probe_flags[] = MEMPROBE_PROBE_FLAGS;
endef
export buildinfo_text

$(EFI_OUT)/buildinfo.c: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' "$$buildinfo_text" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

flags_text = -DMEMPROBE_PROBE_FLAGS='"$(strip $(filter-out -I% -W% -MMD -MP -DMEMPROBE_ARCH_%,$(1)))"'

$(EFI_OUT)/buildinfo.o: $(EFI_OUT)/buildinfo.c
	@echo "  CC      $@"
	$(Q)$(EFI_CC) $(EFI_PROBE_CFLAGS) $(call flags_text,$(EFI_PROBE_CFLAGS)) -c $< -o $@

$(EFI_OUT)/memprobe.so: $(EFI_OBJ) $(EFI_LDS)
	@echo "  LD      $@"
	$(Q)$(LD) $(EFI_LDFLAGS) $(GNUEFI_LIB)/crt0-efi-$(GNUEFI_ARCH).o $(EFI_OBJ) \
		-L$(GNUEFI_LIB) -lefi -lgnuefi -o $@

# The PE file keeps the SBAT section and is marked NX_COMPAT: no section is
# both writable and executable (linker/memprobe.lds), which firmware that
# enforces W^X, and Secure Boot policies that require the flag, check.
$(EFI_APP): $(EFI_OUT)/memprobe.so scripts/pe-nx-compat.sh
	@echo "  OBJCOPY $@"
	$(Q)$(OBJCOPY) $(EFI_PE_FLAGS) $< $@
	$(Q)scripts/pe-nx-compat.sh $@

# The image depends on which CONFIG it holds, not only on the file's age:
# a stamp that changes whenever CONFIG's name or text changes.
$(EFI_OUT)/image-config: FORCE
	@mkdir -p $(dir $@)
	@if [ -n "$(CONFIG)" ] && [ ! -f "$(CONFIG)" ]; then \
		echo "make: CONFIG=$(CONFIG): no such file" >&2; exit 1; fi
	@{ echo "CONFIG=$(CONFIG) IMG_SIZE_MIB=$(IMG_SIZE_MIB)"; if [ -n "$(CONFIG)" ]; then cat "$(CONFIG)"; fi; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(EFI_IMG): $(EFI_APP) scripts/make-image.sh scripts/esp.bash $(EFI_OUT)/image-config
	@echo "  IMAGE   $@"
	$(Q)scripts/make-image.sh $@ $(EFI_APP) $(IMG_SIZE_MIB) "$(CONFIG)" $(EFI_BOOT_NAME)

# ---- Secure Boot -----------------------------------------------------------
# docs/BUILD.md, "Secure Boot". KEY and CERT are the signing key (PEM; an
# encrypted one takes KEY_PASS) and its certificate; the word "snakeoil"
# names Debian ovmf's public test key, the default for SECURE_BOOT=snakeoil
# and SHIM=1, never one to trust on a real machine.
#   make sign KEY=.. CERT=..     memprobe.signed.efi and memprobe.signed.img
#   make image SHIM=1 [KEY= CERT=]  memprobe.shim.img: Microsoft-signed shim as
#                                BOOT_NAME, MokManager, the app signed with
#                                KEY as grubx64.efi, CERT (DER) at the root
#   make run SECURE_BOOT=snakeoil|ms [UNSIGNED=1] [SHIM=1]
SNAKEOIL_KEY  := /usr/share/ovmf/PkKek-1-snakeoil.key
SNAKEOIL_CERT := /usr/share/ovmf/PkKek-1-snakeoil.pem
SHIM_DIR      := /usr/lib/shim
SECURE_BOOT ?=
SHIM ?=
UNSIGNED ?=
ifneq ($(filter-out snakeoil ms,$(SECURE_BOOT)),)
$(error SECURE_BOOT=$(SECURE_BOOT): the firmware choices are snakeoil (Debian's test keys enrolled) and ms (Microsoft's keys, for SHIM=1))
endif
ifneq ($(SECURE_BOOT)$(SHIM),)
KEY  ?= snakeoil
CERT ?= snakeoil
endif
sign_file = $(if $(filter snakeoil,$(1)),$(2),$(1))
KEY_FILE  = $(call sign_file,$(KEY),$(SNAKEOIL_KEY))
CERT_FILE = $(call sign_file,$(CERT),$(SNAKEOIL_CERT))

SIGNED_APP := $(EFI_OUT)/memprobe.signed.efi
SIGNED_IMG := $(EFI_OUT)/memprobe.signed.img
SHIM_IMG   := $(EFI_OUT)/memprobe.shim.img
KEY_DER    := $(EFI_OUT)/memprobe-key.der

.PHONY: sign
sign: $(SIGNED_IMG)
image: $(if $(SHIM),$(SHIM_IMG))

# Re-sign whenever KEY or CERT names another file or the files change.
$(EFI_OUT)/sign-key: FORCE
	@mkdir -p $(dir $@)
	@{ echo "KEY=$(KEY_FILE) CERT=$(CERT_FILE)"; \
	   cat "$(KEY_FILE)" "$(CERT_FILE)" 2>/dev/null | sha256sum; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(SIGNED_APP): $(EFI_APP) scripts/sign.sh $(EFI_OUT)/sign-key | deps
	$(Q)scripts/sign.sh "$(KEY_FILE)" "$(CERT_FILE)" $(EFI_APP) $@

$(SIGNED_IMG): $(SIGNED_APP) scripts/make-image.sh scripts/esp.bash $(EFI_OUT)/image-config
	@echo "  IMAGE   $@"
	$(Q)scripts/make-image.sh $@ $(SIGNED_APP) $(IMG_SIZE_MIB) "$(CONFIG)" $(EFI_BOOT_NAME)

# The certificate in DER, for MokManager's "Enroll key from disk" (and for
# firmware setup screens that take a db entry from a file).
$(KEY_DER): $(EFI_OUT)/sign-key
	$(Q)openssl x509 -in "$(CERT_FILE)" -outform DER -out $@ 2>/dev/null || \
		openssl x509 -inform DER -in "$(CERT_FILE)" -outform DER -out $@

$(SHIM_IMG): $(SIGNED_APP) $(KEY_DER) scripts/make-image.sh scripts/esp.bash $(EFI_OUT)/image-config
	@if [ ! -f $(SHIM_DIR)/shimx64.efi.signed ] || [ ! -f $(SHIM_DIR)/mmx64.efi.signed ]; then \
		echo "make: SHIM=1 needs Debian's shim-signed package ($(SHIM_DIR)/shimx64.efi.signed, mmx64.efi.signed): apt-get install shim-signed" >&2; exit 1; fi
	@echo "  IMAGE   $@ (shim, MokManager, memprobe signed by $(notdir $(CERT_FILE)) as grubx64.efi)"
	@if [ "$(CERT_FILE)" = "$(SNAKEOIL_CERT)" ]; then \
		echo "  NOTE    signed with Debian's public snakeoil test key: for QEMU; on a real machine give KEY= and CERT= (docs/BUILD.md, \"Secure Boot\")"; fi
	$(Q)scripts/make-image.sh --add $(SIGNED_APP):/EFI/BOOT/grubx64.efi \
		--add $(SHIM_DIR)/mmx64.efi.signed:/EFI/BOOT/mmx64.efi \
		--add $(KEY_DER):/memprobe-key.der \
		$@ $(SHIM_DIR)/shimx64.efi.signed $(IMG_SIZE_MIB) "$(CONFIG)" $(EFI_BOOT_NAME)

# ---- Linux build -----------------------------------------------------------

HOST_CFLAGS := -std=gnu11 -g -I. -I$(GEN_OUT) $(WARN) -D_GNU_SOURCE $(ARCH_DEFS)
HOST_LIBS := -lm
# Debian's libsqlite3 (libsqlite3-dev) for `memprobe fleet --db`: the desk
# commands only (desk/), never the platform or its tests; the EFI app links
# nothing but gnu-efi.
DESK_LIBS := -lsqlite3
# arch/ is built whole for the host too, assembly included, so the pure
# parts (page tables, CPUID decoding) run in the unit tests.
HOST_SRC := $(wildcard host/*.c) $(ARCH_SRC) $(SHARED_SRC) $(LIB_SRC)
HOST_LIB_SRC := $(filter-out host/main.c,$(HOST_SRC))
# The desk commands (analyze, compare, fleet) and the program's entry,
# desk/main.c, which hands a run to host/main.c.
DESK_SRC := $(wildcard desk/*.c)
DESK_LIB_SRC := $(filter-out desk/main.c,$(DESK_SRC))

HOST_OBJ := $(HOST_SRC:%.c=$(HOST_OUT)/%.o) $(DESK_SRC:%.c=$(HOST_OUT)/%.o) \
	$(EFI_ASM:%.S=$(HOST_OUT)/%.o) $(HOST_OUT)/buildinfo.o

host: $(HOST_APP)

$(HOST_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) $(HOST_CFLAGS) $(PROBE_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(HOST_OUT)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  HOSTAS  $@"
	$(Q)$(CC) $(HOST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(HOST_OUT)/buildinfo.o: $(EFI_OUT)/buildinfo.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HOST_CFLAGS) $(call flags_text,$(HOST_CFLAGS) $(PROBE_CFLAGS)) -c $< -o $@

$(HOST_APP): $(HOST_OBJ)
	@echo "  HOSTLD  $@"
	$(Q)$(CC) $(HOST_OBJ) $(DESK_LIBS) $(HOST_LIBS) -o $@

# ---- Installing the Linux build -------------------------------------------

# `make install PREFIX=DIR` (default /usr/local; DESTDIR for a package's
# staging tree): the Linux build, its man page and its bash completion.
# The man page and the completion are written by the program built, from
# the tables --help and `memprobe keys` print (memprobe --man;
# scripts/completion.sh over `memprobe keys`), so they never drift from it.
PREFIX ?= /usr/local
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
MAN_PAGE := $(HOST_OUT)/memprobe.1
COMPLETION := $(HOST_OUT)/memprobe.bash

$(MAN_PAGE): $(HOST_APP)
	$(Q)$(HOST_APP) --man > $@.tmp && mv $@.tmp $@

$(COMPLETION): $(HOST_APP) scripts/completion.sh
	$(Q)scripts/completion.sh $(HOST_APP) > $@.tmp && mv $@.tmp $@

.PHONY: install uninstall
install: $(HOST_APP) $(MAN_PAGE) $(COMPLETION)
	install -D -m 755 $(HOST_APP) $(BIN_DIR)/memprobe
	install -D -m 644 $(MAN_PAGE) $(MAN_DIR)/memprobe.1
	install -D -m 644 $(COMPLETION) $(COMPLETION_DIR)/memprobe

uninstall:
	rm -f $(BIN_DIR)/memprobe $(MAN_DIR)/memprobe.1 $(COMPLETION_DIR)/memprobe

# `make deb`: the same three files under /usr in build/memprobe_VERSION_ARCH.deb
# (dpkg-deb), the binary stripped, depending on the SQLite library
# `memprobe fleet --db` links.
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null)
DEB := $(O)/memprobe_$(VERSION)_$(DEB_ARCH).deb
define deb_control
Package: memprobe
Version: $(VERSION)
Architecture: $(DEB_ARCH)
Maintainer: memprobe <memprobe@localhost>
Depends: libc6, libsqlite3-0
Section: utils
Priority: optional
Description: measure a machine's memory hierarchy
 The Linux build of memprobe: latency, TLB, bandwidth and core-to-core
 probes, with its man page and bash completion.
endef
export deb_control

.PHONY: deb
deb: $(HOST_APP) $(MAN_PAGE) $(COMPLETION)
	rm -rf $(O)/deb
	$(MAKE) --no-print-directory O=$(O) install DESTDIR=$(abspath $(O)/deb) PREFIX=/usr
	strip $(O)/deb/usr/bin/memprobe
	mkdir -p $(O)/deb/DEBIAN
	printf '%s\n' "$$deb_control" > $(O)/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build $(O)/deb $(DEB)

# ---- Tests -----------------------------------------------------------------

# Unit tests: every tests/unit/test_*.c is one binary, linked with all the
# host-buildable code, under AddressSanitizer and UBSan; a test that
# includes a desk/ header links the desk commands and SQLite too, and no
# other does.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TEST_CFLAGS := $(HOST_CFLAGS) -O1 $(SAN) -Itests/unit
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(TEST_OUT)/%)
TEST_LIB_OBJ := $(HOST_LIB_SRC:%.c=$(TEST_OUT)/obj/%.o) $(EFI_ASM:%.S=$(TEST_OUT)/obj/%.o) \
	$(TEST_OUT)/obj/buildinfo.o
TEST_DESK_OBJ := $(DESK_LIB_SRC:%.c=$(TEST_OUT)/obj/%.o)
DESK_UNIT_BIN := $(patsubst tests/unit/%.c,$(TEST_OUT)/%,$(shell grep -l '^\#include "desk/' $(UNIT_SRC)))
$(DESK_UNIT_BIN): TEST_DESK = $(TEST_DESK_OBJ) $(DESK_LIBS)
$(DESK_UNIT_BIN): $(TEST_DESK_OBJ)

$(TEST_OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  TESTCC  $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(TEST_OUT)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(HOST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(TEST_OUT)/obj/buildinfo.o: $(EFI_OUT)/buildinfo.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TEST_CFLAGS) $(call flags_text,$(TEST_CFLAGS)) -c $< -o $@

$(TEST_OUT)/test_%: tests/unit/test_%.c $(TEST_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  TESTLD  $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(DEPFLAGS) $< $(TEST_DESK) $(TEST_LIB_OBJ) $(HOST_LIBS) -o $@

# The Linux app itself under the same sanitizers, from the same objects:
# tests/sanitize.sh runs it (a short run, analyze, compare, a stop by
# SIGINT) and fails on any report.
SAN_APP := $(TEST_OUT)/memprobe-san

$(SAN_APP): desk/main.c host/main.c $(TEST_DESK_OBJ) $(TEST_LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  TESTLD  $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(DEPFLAGS) desk/main.c host/main.c $(TEST_DESK_OBJ) $(TEST_LIB_OBJ) \
		$(DESK_LIBS) $(HOST_LIBS) -o $@

unit: $(UNIT_BIN) $(SAN_APP)

.PHONY: sanitize
sanitize: $(SAN_APP)
	$(Q)O=$(O) tests/sanitize.sh

deps:
	$(Q)ARCH=$(ARCH) O=$(O) scripts/deps.sh

# Everything that runs a tool waits for deps, so that a fresh machine gets
# its packages before the first compile, with -j too: deps is phony, so make
# runs it once per invocation, and order-only (|), so it never makes a
# built file out of date.
$(EFI_OBJ) $(HOST_OBJ) $(TEST_LIB_OBJ) $(TEST_DESK_OBJ) $(UNIT_BIN) $(SAN_APP) $(EFI_IMG): | deps
$(EFI_OBJ) $(HOST_OBJ) $(TEST_LIB_OBJ) $(TEST_DESK_OBJ) $(UNIT_BIN) $(SAN_APP): | $(PROBE_REGISTRY)

# `make run` is the quick functional run unless APP_ARGS names a profile;
# the image itself (for hardware) defaults to the full profile.
RUN_ARGS = $(if $(findstring profile=,$(APP_ARGS)),$(APP_ARGS),profile=quick $(APP_ARGS))

# SECURE_BOOT=snakeoil|ms boots firmware with those keys enrolled and Secure
# Boot enforced, and the image signed with KEY (snakeoil by default), the
# shim image with SHIM=1, or the unsigned one with UNSIGNED=1.
RUN_IMG = $(if $(UNSIGNED),$(EFI_IMG),$(if $(SHIM),$(SHIM_IMG),$(if $(SECURE_BOOT),$(SIGNED_IMG),$(EFI_IMG))))

run: deps image $(RUN_IMG)
	$(Q)scripts/qemu-run.sh --image $(RUN_IMG) --out "$(or $(OUT),runs)" \
		--firmware $(or $(SECURE_BOOT),plain) \
		--cpu "$(QEMU_CPU)" --mem "$(or $(QEMU_MEM),1G)" --args "$(strip $(RUN_ARGS))" \
		$(if $(QEMU_SMP),--smp "$(QEMU_SMP)") --numa "$(or $(QEMU_NUMA),1)" \
		$(if $(filter-out x86_64,$(ARCH)),--arch $(ARCH)) \
		$(if $(NMI_EVERY_S),--nmi-every "$(NMI_EVERY_S)")

# The fleet demo (docs/BUILD.md, "The fleet demo"): the app netbooted by N
# guests one after another, each uploading to nginx on the loopback, then
# `memprobe fleet` over what arrived. x86-64 guests only.
MACHINES ?= 3
.PHONY: fleet-demo
fleet-demo: deps efi host
	$(Q)O=$(O) scripts/deps.sh fleet
	$(Q)O=$(O) scripts/fleet-demo.sh --machines "$(MACHINES)" --out "$(OUT)" \
		$(if $(GUESTS),--guests "$(GUESTS)")

# JOBS: how many compiles, then how many test suites, `make test` runs at
# once (default: the CPU count; tests/run says how suites share them).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)

test: deps
	$(Q)O=$(O) scripts/deps.sh test
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) test-build
	$(Q)O=$(O) JOBS=$(JOBS) tests/run

# Everything the suites boot and run, both architectures' images among it.
# The AArch64 image is a make of its own (ARCH is the whole makefile's),
# sharing this one's job slots; the registry it shares is made first.
.PHONY: test-build aarch64-image
test-build: image host unit aarch64-image
aarch64-image: $(PROBE_REGISTRY) | deps
	$(Q)$(MAKE) --no-print-directory ARCH=aarch64 image

fuzz: deps
	$(Q)O=$(O) FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600) tests/fuzz/run

clean:
	rm -rf $(O) runs

FORCE:

# The test objects are prerequisites of a pattern rule only, which makes
# them intermediate files: keep them, or every test run rebuilds them all.
.SECONDARY: $(TEST_LIB_OBJ) $(TEST_DESK_OBJ)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
