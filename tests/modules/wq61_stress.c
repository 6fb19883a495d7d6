// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_stress: per-cpu work items that sleep right after running past the
 * CPU-intensive threshold, per-cpu work items caught by CPU hotplug, and a
 * flood of short unbound work items that complete side by side.
 *
 * Commands are written to /sys/kernel/debug/wq61_stress/ctl and run
 * synchronously, one at a time; reading ctl returns the result of the last
 * command (empty after a failed one).
 *
 *   sleepy N SPIN_US SLEEP_US
 *	N items on every online CPU, queued round robin on the per-cpu
 *	workqueue "wq61_stress". Each item busy-waits SPIN_US of wall time
 *	(cond_resched() only, never sleeping), sleeps SLEEP_US with
 *	usleep_range(), busy-waits another 100us and returns: with a low
 *	threshold, ticks keep landing on workers that are just going to sleep
 *	or just waking up. 1 <= N <= 4096, SPIN_US and SLEEP_US <= 1000000.
 *	Result: "queued=Q ran=R lost=L dup=D" (wq61_tally.h: Q items
 *	queued once each, R runs, L runs missing, D runs too many).
 *
 *   hotplug CPU SPIN_MS N
 *	A hog spinning SPIN_MS on CPU, N short items queued behind it on the
 *	same CPU ("wq61_stress"); once the hog runs, CPU is taken offline with
 *	remove_cpu() and brought back with add_cpu() (the latter only if the
 *	former succeeded), then all items are waited for. CPU must be online
 *	and not 0; SPIN_MS <= 10000, 1 <= N <= 4096. Result: "items=N
 *	queued=Q ran=R lost=L dup=D offline_ret=X online_ret=Y moved=M
 *	overlap=O": N short items, Q R L D the tally of them and the hog
 *	(wq61_tally.h: Q is N + 1), X and Y the return values of
 *	remove_cpu() and add_cpu() (Y is -125,
 *	-ECANCELED, when add_cpu() was not called), M short items that ran on
 *	another CPU than CPU (timing dependent), O 1 if the hog was still
 *	spinning when remove_cpu() returned: it spins SPIN_MS and then on
 *	until remove_cpu() has returned (at most 30 s), so O is 0 only if
 *	the offlining took that long.
 *
 *   flood N ROUNDS
 *	N trivial items queued round robin from every online CPU on the
 *	unbound workqueue "wq61_flood" (WQ_SYSFS: the test picks its scope);
 *	each item queues itself again from its own function until it has
 *	run ROUNDS times. Many workers of one pool then finish items at the
 *	same time, which is what a statistics counter updated without
 *	pool->lock would race on. 1 <= N <= 4096, 1 <= ROUNDS <= 100000.
 *	Result: "items=N queued=Q ran=R lost=L dup=D requeue_failed=F cpus=C
 *	max_running=M": the tally of the executions (wq61_tally.h: Q is N *
 *	ROUNDS), F self-requeues that queue_work() refused (it must not: the item is
 *	no longer pending while it runs), C CPUs the items ran on and M the
 *	most items seen running at once (both timing dependent, for notes).
 *
 *   drainreject
 *	queue_work() from outside a workqueue that is being drained: the
 *	kernel refuses it (a WARN_ON_ONCE() in __queue_work()), and must
 *	not leave the item PENDING, or it can never be queued again. On the
 *	workqueue "wq61_drain", item A blocks; a kthread calls
 *	drain_workqueue() and, once it sleeps in there (the draining flag
 *	is set before it can), item B is queued from here. Then A is
 *	released, the drain ends, and B is queued again and flushed.
 *	Result: "first=Q1 pending=P again=Q2 ran=R": Q1 and Q2 what
 *	queue_work() returned, P whether B was still pending after the
 *	refusal, R how often B ran (want P=0 Q2=1 R=1). -ETIMEDOUT if the
 *	drainer was not asleep within 30 s.
 *
 * Waiting is killable. A waiter killed before its items are done returns
 * -EINTR and leaves the items' memory allocated, so that items still queued
 * or running never touch freed memory.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include <linux/kthread.h>
#include <linux/jiffies.h>

#include "wq61_ctl.h"
#include "wq61_tally.h"

#define MAX_ITEMS	4096		/* per CPU for sleepy, in all for hotplug */
#define MAX_US		1000000
#define MAX_HOG_MS	10000
#define TAIL_SPIN_US	100
#define MAX_ROUNDS	100000

static struct workqueue_struct *wq;
static struct workqueue_struct *flood_wq;
static struct dentry *dir;

/* What a command's items share. Lives in the same allocation as the items. */
struct stress_ctx {
	u64 spin_ns;
	unsigned int sleep_us;
	atomic_t pending;		/* +1 per queued item, +1 bias */
	struct completion all_done;	/* pending reached 0 */
	struct completion hog_running;	/* hotplug: the hog has started */
	bool hog_finished;		/* hotplug: the hog stopped spinning */
	bool offline_done;		/* hotplug: remove_cpu() returned */
	unsigned int rounds;		/* flood: runs per item */
	atomic_t running;		/* flood: items inside their function */
	atomic_t max_running;		/* flood: the most seen at once */
	atomic_t requeue_failed;	/* flood: queue_work() said pending */
	struct cpumask ran_on;		/* flood: CPUs items ran on */
};

struct stress_item {
	struct work_struct work;
	struct stress_ctx *ctx;
	atomic_t runs;			/* times the function was entered */
	int cpu;			/* CPU it was entered on, -1 if never */
};

struct stress_batch {
	struct stress_ctx ctx;
	unsigned int nr;
	struct stress_item items[];
};

static struct stress_batch *batch_alloc(unsigned int nr)
{
	struct stress_batch *b;
	unsigned int i;

	b = kvzalloc(struct_size(b, items, nr), GFP_KERNEL | __GFP_NOWARN);
	if (!b)
		return NULL;
	b->nr = nr;
	atomic_set(&b->ctx.pending, 1);
	init_completion(&b->ctx.all_done);
	init_completion(&b->ctx.hog_running);
	for (i = 0; i < nr; i++) {
		b->items[i].ctx = &b->ctx;
		b->items[i].cpu = -1;
	}
	return b;
}

static void put_pending(struct stress_ctx *ctx)
{
	if (atomic_dec_and_test(&ctx->pending))
		complete(&ctx->all_done);
}

static void queue_item(struct stress_item *it, int cpu, work_func_t fn)
{
	INIT_WORK(&it->work, fn);
	atomic_inc(&it->ctx->pending);
	queue_work_on(cpu, wq, &it->work);
}

/*
 * Wait for @done without looking like a hung task (the timed sleeps count
 * as context switches) and give up only on a fatal signal.
 */
static int wait_killable(struct completion *done)
{
	long ret;

	do {
		ret = wait_for_completion_killable_timeout(done, 10 * HZ);
	} while (ret == 0);
	return ret < 0 ? -EINTR : 0;
}

/* Wait for every item of @b; on success every item function has returned. */
static int batch_wait(struct stress_batch *b)
{
	put_pending(&b->ctx);		/* drop the bias: all items are queued */
	if (wait_killable(&b->ctx.all_done)) {
		pr_warn("wq61_stress: interrupted, leaving %u items allocated\n",
			b->nr);
		return -EINTR;
	}
	/* the last item may still be between complete() and its return */
	flush_workqueue(wq);
	return 0;
}

/* The tally of the first @nr items of @b, each queued @queued times. */
static void batch_tally(struct stress_batch *b, unsigned int nr,
			unsigned int queued, struct wq61_tally *t)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		wq61_tally_item(t, queued, atomic_read(&b->items[i].runs));
}

static struct stress_item *enter(struct work_struct *work)
{
	struct stress_item *it = container_of(work, struct stress_item, work);

	atomic_inc(&it->runs);
	/* a disassociated pool's worker may run anywhere: no smp_processor_id() */
	it->cpu = raw_smp_processor_id();
	return it;
}

static void leave(struct stress_item *it)
{
	put_pending(it->ctx);
}

/* Busy for @ns of wall time; runnable throughout, never sleeping. */
/* the longest a hotplug hog waits for its CPU to go offline */
#define HOG_MAX_NS	(30ULL * NSEC_PER_SEC)

static void busy_wait(u64 ns)
{
	u64 t0 = ktime_get_ns();

	while (ktime_get_ns() - t0 < ns) {
		cond_resched();
		cpu_relax();
	}
}

static void sleepy_fn(struct work_struct *work)
{
	struct stress_item *it = enter(work);
	struct stress_ctx *ctx = it->ctx;

	busy_wait(ctx->spin_ns);
	usleep_range(ctx->sleep_us, ctx->sleep_us + 50);
	busy_wait(TAIL_SPIN_US * NSEC_PER_USEC);
	leave(it);
}

static int do_sleepy(unsigned int n, unsigned int spin_us, unsigned int sleep_us)
{
	struct stress_batch *b;
	struct wq61_tally t = {};
	unsigned int i, q = 0;
	int cpu, ret;

	/* Sized for every possible CPU: no allocation under cpus_read_lock(). */
	b = batch_alloc(n * num_possible_cpus());
	if (!b)
		return -ENOMEM;
	b->ctx.spin_ns = (u64)spin_us * NSEC_PER_USEC;
	b->ctx.sleep_us = sleep_us;

	/* Round robin, so every CPU gets busy at once. */
	cpus_read_lock();
	for (i = 0; i < n; i++)
		for_each_online_cpu(cpu)
			queue_item(&b->items[q++], cpu, sleepy_fn);
	cpus_read_unlock();

	ret = batch_wait(b);
	if (ret)
		return ret;		/* b stays allocated, see above */
	batch_tally(b, q, 1, &t);
	kvfree(b);
	i = wq61_tally_show(result, sizeof(result), &t);
	scnprintf(result + i, sizeof(result) - i, "\n");
	return 0;
}

static void hog_fn(struct work_struct *work)
{
	struct stress_item *it = enter(work);
	struct stress_ctx *ctx = it->ctx;

	u64 t0 = ktime_get_ns();

	complete(&ctx->hog_running);
	busy_wait(ctx->spin_ns);
	/*
	 * Keep spinning until the CPU has been taken offline, so that the
	 * offlining always happens under a running hog, however long
	 * remove_cpu() takes here; HOG_MAX_NS bounds it should something in
	 * the offlining wait for this very CPU's work.
	 */
	while (!READ_ONCE(ctx->offline_done) &&
	       ktime_get_ns() - t0 < HOG_MAX_NS) {
		cond_resched();
		cpu_relax();
	}
	WRITE_ONCE(ctx->hog_finished, true);
	leave(it);
}

static void short_fn(struct work_struct *work)
{
	leave(enter(work));
}

static int do_hotplug(int cpu, unsigned int ms, unsigned int n)
{
	struct stress_batch *b;
	struct stress_item *hog;
	struct wq61_tally t = {};
	unsigned int i, moved = 0;
	int off_ret, on_ret = -ECANCELED, ret;
	bool overlap;

	b = batch_alloc(n + 1);		/* items[0] is the hog */
	if (!b)
		return -ENOMEM;
	b->ctx.spin_ns = (u64)ms * NSEC_PER_MSEC;
	hog = &b->items[0];

	cpus_read_lock();
	if (!cpu_online(cpu)) {
		cpus_read_unlock();
		kvfree(b);
		return -EINVAL;
	}
	queue_item(hog, cpu, hog_fn);
	for (i = 1; i <= n; i++)
		queue_item(&b->items[i], cpu, short_fn);
	cpus_read_unlock();

	ret = wait_killable(&b->ctx.hog_running);
	if (ret) {
		pr_warn("wq61_stress: interrupted, leaving %u items allocated\n",
			b->nr);
		return ret;
	}
	off_ret = remove_cpu(cpu);
	overlap = !READ_ONCE(b->ctx.hog_finished);
	WRITE_ONCE(b->ctx.offline_done, true);
	if (!off_ret)
		on_ret = add_cpu(cpu);

	ret = batch_wait(b);
	if (ret)
		return ret;
	batch_tally(b, n + 1, 1, &t);
	for (i = 1; i <= n; i++)
		if (b->items[i].cpu != cpu)
			moved++;
	kvfree(b);
	i = scnprintf(result, sizeof(result), "items=%u ", n);
	i += wq61_tally_show(result + i, sizeof(result) - i, &t);
	scnprintf(result + i, sizeof(result) - i,
		  " offline_ret=%d online_ret=%d moved=%u overlap=%d\n",
		  off_ret, on_ret, moved, overlap);
	return 0;
}

static void flood_fn(struct work_struct *work)
{
	struct stress_item *it = enter(work);
	struct stress_ctx *ctx = it->ctx;
	int now = atomic_inc_return(&ctx->running);
	int max = atomic_read(&ctx->max_running);
	int cpu = raw_smp_processor_id();

	while (now > max && !atomic_try_cmpxchg(&ctx->max_running, &max, now))
		;
	if (!cpumask_test_cpu(cpu, &ctx->ran_on))
		cpumask_set_cpu(cpu, &ctx->ran_on);
	atomic_dec(&ctx->running);

	if (atomic_read(&it->runs) < ctx->rounds) {
		/* no longer pending while it runs: this must queue it */
		if (!queue_work(flood_wq, work)) {
			atomic_inc(&ctx->requeue_failed);
			leave(it);
		}
		return;
	}
	leave(it);
}

static int do_flood(unsigned int n, unsigned int rounds)
{
	struct stress_batch *b;
	struct wq61_tally t = {};
	unsigned int q = 0;
	int cpu, ret, len;

	b = batch_alloc(n);
	if (!b)
		return -ENOMEM;
	b->ctx.rounds = rounds;

	cpus_read_lock();
	cpu = cpumask_first(cpu_online_mask);
	for (q = 0; q < n; q++) {
		INIT_WORK(&b->items[q].work, flood_fn);
		atomic_inc(&b->ctx.pending);
		queue_work_on(cpu, flood_wq, &b->items[q].work);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	cpus_read_unlock();

	ret = batch_wait(b);
	if (ret)
		return ret;		/* b stays allocated, see batch_wait() */
	/* the last run of each item returns after leave() */
	flush_workqueue(flood_wq);
	batch_tally(b, n, rounds, &t);
	len = scnprintf(result, sizeof(result), "items=%u ", n);
	len += wq61_tally_show(result + len, sizeof(result) - len, &t);
	scnprintf(result + len, sizeof(result) - len,
		  " requeue_failed=%d cpus=%u max_running=%d\n",
		  atomic_read(&b->ctx.requeue_failed),
		  cpumask_weight(&b->ctx.ran_on),
		  atomic_read(&b->ctx.max_running));
	kvfree(b);
	return 0;
}

struct drain_ctx {
	struct workqueue_struct *wq;
	struct work_struct a, b;
	struct completion a_running, a_go;
	atomic_t b_ran;
};

static void drain_a_fn(struct work_struct *work)
{
	struct drain_ctx *d = container_of(work, struct drain_ctx, a);

	complete(&d->a_running);
	wait_for_completion(&d->a_go);
}

static void drain_b_fn(struct work_struct *work)
{
	struct drain_ctx *d = container_of(work, struct drain_ctx, b);

	atomic_inc(&d->b_ran);
}

static int drainer_fn(void *data)
{
	struct drain_ctx *d = data;

	drain_workqueue(d->wq);
	/* wait for kthread_stop(), which wants the task to be there */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static int do_drainreject(void)
{
	struct drain_ctx *d;
	struct task_struct *drainer;
	unsigned long timeout = jiffies + 30 * HZ;
	bool first = false, pending = false, again = false;
	int ret = 0;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->wq = alloc_workqueue("wq61_drain", 0, 0);
	if (!d->wq) {
		kfree(d);
		return -ENOMEM;
	}
	INIT_WORK(&d->a, drain_a_fn);
	INIT_WORK(&d->b, drain_b_fn);
	init_completion(&d->a_running);
	init_completion(&d->a_go);
	atomic_set(&d->b_ran, 0);

	queue_work(d->wq, &d->a);
	wait_for_completion(&d->a_running);
	drainer = kthread_run(drainer_fn, d, "wq61_drainer");
	if (IS_ERR(drainer)) {
		ret = PTR_ERR(drainer);
		goto out_release;
	}
	/*
	 * drain_workqueue() sets the draining flag under wq->mutex, which
	 * nobody else takes here, before it sleeps waiting for A: once the
	 * drainer is asleep, the flag is set.
	 */
	while (READ_ONCE(drainer->__state) != TASK_UNINTERRUPTIBLE) {
		if (time_after(jiffies, timeout)) {
			ret = -ETIMEDOUT;
			goto out_stop;
		}
		msleep(1);
	}

	first = queue_work(d->wq, &d->b);
	pending = work_pending(&d->b);
out_stop:
	complete(&d->a_go);
	kthread_stop(drainer);
	if (!ret) {
		again = queue_work(d->wq, &d->b);
		flush_workqueue(d->wq);
		snprintf(result, sizeof(result), "first=%d pending=%d again=%d ran=%d",
			 first, pending, again, atomic_read(&d->b_ran));
	}
	destroy_workqueue(d->wq);
	kfree(d);
	return ret;

out_release:
	complete(&d->a_go);
	destroy_workqueue(d->wq);
	kfree(d);
	return ret;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (!strcmp(cmd, "drainreject") && n == 0)
		return do_drainreject();
	if (!strcmp(cmd, "flood") && n == 2 && a >= 1 && a <= MAX_ITEMS &&
	    b >= 1 && b <= MAX_ROUNDS)
		return do_flood(a, b);
	if (n != 3)
		return -EINVAL;
	if (!strcmp(cmd, "sleepy") && a >= 1 && a <= MAX_ITEMS &&
	    b <= MAX_US && c <= MAX_US)
		return do_sleepy(a, b, c);
	if (!strcmp(cmd, "hotplug") && a > 0 && a < nr_cpu_ids &&
	    b <= MAX_HOG_MS && c >= 1 && c <= MAX_ITEMS)
		return do_hotplug(a, b, c);
	return -EINVAL;
}

static int __init wq61_stress_init(void)
{
	wq = alloc_workqueue("wq61_stress", 0, 0);
	if (!wq)
		return -ENOMEM;
	flood_wq = alloc_workqueue("wq61_flood", WQ_UNBOUND | WQ_SYSFS, 0);
	if (!flood_wq) {
		destroy_workqueue(wq);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("wq61_stress", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit wq61_stress_exit(void)
{
	debugfs_remove_recursive(dir);
	/* drains whatever an interrupted command left queued */
	destroy_workqueue(flood_wq);
	destroy_workqueue(wq);
}

module_init(wq61_stress_init);
module_exit(wq61_stress_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: sleeping and CPU-hotplug stress for per-cpu work items, a flood of unbound ones");
