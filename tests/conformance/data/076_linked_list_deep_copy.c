// Deep copy of a linked list: each node entered, its next pointer attached; traversal on the device.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* accjit keeps a present table on every device (shared-memory ones too). gcc's host fallback,
   used only to validate this file, reports all memory present, so presence checks are skipped. */
#ifdef ACCJIT_GCC_VALIDATION
#define TRACKED 0
#else
#define TRACKED 1
#endif
static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)
#define PRESENT(p, n, want) do { if (TRACKED && (acc_is_present((p), (n)) != 0) != (want)) { \
    printf("FAIL line %d: acc_is_present(%s) != %d\n", __LINE__, #p, (want)); errors++; } } while (0)

typedef struct node { int val; struct node *next; } node;

int main(void) {
  const int len = 40;
  node *head = NULL;
  for (int i = len - 1; i >= 0; i--) { node *nd = malloc(sizeof *nd); nd->val = i * 3; nd->next = head; head = nd; }
  for (node *p = head; p; p = p->next) {
    #pragma acc enter data copyin(p[0:1])
  }
  for (node *p = head; p; p = p->next)
    if (p->next) acc_attach((void **)&p->next);
  long sum = 0;
  int count = 0;
  #pragma acc serial present(head[0:1]) copy(sum, count)
  {
    for (node *p = head; p; p = p->next) { sum += p->val; p->val += 1; count++; }
  }
  CHECK(count == len);
  CHECK(sum == 3L * len * (len - 1) / 2);
  for (node *p = head; p; p = p->next)
    if (p->next) acc_detach((void **)&p->next);
  for (node *p = head; p; p = p->next) {
    #pragma acc exit data copyout(p[0:1])
  }
  int i = 0;
  for (node *p = head; p; p = p->next, i++) CHECK(p->val == 3 * i + 1);
  CHECK(i == len);
  while (head) { node *nx = head->next; free(head); head = nx; }
  if (errors == 0) printf("linked list deep copy ok\n");
  return errors != 0;
}
