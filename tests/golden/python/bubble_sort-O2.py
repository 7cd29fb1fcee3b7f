"""Module bubble_sort, written by ppy's python backend from canonical IR."""


def sort(xs):
    t = len(xs)
    i = 0
    for i in range(i, t):
        t_2 = t - 1 - i
        i_2, swapped = 0, False
        for i_2 in range(i_2, t_2):
            t_3 = len(xs)
            t_4 = i_2 < 0
            t_5 = i_2 + t_3 if t_4 else i_2
            if not (t_5 >= 0 and t_5 < t_3):
                raise IndexError("list index out of range")
            t_6 = xs[t_5]
            t_7 = i_2 + 1
            t_8 = len(xs)
            t_9 = t_7 < 0
            t_10 = t_7 + t_8 if t_9 else t_7
            if not (t_10 >= 0 and t_10 < t_8):
                raise IndexError("list index out of range")
            if t_6 > xs[t_10]:
                t_11 = len(xs)
                t_12 = t_7 + t_11 if t_9 else t_7
                if not (t_12 >= 0 and t_12 < t_11):
                    raise IndexError("list index out of range")
                t_13 = xs[t_12]
                t_14 = len(xs)
                t_15 = i_2 + t_14 if t_4 else i_2
                if not (t_15 >= 0 and t_15 < t_14):
                    raise IndexError("list index out of range")
                t_16 = xs[t_15]
                t_17 = len(xs)
                t_18 = i_2 + t_17 if t_4 else i_2
                if not (t_18 >= 0 and t_18 < t_17):
                    raise IndexError("list assignment index out of range")
                xs[t_18] = t_13
                t_19 = len(xs)
                t_20 = t_7 + t_19 if t_9 else t_7
                if not (t_20 >= 0 and t_20 < t_19):
                    raise IndexError("list assignment index out of range")
                xs[t_20] = t_16
                swapped = True
        if not swapped:
            break


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


def __main__():
    main()


if __name__ == "__main__":
    __main__()
