// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Nothing a thread leaves behind accumulates: N sequential create/join
 * cycles, then N/2 create/detach cycles, whose threads use the per-thread
 * state glibc keeps for them (malloc's tcache and arena, getaddrinfo's
 * resolver state and sockets, dlerror's buffer, strerror/strsignal's
 * buffers).  After a warm-up of 10% of each phase, VmRSS and the number of
 * open descriptors are recorded; at the end of the phase RSS has grown by
 * less than RSS_BOUND_KB and the descriptors are the same.
 *
 * argv[1]: N (default 50000, ~4 s here).  The 1,000,000-cycle run is a
 * benchmark target, not a test.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include "t.h"

#define RSS_BOUND_KB 4096

static int use_gai;
static int done_flag;
static long work_failures;

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long kb = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;   /* the directory's own descriptor */
}

static int count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int gai_localhost(void)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	int r = getaddrinfo("localhost", "80", &hints, &res);
	if (r == 0)
		freeaddrinfo(res);
	return r;
}

static void *work(void *arg)
{
	uintptr_t i = (uintptr_t)arg;
	static const size_t sizes[] = { 16, 24, 100, 500, 1000, 4000, 20000,
					70000, 300000 };
	void *p[sizeof(sizes) / sizeof(sizes[0])];
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		p[k] = malloc(sizes[(k + i) % (sizeof(sizes) / sizeof(sizes[0]))]);
		if (!p[k])
			__atomic_fetch_add(&work_failures, 1, __ATOMIC_RELAXED);
		else
			memset(p[k], (int)i, 16);
	}
	for (size_t k = 0; k < sizeof(p) / sizeof(p[0]); k += 2)
		free(p[k]);
	if (use_gai && gai_localhost() != 0)
		__atomic_fetch_add(&work_failures, 1, __ATOMIC_RELAXED);
	if (dlopen("/nonexistent/libnptl-leak-test.so", RTLD_NOW) != NULL ||
	    dlerror() == NULL)
		__atomic_fetch_add(&work_failures, 1, __ATOMIC_RELAXED);
	if (strerror((int)(i % 134))[0] == 0 || strsignal((int)(i % 65))[0] == 0)
		__atomic_fetch_add(&work_failures, 1, __ATOMIC_RELAXED);
	for (size_t k = 1; k < sizeof(p) / sizeof(p[0]); k += 2)
		free(p[k]);
	return arg;
}

static void *work_detached(void *arg)
{
	work(arg);
	__atomic_store_n(&done_flag, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Detached threads may still be on their way out when the last one has
 * said it is done: wait until only the main thread is left.  */
static void settle(void)
{
	for (int i = 0; i < 5000 && count_tasks() != 1; i++)
		usleep(1000);
	CHECK(count_tasks() == 1);
}

static void phase(const char *name, long n, int detached)
{
	long warm = n / 10, rss0 = 0;
	int fd0 = 0;
	for (long i = 0; i < n; i++) {
		if (i == warm) {
			if (detached)
				settle();
			rss0 = rss_kb();
			fd0 = open_fds();
		}
		pthread_t t;
		void *ret = NULL;
		int r;
		if (detached) {
			pthread_attr_t a;
			pthread_attr_init(&a);
			pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
			__atomic_store_n(&done_flag, 0, __ATOMIC_RELAXED);
			r = pthread_create(&t, &a, work_detached, (void *)(uintptr_t)i);
			pthread_attr_destroy(&a);
			if (r == EAGAIN) {   /* the last one not quite gone */
				usleep(100);
				i--;
				continue;
			}
			if (r) {
				CHECK0(r);
				return;
			}
			while (!__atomic_load_n(&done_flag, __ATOMIC_ACQUIRE))
				sched_yield();
		} else {
			r = pthread_create(&t, NULL, work, (void *)(uintptr_t)i);
			if (r) {
				CHECK0(r);
				return;
			}
			CHECK0(pthread_join(t, &ret));
			CHECK(ret == (void *)(uintptr_t)i);
		}
	}
	if (detached)
		settle();
	long rss1 = rss_kb();
	int fd1 = open_fds();
	printf("%s: %ld cycles, VmRSS %ld kB after %ld, %ld kB at the end (%+ld kB, "
	       "bound %d kB), open fds %d -> %d\n", name, n, rss0, warm, rss1,
	       rss1 - rss0, RSS_BOUND_KB, fd0, fd1);
	CHECK(rss0 > 0 && rss1 > 0);
	CHECK(rss1 - rss0 < RSS_BOUND_KB);
	CHECK(fd0 >= 3 && fd1 == fd0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50000;
	if (n < 10)
		n = 10;
	int gai = gai_localhost();
	use_gai = gai == 0;
	if (!use_gai)
		printf("getaddrinfo(\"localhost\") fails here (%s): not used\n",
		       gai_strerror(gai));
	phase("joined", n, 0);
	phase("detached", n / 2, 1);
	CHECK(work_failures == 0);
	fflush(stdout);
	return t_done();
}
