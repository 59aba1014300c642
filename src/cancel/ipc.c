// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Message queues: System V msgrcv/msgsnd and POSIX mq_send/mq_receive
 * (with their timed forms).  A message is never lost to a cancellation: it
 * is received and returned, or the call is cancelled before it took one
 * (cancellation.c).  The mq_ functions carry both of glibc's versions:
 * GLIBC_2.34 (libc) and GLIBC_2.3.4 (the librt they came from).
 */
#include <mqueue.h>
#include <sys/msg.h>
#include "nptl.h"

NPTL_API ssize_t __nptl_msgrcv(int id, void *msg, size_t size, long type,
			       int flags)
{
	return nptl_cp_errno(SYS_msgrcv, id, msg, size, type, flags, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_msgrcv, msgrcv, GLIBC_2.2.5);

NPTL_API int __nptl_msgsnd(int id, const void *msg, size_t size, int flags)
{
	return (int)nptl_cp_errno(SYS_msgsnd, id, msg, size, flags, 0, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_msgsnd, msgsnd, GLIBC_2.2.5);

NPTL_API int __nptl_mq_timedsend(mqd_t q, const char *msg, size_t len,
				 unsigned int prio, const struct timespec *abs)
{
	return (int)nptl_cp_errno(SYS_mq_timedsend, q, msg, len, prio, abs, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_mq_timedsend, mq_timedsend, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mq_timedsend, mq_timedsend, GLIBC_2.3.4);

NPTL_API int __nptl_mq_send(mqd_t q, const char *msg, size_t len,
			    unsigned int prio)
{
	return __nptl_mq_timedsend(q, msg, len, prio, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_mq_send, mq_send, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mq_send, mq_send, GLIBC_2.3.4);

NPTL_API ssize_t __nptl_mq_timedreceive(mqd_t q, char *msg, size_t len,
					unsigned int *prio,
					const struct timespec *abs)
{
	return nptl_cp_errno(SYS_mq_timedreceive, q, msg, len, prio, abs, 0);
}
NPTL_SYMVER_DEFAULT(__nptl_mq_timedreceive, mq_timedreceive, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mq_timedreceive, mq_timedreceive, GLIBC_2.3.4);

NPTL_API ssize_t __nptl_mq_receive(mqd_t q, char *msg, size_t len,
				   unsigned int *prio)
{
	return __nptl_mq_timedreceive(q, msg, len, prio, NULL);
}
NPTL_SYMVER_DEFAULT(__nptl_mq_receive, mq_receive, GLIBC_2.34);
NPTL_SYMVER_COMPAT(__nptl_mq_receive, mq_receive, GLIBC_2.3.4);
