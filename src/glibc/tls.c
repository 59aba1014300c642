// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Static TLS for libnptl's descriptors, with ld.so's own helpers (what
 * glibc's NPTL uses; building a DTV by hand misses late dlopen'ed
 * initial-exec modules).
 *
 * A cached descriptor is re-initialised for its next thread: dynamic TLS
 * blocks of the old thread are freed and every module's block is reset from
 * its image -- except libc.so.6's.  glibc frees a dead thread's malloc tcache
 * only in its own thread exit (__libc_thread_freeres is not exported), so a
 * reset tcache pointer would leak the cache and its chunks on every
 * thread.  Keeping libc's block hands the tcache and arena on to the next
 * thread instead, which is what the same thread would have seen; the state in
 * that block that is visible to a program (errno, the locale, a pending
 * dlerror) is reset by the exit path and at start.
 *
 * A thread that exits must not free another thread's TLS (the DTV and
 * dynamic blocks, malloc'd by ld.so) when its exit trims the stack
 * cache: glibc's free() sets up a tcache for a thread that has none, and
 * with it an arena of its own -- 64 MiB of address space each, up to 8
 * per CPU -- for a thread that never called malloc.  glibc's own exit
 * frees after shutting its tcache down (__libc_thread_freeres, which is
 * private).  So the exiting thread orphans the TLS instead: the dead
 * thread's DTV goes on a list, linked through its own slot 0 (the
 * generation counter, which a dead DTV no longer needs), and the next
 * creation, join or detach frees it with ld.so's _dl_deallocate_tls.
 * That slot is laid out as a tcb whose second word is the DTV, all that
 * _dl_deallocate_tls reads of a tcb when it is not to free the tcb.
 */
#include <link.h>
#include <string.h>
#include <stdlib.h>
#include "nptl.h"

static size_t libc_tls_off;     /* tp - libc's block */
static size_t libc_tls_size;

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!strstr(info->dlpi_name, "/libc.so.6"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *t = &info->dlpi_phdr[i];
		if (t->p_type == PT_TLS && info->dlpi_tls_data) {
			libc_tls_off = (uintptr_t)nptl_self() -
				       (uintptr_t)info->dlpi_tls_data;
			libc_tls_size = t->p_memsz;
		}
	}
	return 1;
}

void __nptl_tls_init_layout(void)
{
	dl_iterate_phdr(find_libc, NULL);
	if (libc_tls_size > 256)
		__nptl_fatal("libc.so.6's TLS block is larger than libnptl expects");
}

size_t __nptl_tls_static_size(size_t *align)
{
	size_t size, al;
	_dl_get_tls_static_info(&size, &al);
	if (al < 64)
		al = 64;
	if (align)
		*align = al;
	return (size + al - 1) & ~(al - 1);
}

/* Initialises pd's TLS blocks from their images, making its DTV first if
 * `dtv` (ld.so's _dl_allocate_tls), but keeps libc's block (see the
 * top).  NULL if malloc failed.  */
static void *init_keeping_libc(struct pthread *pd, bool dtv)
{
	char save[256];
	char *blk = (char *)pd - libc_tls_off;
	memcpy(save, blk, libc_tls_size);
	/* The flag's meaning changed between releases (builds.c).  */
	void *r = dtv ? _dl_allocate_tls(pd) :
		  _dl_allocate_tls_init(pd, __nptl_glibc->tls_init_new_thread);
	if (r)
		memcpy(blk, save, libc_tls_size);
	return r;
}

void __nptl_tls_reinit(struct pthread *pd)
{
	union glibc_dtv *dtv = pd->header.dtv;
	size_t n = dtv[-1].counter;
	for (size_t i = 0; i < n; i++)
		free(dtv[1 + i].pointer.to_free);
	memset(dtv, 0, (n + 1) * sizeof(*dtv));
	init_keeping_libc(pd, false);
}

/* A descriptor whose thread ran on a user stack goes into the cache
 * without its DTV and dynamic TLS blocks: glibc frees them when such a
 * thread is joined, and a program that checks with mtrace that its
 * joined threads left nothing allocated (glibc's tst-stack3) must find
 * nothing under libnptl either.  The next thread on the descriptor gets
 * a DTV again from __nptl_tls_renew, which keeps libc's block as
 * __nptl_tls_reinit does.  Only a joiner or detacher drops it: an
 * exiting thread may not free (see the top), nor orphan its own DTV,
 * which it may still read until its last instruction.  */
void __nptl_tls_drop(struct pthread *pd)
{
	_dl_deallocate_tls(pd, false);
	pd->header.dtv = NULL;
}

bool __nptl_tls_renew(struct pthread *pd)
{
	return init_keeping_libc(pd, true) != NULL;
}

/* Dead threads' DTVs, linked through slot 0 (see the top).  */
_Static_assert(offsetof(struct pthread, header.dtv) ==
		       offsetof(union glibc_dtv, pointer.to_free),
	       "slot 0 of a DTV read as a tcb: its dtv word");
static union glibc_dtv *orphans;

void __nptl_tls_orphan(struct pthread *pd)
{
	union glibc_dtv *dtv = pd->header.dtv;
	dtv[0].pointer.to_free = dtv;   /* the tcb's dtv word */
	union glibc_dtv *head = __atomic_load_n(&orphans, __ATOMIC_RELAXED);
	do
		dtv[0].pointer.val = head;
	while (!__atomic_compare_exchange_n(&orphans, &head, dtv, true,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

void __nptl_tls_free_orphans(void)
{
	if (!__atomic_load_n(&orphans, __ATOMIC_RELAXED))
		return;
	union glibc_dtv *dtv = __atomic_exchange_n(&orphans, NULL,
						   __ATOMIC_ACQUIRE);
	while (dtv) {
		union glibc_dtv *next = dtv[0].pointer.val;
		_dl_deallocate_tls(&dtv[0], false);
		dtv = next;
	}
}
