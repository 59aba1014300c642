#!/bin/sh
# libnptl only: the exported ABI is the committed one.
#  - every exported name@version, default (@@) or compatibility (@), with its
#    kind and, for data, its size, equals tests/abi/libnptl.so.0.abi;
#  - every name symbols.map lists is defined, and every defined name is
#    listed (nothing exported by accident).
# An intended change: `make abi-update`, and say why in the commit message.
set -u
lib=.libs/libnptl.so.0
map=${srcdir:-.}/symbols.map
base=${srcdir:-.}/tests/abi/libnptl.so.0.abi
[ -f "$lib" ] || { echo "no $lib"; exit 99; }
out=${1:-}

current() {
	# objdump -T: defined rows have a section other than *UND*; compat
	# versions are printed in parentheses.
	objdump -T "$lib" | awk '
		$0 ~ /\*UND\*/ { next }
		NF >= 7 && ($3 == "DF" || $3 == "DO") {
			ver = $(NF-1); name = $NF
			if (ver == "Base" || name == ver) next
			kind = ($3 == "DF") ? "func" : "data"
			if (ver ~ /^\(.*\)$/) { gsub(/[()]/, "", ver); bind = name "@" ver }
			else bind = name "@@" ver
			size = (kind == "data") ? " size=0x" $5 : ""
			print bind " " kind size
		}' | LC_ALL=C sort
}

if [ "$out" = "--update" ]; then
	current > "$base"
	echo "wrote $base ($(wc -l < "$base") symbols)"
	exit 0
fi

bad=0
cur=$(mktemp)
trap 'rm -f "$cur"' EXIT
current > "$cur"
if ! diff -u "$base" "$cur"; then
	echo "the exported ABI differs from $base (see diff above)"
	bad=1
fi
listed=$(sed -e 's|/\*.*\*/||' "$map" | grep -E '^[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' | LC_ALL=C sort -u)
defined=$(sed 's/@.*//' "$cur" | LC_ALL=C sort -u)
missing=$(printf '%s\n' "$listed" | LC_ALL=C comm -23 - "$(printf '%s\n' "$defined" > "$cur.d"; echo "$cur.d")")
extra=$(printf '%s\n' "$defined" | LC_ALL=C comm -23 - "$(printf '%s\n' "$listed" > "$cur.l"; echo "$cur.l")")
rm -f "$cur.d" "$cur.l"
if [ -n "$missing" ]; then
	echo "listed in symbols.map but not defined:"; printf '  %s\n' $missing; bad=1
fi
if [ -n "$extra" ]; then
	echo "exported but not listed in symbols.map:"; printf '  %s\n' $extra; bad=1
fi
[ $bad -eq 0 ] && echo "ABI matches $base: $(wc -l < "$base") symbols"
exit $bad
