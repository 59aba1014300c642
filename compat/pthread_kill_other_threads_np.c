// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pthread_kill_other_threads_np@GLIBC_2.2.5, for binaries built against
 * LinuxThreads.
 *
 * Under LinuxThreads each thread was a separate process to the kernel, so
 * execve() replaced only the calling thread and left the others running the
 * old image; programs called this function just before exec to terminate
 * every other thread.  With NPTL's process model execve() from any thread
 * ends every other thread of the process and keeps the pid (the kernel does
 * it, better than a library could), and signals act on the whole process,
 * so the function has nothing left to do.  NPTL dropped it; glibc keeps a
 * compatibility symbol that does nothing, and so does libnptl: an old binary
 * that calls it before exec behaves exactly as it did.  It has no default
 * version, so new programs cannot link against it.  See compat/README.md.
 */
#include "nptl.h"

NPTL_API void __nptl_pthread_kill_other_threads_np(void)
{
}
NPTL_SYMVER_COMPAT(__nptl_pthread_kill_other_threads_np,
		   pthread_kill_other_threads_np, GLIBC_2.2.5);
