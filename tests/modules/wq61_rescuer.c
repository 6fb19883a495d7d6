// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_rescuer: WQ_MEM_RECLAIM workqueues, created on load.
 *
 *   wq61r     unbound, WQ_SYSFS: tests/guest/39-rescuer-affinity.sh reads
 *             the allowed CPUs of its rescuer (a kthread of the same name;
 *             mainline: "kworker/R-wq61r") while it changes the
 *             workqueue's cpumask and the global one.
 *   wq61r_pc  per-cpu: tests/guest/41-rescue-stats.sh drives the rescuer
 *             and concurrency management through the ctl file below and
 *             compares the pwq counters (mayday, rescued, cm_wakeup) with
 *             what this module saw.
 *
 * Commands, written to /sys/kernel/debug/wq61_rescuer/ctl (result: read it):
 *
 *   rescue CPU N   N items queued with queue_work_on(CPU) on wq61r_pc, each
 *                  waiting for a release; with the test keeping kthreadd
 *                  off the CPU, the pool cannot create the workers it needs
 *                  and its mayday timer calls the rescuer. The release
 *                  comes once the rescuer ran an item (at most 30 s).
 *                  Result: "items=N rescued=R": R items ran in the rescuer.
 *   cmw CPU N      N rounds: an item queued on CPU queues a second one
 *                  behind it and then sleeps 5 ms; its sleep leaves the
 *                  pool without a running worker while the second item
 *                  waits, so concurrency management wakes an idle worker
 *                  for it, once per round. Result: "rounds=N".
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>

#include "wq61_ctl.h"

static struct workqueue_struct *wq, *wq_pc;
static struct dentry *dir;

struct rescue_item {
	struct work_struct work;
	struct completion *release;
	atomic_t *rescued, *remaining;
	struct completion *done;
	struct completion *first_rescued;
};

/*
 * current_is_workqueue_rescuer() is not exported. Workers are called
 * "kworker/..."; a rescuer has its workqueue's name, or (mainline 6.9+)
 * "kworker/R-" and the name.
 */
static bool is_rescuer(void)
{
	return strncmp(current->comm, "kworker/", 8) ||
	       !strncmp(current->comm, "kworker/R-", 10);
}

static void rescue_fn(struct work_struct *work)
{
	struct rescue_item *it = container_of(work, struct rescue_item, work);

	if (is_rescuer()) {
		atomic_inc(it->rescued);
		complete(it->first_rescued);
	}
	wait_for_completion(it->release);
	if (atomic_dec_and_test(it->remaining))
		complete(it->done);
}

static int do_rescue(unsigned int cpu, unsigned int n)
{
	DECLARE_COMPLETION_ONSTACK(release);
	DECLARE_COMPLETION_ONSTACK(done);
	DECLARE_COMPLETION_ONSTACK(first_rescued);
	atomic_t rescued = ATOMIC_INIT(0), remaining = ATOMIC_INIT(n);
	struct rescue_item *items;
	unsigned int i;

	items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		items[i].release = &release;
		items[i].rescued = &rescued;
		items[i].remaining = &remaining;
		items[i].done = &done;
		items[i].first_rescued = &first_rescued;
		INIT_WORK(&items[i].work, rescue_fn);
		queue_work_on(cpu, wq_pc, &items[i].work);
	}
	/* a bound for a kernel whose rescuer never comes, not a timing */
	wait_for_completion_timeout(&first_rescued, 30 * HZ);
	complete_all(&release);
	wait_for_completion(&done);
	/* the items' own completions, not flush_workqueue(): see wq61_affinity */
	kfree(items);
	scnprintf(result, sizeof(result), "items=%u rescued=%d\n", n,
		  atomic_read(&rescued));
	return 0;
}

struct cmw_item {
	struct work_struct work, second;
	unsigned int cpu;
	struct completion fin, fin2;
};

static void cmw_second_fn(struct work_struct *work)
{
	complete(&container_of(work, struct cmw_item, second)->fin2);
}

static void cmw_fn(struct work_struct *work)
{
	struct cmw_item *it = container_of(work, struct cmw_item, work);

	/* queued while this worker runs: nobody is woken for it yet */
	queue_work_on(it->cpu, wq_pc, &it->second);
	msleep(5);
	complete(&it->fin);
}

static int do_cmw(unsigned int cpu, unsigned int n)
{
	struct cmw_item it = { .cpu = cpu };
	unsigned int i;

	for (i = 0; i < n; i++) {
		init_completion(&it.fin);
		init_completion(&it.fin2);
		INIT_WORK_ONSTACK(&it.work, cmw_fn);
		INIT_WORK_ONSTACK(&it.second, cmw_second_fn);
		queue_work_on(cpu, wq_pc, &it.work);
		wait_for_completion(&it.fin);
		wait_for_completion(&it.fin2);
		/* the workers may still be leaving the functions */
		flush_work(&it.work);
		flush_work(&it.second);
		destroy_work_on_stack(&it.work);
		destroy_work_on_stack(&it.second);
	}
	scnprintf(result, sizeof(result), "rounds=%u\n", n);
	return 0;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (n != 2 || a >= nr_cpu_ids || !cpu_online(a))
		return -EINVAL;
	if (!strcmp(cmd, "rescue") && b > 0 && b <= 1024)
		return do_rescue(a, b);
	if (!strcmp(cmd, "cmw") && b > 0 && b <= 1000)
		return do_cmw(a, b);
	return -EINVAL;
}

static int __init wq61_rescuer_init(void)
{
	wq = alloc_workqueue("wq61r", WQ_UNBOUND | WQ_SYSFS | WQ_MEM_RECLAIM, 0);
	wq_pc = alloc_workqueue("wq61r_pc", WQ_MEM_RECLAIM, 0);
	if (!wq || !wq_pc) {
		if (wq)
			destroy_workqueue(wq);
		if (wq_pc)
			destroy_workqueue(wq_pc);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("wq61_rescuer", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit wq61_rescuer_exit(void)
{
	debugfs_remove_recursive(dir);
	destroy_workqueue(wq);
	destroy_workqueue(wq_pc);
}

module_init(wq61_rescuer_init);
module_exit(wq61_rescuer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: WQ_MEM_RECLAIM workqueues, for the rescuer tests");
