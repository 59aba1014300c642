// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cancellation in C++ is a forced unwind: destructors of the cancelled
 * thread's objects run, innermost first, interleaved with
 * pthread_cleanup_push handlers; `catch (abi::__forced_unwind&) { throw; }`
 * sees it; `catch (...) { throw; }` too.  Cancellation both while blocked in
 * read() (deferred) and in a busy loop (asynchronous).
 */
#include <cxxabi.h>
#include <pthread.h>
#include <unistd.h>
#include "t.h"

static int order[8];
static int norder;
static int forced_seen, any_seen;
static int pfd[2];
static volatile int stage;

struct Guard {
	int id;
	explicit Guard(int i) : id(i) {}
	~Guard() { order[norder++] = id; }
};

static void handler(void *arg)
{
	order[norder++] = (int)(long)arg;
}

static void *deferred(void *)
{
	Guard g1(1);
	pthread_cleanup_push(handler, (void *)2);
	try {
		Guard g3(3);
		try {
			char c;
			stage = 1;
			(void)!read(pfd[0], &c, 1);
		} catch (...) {
			any_seen = 1;
			throw;
		}
	} catch (abi::__forced_unwind &) {
		forced_seen = 1;
		throw;
	}
	pthread_cleanup_pop(0);
	return nullptr;
}

/* An asynchronous cancellation unwinds from whatever instruction it hit:
 * C++ can unwind only through a frame with nothing to destroy there (the
 * personality routine knows only call sites), so the loop has its own
 * frame and the object lives in the caller.  */
__attribute__((noinline)) static void spin()
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, nullptr);
	stage = 1;
	for (volatile unsigned long i = 0;; i = i + 1)
		;
}

static void *async_loop(void *)
{
	Guard g(5);
	spin();
	return nullptr;
}

int main()
{
	pthread_t t;
	void *res;
	CHECK0(pipe(pfd));
	CHECK0(pthread_create(&t, nullptr, deferred, nullptr));
	while (stage != 1)
		usleep(1000);
	usleep(30000);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(any_seen == 1);
	CHECK(forced_seen == 1);
	CHECK(norder == 3);
	CHECK(order[0] == 3 && order[1] == 2 && order[2] == 1);

	norder = 0;
	stage = 0;
	CHECK0(pthread_create(&t, nullptr, async_loop, nullptr));
	while (stage != 1)
		usleep(1000);
	CHECK0(pthread_cancel(t));
	CHECK0(pthread_join(t, &res));
	CHECK(res == PTHREAD_CANCELED);
	CHECK(norder == 1 && order[0] == 5);
	return t_done();
}
