// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_bench: queue-and-execute cost of a trivial work item.
 *
 * Each run queues @items trivial work items back to back on a per-cpu
 * workqueue (on the current CPU) or on an unbound workqueue, then flushes
 * it; the elapsed time divided by @items is the run's ns/item. Results are
 * printed as "wq61_bench: mode=M run=R items=N ns_per_item=X".
 *
 * Under QEMU's -icount shift=0 the guest clock advances by one nanosecond
 * per retired instruction, so the same figures are instruction counts,
 * whatever the host's load. Two modes are meant for that setting:
 *
 *   tick  a per-cpu work item runs a fixed loop (@items * 2^20 xorshift
 *         steps) twice, with interrupts enabled and disabled; the
 *         difference divided by the ticks that fell into the first is
 *         what one scheduler tick costs on a CPU running a kworker
 *         ("wq61_bench: mode=tick run=R ticks=T ns_per_tick=X").
 *   wake  the loading task and a work item hand a token back and forth through
 *         two completions @items times: each round is one wake-up of the
 *         sleeping worker and one of the loading task
 *         ("wq61_bench: mode=wake run=R rounds=N ns_per_round=X").
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/completion.h>
#include <linux/jiffies.h>

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
	u64 cpu_ns;	/* CPU time the scheduler charged the loop's kworker */
	u32 sink;
};

static void loop_fn(struct work_struct *work)
{
	struct loop_work *lw = container_of(work, struct loop_work, work);
	u64 end = ktime_get_ns() + lw->ms * NSEC_PER_MSEC;
	u32 x = 2463534242U;
	u64 n = 0, c0;

	/* sum_exec_runtime is brought up to date when the task is scheduled */
	schedule();
	c0 = current->se.sum_exec_runtime;

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
	schedule();
	lw->cpu_ns = current->se.sum_exec_runtime - c0;
}

static int run_loop(void)
{
	struct loop_work lw = { .ms = items };
	int r;

	for (r = 0; r < runs; r++) {
		INIT_WORK_ONSTACK(&lw.work, loop_fn);
		/* CPU 1 where there is one, away from the loading task */
		queue_work_on(cpu_online(1) ? 1 : 0, system_wq, &lw.work);
		flush_work(&lw.work);
		destroy_work_on_stack(&lw.work);
		/*
		 * Per wall-clock ms and per ms of CPU time the kworker got: a
		 * loss in the first that the second does not show is CPU time
		 * other tasks (work items no longer held back) took, not a
		 * slower loop.
		 */
		pr_info("wq61_bench: mode=loop run=%d ms=%d iters_per_ms=%llu iters_per_cpu_ms=%llu\n",
			r, items, div64_u64(lw.iters, lw.ms),
			div64_u64(lw.iters * NSEC_PER_MSEC, max_t(u64, lw.cpu_ns, 1)));
	}
	return 0;
}

/* tick: the same fixed loop with interrupts on and off */
struct tick_work {
	struct work_struct work;
	u64 ns_on, ns_off;
	unsigned long ticks;
	u32 sink;
};

static noinline u32 fixed_loop(u32 x, u64 steps)
{
	while (steps--) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	return x;
}

static void tick_fn(struct work_struct *work)
{
	struct tick_work *tw = container_of(work, struct tick_work, work);
	u64 steps = (u64)items << 20, t0;
	unsigned long j0;
	u32 x = 2463534242U;

	j0 = jiffies;
	t0 = ktime_get_ns();
	x = fixed_loop(x, steps);
	tw->ns_on = ktime_get_ns() - t0;
	tw->ticks = jiffies - j0;

	local_irq_disable();
	t0 = ktime_get_ns();
	x = fixed_loop(x, steps);
	tw->ns_off = ktime_get_ns() - t0;
	local_irq_enable();
	tw->sink = x;
}

static int run_tick(void)
{
	struct tick_work tw;
	int r;

	for (r = 0; r < runs; r++) {
		INIT_WORK_ONSTACK(&tw.work, tick_fn);
		queue_work_on(raw_smp_processor_id(), system_wq, &tw.work);
		flush_work(&tw.work);
		destroy_work_on_stack(&tw.work);
		if (!tw.ticks || tw.ns_on < tw.ns_off) {
			pr_err("wq61_bench: tick run %d: %lu ticks, on %llu off %llu\n",
			       r, tw.ticks, tw.ns_on, tw.ns_off);
			return -EIO;
		}
		pr_info("wq61_bench: mode=tick run=%d ticks=%lu ns_per_tick=%llu\n",
			r, tw.ticks, div_u64(tw.ns_on - tw.ns_off, tw.ticks));
	}
	return 0;
}

/* wake: ping-pong between the loading task and a work item */
static DECLARE_COMPLETION(ping);
static DECLARE_COMPLETION(pong);

static void pong_fn(struct work_struct *work)
{
	int i;

	for (i = 0; i < items; i++) {
		wait_for_completion(&ping);
		complete(&pong);
	}
}

static int run_wake(void)
{
	struct work_struct w;
	int r, i;

	for (r = 0; r < runs; r++) {
		u64 t0, dt;

		reinit_completion(&ping);
		reinit_completion(&pong);
		INIT_WORK_ONSTACK(&w, pong_fn);
		queue_work_on(raw_smp_processor_id(), system_wq, &w);
		t0 = ktime_get_ns();
		for (i = 0; i < items; i++) {
			complete(&ping);
			wait_for_completion(&pong);
		}
		dt = ktime_get_ns() - t0;
		flush_work(&w);
		destroy_work_on_stack(&w);
		pr_info("wq61_bench: mode=wake run=%d rounds=%d ns_per_round=%llu\n",
			r, items, div_u64(dt, items));
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
		return run_loop();
	if (!strcmp(mode, "tick"))
		return run_tick();
	if (!strcmp(mode, "wake"))
		return run_wake();
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
