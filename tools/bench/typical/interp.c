/* interp.ppy in C: the same stack machine, opcodes compared as strings. */
#include <stdio.h>
#include <string.h>

typedef struct { const char* op; long arg; } Insn;

static long run(const Insn* code, int len) {
  long stack[64], regs[4] = {0, 0, 0, 0};
  int sp = 0, pc = 0;
  long steps = 0;
  while (pc < len) {
    const char* op = code[pc].op;
    long arg = code[pc].arg;
    steps++;
    if (!strcmp(op, "push")) stack[sp++] = arg;
    else if (!strcmp(op, "load")) stack[sp++] = regs[arg];
    else if (!strcmp(op, "store")) regs[arg] = stack[--sp];
    else if (!strcmp(op, "add")) { long b = stack[--sp]; stack[sp - 1] += b; }
    else if (!strcmp(op, "mod")) { long b = stack[--sp]; stack[sp - 1] %= b; }
    else if (!strcmp(op, "lt")) { long b = stack[--sp]; stack[sp - 1] = stack[sp - 1] < b; }
    else if (!strcmp(op, "jz")) { if (stack[--sp] == 0) { pc = (int)arg; continue; } }
    else if (!strcmp(op, "jmp")) { pc = (int)arg; continue; }
    pc++;
  }
  return regs[1] + steps;
}

int main(void) {
  long n = 300000;
  Insn code[] = {{"push", 0}, {"store", 0}, {"push", 0}, {"store", 1}, {"load", 0}, {"push", n}, {"lt", 0},
                 {"jz", 20}, {"load", 1}, {"load", 0}, {"add", 0}, {"push", 1000003}, {"mod", 0}, {"store", 1},
                 {"load", 0}, {"push", 1}, {"add", 0}, {"store", 0}, {"jmp", 4}, {"push", 0}};
  printf("%ld\n", run(code, (int)(sizeof code / sizeof code[0])));
  return 0;
}
