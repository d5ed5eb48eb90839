#!/bin/bash
# Count TAP results under a directory and print the closing line
# "N passed, N failed, N skipped"; exit 1 if anything failed or nothing ran.
# usage: tap-summary.sh DIR
set -u
dir=$1
pass=0 fail=0 skip=0
while IFS= read -r line; do
	case $line in
	"not ok"*) fail=$((fail + 1)) ;;
	"ok"*"# SKIP"*) skip=$((skip + 1)) ;;
	"ok"*) pass=$((pass + 1)) ;;
	esac
done < <(cat $(find "$dir" -name '*.tap' 2>/dev/null | sort) /dev/null)
if [ "$fail" != 0 ]; then
	echo "Failed:"
	grep -rh '^not ok' --include='*.tap' "$dir" | sed 's/^/  /'
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$pass" != 0 ]
