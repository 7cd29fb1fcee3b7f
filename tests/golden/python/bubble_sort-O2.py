"""Module bubble_sort, written by ppy's python backend from canonical IR."""


def sort(xs):
    t = len(xs)
    i = 0
    for i in range(i, t):
        t_2 = t - 1
        t_3 = t_2 - i
        if not -0x8000000000000000 <= t_3 <= 0x7FFFFFFFFFFFFFFF:
            raise OverflowError("integer overflow")
        i_2, swapped = 0, False
        for i_2 in range(i_2, t_3):
            t_5 = i_2 + t if i_2 < 0 else i_2
            t_6 = t_5 >= 0 and t_5 < t
            if not t_6:
                raise IndexError("list index out of range")
            t_7 = t_5
            t_8 = xs[t_7]
            t_9 = i_2 + 1
            t_10 = t_9 + t if t_9 < 0 else t_9
            t_11 = t_10 >= 0 and t_10 < t
            if not t_11:
                raise IndexError("list index out of range")
            t_12 = t_10
            if t_8 > xs[t_12]:
                if not t_11:
                    raise IndexError("list index out of range")
                t_13 = xs[t_12]
                if not t_6:
                    raise IndexError("list index out of range")
                t_14 = xs[t_7]
                if not t_6:
                    raise IndexError("list assignment index out of range")
                xs[t_7] = t_13
                if not t_11:
                    raise IndexError("list assignment index out of range")
                xs[t_12] = t_14
                swapped_2 = True
            else:
                swapped_2 = swapped
            swapped = swapped_2
        if not swapped:
            break
        else:
            pass


def main():
    t = [0] * 8
    t[0] = 5
    t[1] = 2
    t[2] = 9
    t[3] = 1
    t[4] = 5
    t[5] = 6
    t[6] = -3
    t[7] = 0
    sort(t)
    print("[", end="")
    t_2 = len(t)
    i = 0
    for i in range(i, t_2):
        if i > 0:
            print(", ", end="")
        print(t[i], end="")
    print("]")


if __name__ == "__main__":
    main()
