// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdalign.h>
#include <threads.h>
#include "nptl.h"

_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag size");
_Static_assert(alignof(once_flag) == alignof(pthread_once_t), "once_flag align");

NPTL_API void __nptl_call_once(once_flag *flag, void (*fn)(void))
{
	__nptl_pthread_once((pthread_once_t *)flag, fn);
}
NPTL_SYMVER_DEFAULT(__nptl_call_once, call_once, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_call_once, call_once, GLIBC_2.28);
