#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The conformance tests built from the same sources against plain glibc
# (no libnptl), then run either as they are (mode "glibc": what passes tests
# POSIX and glibc's behaviour, not libnptl's quirks) or under
# LD_PRELOAD=libnptl.so.0 (mode "preload": libnptl taking over a program
# that was never linked with it).  A test needing extra compiler flags says
# so in a line "// test-cflags: ..." of its source.
# Usage: check-glibc.sh glibc|preload TEST...  (from the build directory;
# srcdir, CC, CXX, CFLAGS and abs_builddir come from make).
mode=$1; shift
# One test, built if needed and run: the unit xargs runs side by side.
if [ "$mode" = --one ]; then
	mode=$1 t=$2
	case $mode in
	glibc) preload=; NPTL_TEST_GLIBC=1; export NPTL_TEST_GLIBC ;;
	*) preload=$abs_builddir/.libs/libnptl.so.0 ;;
	esac
	src=$srcdir/$t.c; cc=$CC
	[ -f "$src" ] || { src=$srcdir/$t.cc; cc=$CXX; }
	extra=$(sed -n 's|^// test-cflags: ||p' "$src")
	out=tests/glibc/$(basename "$t")
	# Built once for both modes (make rebuilds when the source changed).
	if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
		# shellcheck disable=SC2086
		if ! $cc -D_GNU_SOURCE $CFLAGS -I"$srcdir/tests" $extra -o "$out.tmp" "$src" \
			-pthread -ldl > "$out.build.log" 2>&1; then
			echo "FAIL: $t (build against glibc: $out.build.log)"
			exit 0
		fi
		mv -f "$out.tmp" "$out"
	fi
	log=$out.$mode.log
	LD_PRELOAD=$preload "./$out" > "$log" 2>&1
	case $? in
	0) echo "PASS: $t ($mode)" ;;
	77) echo "SKIP: $t ($mode)" ;;
	*) echo "FAIL: $t ($mode, see $log)" ;;
	esac
	exit 0
fi
case $mode in
glibc|preload) ;;
*) echo "usage: $0 glibc|preload TEST..." >&2; exit 2 ;;
esac
mkdir -p tests/glibc
# As many at a time as make check runs (NPTL_CHECK_JOBS, default: the CPUs).
jobs=${NPTL_CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
res=tests/glibc/check-$mode.results
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh "$0" --one "$mode" | tee "$res"
pass=$(grep -c '^PASS:' "$res")
skip=$(grep -c '^SKIP:' "$res")
fail=$(grep -c '^FAIL:' "$res")
failed=$(sed -n 's/^FAIL: \([^ ]*\).*/ \1/p' "$res" | tr -d '\n')
ran=$((pass + skip + fail))
if [ "$ran" -ne $# ]; then
	echo "check-$mode: $# tests given, $ran reported"
	fail=$((fail + $# - ran))
fi
echo "check-$mode: $pass passed, $fail failed, $skip skipped${failed:+:$failed}"
test "$fail" -eq 0
