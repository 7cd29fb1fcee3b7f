"""Module collatz, written by ppy's python backend from canonical IR."""


def steps(n):
    n_2, s = n, 0
    while n_2 != 1:
        if n_2 % 2 == 0:
            v = n_2 // 2
        else:
            t = n_2 * 3
            if t > 0x7FFFFFFFFFFFFFFF or t < -0x8000000000000000:
                raise OverflowError("integer overflow")
            t_2 = t + 1
            if t_2 > 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
            v = t_2
        t_3 = s + 1
        if t_3 > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
        n_2, s = v, t_3
    return s


def main():
    i, best, best_n = 1, 0, 0
    for i in range(i, 1000):
        n, s = i, 0
        while n != 1:
            if n % 2 == 0:
                v = n // 2
            else:
                t = n * 3
                if t > 0x7FFFFFFFFFFFFFFF or t < -0x8000000000000000:
                    raise OverflowError("integer overflow")
                t_2 = t + 1
                if t_2 > 0x7FFFFFFFFFFFFFFF:
                    raise OverflowError("integer overflow")
                v = t_2
            t_3 = s + 1
            if t_3 > 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
            n, s = v, t_3
        if s > best:
            best_2, best_n_2 = s, i
        else:
            best_2, best_n_2 = best, best_n
        best, best_n = best_2, best_n_2
    print(best_n, best)


if __name__ == "__main__":
    main()
