// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A C++17 program using the standard thread library, which checks its own
 * results.  tests/binding.sh runs it linked with libnptl (tests/binding-cxx)
 * and built without it under LD_PRELOAD (tests/binding-cxx-plain), and
 * checks that libstdc++'s and the program's pthread references bind to
 * libnptl.  On success it prints one line on stdout and nothing on stderr.
 */
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <numeric>
#include <pthread.h>
#include <string>
#include <thread>
#include <vector>

static int failures;
#define EXPECT(c)                                                          \
	do {                                                               \
		if (!(c)) {                                                \
			std::fprintf(stderr, "%s:%d: EXPECT failed: %s\n", \
				     __FILE__, __LINE__, #c);              \
			failures++;                                        \
		}                                                          \
	} while (0)

static std::atomic<int> dtors{0};
struct Tracked {
	int v = 0;
	~Tracked() { dtors.fetch_add(1); }
};
static thread_local Tracked tl;
static thread_local int tl_counter = 0;

int main()
{
	const int nthreads = 8, per = 10000;

	// std::thread + std::mutex: a shared counter.
	std::mutex m;
	long counter = 0;
	std::vector<std::thread> ts;
	for (int i = 0; i < nthreads; i++)
		ts.emplace_back([&, i] {
			tl.v = i;
			for (int k = 0; k < per; k++) {
				std::lock_guard<std::mutex> g(m);
				counter++;
				tl_counter++;
			}
			EXPECT(tl_counter == per);   // thread_local is per thread
			EXPECT(tl.v == i);
		});
	for (auto &t : ts)
		t.join();
	EXPECT(counter == (long)nthreads * per);
	EXPECT(dtors.load() == nthreads);   // thread_local destructors ran
	EXPECT(tl_counter == 0);             // main's own copy untouched

	// std::condition_variable: a ping-pong.
	std::condition_variable cv;
	int turn = 0;
	const int rounds = 2000;
	std::thread pong([&] {
		for (int i = 0; i < rounds; i++) {
			std::unique_lock<std::mutex> l(m);
			cv.wait(l, [&] { return turn == 1; });
			turn = 0;
			cv.notify_one();
		}
	});
	for (int i = 0; i < rounds; i++) {
		std::unique_lock<std::mutex> l(m);
		turn = 1;
		cv.notify_one();
		cv.wait(l, [&] { return turn == 0; });
	}
	pong.join();
	EXPECT(turn == 0);

	// wait_for times out.
	{
		std::unique_lock<std::mutex> l(m);
		auto r = cv.wait_for(l, std::chrono::milliseconds(20));
		EXPECT(r == std::cv_status::timeout);
	}

	// std::async on a new thread, and an exception carried back.
	std::vector<std::future<long>> fs;
	for (int i = 0; i < 4; i++)
		fs.push_back(std::async(std::launch::async, [i] {
			std::vector<long> v(1000);
			std::iota(v.begin(), v.end(), (long)i);
			return std::accumulate(v.begin(), v.end(), 0L);
		}));
	for (int i = 0; i < 4; i++)
		EXPECT(fs[i].get() == 1000L * i + 999L * 1000 / 2);
	auto bad = std::async(std::launch::async,
			      []() -> int { throw std::string("boom"); });
	try {
		bad.get();
		EXPECT(!"no exception");
	} catch (const std::string &s) {
		EXPECT(s == "boom");
	}

	// std::thread ids are distinct and not the main thread's.
	std::thread::id main_id = std::this_thread::get_id(), other;
	std::thread([&] { other = std::this_thread::get_id(); }).join();
	EXPECT(other != main_id);
	EXPECT(other != std::thread::id());

	// pthread_self agrees with what std::thread reports.
	pthread_t handle = 0, seen = 0;
	std::thread t([&] { seen = pthread_self(); });
	handle = t.native_handle();
	t.join();
	EXPECT(pthread_equal(handle, seen));

	if (failures) {
		std::fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	std::printf("C++ threads, mutex, condition_variable, async, thread_local: ok\n");
	return 0;
}
