# wpad — plain GNU Makefile.
#
#   make                 build wpad, wpactl and the tools (hardened, -Werror)
#   make check           build and run every test (unit, fuzz smoke, integration)
#   make check SAN=1     the same suite under ASan+UBSan (objects in build-san/)
#   make check-all       both of the above, always both, then both summaries: CI
#   make fuzz            build the libFuzzer targets (clang) into build-fuzz/
#   make demo            build and run the simulated-radio demo, with its
#                        D-Bus API on a private bus (scripts/demo.sh)
#   make bench           build and run the benchmarks (bench/run.sh): tables
#   make install DESTDIR=... PREFIX=...
#
# Sources are found by directory, so adding a .c file needs no Makefile edit:
# every .c under daemon/ drivers/ eap/ dbus/ goes into the core library except
# the files named *main.c, which are programs.

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
SAN ?= 0
V ?= 0

CC ?= cc
FUZZ_CC ?= clang
PKG_CONFIG ?= pkg-config

ifeq ($(SAN),1)
BUILD := build-san
else
BUILD := build
endif
FUZZ_BUILD := build-fuzz

ifeq ($(V),0)
Q := @
else
Q :=
endif

PKGS := openssl libnl-3.0 libnl-genl-3.0 dbus-1
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)
# Test files define suites and fixtures without headers of their own.
TEST_CFLAGS = $(CHECK_CFLAGS) -Wno-missing-prototypes

WARNINGS := -Wall -Wextra -Werror -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -Wvla -Wpointer-arith
BASE_CFLAGS := -std=gnu11 -g -I. $(WARNINGS) $(PKG_CFLAGS) -MMD -MP
ifeq ($(SAN),1)
MODE_CFLAGS := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
MODE_LDFLAGS := -fsanitize=address,undefined
else
MODE_CFLAGS := -O2 -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
MODE_LDFLAGS := -pie -Wl,-z,relro,-z,now
endif
ALL_CFLAGS := $(BASE_CFLAGS) $(MODE_CFLAGS) $(CFLAGS)
# --as-needed: each program loads only the libraries it uses (wpactl needs
# no libcrypto or libnl), which shortens its start and its memory.
ALL_LDFLAGS := $(MODE_LDFLAGS) -Wl,--as-needed $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm

LIB_DIRS := daemon daemon/* drivers drivers/* eap eap/* dbus
LIB_SRCS := $(filter-out %main.c,$(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS)))))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CORE_LIB := $(BUILD)/libwpad.a

WPAD_SRCS := daemon/main.c
WPACTL_SRCS := $(sort $(wildcard wpactl/*.c))
# Not $(BUILD)/wpactl/*.o: $(BUILD)/wpactl is the program itself.
WPACTL_OBJS := $(WPACTL_SRCS:wpactl/%.c=$(BUILD)/wpactl-objs/%.o)
MEDIUM_SRCS := $(wildcard drivers/sim/medium-main.c)
PROGRAMS := $(BUILD)/wpad $(if $(WPACTL_SRCS),$(BUILD)/wpactl) \
	$(if $(MEDIUM_SRCS),$(BUILD)/wpad-medium)

UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
UNIT_BIN := $(BUILD)/tests/unit-tests
SUITES_H := $(BUILD)/gen/suites.h

# Integration test programs: tests/integration/*.c, one program each.
ITEST_SRCS := $(sort $(wildcard tests/integration/*.c))
ITEST_BINS := $(ITEST_SRCS:tests/integration/%.c=$(BUILD)/tests/integration/%)
TEST_SUPPORT_SRCS := $(sort $(wildcard tests/support/*.c))
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(BUILD)/%.o)

# The driver conformance suite: one program, any backend (tests/driver/).
CONF_SRCS := $(sort $(wildcard tests/driver/*.c))
CONF_OBJS := $(CONF_SRCS:%.c=$(BUILD)/%.o)
CONF_BIN := $(if $(CONF_SRCS),$(BUILD)/tests/driver-conformance)

FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -I. $(WARNINGS) $(PKG_CFLAGS) -MMD -MP \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined

# The hwsim VM suite (tests/hwsim/, see its README): a helper for
# mac80211_hwsim's generic netlink, run inside the VM.
HWSIM_CTL := $(BUILD)/tests/hwsim-ctl

.SECONDARY:
.PHONY: all check check-all check-hwsim fuzz demo bench bench-hwsim bench-hwsim-bridge bench-hwsim-light bench-hwsim-sae install install-nm clean unit-tests
all: $(PROGRAMS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(CORE_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/wpad: $(WPAD_SRCS:%.c=$(BUILD)/%.o) $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/wpactl-objs/%.o: wpactl/%.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/wpactl: $(WPACTL_OBJS) $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/wpad-medium: $(MEDIUM_SRCS:%.c=$(BUILD)/%.o) $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The unit-test runner learns its suites from the test files themselves:
# every "Suite *make_NAME_suite(void)" definition becomes one entry.
$(SUITES_H): $(UNIT_SRCS)
	@mkdir -p $(dir $@)
	$(Q)grep -ho '^Suite \*make_[a-z0-9_]*_suite(void)' $(UNIT_SRCS) | \
		sed 's/^Suite \*make_\([a-z0-9_]*\)_suite(void)/SUITE(\1)/' > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/unit/runner.o: $(SUITES_H)
$(BUILD)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -I$(BUILD)/gen -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

$(BUILD)/tests/integration/%: $(BUILD)/tests/integration/%.o $(TEST_SUPPORT_OBJS) $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

$(BUILD)/tests/integration/%.o: tests/integration/%.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

unit-tests: $(UNIT_BIN)

$(BUILD)/tests/driver/%.o: tests/driver/%.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/driver-conformance: $(CONF_OBJS) $(TEST_SUPPORT_OBJS) $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LIBS)

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/libwpad.a: $(FUZZ_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libwpad.a
	@$(if $(filter 0,$(V)),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS)

fuzz: $(FUZZ_BINS)

$(HWSIM_CTL): tests/hwsim/hwsim-ctl.c
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(V)),echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBS)

check: all $(UNIT_BIN) $(CONF_BIN) $(ITEST_BINS) $(HWSIM_CTL) fuzz
	$(Q)tests/run-checks.sh $(BUILD) $(FUZZ_BUILD)

# Only the VM suite (one VM boot); SCENARIOS="a b" runs some of them.
check-hwsim: all $(CONF_BIN) $(HWSIM_CTL)
	$(Q)tests/hwsim/vm.sh --build $(BUILD) $(SCENARIOS)

# Both passes always run (a failure in the first does not stop the second);
# both summaries and a closing total come last (tests/check-all.sh).
check-all:
	$(Q)MAKE="$(MAKE)" tests/check-all.sh

# The demo with its D-Bus API on a private bus of its own (scripts/demo.sh):
# it prints the wpactl and busctl commands to try from a second shell.
demo: all
	$(Q)scripts/demo.sh $(BUILD)

# Benchmarks: bench/*.c programs against the core library, run by bench/run.sh.
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(sort $(wildcard bench/*.c)))
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(CORE_LIB)
	@$(if $(filter 0,$(V)),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

bench: all $(BENCH_BINS)
	$(Q)bench/run.sh $(BUILD)

# wpad, wpa_supplicant and iwd against hostapd in the VM (tests/hwsim).
bench-hwsim: all $(CONF_BIN) $(HWSIM_CTL)
	$(Q)bench/hwsim-connect.sh --build $(BUILD) $(if $(RUNS),--runs $(RUNS))

# wpad's AP against hostapd's in a bridge (issue 17): beacon, connect, memory.
bench-hwsim-bridge: all $(HWSIM_CTL)
	$(Q)bench/hwsim-bridge.sh --build $(BUILD) $(if $(RUNS),--runs $(RUNS))

# How light each daemon is (issue 21; SAE rows: issue 15): wpad, wpa_supplicant,
# iwd as stations and wpad vs hostapd as the AP, CPU/wall/frames/memory/idle.
bench-hwsim-light: all $(HWSIM_CTL)
	$(Q)bench/hwsim-light.sh --build $(BUILD) $(if $(RUNS),--runs $(RUNS)) $(if $(IDLE),--idle $(IDLE)) $(if $(ROWS),--rows "$(ROWS)")

# Its SAE rows alone (issue 15), with the AP side.
bench-hwsim-sae: all $(HWSIM_CTL)
	$(Q)bench/hwsim-light.sh --build $(BUILD) $(if $(RUNS),--runs $(RUNS)) --rows "sta-sae ap"

# D-Bus policy, activation and interfaces, the systemd unit (dbus/, see
# docs/dbus-api.md). The Exec/ExecStart lines get the installed sbin path.
DATADIR ?= $(PREFIX)/share
DOCDIR ?= $(DATADIR)/doc/wpad
DBUS_POLICYDIR ?= $(DATADIR)/dbus-1/system.d
DBUS_SERVICEDIR ?= $(DATADIR)/dbus-1/system-services
DBUS_IFACEDIR ?= $(DATADIR)/dbus-1/interfaces
SYSTEMD_UNITDIR ?= $(PREFIX)/lib/systemd/system
SUBST_DIRS = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g'

# wpactl's bash completion and the man pages (docs/man/).
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR)
	install -m 0755 $(BUILD)/wpad $(DESTDIR)$(SBINDIR)/wpad
	$(if $(WPACTL_SRCS),install -m 0755 $(BUILD)/wpactl $(DESTDIR)$(BINDIR)/wpactl)
	$(if $(MEDIUM_SRCS),install -m 0755 $(BUILD)/wpad-medium $(DESTDIR)$(BINDIR)/wpad-medium)
	install -d $(DESTDIR)$(DBUS_POLICYDIR) $(DESTDIR)$(DBUS_SERVICEDIR) \
		$(DESTDIR)$(DBUS_IFACEDIR) $(DESTDIR)$(SYSTEMD_UNITDIR) $(DESTDIR)$(DOCDIR)
	install -m 0644 dbus/org.wpad1.conf $(DESTDIR)$(DBUS_POLICYDIR)/org.wpad1.conf
	install -m 0644 dbus/org.wpad1.xml $(DESTDIR)$(DBUS_IFACEDIR)/org.wpad1.xml
	$(SUBST_DIRS) dbus/org.wpad1.service >$(DESTDIR)$(DBUS_SERVICEDIR)/org.wpad1.service
	$(SUBST_DIRS) dbus/wpad.service >$(DESTDIR)$(SYSTEMD_UNITDIR)/wpad.service
	chmod 0644 $(DESTDIR)$(DBUS_SERVICEDIR)/org.wpad1.service \
		$(DESTDIR)$(SYSTEMD_UNITDIR)/wpad.service
	install -m 0644 docs/dbus-api.md $(DESTDIR)$(DOCDIR)/dbus-api.md
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 0644 docs/man/wpactl.1 $(DESTDIR)$(MANDIR)/man1/wpactl.1
	install -m 0644 docs/man/wpad.conf.5 $(DESTDIR)$(MANDIR)/man5/wpad.conf.5
	install -m 0644 docs/man/wpad.8 $(DESTDIR)$(MANDIR)/man8/wpad.8
	install -m 0644 wpactl/wpactl.bash-completion $(DESTDIR)$(BASHCOMPDIR)/wpactl

# wpad as NetworkManager's supplicant (docs/nm.md): the activation file and
# bus policy of fi.w1.wpa_supplicant1, in place of wpa_supplicant's.
install-nm: install
	install -m 0644 dbus/wpad-wpa-supplicant.conf $(DESTDIR)$(DBUS_POLICYDIR)/wpad-wpa-supplicant.conf
	$(SUBST_DIRS) dbus/fi.w1.wpa_supplicant1.service \
		>$(DESTDIR)$(DBUS_SERVICEDIR)/fi.w1.wpa_supplicant1.service
	chmod 0644 $(DESTDIR)$(DBUS_SERVICEDIR)/fi.w1.wpa_supplicant1.service

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(BUILD) $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
