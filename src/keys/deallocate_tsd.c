// SPDX-License-Identifier: LGPL-2.1-or-later
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "nptl.h"

static struct glibc_key_data *block(struct pthread *pd, size_t b)
{
	/* Block 0 is the one in the descriptor, whether or not specific[0]
	 * has been pointed at it.  */
	return b ? pd->specific[b] : pd->specific_1stblock;
}

static void run_destructors(struct pthread *pd)
{
	for (size_t b = 0; b < GLIBC_KEY_1STLEVEL; b++) {
		struct glibc_key_data *blk = block(pd, b);
		if (!blk)
			continue;
		for (size_t i = 0; i < GLIBC_KEY_2NDLEVEL; i++) {
			void *v = blk[i].data;
			if (!v)
				continue;
			blk[i].data = NULL;
			struct glibc_key *key = &__pthread_keys[b * GLIBC_KEY_2NDLEVEL + i];
			void (*destr)(void *) = key->destr;
			/* A deleted or recycled key's value is not ours to
			 * destroy.  */
			if (destr && blk[i].seq == __atomic_load_n(&key->seq, __ATOMIC_RELAXED))
				destr(v);
		}
	}
}

static bool any_value(struct pthread *pd)
{
	for (size_t b = 0; b < GLIBC_KEY_1STLEVEL; b++) {
		struct glibc_key_data *blk = block(pd, b);
		for (size_t i = 0; blk && i < GLIBC_KEY_2NDLEVEL; i++)
			if (blk[i].data)
				return true;
	}
	return false;
}

/* Thread exit: pd is the calling thread, since destructors may set values
 * through pthread_setspecific, which writes to the caller's descriptor.
 * Rounds repeat while destructors leave new non-NULL values behind, at most
 * PTHREAD_DESTRUCTOR_ITERATIONS times as in glibc; what is left after that
 * is dropped.  Unlike glibc we keep specific_used set until the end rather
 * than using it to notice new values, so a fork child that reclaims this
 * descriptor mid-way still sees that it needs clearing.  The descriptor is
 * reused, so nothing survives: no values, no seqs, no blocks.  */
void __nptl_deallocate_tsd(struct pthread *pd)
{
	/* Never set since the last clearing: all zero already.  */
	if (!pd->specific_used)
		return;
	for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		run_destructors(pd);
		if (!any_value(pd))
			break;
	}

	memset(pd->specific_1stblock, 0, sizeof pd->specific_1stblock);
	for (size_t b = 1; b < GLIBC_KEY_1STLEVEL; b++) {
		free(pd->specific[b]);
		pd->specific[b] = NULL;
	}
	pd->specific_used = false;
}
