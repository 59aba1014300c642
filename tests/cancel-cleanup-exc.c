// SPDX-License-Identifier: LGPL-2.1-or-later
// test-cflags: -fexceptions
/*
 * C built with -fexceptions: <pthread.h>'s cleanup macros become cleanup
 * attributes calling __pthread_cleanup_routine, run by the forced unwind
 * of a cancellation, innermost first, mixed with the old-style
 * _pthread_cleanup_push records (the macros of a C file built without
 * -fexceptions are in cancel-basic); a popped handler runs only when asked.
 */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

static int order[8];
static int norder;
static int pfd[2];
static volatile pid_t reader_tid;       /* for t_wait_asleep */

static void note(void *arg)
{
	order[norder++] = (int)(intptr_t)arg;
}

static void inner(void)
{
	pthread_cleanup_push(note, (void *)3);
	pthread_cleanup_push(note, (void *)9);
	pthread_cleanup_pop(0);   /* not executed */
	pthread_cleanup_push(note, (void *)8);
	pthread_cleanup_pop(1);   /* executed now */
	char c;
	reader_tid = t_tid();
	(void)!read(pfd[0], &c, 1);
	pthread_cleanup_pop(0);
}

static void *thread(void *arg)
{
	(void)arg;
	pthread_cleanup_push(note, (void *)1);
	pthread_cleanup_push(note, (void *)2);
	inner();
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	pthread_t t;
	void *res;
	CHECK0(pipe(pfd));
	CHECK0(pthread_create(&t, NULL, thread, NULL));
	t_wait_asleep(&reader_tid);     /* cancelled inside the read */
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(norder == 4);
	CHECK(order[0] == 8 && order[1] == 3 && order[2] == 2 && order[3] == 1);
	return t_done();
}
