#!/bin/bash
# Developer loop, repo -> kernel: reset branch wq61 of the kernel tree to
# base (pristine + fixups/) + patches/series (git am). Refuses to drop unexported commits
# unless WQ61_FORCE_IMPORT=1.
. "$(dirname "$0")/common.sh"
exec "$WQ61_TOP/scripts/apply-series.sh"
