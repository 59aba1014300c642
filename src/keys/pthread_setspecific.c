// SPDX-License-Identifier: LGPL-2.1-or-later
#include <stdlib.h>
#include "nptl.h"

int __nptl_pthread_setspecific(pthread_key_t k, const void *v)
{
	struct pthread *self = nptl_self();
	struct glibc_key_data *d;

	if (k >= GLIBC_KEYS_MAX)
		return EINVAL;
	uintptr_t seq = __atomic_load_n(&__pthread_keys[k].seq, __ATOMIC_RELAXED);
	if (!(seq & 1))
		return EINVAL;

	if (k < GLIBC_KEY_2NDLEVEL) {
		d = &self->specific_1stblock[k];
	} else {
		struct glibc_key_data **blk = &self->specific[k / GLIBC_KEY_2NDLEVEL];
		if (!*blk) {
			/* An absent block already reads as NULL.  */
			if (!v)
				return 0;
			*blk = calloc(GLIBC_KEY_2NDLEVEL, sizeof **blk);
			if (!*blk)
				return ENOMEM;
		}
		d = &(*blk)[k % GLIBC_KEY_2NDLEVEL];
	}
	/* specific_used tells thread exit (ours and glibc's) that there may
	 * be destructors to run or blocks to free.  */
	if (v || k >= GLIBC_KEY_2NDLEVEL)
		self->specific_used = true;
	d->seq = seq;
	d->data = (void *)v;
	return 0;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_setspecific, pthread_setspecific, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_setspecific, pthread_setspecific, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_setspecific) __nptl___pthread_setspecific
	__attribute__((alias("__nptl_pthread_setspecific"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_setspecific, __pthread_setspecific, GLIBC_2.2.5);
