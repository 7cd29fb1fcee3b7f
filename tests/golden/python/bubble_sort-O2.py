"""Module bubble_sort, written by ppy's python backend from canonical IR."""


def sort(xs):
    t = len(xs)
    i = 0
    for i in range(i, t):
        t_2 = t - 1 - i
        i_2, swapped = 0, False
        for i_2 in range(i_2, t_2):
            t_3 = i_2 + t if i_2 < 0 else i_2
            t_4 = t_3 >= 0 and t_3 < t
            if not t_4:
                raise IndexError("list index out of range")
            t_5 = t_3
            t_6 = xs[t_5]
            i_2 = i_2 + 1
            t_7 = i_2 + t if i_2 < 0 else i_2
            t_8 = t_7 >= 0 and t_7 < t
            if not t_8:
                raise IndexError("list index out of range")
            t_9 = t_7
            if t_6 > xs[t_9]:
                if not t_8:
                    raise IndexError("list index out of range")
                t_10 = xs[t_9]
                if not t_4:
                    raise IndexError("list index out of range")
                t_11 = xs[t_5]
                if not t_4:
                    raise IndexError("list assignment index out of range")
                xs[t_5] = t_10
                if not t_8:
                    raise IndexError("list assignment index out of range")
                xs[t_9] = t_11
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


if __name__ == "__main__":
    main()
