"""Module primes_sieve, written by ppy's python backend from canonical IR."""


def sieve(flags, n):
    count = 0
    t = n
    i_2 = 2
    for i_2 in range(i_2, t):
        i = i_2
        t_2 = flags
        t_3 = i
        t_4 = len(t_2)
        t_5 = t_3 + t_4 if t_3 < 0 else t_3
        if not (t_5 >= 0 and t_5 < t_4):
            raise IndexError("list index out of range")
        if t_2[t_5] == 0:
            t_6 = count + 1
            if t_6 > 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
            count = t_6
            t_7 = i * i
            if t_7 > 0x7FFFFFFFFFFFFFFF or t_7 < -0x8000000000000000:
                raise OverflowError("integer overflow")
            j = t_7
            while j < n:
                t_8 = flags
                t_9 = j
                t_10 = len(t_8)
                t_11 = t_9 + t_10 if t_9 < 0 else t_9
                if not (t_11 >= 0 and t_11 < t_10):
                    raise IndexError("list assignment index out of range")
                t_8[t_11] = 1
                t_12 = j + i
                if t_12 > 0x7FFFFFFFFFFFFFFF or t_12 < -0x8000000000000000:
                    raise OverflowError("integer overflow")
                j = t_12
    return count


def main():
    n = 100
    t = n
    flags = [0] * (0 if t < 0 else t)
    print(sieve(flags, n))
    i_2 = 2
    for i_2 in range(i_2, 30):
        i = i_2
        t_2 = flags
        t_3 = i
        t_4 = len(t_2)
        t_5 = t_3 + t_4 if t_3 < 0 else t_3
        if not (t_5 >= 0 and t_5 < t_4):
            raise IndexError("list index out of range")
        if t_2[t_5] == 0:
            print(i, " ", sep="", end="")
    print()


def __main__():
    main()


if __name__ == "__main__":
    __main__()
