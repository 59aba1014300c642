// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_getcpuclockid: a busy thread's CPU clock advances, an idle one's
 * hardly does, and the calling thread's clock is CLOCK_THREAD_CPUTIME_ID's.
 * No wall-clock budget: the test waits (up to a 60 s watchdog) until the
 * busy thread has had 50 ms of CPU, however loaded the machine is; the
 * idle thread, which sleeps in 5 ms steps, must then have had less.  */
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static volatile int stop;

static void *spin(void *arg)
{
	(void)arg;
	while (!stop)
		;
	return NULL;
}

static void *idle(void *arg)
{
	(void)arg;
	while (!stop) {
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static double secs(clockid_t c)
{
	struct timespec ts;
	if (clock_gettime(c, &ts) != 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	pthread_t busy, lazy;
	clockid_t cb, cl, cs;
	CHECK0(pthread_create(&busy, NULL, spin, NULL));
	CHECK0(pthread_create(&lazy, NULL, idle, NULL));
	CHECK0(pthread_getcpuclockid(busy, &cb));
	CHECK0(pthread_getcpuclockid(lazy, &cl));
	CHECK0(pthread_getcpuclockid(pthread_self(), &cs));
	alarm(60);
	double b;
	while ((b = secs(cb)) >= 0 && b < 0.05) {
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	double l = secs(cl);
	CHECK(b > 0.05);
	CHECK(l >= 0 && l < b);
	double s1 = secs(cs), s2 = secs(CLOCK_THREAD_CPUTIME_ID);
	CHECK(s1 >= 0 && s2 >= s1 && s2 - s1 < 0.05);
	stop = 1;
	CHECK0(pthread_join(busy, NULL));
	CHECK0(pthread_join(lazy, NULL));
	return t_done();
}
