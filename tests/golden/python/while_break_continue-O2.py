"""Module while_break_continue, written by ppy's python backend from canonical IR."""


def main():
    i = 0
    while True:
        t = i + 1
        if t > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
        if t % 3 != 0:
            i = t
        else:
            t_2 = t * t
            if t_2 > 0x7FFFFFFFFFFFFFFF or t_2 < -0x8000000000000000:
                raise OverflowError("integer overflow")
            if t_2 > 50:
                break
            else:
                i = t
    print(t)
    n, steps = 27, 0
    while n != 1:
        if n % 2 == 0:
            n_2 = n // 2
        else:
            t_3 = n * 3
            if t_3 > 0x7FFFFFFFFFFFFFFF or t_3 < -0x8000000000000000:
                raise OverflowError("integer overflow")
            t_4 = t_3 + 1
            if t_4 > 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
            n_2 = t_4
        t_5 = steps + 1
        if t_5 > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
        n, steps = n_2, t_5
    print(steps)


if __name__ == "__main__":
    main()
