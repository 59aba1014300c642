// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * getrandom in many threads at once, round after round: every call
 * returns what it was asked for, and the memory glibc keeps for its vDSO
 * getrandom states (glibc 2.41 on a kernel with vgetrandom, Linux 6.11+)
 * stops growing after the first round.  glibc gives each thread a state at
 * its first call and takes it back only in its own thread exit; libnptl
 * keeps a dead thread's state for the next thread (src/glibc/thread.c).
 * With more threads than the descriptor cache holds, states lost with their
 * descriptors would make every round allocate new ones.
 *
 * The state blocks are what the kernel's vgetrandom asks for: droppable
 * memory (MAP_DROPPABLE, "dp" in /proc/self/smaps), which nothing else in
 * the process uses.  Without such mappings (glibc before 2.41, or a kernel
 * without vgetrandom) the test checks the calls only.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include "t.h"

#define THREADS 300
#define ROUNDS 6

static pthread_barrier_t all_in;
static int bad_calls;

/* Bytes of droppable mappings: glibc's getrandom state blocks.  */
static long state_bytes(void)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	unsigned long lo = 0, hi = 0;
	long sum = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			lo = a;
			hi = b;
		} else if (strncmp(line, "VmFlags:", 8) == 0 &&
			   strstr(line, " dp")) {
			sum += (long)(hi - lo);
		}
	}
	fclose(f);
	return sum;
}

static void *worker(void *arg)
{
	(void)arg;
	unsigned char buf[32];
	memset(buf, 0, sizeof(buf));
	ssize_t n = getrandom(buf, sizeof(buf), 0);
	int zero = 1;
	for (size_t i = 0; i < sizeof(buf); i++)
		zero &= buf[i] == 0;
	if (n != (ssize_t)sizeof(buf) || zero)
		__atomic_fetch_add(&bad_calls, 1, __ATOMIC_RELAXED);
	/* All alive at once, so that each needs a state of its own.  */
	pthread_barrier_wait(&all_in);
	return NULL;
}

static void round_of_threads(void)
{
	pthread_t t[THREADS];
	int made = 0;
	CHECK0(pthread_barrier_init(&all_in, NULL, THREADS));
	for (; made < THREADS; made++)
		if (pthread_create(&t[made], NULL, worker, NULL) != 0)
			break;
	if (made < THREADS)
		FATAL("created only %d threads", made);
	for (int i = 0; i < made; i++)
		CHECK0(pthread_join(t[i], NULL));
	CHECK0(pthread_barrier_destroy(&all_in));
}

int main(void)
{
	round_of_threads();
	long first = state_bytes();
	long last = first;
	for (int r = 1; r < ROUNDS; r++) {
		round_of_threads();
		last = state_bytes();
	}
	CHECK(bad_calls == 0);
	if (first <= 0) {
		printf("no getrandom state blocks (glibc or kernel without vDSO "
		       "getrandom): calls checked only\n");
	} else {
		printf("getrandom state blocks: %ld bytes after round 1, %ld after "
		       "round %d\n", first, last, ROUNDS);
		CHECK(last <= first);
	}
	return t_done();
}
