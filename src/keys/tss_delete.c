// SPDX-License-Identifier: LGPL-2.1-or-later
#include <threads.h>
#include "nptl.h"

NPTL_API void __nptl_tss_delete(tss_t k)
{
	__nptl_pthread_key_delete(k);
}
NPTL_SYMVER_DEFAULT(__nptl_tss_delete, tss_delete, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_tss_delete, tss_delete, GLIBC_2.28);
