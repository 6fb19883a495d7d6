# Helpers for in-guest tests (source it). kselftest exit codes.
KSFT_PASS=0 KSFT_FAIL=1 KSFT_SKIP=4
fail() { echo "FAIL: $*"; exit $KSFT_FAIL; }
skip() { echo "SKIP: $*"; exit $KSFT_SKIP; }
note() { echo "$*"; }
# Declare a kernel message the test triggers on purpose, so the runner's
# log scan does not count it as a splat (one extended regex per call).
expect_message() { echo "$1" >> "$WQ61_RESULTS/expected-messages"; }
mod() { echo "$WQ61_MODULES/$1.ko"; }
