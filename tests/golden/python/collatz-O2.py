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
        n, s = i, 0
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
        if s > best:
            best_n = i
        else:
            s = best
        best = s
    print(best_n, best)


if __name__ == "__main__":
    main()
