// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_smoke: boot smoke test. Loading it runs one work item on a per-cpu
 * workqueue on a chosen CPU and one on an unbound workqueue; the load
 * fails (-EIO/-ETIMEDOUT) unless both ran, the per-cpu one on its CPU.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <linux/smp.h>
#include <linux/cpumask.h>

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU the per-cpu work item is queued on");

struct smoke_work {
	struct work_struct work;
	struct completion done;
	int ran_on;
};

static void smoke_fn(struct work_struct *work)
{
	struct smoke_work *sw = container_of(work, struct smoke_work, work);

	sw->ran_on = raw_smp_processor_id();
	complete(&sw->done);
}

static int run_one(struct workqueue_struct *wq, int on_cpu, const char *what)
{
	struct smoke_work sw = { .ran_on = -1 };
	int ret = 0;

	INIT_WORK_ONSTACK(&sw.work, smoke_fn);
	init_completion(&sw.done);
	if (on_cpu >= 0)
		queue_work_on(on_cpu, wq, &sw.work);
	else
		queue_work(wq, &sw.work);
	if (!wait_for_completion_timeout(&sw.done, 10 * HZ)) {
		pr_err("wq61_smoke: %s work item did not run within 10s\n", what);
		ret = -ETIMEDOUT;
	} else if (on_cpu >= 0 && sw.ran_on != on_cpu) {
		pr_err("wq61_smoke: %s work item ran on CPU %d, not %d\n",
		       what, sw.ran_on, on_cpu);
		ret = -EIO;
	} else {
		pr_info("wq61_smoke: %s work item ran on CPU %d\n", what, sw.ran_on);
	}
	flush_work(&sw.work);
	destroy_work_on_stack(&sw.work);
	return ret;
}

static int __init wq61_smoke_init(void)
{
	struct workqueue_struct *uwq;
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	ret = run_one(system_wq, cpu, "per-cpu");
	if (ret)
		return ret;
	uwq = alloc_workqueue("wq61_smoke_unbound", WQ_UNBOUND, 0);
	if (!uwq)
		return -ENOMEM;
	ret = run_one(uwq, -1, "unbound");
	destroy_workqueue(uwq);
	return ret;
}

static void __exit wq61_smoke_exit(void)
{
}

module_init(wq61_smoke_init);
module_exit(wq61_smoke_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61 boot smoke test: a per-cpu and an unbound work item run");
