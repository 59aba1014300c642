#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# libnptl only: the usual tools work on libnptl's threads.  The program
# tests/tools-prog.c (modes clean, uaf, race) is compiled here, at run time.
#  1. AddressSanitizer (${CC:-cc} -fsanitize=address -g), run linked with
#     libnptl (-L.libs -Wl,--no-as-needed -lnptl, LD_LIBRARY_PATH=.libs) and
#     plain with LD_PRELOAD="<libasan.so> .libs/libnptl.so.0": the clean mode
#     exits 0 with no report; the uaf mode is reported as heap-use-after-free
#     and exits non-zero; LD_DEBUG=bindings shows ASan's pthread_create
#     interceptor binding the next pthread_create (dlsym RTLD_NEXT) to
#     libnptl.so.0.
#  2. ThreadSanitizer (-fsanitize=thread, libtsan.so), likewise: clean mode
#     without "WARNING: ThreadSanitizer", race mode reported as a data race.
#     When libnptl cannot create threads under TSan the test says why (with
#     gdb, from libnptl's own start-up) and fails.
#  3. gdb (libthread_db): at a breakpoint in all_alive(), where the four
#     named workers are alive, `info threads` lists each with its
#     pthread_setname_np name and `thread apply all bt` gives each a
#     backtrace through worker().  Skipped if gdb is missing.
# A sanitizer part is skipped when the compiler has no runtime for it
# (-print-file-name); exit 77 only if no part could run.
# Run from the build directory; srcdir (exported by automake) finds the
# source; CC is the compiler.  Overrides: NPTL_LIB.
set -u
srcdir=${srcdir:-.}
src=$srcdir/tests/tools-prog.c
cc=${CC:-cc}
lib=${NPTL_LIB:-$(pwd)/.libs/libnptl.so.0}
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
libdir=$(dirname "$lib")
for f in "$src" "$lib"; do
	[ -e "$f" ] || { echo "missing $f (run from the build directory, srcdir=...)"; exit 99; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ran=0
bad() { echo "FAIL: $*"; fail=1; }
if command -v timeout > /dev/null 2>&1; then to="timeout 60"; else to=; fi
show() { sed -n '1,40s/^/  | /p' "$1"; }

# run OUT ERR PRELOAD PROG ARGS...: PRELOAD empty runs the linked program
# with LD_LIBRARY_PATH; both with ASAN/TSAN options at their defaults.
run() {
	out=$1; err=$2; pre=$3; shift 3
	if [ -n "$pre" ]; then
		LD_PRELOAD=$pre $to "$@" > "$out" 2> "$err"
	else
		LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			$to "$@" > "$out" 2> "$err"
	fi
}

# The first pthread_create failed under TSan: find out why, precisely.
tsan_diagnose() {
	prog=$1; rt=$2
	tls=$(readelf -lW "$rt" 2>/dev/null | awk '$1 == "TLS" { print $6 }')
	tlsdec=$(printf '%d' "${tls:-0}" 2>/dev/null || echo 0)
	echo "  $rt has a PT_TLS segment of $tlsdec bytes (memsz $tls): static TLS that"
	echo "  glibc's pthread_create places on every new thread's stack."
	if command -v gdb > /dev/null 2>&1; then
		gdb -nx -batch -ex 'set breakpoint pending on' \
			-ex "set environment LD_LIBRARY_PATH $libdir" \
			-ex 'break __nptl_glibc_go_multithreaded' -ex 'run clean' \
			-ex 'finish' "$prog" > "$dir/diag.gdb" 2>&1
		v=$(sed -n 's/^Value returned is \$[0-9]* = \(-*[0-9]*\)$/\1/p' "$dir/diag.gdb")
		if [ -n "$v" ]; then
			echo "  gdb: libnptl's one-time bootstrap (__nptl_glibc_go_multithreaded,"
			echo "  src/glibc/multithread.c: glibc's pthread_create@GLIBC_2.34 makes one"
			echo "  thread with a fixed 64 KiB stack) got $v from glibc's pthread_create."
			if [ "$v" = 22 ] && [ "$tlsdec" -gt 65536 ]; then
				echo "  EINVAL: glibc refuses a 64 KiB stack when the static TLS ($tlsdec bytes)"
				echo "  does not fit in it; __nptl_init_once reports any bootstrap error as"
				echo "  EAGAIN, so every pthread_create of the program fails.  TSan itself"
				echo "  enlarges the program's own stacks (its interceptor adjusts the"
				echo "  attribute), but not libnptl's internal bootstrap thread."
			fi
		else
			echo "  gdb could not report the bootstrap's result:"; show "$dir/diag.gdb"
		fi
	fi
}

# sanitizer NAME FLAG RUNTIME BUGMODE REPORT-PATTERN
sanitizer() {
	name=$1; flag=$2; rtname=$3; bugmode=$4; pattern=$5
	rt=$($cc -print-file-name="$rtname" 2>/dev/null)
	if [ -z "$rt" ] || [ "$rt" = "$rtname" ] || [ ! -e "$rt" ]; then
		echo "SKIP: $name: $cc has no $rtname (-print-file-name)"
		return
	fi
	ran=1
	if ! $cc "$flag" -g -o "$dir/$name-link" "$src" -L"$libdir" \
			-Wl,--no-as-needed -lnptl > "$dir/$name-cc.log" 2>&1 ||
	   ! $cc "$flag" -g -o "$dir/$name-plain" "$src" >> "$dir/$name-cc.log" 2>&1; then
		bad "$name: $cc $flag could not build $src"; show "$dir/$name-cc.log"
		return
	fi
	readelf -d "$dir/$name-link" | grep -q 'NEEDED.*\[libnptl\.so\.0\]' ||
		bad "$name: $name-link does not need libnptl.so.0"
	for mode in link preload; do
		if [ $mode = link ]; then
			prog=$dir/$name-link; pre=
		else
			prog=$dir/$name-plain; pre="$rt $lib"
		fi
		tag="$name/$mode"
		# Clean: exit 0, the success line, no sanitizer report at all.
		run "$dir/o" "$dir/e" "$pre" "$prog" clean; rc=$?
		if grep -q 'pthread_create failed' "$dir/o"; then
			bad "$tag: clean mode: $(grep 'pthread_create failed' "$dir/o" | sed 's/^tools-prog: //') (exit $rc); $name cannot run threads with libnptl"
			show "$dir/e"
			if [ $name = tsan ]; then
				if [ $mode = link ]; then tsan_diagnose "$prog" "$rt"
				else echo "  (the same start-up failure as tsan/link)"; fi
			fi
			nothreads=1
		else
			nothreads=0
		fi
		if [ $nothreads = 1 ]; then
			:
		elif [ $rc -ne 0 ] || ! grep -q '^tools-prog: ok$' "$dir/o"; then
			bad "$tag: clean mode exited $rc"; show "$dir/o"; show "$dir/e"
		elif grep -Eq 'ERROR: AddressSanitizer|WARNING: ThreadSanitizer|Sanitizer' "$dir/e"; then
			bad "$tag: clean mode: false report"; show "$dir/e"
		elif [ -s "$dir/e" ]; then
			bad "$tag: clean mode wrote to stderr"; show "$dir/e"
		else
			echo "$tag: clean: exit 0, no report"
		fi
		# Bug: reported as such, exit non-zero, exactly one report.
		run "$dir/o" "$dir/e" "$pre" "$prog" "$bugmode"; rc=$?
		n=$(grep -Ec '^(==[0-9]+==ERROR: AddressSanitizer|WARNING: ThreadSanitizer)' "$dir/e")
		if [ $nothreads = 1 ]; then
			echo "$tag: $bugmode: not checked (no threads: $(sed 's/^tools-prog: //' "$dir/o"))"
		elif [ $rc -eq 0 ]; then
			bad "$tag: $bugmode mode exited 0"; show "$dir/e"
		elif ! grep -q "$pattern" "$dir/e"; then
			bad "$tag: $bugmode mode: no \"$pattern\" (exit $rc)"; show "$dir/o"; show "$dir/e"
		elif [ "$n" -ne 1 ]; then
			bad "$tag: $bugmode mode: $n reports, expected one"; show "$dir/e"
		elif ! grep -Eq "in (uaf_thread|race_thread) .*tools-prog\.c|(uaf_thread|race_thread) .*tools-prog\.c" "$dir/e"; then
			bad "$tag: $bugmode mode: the report does not point at the thread function"; show "$dir/e"
		else
			echo "$tag: $bugmode: exit $rc, $(grep -m1 "$pattern" "$dir/e" | sed 's/ on address.*//; s/ (pid=.*//; s/^==[0-9]*==//')"
		fi
		# Bindings: the sanitizer's interceptor found libnptl's pthread_create.
		rm -f "$dir/bind".*
		if [ -n "$pre" ]; then
			LD_DEBUG=bindings LD_DEBUG_OUTPUT="$dir/bind" LD_PRELOAD=$pre \
				$to "$prog" clean > /dev/null 2>&1
		else
			LD_DEBUG=bindings LD_DEBUG_OUTPUT="$dir/bind" \
				LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
				$to "$prog" clean > /dev/null 2>&1
		fi
		cat "$dir/bind".* > "$dir/bind" 2>/dev/null
		b=$(grep "binding file [^ ]*/lib[at]san\.so[^ ]* \[[0-9]*\] to [^ ]*libnptl\.so\.0 \[[0-9]*\]: normal symbol \`pthread_create'" "$dir/bind" | head -1)
		if [ -n "$b" ]; then
			echo "$tag: $(echo "$b" | sed 's/^ *[0-9]*:[[:space:]]*//')"
		else
			bad "$tag: under LD_DEBUG=bindings no pthread_create of the $name runtime bound to libnptl.so.0:"
			grep "symbol \`pthread_create'" "$dir/bind" | sed 's/^/  | /'
		fi
	done
}

sanitizer asan -fsanitize=address libasan.so uaf 'ERROR: AddressSanitizer: heap-use-after-free'
sanitizer tsan -fsanitize=thread libtsan.so race 'WARNING: ThreadSanitizer: data race'

# gdb, through libthread_db.
if ! command -v gdb > /dev/null 2>&1; then
	echo "SKIP: gdb: no gdb"
elif ! $cc -Wall -Wextra -Werror -g -o "$dir/gdb-prog" "$src" -L"$libdir" \
		-Wl,--no-as-needed -lnptl > "$dir/gdb-cc.log" 2>&1; then
	ran=1
	bad "gdb: $cc -Wall -Wextra -Werror could not build $src"; show "$dir/gdb-cc.log"
else
	ran=1
	$to gdb -nx -batch -ex "set environment LD_LIBRARY_PATH $libdir" \
		-ex 'break all_alive' -ex 'run clean' -ex 'info threads' \
		-ex 'thread apply all bt' -ex 'kill' "$dir/gdb-prog" \
		> "$dir/gdb.out" 2>&1
	ok=1
	grep -q 'Thread debugging using libthread_db enabled' "$dir/gdb.out" ||
		{ bad "gdb: libthread_db was not enabled"; ok=0; }
	grep -q 'hit Breakpoint 1, all_alive' "$dir/gdb.out" ||
		{ bad "gdb: the breakpoint in all_alive was not hit"; ok=0; }
	# info threads: lines "  Id  Target Id ..."; then one per thread.
	nthr=$(grep -Ec '^[* ] +[0-9]+ +Thread 0x[0-9a-f]+ \(LWP [0-9]+\)' "$dir/gdb.out")
	[ "$nthr" -eq 5 ] || { bad "gdb: info threads lists $nthr threads, expected 5"; ok=0; }
	for i in 0 1 2 3; do
		grep -Eq "^[* ] +[0-9]+ +Thread 0x[0-9a-f]+ \(LWP [0-9]+\) \"tools-w$i\"" "$dir/gdb.out" ||
			{ bad "gdb: info threads does not name tools-w$i"; ok=0; }
		# The backtrace block of that thread: a frame #0 and worker().
		awk -v name="\"tools-w$i\"):" '
			/^Thread [0-9]+ \(Thread / { inblk = (index($0, name) > 0); if (inblk) hdr = 1; next }
			/^$/ { inblk = 0 }
			inblk && /^#0 / { f0 = 1 }
			inblk && /in worker \(arg=/ { w = 1 }
			END { exit !(hdr && f0 && w) }' "$dir/gdb.out" ||
			{ bad "gdb: no backtrace through worker() for tools-w$i"; ok=0; }
	done
	awk '/^Thread 1 \(Thread / { b = 1; next } /^$/ { b = 0 }
		b && /^#0 +all_alive/ { a = 1 } b && / in main / { m = 1 }
		END { exit !(a && m) }' "$dir/gdb.out" ||
		{ bad "gdb: main thread's backtrace is not all_alive <- main"; ok=0; }
	if [ $ok = 1 ]; then
		echo "gdb: 5 threads listed, tools-w0..3 named, each with a backtrace through worker():"
		grep -E '^[* ] +[0-9]+ +Thread 0x' "$dir/gdb.out" | sed 's/^/  | /'
	else
		sed 's/^/  | /' "$dir/gdb.out" | grep -v '^  | \[New Thread\|exited\]$' | head -60
	fi
fi

if [ $ran = 0 ]; then
	echo "SKIP: no part could run"
	exit 77
fi
[ $fail -eq 0 ] && echo "tools: ok"
exit $fail
