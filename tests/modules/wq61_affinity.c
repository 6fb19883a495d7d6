// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_affinity: where unbound work items start, and how many of them run
 * at once, for the affinity-scope tests (tests/guest/2[0-3]-*.sh).
 *
 * Two unbound workqueues with WQ_SYSFS, so that the tests configure them
 * through /sys/devices/virtual/workqueue/NAME/ (affinity_scope,
 * affinity_strict) the way an administrator would; apply_workqueue_attrs()
 * is not exported to modules, neither in 6.1 nor in 6.12:
 *
 *   wq61_affn      max_active default; for "start"
 *   wq61_affn_ma   max_active 2; for "maxact"
 *
 * Commands are written to /sys/kernel/debug/wq61_affinity/ctl and run
 * synchronously; reading ctl returns the result of the last command.
 *
 *   start CPU N SPIN_US   a kthread bound to CPU queues N items on wq61_affn
 *                         with queue_work() (no CPU given: the issuing CPU
 *                         picks the pool); each item notes the CPU it starts
 *                         on, then spins SPIN_US. Result: "items=N issuer=CPU
 *                         hist=C0,C1,...": how many items started on each
 *                         possible CPU (nr_cpu_ids entries).
 *   startw CPU N SPIN_US  the same, but the kthread waits for each item to
 *                         finish before it queues the next,
 *                         so every item finds an idle pool and an idle CPU
 *   maxact N SLEEP_MS     N items queued round robin on every online CPU
 *                         (queue_work_on(), which selects the pool_workqueue
 *                         of that CPU, as queueing from it does) on
 *                         wq61_affn_ma; each sleeps SLEEP_MS. Result:
 *                         "items=N peak=P": the most items that were inside
 *                         their work function at the same time.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/atomic.h>
#include <linux/sched.h>

#include "wq61_ctl.h"


static struct workqueue_struct *wq_loc, *wq_ma;
static struct dentry *dir;

struct affn_item {
	struct work_struct work;
	int start_cpu;
	u64 spin_ns;
	unsigned int sleep_ms;
	atomic_t *remaining;
	struct completion *done;
	struct completion fin;	/* this item is done (startw) */
};

/* maxact: items inside their function now, and the most seen */
static atomic_t ma_running, ma_peak;

static void item_done(struct affn_item *it)
{
	if (atomic_dec_and_test(it->remaining))
		complete(it->done);
}

static void start_fn(struct work_struct *work)
{
	struct affn_item *it = container_of(work, struct affn_item, work);
	u64 t0;

	/* First thing: the CPU the worker runs on when the item starts. */
	it->start_cpu = raw_smp_processor_id();
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < it->spin_ns)
		cpu_relax();
	complete(&it->fin);
	item_done(it);
}

static void maxact_fn(struct work_struct *work)
{
	struct affn_item *it = container_of(work, struct affn_item, work);
	int now = atomic_inc_return(&ma_running);
	int peak = atomic_read(&ma_peak);

	while (now > peak) {
		int old = atomic_cmpxchg(&ma_peak, peak, now);

		if (old == peak)
			break;
		peak = old;
	}
	msleep(it->sleep_ms);
	atomic_dec(&ma_running);
	item_done(it);
}

struct issuer {
	struct affn_item *items;
	unsigned int n;
	bool serial;		/* wait for each item before the next */
	struct completion queued;
};

static int issuer_fn(void *data)
{
	struct issuer *is = data;
	unsigned int i;

	for (i = 0; i < is->n; i++) {
		queue_work(wq_loc, &is->items[i].work);
		/*
		 * Not flush_work(): its barrier is a work item of the same
		 * pwq, which the pwq's counters would count too.
		 */
		if (is->serial)
			wait_for_completion(&is->items[i].fin);
	}
	complete(&is->queued);
	return 0;
}

static int do_start(int cpu, unsigned int n, unsigned int spin_us, bool serial)
{
	DECLARE_COMPLETION_ONSTACK(done);
	atomic_t remaining = ATOMIC_INIT(n);
	struct issuer is = { .n = n, .serial = serial };
	struct task_struct *t;
	unsigned int i, *hist;
	size_t len;
	int c;

	is.items = kcalloc(n, sizeof(*is.items), GFP_KERNEL);
	hist = kcalloc(nr_cpu_ids, sizeof(*hist), GFP_KERNEL);
	if (!is.items || !hist) {
		kfree(is.items);
		kfree(hist);
		return -ENOMEM;
	}
	init_completion(&is.queued);
	for (i = 0; i < n; i++) {
		is.items[i].start_cpu = -1;
		is.items[i].spin_ns = (u64)spin_us * NSEC_PER_USEC;
		is.items[i].remaining = &remaining;
		is.items[i].done = &done;
		init_completion(&is.items[i].fin);
		INIT_WORK(&is.items[i].work, start_fn);
	}
	t = kthread_create(issuer_fn, &is, "wq61_affn_issuer/%d", cpu);
	if (IS_ERR(t)) {
		kfree(is.items);
		kfree(hist);
		return PTR_ERR(t);
	}
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&is.queued);
	wait_for_completion(&done);
	flush_workqueue(wq_loc);

	for (i = 0; i < n; i++)
		if (is.items[i].start_cpu >= 0 && is.items[i].start_cpu < nr_cpu_ids)
			hist[is.items[i].start_cpu]++;
	len = scnprintf(result, sizeof(result), "items=%u issuer=%d hist=", n, cpu);
	for (c = 0; c < nr_cpu_ids; c++)
		len += scnprintf(result + len, sizeof(result) - len, "%s%u",
				 c ? "," : "", hist[c]);
	scnprintf(result + len, sizeof(result) - len, "\n");
	kfree(is.items);
	kfree(hist);
	return 0;
}

static int do_maxact(unsigned int n, unsigned int sleep_ms)
{
	DECLARE_COMPLETION_ONSTACK(done);
	atomic_t remaining = ATOMIC_INIT(n);
	struct affn_item *items;
	unsigned int i;
	int cpu = -1;

	items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	atomic_set(&ma_running, 0);
	atomic_set(&ma_peak, 0);
	for (i = 0; i < n; i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		items[i].sleep_ms = sleep_ms;
		items[i].remaining = &remaining;
		items[i].done = &done;
		INIT_WORK(&items[i].work, maxact_fn);
		queue_work_on(cpu, wq_ma, &items[i].work);
	}
	wait_for_completion(&done);
	flush_workqueue(wq_ma);
	kfree(items);
	scnprintf(result, sizeof(result), "items=%u peak=%d\n", n,
		  atomic_read(&ma_peak));
	return 0;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (!strcmp(cmd, "start") && n == 3 && a < nr_cpu_ids && cpu_online(a) &&
	    b > 0 && b <= 4096 && c <= 100000)
		return do_start(a, b, c, false);
	if (!strcmp(cmd, "startw") && n == 3 && a < nr_cpu_ids && cpu_online(a) &&
	    b > 0 && b <= 4096 && c <= 100000)
		return do_start(a, b, c, true);
	if (!strcmp(cmd, "maxact") && n == 2 && a > 0 && a <= 4096 && b <= 10000)
		return do_maxact(a, b);
	return -EINVAL;
}

static int __init wq61_affinity_init(void)
{
	wq_loc = alloc_workqueue("wq61_affn", WQ_UNBOUND | WQ_SYSFS, 0);
	wq_ma = alloc_workqueue("wq61_affn_ma", WQ_UNBOUND | WQ_SYSFS, 2);
	if (!wq_loc || !wq_ma) {
		if (wq_loc)
			destroy_workqueue(wq_loc);
		if (wq_ma)
			destroy_workqueue(wq_ma);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("wq61_affinity", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit wq61_affinity_exit(void)
{
	debugfs_remove_recursive(dir);
	destroy_workqueue(wq_loc);
	destroy_workqueue(wq_ma);
}

module_init(wq61_affinity_init);
module_exit(wq61_affinity_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: start CPUs and concurrency of unbound work items, for the affinity-scope tests");
