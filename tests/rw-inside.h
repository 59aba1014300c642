/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counters inside an rwlock's critical sections, for the stress tests: a
 * writer is alone, readers never overlap a writer.  Each breach seen adds
 * to rw_violations, which the test checks is 0 at the end.  */
#ifndef NPTL_TEST_RW_INSIDE_H
#define NPTL_TEST_RW_INSIDE_H

static int rw_readers, rw_writers;      /* inside the lock */
static long rw_violations;

static inline void rw_breach(void)
{
	__atomic_add_fetch(&rw_violations, 1, __ATOMIC_RELAXED);
}

static inline void rw_enter_read(void)
{
	__atomic_add_fetch(&rw_readers, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&rw_writers, __ATOMIC_SEQ_CST) != 0)
		rw_breach();
}

static inline void rw_leave_read(void)
{
	if (__atomic_load_n(&rw_writers, __ATOMIC_SEQ_CST) != 0)
		rw_breach();
	__atomic_sub_fetch(&rw_readers, 1, __ATOMIC_SEQ_CST);
}

/* A read-side critical section that lasts a little while.  */
static inline void rw_check_read(void)
{
	rw_enter_read();
	for (volatile int i = 0; i < 20; i++)
		;
	rw_leave_read();
}

/* A write-side critical section that lasts a little while.  */
static inline void rw_check_write(void)
{
	if (__atomic_add_fetch(&rw_writers, 1, __ATOMIC_SEQ_CST) != 1 ||
	    __atomic_load_n(&rw_readers, __ATOMIC_SEQ_CST) != 0)
		rw_breach();
	for (volatile int i = 0; i < 20; i++)
		;
	if (__atomic_load_n(&rw_readers, __ATOMIC_SEQ_CST) != 0 ||
	    __atomic_load_n(&rw_writers, __ATOMIC_SEQ_CST) != 1)
		rw_breach();
	__atomic_sub_fetch(&rw_writers, 1, __ATOMIC_SEQ_CST);
}

#endif
