/* Module nested_loops, written by ppy's c backend from canonical IR. */
#include <stdbool.h>

/* (the ppy native runtime) */

#define PPY_C_AT(at) ((void)((at) && (ppy_rt_frames->line = (at))))

static inline int64_t ppy_c_add(int64_t a, int64_t b, int64_t at) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();
  return r;
}

static inline int64_t ppy_c_mod_trunc(int64_t a, int64_t b, int64_t at) {
  if (b == 0) PPY_C_AT(at), ppy_rt_raise("ZeroDivisionError", "integer modulo by zero");
  return b == -1 ? 0 : a % b;
}

static inline int64_t ppy_c_mul(int64_t a, int64_t b, int64_t at) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) PPY_C_AT(at), ppy_rt_overflow();
  return r;
}

void nested_loops_main(void);
void nested_loops___main__(void);

void nested_loops_main(void) {
  int64_t i = 0;
  int64_t i_2 = 0;
  int64_t row = 0;
  int64_t i_3 = 0;
  int64_t count = 0;
  int64_t i_4 = 0;
  int64_t count_2 = 0;
  int64_t count_3 = 0;
  static const ppy_rt_code ppy_tb_code = {"main", "nested_loops.ppy"};
  ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, 1};
  ppy_rt_frame* const ppy_tb = &ppy_tb_frame;
  ppy_rt_frames = ppy_tb;
  i = 1;
  while (1) {
    if (i < 5) {
      i_2 = 1;
      row = 0;
      while (i_2 < 5) {
        if (i_2 > i) {
          break;
        } else {
          row = ppy_c_add(row, ppy_c_mul(i, i_2, 7), 7);
          i_2 = i_2 + 1;
        }
      }
      ppy_print_i64(i);
      ppy_print_space();
      ppy_print_i64(row);
      ppy_print_newline();
      i = ppy_c_add(i, 1, 2);
    } else {
      i_3 = 0;
      count = 0;
      break;
    }
  }
  while (i_3 < 10) {
    i_4 = 0;
    count_2 = count;
    while (i_4 < 10) {
      if (ppy_c_mod_trunc(ppy_c_add(i_3, i_4, 12), 3, 12) == 0) {
        count_3 = count_2;
      } else {
        count_3 = ppy_c_add(count_2, 1, 14);
      }
      i_4 = i_4 + 1;
      count_2 = count_3;
    }
    i_3 = ppy_c_add(i_3, 1, 10);
    count = count_2;
  }
  ppy_print_i64(count);
  ppy_print_newline();
  ppy_rt_frames = ppy_tb_frame.prev;
}

void nested_loops___main__(void) {
  static const ppy_rt_code ppy_tb_code = {"<module>", "nested_loops.ppy"};
  ppy_rt_frame ppy_tb_frame = {ppy_rt_frames, &ppy_tb_code, 19};
  ppy_rt_frame* const ppy_tb = &ppy_tb_frame;
  ppy_rt_frames = ppy_tb;
  ppy_tb->line = 19;
  nested_loops_main();
  ppy_rt_frames = ppy_tb_frame.prev;
}

int main(void) { return ppy_rt_run(nested_loops___main__); }
