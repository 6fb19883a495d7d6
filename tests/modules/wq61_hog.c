// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_hog: CPU-hogging work items for the CPU-intensive detection tests.
 *
 * Commands are written to /sys/kernel/debug/wq61_hog/ctl and run
 * synchronously; reading ctl returns the result of the last command.
 *
 *   starve CPU SPIN_MS        a work item spins SPIN_MS on CPU of the per-cpu
 *                             workqueue "wq61_hog"; 2 ms later a short item is
 *                             queued on the same CPU and workqueue. Result:
 *                             "wait_us=W spin_us=S after_spin=A" (W: queueing
 *                             to start of the short item; A: 1 if the short
 *                             item started only once the spinner had stopped
 *                             spinning, else 0).
 *   starve_intensive CPU MS   the same on WQ_CPU_INTENSIVE "wq61_hog_itsv"
 *   starve_rcuqs CPU MS       starve, but each round of the spinner is also
 *                             an RCU quiescent state that RCU sees without
 *                             the CPU's help (rcu_momentary_eqs(), as the
 *                             CPUs of stop_machine() do), so RCU never needs
 *                             the CPU's tick: else, on a nohz_full CPU, RCU
 *                             turns the tick back on within ~300 ms of a
 *                             grace period starting (tick_stop trace events:
 *                             dependency=RCU)
 *   burn N MS [C]             N items, each spinning MS, queued round robin
 *                             over the first C (default: all) online CPUs on
 *                             "wq61_hog_count". Result: "items=N burned_us=T
 *                             cpu_us=U": T is the wall time the items spun,
 *                             U the CPU time the scheduler charged them.
 *   report CPU SPIN_MS        one hog of report_fn (its own function, so the
 *                             kernel's per-function report count is the
 *                             test's own) on "wq61_hog_report".
 *
 * The workqueues live as long as the module, so their statistics can be
 * read (tools/workqueue/wq_monitor.py) after a command.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/rcupdate.h>

#include "wq61_ctl.h"

static struct workqueue_struct *wq_hog, *wq_itsv, *wq_count, *wq_report;
static struct dentry *dir;

struct hog_work {
	struct work_struct work;
	u64 spin_ns;
	u64 started;		/* ktime_get_ns() at function entry */
	u64 burned;
	u64 cpu_ns;		/* CPU time charged to the kworker meanwhile */
	atomic_t *remaining;	/* burn: items left; the last one completes */
	struct completion *done;
	bool rcu_qs;		/* each round an RCU quiescent state */
};

static void spin_for(struct hog_work *hw)
{
	u64 t0, c0;

	/* let the scheduler bring sum_exec_runtime up to date first */
	schedule();
	c0 = current->se.sum_exec_runtime;
	t0 = ktime_get_ns();

	hw->started = t0;
	/* Runnable all the time: cond_resched() but never sleep. */
	while (ktime_get_ns() - t0 < hw->spin_ns) {
		if (hw->rcu_qs) {
			/* its caller must keep interrupts off */
			local_irq_disable();
			rcu_momentary_eqs();
			local_irq_enable();
		}
		cond_resched();
	}
	hw->burned = ktime_get_ns() - t0;
	/* sum_exec_runtime is brought up to date when the task is scheduled */
	schedule();
	hw->cpu_ns = current->se.sum_exec_runtime - c0;
}

static void hog_fn(struct work_struct *work)
{
	spin_for(container_of(work, struct hog_work, work));
}

static void burn_fn(struct work_struct *work)
{
	struct hog_work *hw = container_of(work, struct hog_work, work);

	spin_for(hw);
	if (atomic_dec_and_test(hw->remaining))
		complete(hw->done);
}

static void report_fn(struct work_struct *work)
{
	spin_for(container_of(work, struct hog_work, work));
}

static void short_fn(struct work_struct *work)
{
	container_of(work, struct hog_work, work)->started = ktime_get_ns();
}

static int do_starve(struct workqueue_struct *wq, int cpu, unsigned int ms,
		     bool rcu_qs)
{
	struct hog_work spinner = { .spin_ns = (u64)ms * NSEC_PER_MSEC,
				    .rcu_qs = rcu_qs };
	struct hog_work shorty = {};
	u64 queued;

	INIT_WORK_ONSTACK(&spinner.work, hog_fn);
	INIT_WORK_ONSTACK(&shorty.work, short_fn);
	queue_work_on(cpu, wq, &spinner.work);
	usleep_range(2000, 2100);
	queued = ktime_get_ns();
	queue_work_on(cpu, wq, &shorty.work);
	flush_work(&spinner.work);
	flush_work(&shorty.work);
	destroy_work_on_stack(&spinner.work);
	destroy_work_on_stack(&shorty.work);
	snprintf(result, sizeof(result), "wait_us=%llu spin_us=%llu after_spin=%d\n",
		 div_u64(shorty.started - queued, NSEC_PER_USEC),
		 div_u64(spinner.burned, NSEC_PER_USEC),
		 shorty.started >= spinner.started + spinner.burned);
	return 0;
}

static int do_burn(unsigned int n, unsigned int ms, unsigned int ncpus)
{
	DECLARE_COMPLETION_ONSTACK(done);
	atomic_t remaining = ATOMIC_INIT(n);
	struct hog_work *hws;
	u64 total = 0, cpu_total = 0;
	unsigned int i, used = 0;
	int cpu = -1;

	hws = kcalloc(n, sizeof(*hws), GFP_KERNEL);
	if (!hws)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids || (ncpus && ++used > ncpus)) {
			cpu = cpumask_first(cpu_online_mask);
			used = 1;
		}
		hws[i].spin_ns = (u64)ms * NSEC_PER_MSEC;
		hws[i].remaining = &remaining;
		hws[i].done = &done;
		INIT_WORK(&hws[i].work, burn_fn);
		queue_work_on(cpu, wq_count, &hws[i].work);
	}
	/*
	 * Not flush_work(): it queues a barrier work item behind a running
	 * one, which the workqueue statistics would count as started too.
	 * flush_workqueue() waits for the tail end of process_one_work()
	 * without queueing anything.
	 */
	wait_for_completion(&done);
	flush_workqueue(wq_count);
	for (i = 0; i < n; i++) {
		total += hws[i].burned;
		cpu_total += hws[i].cpu_ns;
	}
	kfree(hws);
	snprintf(result, sizeof(result), "items=%u burned_us=%llu cpu_us=%llu\n",
		 n, div_u64(total, NSEC_PER_USEC), div_u64(cpu_total, NSEC_PER_USEC));
	return 0;
}

static int do_report(int cpu, unsigned int ms)
{
	struct hog_work hw = { .spin_ns = (u64)ms * NSEC_PER_MSEC };

	INIT_WORK_ONSTACK(&hw.work, report_fn);
	queue_work_on(cpu, wq_report, &hw.work);
	flush_work(&hw.work);
	destroy_work_on_stack(&hw.work);
	snprintf(result, sizeof(result), "func=%ps spin_us=%llu\n", report_fn,
		 div_u64(hw.burned, NSEC_PER_USEC));
	return 0;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (n < 2 || b > 10000 || (n == 3 && strcmp(cmd, "burn")))
		return -EINVAL;
	if ((!strcmp(cmd, "starve") || !strcmp(cmd, "starve_intensive") ||
	     !strcmp(cmd, "starve_rcuqs") || !strcmp(cmd, "report")) &&
	    (a >= nr_cpu_ids || !cpu_online(a)))
		return -EINVAL;
	if (!strcmp(cmd, "starve"))
		return do_starve(wq_hog, a, b, false);
	if (!strcmp(cmd, "starve_rcuqs"))
		return do_starve(wq_hog, a, b, true);
	if (!strcmp(cmd, "starve_intensive"))
		return do_starve(wq_itsv, a, b, false);
	if (!strcmp(cmd, "burn") && a > 0 && a <= 4096)
		return do_burn(a, b, c);
	if (!strcmp(cmd, "report"))
		return do_report(a, b);
	return -EINVAL;
}

static void destroy_wqs(void)
{
	if (wq_hog)
		destroy_workqueue(wq_hog);
	if (wq_itsv)
		destroy_workqueue(wq_itsv);
	if (wq_count)
		destroy_workqueue(wq_count);
	if (wq_report)
		destroy_workqueue(wq_report);
}

static int __init wq61_hog_init(void)
{
	wq_hog = alloc_workqueue("wq61_hog", 0, 0);
	wq_itsv = alloc_workqueue("wq61_hog_itsv", WQ_CPU_INTENSIVE, 0);
	wq_count = alloc_workqueue("wq61_hog_count", 0, 0);
	wq_report = alloc_workqueue("wq61_hog_report", 0, 0);
	if (!wq_hog || !wq_itsv || !wq_count || !wq_report) {
		destroy_wqs();
		return -ENOMEM;
	}
	dir = debugfs_create_dir("wq61_hog", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit wq61_hog_exit(void)
{
	debugfs_remove_recursive(dir);
	destroy_wqs();
}

module_init(wq61_hog_init);
module_exit(wq61_hog_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: CPU-hogging work items for the CPU-intensive detection tests");
