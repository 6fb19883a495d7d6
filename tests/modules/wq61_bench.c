// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_bench: queue-and-execute cost of a trivial work item.
 *
 * Each run queues @items trivial work items back to back on a per-cpu
 * workqueue (on the current CPU) or on an unbound workqueue, then flushes
 * it; the elapsed time divided by @items is the run's ns/item. Results are
 * printed as "wq61_bench: mode=M run=R items=N ns_per_item=X".
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <linux/ktime.h>

static char *mode = "percpu";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "percpu or unbound");
static int items = 10000;
module_param(items, int, 0444);
MODULE_PARM_DESC(items, "work items per run");
static int runs = 5;
module_param(runs, int, 0444);
MODULE_PARM_DESC(runs, "number of runs");

static atomic_t executed;

struct loop_work {
	struct work_struct work;
	u64 ms;
	u64 iters;
	u32 sink;
};

static void loop_fn(struct work_struct *work)
{
	struct loop_work *lw = container_of(work, struct loop_work, work);
	u64 end = ktime_get_ns() + lw->ms * NSEC_PER_MSEC;
	u32 x = 2463534242U;
	u64 n = 0;

	/* xorshift32 in batches of 1024 between clock reads */
	do {
		int i;

		for (i = 0; i < 1024; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
		}
		n += 1024;
		cond_resched();
	} while (ktime_get_ns() < end);
	lw->iters = n;
	lw->sink = x;
}

static int run_loop(void)
{
	struct loop_work lw = { .ms = items };
	int r;

	for (r = 0; r < runs; r++) {
		INIT_WORK_ONSTACK(&lw.work, loop_fn);
		queue_work_on(1, system_wq, &lw.work);
		flush_work(&lw.work);
		destroy_work_on_stack(&lw.work);
		pr_info("wq61_bench: mode=loop run=%d ms=%d iters_per_ms=%llu\n",
			r, items, div64_u64(lw.iters, lw.ms));
	}
	return 0;
}

static void bench_fn(struct work_struct *work)
{
	atomic_inc(&executed);
}

static int __init wq61_bench_init(void)
{
	struct workqueue_struct *wq;
	struct work_struct *works;
	bool unbound;
	int r, i, ret = 0;

	if (items <= 0 || runs <= 0)
		return -EINVAL;
	if (!strcmp(mode, "loop"))
		return cpu_online(1) ? run_loop() : -EINVAL;
	if (!strcmp(mode, "unbound"))
		unbound = true;
	else if (!strcmp(mode, "percpu"))
		unbound = false;
	else
		return -EINVAL;

	works = kvcalloc(items, sizeof(*works), GFP_KERNEL);
	if (!works)
		return -ENOMEM;
	wq = alloc_workqueue("wq61_bench", unbound ? WQ_UNBOUND : 0, 0);
	if (!wq) {
		kvfree(works);
		return -ENOMEM;
	}
	for (i = 0; i < items; i++)
		INIT_WORK(&works[i], bench_fn);

	for (r = 0; r < runs; r++) {
		u64 t0, dt;

		atomic_set(&executed, 0);
		t0 = ktime_get_ns();
		for (i = 0; i < items; i++)
			queue_work(wq, &works[i]);
		flush_workqueue(wq);
		dt = ktime_get_ns() - t0;
		if (atomic_read(&executed) != items) {
			pr_err("wq61_bench: run %d executed %d of %d items\n",
			       r, atomic_read(&executed), items);
			ret = -EIO;
			break;
		}
		pr_info("wq61_bench: mode=%s run=%d items=%d ns_per_item=%llu\n",
			mode, r, items, div_u64(dt, items));
		cond_resched();
	}
	destroy_workqueue(wq);
	kvfree(works);
	return ret;
}

static void __exit wq61_bench_exit(void)
{
}

module_init(wq61_bench_init);
module_exit(wq61_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61 benchmark: queue-and-execute cost of trivial work items");
