// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

int nptl_futex_wait_abs(void *addr, int val, clockid_t clock,
			const struct timespec *abs, bool private)
{
	int op = FUTEX_WAIT_BITSET | (private ? FUTEX_PRIVATE_FLAG : 0);
	if (abs && clock == CLOCK_REALTIME)
		op |= FUTEX_CLOCK_REALTIME;
	long r = nptl_syscall(SYS_futex, addr, op, val, abs, 0,
			      FUTEX_BITSET_MATCH_ANY);
	/* EINVAL: a negative deadline or a bad tv_nsec; callers check first,
	 * but a caller looping on 0 must never spin on it.  */
	if (r == -ETIMEDOUT || r == -EINTR || r == -EINVAL)
		return (int)-r;
	return 0;
}
