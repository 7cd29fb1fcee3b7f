/* bfs.ppy in C: adjacency arrays and a distance array instead of dicts. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 100000 };
  static int adj[N][3], dist[N], queue[N];
  for (long v = 0; v < N; v++) {
    adj[v][0] = (int)((v * 7 + 1) % N);
    adj[v][1] = (int)((v * 13 + 5) % N);
    adj[v][2] = (int)((v + 1) % N);
  }
  long total = 0;
  for (int start = 0; start < 3; start++) {
    for (int v = 0; v < N; v++) dist[v] = -1;
    int head = 0, tail = 0;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
      int v = queue[head++];
      for (int k = 0; k < 3; k++) {
        int w = adj[v][k];
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue[tail++] = w;
        }
      }
    }
    int far = 0;
    for (int i = 0; i < tail; i++)
      if (dist[queue[i]] > far) far = dist[queue[i]];
    total += far + tail;
  }
  printf("%ld\n", total);
  return 0;
}
