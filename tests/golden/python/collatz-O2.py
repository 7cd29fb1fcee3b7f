"""Module collatz, written by ppy's python backend from canonical IR."""


def steps(n):
    s = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = n * 3 + 1
            if n > 0x7FFFFFFFFFFFFFFF or n < -0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
        s = s + 1
        if s > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
    return s


def main():
    i, best, best_n = 1, 0, 0
    for i in range(i, 1000):
        best_2 = steps(i)
        if best_2 > best:
            best_n = i
        else:
            best_2 = best
        best = best_2
    print(best_n, best)


def __main__():
    main()


if __name__ == "__main__":
    __main__()
