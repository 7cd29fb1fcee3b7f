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
            t_7 = count + 1
            if t_7 > 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
            count = t_7
            t_8 = i * i
            if t_8 > 0x7FFFFFFFFFFFFFFF or t_8 < -0x8000000000000000:
                raise OverflowError("integer overflow")
            j = t_8
            while j < n:
                t_9 = flags
                t_10 = j
                t_11 = len(t_9)
                t_12 = t_10 + t_11 if t_10 < 0 else t_10
                if not (t_12 >= 0 and t_12 < t_11):
                    raise IndexError("list assignment index out of range")
                t_9[t_12] = 1
                t_13 = j + i
                if t_13 > 0x7FFFFFFFFFFFFFFF or t_13 < -0x8000000000000000:
                    raise OverflowError("integer overflow")
                j = t_13
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


if __name__ == "__main__":
    main()
