// SPDX-License-Identifier: GPL-2.0
/*
 * wq61_warn: triggers WARN_ON(1) on load. Used only to prove that the
 * runner's log scan fails a run whose kernel log contains a WARNING.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init wq61_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit wq61_warn_exit(void)
{
}

module_init(wq61_warn_init);
module_exit(wq61_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wq61: inject a WARN_ON(1) to test the log scan");
