// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_rescuer: an unbound WQ_MEM_RECLAIM workqueue with WQ_SYSFS,
 * "wq61r", created on load, for tests/guest/39-rescuer-affinity.sh:
 * its rescuer is a kthread of the same name (mainline: "kworker/R-wq61r"),
 * whose allowed CPUs the test reads from /proc while it changes the
 * workqueue's cpumask and the global one. Nothing else.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static struct workqueue_struct *wq;

static int __init wq61_rescuer_init(void)
{
	wq = alloc_workqueue("wq61r", WQ_UNBOUND | WQ_SYSFS | WQ_MEM_RECLAIM, 0);
	return wq ? 0 : -ENOMEM;
}

static void __exit wq61_rescuer_exit(void)
{
	destroy_workqueue(wq);
}

module_init(wq61_rescuer_init);
module_exit(wq61_rescuer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: an unbound WQ_MEM_RECLAIM workqueue, for the rescuer affinity test");
