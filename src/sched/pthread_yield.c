// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_yield@GLIBC_2.2.5: LinuxThreads' name for sched_yield, kept for
 * old binaries only (glibc 2.34 made it compat-only).  */
#include <sched.h>
#include "nptl.h"

NPTL_API int __nptl_pthread_yield(void)
{
	return sched_yield();
}
NPTL_SYMVER_COMPAT(__nptl_pthread_yield, pthread_yield, GLIBC_2.2.5);
