# wq61: the 2023 workqueue improvements for Debian 12's Linux 6.1.
# Entry points; the work is done by scripts/ (see README.md).
# Kernel trees, builds, ccache and run logs live in $(WQ61_CACHE)
# (default ~/.cache/wq61), never in the checkout.

PRESET ?= big
FLAVOUR ?= patched
APPEND ?=
S := scripts

.PHONY: help deps prepare apply build build-baseline modules run shell check check-sanitizers check-naive \
	check-baseline check-series deb check-deb bench bench-crypt bench-locality bench-storm boot-loop torture test export import clean-runs

## make help     this list
help:
	@sed -n 's/^## make /  make /p' $(firstword $(MAKEFILE_LIST))

deps:
	@$(S)/build/deps.sh

prepare: deps
	@$(S)/tree/prepare-tree.sh

apply: prepare
	@$(S)/tree/apply-series.sh

## make build    build FLAVOUR (patched) and its test modules (build-baseline: 6.1)
build: deps
	@$(S)/build/build.sh $(FLAVOUR)
	@$(S)/build/build-modules.sh $(FLAVOUR)

build-baseline: deps
	@$(S)/build/build.sh baseline
	@$(S)/build/build-modules.sh baseline

## make run      build the patched kernel, boot it (PRESET=big) and show it working
run: build
	@$(S)/guest/vm.py -f $(FLAVOUR) -p $(PRESET) -a "$(APPEND)" -- $(CURDIR)/scripts/guest/demo.sh

## make shell    interactive shell in the guest (exit to power off)
shell: build
	@$(S)/guest/vm.py -f $(FLAVOUR) -p $(PRESET) -a "$(APPEND)" -i

## make check    build if needed, boot, run every test; "N passed, N failed, N lost, N skipped"
check:
	@$(S)/check/check.sh $(FLAVOUR)

check-baseline:
	@$(S)/check/check.sh baseline

## make test     T='22-* 25-*': only these in-guest tests (globs of tests/guest/) on
##                  FLAVOUR/PRESET; the run dir it names holds output, console.log, scan.txt
T ?= *
test: build
	@$(S)/guest/vm.py -f $(FLAVOUR) -p $(PRESET) -a "$(APPEND)" -t 3600 -- $(CURDIR)/tests/run-in-guest.sh "$(T)"

## make check-sanitizers  patched kernel with KASAN+UBSAN+kmemleak, then KCSAN:
##                  whole in-guest suite each; no report may involve workqueue code
check-sanitizers: deps
	@$(S)/check/check-sanitizers.sh

## make check-naive  mainline's bugs put back one at a time (tests/naive/): each
##                  must make the test meant to catch it fail
check-naive: deps
	@$(S)/check/check-naive.sh $(CASES)

## make check-series  git am + quilt --fuzz=0, checkpatch --strict, bisectable
check-series: deps
	@$(S)/check/check-series.sh

## make deb      Debian packages (bindeb-pkg) of Debian's 6.1 + the series with Debian's
##                  config, in ~/.cache/wq61/deb-full/; DEB_CONFIG=lean: only the modules
##                  a QEMU guest needs (deb-lean/)
deb: deps
	@DEB_CONFIG=$(or $(DEB_CONFIG),full) $(S)/build/build-deb.sh

## make check-deb  the packages unpacked (never installed), their kernel booted in QEMU,
##                  the in-guest suite run on it (DEB_CONFIG=lean by default)
check-deb: deps
	@DEB_CONFIG=$(or $(DEB_CONFIG),lean) $(S)/check/check-deb.sh

## make bench    baseline, patched, mainline: wall clock and instruction counts, affinity
##                  scopes, the kworker storm, dm-crypt reads, locality run after run;
##                  bench/results/
bench: deps
	@bench/bench.sh

## make bench-crypt  dm-crypt reads with fio on vm16 (issue 25 section 2), baseline,
##                  patched, mainline; bench/results/crypt.md
bench-crypt: deps
	@bench/bench-crypt.sh

## make bench-locality  non-strict cache locality, 5 runs on big, idle host and loaded
##                  (issue 25 section 3), baseline, patched, mainline; bench/results/locality.md
bench-locality: deps
	@bench/bench-locality.sh

## make bench-storm  the kworker storm (issue 24) on baseline, patched, mainline;
##                  bench/results/storm.md
bench-storm: deps
	@bench/bench-storm.sh

## make boot-loop  N boots (N=100, P=2 at a time) of FLAVOUR/PRESET: lost boots
N ?= 100
P ?= 2
boot-loop: deps
	@$(S)/check/boot-loop.sh $(FLAVOUR) $(N) $(P) $(PRESET)

## make torture  DURATION=seconds (600) of tests/guest/31-torture.sh on FLAVOUR/PRESET
DURATION ?= 600
THREADS ?= 4
torture: build
	@$(S)/guest/vm.py -f $(FLAVOUR) -p $(PRESET) -a "$(APPEND)" -t $$(( $(DURATION) + 900 )) \
		-e WQ61_TORTURE_DURATION=$(DURATION) -e WQ61_TORTURE_THREADS=$(THREADS) \
		-e WQ61_TEST_TIMEOUT=$$(( $(DURATION) + 600 )) \
		-- $(CURDIR)/tests/run-in-guest.sh '31-*'

## make export   kernel tree commits (base..wq61) -> patches/
export:
	@$(S)/tree/export-series.sh

## make import   patches/ -> kernel tree branch wq61 (git am)
import: prepare
	@$(S)/tree/apply-series.sh

clean-runs:
	rm -rf $${WQ61_CACHE:-$$HOME/.cache/wq61}/runs
