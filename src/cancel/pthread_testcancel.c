// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_testcancel: the cancellation point that does nothing else.  */
#include "nptl.h"

NPTL_API void __nptl_pthread_testcancel(void)
{
	nptl_testcancel();
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_testcancel, pthread_testcancel, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_testcancel, pthread_testcancel, GLIBC_2.2.5);
