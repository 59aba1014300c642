// SPDX-License-Identifier: LGPL-2.1-or-later
#include "nptl.h"

void *__nptl_pthread_getspecific(pthread_key_t k)
{
	struct pthread *self = nptl_self();
	struct glibc_key_data *d;

	if (k < GLIBC_KEY_2NDLEVEL) {
		d = &self->specific_1stblock[k];
	} else {
		if (k >= GLIBC_KEYS_MAX)
			return NULL;
		struct glibc_key_data *blk = self->specific[k / GLIBC_KEY_2NDLEVEL];
		if (!blk)
			return NULL;
		d = &blk[k % GLIBC_KEY_2NDLEVEL];
	}
	void *v = d->data;
	/* A value stored under an older seq belongs to a deleted key (or an
	 * earlier key in the same slot); forget it so it never reappears.  */
	if (v && d->seq != __atomic_load_n(&__pthread_keys[k].seq, __ATOMIC_RELAXED))
		v = d->data = NULL;
	return v;
}
NPTL_SYMVER_DEFAULT(__nptl_pthread_getspecific, pthread_getspecific, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_pthread_getspecific, pthread_getspecific, GLIBC_2.2.5);

extern __typeof(__nptl_pthread_getspecific) __nptl___pthread_getspecific
	__attribute__((alias("__nptl_pthread_getspecific"))) NPTL_API;
NPTL_SYMVER_COMPAT(__nptl___pthread_getspecific, __pthread_getspecific, GLIBC_2.2.5);
