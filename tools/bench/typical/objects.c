/* objects.ppy in C: structs with double fields stepped in a loop. */
#include <stdio.h>

typedef struct { double x, y, vx, vy; } Particle;

static void step(Particle* p, double dt) {
  p->vy -= 9.81 * dt;
  p->x += p->vx * dt;
  p->y += p->vy * dt;
  if (p->y < 0.0) {
    p->y = -p->y;
    p->vy = -p->vy * 0.9;
  }
}

int main(void) {
  static Particle ps[1000];
  for (int i = 0; i < 1000; i++) ps[i] = (Particle){i * 0.01, 10.0 + (i % 7), 1.0 + (i % 3) * 0.5, 0.0};
  for (int s = 0; s < 5000; s++)
    for (int i = 0; i < 1000; i++) step(&ps[i], 0.001);
  double sx = 0.0, sy = 0.0;
  for (int i = 0; i < 1000; i++) {
    sx += ps[i].x;
    sy += ps[i].y;
  }
  printf("%.6f %.6f\n", sx, sy);
  return 0;
}
