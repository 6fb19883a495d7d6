/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exactly-once accounting, one way for every test module: each work item
 * says how often it was queued and how often it ran, and the sum says
 * how many executions were lost (queued, never run) and how many were
 * duplicates (run more often than queued). Results use one vocabulary,
 * "queued=Q ran=R lost=L dup=D" (wq61_tally_show()), which the in-guest
 * tests read with lib.sh's field().
 */
#ifndef WQ61_TALLY_H
#define WQ61_TALLY_H

#include <linux/kernel.h>
#include <linux/types.h>

struct wq61_tally {
	unsigned long queued;	/* executions asked for */
	unsigned long ran;	/* executions seen */
	unsigned long lost;	/* asked for, never seen */
	unsigned long dup;	/* seen, never asked for */
};

/* One item, queued @queued times, that ran @ran times. */
static inline void wq61_tally_item(struct wq61_tally *t, unsigned long queued,
				   unsigned long ran)
{
	t->queued += queued;
	t->ran += ran;
	if (ran < queued)
		t->lost += queued - ran;
	else
		t->dup += ran - queued;
}

/*
 * One item of which only the balance is known (queueings minus runs and
 * cancels), once nothing runs any more: @owed runs never came. A run
 * beyond what was queued is a duplicate the caller counts when it
 * happens, as the balance cannot show it afterwards.
 */
static inline void wq61_tally_owed(struct wq61_tally *t, unsigned long owed)
{
	t->lost += owed;
}

static inline bool wq61_tally_exact(const struct wq61_tally *t)
{
	return !t->lost && !t->dup;
}

/* "queued=Q ran=R lost=L dup=D" into @buf; returns the length written. */
static inline int wq61_tally_show(char *buf, size_t size,
				  const struct wq61_tally *t)
{
	return scnprintf(buf, size, "queued=%lu ran=%lu lost=%lu dup=%lu",
			 t->queued, t->ran, t->lost, t->dup);
}

#endif /* WQ61_TALLY_H */
