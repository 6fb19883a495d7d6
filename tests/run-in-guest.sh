#!/bin/bash
# The in-guest suite: tests/run-tests.sh guest [GLOBS] (what every guest
# command line names).
exec "$(dirname "$0")/run-tests.sh" guest "$@"
