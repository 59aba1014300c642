// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What glibc expects of every thread, whoever made it, where that differs
 * between releases.
 *
 * rseq.  glibc registers an rseq(2) area for each of its threads and
 * publishes where it is (__rseq_offset from the thread pointer) and how
 * much of it the kernel fills (__rseq_size): sched_getcpu and third
 * parties (tcmalloc, liburcu) read it.  Up to 2.40 the area is a member of
 * the descriptor; from 2.41 ld.so reserves it in static TLS, sized and
 * aligned from the kernel's AT_RSEQ_* auxiliary values, which every
 * libnptl thread's mapping reserves too (tls.c).  glibc registers with
 * max(__rseq_size, 32) bytes -- the kernel's original ABI is 32 -- and a
 * new thread registers only if its creator is registered; otherwise, or
 * when the kernel refuses, cpu_id says RSEQ_CPU_ID_REGISTRATION_FAILED.
 *
 * ld.so's catcher (2.41: rtld_catch).  dlopen's error handling chains its
 * catch frames from the descriptor; a thread that unwound out of a dlopen
 * (pthread_exit from a constructor) leaves a stale pointer to its stack, so
 * a descriptor starts each thread with none, as a fresh glibc one does.
 *
 * The vDSO getrandom state (2.41: getrandom_buf).  glibc's getrandom gives
 * each thread, at its first call, an opaque state block from glibc's own
 * allocator, which only glibc's thread exit (a hidden function) gives back;
 * the blocks are never unmapped.  libnptl cannot give one back, so it never
 * lets go of one: a state stays with its descriptor while the descriptor is
 * cached and reused, and when the cache unmaps a descriptor its state goes
 * into a pool here, from which the next descriptor going live without one
 * takes it.  So libnptl holds at most as many states as it ever had
 * threads at once that called getrandom, the bound glibc's allocator has
 * too.  Both steps run under __nptl_stack_lock, which fork's prepare handler
 * holds, so the pool is whole in a fork child; there glibc's child handler
 * has already handed the states of the vanished threads on its lists back
 * to its own allocator and cleared their pointers.  The low bit of a state
 * pointer is glibc's "in use" mark (a getrandom interrupted by a signal
 * whose handler also calls it); a thread that died inside getrandom leaves
 * it set, and nobody else can be using the state then, so it is cleared.
 */
#include "nptl.h"
#include <sys/mman.h>

bool __nptl_glibc_rseq_registered(struct pthread *self)
{
	return (int)__atomic_load_n(&nptl_glibc_rseq(self)->cpu_id,
				    __ATOMIC_RELAXED) >= 0;
}

void __nptl_glibc_rseq_register(struct pthread *self, bool want)
{
	struct glibc_rseq *r = nptl_glibc_rseq(self);
	r->cpu_id_start = 0;
	r->rseq_cs = 0;
	r->flags = 0;
	r->cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
	unsigned int len = __rseq_size > GLIBC_RSEQ_AREA_SIZE ? __rseq_size
							       : GLIBC_RSEQ_AREA_SIZE;
	if (want && nptl_sys4(SYS_rseq, r, len, 0, GLIBC_RSEQ_SIG) == 0)
		return;
	r->cpu_id = RSEQ_CPU_ID_REGISTRATION_FAILED;
}

void __nptl_glibc_thread_reset(struct pthread *pd)
{
#if GLIBC_PD_RTLD_CATCH
	pd->rtld_catch = NULL;
#else
	(void)pd;
#endif
}

#if GLIBC_PD_GETRANDOM
static void **pool;
static size_t pool_len, pool_cap;

static bool pool_grow(void)
{
	size_t cap = pool_cap ? 2 * pool_cap : __nptl_page_size / sizeof(void *);
	long m = nptl_syscall(SYS_mmap, 0, cap * sizeof(void *),
			      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
	if (nptl_sys_failed(m))
		return false;
	void **fresh = (void **)m;
	for (size_t i = 0; i < pool_len; i++)
		fresh[i] = pool[i];
	if (pool)
		nptl_sys2(SYS_munmap, pool, pool_cap * sizeof(void *));
	pool = fresh;
	pool_cap = cap;
	return true;
}

static void *state_of(struct pthread *pd)
{
	return (void *)((uintptr_t)pd->getrandom_buf & ~(uintptr_t)1);
}

void __nptl_glibc_stack_live(struct pthread *pd)
{
	void *s = state_of(pd);
	if (!s && pool_len)
		s = pool[--pool_len];
	pd->getrandom_buf = s;
}

void __nptl_glibc_stack_unmap(struct pthread *pd)
{
	void *s = state_of(pd);
	pd->getrandom_buf = NULL;
	/* Only when memory for the pool itself is refused is a state lost.  */
	if (s && (pool_len < pool_cap || pool_grow()))
		pool[pool_len++] = s;
}
#else
void __nptl_glibc_stack_live(struct pthread *pd)
{
	(void)pd;
}

void __nptl_glibc_stack_unmap(struct pthread *pd)
{
	(void)pd;
}
#endif
