// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_affinity: where unbound work items start, and how many of them run
 * at once, for the affinity-scope tests (tests/guest/2[0-6]-*.sh).
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
 *                         hist=C0,C1,... busy_hist=B0,B1,... cpus=D
 *                         lat_p50_us=P lat_p99_us=Q ms=T": how many items
 *                         started on each possible CPU (nr_cpu_ids
 *                         entries), how many of those by a worker that went
 *                         on from its previous item without sleeping
 *                         (at most 1024 items; else 0s), on how many distinct
 *                         CPUs, the queue-to-start latency percentiles and
 *                         the time from the first queueing to the last
 *                         item's end (for make bench).
 *                         After "pod", also "out=O out_free=F": items
 *                         that started outside the pod, and how many of
 *                         those while a CPU of the pod was free (see
 *                         started_out_free()).
 *   pod MASK              the pod of the next starts' out/out_free: the
 *                         CPUs whose bits are set in MASK (so CPUs 0-31
 *                         only); 0 leaves them out again.
 *   startw CPU N SPIN_US  the same, but the kthread waits for each item to
 *                         finish before it queues the next,
 *                         so every item finds an idle pool and an idle CPU
 *   startall N SPIN_US    "start" from a kthread on every online CPU at
 *                         once, N items each; "issuer=all", same result.
 *   maxact N HOLD_MS      N items queued round robin on every online CPU
 *                         (queue_work_on(), which selects the pool_workqueue
 *                         of that CPU, as queueing from it does) on
 *                         wq61_affn_ma; those that start within HOLD_MS of
 *                         the first stay inside until then. Result:
 *                         "items=N peak=P": the most items that were inside
 *                         their work function at the same time, i.e. how
 *                         many the kernel lets run at once.
 *   repat ISSUER OUT ROUNDS
 *                         repatriation of idle non-strict workers: per
 *                         round, from a kthread bound to ISSUER, item A is
 *                         queued with queue_work_on(ISSUER) on wq61_affn;
 *                         it moves its worker to CPU OUT and back to the
 *                         worker's own CPUs, so the worker goes idle on
 *                         OUT. Once that worker is off the run queue
 *                         (asleep, idle), item B is queued the same way.
 *                         A round counts when B was run by A's worker: an
 *                         idle worker woken from OUT. Result: "rounds=R
 *                         counted=C starts=S0,S1,... moves=M0,M1,...": the
 *                         CPUs where the counted rounds' B started, and
 *                         how often the worker changed CPU between falling
 *                         asleep on OUT and starting B (se.nr_migrations:
 *                         1 is the wake-up's own placement, more means the
 *                         load balancer moved it again before it ran).
 *   repatb ISSUER OUT ROUNDS
 *                         the same for a busy worker: A moves its worker
 *                         to OUT and back to its own CPUs and, still
 *                         running there, queues B with queue_work_on(ISSUER).
 *                         A round counts when A's worker ran B; same
 *                         result, moves counted from A's move to OUT (0:
 *                         B started where A left the worker).
 *   hpbegin SLOTS SPIN_US two unbound kthreads (the scheduler moves them
 *                         around) keep queueing to wq61_affn until hpend:
 *                         SLOTS work items in all, each queued again once
 *                         it has run, half with queue_work(), half with
 *                         queue_work_on() round robin over the possible
 *                         CPUs, online or not; each spins SPIN_US. Returns
 *                         at once: meant to run under a CPU hotplug storm.
 *   hpend                 stop queueing, wait (at most 60s) for the items
 *                         queued to run, and report "queued=Q ran=R lost=L
 *                         dup=D offline=O degraded=G": queueings, runs,
 *                         queueings that never ran, runs without a
 *                         queueing, runs that started on a CPU which was
 *                         not online, and queueings made while some
 *                         possible CPU was offline.
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
#include <linux/sort.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "wq61_ctl.h"
#include "wq61_tally.h"

static struct workqueue_struct *wq_loc, *wq_ma;
static struct dentry *dir;

struct affn_item {
	struct work_struct work;
	int start_cpu;
	u64 t_queue, t_start, t_end;	/* ktime_get_ns() */
	/* the worker, and its voluntary switches at start and end */
	struct task_struct *task;
	unsigned long nvcsw_start, nvcsw_end;
	u64 spin_ns;
	unsigned int sleep_ms;
	atomic_t *remaining;
	struct completion *done;
	struct completion fin;	/* this item is done (startw) */
};

/*
 * hpbegin/hpend: a slot is queued only once its previous queueing has run,
 * so at any time runs == queued (done) or runs == queued - 1 (pending or
 * running) for each slot; anything else is a lost or a duplicated item.
 */
struct hp_slot {
	struct work_struct work;
	atomic_t runs;		/* written by the work function */
	unsigned int queued;	/* written by the slot's issuer only */
};

struct hp_issuer {
	struct task_struct *task;
	struct hp_slot *slots;
	unsigned int nr_slots;
	bool use_cpu;		/* queue_work_on() rather than queue_work() */
	unsigned long degraded;	/* queueings while a CPU was offline */
};

static struct hp_slot *hp_slots;
static unsigned int hp_nr_slots;
static struct hp_issuer hp_issuers[2];
static u64 hp_spin_ns;
static atomic_t hp_offline;	/* runs that started on a CPU not online */

/*
 * maxact: items inside their function now, the most seen, and when the
 * items held inside may go on (ktime_get_ns(); 0 until the first starts)
 */
static atomic_t ma_running, ma_peak;
static u64 ma_deadline;
static DEFINE_SPINLOCK(ma_lock);

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
	it->t_start = t0;
	it->task = current;
	it->nvcsw_start = current->nvcsw;
	while (ktime_get_ns() - t0 < it->spin_ns)
		cpu_relax();
	it->t_end = ktime_get_ns();
	it->nvcsw_end = current->nvcsw;
	complete(&it->fin);
	item_done(it);
}

static void maxact_fn(struct work_struct *work)
{
	struct affn_item *it = container_of(work, struct affn_item, work);
	int now = atomic_inc_return(&ma_running);
	int peak = atomic_read(&ma_peak);
	u64 deadline, t;

	while (now > peak) {
		int old = atomic_cmpxchg(&ma_peak, peak, now);

		if (old == peak)
			break;
		peak = old;
	}
	/*
	 * The first item to start opens a window of HOLD_MS; every item that
	 * starts inside it stays until it closes. So the peak is as many
	 * items as the kernel lets run at once, however slowly the machine
	 * starts them (within the window); later items pass straight through.
	 */
	spin_lock(&ma_lock);
	if (!ma_deadline)
		ma_deadline = ktime_get_ns() + (u64)it->sleep_ms * NSEC_PER_MSEC;
	deadline = ma_deadline;
	spin_unlock(&ma_lock);
	t = ktime_get_ns();
	if (t < deadline)
		msleep(div_u64(deadline - t, NSEC_PER_MSEC) + 1);
	atomic_dec(&ma_running);
	item_done(it);
}

static void hp_fn(struct work_struct *work)
{
	struct hp_slot *slot = container_of(work, struct hp_slot, work);
	u64 t0;

	/* not preemptible: the CPU can't finish going down under us */
	preempt_disable();
	if (!cpu_online(smp_processor_id()))
		atomic_inc(&hp_offline);
	preempt_enable();
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < hp_spin_ns)
		cpu_relax();
	/* last: the issuer may queue the slot again from here on */
	atomic_inc_return_release(&slot->runs);
}

static int hp_issuer_fn(void *data)
{
	struct hp_issuer *is = data;
	unsigned int i, n = 0;
	int cpu = -1;

	while (!kthread_should_stop()) {
		for (i = 0; i < is->nr_slots; i++) {
			struct hp_slot *slot = &is->slots[i];
			unsigned int runs = atomic_read_acquire(&slot->runs);

			/* not run yet (or run too often: hpend counts that) */
			if (runs != slot->queued)
				continue;
			if (num_online_cpus() < num_possible_cpus())
				is->degraded++;
			slot->queued++;
			if (is->use_cpu) {
				cpu = cpumask_next(cpu, cpu_possible_mask);
				if (cpu >= nr_cpu_ids)
					cpu = cpumask_first(cpu_possible_mask);
				queue_work_on(cpu, wq_loc, &slot->work);
			} else {
				queue_work(wq_loc, &slot->work);
			}
			/* a steady stream, not a burst, across the storm */
			if (++n % 8 == 0)
				usleep_range(500, 1000);
		}
		usleep_range(500, 1000);
	}
	return 0;
}

static void hp_stop(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hp_issuers); i++) {
		if (hp_issuers[i].task)
			kthread_stop(hp_issuers[i].task);
		hp_issuers[i].task = NULL;
	}
}

static int do_hpbegin(unsigned int nr_slots, unsigned int spin_us)
{
	unsigned int i, per = nr_slots / ARRAY_SIZE(hp_issuers);

	if (hp_slots)
		return -EBUSY;
	hp_slots = kcalloc(nr_slots, sizeof(*hp_slots), GFP_KERNEL);
	if (!hp_slots)
		return -ENOMEM;
	hp_nr_slots = nr_slots;
	hp_spin_ns = (u64)spin_us * NSEC_PER_USEC;
	atomic_set(&hp_offline, 0);
	for (i = 0; i < nr_slots; i++)
		INIT_WORK(&hp_slots[i].work, hp_fn);
	for (i = 0; i < ARRAY_SIZE(hp_issuers); i++) {
		struct hp_issuer *is = &hp_issuers[i];
		struct task_struct *t;

		*is = (struct hp_issuer){
			.slots = hp_slots + i * per,
			.nr_slots = per,
			.use_cpu = i % 2,
		};
		t = kthread_run(hp_issuer_fn, is, "wq61_hp_issuer/%u", i);
		if (IS_ERR(t)) {
			hp_stop();
			flush_workqueue(wq_loc);
			kfree(hp_slots);
			hp_slots = NULL;
			return PTR_ERR(t);
		}
		is->task = t;
	}
	scnprintf(result, sizeof(result), "started slots=%u\n", nr_slots);
	return 0;
}

static int do_hpend(void)
{
	struct wq61_tally t = {};
	unsigned long degraded = 0;
	int n;
	unsigned long deadline = jiffies + 60 * HZ;
	unsigned int i, j;

	if (!hp_slots)
		return -EINVAL;
	hp_stop();

	/*
	 * Wait for what was queued without flush_workqueue(): a lost item
	 * would hang it, and the point is to count such items.
	 */
	for (i = 0; i < hp_nr_slots; i++)
		while (atomic_read(&hp_slots[i].runs) < hp_slots[i].queued &&
		       time_before(jiffies, deadline))
			msleep(20);

	for (i = 0; i < ARRAY_SIZE(hp_issuers); i++) {
		struct hp_issuer *is = &hp_issuers[i];

		degraded += is->degraded;
		for (j = 0; j < is->nr_slots; j++)
			wq61_tally_item(&t, is->slots[j].queued,
					atomic_read(&is->slots[j].runs));
	}
	n = wq61_tally_show(result, sizeof(result), &t);
	scnprintf(result + n, sizeof(result) - n, " offline=%d degraded=%lu\n",
		  atomic_read(&hp_offline), degraded);

	/* only free what is known to be idle; a lost item keeps its slot */
	if (!t.lost) {
		flush_workqueue(wq_loc);
		kfree(hp_slots);
	}
	hp_slots = NULL;
	return 0;
}

struct issuer {
	struct affn_item *items;
	unsigned int n;
	bool serial;		/* wait for each item before the next */
	int cpu;
	u64 t_first, t_last;	/* it was queueing from t_first to t_last */
	struct completion queued;
};

/* "pod": the CPUs start's out/out_free are about; empty: none asked for */
static struct cpumask analysis_pod;

static int issuer_fn(void *data)
{
	struct issuer *is = data;
	unsigned int i;

	is->t_first = ktime_get_ns();
	for (i = 0; i < is->n; i++) {
		is->items[i].t_queue = ktime_get_ns();
		queue_work(wq_loc, &is->items[i].work);
		/*
		 * Not flush_work(): its barrier is a work item of the same
		 * pwq, which the pwq's counters would count too.
		 */
		if (is->serial)
			wait_for_completion(&is->items[i].fin);
	}
	is->t_last = ktime_get_ns();
	complete(&is->queued);
	return 0;
}

/*
 * Whether item @i was started by a worker that went straight on from its
 * previous item without sleeping: a busy worker, which wherever the
 * scheduler moved it stays, as opposed to one woken up for the item.
 */
static bool started_busy(struct affn_item *items, unsigned int total,
			 unsigned int i)
{
	struct affn_item *prev = NULL;
	unsigned int j;

	/* the same worker's item that ended last before this one started */
	for (j = 0; j < total; j++)
		if (j != i && items[j].task == items[i].task &&
		    items[j].t_end <= items[i].t_start &&
		    (!prev || items[j].t_end > prev->t_end))
			prev = &items[j];
	return prev && prev->nvcsw_end == items[i].nvcsw_start;
}

/*
 * Whether CPU @cpu was free around @t: running none of the run's items (by
 * the CPU each started on) and no issuer that was queueing, from @w ns
 * before @t to @w after.  The window is an item's length, so that the
 * moment a busy worker takes its next item does not count as free.
 */
static bool cpu_free_around(struct affn_item *items, unsigned int total,
			    struct issuer *iss, unsigned int nr_issuers,
			    int cpu, u64 t, u64 w)
{
	unsigned int j;

	for (j = 0; j < total; j++)
		if (items[j].start_cpu == cpu && items[j].t_start < t + w &&
		    items[j].t_end + w > t)
			return false;
	for (j = 0; j < nr_issuers; j++)
		if (iss[j].cpu == cpu && iss[j].t_first < t + w &&
		    iss[j].t_last + w > t)
			return false;
	return true;
}

/*
 * Whether item @i started outside analysis_pod while one of its online
 * CPUs was free (cpu_free_around()).  In a guest that runs nothing else,
 * that CPU was idle: the item left the pod though the pod was not
 * saturated.
 */
static bool started_out_free(struct affn_item *items, unsigned int total,
			     struct issuer *iss, unsigned int nr_issuers,
			     unsigned int i)
{
	int c;

	for_each_cpu_and(c, &analysis_pod, cpu_online_mask)
		if (cpu_free_around(items, total, iss, nr_issuers, c,
				    items[i].t_start, items[i].spin_ns))
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Issuers bound to each CPU of @cpus queue @n items each; the result line
 * as documented at the top, @label as the issuer.
 */
static int do_start(const struct cpumask *cpus, const char *label,
		    unsigned int n, unsigned int spin_us, bool serial)
{
	DECLARE_COMPLETION_ONSTACK(done);
	unsigned int nr_issuers = cpumask_weight(cpus), total = nr_issuers * n;
	atomic_t remaining = ATOMIC_INIT(total);
	struct affn_item *items;
	struct issuer *iss;
	unsigned int i, j, *hist, *busy, nr_cpus = 0, out = 0, out_free = 0;
	u64 *lat, first = U64_MAX, last = 0;
	size_t len;
	int c, ret = 0;

	items = kcalloc(total, sizeof(*items), GFP_KERNEL);
	iss = kcalloc(nr_issuers, sizeof(*iss), GFP_KERNEL);
	hist = kcalloc(nr_cpu_ids, sizeof(*hist), GFP_KERNEL);
	busy = kcalloc(nr_cpu_ids, sizeof(*busy), GFP_KERNEL);
	lat = kcalloc(total, sizeof(*lat), GFP_KERNEL);
	if (!items || !iss || !hist || !busy || !lat) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < total; i++) {
		items[i].start_cpu = -1;
		items[i].spin_ns = (u64)spin_us * NSEC_PER_USEC;
		items[i].remaining = &remaining;
		items[i].done = &done;
		init_completion(&items[i].fin);
		INIT_WORK(&items[i].work, start_fn);
	}

	/* create every issuer first, then let them all go */
	j = 0;
	for_each_cpu(c, cpus) {
		struct task_struct *t;

		iss[j].items = items + j * n;
		iss[j].n = n;
		iss[j].serial = serial;
		iss[j].cpu = c;
		init_completion(&iss[j].queued);
		t = kthread_create(issuer_fn, &iss[j], "wq61_affn_issuer/%d", c);
		if (IS_ERR(t)) {
			/* the ones created so far run, so that nothing leaks */
			ret = PTR_ERR(t);
			if (atomic_sub_and_test((nr_issuers - j) * n, &remaining))
				complete(&done);
			nr_issuers = j;
			break;
		}
		kthread_bind(t, c);
		wake_up_process(t);
		j++;
	}
	for (j = 0; j < nr_issuers; j++)
		wait_for_completion(&iss[j].queued);
	if (nr_issuers)
		wait_for_completion(&done);
	flush_workqueue(wq_loc);
	if (ret)
		goto out;

	for (i = 0; i < total; i++) {
		c = items[i].start_cpu;
		if (c < 0 || c >= nr_cpu_ids)
			continue;
		if (!hist[c]++)
			nr_cpus++;
		/* quadratic, but only for the few hundred items of a test */
		if (total <= 1024 && started_busy(items, total, i))
			busy[c]++;
		if (!cpumask_empty(&analysis_pod) &&
		    !cpumask_test_cpu(c, &analysis_pod)) {
			out++;
			if (total <= 1024 &&
			    started_out_free(items, total, iss, nr_issuers, i))
				out_free++;
		}
		lat[i] = items[i].t_start - items[i].t_queue;
		first = min(first, items[i].t_queue);
		last = max(last, items[i].t_end);
	}
	sort(lat, total, sizeof(*lat), cmp_u64, NULL);
	len = scnprintf(result, sizeof(result), "items=%u issuer=%s hist=",
			total, label);
	for (c = 0; c < nr_cpu_ids; c++)
		len += scnprintf(result + len, sizeof(result) - len, "%s%u",
				 c ? "," : "", hist[c]);
	len += scnprintf(result + len, sizeof(result) - len, " busy_hist=");
	for (c = 0; c < nr_cpu_ids; c++)
		len += scnprintf(result + len, sizeof(result) - len, "%s%u",
				 c ? "," : "", busy[c]);
	len += scnprintf(result + len, sizeof(result) - len,
			 " cpus=%u lat_p50_us=%llu lat_p99_us=%llu ms=%llu",
			 nr_cpus, div_u64(lat[total / 2], NSEC_PER_USEC),
			 div_u64(lat[total - 1 - total / 100], NSEC_PER_USEC),
			 div_u64(last - first, NSEC_PER_MSEC));
	if (!cpumask_empty(&analysis_pod))
		len += scnprintf(result + len, sizeof(result) - len,
				 " out=%u out_free=%u", out, out_free);
	scnprintf(result + len, sizeof(result) - len, "\n");
out:
	kfree(items);
	kfree(iss);
	kfree(hist);
	kfree(busy);
	kfree(lat);
	return ret;
}

static int do_start_on(unsigned int cpu, unsigned int n, unsigned int spin_us,
		       bool serial)
{
	char label[12];

	snprintf(label, sizeof(label), "%u", cpu);
	return do_start(cpumask_of(cpu), label, n, spin_us, serial);
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
	ma_deadline = 0;
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

/*
 * repat: one round's two items. Completions, not flush_work(): a flush
 * barrier is a work item too and could wake a worker of its own.
 */
struct repat_item {
	struct work_struct work;
	int out;			/* move the worker there; -1: stay */
	int start_cpu, moved_cpu;
	u64 migrations;			/* the worker's, when it started */
	u64 moved_migrations;		/* the worker's, once on OUT */
	struct task_struct *task;	/* the worker, referenced */
	/* repatb: queued with queue_work_on(next_cpu) from OUT, at the end */
	struct repat_item *next;
	int next_cpu;
	struct completion fin;
};

/* serialized by ctl_mutex: the worker's own CPUs while it visits OUT */
static struct cpumask repat_saved;

static void repat_fn(struct work_struct *work)
{
	struct repat_item *it = container_of(work, struct repat_item, work);

	it->start_cpu = raw_smp_processor_id();
	it->migrations = current->se.nr_migrations;
	it->task = get_task_struct(current);
	it->moved_cpu = -1;
	if (it->out >= 0) {
		/*
		 * What the scheduler may do to a non-strict worker at any
		 * time, done on purpose: the worker keeps running on OUT,
		 * allowed its usual CPUs again, and goes idle there.
		 */
		cpumask_copy(&repat_saved, current->cpus_ptr);
		if (!set_cpus_allowed_ptr(current, cpumask_of(it->out)))
			it->moved_cpu = raw_smp_processor_id();
		set_cpus_allowed_ptr(current, &repat_saved);
		it->moved_migrations = current->se.nr_migrations;
	}
	/* still running on OUT: the worker is busy when the next item waits */
	if (it->next)
		queue_work_on(it->next_cpu, wq_loc, &it->next->work);
	complete(&it->fin);
}

struct repat_run {
	unsigned int issuer, out, rounds, counted;
	bool busy;			/* repatb */
	unsigned int *starts;		/* B's start CPU, counted rounds */
	unsigned int *moves;		/* migrations from OUT to that start */
	struct completion done;
};

static void repat_init(struct repat_item *it, int out)
{
	it->out = out;
	it->task = NULL;
	it->next = NULL;
	init_completion(&it->fin);
	INIT_WORK_ONSTACK(&it->work, repat_fn);
}

/* Queue @it from this CPU and wait until its function has run. */
static void repat_one(struct repat_item *it, unsigned int cpu, int out)
{
	repat_init(it, out);
	queue_work_on(cpu, wq_loc, &it->work);
	wait_for_completion(&it->fin);
}

/*
 * repatb's round: A moves its worker to OUT and, still running there,
 * queues B for the issuer's pool, so that the worker is busy, not idle,
 * when B waits.  Counted when A's worker ran B: the start CPU of B, and
 * the worker's migrations from OUT to B's start.
 */
static void repatb_round(struct repat_run *run)
{
	struct repat_item a, b;

	repat_init(&a, run->out);
	repat_init(&b, -1);
	a.next = &b;
	a.next_cpu = run->issuer;
	queue_work_on(run->issuer, wq_loc, &a.work);
	wait_for_completion(&a.fin);
	wait_for_completion(&b.fin);
	if (a.moved_cpu == run->out && b.task == a.task) {
		run->starts[run->counted] = b.start_cpu;
		run->moves[run->counted++] = b.migrations - a.moved_migrations;
	}
	put_task_struct(a.task);
	put_task_struct(b.task);
	destroy_work_on_stack(&a.work);
	destroy_work_on_stack(&b.work);
}

static bool asleep(struct task_struct *p)
{
	return !READ_ONCE(p->on_rq) && !READ_ONCE(p->on_cpu);
}

static int repat_issuer_fn(void *data)
{
	struct repat_run *run = data;
	struct repat_item a, b;
	unsigned int i, polls;
	u64 slept;

	for (i = 0; i < run->rounds; i++) {
		if (run->busy) {
			repatb_round(run);
			continue;
		}
		repat_one(&a, run->issuer, run->out);
		/*
		 * Wait (a state, not a time) until A's worker sleeps: off
		 * the run queue and off OUT itself. A task still inside
		 * schedule() (on_cpu) is woken on the CPU it is leaving,
		 * without a choice of CPU. 10 s is only a bound for a
		 * round that cannot count.
		 */
		for (polls = 0; polls < 50000; polls++) {
			if (asleep(a.task))
				break;
			usleep_range(200, 400);
		}
		if (a.moved_cpu != run->out || !asleep(a.task) ||
		    task_cpu(a.task) != run->out) {
			put_task_struct(a.task);
			destroy_work_on_stack(&a.work);
			continue;
		}
		/* asleep: nothing moves it until it is woken */
		slept = READ_ONCE(a.task->se.nr_migrations);
		repat_one(&b, run->issuer, -1);
		if (b.task == a.task) {
			run->starts[run->counted] = b.start_cpu;
			run->moves[run->counted++] = b.migrations - slept;
		}
		put_task_struct(a.task);
		put_task_struct(b.task);
		destroy_work_on_stack(&a.work);
		destroy_work_on_stack(&b.work);
	}
	complete(&run->done);
	return 0;
}

static int do_repat(unsigned int issuer, unsigned int out, unsigned int rounds,
		    bool busy)
{
	struct repat_run run = { .issuer = issuer, .out = out, .rounds = rounds,
				 .busy = busy };
	struct task_struct *t;
	unsigned int i;
	int len, ret = 0;

	run.starts = kcalloc(rounds, sizeof(*run.starts), GFP_KERNEL);
	run.moves = kcalloc(rounds, sizeof(*run.moves), GFP_KERNEL);
	if (!run.starts || !run.moves) {
		ret = -ENOMEM;
		goto out;
	}
	init_completion(&run.done);
	t = kthread_create(repat_issuer_fn, &run, "wq61_repat");
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	kthread_bind(t, issuer);
	wake_up_process(t);
	wait_for_completion(&run.done);
	len = scnprintf(result, sizeof(result), "rounds=%u counted=%u starts=",
			rounds, run.counted);
	for (i = 0; i < run.counted; i++)
		len += scnprintf(result + len, sizeof(result) - len, "%s%u",
				 i ? "," : "", run.starts[i]);
	len += scnprintf(result + len, sizeof(result) - len, " moves=");
	for (i = 0; i < run.counted; i++)
		len += scnprintf(result + len, sizeof(result) - len, "%s%u",
				 i ? "," : "", run.moves[i]);
	scnprintf(result + len, sizeof(result) - len, "\n");
out:
	kfree(run.starts);
	kfree(run.moves);
	return ret;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (!strcmp(cmd, "start") && n == 3 && a < nr_cpu_ids && cpu_online(a) &&
	    b > 0 && b <= 4096 && c <= 100000)
		return do_start_on(a, b, c, false);
	if (!strcmp(cmd, "startw") && n == 3 && a < nr_cpu_ids && cpu_online(a) &&
	    b > 0 && b <= 4096 && c <= 100000)
		return do_start_on(a, b, c, true);
	if (!strcmp(cmd, "startall") && n == 2 && a > 0 && a <= 256 &&
	    b <= 100000) {
		/* serialized by ctl_mutex; nobody unplugs CPUs meanwhile */
		static struct cpumask online;

		cpumask_copy(&online, cpu_online_mask);
		return do_start(&online, "all", a, b, false);
	}
	if ((!strcmp(cmd, "repat") || !strcmp(cmd, "repatb")) && n == 3 &&
	    a < nr_cpu_ids && cpu_online(a) && b < nr_cpu_ids &&
	    cpu_online(b) && a != b && c > 0 && c <= 200)
		return do_repat(a, b, c, !strcmp(cmd, "repatb"));
	if (!strcmp(cmd, "hpbegin") && n == 2 && a >= 2 && a <= 4096 &&
	    b <= 100000)
		return do_hpbegin(a, b);
	if (!strcmp(cmd, "hpend") && n == 0)
		return do_hpend();
	if (!strcmp(cmd, "pod") && n == 1) {
		int cpu;

		/* only CPUs that exist: a stray bit would count nothing */
		for (cpu = 0; cpu < 32; cpu++)
			if ((a & BIT(cpu)) && !cpu_possible(cpu))
				return -EINVAL;
		cpumask_clear(&analysis_pod);
		for (cpu = 0; cpu < 32; cpu++)
			if (a & BIT(cpu))
				cpumask_set_cpu(cpu, &analysis_pod);
		return 0;
	}
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
	if (hp_slots) {
		hp_stop();
		flush_workqueue(wq_loc);
		kfree(hp_slots);
	}
	destroy_workqueue(wq_loc);
	destroy_workqueue(wq_ma);
}

module_init(wq61_affinity_init);
module_exit(wq61_affinity_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: start CPUs and concurrency of unbound work items, for the affinity-scope tests");
