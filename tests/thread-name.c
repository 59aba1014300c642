// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_setname_np/getname_np: self and other threads, ERANGE.  */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "t.h"

static pthread_barrier_t bar;
static pid_t child_tid;

static void *named(void *arg)
{
	(void)arg;
	child_tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&bar);   /* main renames us */
	pthread_barrier_wait(&bar);   /* main has checked */
	char buf[16];
	CHECK0(pthread_getname_np(pthread_self(), buf, sizeof(buf)));
	CHECK(strcmp(buf, "worker-1") == 0);
	CHECK0(pthread_setname_np(pthread_self(), "self-set"));
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

static void comm_of(pid_t tid, char *out, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	FILE *f = fopen(path, "r");
	out[0] = 0;
	if (f) {
		if (fgets(out, (int)len, f))
			out[strcspn(out, "\n")] = 0;
		fclose(f);
	}
}

int main(void)
{
	char buf[64], comm[64];
	pthread_t t;
	CHECK0(pthread_barrier_init(&bar, NULL, 2));
	CHECK0(pthread_create(&t, NULL, named, NULL));
	pthread_barrier_wait(&bar);

	CHECK0(pthread_setname_np(t, "worker-1"));
	CHECK0(pthread_getname_np(t, buf, sizeof(buf)));
	CHECK(strcmp(buf, "worker-1") == 0);
	comm_of(child_tid, comm, sizeof(comm));
	CHECK(strcmp(comm, "worker-1") == 0);
	CHECK_ERR(pthread_setname_np(t, "0123456789abcdef"), ERANGE);   /* 16 chars */
	CHECK0(pthread_setname_np(t, "0123456789abcde"));
	CHECK0(pthread_setname_np(t, "worker-1"));
	CHECK_ERR(pthread_getname_np(t, buf, 15), ERANGE);
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);

	CHECK0(pthread_getname_np(t, buf, 16));
	CHECK(strcmp(buf, "self-set") == 0);
	pthread_barrier_wait(&bar);
	CHECK0(pthread_join(t, NULL));

	/* The main thread: its name is the program's comm.  */
	CHECK0(pthread_setname_np(pthread_self(), "main-x"));
	CHECK0(pthread_getname_np(pthread_self(), buf, sizeof(buf)));
	CHECK(strcmp(buf, "main-x") == 0);
	CHECK_ERR(pthread_getname_np(pthread_self(), buf, 8), ERANGE);
	pthread_barrier_destroy(&bar);
	return t_done();
}
