// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnptl only: a cancellation never loses data that read() consumed
 * (glibc 2.36 does: its bug 12683, where SIGCANCEL arriving as read()
 * returns unwinds the thread with the bytes in hand).
 *
 * Main writes numbered bytes into a pipe and, right after one of its
 * writes -- the moment the reader is most likely being woken with data --
 * cancels the reader.  The reader records every byte it got back from
 * read() (no cancellation point lies between read returning and the
 * record).  After the join, every byte written is either recorded or still
 * in the pipe, in order, with nothing missing.  Thousands of rounds.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "t.h"

static int fds[2];
static unsigned consumed;   /* bytes the reader reported, in order */
static int bad_sequence;

static void *reader(void *arg)
{
	(void)arg;
	unsigned char buf[64];
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n <= 0)
			continue;
		unsigned c = __atomic_load_n(&consumed, __ATOMIC_RELAXED);
		for (ssize_t i = 0; i < n; i++, c++)
			if (buf[i] != (unsigned char)c)
				bad_sequence = 1;
		__atomic_store_n(&consumed, c, __ATOMIC_RELEASE);
	}
	return NULL;
}

static uint64_t rnd = 88172645463325252ull;
static unsigned next_rand(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return (unsigned)rnd;
}

int main(void)
{
	if (!t_on_libnptl() && !getenv("NPTL_RACE_FORCE"))
		SKIP("the race-free read is libnptl's own");
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int rounds = 0, lost_rounds = 0;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		double el = (double)(now.tv_sec - start.tv_sec) +
			    (double)(now.tv_nsec - start.tv_nsec) / 1e9;
		if (rounds >= 20000 || (rounds >= 2000 && el > 3.0))
			break;
		rounds++;
		CHECK0(pipe(fds));
		consumed = 0;
		pthread_t t;
		CHECK0(pthread_create(&t, NULL, reader, NULL));
		unsigned written = 0;
		unsigned writes = 1 + next_rand() % 32;
		for (unsigned w = 0; w < writes; w++) {
			unsigned char buf[8];
			unsigned len = 1 + next_rand() % sizeof(buf);
			for (unsigned i = 0; i < len; i++)
				buf[i] = (unsigned char)(written + i);
			if (write(fds[1], buf, len) != (ssize_t)len)
				FATAL("write");
			written += len;
			for (unsigned s = next_rand() % 2000; s; s--)
				__asm__ volatile("" ::: "memory");
		}
		CHECK0(pthread_cancel(t));
		void *res;
		CHECK0(pthread_join(t, &res));
		CHECK(res == PTHREAD_CANCELED);

		unsigned c = __atomic_load_n(&consumed, __ATOMIC_ACQUIRE);
		int left = 0;
		CHECK0(ioctl(fds[0], FIONREAD, &left));
		unsigned char rest[512];
		ssize_t n = left > 0 ? read(fds[0], rest, (size_t)left) : 0;
		if (n != left)
			FATAL("draining the pipe");
		int ok = c + (unsigned)left == written;
		for (int i = 0; ok && i < left; i++)
			ok = rest[i] == (unsigned char)(c + (unsigned)i);
		if (!ok) {
			if (!lost_rounds)
				fprintf(stderr, "round %d: wrote %u, reader saw %u, "
					"%d left in the pipe\n", rounds, written, c, left);
			lost_rounds++;
		}
		close(fds[0]);
		close(fds[1]);
	}
	CHECK(!bad_sequence);
	CHECK(lost_rounds == 0);
	if (lost_rounds)
		fprintf(stderr, "%d of %d rounds lost data\n", lost_rounds, rounds);
	return t_done();
}
