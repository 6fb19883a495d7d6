#!/bin/bash
# run-wq-dump.sh OUT [ARGS...]: the flavour's tools/workqueue/wq_dump.py,
# its stdout into OUT, its stderr to ours; exit status: its own.
# Mainline's wants drgn >= 0.0.23 for its last section (for_each_node()
# without prog): there it runs through wq_pods.py's shim. wq61's must run
# under Debian's drgn 0.0.22 as it is.
out=$1
shift
dump=$WQ61_SRC/tools/workqueue/wq_dump.py
if [ "$WQ61_FAMILY" = mainline ] && [ $# -eq 0 ]; then
	exec drgn -q -k -s "$WQ61_VMLINUX" "$(dirname "$0")/wq_pods.py" run-wq-dump "$dump" "$out"
fi
exec drgn -q -k -s "$WQ61_VMLINUX" "$dump" "$@" > "$out"
