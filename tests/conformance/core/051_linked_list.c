// A malloc'd singly linked list: insert sorted, reverse, delete, free.
#include <stdio.h>
#include <stdlib.h>

typedef struct node { int key; struct node *next; } node;

static node *insert_sorted(node *head, int key) {
  node *n = malloc(sizeof *n);
  n->key = key;
  node **pp = &head;
  while (*pp && (*pp)->key < key) pp = &(*pp)->next;
  n->next = *pp;
  *pp = n;
  return head;
}
static node *reverse(node *h) {
  node *prev = NULL;
  while (h) { node *nx = h->next; h->next = prev; prev = h; h = nx; }
  return prev;
}
static node *remove_key(node *h, int key) {
  for (node **pp = &h; *pp; pp = &(*pp)->next)
    if ((*pp)->key == key) { node *d = *pp; *pp = d->next; free(d); break; }
  return h;
}
static int length(const node *h) { int n = 0; for (; h; h = h->next) n++; return n; }

int main(void) {
  int errors = 0;
  node *list = NULL;
  srand(17);
  int keys[50];
  for (int i = 0; i < 50; i++) { keys[i] = rand() % 1000; list = insert_sorted(list, keys[i]); }
  for (node *p = list; p && p->next; p = p->next)
    if (p->key > p->next->key) { errors++; printf("FAIL not sorted\n"); break; }
  list = remove_key(list, keys[10]);
  list = remove_key(list, keys[20]);
  list = remove_key(list, -5);
  if (length(list) != 48) { errors++; printf("FAIL length %d\n", length(list)); }
  list = reverse(list);
  for (node *p = list; p && p->next; p = p->next)
    if (p->key < p->next->key) { errors++; printf("FAIL not reversed\n"); break; }
  while (list) { node *nx = list->next; free(list); list = nx; }
  if (errors == 0) printf("linked list ok\n");
  return errors != 0;
}
