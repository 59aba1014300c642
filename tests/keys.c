// SPDX-License-Identifier: LGPL-2.1-or-later
/* pthread_key_create/delete, pthread_getspecific/setspecific.  */
#include <limits.h>
#include <pthread.h>
#include "t.h"

static pthread_key_t key;
static int main_val, thread_val;

static void *per_thread(void *arg)
{
	(void)arg;
	CHECK(pthread_getspecific(key) == NULL);
	CHECK0(pthread_setspecific(key, &thread_val));
	CHECK(pthread_getspecific(key) == &thread_val);
	return NULL;
}

static pthread_key_t keys[PTHREAD_KEYS_MAX];
static int nkeys;

/* Every key we hold, first- and second-level slots alike, keeps its own
 * value in this thread.  */
static void *fill_values(void *arg)
{
	char *base = arg;
	for (int i = 0; i < nkeys; i++)
		CHECK(pthread_getspecific(keys[i]) == NULL);
	for (int i = 0; i < nkeys; i++)
		CHECK0(pthread_setspecific(keys[i], base + i));
	int bad = 0;
	for (int i = 0; i < nkeys; i++)
		bad += pthread_getspecific(keys[i]) != base + i;
	CHECK(bad == 0);
	return NULL;
}

int main(void)
{
	pthread_t t;

	/* Basic use and per-thread values.  */
	CHECK0(pthread_key_create(&key, NULL));
	CHECK(pthread_getspecific(key) == NULL);
	CHECK0(pthread_setspecific(key, &main_val));
	CHECK(pthread_getspecific(key) == &main_val);
	CHECK0(pthread_create(&t, NULL, per_thread, NULL));
	CHECK0(pthread_join(t, NULL));
	CHECK(pthread_getspecific(key) == &main_val);
	CHECK0(pthread_setspecific(key, NULL));
	CHECK(pthread_getspecific(key) == NULL);

	/* Invalid and deleted keys.  */
	CHECK_ERR(pthread_setspecific(PTHREAD_KEYS_MAX, &main_val), EINVAL);
	CHECK_ERR(pthread_setspecific(UINT_MAX, &main_val), EINVAL);
	CHECK(pthread_getspecific(PTHREAD_KEYS_MAX) == NULL);
	CHECK_ERR(pthread_key_delete(PTHREAD_KEYS_MAX), EINVAL);
	CHECK0(pthread_setspecific(key, &main_val));
	CHECK0(pthread_key_delete(key));
	CHECK(pthread_getspecific(key) == NULL);
	CHECK_ERR(pthread_setspecific(key, &main_val), EINVAL);
	CHECK_ERR(pthread_key_delete(key), EINVAL);

	/* All keys, then EAGAIN.  The runtime may hold a few already.  */
	for (;;) {
		int r = pthread_key_create(&keys[nkeys], NULL);
		if (r) {
			CHECK_ERR(r, EAGAIN);
			break;
		}
		if (++nkeys == PTHREAD_KEYS_MAX)
			break;
	}
	CHECK(nkeys > PTHREAD_KEYS_MAX - 16);
	pthread_key_t extra;
	CHECK_ERR(pthread_key_create(&extra, NULL), EAGAIN);

	static char vals_main[PTHREAD_KEYS_MAX], vals_thr[PTHREAD_KEYS_MAX];
	fill_values(vals_main);
	CHECK0(pthread_create(&t, NULL, fill_values, vals_thr));
	CHECK0(pthread_join(t, NULL));
	int bad = 0;
	for (int i = 0; i < nkeys; i++)
		bad += pthread_getspecific(keys[i]) != vals_main + i;
	CHECK(bad == 0);

	/* A freed slot is reused, and the old key's values do not show
	 * through the new key: the only free slot is the one just freed.  */
	for (int i = nkeys - 1; i >= 0; i -= nkeys / 3 + 1) {
		pthread_key_t k = keys[i];
		CHECK(pthread_getspecific(k) == vals_main + i);
		CHECK0(pthread_key_delete(k));
		CHECK(pthread_getspecific(k) == NULL);
		CHECK0(pthread_key_create(&keys[i], NULL));
		CHECK(keys[i] == k);
		CHECK(pthread_getspecific(keys[i]) == NULL);
		CHECK0(pthread_setspecific(keys[i], vals_main + i));
	}

	for (int i = 0; i < nkeys; i++)
		CHECK0(pthread_key_delete(keys[i]));
	for (int i = 0; i < nkeys; i++)
		CHECK(pthread_getspecific(keys[i]) == NULL);
	CHECK0(pthread_key_create(&key, NULL));
	CHECK(pthread_getspecific(key) == NULL);
	CHECK0(pthread_key_delete(key));
	return t_done();
}
