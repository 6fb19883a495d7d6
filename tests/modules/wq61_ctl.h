/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs "ctl" file the wq61 test modules share: a write of
 * "CMD [A [B [C]]]" runs the command synchronously, one at a time, through
 * the including module's ctl_run(); a read returns the result line the
 * command left in result[]. Include once, after defining nothing of these.
 */
#ifndef WQ61_CTL_H
#define WQ61_CTL_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(ctl_mutex);		/* one command at a time */
static char result[2048];		/* the last command's result line */

/*
 * Provided by the module: run @cmd with the @n numbers that followed it
 * (@a, @b, @c; those not given are 0), with ctl_mutex held and result[]
 * empty. Return 0 or a negative errno (-EINVAL for a bad command).
 */
static int ctl_run(const char *cmd, int n, unsigned int a, unsigned int b,
		   unsigned int c);

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[64], cmd[24] = "";
	unsigned int a = 0, b = 0, c = 0;
	int ret, n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	n = sscanf(buf, "%23s %u %u %u", cmd, &a, &b, &c);
	if (n < 1)
		return -EINVAL;

	mutex_lock(&ctl_mutex);
	result[0] = '\0';
	ret = ctl_run(cmd, n - 1, a, b, c);
	mutex_unlock(&ctl_mutex);
	return ret ? ret : len;
}

static ssize_t ctl_read(struct file *file, char __user *ubuf, size_t len,
			loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&ctl_mutex);
	ret = simple_read_from_buffer(ubuf, len, ppos, result, strlen(result));
	mutex_unlock(&ctl_mutex);
	return ret;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.read = ctl_read,
	.llseek = default_llseek,
};

#endif /* WQ61_CTL_H */
