#!/bin/bash
# Build (once) a debug kernel for `make check-debug` from Debian's
# linux-source-6.12 and the installed Debian kernel's config.
#
# The config is Debian's, trimmed with localmodconfig to what the guest
# uses (a 2-core build of every Debian module would take hours), with the
# guest's modules built in (9p, the DRM helpers vnpu links against), and
# the debug options of Documentation/security.md: generic KASAN, lockdep,
# atomic-sleep checks, kmemleak, UBSAN bounds and shift, debug objects and
# fault injection (failslab, fail_page_alloc). Debug info is off: reports
# name functions and offsets from kallsyms, which is what the scans need.
#
# The result is cached under build/debug-kernel/<key>/, the key derived
# from the source package version, Debian's config and the configuration
# part of this script (between the "config" markers), and
# build/debug-kernel/current points at it. Prints the build directory.
#
# usage: debug-kernel.sh [KVER]     (KVER: the Debian config to start from)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:-$("$top/scripts/deps.sh" kver)}
base_config=/boot/config-$kver
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1 || true)
[ -n "$tarball" ] || { echo "debug-kernel: linux-source-6.12 not installed (make deps)" >&2; exit 1; }
[ -r "$base_config" ] || { echo "debug-kernel: $base_config missing (make deps)" >&2; exit 1; }

# What building a kernel needs beyond make deps.
need=
for p in flex bison bc libelf-dev libssl-dev; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		need="$need $p"
done
if [ -n "$need" ]; then
	echo "debug-kernel: installing$need" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >&2
fi

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$( { echo "$srcver"; sha256sum <"$base_config";
	sed -n '/^# --- config begin/,/^# --- config end/p' "$0" | sha256sum; } |
	sha256sum | cut -c1-12)
out=$top/build/debug-kernel
dir=$out/$key
src=$dir/linux

if [ -f "$dir/.built" ]; then
	ln -sfn "$key" "$out/current"
	echo "$dir"
	exit 0
fi

# --- config begin
# The guest's modules: these stay in the config and become built-in.
guest_mods="9p 9pnet 9pnet_virtio netfs virtio_pci virtio_pci_modern_dev
virtio_pci_legacy_dev virtio_ring virtio virtio_console drm drm_kms_helper
drm_exec gpu_sched drm_shmem_helper drm_panel_orientation_quirks"

t0=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir"
echo "debug-kernel: extracting $(basename "$tarball") ($srcver)" >&2
tar -xf "$tarball" -C "$dir"
mv "$dir/linux-source-6.12" "$src"

# Nothing in a trimmed Debian config selects the DRM helpers vnpu links
# against (amdgpu, xe and nouveau do in Debian's): one bool symbol of
# ours selects them, so they build in.
cat >>"$src/drivers/gpu/drm/Kconfig" <<'EOF'

config VNPU_DEBUG_HELPERS
	bool "DRM helpers for the out-of-tree vnpu driver (debug kernel)"
	depends on DRM
	select DRM_KMS_HELPER
	select DRM_EXEC
	select DRM_SCHED
	select DRM_GEM_SHMEM_HELPER
	default y
EOF

cp "$base_config" "$src/.config"
lsmod_file=$dir/lsmod
{
	echo "Module Size Used"
	for m in $guest_mods; do echo "$m 0 0"; done
} >"$lsmod_file"
(
	cd "$src"
	make -s olddefconfig >/dev/null
	make -s LSMOD="$lsmod_file" localmodconfig </dev/null >/dev/null 2>&1 ||
		yes '' | make -s LSMOD="$lsmod_file" localmodconfig >/dev/null
	sc=scripts/config
	# Debian's signing keys are not in the source package.
	$sc --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--disable MODULE_SIG --disable MODULE_SIG_ALL --disable MODULE_SIG_FORCE \
		--set-str LOCALVERSION "-vnpu-debug" --disable LOCALVERSION_AUTO
	for s in NETFS_SUPPORT NET_9P NET_9P_VIRTIO 9P_FS VIRTIO VIRTIO_PCI \
		VIRTIO_CONSOLE DRM DRM_KMS_HELPER DRM_PANEL_ORIENTATION_QUIRKS; do
		$sc --enable "$s"
	done
	$sc --enable VNPU_DEBUG_HELPERS
	# Build speed: no debug info, no BTF.
	$sc --disable DEBUG_INFO --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--disable DEBUG_INFO_BTF --disable DEBUG_INFO_BTF_MODULES \
		--enable DEBUG_INFO_NONE
	# What the checks need.
	$sc --enable KASAN --enable KASAN_GENERIC --enable KASAN_INLINE \
		--enable PROVE_LOCKING --enable DEBUG_ATOMIC_SLEEP \
		--enable DEBUG_KMEMLEAK --disable DEBUG_KMEMLEAK_DEFAULT_OFF \
		--enable DEBUG_KMEMLEAK_AUTO_SCAN \
		--set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536 \
		--enable UBSAN --enable UBSAN_BOUNDS --enable UBSAN_SHIFT \
		--enable DEBUG_OBJECTS --enable DEBUG_OBJECTS_FREE \
		--enable DEBUG_OBJECTS_TIMERS --enable DEBUG_OBJECTS_WORK \
		--enable DEBUG_OBJECTS_RCU_HEAD \
		--enable FAULT_INJECTION --enable FAILSLAB --enable FAIL_PAGE_ALLOC \
		--enable FAULT_INJECTION_DEBUG_FS --enable FAULT_INJECTION_STACKTRACE_FILTER \
		--enable DEBUG_FS
	make -s olddefconfig
)
for s in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK UBSAN_BOUNDS \
	UBSAN_SHIFT DEBUG_OBJECTS FAILSLAB FAIL_PAGE_ALLOC DRM DRM_SCHED \
	DRM_EXEC DRM_GEM_SHMEM_HELPER NET_9P_VIRTIO 9P_FS DRM_ACCEL; do
	grep -q "^CONFIG_$s=y" "$src/.config" ||
		{ echo "debug-kernel: CONFIG_$s is not y after configuration" >&2; exit 1; }
done
# --- config end

echo "debug-kernel: building in $src (the first build takes a while)" >&2
make -C "$src" -j"$(nproc)" -s bzImage modules >"$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; exit 1; }
make -C "$src" -s INSTALL_MOD_PATH="$dir/root" modules_install >>"$dir/build.log" 2>&1
make -C "$src" -s kernelrelease >"$dir/kernelrelease"
cp "$src/arch/x86/boot/bzImage" "$dir/bzImage"
echo "$(( $(date +%s) - t0 ))" >"$dir/build-seconds"
touch "$dir/.built"
ln -sfn "$key" "$out/current"
echo "debug-kernel: built $(cat "$dir/kernelrelease") in $(cat "$dir/build-seconds") s" >&2
echo "$dir"
