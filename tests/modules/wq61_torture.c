// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_torture: push the workqueue API from several threads at once and
 * account for every work item exactly (tests/guest/31-torture.sh, make
 * torture). Attribute changes and CPU hotplug come from the driver script
 * meanwhile; the module only checks that nothing it did went wrong.
 *
 * Workqueues: per-cpu, WQ_HIGHPRI, WQ_CPU_INTENSIVE, WQ_MEM_RECLAIM,
 * ordered, implicitly ordered (wq61_t_iord: WQ_UNBOUND, max_active 1,
 * which 6.1 drivers rely on to be ordered too), and three unbound
 * WQ_SYSFS ones the driver reconfigures:
 * wq61_t_ub0, wq61_t_ub1 (anything) and wq61_t_ma (max_active 2, only its
 * scope and strictness are changed). Thread 0 also creates and destroys a
 * workqueue of its own over and over.
 *
 * Items: 512 shared delayed works, each tied to one workqueue and of one
 * kind (plain, hog past the CPU-intensive threshold, sleep, requeue itself,
 * queue another item), 32 rcu_works, and per-thread private items for the
 * flush checks. Operations, chosen at random: queue_work, queue_work_on
 * (any possible CPU), mod_delayed_work, cancel_delayed_work_sync,
 * flush_work, queue_rcu_work, flush_workqueue (after queueing a private
 * item), and workqueue create/queue/destroy.
 *
 * Accounting: before an item is queued its "pending" count goes up, and
 * comes down again when the call says it queued nothing, when it runs and
 * when a cancel removes it. So it must never go below 0 (a run too many,
 * counted as it happens) and must be 0 when everything has settled (what
 * is left was lost): exactly_once reports both as wq61_tally.h's lost/dup.
 * Also checked: an item never runs twice at once, never on a CPU that is
 * not online; the ordered workqueue runs one item at a time, in queueing
 * order; wq61_t_ma never runs more than MA_BOUND; a flush returns only
 * after the flushed item ran. A mismatch is counted
 * and the item's recent history printed.
 *
 *   echo "run SECONDS THREADS" > /sys/kernel/debug/wq61_torture/ctl
 *
 * runs for SECONDS (1..86400) with THREADS (1..16) threads, then settles
 * and leaves KTAP lines in ctl, one test per check. "cycle N [K]" creates
 * and destroys N workqueues, "rcu_barrier" waits for RCU callbacks (both for
 * tests/guest/32-leaks.sh); "mkwq", "probe", "ordered", "requeue" and
 * "max_active": see below.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/sched.h>

#include "wq61_ctl.h"
#include "wq61_tally.h"

enum { T_PERCPU, T_HIGHPRI, T_INTENSIVE, T_RECLAIM, T_ORDERED, T_UB0, T_UB1,
	T_MA, T_IORD, NR_T_WQS };

static const char * const wq_names[NR_T_WQS] = {
	"percpu", "highpri", "intensive", "reclaim", "ordered", "ub0", "ub1", "ma",
	"iord",
};

enum { K_PLAIN, K_HOG, K_SLEEP, K_REQUEUE, K_CHAIN, NR_KINDS };

#define NR_ITEMS	512
#define NR_RCU		32
#define HIST		8
#define MA_LIMIT	2
/*
 * wq61_t_ma's bound on items running at once: max_active per NUMA node,
 * plus once more for the pools that belong to no node (system scope, the
 * fallback pwq while a pod is offline), which count on their own (as in
 * mainline 6.9+).
 */
#define MA_BOUND	(MA_LIMIT * (num_possible_nodes() + 1))

struct t_item {
	struct delayed_work dw;
	int wq, kind, idx;
	atomic_t pending;	/* queueings not yet run or canceled */
	atomic_t running;	/* inside the work function */
	atomic64_t runs;
	/* recent events, for the report of a mismatch */
	spinlock_t hlock;
	unsigned int hpos;
	struct { char op; s16 cpu; u32 at_ms; int pending; } hist[HIST];
};

struct t_rcu {
	struct rcu_work rw;
	atomic_t pending;
};

struct t_private {
	struct work_struct work;
	atomic_t runs;
};

struct t_thread {
	struct task_struct *task;
	int id;
	struct t_private priv;
};

static struct workqueue_struct *wqs[NR_T_WQS];
static struct t_item *items;
static struct t_rcu *rcus;
static struct t_thread threads[16];
static bool stopping;
static struct dentry *dir;
static u64 t0_ms;

/*
 * ordered: the items in the order they were queued, appended together with
 * the queueing and taken off as each starts, under ord_lock. An item that
 * starts must be the first. (A sequence number stored in the item would
 * not do: once an item has started, it can be queued again before its
 * function gets to read the number.) Ordered items are never canceled.
 */
#define ORD_RING	256
static DEFINE_SPINLOCK(ord_lock);
static int ord_ring[2][ORD_RING];	/* [0] wq61_t_ordered, [1] wq61_t_iord */
static unsigned int ord_head[2], ord_tail[2];
static u64 ord_seq;
static atomic_t ord_running[2];

/*
 * Whether wq61_t_iord (WQ_UNBOUND, max_active 1) is checked as ordered: it
 * is in 6.1 and wq61; mainline dropped implicit ordering in 6.9
 * (3bc1e711c26b), so 31-torture clears this there. Set before a run.
 */
static bool implicit_ordered = true;
module_param(implicit_ordered, bool, 0644);

/* the ordered workqueues: -1 for the others, else their ord_ring index */
static int ord_idx(int wq)
{
	if (wq == T_ORDERED)
		return 0;
	return wq == T_IORD && READ_ONCE(implicit_ordered) ? 1 : -1;
}
/* wq61_t_ma: in flight and the most seen */
static atomic_t ma_running, ma_peak;

static struct {
	atomic64_t ops, runs, queues, cancels, flushes, wq_cycles, rcu_runs;
	atomic_t neg_pending, left_pending, concurrent, offline, ord_overlap,
		 ord_order, ma_over, flush_early, wq_destroy_lost, errors_shown;
} st;

static void hist_add(struct t_item *it, char op)
{
	unsigned long flags;
	unsigned int p;

	spin_lock_irqsave(&it->hlock, flags);
	p = it->hpos++ % HIST;
	it->hist[p].op = op;
	it->hist[p].cpu = raw_smp_processor_id();
	it->hist[p].at_ms = (u32)(ktime_get_ns() / NSEC_PER_MSEC - t0_ms);
	it->hist[p].pending = atomic_read(&it->pending);
	spin_unlock_irqrestore(&it->hlock, flags);
}

/* a mismatch: count it, and show the first few items' history */
static void report(struct t_item *it, atomic_t *counter, const char *what)
{
	char buf[HIST * 24];
	unsigned long flags;
	unsigned int i, n, len = 0;

	atomic_inc(counter);
	if (atomic_inc_return(&st.errors_shown) > 10)
		return;
	spin_lock_irqsave(&it->hlock, flags);
	n = min_t(unsigned int, it->hpos, HIST);
	for (i = it->hpos - n; i != it->hpos; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, " %c@%d/%ums/%d",
				 it->hist[i % HIST].op, it->hist[i % HIST].cpu,
				 it->hist[i % HIST].at_ms, it->hist[i % HIST].pending);
	spin_unlock_irqrestore(&it->hlock, flags);
	pr_err("wq61_torture: item %d (wq %s, kind %d): %s; pending %d, runs %lld; history (op@cpu/ms/pending):%s\n",
	       it->idx, wq_names[it->wq], it->kind, what,
	       atomic_read(&it->pending), atomic64_read(&it->runs), buf);
}

/* any possible CPU, online or not */
static int random_possible_cpu(void)
{
	int cpu = get_random_u32() % nr_cpu_ids;

	return cpu_possible(cpu) ? cpu : cpumask_first(cpu_possible_mask);
}

/* queue @it on its workqueue, on @cpu if >= 0, keeping the count right */
static void t_queue(struct t_item *it, int cpu)
{
	int o = ord_idx(it->wq);
	bool queued;

	atomic_inc(&it->pending);
	if (o >= 0) {
		/* the sequence follows the queueing order exactly */
		spin_lock_bh(&ord_lock);
		queued = queue_work(wqs[it->wq], &it->dw.work);
		if (queued) {
			ord_ring[o][ord_tail[o]++ % ORD_RING] = it->idx;
			ord_seq++;
		}
		spin_unlock_bh(&ord_lock);
	} else if (cpu >= 0) {
		queued = queue_work_on(cpu, wqs[it->wq], &it->dw.work);
	} else {
		queued = queue_work(wqs[it->wq], &it->dw.work);
	}
	if (!queued)
		atomic_dec(&it->pending);
	else
		atomic64_inc(&st.queues);
	hist_add(it, queued ? 'Q' : 'q');
}

static void t_work_fn(struct work_struct *work)
{
	struct t_item *it = container_of(to_delayed_work(work), struct t_item, dw);
	int o = ord_idx(it->wq);
	bool offline;

	/* not preemptible: the CPU can't finish going down under us */
	preempt_disable();
	offline = !cpu_online(smp_processor_id());
	preempt_enable();

	if (atomic_dec_return(&it->pending) < 0)
		report(it, &st.neg_pending, "ran more often than queued");
	if (atomic_inc_return(&it->running) > 1)
		report(it, &st.concurrent, "runs twice at once");
	if (offline)
		report(it, &st.offline, "runs on an offline CPU");
	hist_add(it, 'R');

	if (o >= 0) {
		bool first;

		if (atomic_inc_return(&ord_running[o]) > 1)
			report(it, &st.ord_overlap, "ordered: another item runs too");
		spin_lock_bh(&ord_lock);
		first = ord_head[o] != ord_tail[o] &&
			ord_ring[o][ord_head[o] % ORD_RING] == it->idx;
		if (ord_head[o] != ord_tail[o])
			ord_head[o]++;
		spin_unlock_bh(&ord_lock);
		if (!first)
			report(it, &st.ord_order, "ordered: out of order");
	}
	if (it->wq == T_MA) {
		int now = atomic_inc_return(&ma_running);
		int peak = atomic_read(&ma_peak);

		while (now > peak && atomic_cmpxchg(&ma_peak, peak, now) != peak)
			peak = atomic_read(&ma_peak);
		if (now > MA_BOUND)
			report(it, &st.ma_over, "max_active exceeded");
	}

	switch (it->kind) {
	case K_HOG: {
		/* past the default 10 ms CPU-intensive threshold */
		u64 end = ktime_get_ns() + 12 * NSEC_PER_MSEC;

		while (ktime_get_ns() < end)
			cpu_relax();
		break;
	}
	case K_SLEEP:
		usleep_range(500, 2000);
		break;
	case K_REQUEUE:
		if (!READ_ONCE(stopping) && get_random_u32() % 2)
			t_queue(it, -1);
		break;
	case K_CHAIN:
		if (!READ_ONCE(stopping))
			t_queue(&items[get_random_u32() % NR_ITEMS], -1);
		break;
	}

	if (it->wq == T_MA)
		atomic_dec(&ma_running);
	if (o >= 0)
		atomic_dec(&ord_running[o]);
	atomic64_inc(&it->runs);
	atomic64_inc(&st.runs);
	atomic_dec(&it->running);
}

static void t_rcu_fn(struct work_struct *work)
{
	struct t_rcu *r = container_of(to_rcu_work(work), struct t_rcu, rw);

	atomic_dec(&r->pending);
	atomic64_inc(&st.rcu_runs);
}

static void t_private_fn(struct work_struct *work)
{
	struct t_private *p = container_of(work, struct t_private, work);

	atomic_inc(&p->runs);
}

/* queue the thread's private item on @wq, flush, and check it ran */
static void t_flush_check(struct t_thread *t, struct workqueue_struct *wq,
			  bool whole_wq)
{
	int before = atomic_read(&t->priv.runs);

	if (!queue_work(wq, &t->priv.work))
		return;		/* cannot happen: only this thread queues it */
	if (whole_wq)
		flush_workqueue(wq);
	else
		flush_work(&t->priv.work);
	if (atomic_read(&t->priv.runs) != before + 1) {
		atomic_inc(&st.flush_early);
		pr_err("wq61_torture: thread %d: %s returned before its item ran\n",
		       t->id, whole_wq ? "flush_workqueue" : "flush_work");
	}
	atomic64_inc(&st.flushes);
}

/* create a workqueue, queue private items, destroy it: all must have run */
static void t_wq_cycle(struct t_thread *t)
{
	static const unsigned int flags[] = { 0, WQ_UNBOUND, WQ_HIGHPRI,
		WQ_UNBOUND | WQ_SYSFS, WQ_MEM_RECLAIM };
	struct t_private p[8];
	struct workqueue_struct *wq;
	int i, ran = 0;

	wq = alloc_workqueue("wq61_t_tmp", flags[get_random_u32() % ARRAY_SIZE(flags)], 0);
	if (!wq)
		return;
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		INIT_WORK_ONSTACK(&p[i].work, t_private_fn);
		atomic_set(&p[i].runs, 0);
		if (i % 2)
			queue_work(wq, &p[i].work);
		else
			queue_work_on(random_possible_cpu(), wq, &p[i].work);
	}
	destroy_workqueue(wq);
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		ran += atomic_read(&p[i].runs);
		destroy_work_on_stack(&p[i].work);
	}
	if (ran != ARRAY_SIZE(p)) {
		atomic_inc(&st.wq_destroy_lost);
		pr_err("wq61_torture: destroy_workqueue() returned with %d of %zu items run\n",
		       ran, ARRAY_SIZE(p));
	}
	atomic64_inc(&st.wq_cycles);
}

static int t_thread_fn(void *data)
{
	struct t_thread *t = data;
	unsigned long next_cycle = jiffies;

	while (!kthread_should_stop()) {
		struct t_item *it = &items[get_random_u32() % NR_ITEMS];
		unsigned int op = get_random_u32() % 16;

		atomic64_inc(&st.ops);
		switch (op) {
		case 0 ... 4:
			t_queue(it, -1);
			break;
		case 5 ... 6:
			if (ord_idx(it->wq) >= 0) {
				t_queue(it, -1);
				break;
			}
			t_queue(it, random_possible_cpu());
			break;
		case 7 ... 8:
			if (ord_idx(it->wq) >= 0) {
				t_queue(it, -1);
				break;
			}
			/* pending either way afterwards: +1 only if it was idle */
			atomic_inc(&it->pending);
			if (mod_delayed_work(wqs[it->wq], &it->dw, get_random_u32() % 3))
				atomic_dec(&it->pending);
			hist_add(it, 'M');
			break;
		case 9:
			/* see ord_ring */
			if (ord_idx(it->wq) >= 0)
				break;
			if (cancel_delayed_work_sync(&it->dw)) {
				atomic_dec(&it->pending);
				atomic64_inc(&st.cancels);
			}
			hist_add(it, 'C');
			break;
		case 10:
			flush_delayed_work(&it->dw);
			hist_add(it, 'F');
			break;
		case 11: {
			struct t_rcu *r = &rcus[get_random_u32() % NR_RCU];

			atomic_inc(&r->pending);
			if (!queue_rcu_work(wqs[get_random_u32() % 2 ? T_UB0 : T_PERCPU], &r->rw))
				atomic_dec(&r->pending);
			break;
		}
		case 12:
			t_flush_check(t, wqs[get_random_u32() % NR_T_WQS], false);
			break;
		case 13:
			t_flush_check(t, wqs[get_random_u32() % NR_T_WQS], true);
			break;
		default:
			if (t->id == 0 && time_after_eq(jiffies, next_cycle)) {
				t_wq_cycle(t);
				next_cycle = jiffies + msecs_to_jiffies(50);
			} else {
				usleep_range(100, 500);
			}
			break;
		}
		cond_resched();
	}
	return 0;
}

#define KTAP(n, ok, name, fmt, ...)					\
	(len += scnprintf(result + len, sizeof(result) - len,		\
			  "%s %d %s # " fmt "\n", (ok) ? "ok" : "not ok",	\
			  (n), (name), ##__VA_ARGS__))

static int do_run(unsigned int seconds, unsigned int nr_threads)
{
	unsigned long deadline;
	struct wq61_tally t = {};
	int i, rcu_left = 0, created = 0;
	size_t len = 0;

	memset(&st, 0, sizeof(st));
	memset(ord_head, 0, sizeof(ord_head));
	memset(ord_tail, 0, sizeof(ord_tail));
	ord_seq = 0;
	WRITE_ONCE(stopping, false);
	t0_ms = ktime_get_ns() / NSEC_PER_MSEC;
	atomic_set(&ma_peak, 0);
	for (i = 0; i < NR_ITEMS; i++) {
		struct t_item *it = &items[i];

		memset(it, 0, sizeof(*it));
		it->idx = i;
		it->wq = i % NR_T_WQS;
		/* ordered items stay plain: ordering is about queueing order */
		it->kind = ord_idx(it->wq) >= 0 ? K_PLAIN : (i / NR_T_WQS) % NR_KINDS;
		spin_lock_init(&it->hlock);
		INIT_DELAYED_WORK(&it->dw, t_work_fn);
	}
	for (i = 0; i < NR_RCU; i++) {
		INIT_RCU_WORK(&rcus[i].rw, t_rcu_fn);
		atomic_set(&rcus[i].pending, 0);
	}

	for (i = 0; i < nr_threads; i++) {
		struct t_thread *t = &threads[i];

		t->id = i;
		INIT_WORK(&t->priv.work, t_private_fn);
		atomic_set(&t->priv.runs, 0);
		t->task = kthread_run(t_thread_fn, t, "wq61_torture/%d", i);
		if (IS_ERR(t->task)) {
			t->task = NULL;
			break;
		}
		created++;
	}

	deadline = jiffies + seconds * HZ;
	while (time_before(jiffies, deadline) && created)
		msleep(100);

	/* settle: no more queueing, then flush what is left */
	for (i = 0; i < created; i++)
		kthread_stop(threads[i].task);
	WRITE_ONCE(stopping, true);
	for (i = 0; i < NR_ITEMS; i++)
		flush_delayed_work(&items[i].dw);
	/* an item run by the flushes may have chained another one: again */
	for (i = 0; i < NR_ITEMS; i++)
		flush_delayed_work(&items[i].dw);
	for (i = 0; i < NR_RCU; i++)
		flush_rcu_work(&rcus[i].rw);
	for (i = 0; i < NR_T_WQS; i++)
		flush_workqueue(wqs[i]);

	for (i = 0; i < NR_ITEMS; i++) {
		int owed = atomic_read(&items[i].pending);

		/* a balance below 0 was counted when the extra run happened */
		if (owed > 0) {
			wq61_tally_owed(&t, owed);
			report(&items[i], &st.left_pending, "queued but never ran");
		}
	}
	for (i = 0; i < NR_RCU; i++)
		rcu_left += atomic_read(&rcus[i].pending) != 0;

	len += scnprintf(result + len, sizeof(result) - len,
			 "KTAP version 1\n# %u s, %d threads: %lld ops, %lld queueings, %lld runs, %lld cancels, %lld flush checks, %lld workqueues created and destroyed, %lld rcu_work runs; ordered wq %llu items; wq61_t_ma peak %d\n1..10\n",
			 seconds, created, atomic64_read(&st.ops), atomic64_read(&st.queues),
			 atomic64_read(&st.runs), atomic64_read(&st.cancels),
			 atomic64_read(&st.flushes), atomic64_read(&st.wq_cycles),
			 atomic64_read(&st.rcu_runs), ord_seq, atomic_read(&ma_peak));
	KTAP(1, created == nr_threads && atomic64_read(&st.runs) > 0, "ran",
	     "%d of %u threads", created, nr_threads);
	t.dup = atomic_read(&st.neg_pending);
	KTAP(2, wq61_tally_exact(&t), "exactly_once",
	     "lost=%lu dup=%lu (queueings never run, runs never queued)",
	     t.lost, t.dup);
	KTAP(3, !atomic_read(&st.concurrent), "never_twice_at_once", "%d",
	     atomic_read(&st.concurrent));
	KTAP(4, !atomic_read(&st.offline), "never_on_offline_cpu", "%d",
	     atomic_read(&st.offline));
	KTAP(5, !atomic_read(&st.ord_overlap) && !atomic_read(&st.ord_order),
	     "ordered_in_order", "%d overlaps, %d out of order",
	     atomic_read(&st.ord_overlap), atomic_read(&st.ord_order));
	KTAP(6, !atomic_read(&st.ma_over), "max_active_kept", "peak %d, limit %d",
	     atomic_read(&ma_peak), MA_BOUND);
	KTAP(7, !atomic_read(&st.flush_early), "flush_waits", "%d early",
	     atomic_read(&st.flush_early));
	KTAP(8, !atomic_read(&st.wq_destroy_lost), "destroy_drains", "%d",
	     atomic_read(&st.wq_destroy_lost));
	KTAP(9, !rcu_left, "rcu_work_ran", "%d left", rcu_left);
	KTAP(10, atomic64_read(&st.wq_cycles) > 0 || created == 0, "wq_create_destroy",
	     "%lld cycles", atomic64_read(&st.wq_cycles));
	return 0;
}

static void cycle_fn(struct work_struct *work)
{
	struct t_private *p = container_of(work, struct t_private, work);

	atomic_inc(&p->runs);
}

/*
 * "cycle N [K]": create a workqueue, run one item on it, destroy it, N
 * times, rotating through per-cpu, unbound (with sysfs files), ordered and
 * rescuer-backed workqueues (cycle_flags[], starting at K, default 0);
 * then wait out RCU so that what the destroys free later has been freed
 * (tests/guest/32-leaks.sh measures the rest). "cycle 1 K" is one
 * workqueue of kind K: tests/guest/35-alloc-fail.sh fails its allocations
 * one by one.
 */
static const unsigned int cycle_flags[] = {
	0, WQ_UNBOUND | WQ_SYSFS, WQ_UNBOUND | __WQ_ORDERED,
	WQ_MEM_RECLAIM, WQ_UNBOUND | WQ_MEM_RECLAIM | WQ_SYSFS,
};

static int do_cycle(unsigned int n, unsigned int first)
{
	struct t_private p = { .runs = ATOMIC_INIT(0) };
	struct workqueue_struct *wq;
	u64 t = ktime_get_ns();
	unsigned int i;

	INIT_WORK_ONSTACK(&p.work, cycle_fn);
	for (i = 0; i < n; i++) {
		unsigned int f = cycle_flags[(first + i) % ARRAY_SIZE(cycle_flags)];

		wq = alloc_workqueue("wq61_t_cycle", f, f & __WQ_ORDERED ? 1 : 0);
		if (!wq)
			break;
		queue_work(wq, &p.work);
		destroy_workqueue(wq);	/* drains: the item has run */
	}
	destroy_work_on_stack(&p.work);
	rcu_barrier();
	scnprintf(result, sizeof(result), "cycles=%u runs=%d ms=%llu\n", i,
		  atomic_read(&p.runs), (ktime_get_ns() - t) / NSEC_PER_MSEC);
	return i == n ? 0 : -ENOMEM;
}

/*
 * "mkwq" and "probe" (tests/guest/33-create-race.sh): mkwq creates an
 * unbound workqueue with sysfs files and a rescuer, which makes its
 * creation long enough for a change of the global unbound cpumask to land
 * in the middle of it; probe queues an item on every online CPU of it,
 * waits for them, destroys it and says on which CPUs they ran.
 */
static struct workqueue_struct *probe_wq;

struct probe_item {
	struct work_struct work;
	int ran_on;
};

static void probe_fn(struct work_struct *work)
{
	struct probe_item *pi = container_of(work, struct probe_item, work);

	pi->ran_on = raw_smp_processor_id();
}

static int do_mkwq(void)
{
	if (probe_wq)
		return -EBUSY;
	probe_wq = alloc_workqueue("wq61_t_new",
				   WQ_UNBOUND | WQ_MEM_RECLAIM | WQ_SYSFS, 0);
	return probe_wq ? 0 : -ENOMEM;
}

static int do_probe(void)
{
	struct probe_item *pi;
	cpumask_var_t queued, ran;
	int cpu, ret = -ENOMEM;

	if (!probe_wq)
		return -ENOENT;
	pi = kcalloc(nr_cpu_ids, sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&queued, GFP_KERNEL))
		goto free_pi;
	if (!zalloc_cpumask_var(&ran, GFP_KERNEL))
		goto free_queued;

	for_each_online_cpu(cpu) {
		INIT_WORK(&pi[cpu].work, probe_fn);
		pi[cpu].ran_on = -1;
		queue_work_on(cpu, probe_wq, &pi[cpu].work);
		cpumask_set_cpu(cpu, queued);
	}
	for_each_cpu(cpu, queued) {
		flush_work(&pi[cpu].work);
		if (pi[cpu].ran_on >= 0)
			cpumask_set_cpu(pi[cpu].ran_on, ran);
	}
	destroy_workqueue(probe_wq);
	probe_wq = NULL;
	scnprintf(result, sizeof(result), "queued=%*pb ran=%*pb\n",
		  cpumask_pr_args(queued), cpumask_pr_args(ran));
	ret = 0;
	free_cpumask_var(ran);
free_queued:
	free_cpumask_var(queued);
free_pi:
	kfree(pi);
	return ret;
}

/*
 * "ordered N [W]" (tests/guest/34-ordered-cpumask.sh): queue N items in one
 * go on workqueue W, 0 (default) the one alloc_ordered_workqueue() made,
 * 1 the implicitly ordered one (WQ_UNBOUND, max_active 1), and wait for
 * them. Items are queued with queue_work_on(), two on each online CPU in
 * turn, so that they come from the pwqs of several CPUs if the workqueue
 * has them. Two, not one: pwqs that take turns, as the node's line of
 * waiting pwqs does, would run items queued one per CPU in turn in
 * queueing order by chance. The first item waits until all are queued,
 * so that a backlog builds up behind it whatever the speed of the
 * machine. Each
 * item sleeps a little and checks that it runs alone and in queueing
 * order while the driver changes the global unbound cpumask, max_active
 * or the online CPUs.
 */
struct oq_item {
	struct work_struct work;
	int seq;
};

static atomic_t oq_running, oq_next, oq_overlaps, oq_misordered, oq_runs;
static DECLARE_COMPLETION(oq_all_queued);

static void oq_fn(struct work_struct *work)
{
	struct oq_item *it = container_of(work, struct oq_item, work);

	if (atomic_inc_return(&oq_running) != 1)
		atomic_inc(&oq_overlaps);
	if (atomic_xchg(&oq_next, it->seq + 1) != it->seq)
		atomic_inc(&oq_misordered);
	if (it->seq == 0)
		wait_for_completion(&oq_all_queued);
	usleep_range(100, 200);
	atomic_inc(&oq_runs);
	atomic_dec(&oq_running);
}

static int do_ordered(unsigned int n, unsigned int which)
{
	struct workqueue_struct *wq = wqs[which ? T_IORD : T_ORDERED];
	struct oq_item *items;
	unsigned int i;
	int cpu = -1;

	items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	if (!items)
		return -ENOMEM;
	atomic_set(&oq_next, 0);
	atomic_set(&oq_overlaps, 0);
	atomic_set(&oq_misordered, 0);
	atomic_set(&oq_runs, 0);
	reinit_completion(&oq_all_queued);
	for (i = 0; i < n; i++) {
		INIT_WORK(&items[i].work, oq_fn);
		items[i].seq = i;
		/* two in a row per CPU: see the comment above */
		if (!(i % 2)) {
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= nr_cpu_ids)
				cpu = cpumask_first(cpu_online_mask);
		}
		queue_work_on(cpu, wq, &items[i].work);
	}
	complete(&oq_all_queued);
	flush_workqueue(wq);
	scnprintf(result, sizeof(result),
		  "items=%u runs=%d overlaps=%d out_of_order=%d\n", n,
		  atomic_read(&oq_runs), atomic_read(&oq_overlaps),
		  atomic_read(&oq_misordered));
	kfree(items);
	return 0;
}

/*
 * "requeue 1", then "requeue 2" (tests/guest/34-ordered-cpumask.sh): item
 * A of the ordered workqueue starts and waits; "requeue 1" returns once it
 * runs, so that the driver can change the cpumask meanwhile. "requeue 2"
 * queues B and C behind it and lets A go on, which queues itself again (a)
 * before it returns; then waits for all and reports the order they ran
 * in. B and C were queued first: the right order is ABCa.
 */
static struct rq_item {
	struct work_struct work;
	char name;
} rq_items[3];
static DECLARE_COMPLETION(rq_started);
static DECLARE_COMPLETION(rq_go);
static DEFINE_SPINLOCK(rq_lock);
static char rq_order[16];
static unsigned int rq_len;
static bool rq_waiting;		/* under ctl_mutex: "requeue 1" done */

static void rq_fn(struct work_struct *work)
{
	struct rq_item *it = container_of(work, struct rq_item, work);
	bool first;

	spin_lock(&rq_lock);
	first = it->name == 'A' && !strchr(rq_order, 'A');
	if (rq_len < sizeof(rq_order) - 1)
		rq_order[rq_len++] = first || it->name != 'A' ? it->name : 'a';
	spin_unlock(&rq_lock);
	if (!first)
		return;
	complete(&rq_started);
	wait_for_completion(&rq_go);
	queue_work(wqs[T_ORDERED], work);
}

static int do_requeue(unsigned int step)
{
	int i;

	if (step == 1 && !rq_waiting) {
		memset(rq_order, 0, sizeof(rq_order));
		rq_len = 0;
		reinit_completion(&rq_started);
		reinit_completion(&rq_go);
		for (i = 0; i < 3; i++) {
			INIT_WORK(&rq_items[i].work, rq_fn);
			rq_items[i].name = 'A' + i;
		}
		queue_work(wqs[T_ORDERED], &rq_items[0].work);
		wait_for_completion(&rq_started);
		rq_waiting = true;
		return 0;
	}
	if (step != 2 || !rq_waiting)
		return -EINVAL;
	rq_waiting = false;
	queue_work(wqs[T_ORDERED], &rq_items[1].work);
	queue_work(wqs[T_ORDERED], &rq_items[2].work);
	complete(&rq_go);
	/* A requeues itself before it returns: flush_work() would miss it */
	flush_workqueue(wqs[T_ORDERED]);
	flush_workqueue(wqs[T_ORDERED]);
	spin_lock(&rq_lock);
	scnprintf(result, sizeof(result), "order=%s\n", rq_order);
	spin_unlock(&rq_lock);
	return 0;
}

static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c)
{
	if (!strcmp(cmd, "ordered") && (n == 1 || n == 2) && a >= 1 &&
	    a <= 100000 && b <= 1)
		return do_ordered(a, b);
	if (!strcmp(cmd, "requeue") && n == 1)
		return do_requeue(a);
	/* 6.1 lets a driver change max_active of an implicitly ordered wq */
	if (!strcmp(cmd, "max_active") && n == 1 && a >= 1 && a <= 16) {
		workqueue_set_max_active(wqs[T_IORD], a);
		return 0;
	}
	if (!strcmp(cmd, "mkwq") && n == 0)
		return do_mkwq();
	if (!strcmp(cmd, "probe") && n == 0)
		return do_probe();
	if (!strcmp(cmd, "run") && n == 2 && a >= 1 && a <= 86400 &&
	    b >= 1 && b <= ARRAY_SIZE(threads))
		return do_run(a, b);
	if (!strcmp(cmd, "cycle") && (n == 1 || n == 2) && a >= 1 &&
	    a <= 1000000 && (n == 1 || b < ARRAY_SIZE(cycle_flags)))
		return do_cycle(a, n == 2 ? b : 0);
	if (!strcmp(cmd, "rcu_barrier") && n == 0) {
		rcu_barrier();
		return 0;
	}
	return -EINVAL;
}

static int __init wq61_torture_init(void)
{
	int i;

	items = kcalloc(NR_ITEMS, sizeof(*items), GFP_KERNEL);
	rcus = kcalloc(NR_RCU, sizeof(*rcus), GFP_KERNEL);
	wqs[T_PERCPU] = alloc_workqueue("wq61_t_percpu", 0, 0);
	wqs[T_HIGHPRI] = alloc_workqueue("wq61_t_highpri", WQ_HIGHPRI, 0);
	wqs[T_INTENSIVE] = alloc_workqueue("wq61_t_intensive", WQ_CPU_INTENSIVE, 0);
	wqs[T_RECLAIM] = alloc_workqueue("wq61_t_reclaim", WQ_MEM_RECLAIM, 0);
	wqs[T_ORDERED] = alloc_ordered_workqueue("wq61_t_ordered", 0);
	wqs[T_UB0] = alloc_workqueue("wq61_t_ub0", WQ_UNBOUND | WQ_SYSFS, 0);
	wqs[T_UB1] = alloc_workqueue("wq61_t_ub1", WQ_UNBOUND | WQ_SYSFS, 0);
	wqs[T_MA] = alloc_workqueue("wq61_t_ma", WQ_UNBOUND | WQ_SYSFS, MA_LIMIT);
	wqs[T_IORD] = alloc_workqueue("wq61_t_iord", WQ_UNBOUND, 1);
	for (i = 0; i < NR_T_WQS; i++)
		if (!wqs[i])
			goto fail;
	if (!items || !rcus)
		goto fail;
	dir = debugfs_create_dir("wq61_torture", NULL);
	debugfs_create_file("ctl", 0600, dir, NULL, &ctl_fops);
	return 0;
fail:
	for (i = 0; i < NR_T_WQS; i++)
		if (wqs[i])
			destroy_workqueue(wqs[i]);
	kfree(items);
	kfree(rcus);
	return -ENOMEM;
}

static void __exit wq61_torture_exit(void)
{
	int i;

	debugfs_remove_recursive(dir);
	/* a "requeue 1" without its "requeue 2": let item A finish */
	if (rq_waiting)
		complete(&rq_go);
	if (probe_wq)
		destroy_workqueue(probe_wq);
	for (i = 0; i < NR_T_WQS; i++)
		destroy_workqueue(wqs[i]);
	kfree(items);
	kfree(rcus);
}

module_init(wq61_torture_init);
module_exit(wq61_torture_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: workqueue torture test with exact accounting");
