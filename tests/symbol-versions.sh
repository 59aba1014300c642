#!/bin/sh
# libnptl only: libnptl's exports mirror glibc's versions.
#  1. every name@version libnptl defines (outside its own NPTL_1.0) is
#     defined by libc.so.6 with the same version, and both agree on whether
#     it is the default (name@@version; objdump -T shows it bare) or a
#     compatibility version (name@version; objdump -T shows "(version)");
#  2. for every name libnptl defines, every version libc.so.6 gives that
#     name is defined by libnptl too (no reference can miss libnptl).
# Run from the build directory; NPTL_LIB and LIBC override the objects.
set -u
lib=${NPTL_LIB:-.libs/libnptl.so.0}
libc=${LIBC:-/lib/x86_64-linux-gnu/libc.so.6}
for f in "$lib" "$libc"; do
	[ -f "$f" ] || { echo "missing $f"; exit 99; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Defined dynamic symbols with a version as "name version default|compat".
# objdump -T: addr flags... section size version name; the version column
# is "(V)" for a hidden (compat) version.  Version definitions themselves
# (*ABS* rows whose name is the version) are left out.
defs() {
	objdump -T "$1" | awk -v want="$2" '
		NF < 6 || $0 ~ /\*UND\*/ { next }
		$2 != "g" && !(want == "any" && $2 == "w") { next }
		{
			name = $NF; ver = $(NF - 1); kind = "default"
			if (ver ~ /^\(.*\)$/) { ver = substr(ver, 2, length(ver) - 2); kind = "compat" }
			if (ver == "Base" || ver == "*ABS*" || ver == name) next
			if (ver !~ /^[A-Z]/) next
			print name, ver, kind
		}' | sort -u
}
defs "$lib" g > "$dir/nptl"
defs "$libc" any > "$dir/libc"
n_all=$(wc -l < "$dir/nptl")
[ "$n_all" -gt 0 ] || { echo "FAIL: no versioned definitions in $lib"; exit 1; }
grep -v ' NPTL_1\.0 ' "$dir/nptl" > "$dir/nptl.glibc"
grep ' NPTL_1\.0 ' "$dir/nptl" > "$dir/nptl.own"
fail=0

# 1. same name, version and kind in libc.
missing=$(comm -23 "$dir/nptl.glibc" "$dir/libc")
if [ -n "$missing" ]; then
	fail=1
	echo "$missing" | while read -r name ver kind; do
		other=$(awk -v n="$name" -v v="$ver" '$1 == n && $2 == v { print $3 }' "$dir/libc")
		if [ -n "$other" ]; then
			echo "FAIL: $name@$ver is $kind in libnptl but $other in libc"
		else
			echo "FAIL: $name@$ver ($kind) is not defined by libc"
		fi
	done
fi

# 2. no version of a name libnptl serves is left to libc alone.
cut -d' ' -f1 "$dir/nptl.glibc" | sort -u > "$dir/names"
awk 'NR == FNR { n[$1] = 1; next } $1 in n' "$dir/names" "$dir/libc" > "$dir/libc.ours"
cut -d' ' -f1,2 "$dir/nptl.glibc" | sort -u > "$dir/nptl.nv"
cut -d' ' -f1,2 "$dir/libc.ours" | sort -u > "$dir/libc.nv"
left=$(comm -13 "$dir/nptl.nv" "$dir/libc.nv")
if [ -n "$left" ]; then
	fail=1
	echo "$left" | while read -r name ver; do
		echo "FAIL: libc defines $name@$ver, libnptl does not"
	done
fi

n_names=$(wc -l < "$dir/names")
n_glibc=$(wc -l < "$dir/nptl.glibc")
n_own=$(wc -l < "$dir/nptl.own")
n_libc=$(wc -l < "$dir/libc.ours")
n_compat=$(grep -c ' compat$' "$dir/nptl.glibc")
echo "libnptl: $n_all versioned definitions: $n_glibc under glibc's versions" \
     "($n_compat compat) for $n_names names, $n_own in NPTL_1.0;" \
     "libc gives those names $n_libc definitions"
[ $fail -eq 0 ] && echo "symbol versions: ok"
exit $fail
