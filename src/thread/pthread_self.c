// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

/* A pthread_t is the descriptor's address, for glibc's threads and ours.  */
NPTL_API pthread_t __nptl_pthread_self(void)
{
	return (pthread_t)nptl_self();
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_self, pthread_self, GLIBC_2.2.5);

NPTL_API thrd_t __nptl_thrd_current(void)
{
	return (thrd_t)nptl_self();
}
NPTL_SYMVER_DEFAULT(__nptl_thrd_current, thrd_current, GLIBC_2.28);
