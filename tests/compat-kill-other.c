// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_kill_other_threads_np@GLIBC_2.2.5, as a LinuxThreads-era binary
 * binds it: it returns and leaves the other threads alone; the exec that
 * such programs call next, from any thread, ends every other thread and
 * keeps the process id.
 */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "t.h"

extern void old_kill_others(void);
__asm__(".symver old_kill_others, pthread_kill_other_threads_np@GLIBC_2.2.5");

static void *wait_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static char *self_path;

static void *exec_from_thread(void *arg)
{
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	(void)arg;
	execl(self_path, self_path, "--after-exec", pid, (char *)NULL);
	FATAL("execl: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--after-exec") == 0) {
		/* The new image: same process, one thread.  */
		CHECK(atoi(argv[2]) == (int)getpid());
		CHECK(t_tasks() == 1);
		return t_done();
	}
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		CHECK0(pthread_create(&t[i], NULL, wait_forever, NULL));
	/* A thread that already exited (libnptl's glibc bootstrap thread)
	 * may linger in /proc a moment after it is gone.  */
	for (int i = 0; i < 2000 && t_tasks() != 4; i++)
		usleep(1000);
	CHECK(t_tasks() == 4);
	old_kill_others();
	CHECK(t_tasks() == 4);
	if (t_failures)
		return t_done();
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		FATAL("readlink /proc/self/exe");
	buf[n] = 0;
	self_path = buf;
	pthread_t x;
	CHECK0(pthread_create(&x, NULL, exec_from_thread, NULL));
	pthread_join(x, NULL);
	FATAL("exec did not happen");
}
