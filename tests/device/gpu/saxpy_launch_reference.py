# saxpy_launch.ppy as python3 runs it: the kernel's launch is a loop over its threads.
def main() -> None:
    n = 1000
    xs = [0.0] * n
    ys = [0.0] * n
    for i in range(n):
        xs[i] = i * 0.1
        ys[i] = 1.0 / (i + 1)
    for i in range(8 * 128):
        if i < n:
            ys[i] = 0.3 * xs[i] + ys[i]
    total = 0.0
    for i in range(n):
        total += ys[i]
    for i in range(n):
        print(ys[i])
    print(total)


main()
