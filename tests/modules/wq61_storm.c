// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_storm: the kworker storm of issue 24. Work items of a per-cpu
 * workqueue that burn CPU contending on one spinlock, never sleeping, many
 * of them pending per CPU: what writeback's inode switching did on a
 * 128-CPU machine. On 6.1 concurrency management runs one of them per CPU
 * at a time. With automatic CPU-intensive detection each one that passes
 * the threshold is taken out of concurrency management, the next pending
 * item starts on another kworker, spins in turn, and so on.
 *
 *   storm NCPUS ITEMS HOLD_US  ITEMS items on each of the first NCPUS online
 *                              CPUs of the per-cpu workqueue "wq61_storm";
 *                              each takes the shared lock ROUNDS (20) times,
 *                              holding it HOLD_US, with cond_resched() in
 *                              between. Once all are queued, a short item is
 *                              queued on the first CPU of "wq61_storm_probe".
 *
 * Result: "items=N cpus=C peak_running=P peak_cpu=Q workers=W drain_ms=D
 * first_drained_ms=F item_us=I probe_wait_ms=X": P the most storm items
 * inside their function at once, Q the most at once on one CPU, W the
 * distinct kworkers that ran them, D the time from the first queueing to
 * the last completion, F to the completion of the first CPU's whole
 * backlog, I the mean time from an item's start to its end, X the time the
 * short item waited from queueing to starting. Outcomes are counts; the
 * times are reported, never judged here.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "wq61_ctl.h"

#define STORM_ROUNDS	20

static struct workqueue_struct *wq_storm, *wq_probe;
static struct dentry *dir;
static DEFINE_SPINLOCK(storm_lock);	/* the contended lock */

static atomic_t running;		/* storm items inside storm_fn() */
static atomic_t peak_running;
static DEFINE_PER_CPU(atomic_t, cpu_running);
static atomic_t peak_cpu;

struct storm_work {
	struct work_struct work;
	unsigned int hold_us;
	pid_t pid;			/* the kworker that ran it */
	u64 started, ended;		/* when it ran */
	atomic_t *remaining;
	struct completion *done;
};

struct probe_work {
	struct work_struct work;
	u64 started;
};

/* raise *peak to @val if it is lower */
static void note_peak(atomic_t *peak, int val)
{
	int old = atomic_read(peak);

	while (old < val && !atomic_try_cmpxchg(peak, &old, val))
		;
}

static void storm_fn(struct work_struct *work)
{
	struct storm_work *sw = container_of(work, struct storm_work, work);
	atomic_t *here = this_cpu_ptr(&cpu_running);
	int i;

	sw->pid = current->pid;
	sw->started = ktime_get_ns();
	note_peak(&peak_running, atomic_inc_return(&running));
	/* a per-cpu workqueue's item stays on its CPU */
	note_peak(&peak_cpu, atomic_inc_return(here));

	for (i = 0; i < STORM_ROUNDS; i++) {
		spin_lock(&storm_lock);
		udelay(sw->hold_us);
		spin_unlock(&storm_lock);
		cond_resched();		/* runnable all along: never sleeps */
	}

	atomic_dec(here);
	atomic_dec(&running);
	sw->ended = ktime_get_ns();
	if (atomic_dec_and_test(sw->remaining))
		complete(sw->done);
}

static void probe_fn(struct work_struct *work)
{
	container_of(work, struct probe_work, work)->started = ktime_get_ns();
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static int do_storm(unsigned int ncpus, unsigned int items,
		    unsigned int hold_us)
{
	DECLARE_COMPLETION_ONSTACK(done);
	unsigned int n = ncpus * items, i, k, workers = 0;
	atomic_t remaining = ATOMIC_INIT(n);
	struct probe_work probe = {};
	struct storm_work *sws;
	u64 t0, queued, last_done = 0, first_drained = U64_MAX, ran = 0;
	u64 *drained;		/* per storm CPU: its last item's end */
	pid_t *pids;
	int cpu, first = -1;

	sws = kcalloc(n, sizeof(*sws), GFP_KERNEL);
	pids = kcalloc(n, sizeof(*pids), GFP_KERNEL);
	drained = kcalloc(ncpus, sizeof(*drained), GFP_KERNEL);
	if (!sws || !pids || !drained) {
		kfree(sws);
		kfree(pids);
		kfree(drained);
		return -ENOMEM;
	}
	atomic_set(&running, 0);
	atomic_set(&peak_running, 0);
	atomic_set(&peak_cpu, 0);
	for_each_possible_cpu(cpu)
		atomic_set(per_cpu_ptr(&cpu_running, cpu), 0);

	INIT_WORK_ONSTACK(&probe.work, probe_fn);
	cpus_read_lock();	/* the CPUs counted stay online */
	t0 = ktime_get_ns();
	/* item k of every CPU before item k + 1 of any: a backlog on each */
	for (k = 0; k < items; k++) {
		i = 0;
		for_each_online_cpu(cpu) {
			struct storm_work *sw;

			if (i == ncpus)
				break;
			if (first < 0)
				first = cpu;
			sw = &sws[k * ncpus + i++];
			sw->hold_us = hold_us;
			sw->remaining = &remaining;
			sw->done = &done;
			INIT_WORK(&sw->work, storm_fn);
			queue_work_on(cpu, wq_storm, &sw->work);
		}
	}
	queued = ktime_get_ns();
	queue_work_on(first, wq_probe, &probe.work);
	cpus_read_unlock();

	wait_for_completion(&done);
	flush_work(&probe.work);
	flush_workqueue(wq_storm);
	destroy_work_on_stack(&probe.work);

	/* item k of the storm's CPU c is sws[k * ncpus + c] */
	for (i = 0; i < n; i++) {
		pids[i] = sws[i].pid;
		drained[i % ncpus] = max(drained[i % ncpus], sws[i].ended);
		ran += sws[i].ended - sws[i].started;
	}
	for (i = 0; i < ncpus; i++) {
		first_drained = min(first_drained, drained[i]);
		last_done = max(last_done, drained[i]);
	}
	sort(pids, n, sizeof(*pids), cmp_pid, NULL);
	for (i = 0; i < n; i++)
		if (!i || pids[i] != pids[i - 1])
			workers++;

	snprintf(result, sizeof(result),
		 "items=%u cpus=%u peak_running=%d peak_cpu=%d workers=%u drain_ms=%llu first_drained_ms=%llu item_us=%llu probe_wait_ms=%llu\n",
		 n, ncpus, atomic_read(&peak_running), atomic_read(&peak_cpu),
		 workers, div_u64(last_done - t0, NSEC_PER_MSEC),
		 div_u64(first_drained - t0, NSEC_PER_MSEC),
		 div_u64(ran, n * NSEC_PER_USEC),
		 div_u64(probe.started - queued, NSEC_PER_MSEC));
	kfree(sws);
	kfree(pids);
	kfree(drained);
	return 0;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (strcmp(cmd, "storm") || n != 3)
		return -EINVAL;
	if (!a || a > num_online_cpus() || !b || b > 256 || a * b > 4096 ||
	    !c || c > 1000)
		return -EINVAL;
	return do_storm(a, b, c);
}

static int __init wq61_storm_init(void)
{
	wq_storm = alloc_workqueue("wq61_storm", 0, 0);
	wq_probe = alloc_workqueue("wq61_storm_probe", 0, 0);
	if (!wq_storm || !wq_probe) {
		if (wq_storm)
			destroy_workqueue(wq_storm);
		if (wq_probe)
			destroy_workqueue(wq_probe);
		return -ENOMEM;
	}
	dir = debugfs_create_dir("wq61_storm", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit wq61_storm_exit(void)
{
	debugfs_remove_recursive(dir);
	destroy_workqueue(wq_storm);
	destroy_workqueue(wq_probe);
}

module_init(wq61_storm_init);
module_exit(wq61_storm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: the kworker storm of CPU-bound items contending on a lock");
