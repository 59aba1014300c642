// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A C++ exception thrown by a pthread_once initializer leaves pthread_once
 * through its own frame (its cleanup resets the once state, and its
 * personality routine and _Unwind_Resume are libnptl's, forwarding to
 * libgcc_s: src/thread/unwind_link.c).  The caller catches it, and the
 * next pthread_once runs the initializer again; a thread waiting for the
 * initializer meanwhile is not left hanging.  Passes on glibc too.
 */
#include <pthread.h>
#include <stdexcept>
#include <unistd.h>
#include "t.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int runs;

static void init_throws(void)
{
	runs++;
	if (runs < 3) {
		usleep(20000);  // let the waiter reach pthread_once
		throw std::runtime_error("init failed");
	}
}

static void *waiter(void *)
{
	try {
		pthread_once(&once, init_throws);
	} catch (const std::runtime_error &) {
		return (void *)1;
	}
	return nullptr;
}

int main()
{
	int caught = 0;
	pthread_t t;
	CHECK0(pthread_create(&t, nullptr, waiter, nullptr));
	for (int i = 0; i < 3; i++) {
		try {
			pthread_once(&once, init_throws);
		} catch (const std::runtime_error &e) {
			CHECK(std::string(e.what()) == "init failed");
			caught++;
		}
	}
	void *res;
	CHECK0(pthread_join(t, &res));
	// Three attempts in all fail twice and succeed once, whichever
	// thread made them; the initializer never runs after it succeeded.
	CHECK(runs == 3);
	CHECK(caught + (res == (void *)1) == 2);
	return t_failures ? 1 : 0;
}
