"""Module while_break_continue, written by ppy's python backend from canonical IR."""


def main():
    i = 0
    while True:
        i = i + 1
        if i > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
        if i % 3 != 0:
            pass
        else:
            t = i * i
            if t > 0x7FFFFFFFFFFFFFFF or t < -0x8000000000000000:
                raise OverflowError("integer overflow")
            if t > 50:
                break
    print(i)
    n, steps = 27, 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = n * 3 + 1
            if n > 0x7FFFFFFFFFFFFFFF or n < -0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
        steps = steps + 1
        if steps > 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
    print(steps)


def __main__():
    main()


if __name__ == "__main__":
    __main__()
