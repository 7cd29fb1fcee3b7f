/* Module binary_search, written by ppy's c backend from canonical IR. */
#include <stdbool.h>
#define PPY_RT_STRINGS 1

/* (the ppy native runtime) */

#define PPY_C_AT(at) ((void)((at) && (ppy_rt_frames->line = (at))))

static inline int64_t ppy_c_add(int64_t a, int64_t b, int64_t at) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();
  return r;
}

static inline int64_t ppy_c_div_trunc(int64_t a, int64_t b, int64_t at) {
  if (b == 0) PPY_C_AT(at), ppy_rt_raise("ZeroDivisionError", "integer division or modulo by zero");
  if (a == INT64_MIN && b == -1) PPY_C_AT(at), ppy_rt_overflow();
  return a / b;
}

static inline int64_t ppy_c_sub(int64_t a, int64_t b, int64_t at) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();
  return r;
}

int64_t binary_search_search(ppy_list* xs, int64_t target);
void binary_search_main(void);
void binary_search___main__(void);

int64_t binary_search_search(ppy_list* xs, int64_t target) {
  int64_t lo = 0;
  int64_t hi = 0;
  int64_t t = 0;
  int64_t t_2 = 0;
  bool t_3 = false;
  int64_t t_4 = 0;
  int64_t t_5 = 0;
  int64_t t_6 = 0;
  static const ppy_rt_code ppy_tb_code = {"search", "binary_search.ppy"};
  ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, 1};
  ppy_rt_frame* const ppy_tb = &ppy_tb_frame;
  ppy_rt_frames = ppy_tb;
  lo = 0;
  hi = ppy_c_sub(ppy_list_len(xs), 1, 3);
  goto block1;
block1:;
  if (lo <= hi) {
    goto block3;
  } else {
    goto block2;
  }
block2:;
  {
    int64_t result = -1;
    ppy_rt_frames = ppy_tb_frame.prev;
    return result;
  }
block3:;
  t = ppy_c_div_trunc(ppy_c_add(lo, hi, 5), 2, 5);
  t_2 = ppy_list_len(xs);
  t_3 = t < 0;
  t_4 = t_3 ? t + t_2 : t;
  if (!((t_4 >= 0) && (t_4 < t_2))) (ppy_tb->line = 6, ppy_rt_raise("IndexError", "list index out of range"));
  if (PPY_LIST_I64(xs)[t_4] == target) {
    goto block7;
  } else {
    goto block4;
  }
block4:;
  t_5 = ppy_list_len(xs);
  t_6 = t_3 ? t + t_5 : t;
  if (!((t_6 >= 0) && (t_6 < t_5))) (ppy_tb->line = 8, ppy_rt_raise("IndexError", "list index out of range"));
  if (PPY_LIST_I64(xs)[t_6] < target) {
    goto block6;
  } else {
    goto block5;
  }
block5:;
  hi = t - 1;
  goto block1;
block6:;
  lo = t + 1;
  goto block1;
block7:;
  {
    int64_t result = t;
    ppy_rt_frames = ppy_tb_frame.prev;
    return result;
  }
}

void binary_search_main(void) {
  ppy_list* t = 0;
  ppy_list* t_2 = 0;
  int64_t i = 0;
  int64_t t_3 = 0;
  int64_t t_4 = 0;
  static const ppy_rt_code ppy_tb_code = {"main", "binary_search.ppy"};
  ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, 15};
  ppy_rt_frame* const ppy_tb = &ppy_tb_frame;
  ppy_rt_frames = ppy_tb;
  ppy_tb->line = 16;
  t = ppy_list_new_i64(7);
  PPY_LIST_I64(t)[0] = 1;
  PPY_LIST_I64(t)[1] = 3;
  PPY_LIST_I64(t)[2] = 5;
  PPY_LIST_I64(t)[3] = 7;
  PPY_LIST_I64(t)[4] = 9;
  PPY_LIST_I64(t)[5] = 11;
  PPY_LIST_I64(t)[6] = 13;
  ppy_tb->line = 17;
  t_2 = ppy_list_new_i64(6);
  PPY_LIST_I64(t_2)[0] = 1;
  PPY_LIST_I64(t_2)[1] = 7;
  PPY_LIST_I64(t_2)[2] = 13;
  PPY_LIST_I64(t_2)[3] = 4;
  PPY_LIST_I64(t_2)[4] = 0;
  PPY_LIST_I64(t_2)[5] = 14;
  i = 0;
  while (i < ppy_list_len(t_2)) {
    t_3 = PPY_LIST_I64(t_2)[i];
    ppy_tb->line = 18;
    t_4 = binary_search_search(t, t_3);
    ppy_print_i64(t_3);
    ppy_print_space();
    ppy_print_i64(t_4);
    ppy_print_newline();
    i = i + 1;
  }
  ppy_rt_frames = ppy_tb_frame.prev;
}

void binary_search___main__(void) {
  static const ppy_rt_code ppy_tb_code = {"<module>", "binary_search.ppy"};
  ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, 22};
  ppy_rt_frame* const ppy_tb = &ppy_tb_frame;
  ppy_rt_frames = ppy_tb;
  ppy_tb->line = 22;
  binary_search_main();
  ppy_rt_frames = ppy_tb_frame.prev;
}
