#!/usr/bin/env bash
# The GPU checks of the device and source backends, in two halves: this one runs
# here (ppy, nvcc and python3, no GPU) and writes everything into DIR; DIR/run.sh
# runs on a machine with a GPU (the `device` tool: copy DIR into the working
# tree and run `bash DIR/run.sh`). Nothing in CI depends on it.
#   tests/device/gpu/prepare.sh PPY DIR
# Checks: saxpy as PTX for sm_75 and sm_90, loaded with the CUDA driver API and
# launched on known data, against python3's a * x + y; saxpy_launch.ppy through
# the c backend's cuda format (nvcc with -fmad true and false), against python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ppy=$(realpath "$1")
dir=$(realpath -m "$2")
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$dir"
cd "$dir"
"$nvcc" -o loader "$here/saxpy_loader.cpp" -L"$(dirname "$nvcc")/../lib64/stubs" -lcuda
for arch in sm_75 sm_90; do
  PPY_CUDA_ARCH=$arch "$ppy" emit ptx "$here/../../../examples/gpu/saxpy.ppy" --no-cache -o saxpy_$arch.ptx
done
python3 - <<'PY'
with open("expected_saxpy.txt", "w") as f:
    for i in range(1000):
        f.write("%.17g\n" % (0.3 * (i * 0.1) + 1.0 / (i + 1)))
PY
"$ppy" emit cuda "$here/saxpy_launch.ppy" --no-cache -o launch.cu
printf '\nint main(void) { return ppy_rt_run(saxpy_launch_main); }\n' >> launch.cu
for fmad in true false; do "$nvcc" -arch=sm_90 -fmad=$fmad -o launch_fmad_$fmad launch.cu; done
python3 "$here/saxpy_launch_reference.py" > expected_launch.txt
cat > run.sh <<'SH'
#!/usr/bin/env bash
# Written by tests/device/gpu/prepare.sh: runs its checks on this machine's GPU.
set -u
cd "$(dirname "$0")"
nvidia-smi -L 2>&1 | head -1
status=0
for arch in sm_75 sm_90; do
  if ./loader saxpy_$arch.ptx saxpy_saxpy > got_$arch.txt 2> err_$arch.txt; then
    if cmp -s got_$arch.txt expected_saxpy.txt; then echo "ptx $arch: saxpy on the GPU matches python3 on all 1000 values"
    else echo "ptx $arch: DIFFERS from python3 on $(diff got_$arch.txt expected_saxpy.txt | grep -c '^<') values"; status=1; fi
  else echo "ptx $arch: the loader failed: $(cat err_$arch.txt)"; status=1; fi
done
for fmad in true false; do
  if ./launch_fmad_$fmad > got_launch_$fmad.txt 2> err_launch_$fmad.txt; then
    if cmp -s got_launch_$fmad.txt expected_launch.txt; then echo "cuda -fmad=$fmad: matches python3"
    else echo "cuda -fmad=$fmad: DIFFERS from python3 on $(diff got_launch_$fmad.txt expected_launch.txt | grep -c '^<') lines"; status=1; fi
  else echo "cuda -fmad=$fmad: failed: $(head -3 err_launch_$fmad.txt)"; status=1; fi
done
exit $status
SH
chmod +x run.sh
echo "prepared $dir; on a GPU machine: bash $dir/run.sh"
